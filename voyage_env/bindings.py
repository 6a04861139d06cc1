"""Voyage's kernels bound to the kernel protocol, both sides of it, per map.

- `VoyageKernels`, the Python side (`tradewinds.protocol.GameKernels` and the
  capabilities ``random_playout``, ``turn_order`` and ``batch``): the njit kernels with
  the packed map filled in, so callers use the protocol's signatures (``step(s, a)``).
- the njit side (`tradewinds.jit`): the aux value carries the packed map
  (`kernel.pack_map`) and the route tables the heuristic plans with (~1.5 ms to build per
  map), so one compiled generic function serves every map.
"""

from typing import NamedTuple

import numpy as np

from tradewinds import jit
from voyage_env import kernel as K
from voyage_env.determinize import determinize
from voyage_env.routes import plan_tables


class VoyageAux(NamedTuple):
    m: np.ndarray        # the packed map, int32
    routes: np.ndarray   # route tables for planners (voyage_env.routes.plan_tables)


def aux_for(voyage_map) -> VoyageAux:
    m = K.pack_map(voyage_map)
    return VoyageAux(m, plan_tables(m))


class VoyageKernels:
    """The kernels a `tradewinds.Game` calls (`tradewinds.protocol`) on packed map `m`.
    Hot loops inside the package call `K.*` with the map directly."""

    PARALLEL_MIN = K.PARALLEL_MIN
    current_player = staticmethod(K.current_player)
    is_terminal = staticmethod(K.is_terminal)
    is_truncated = staticmethod(K.is_truncated)

    def __init__(self, m: np.ndarray):
        self.m = m

    def init(self, s, n, seed, simple_deck, black_ship, max_rounds, dice_movement=0):
        K.init(s, self.m, n, seed, simple_deck, black_ship, max_rounds, dice_movement)

    def step(self, s, a):
        return K.step(s, self.m, a)

    def legal_mask(self, s, mask):
        K.legal_mask(s, self.m, mask)

    def observe(self, s, p, out):
        K.observe(s, self.m, p, out)

    def scores(self, s, out):
        K.scores(s, self.m, out)

    def winners(self, s, out):
        K.winners(s, self.m, out)

    def returns(self, s, out):
        K.returns(s, self.m, out)

    # capability random_playout
    def random_playout(self, s, key):
        return K.random_playout(s, self.m, key)

    # capability turn_order
    @staticmethod
    def turn_order(s, out):
        """Seats by turn-order position (at game start: the random order of V5)."""
        n = s[K.NP]
        out[:n] = s[K.ORDER_: K.ORDER_ + n]

    # capability batch
    def init_batch(self, states, n, seeds, *opts):
        K.init_batch(states, self.m, n, seeds, *opts)

    def step_batch(self, states, acts, errors):
        K.step_batch(states, self.m, acts, errors)

    def legal_mask_batch(self, states, masks):
        K.legal_mask_batch(states, self.m, masks)

    def observe_batch(self, states, players, out):
        K.observe_batch(states, self.m, players, out)

    def random_step_batch(self, states, masks, keys, seeds, auto_reset, n, *opts):
        return K.random_step_batch(states, self.m, masks, keys, seeds, auto_reset, n, *opts)

    def random_playout_batch(self, states, keys):
        return K.random_playout_batch(states, self.m, keys)

    def random_games(self, n, first_seed, games, *opts):
        return K.random_games(self.m, n, first_seed, games, *opts)


CAPABILITIES = frozenset({"random_playout", "turn_order", "batch", "jit"})


def _init(aux, s, num_players, seed, opts):
    # opts: parse_options' values (simple_deck, black_ship, max_rounds, dice_movement)
    K.init(s, aux.m, num_players, seed, opts[0], opts[1], opts[2],
           opts[3] if len(opts) > 3 else 0)


jit.bind(
    VoyageAux,
    init=_init,
    step=lambda aux, s, a: K.step(s, aux.m, a),
    legal_mask=lambda aux, s, mask: K.legal_mask(s, aux.m, mask),
    current_player=lambda aux, s: K.current_player(s),
    is_terminal=lambda aux, s: K.is_terminal(s),
    returns=lambda aux, s, out: K.returns(s, aux.m, out),
    scores=lambda aux, s, out: K.scores(s, aux.m, out),
    observe=lambda aux, s, player, out: K.observe(s, aux.m, player, out),
    determinize=lambda aux, s, player, key: determinize(s, aux.m, player, key),
)
