"""The replay buffer: the newest `capacity` records (self-play's layout), in numpy arrays,
saved to and loaded from one .npz file so a run resumes with the buffer it had."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tradewinds.training.alphazero.selfplay import empty_records
from tradewinds.training.checkpoints import save_arrays

FIELDS = ("obs", "mask", "policy", "value")


class ReplayBuffer:
    def __init__(self, capacity: int, obs_size: int, num_actions: int):
        if capacity < 1:
            raise ValueError(f"replay capacity must be positive, got {capacity}")
        self.data = empty_records(obs_size, num_actions, capacity)
        self.capacity, self.size, self.head, self.added = capacity, 0, 0, 0

    def add(self, records: dict) -> None:
        n = len(records["obs"])
        self.added += n
        if n > self.capacity:
            records = {k: v[-self.capacity:] for k, v in records.items()}
            n = self.capacity
        idx = (self.head + np.arange(n)) % self.capacity
        for k in FIELDS:
            self.data[k][idx] = records[k]
        self.head = (self.head + n) % self.capacity
        self.size = min(self.capacity, self.size + n)

    def sample(self, batch: int, gen: np.random.Generator) -> dict:
        idx = gen.integers(0, self.size, size=batch)
        return {k: self.data[k][idx] for k in FIELDS}

    def save(self, path: Path) -> None:
        order = (self.head - self.size + np.arange(self.size)) % self.capacity
        arrays = {k: self.data[k][order] for k in FIELDS}
        save_arrays(Path(path), {"added": np.array(self.added), **arrays})

    @classmethod
    def load(cls, path: Path, capacity: int, obs_size: int, num_actions: int) -> ReplayBuffer:
        buf = cls(capacity, obs_size, num_actions)
        with np.load(path) as data:
            buf.add({k: data[k] for k in FIELDS})
            buf.added = int(data["added"])
        return buf
