"""`tradewinds balance`: the balancing value of a compensation knob (studies/balance_study.py)."""

from __future__ import annotations

HELP = "find the compensation knob value at which seat 1 wins its fair share"
DESCRIPTION = (
    "Probes integer values of a per-seat compensation knob (value k: the schedule 0, k, 2k, "
    "... by initial turn-order position) in [--lo, --hi] by bisection; each probe plays "
    "games with the same seeds (paired) in batches until the Wilson 95% interval of seat 1's "
    "win share excludes the fair share 1/n or --games-per-probe is reached. The balancing "
    "value is the crossing of a logistic fit over all probes, with a 95% seed-bootstrap "
    "interval. Games are stored in the results database; a rerun resumes. Writes a JSON "
    "summary and a PNG plot.")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    from tradewinds.studies.balance_study import BalanceConfig

    return (BalanceConfig,)


def run(args) -> int:
    from tradewinds.cli import options, runs
    from tradewinds.studies.balance_study import BalanceConfig, run_balance

    config = options.config(args, BalanceConfig, command=runs.command_line(args))
    runs.before_playing(args, config)
    run_balance(config)
    return 0
