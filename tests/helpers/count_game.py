"""A tiny counting game bound to tradewinds.compiled.protocol, and checks of the generic
functions on it.

Run by tests/core/test_compiled_protocol.py in a child process with a private NUMBA_CACHE_DIR: the
generic functions' disk cache must not keep an entry for a class that only this script
defines (other processes could not unpickle it).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.compiled import generic, protocol

TARGET = 10


class CountAux(NamedTuple):
    target: np.ndarray   # int32[1]


AUX = CountAux(np.array([TARGET], dtype=np.int32))


@njit
def _init(aux, s, num_players, seed, opts):
    s[:] = 0
    s[0] = num_players
    rng.seed_state(s, 3, seed)


@njit
def _step(aux, s, a):
    if s[1] >= aux.target[0] or not 0 <= a <= 1:
        return 1
    s[1] += a + 1
    if s[1] < aux.target[0]:
        s[2] = (s[2] + 1) % s[0]
    return 0


@njit
def _legal_mask(aux, s, mask):
    mask[:] = 0
    if s[1] < aux.target[0]:
        mask[0] = 1
        mask[1] = 1


@njit
def _returns(aux, s, out):
    out[:] = 0.0
    if s[1] >= aux.target[0]:
        out[s[2]] = 1.0


@njit
def _determinize(aux, s, player, key):
    rng.store(s, 3, rng.next_u64(key, 0))


protocol.bind(
    CountAux,
    init=_init,
    step=_step,
    legal_mask=_legal_mask,
    current_player=lambda aux, s: -1 if s[1] >= aux.target[0] else s[2],
    is_terminal=lambda aux, s: s[1] >= aux.target[0],
    returns=_returns,
    scores=lambda aux, s, out: None,
    observe=lambda aux, s, player, out: None,
    determinize=_determinize,
)


def check_playout():
    s = np.zeros(8, dtype=np.int32)
    s[0] = 2
    key = np.array([1, 2], dtype=np.int32)
    steps = generic.random_playout(AUX, s, key, 2)
    assert s[1] >= TARGET and 5 <= steps <= 10
    assert generic.step(AUX, s, 0) == 1            # over: refused, untouched
    assert s[1] in (TARGET, TARGET + 1)


def check_determinize():
    s = np.zeros(8, dtype=np.int32)
    s[0], s[1] = 3, 4
    out = generic.determinize(AUX, s, 0, np.array([5, 6], dtype=np.int32))
    assert out is not s and np.array_equal(out[:3], s[:3])
    assert not np.array_equal(out[3:5], s[3:5])
    assert s[3] == s[4] == 0                       # the original is untouched



if __name__ == "__main__":
    check_playout()
    check_determinize()
    print("count game ok")
