"""`tradewinds tune`: a budgeted hyper-parameter search for the PPO baseline
(training/tune.py, docs/training.md)."""

from __future__ import annotations

HELP = "search PPO's settings on a budget (Optuna): the baseline tuned before it is compared"
DESCRIPTION = (
    "Runs an Optuna study (TPE sampler, median pruner) over the settings of `tradewinds "
    "train` (learning rate, entropy, discount, rollout length, batch, epochs, network, "
    "reward, the heuristic's share of the opponent pool): each trial trains --trial-steps "
    "env steps in its own folder under --out and is scored by its share of the VP against "
    "the heuristic at each checkpoint (its win share kept beside it); a trial below the "
    "median of the earlier ones at the same step is stopped. The study is kept in "
    "--out/study.sqlite: rerunning continues it up to --trials. Writes best.json (the "
    "space, the budget, every trial).")


def configs() -> tuple:
    from tradewinds.training.tune import TuneConfig

    return (TuneConfig,)


def run(args) -> int:
    from tradewinds import output
    from tradewinds.cli import options, runs
    from tradewinds.cli_args import require_train_extra

    require_train_extra("tune", ("sb3_contrib", "optuna"))
    from tradewinds.training.tune import TuneConfig, tune

    config = options.config(args, TuneConfig, command=runs.command_line(args))
    tune(config, console=output.console())
    return 0
