"""Pebbles' kernels bound to the kernel protocol, both sides of it (as in hansa_env).

- `KERNELS`, the Python side (`tradewinds.protocol.GameKernels` and the capabilities in
  `CAPABILITIES`): the njit functions under the protocol's names. Pebbles has no static
  data, so each is the kernel itself (Voyage binds its map here: voyage_env/bindings.py).
- the njit side (`tradewinds.compiled.protocol`): generic njit code (random playouts, determinize,
  IS-MCTS, the envs' rewards) reaches Pebbles' kernels through its aux class.

`cache=False`: `PebblesAux` lives in the tests, which other processes do not import, so
the generic functions compiled for it must not enter numba's shared disk cache (an entry
naming a class a process cannot import would make it drop the whole cache index).
A game in an installed package binds with the default, ``cache=True``.
"""

from typing import NamedTuple

import numpy as np

from tradewinds.batch import Batch
from tradewinds.compiled import protocol

from . import kernel as K
from .state import STATE_SIZE


class PebblesAux(NamedTuple):
    tag: np.ndarray   # int32[1], unused: tells numba which game a generic function runs


AUX = PebblesAux(np.zeros(1, dtype=np.int32))


def _init(aux, s, num_players, seed, opts):
    K.init(s, num_players, seed, opts[0], opts[1])


protocol.bind(
    PebblesAux,
    cache=False,
    init=_init,
    step=lambda aux, s, a: K.step(s, a),
    legal_mask=lambda aux, s, mask: K.legal_mask(s, mask),
    current_player=lambda aux, s: K.current_player(s),
    is_terminal=lambda aux, s: K.is_terminal(s),
    returns=lambda aux, s, out: K.returns(s, out),
    scores=lambda aux, s, out: K.scores(s, out),
    observe=lambda aux, s, player, out: K.observe(s, player, out),
    determinize=lambda aux, s, player, key: K.determinize(s, player, key),
)


class PebblesKernels(Batch):
    """The kernels a `tradewinds.Game` calls, by their protocol names."""

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


KERNELS = PebblesKernels(AUX, STATE_SIZE, K.NUM_ACTIONS)
CAPABILITIES = frozenset({"random_playout", "batch", "jit"})   # no turn_order: seat order
