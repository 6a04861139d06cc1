"""Hansa's kernels bound to the kernel protocol, both sides of it.

- `KERNELS`, the Python side (`tradewinds.protocol.GameKernels` and the capabilities
  ``random_playout`` and ``batch``): the njit functions under the protocol's names. Hansa
  has no static data beyond what the kernel module holds, so each is the kernel itself.
- the njit side (`tradewinds.compiled.protocol`): Hansa's aux value is an empty `HansaAux`; its only
  job is to tell numba which game a generic function runs.
"""

from typing import NamedTuple

import numpy as np

from hansa_env import kernel as K
from hansa_env.determinize import determinize
from tradewinds.batch import Batch
from tradewinds.compiled import protocol


class HansaAux(NamedTuple):
    tag: np.ndarray   # int32[1], unused: a NamedTuple needs a field


AUX = HansaAux(np.zeros(1, dtype=np.int32))


class HansaKernels(Batch):
    """The kernels a `tradewinds.Game` calls (`tradewinds.protocol`), by their protocol
    names. Each attribute is the njit function itself: no wrapper in the call."""

    init = staticmethod(K.init)
    legal_mask = staticmethod(K.legal_mask)
    step = staticmethod(K.step)
    current_player = staticmethod(K.current_player)
    is_terminal = staticmethod(K.is_terminal)
    is_truncated = staticmethod(K.is_truncated)
    scores = staticmethod(K.scores)
    winners = staticmethod(K.winners)
    returns = staticmethod(K.returns)
    observe = staticmethod(K.observe)
    # capability random_playout
    random_playout = staticmethod(K.random_playout)
    # capability batch: the generic batch kernels (tradewinds.batch.Batch)


KERNELS = HansaKernels(AUX, K.STATE_SIZE, K.NUM_ACTIONS)
CAPABILITIES = frozenset({"random_playout", "batch", "jit"})


def _init(aux, s, num_players, seed, opts):
    K.init_opts(s, num_players, seed, opts)


protocol.bind(
    HansaAux,
    init=_init,
    step=lambda aux, s, a: K.step(s, a),
    apply=lambda aux, s, a: K.apply(s, a),
    legal_mask=lambda aux, s, mask: K.legal_mask(s, mask),
    current_player=lambda aux, s: K.current_player(s),
    is_terminal=lambda aux, s: K.is_terminal(s),
    returns=lambda aux, s, out: K.returns(s, out),
    scores=lambda aux, s, out: K.scores(s, out),
    observe=lambda aux, s, player, out: K.observe(s, player, out),
    determinize=lambda aux, s, player, key: determinize(s, player, key),
)
