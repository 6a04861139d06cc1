"""`tradewinds evaluate`: an agent rated against the fixed opponent ladder
(studies/evaluate.py)."""

from __future__ import annotations

HELP = "rate an agent against the fixed opponent ladder (Elo, random = 0)"
DESCRIPTION = (
    "Plays --games games of the agent against every member of the game's opponent ladder "
    "(studies/ladders/<game>_<N>p.json: random, heuristic, IS-MCTS budgets, the shipped PPO "
    "policy, each with a fixed rating, random = 0) with the seats rotated and fixed seeds, "
    "into the results database (resuming), then fits the agent's Elo rating with the "
    "ladder's ratings held fixed and prints it with a 95% interval, the win rate against "
    "each opponent with a Wilson 95% interval, and writes JSON (naming the ladder version) "
    "and markdown. See docs/benchmarking.md; refit a ladder with tradewinds ratings "
    "fit. --exploit BUDGET also trains a best response against the agent (tradewinds "
    "exploit, docs/exploit.md) and reports its exploitability beside the rating.")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    from tradewinds.studies.evaluate import EvaluateConfig
    from tradewinds.training.exploit_evaluate import ExploitOption

    return (EvaluateConfig, ExploitOption)


def run(args) -> int:
    from tradewinds import output
    from tradewinds.cli import options, runs
    from tradewinds.studies.evaluate import EvaluateConfig, run_evaluate
    from tradewinds.training.exploit_evaluate import ExploitOption, exploit_beside

    config = options.config(args, EvaluateConfig, command=runs.command_line(args))
    asked = options.config(args, ExploitOption)
    if asked.exploit is not None:
        asked.check()
    args.stored_before = runs.stored_games(args.db)
    console = output.console()
    report = run_evaluate(config, console=console)
    if asked.exploit is not None:
        exploit_beside(config, report, asked.exploit, console=console)
    return 0
