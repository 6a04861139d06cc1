"""`tradewinds replay ...` is `python -m tradewinds.web.cli replay ...`: the web app's own parser
takes the arguments (tradewinds/web/cli.py)."""

from __future__ import annotations

HELP = "step through a stored game in the terminal, checked against its stored scores"
HANDS_OVER = True


def run_argv(argv) -> int:
    from tradewinds.web.cli import main

    return main(["replay", *argv])
