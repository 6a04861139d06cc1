"""tradewinds: RL environments for Hansa and the Voyage game, on one kernel protocol."""

import os

# numba's OpenMP threads spin while they wait; on a busy machine (other processes, torch
# threads) that makes the batched kernels several times slower than one thread. Passive
# waiting costs nothing measurable when the machine is quiet (benchmarks/README note).
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from tradewinds.protocol import Game, IllegalActionError  # noqa: E402
from tradewinds.registry import game, games, make  # noqa: E402

__all__ = ["Game", "IllegalActionError", "game", "games", "make"]
__version__ = "0.1.0"
