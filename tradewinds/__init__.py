"""tradewinds: RL environments for Hansa and the Voyage game, on one kernel protocol."""

import os

# numba's OpenMP threads spin while they wait; on a busy machine (other processes, torch
# threads) that makes the batched kernels several times slower than one thread, so they
# wait passively. A short spin first (GNU OpenMP's spin count) keeps a quiet machine's
# threads awake between one batched call and the next: waking them cost the 8192-row
# batch a tenth of its two-core scaling (docs/benchmarking.md, "Throughput").
os.environ.setdefault("OMP_WAIT_POLICY", "passive")
os.environ.setdefault("GOMP_SPINCOUNT", "20000")

from tradewinds.protocol import Game, IllegalActionError  # noqa: E402
from tradewinds.registry import game, games, make  # noqa: E402

__all__ = ["Game", "IllegalActionError", "game", "games", "make"]
__version__ = "0.1.0"
