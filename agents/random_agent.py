"""The uniformly random agent: every legal action with equal probability."""

from __future__ import annotations

import numpy as np

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)


class RandomAgent:
    """Picks uniformly among the legal actions of `action_mask`, using only `rng`.

    ``uniform_random = True`` tells the arena it may replace this agent by the kernel's own
    random playout (``kernels.random_playout``) when every seat is random: equally uniform
    and equally determined by the game seed, but drawn from the kernel's generator instead
    of numpy's, so the individual games differ from those this class would play.
    """

    uniform_random = True
    name = "random"

    def __init__(self, game: str = "hansa"):
        self.game = game

    def act(self, observation, action_mask, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in action_mask")
        return int(legal[rng.integers(legal.size)])

    def __repr__(self) -> str:
        return f"RandomAgent(game={self.game!r})"
