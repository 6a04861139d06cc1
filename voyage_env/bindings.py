"""Voyage's kernels bound to the kernel protocol, both sides of it, per map.

- `VoyageKernels`, the Python side (`tradewinds.protocol.GameKernels` and the
  capabilities ``random_playout``, ``turn_order`` and ``batch``): the njit kernels with
  the packed map filled in, so callers use the protocol's signatures (``step(s, a)``).
- the njit side (`tradewinds.compiled.protocol`): the aux value carries the packed map
  (`kernel.pack_map`) and the route tables the heuristic plans with (built once per map;
  their cost: docs/agents.md), so one compiled generic function serves every map.
"""

from typing import NamedTuple

import numpy as np

from tradewinds.batch import Batch
from tradewinds.compiled import protocol
from voyage_env import kernel as K
from voyage_env.determinize import determinize
from voyage_env.routes import plan_tables


class VoyageAux(NamedTuple):
    m: np.ndarray        # the packed map, int32
    routes: np.ndarray   # route tables for planners (voyage_env.routes.plan_tables)


def aux_for(voyage_map) -> VoyageAux:
    m = K.pack_map(voyage_map)
    return VoyageAux(m, plan_tables(m))


class VoyageKernels(Batch):
    """The kernels a `tradewinds.Game` calls (`tradewinds.protocol`) on packed map `m`.
    Hot loops inside the package call `K.*` with the map directly."""

    current_player = staticmethod(K.current_player)
    is_terminal = staticmethod(K.is_terminal)
    is_truncated = staticmethod(K.is_truncated)

    def __init__(self, aux: VoyageAux):
        super().__init__(aux, K.STATE_SIZE, K.NUM_ACTIONS)
        self.m = aux.m

    def init(self, s, n, seed, simple_deck, black_ship, max_rounds, dice_movement=0, *seat):
        """`seat`: parse_options' seat_vp and seat_cards, four entries each (VA40, VA41),
        then rotate_order (VA42)."""
        K.init(s, self.m, n, seed, simple_deck, black_ship, max_rounds, dice_movement, *seat)

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

    # capability batch: the generic batch kernels (tradewinds.batch.Batch)


CAPABILITIES = frozenset({"random_playout", "turn_order", "batch", "jit"})


def _init(aux, s, num_players, seed, opts):
    # opts: parse_options' values (simple_deck, black_ship, max_rounds, dice_movement,
    # seat_vp x4, seat_cards x4, rotate_order)
    K.init_opts(s, aux.m, num_players, seed, opts)


protocol.bind(
    VoyageAux,
    init=_init,
    step=lambda aux, s, a: K.step(s, aux.m, a),
    apply=lambda aux, s, a: K.apply(s, aux.m, a),
    legal_mask=lambda aux, s, mask: K.legal_mask(s, aux.m, mask),
    current_player=lambda aux, s: K.current_player(s),
    is_terminal=lambda aux, s: K.is_terminal(s),
    returns=lambda aux, s, out: K.returns(s, aux.m, out),
    scores=lambda aux, s, out: K.scores(s, aux.m, out),
    observe=lambda aux, s, player, out: K.observe(s, aux.m, player, out),
    determinize=lambda aux, s, player, key: determinize(s, aux.m, player, key),
)
