"""The command behind every game's ``python -m <game>.render``: the docs' example picture,
a frame of the game's env after some random decisions."""

from __future__ import annotations

import argparse

import numpy as np
from PIL import Image


def parser(doc: str, *, out: str, seed: int, steps: int) -> argparse.ArgumentParser:
    """The arguments every game's picture command takes, with the game's defaults."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("out", nargs="?", default=out)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--steps", type=int, default=steps)
    return ap


def save_after_random_play(env, seed: int, steps: int, out) -> None:
    """Reset the AEC `env` (render_mode "rgb_array") with `seed`, make up to `steps`
    uniformly random legal decisions, and save its frame to `out`."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    Image.fromarray(env.render()).save(out)
    print(f"wrote {out}")
