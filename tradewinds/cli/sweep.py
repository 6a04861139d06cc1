"""`tradewinds sweep`: seat advantage against playing strength (studies/sweep.py)."""

from __future__ import annotations

HELP = "seat advantage against playing strength: one study per level"
DESCRIPTION = (
    "For every level (an agent playing every seat) and player count, plays games 0..K-1 "
    "with the same seeds (mirrored: the levels differ only in the agent) into the results "
    "database (resuming), then prints seat 1's win rate and VP margin with 95% intervals "
    "and the balance metrics per level, and writes JSON, markdown and a PNG plot.")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    from tradewinds.studies.sweep import SweepConfig

    return (SweepConfig,)


def run(args) -> int:
    from tradewinds.cli import options, runs
    from tradewinds.studies.sweep import SweepConfig, run_sweep

    config = options.config(args, SweepConfig, command=runs.command_line(args))
    config.studies()           # every level and option checked before anything is written
    runs.before_playing(args, config)
    run_sweep(config)
    return 0
