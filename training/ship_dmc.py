"""Ship a DMC run's checkpoint as the `dmc` agent of its game:

    tradewinds train ship-dmc results/train/dmc_hansa_2p

writes ``agents/checkpoints/<game>_<players>p_dmc.pt`` (the net without the optimizer's
state) and a ``.json`` beside it with the game, the steps, the last evaluation row, the
run's settings and the `tradewinds train --algo dmc` command that reproduces the run.
"""

from __future__ import annotations

from pathlib import Path

from tradewinds.training import checkpoints as ck
from tradewinds.training.ship import pool_run_flags


def command(config: dict) -> str:
    """The `tradewinds train` command of a run's config.json: the flags that differ from
    the defaults."""
    from tradewinds.training.dmc import DMCConfig

    d = DMCConfig(game=config["game"], players=config["players"])
    parts = [f"tradewinds train {config['game']} --algo dmc --players {config['players']}"]
    for key in ("steps", "num_envs", "seed", "reward", "checkpoint_every", "eval_games",
                "learning_rate", "batch_size", "epsilon", "train_every", "buffer"):
        if config[key] != getattr(d, key):
            parts.append(f"--{key.replace('_', '-')} {config[key]}")
    return " ".join(parts + pool_run_flags(config, d))


def ship(run: Path, dest_dir: Path | None = None) -> Path:
    """Copy a run's checkpoint, without the optimizer's state, to
    ``agents/checkpoints/<game>_<players>p_dmc.pt`` (the `dmc` agent's default), with a
    ``.json`` beside it: game, steps, the last evaluation row and the run's settings."""
    import torch

    from tradewinds.agents.dmc import CHECKPOINTS

    run = Path(run)
    config = ck.read_json(run / "config.json")
    saved = torch.load(run / "model.pt", map_location="cpu", weights_only=True)
    saved.pop("optimizer", None)
    rows = ck.read_rows(run / "log.csv")
    last = next((r for r in reversed(rows) if int(r["steps"]) == saved["steps"]), {})
    path = Path(dest_dir or CHECKPOINTS) / f"{config['game']}_{config['players']}p_dmc.pt"
    ck.atomic_write(path, lambda tmp: torch.save(saved, tmp))
    ck.write_json(path.with_suffix(".json"), {
        "game": config["game"], "players": config["players"], "steps": saved["steps"],
        "command": command(config),
        "settings": {k: v for k, v in config.items() if k not in ("out", "resume", "progress")},
        "evaluation": last})
    return path


def main(argv=None, prog="tradewinds train ship-dmc") -> int:
    import argparse

    parser = argparse.ArgumentParser(prog=prog, description=ship.__doc__)
    parser.add_argument("run", help="a `tradewinds train GAME --algo dmc` output directory")
    parser.add_argument("--dest", default=None, help="directory (default agents/checkpoints)")
    args = parser.parse_args(argv)
    if not (Path(args.run) / "model.pt").is_file():
        parser.exit(2, f"error: no DMC checkpoint at {Path(args.run) / 'model.pt'}\n")
    path = ship(Path(args.run), args.dest and Path(args.dest))
    print(f"{path} ({path.stat().st_size / 2**20:.2f} MB)")
    return 0
