"""`tradewinds strength ...` is `python -m tradewinds.benchmarks.agents strength ...`:
head-to-head win rates with the same-seed control, the arguments handed over untouched (its
own parser and --help; `tradewinds.cli.verbs`)."""

from __future__ import annotations

from tradewinds.cli.verbs import Verb, hand_over

HELP = ("head-to-head win rates of agent pairings, each beside its same-seed control (the "
        "opponent in the agent's seat); stored and resumable")
HANDS_OVER = True
STRENGTH = Verb("strength", "tradewinds.benchmarks.agents:main", HELP, before=("strength",))


def run_argv(argv) -> int:
    return hand_over(STRENGTH, list(argv), "tradewinds strength")
