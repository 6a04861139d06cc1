"""A training run's files, written atomically so a killed run resumes from its last
checkpoint:

    <out>/config.json        the run's settings (TrainConfig), written once
    <out>/model.zip          the latest MaskablePPO checkpoint (SB3's own format)
    <out>/state.json         steps done and the pool's snapshot files, written last
    <out>/snapshots/step_<steps>.pt   each snapshot's policy weights (state_dict)
    <out>/log.csv            one row per checkpoint (`training.trainer.LOG_COLUMNS`)
    <out>/curve.png          the learning curve (`training.curve`)

`export` writes a small copy for shipping: the policy without the optimizer's moments.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, write) -> None:
    """Call ``write(tmp_path)`` then rename the file onto `path` (same directory)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)      # mkstemp makes it private; checkpoints get shipped
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def save_arrays(path: Path, arrays: dict, compressed: bool = False) -> None:
    """Write `arrays` to the .npz file `path` atomically (through a file object, so numpy
    adds no suffix to the temporary name)."""
    import numpy as np

    save = np.savez_compressed if compressed else np.savez

    def write(tmp):
        with open(tmp, "wb") as f:
            save(f, **arrays)
    atomic_write(path, write)


def write_json(path: Path, data) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(json.dumps(data, indent=2) + "\n"))


def read_json(path: Path):
    return json.loads(Path(path).read_text())


def check_resumable(settings: dict, config_file: Path) -> None:
    """ValueError naming the first setting that differs from the run's stored config.json,
    compared as JSON holds them (a tuple option is stored as a list)."""
    stored = read_json(config_file)
    for k, v in settings.items():
        if json.loads(json.dumps(v)) != stored.get(k):
            raise ValueError(f"--resume: {k} is {v!r} here but {stored.get(k)!r} in "
                             f"{config_file}; use another --out")


def save_model(model, path: Path) -> None:
    # SB3 appends ".zip" to a name without it: give the temporary file that suffix
    def write(tmp):
        model.save(tmp + ".zip")
        os.replace(tmp + ".zip", tmp)
    atomic_write(path, write)


def save_snapshot(state_dict, path: Path) -> None:
    import torch

    atomic_write(path, lambda tmp: torch.save(state_dict, tmp))


def load_snapshot(path: Path) -> dict:
    import torch

    return torch.load(path, map_location="cpu", weights_only=True)


def append_row(path: Path, columns: list, row: dict) -> None:
    """Append `row`; a log written with fewer columns (an older version) is first
    rewritten with these, its rows blank in the new ones."""
    new = not Path(path).exists()
    if not new:
        with open(path, newline="") as f:
            header = next(csv.reader(f), [])
        if header != list(columns):
            write_rows(path, columns, read_rows(path))
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        if new:
            w.writeheader()
        w.writerow({k: row.get(k, "") for k in columns})


def read_rows(path: Path) -> list[dict]:
    if not Path(path).exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def keep_rows_through(path: Path, columns: list, steps: int) -> None:
    """Drop log rows written after the checkpoint a resumed run restarts from."""
    write_rows(path, columns, [r for r in read_rows(path) if int(r["steps"]) <= steps])


def write_rows(path: Path, columns: list, rows: list[dict]) -> None:
    """Replace the log at `path` atomically with `rows` under `columns` (blank where a row
    has no value)."""
    def write(tmp):
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=columns)
            w.writeheader()
            w.writerows({k: r.get(k, "") for k in columns} for r in rows)
    atomic_write(path, write)


def export(model, path: Path, metadata: dict) -> None:
    """A shippable checkpoint: the model with a fresh optimizer (no Adam moments, a third
    of the size) and `metadata` (game, players, command) in ``<path>.json``."""
    policy = model.policy
    saved = policy.optimizer
    policy.optimizer = policy.optimizer_class(policy.parameters(),
                                              lr=saved.param_groups[0]["lr"],
                                              **policy.optimizer_kwargs)
    try:
        save_model(model, path)
    finally:
        policy.optimizer = saved
    write_json(Path(path).with_suffix(".json"), metadata)


def snapshot_file(step: int) -> str:
    """Where a pool snapshot taken at `step` lives, relative to the run directory."""
    return f"snapshots/step_{step:010d}.pt"


def seconds_before(out: Path, done: int) -> float:
    """The wall seconds a resumed run had spent: its last log row's, 0 for a new run."""
    rows = read_rows(Path(out) / "log.csv")
    return float(rows[-1]["seconds"]) if rows and done else 0.0


def record(out: Path, steps: int, snapshots, row: dict, columns, title: str) -> None:
    """A checkpoint's bookkeeping once its model is saved: ``state.json`` (the steps and
    the pool's snapshot files), the log row, and the redrawn learning curve."""
    from tradewinds.training.curve import draw

    out = Path(out)
    write_json(out / "state.json", {
        "steps": steps,
        "snapshots": [{"step": s.step, "file": snapshot_file(s.step)} for s in snapshots]})
    append_row(out / "log.csv", columns, row)
    draw(read_rows(out / "log.csv"), out / "curve.png", title=title)
