"""Hansa's kernels bound to the generic njit protocol (`tradewinds.jit`).

Hansa has no static data beyond what the kernel module holds, so its aux value is an
empty `HansaAux`; its only job is to tell numba which game a generic function runs.
"""

from typing import NamedTuple

import numpy as np

from hansa_env import kernel as K
from hansa_env.determinize import determinize
from tradewinds import jit


class HansaAux(NamedTuple):
    tag: np.ndarray   # int32[1], unused: a NamedTuple needs a field


AUX = HansaAux(np.zeros(1, dtype=np.int32))


def _init(aux, s, num_players, seed, opts):
    K.init(s, num_players, seed, opts[0], opts[1])


jit.bind(
    HansaAux,
    init=_init,
    step=lambda aux, s, a: K.step(s, a),
    legal_mask=lambda aux, s, mask: K.legal_mask(s, mask),
    current_player=lambda aux, s: K.current_player(s),
    is_terminal=lambda aux, s: K.is_terminal(s),
    returns=lambda aux, s, out: K.returns(s, out),
    scores=lambda aux, s, out: K.scores(s, out),
    observe=lambda aux, s, player, out: K.observe(s, player, out),
    determinize=lambda aux, s, player, key: determinize(s, player, key),
)
