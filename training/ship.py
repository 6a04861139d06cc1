"""Ship a run's checkpoint as the `ppo` agent of its game:

    tradewinds train ship-ppo results/train/hansa_2p

writes ``agents/checkpoints/<game>_<players>p.zip`` (the policy without the optimizer's
state, `training.checkpoints.export`) and a ``.json`` beside it with the game, the steps,
the last evaluation row and the `tradewinds train` command that reproduces the run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tradewinds.training import checkpoints as ck


def command(config: dict, steps: int) -> str:
    """The `tradewinds train` command of a run's config.json, stopped at `steps`."""
    from tradewinds.training.trainer import TrainConfig

    d = TrainConfig(game=config["game"], players=config["players"])
    parts = [f"tradewinds train {config['game']} --players {config['players']}",
             f"--steps {steps}"]
    flags = {"num_envs": "--num-envs", "seed": "--seed", "reward": "--reward",
             "checkpoint_every": "--checkpoint-every", "eval_games": "--eval-games"}
    for key, flag in flags.items():
        if config[key] != getattr(d, key):
            parts.append(f"{flag} {config[key]}")
    return " ".join(parts + pool_run_flags(config, d))


def pool_run_flags(config: dict, defaults) -> list[str]:
    """The `--pool`, `--net-arch` and `--option` flags of a pool learner's config.json
    (PPO's or DMC's) that differ from `defaults` (its config class at the same game and
    player count). The options are compared as config.json holds them: lists, not
    tuples."""
    flags = []
    if config["weights"] != defaults.weights:
        flags.append("--pool " + ",".join(f"{k}={v:g}" for k, v in config["weights"].items()))
    if list(config["net_arch"]) != list(defaults.net_arch):
        flags.append("--net-arch " + ",".join(str(x) for x in config["net_arch"]))
    stored = json.loads(json.dumps(defaults.options))
    flags += [f"--option {k}={v}" for k, v in config["options"].items() if v != stored.get(k)]
    return flags


def ship(run: Path, dest_dir: Path | None = None) -> Path:
    from sb3_contrib import MaskablePPO

    from tradewinds.agents.ppo import CHECKPOINTS

    run = Path(run)
    config = ck.read_json(run / "config.json")
    model = MaskablePPO.load(run / "model.zip", device="cpu")
    rows = ck.read_rows(run / "log.csv")
    last = next((r for r in reversed(rows) if int(r["steps"]) == model.num_timesteps), {})
    path = Path(dest_dir or CHECKPOINTS) / f"{config['game']}_{config['players']}p.zip"
    ck.export(model, path, {"game": config["game"], "players": config["players"],
                            "steps": int(model.num_timesteps),
                            "command": command(config, int(model.num_timesteps)),
                            "evaluation": last})
    return path


def main(argv=None, prog="python -m tradewinds.training.ship") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("run", help="a `tradewinds train` output directory")
    parser.add_argument("--dest", default=None, help="directory (default agents/checkpoints)")
    args = parser.parse_args(argv)
    path = ship(Path(args.run), args.dest and Path(args.dest))
    print(f"{path} ({path.stat().st_size / 2**20:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
