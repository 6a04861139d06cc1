"""Generic njit functions over the kernel protocol (`tradewinds.compiled.protocol`),
written once for every game: the Python-callable protocol entry points, determinization
into a copy, random playouts. Each is compiled once per game (per aux type) and cached.

Hot loops run on borrowed arguments (`tradewinds.compiled.borrow`): the game's kernels
they call then pay no atomic reference counting per call.
"""

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.compiled import disk_cache, protocol
from tradewinds.compiled.borrow import borrow


@njit(cache=True)
def step(aux, s, a):
    return protocol.step(borrow(aux), borrow(s), a)


@njit(cache=True)
def apply(aux, s, a):
    """`protocol.apply`: a legal action, unchecked (tests compare it with `step`)."""
    protocol.apply(borrow(aux), borrow(s), a)


@njit(cache=True)
def legal_mask(aux, s, mask):
    protocol.legal_mask(borrow(aux), borrow(s), borrow(mask))


@njit(cache=True)
def determinize(aux, s, player, key):
    """A new state `player` cannot tell from `s`, hidden parts resampled from `key`."""
    out = s.copy()
    protocol.determinize(aux, out, player, key)
    return out


@njit(cache=True)
def random_action(aux, s, mask, key):
    """A uniformly random legal action, drawn from the generator at key[0:2]."""
    protocol.legal_mask(aux, s, mask)
    return rng.pick_set(mask, key)


@njit(cache=True)
def random_playout(aux, s, key, num_actions):
    """Uniformly random legal actions to the end; returns the number of decisions."""
    return playout_into(aux, s, key, np.zeros(num_actions, dtype=np.int8))


@njit(cache=True)
def playout_into(aux, s, key, mask):
    """random_playout with the caller's scratch `mask` (num_actions long)."""
    aux, s, key, mask = borrow(aux), borrow(s), borrow(key), borrow(mask)
    steps = 0
    while not protocol.is_terminal(aux, s):
        protocol.apply(aux, s, random_action(aux, s, mask, key))
        steps += 1
    return steps


disk_cache.refresh(globals())
