"""Voyage's kernels bound to the generic njit protocol (`tradewinds.jit`).

The aux value carries the packed map (`kernel.pack_map`) and the route tables the
heuristic plans with (~1.5 ms to build per map), so one compiled generic function serves
every map.
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
