"""The heuristic agent: each game's hand-written strategy (`agents.policies`), played on
a determinization of the real state, so it sees exactly what its seat may see."""

from __future__ import annotations

import numpy as np
from numba import njit

# importing the games' strategies binds them to agents.policies.heuristic_action
from agents import heuristic_hansa, heuristic_voyage, policies  # noqa: F401
from tradewinds import jitcache


@njit(cache=True)
def decide(aux, s, mask, key):
    """The heuristic's action for the decider of `s` (a state the decider may see)."""
    return policies.heuristic_action(aux, s, mask, key)


def rng_key(rng: np.random.Generator) -> np.ndarray:
    """An int32[2] generator state drawn from a numpy Generator (agents' randomness)."""
    return rng.integers(-(2**31), 2**31, size=2, dtype=np.int64).astype(np.int32)


class HeuristicAgent:
    """`heuristic`: the game's strategy of the rules (cheap, fast, deterministic given rng)."""

    needs_state = True
    name = "heuristic"

    def __init__(self, game: str = "hansa"):
        from tradewinds import registry

        self.game = registry.game(game)
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)

    def act(self, observation, action_mask, rng: np.random.Generator, *, state=None) -> int:
        if state is None:
            raise ValueError("the heuristic agent needs state= (the arena and envs pass it)")
        key = rng_key(rng)
        player = self.game.current_player(state)
        seen = self.game.determinize(state, player, key)
        action = int(decide(self.game.aux, seen, self._mask, key))
        if not action_mask[action]:
            raise RuntimeError(f"heuristic chose illegal {self.game.action_name(action)}")
        return action

    def __repr__(self) -> str:
        return f"HeuristicAgent(game={self.game.name!r})"


jitcache.refresh(globals())
