"""The heuristic agent: each game's hand-written strategy (`agents.policies`), played on
a determinization of the real state, so it sees exactly what its seat may see."""

from __future__ import annotations

import numpy as np
from numba import njit

# importing the games' strategies binds them to agents.policies.heuristic_action
from tradewinds.agents import heuristic_hansa, heuristic_voyage, policies  # noqa: F401
from tradewinds.compiled import disk_cache, protocol

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)


@njit(cache=True)
def decide(aux, s, mask, key):
    """The heuristic's action for the decider of `s` (a state the decider may see)."""
    return policies.heuristic_action(aux, s, mask, key)


@njit(cache=True)
def seat_action(aux, s, p, mask, seen, key):
    """The heuristic's action for seat p of `s`, decided on p's own determinization (what
    p may see, the rest drawn again), as `HeuristicAgent` decides. `mask` (int8) and
    `seen` (a state vector) are scratch."""
    for i in range(s.shape[0]):      # a plain loop: numba's slice assignment is slower
        seen[i] = s[i]
    protocol.determinize(aux, seen, p, key)
    return policies.heuristic_action(aux, seen, mask, key)


@njit(cache=True)
def playout(aux, s, key, num_actions):
    """Every seat plays the heuristic to the end of the game, each decision made on a
    determinization for the decider (as `HeuristicAgent` does, with one generator at `key`
    for the whole game). Returns the number of decisions, or -1 - decisions if the
    heuristic chose an illegal action (a bug the caller reports)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    seen = np.empty_like(s)
    steps = 0
    while not protocol.is_terminal(aux, s):
        a = seat_action(aux, s, protocol.current_player(aux, s), mask, seen, key)
        protocol.legal_mask(aux, s, mask)
        if a < 0 or a >= num_actions or not mask[a]:
            return -1 - steps
        protocol.step(aux, s, a)
        steps += 1
    return steps


def has_heuristic(game) -> bool:
    """Whether `game` (a `tradewinds.Game`) binds a strategy (`policies.bind_heuristic`).
    Generic search compiles for every game (`policies.heuristic_action` falls back to a
    random legal action); the heuristic agent and the arena's heuristic playouts refuse a
    game without one."""
    return game.supports("jit") and policies.has_heuristic(type(game.aux))


def rng_key(rng: np.random.Generator) -> np.ndarray:
    """An int32[2] generator state drawn from a numpy Generator (agents' randomness)."""
    return rng.integers(-(2**31), 2**31, size=2, dtype=np.int64).astype(np.int32)


class HeuristicAgent:
    """`heuristic`: the game's strategy of the rules (cheap, fast, deterministic given rng)."""

    needs_state = True
    name = "heuristic"
    kernel_policy = "heuristic"     # the arena may play all-heuristic games with `playout`

    def __init__(self, game: str = "hansa"):
        from tradewinds import registry

        self.game = registry.game(game)
        if not has_heuristic(self.game):
            raise ValueError(f"no heuristic for {game}: the game binds no strategy "
                             "(agents.policies.bind_heuristic)")
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


disk_cache.refresh(globals())
