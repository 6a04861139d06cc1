"""The exact best response against a fixed policy, by expectimax over the responder's
information sets: the yardstick of a learned best response (`training.exploit`) on a game
small enough to enumerate (tests/training/test_best_response.py checks one on Pebbles).

The game's chance must all come at the start: `deals` lists every starting state with its
probability. The fixed policy gives, for a state and its deciding seat, a probability for
every action (``uniform`` is the random agent's). The responder in `seat` knows what it
has seen at its own decisions (its observation, ``game.observe``) and what it did: an
information set is that sequence (perfect recall). At each one it takes the action whose
continuation is worth most, summed over the histories in the set weighted by chance and
the fixed policy's probabilities; the value is its expected return (``game.returns``: a
shared win counts as its share).

A memoryless policy (an MLP on the current observation, as MaskablePPO learns) can reach
this value when the current observation tells everything the history does, e.g. against
a policy that ignores its hidden information (random) in a game whose public state is in
every observation (Pebbles).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

Policy = Callable[[np.ndarray, int], np.ndarray]


def uniform(game) -> Policy:
    """The uniformly random policy over the legal actions."""
    def probs(state, player):
        mask = game.legal_mask(state).astype(np.float64)
        return mask / mask.sum()
    return probs


@dataclass
class BestResponse:
    """The responder's expected return (`value`) and its best action at every
    information set it reaches (`actions`, keyed as `information_set` builds them)."""

    seat: int
    value: float
    actions: dict = field(default_factory=dict)


def _advance(game, state, weight, seat, policy, out_terminal, out_decisions):
    """Play the fixed policy from `state` until the responder decides or the game ends;
    (weight, state) pairs go to `out_decisions` or (weight, return) to `out_terminal`."""
    if game.is_terminal(state) or game.is_truncated(state):
        out_terminal.append(weight * float(game.returns(state)[seat]))
        return
    p = game.current_player(state)
    if p == seat:
        out_decisions.append((weight, state))
        return
    probs = policy(state, p)
    for a in np.flatnonzero(probs > 0):
        child = state.copy()
        game.step(child, int(a))
        _advance(game, child, weight * float(probs[a]), seat, policy, out_terminal,
                 out_decisions)


def _groups(game, seat, decisions) -> dict:
    """Histories by the responder's observation (and legal actions) at its decision."""
    groups = defaultdict(list)
    for w, s in decisions:
        groups[(game.observe(s, seat).tobytes(), game.legal_mask(s).tobytes())].append((w, s))
    return groups


def exact_best_response(game, deals: Iterable[tuple[float, np.ndarray]], policy: Policy,
                        seat: int) -> BestResponse:
    """The best response of `seat` against `policy` in every other seat (module
    docstring); the probabilities of `deals` must sum to 1."""
    deals = list(deals)
    total = sum(p for p, _ in deals)
    if not np.isclose(total, 1.0, atol=1e-9):
        raise ValueError(f"the deals' probabilities sum to {total}, not 1")
    br = BestResponse(seat, 0.0)
    terminal, decisions = [], []
    for p, s in deals:
        _advance(game, s.copy(), p, seat, policy, terminal, decisions)
    value = sum(terminal)
    for key, group in _groups(game, seat, decisions).items():
        value += _solve(game, seat, policy, (key,), group, br.actions)
    br.value = value
    return br


def _solve(game, seat, policy, key, group, actions) -> float:
    """The weighted value of information set `key` (its histories: `group`) under the
    best play from here on; records the best action."""
    legal = np.flatnonzero(game.legal_mask(group[0][1]))
    best, best_a = -np.inf, None
    for a in legal:
        terminal, decisions = [], []
        for w, s in group:
            child = s.copy()
            game.step(child, int(a))
            _advance(game, child, w, seat, policy, terminal, decisions)
        v = sum(terminal)
        for k, g in _groups(game, seat, decisions).items():
            v += _solve(game, seat, policy, key + (int(a), k), g, actions)
        if v > best + 1e-15:
            best, best_a = v, int(a)
    actions[key] = best_a
    return best


def policy_value(game, deals: Iterable[tuple[float, np.ndarray]], policy: Policy, seat: int,
                 responder: Callable[[tuple], np.ndarray]) -> float:
    """The expected return of `seat` playing `responder` (information-set key ->
    probabilities over actions, keys as `exact_best_response` builds them) against
    `policy` in every other seat, by enumerating every history."""
    def walk(state, weight, key):
        if weight == 0.0:
            return 0.0
        if game.is_terminal(state) or game.is_truncated(state):
            return weight * float(game.returns(state)[seat])
        p = game.current_player(state)
        mine = p == seat
        if mine:
            key += ((game.observe(state, seat).tobytes(), game.legal_mask(state).tobytes()),)
            probs = np.asarray(responder(key))
        else:
            probs = policy(state, p)
        v = 0.0
        for a in np.flatnonzero(probs > 0):
            child = state.copy()
            game.step(child, int(a))
            v += walk(child, weight * float(probs[a]), key + (int(a),) if mine else key)
        return v

    return sum(walk(s.copy(), p, ()) for p, s in deals)
