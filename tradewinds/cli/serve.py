"""`tradewinds serve ...` is `python -m tradewinds.web.cli serve ...`: the web app's own parser
takes the arguments (tradewinds/web/cli.py)."""

from __future__ import annotations

HELP = "the local web app: play any agent in the browser, watch stored games"
HANDS_OVER = True


def run_argv(argv) -> int:
    from tradewinds.web.cli import main

    return main(["serve", *argv])
