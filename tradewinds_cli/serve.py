"""`tradewinds serve ...` is `python -m tradewinds_web.cli serve ...`: the web app's own parser
takes the arguments (tradewinds_web/cli.py)."""

from __future__ import annotations

HELP = "the local web app: play any agent in the browser, watch stored games"
HANDS_OVER = True


def run_argv(argv) -> int:
    from tradewinds_web.cli import main

    return main(["serve", *argv])
