"""`tradewinds train`: self-play training. The backend picks the trainer: MaskablePPO on
this machine (training/trainer.py) or Ray RLlib (training/rllib.py); the options of both
come from their config dataclasses, a field they share once."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tradewinds.cli_args import option

HELP = "self-play training: MaskablePPO against a pool of snapshots, the heuristic and random"
DESCRIPTION = (
    "Trains a MaskablePPO policy (sb3-contrib) on the batched VecEnv: the learner takes a "
    "random seat in each game; its opponents are drawn per game from the pool (snapshots of "
    "itself added at every checkpoint, the heuristic, random; training/pool.py). At every "
    "checkpoint it evaluates against random and the heuristic and writes model.zip, log.csv "
    "and curve.png to --out atomically; --resume continues a run. --backend rllib trains on "
    "Ray RLlib instead (multi-agent self-play, training/rllib.py). --algo alphazero trains a "
    "policy-value net by self-play with the net-guided IS-MCTS (training/alphazero/loop.py).")


@dataclass(frozen=True)
class Trainer:
    """Which trainer runs."""

    algo: str = option("ppo", choices=("ppo", "alphazero"), help="ppo: MaskablePPO or RLlib "
                       "PPO (--backend); alphazero: self-play with the net-guided search "
                       "(training/alphazero)")
    backend: str = option("sb3", choices=("sb3", "rllib", "ray"), help="sb3: MaskablePPO "
                          "on this machine; rllib: Ray RLlib PPO; ray: alphazero's self-play "
                          "on Ray actors (--actors)")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options, in the order
    of the help (a field RllibConfig shares with TrainConfig is TrainConfig's option)."""
    from training.alphazero.loop import AlphaZeroConfig
    from training.rllib import RllibConfig
    from training.trainer import TrainConfig

    return TrainConfig, Trainer, RllibConfig, AlphaZeroConfig


def run(args) -> int:
    import importlib.util

    from tradewinds_cli import options

    if importlib.util.find_spec("sb3_contrib") is None:
        raise ValueError("training needs the train extra: pip install 'tradewinds[train]'")
    sb3, _, rllib, alphazero = configs()
    if args.algo == "alphazero":
        return _alphazero(args, alphazero)
    if args.backend == "ray":
        raise ValueError("--backend ray is for --algo alphazero (PPO on Ray: --backend rllib)")
    if args.backend == "rllib":
        from training.rllib import train_rllib

        own = {f.name for f in dataclasses.fields(rllib)}
        shared = {k: v for k, v in options.values(args, sb3).items() if k in own}
        train_rllib(options.config(args, rllib, **shared))
        return 0
    if args.address is not None:
        raise ValueError("--address is for --backend rllib")
    from training.trainer import train

    run = train(options.config(args, sb3))
    print(f"checkpoint: {run.out / 'model.zip'} ({run.steps:,} steps); log: "
          f"{run.out / 'log.csv'}; curve: {run.out / 'curve.png'}; play it with the agent "
          f"ppo:{run.out / 'model.zip'}")
    return 0


def _alphazero(args, cls) -> int:
    from rich.console import Console

    from tradewinds_cli import options
    from training.alphazero.loop import train

    if args.backend == "rllib":
        raise ValueError("--algo alphazero trains on this machine or on Ray actors: "
                         "--backend ray --actors N, not --backend rllib")
    if args.backend == "ray" and args.actors < 1:
        raise ValueError("--backend ray needs --actors N (N >= 1 self-play actors)")
    if args.backend != "ray" and (args.actors or args.address is not None):
        raise ValueError("--actors and --address are for --backend ray")
    config = options.config(args, cls)
    state = train(config, console=Console())
    print(f"net: {config.out}/net.npz (iteration {state['iteration']}, "
          f"{state['core_seconds'] / 3600:.2f} core-hours); log: {config.out}/log.csv; "
          f"curve: {config.out}/curve.png; play it as az:{config.out}/net.npz or "
          f"net:{config.out}/net.npz")
    return 0
