"""The `tradewinds` command: the top floor, which may use every package below it.

One module per command (`demo`, `fpa`, `sweep`, `match`, `evaluate`, `play`, `train`,
`bench`), each with a one-line `HELP`, a `DESCRIPTION`, `configs()` (the config
dataclasses whose option fields are its options; `tradewinds.cli.options` builds the parser
from them) and `run(args)`. `main` lists them in `COMMANDS` and does the rest: one-line
errors with exit status 2, Ctrl-C with exit status 130. A command module imports what it
needs inside its functions, so `tradewinds --help` and each command load only their own
floors. A command that groups other command lines (`bench`, `ratings`, `strength`,
`render-map`, `train STAGE`) hands its arguments over to them (`tradewinds.cli.verbs`).
"""
