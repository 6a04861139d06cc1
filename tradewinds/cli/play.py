"""`tradewinds play`: a human seat against agents in the terminal (studies/play.py)."""

from __future__ import annotations

HELP = "play a game yourself against agents in the terminal"
DESCRIPTION = ("A human seat: shows the board and the numbered legal actions, reads a number "
               "or an action name; q, quit or end of input leave. Opponents are agents.")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    from tradewinds.studies.play import PlayConfig

    return (PlayConfig,)


def run(args) -> int:
    from tradewinds.cli import options
    from tradewinds.studies.play import PlayConfig, play

    return play(options.config(args, PlayConfig))
