"""`tradewinds match`: a head-to-head match with rotated seats (studies/match.py)."""

from __future__ import annotations

HELP = "head-to-head match: rotated seats, win rates, openskill and Elo"
DESCRIPTION = (
    "Plays --games games between the agents with the seats rotated (every agent in every "
    "seat equally often; with more agents than seats, every line-up in turn: see "
    "studies/match.py) into the results database (resuming), then prints each agent's win "
    "rate with a Wilson 95% interval, mean VP, openskill ratings and, for 2 players, Elo "
    "differences with 95% intervals; writes JSON and markdown. Shared wins count 1/k for "
    "each of the k winners.")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    from tradewinds.studies.match import MatchConfig

    return (MatchConfig,)


def run(args) -> int:
    from tradewinds.cli import options, runs
    from tradewinds.studies.match import MatchConfig, run_match

    runs.check_backend(args)
    config = options.config(args, MatchConfig, command=runs.command_line(args))
    args.stored_before = runs.stored_games(args.db)
    run_match(config)
    return 0
