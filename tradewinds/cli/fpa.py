"""`tradewinds fpa`: the first-player-advantage study (studies/fpa.py)."""

from __future__ import annotations

HELP = "first-player-advantage study: play, record, test, tabulate, plot"
DESCRIPTION = (
    "Plays games 0..K-1 (seed = --seed + i) for every player count into the results "
    "database (resuming: stored seeds are skipped), then prints per-seat win rates with "
    "Wilson 95% intervals, the exact binomial test of seat 1, chi-square, bootstrap VP margin "
    "and power, and writes a JSON summary and a PNG plot. Seat 1 is the first player of the "
    "initial turn order.")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    from tradewinds.studies.fpa import FpaConfig

    return (FpaConfig,)


def run(args) -> int:
    from tradewinds.cli import options, runs
    from tradewinds.studies.fpa import FpaConfig, run_fpa

    config = options.config(args, FpaConfig, command=runs.command_line(args))
    runs.before_playing(args, config)
    run_fpa(config)
    return 0
