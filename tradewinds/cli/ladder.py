"""`tradewinds ladder`: the former name of `tradewinds sweep`, kept for one release.

It takes the same options, prints a one-line note on stderr naming the new command and
then runs it. "Ladder" now means only the rated opponent pools (`tradewinds ratings`).
"""

from __future__ import annotations

import sys

from tradewinds.cli import sweep

NOTE = "tradewinds ladder: deprecated, use tradewinds sweep (the same options)"
HELP = "deprecated: the old name of sweep, runs it"
DESCRIPTION = ("Deprecated: the old name of tradewinds sweep, removed in the next release; "
               "it prints a note on stderr and runs tradewinds sweep with the same options. "
               + sweep.DESCRIPTION)


def configs() -> tuple:
    """The sweep's configs: the alias takes exactly its options."""
    return sweep.configs()


def run(args) -> int:
    print(NOTE, file=sys.stderr, flush=True)
    return sweep.run(args)
