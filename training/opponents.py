"""Opponents of a learner, played inside numba: shared by `SingleAgentEnv` and
`BatchedVecEnv`, so both play the same games for the same seeds and learner actions.

Each opponent seat of an env has an int **code**:

- ``RANDOM`` = 0: uniform over the legal actions (`tradewinds.rng.pick_set`);
- ``HEURISTIC`` = 1: the game's heuristic (`agents.policies.heuristic_action`) on a
  determinization of the state for that seat, so it sees only what the seat may see
  (as `agents.heuristic.HeuristicAgent` plays);
- ``POLICY + j`` (>= 2): decided outside numba by the env's j-th Python policy (``act``
  or a batched ``predict``): `advance` stops and reports WAITING.

Opponent randomness: every draw of RANDOM and HEURISTIC seats comes from the env's
*opponent key*, an int32[2] SplitMix64 state (`tradewinds.rng`) set at the start of each
episode to ``tradewinds.protocol.as_key(game_seed)`` and advanced by each decision in
order. So a game is a function of (game seed, learner seat, learner actions).

Seats and slots: the opponents of a learner in seat ``seat`` are the other seats in seat
order; slot ``j`` (``codes[j]``) is the j-th of them, i.e. seat ``p`` plays slot
``p - (p > seat)``.
"""

from __future__ import annotations

import inspect

import numpy as np
from numba import njit

from tradewinds import rng

# importing the heuristic agent binds both games' strategies to heuristic_action
from tradewinds.agents import heuristic
from tradewinds.compiled import disk_cache, protocol
from tradewinds.protocol import KEY_SALT

RANDOM, HEURISTIC, POLICY = 0, 1, 2
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}

# what `advance` stopped at
LEARNER, FINISHED, WAITING, FAILED = 0, 1, 2, 3

_KEY_SALT = np.uint64(KEY_SALT)


@njit(cache=True)
def seed_key(seed, key):
    """key[0:2] = the opponent key of a game seed: ``tradewinds.protocol.as_key(seed)``."""
    rng.store(key, 0, np.uint64(seed) ^ _KEY_SALT)
    rng.store(key, 0, rng.next_u64(key, 0))


@njit(cache=True)
def opponent_action(aux, s, code, mask, seen, key):
    """The action of the deciding seat of `s` for a RANDOM or HEURISTIC `code`. `mask`
    (int8[num_actions]) and `seen` (a state vector) are scratch buffers."""
    if code == HEURISTIC:
        return heuristic.seat_action(aux, s, protocol.current_player(aux, s), mask, seen, key)
    protocol.legal_mask(aux, s, mask)
    return rng.pick_set(mask, key)


@njit(cache=True)
def advance(aux, s, seat, codes, key, mask, seen):
    """Play the RANDOM and HEURISTIC opponents of `s` until the learner (`seat`) decides
    (LEARNER), the game is over (FINISHED) or a POLICY seat decides (WAITING; the seat is
    `current_player`). FAILED: an opponent chose an action the kernel refused (the state
    is as before that action)."""
    while True:
        if protocol.is_terminal(aux, s):
            return FINISHED
        p = protocol.current_player(aux, s)
        if p == seat:
            return LEARNER
        code = codes[p - 1] if p > seat else codes[p]
        if code >= POLICY:
            return WAITING
        a = opponent_action(aux, s, code, mask, seen, key)
        if a < 0 or protocol.step(aux, s, a) != 0:
            return FAILED


# ---------------------------------------------------------------- Python side

def is_actor(x) -> bool:
    """An agent-protocol policy: ``act(observation, action_mask, rng) -> action``."""
    return callable(getattr(x, "act", None))


def is_predictor(x) -> bool:
    """A batched policy: ``predict(observations, action_masks=masks)`` -> actions or
    (actions, state), as Stable-Baselines3 models (MaskablePPO) answer."""
    return callable(getattr(x, "predict", None))


def is_opponent(x) -> bool:
    """A code name ("random", "heuristic"), an actor or a predictor."""
    return (isinstance(x, str) and x in NAMES) or is_actor(x) or is_predictor(x)


def takes_masks(policy) -> bool:
    """Whether `policy.predict` accepts ``action_masks=`` (MaskablePPO does, PPO does not)."""
    try:
        params = inspect.signature(policy.predict).parameters
    except (TypeError, ValueError):
        return True
    return "action_masks" in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def predict(policy, observations: np.ndarray, masks: np.ndarray,
            with_masks: bool = True) -> np.ndarray:
    """One batched forward pass of a predictor: int64 actions, one per row."""
    out = (policy.predict(observations, action_masks=masks) if with_masks
           else policy.predict(observations))
    if isinstance(out, tuple):
        out = out[0]
    return np.asarray(out).reshape(-1).astype(np.int64)


class Frozen:
    """A predictor playing a Stable-Baselines3 model (e.g. a MaskablePPO snapshot) with
    `deterministic` choices (the model's own `predict` samples by default)."""

    def __init__(self, model, deterministic: bool = True):
        self.model = model
        self.deterministic = deterministic

    def predict(self, observations, action_masks=None):
        return self.model.predict(observations, action_masks=action_masks,
                                  deterministic=self.deterministic)

    def __repr__(self) -> str:
        return f"Frozen({type(self.model).__name__}, deterministic={self.deterministic})"


disk_cache.refresh(globals())
