"""`tradewinds ratings fit|show|extend|carry ...`: the rating pool, the opponents with fixed
Elo ratings that `tradewinds evaluate` rates an agent against (studies/ladders/). Each verb
hands its arguments over untouched to its own command line (`tradewinds.cli.verbs`):
`studies.evaluate` fit and show, `studies.extend`, `studies.carry`."""

from __future__ import annotations

from tradewinds.cli.verbs import Verb, run_group

HELP = ("the rating pool that tradewinds evaluate rates against: fit, show, extend, carry "
        "(--help for each)")
HANDS_OVER = True
ABOUT = ("The rating pool: the opponents with fixed Elo ratings (random = 0) that "
         "tradewinds evaluate rates an agent against, one per game and player count "
         "(studies/ladders/<game>_<N>p.json; docs/benchmarking.md).")
VERBS = (
    Verb("fit", "tradewinds.studies.evaluate:main",
         "play every line-up of the members and fit their "
         "ratings: (re)build a pool file", before=("fit",)),
    Verb("show", "tradewinds.studies.evaluate:main",
         "print a pool as markdown: version, fit, ratings, every pair", before=("show",)),
    Verb("extend", "tradewinds.studies.extend:main",
         "add members (or replay changed ones) against the rated members, the old ratings held"),
    Verb("carry", "tradewinds.studies.carry:main",
         "carry the ratings over a change that alters no "
         "decision, proved by replaying each stale member's games"),
)


def run_argv(argv) -> int:
    return run_group("tradewinds ratings", ABOUT, VERBS, list(argv))
