"""Generic njit functions over the kernel protocol (`tradewinds.jit`), written once for
every game: the Python-callable protocol entry points, determinization into a copy, random
playouts. Each is compiled once per game (per aux type) and cached.
"""

import numpy as np
from numba import njit

from tradewinds import jit, jitcache, rng


@njit(cache=True)
def step(aux, s, a):
    return jit.step(aux, s, a)


@njit(cache=True)
def legal_mask(aux, s, mask):
    jit.legal_mask(aux, s, mask)


@njit(cache=True)
def determinize(aux, s, player, key):
    """A new state `player` cannot tell from `s`, hidden parts resampled from `key`."""
    out = s.copy()
    jit.determinize(aux, out, player, key)
    return out


@njit(cache=True)
def random_action(aux, s, mask, key):
    """A uniformly random legal action, drawn from the generator at key[0:2]."""
    jit.legal_mask(aux, s, mask)
    return rng.pick_set(mask, key)


@njit(cache=True)
def random_playout(aux, s, key, num_actions):
    """Uniformly random legal actions to the end; returns the number of decisions."""
    mask = np.zeros(num_actions, dtype=np.int8)
    steps = 0
    while not jit.is_terminal(aux, s):
        jit.step(aux, s, random_action(aux, s, mask, key))
        steps += 1
    return steps


jitcache.refresh(globals())
