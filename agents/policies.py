"""Rollout and play policies inside numba, bound per game like
`tradewinds.compiled.protocol`.

``heuristic_action(aux, s, mask, key) -> int`` is the game's hand-written strategy: the
action the deciding seat of `s` plays, drawing any randomness (ties, bids) from the
generator at ``key[0:2]``. ``mask`` is a scratch int8 vector of the game's action count;
the policy may fill it with `tradewinds.compiled.protocol.legal_mask`. The state it is
given must be one the deciding seat may see (the agents pass a determinization), so a
policy may read any field without cheating.

Games bind their policy with `bind_heuristic(AuxClass, njit_function)`; generic code
(the heuristic agent, IS-MCTS rollouts) calls `heuristic_action` and numba picks the
game's implementation at compile time.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from tradewinds import rng
from tradewinds.compiled import protocol
from tradewinds.compiled.protocol import is_aux

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

_BOUND: dict = {}
_VALUES: dict = {}


def heuristic_action(aux, s, mask, key):
    raise NotImplementedError("tradewinds.agents.policies functions are called from njit code only")


def bind_heuristic(aux_class, impl) -> None:
    """Make `impl(aux, s, mask, key) -> int` the heuristic of games with `aux_class` aux."""
    if aux_class in _BOUND:
        return
    _BOUND[aux_class] = impl

    def call(aux, s, mask, key):   # overload wants a plain function, impl may be njit
        return impl(aux, s, mask, key)

    overload(heuristic_action, jit_options={})(
        lambda aux, s, mask, key: call if is_aux(aux, aux_class) else None)


def has_heuristic(aux_class) -> bool:
    return aux_class in _BOUND


def _random_legal(aux, s, mask, key):
    protocol.legal_mask(aux, s, mask)
    return rng.pick_set(mask, key)


@overload(heuristic_action, jit_options={})
def _default_heuristic(aux, s, mask, key):
    """Games without a strategy of their own: a uniformly random legal action, so generic
    search (IS-MCTS rollouts and priors) compiles for every game. The heuristic agent
    refuses such games (`agents.heuristic.has_heuristic`)."""
    if not any(is_aux(aux, cls) for cls in _BOUND):
        return _random_legal
    return None


def position_values(aux, s, out):
    """Fill `out[p]` with seat p's expected final VP if the game went on from `s` (a state
    the caller may see): the game's own judgement where it binds one (`bind_values`; Hansa:
    the heuristic's evaluation of hands, talers and majorities), else the VP now."""
    raise NotImplementedError("tradewinds.agents.policies functions are called from njit code only")


def bind_values(aux_class, impl) -> None:
    """Make `impl(aux, s, out)` the position judgement of games with `aux_class` aux."""
    if aux_class in _VALUES:
        return
    _VALUES[aux_class] = impl

    def call(aux, s, out):
        impl(aux, s, out)

    overload(position_values, jit_options={})(
        lambda aux, s, out: call if is_aux(aux, aux_class) else None)


def _vp_now(aux, s, out):
    vp = np.zeros(out.shape[0], dtype=np.int64)
    protocol.scores(aux, s, vp)
    for p in range(out.shape[0]):
        out[p] = vp[p]


@overload(position_values, jit_options={})
def _default_values(aux, s, out):
    """Games without a judgement of their own: the VP now."""
    if not any(is_aux(aux, cls) for cls in _VALUES):
        return _vp_now
    return None
