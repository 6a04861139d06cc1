"""`tradewinds`'s entry point: the root parser, the dispatch to a command module, and what
every command shares when it fails.

Errors are one line on stderr naming what was wrong, with exit status 2 (bad arguments,
bad database or output paths, unknown games, agents or options), checked before any game
is played. Ctrl-C stops with one line and exit status 130, keeping every stored game.
Adding a command: a module in this package (see `tradewinds.cli.demo`) and its name in
`COMMANDS`.
"""

from __future__ import annotations

import sqlite3
import sys
from importlib import import_module

from tradewinds.cli import options
from tradewinds.cli_args import EXIT_ERROR, EXIT_INTERRUPTED, ArgumentParser

COMMANDS = ("demo", "fpa", "balance", "sweep", "match", "strength", "evaluate", "ratings",
            "play", "train", "exploit", "tune", "serve", "replay", "bench", "render-map", "docs",
            "ladder")             # ladder: sweep's deprecated alias, gone in the next release


def command(name: str):
    """The module of a command (`tradewinds.cli.<name>`, a dash in the name an underscore)."""
    return import_module(f"tradewinds.cli.{name.replace('-', '_')}")


def build_parser(selected: str | None = None) -> ArgumentParser:
    """The root parser with every command listed; the options of `selected` (None: of
    every command) are added, so a command's start loads only the modules it needs."""
    from tradewinds import __version__

    parser = ArgumentParser(prog="tradewinds",
                            description="The tradewinds command line: " + ", ".join(COMMANDS))
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = command(name)
        if getattr(module, "HANDS_OVER", False):      # listed; main hands its argv over
            sub.add_parser(name, add_help=False, help=module.HELP)
            continue
        p = sub.add_parser(name, help=module.HELP, description=module.DESCRIPTION)
        if selected is None or selected == name:
            options.add_fields(p, *module.configs())
        p.set_defaults(run=module.run)
    parser.subcommands = sub.choices
    return parser


def handed_over(module, argv: list[str]) -> bool:
    """Whether `module` parses `argv` itself: always (``HANDS_OVER``), or for the arguments
    its ``hands_over(argv)`` claims (`tradewinds train --recipe`)."""
    if getattr(module, "HANDS_OVER", False):
        return True
    claims = getattr(module, "hands_over", None)
    return bool(claims and claims(argv))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    name = argv[0] if argv and argv[0] in COMMANDS else ""
    if name and handed_over(command(name), argv[1:]):
        return command(name).run_argv(argv[1:])
    parser = build_parser(name)
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:                 # named by the subcommand that got them
            parser.subcommands[args.command].error(
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as e:       # --help, --version (0) and argument errors (2)
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    args.argv = argv
    prog = f"tradewinds {args.command}"
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print(_interrupted(prog, args), file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    except (ValueError, OSError, sqlite3.Error) as e:
        text = " ".join(str(e).split()) or type(e).__name__
        print(f"{prog}: error: {text}", file=sys.stderr, flush=True)
        return EXIT_ERROR


def _interrupted(prog: str, args) -> str:
    """The Ctrl-C line: how many games are stored, and how to resume."""
    from tradewinds.cli.runs import stored_games

    db = getattr(args, "db", None)
    line = f"{prog}: interrupted"
    if db is not None and getattr(args, "stored_before", "unset") != "unset":
        now = stored_games(db)
        if now is not None:
            before = args.stored_before or 0
            line += (f"; {now} games stored in {db} ({now - before} new), rerun the same "
                     f"command to resume")
    return line


if __name__ == "__main__":
    raise SystemExit(main())
