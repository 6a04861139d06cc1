"""Keep an AlphaZero run that outlives a session in the repository, small, and bring it back.

    python -m lab.keep_run keep results/train/sp_hansa_3p lab/runs/sp_hansa_3p
    python -m lab.keep_run restore lab/runs/sp_hansa_3p results/train/sp_hansa_3p

`keep` copies what `--resume` needs (net, learner with its optimizer, state, settings, log,
curve, the rated nets) and the replay buffer compressed (its observations are mostly zeros:
about 7 MB instead of 100); `restore` copies them back, so the run's own command with
`--resume` continues it exactly as if it had never stopped.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import numpy as np

FILES = ("net.npz", "learner.pt", "state.json", "config.json", "log.csv", "curve.png")


def copy_run(source: Path, dest: Path, compress: bool) -> None:
    from tradewinds.training.checkpoints import save_arrays

    if not (source / "state.json").is_file():
        raise SystemExit(f"error: {source} holds no run (no state.json)")
    dest.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        if (source / name).is_file():
            shutil.copyfile(source / name, dest / name)
    if (source / "nets").is_dir():
        shutil.copytree(source / "nets", dest / "nets", dirs_exist_ok=True)
    if (source / "replay.npz").is_file():
        with np.load(source / "replay.npz") as data:
            save_arrays(dest / "replay.npz", {k: data[k] for k in data.files},
                        compressed=compress)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("verb", choices=("keep", "restore"))
    ap.add_argument("source", type=Path)
    ap.add_argument("dest", type=Path)
    args = ap.parse_args(argv)
    copy_run(args.source, args.dest, compress=args.verb == "keep")
    print(f"{args.verb}: {args.source} -> {args.dest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
