"""The Voyage heuristic's plan: where a seat heads, and what the ports are worth to it.

Shared by the heuristic (`agents.heuristic_voyage`, which plays each phase toward the plan),
the destination search (`agents.destinations_voyage`, which ranks other targets by the
same port values) and the fitted leaf judgement (`agents.value_voyage`):

- the strategy's parameters, one float64 vector (`PARAMS`; the `P_*` indices) and the
  route weights per risk level (`PLAN_WEIGHTS`, `voyage_env.routes` planning presets);
- the shortest-route tables a decision needs (`aux_routes`, `route_context`,
  `dists_from`, `costs_to`), precomputed on the aux value or filled on the spot;
- small queries of the state (`tiles_left`, `can_load`, `any_wreck`, `last_round`, ...);
- the plan: what entering each port is worth to a seat (`port_values`, with
  `denial_values` for an opponent's hidden target cards) and the target row it heads for
  (`plan`, `plan_with`), as the heuristic's docstring describes.

Its decisions are versioned by `agents.heuristic_voyage`'s ``BEHAVIOUR``, not by one of
its own: every agent that plays with this module names heuristic_voyage in its identity
(`agents.behaviour.VERSIONED_BY`). Bump that one when a change here makes any decision
differently.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from tradewinds.compiled import disk_cache
from voyage_env import kernel as K
from voyage_env import routes as RT
from voyage_env import rules as R

# ---------------------------------------------------------------- parameters
# Route weights (voyage_env.routes planning presets): quarter discs, a red-hex penalty per
# risk level.
DISC = RT.PLAN_DISC
NUM_LEVELS = len(RT.PLAN_RED_LEVELS)
DICE_LEVEL = RT.PLAN_DICE

# Strategy parameters (one float64 vector, so studies can vary them).
(P_LAMBDA, P_NEAR, P_UPGRADE_BONUS, P_DENIAL, P_GIFT, P_KEEP_FAV, P_SHIELD_MIN,
 P_SELL_LAST, P_UPGRADE_ROUNDS, P_RISK_BASE, P_BID_PRICE, P_BID_TILE) = range(12)
NUM_PARAMS = 12
DEFAULT_PARAMS = (
    0.8,    # P_LAMBDA: VP a detour must earn per extra disc
    0.02,   # P_NEAR: VP per disc of distance, tie-break toward nearer candidates
    3.0,    # P_UPGRADE_BONUS: VP for a non-pepper cube while it counts toward the upgrade
    0.5,    # P_DENIAL: weight of the expected 5 VP kept from an opponent's target card
    0.25,   # P_GIFT: discs charged per free step a wind card gives an opponent
    1.0,    # P_KEEP_FAV: discs a favourable wind is worth kept in hand
    2.0,    # P_SHIELD_MIN: favourable winds held before one is spent against pirates
    0.0,    # P_SELL_LAST: 1 = sell the pepper rather than end a game the seat is losing
    4.0,    # P_UPGRADE_ROUNDS: rounds that must be left for the upgrade to pay
    1.0,    # P_RISK_BASE: red-hex level with no cargo and every ship working (0..2)
    2.0,    # P_BID_PRICE: VP the first position must be worth per disc bid (0: never bid)
    10.0,   # P_BID_TILE: VP a contested monastery tile counts in the bidding
)


def default_params() -> np.ndarray:
    return np.array(DEFAULT_PARAMS, dtype=np.float64)


plan_weights = RT.plan_weights


# what the shipped heuristic plays with (the fitted judgement plans routes with them too)
PARAMS = np.array(DEFAULT_PARAMS, dtype=np.float64)
PLAN_WEIGHTS = RT.plan_weights()

NG, NK, NT = K.NG, K.NK, K.NT
PEPPER = R.PEPPER
NO_TARGET = -1
INF = RT.INF

# ---------------------------------------------------------------- route tables


def aux_routes(aux):
    """The aux value's precomputed tables (`voyage_env.routes.plan_tables`) when its class has a
    `routes` field, else an empty int32[0, 2, 0, 0]: then the tables a decision needs are
    computed on the spot (their cost: docs/agents.md)."""
    raise NotImplementedError("called from njit code only")


# Not cached on its own (it is compiled into its cached callers): a cache index holding an
# aux class from a test module would break loading it in processes without that module.
@overload(aux_routes)
def _aux_routes(aux):
    if isinstance(aux, types.BaseNamedTuple) and "routes" in aux.fields:
        return lambda aux: aux.routes
    return lambda aux: np.zeros((0, 2, 0, 0), dtype=np.int32)


@njit(cache=True, inline="always")
def _tables(m, routes, lv):
    """(dist, via, valid) per target row: the precomputed ones, or empty rows to fill."""
    rows = m[K.M_P] + 1
    if routes.shape[0] > lv and routes.shape[2] == rows and routes.shape[3] >= m[K.M_H]:
        return routes[lv, 0], routes[lv, 1], np.ones(rows, dtype=np.uint8)
    h = m[K.M_H]
    return (np.empty((rows, h), dtype=np.int32), np.empty((rows, h), dtype=np.int32),
            np.zeros(rows, dtype=np.uint8))


@njit(cache=True, inline="always")
def fill_row(m, wt, dist, via, valid, k):
    """Make target row k of the tables valid (compute it if it is not yet)."""
    if valid[k] == 0:
        RT.distances_to(m, RT.target_hex(m, k), wt, dist[k], via[k])
        valid[k] = 1


@njit(cache=True, inline="always")
def costs_to(m, wt, dist, via, valid, k):
    fill_row(m, wt, dist, via, valid, k)
    return dist[k]


@njit(cache=True, inline="always")
def dists_from(m, wt, dist, via, valid, x, dx):
    """dx[k] = cost from hex x to target row k (ports, then Lisbon)."""
    rows = m[K.M_P] + 1
    full = True
    for k in range(rows):
        if valid[k] == 0:
            full = False
            break
    if full:
        for k in range(rows):
            dx[k] = dist[k, x]
        return
    fd = np.empty(m[K.M_H], dtype=np.int32)
    ff = np.empty(m[K.M_H], dtype=np.int32)
    RT.distances_from(m, x, wt, fd, ff)
    for k in range(rows):
        dx[k] = fd[RT.target_hex(m, k)]


# ---------------------------------------------------------------- small queries


@njit(cache=True, inline="always")
def tiles_left(s):
    return s[K.TILES_TOTAL] - s[K.TILES_TAKEN]


@njit(cache=True, inline="always")
def can_load(s, p, g):
    return (s[K.CUBES + p * NG + g] == 0 and K.ship_works(s, p, g // 2)
            and s[K.STOCK + g] > 0)


@njit(cache=True, inline="always")
def good_value(s, g):
    pepper = 10.0 if tiles_left(s) > 0 else 5.0
    return pepper if g == PEPPER else float(K.GOOD_VP[g])


@njit(cache=True, inline="always")
def _cargo_value(s, p):
    v = 0.0
    for g in range(NG):
        if s[K.CUBES + p * NG + g] == 1:
            v += good_value(s, g)
    return v


@njit(cache=True, inline="always")
def non_pepper_cubes(s, p):
    k = 0
    for g in range(NG):
        if g != PEPPER:
            k += s[K.CUBES + p * NG + g]
    return k


@njit(cache=True, inline="always")
def any_wreck(s, p):
    for k in range(4):
        if s[K.WRECKED + p * 4 + k] == 1:
            return True
    return False


@njit(cache=True, inline="always")
def is_target(s, p, port):
    for j in range(NT):
        if s[K.TARGETS + p * NT + j] == port:
            return True
    return False


@njit(cache=True, inline="always")
def denial_values(s, m, prm):
    """Per deck (west, east): the VP an undiscovered port that is not one of the seat's
    cards is worth for the chance that it is an opponent's card (dealt per V3; hidden).
    Nothing in the dice variant (no target cards, V54)."""
    n = s[K.NP]
    out = np.zeros(2, dtype=np.float64)
    if s[K.DICE] == 1:
        return out
    size = np.zeros(2, dtype=np.int64)
    for q in range(m[K.M_P]):
        size[K.portf(m, q, K.P_DECK)] += 1
    for side in range(2):
        per = min(R.TARGETS_PER_DECK, size[side] // n)
        unseen = size[side] - per
        if unseen > 0:
            out[side] = prm[P_DENIAL] * R.TARGET_VP * min(1.0, (n - 1) * per / unseen)
    return out


@njit(cache=True)
def port_values(s, m, p, prm, denial, worth):
    """worth[port]: the VP that entering each port would give p (discovery VP and, if
    undiscovered, TARGET_VP for one of p's target cards or the deck's `denial_values` share; a
    cube p can load: its `good_value`, plus P_UPGRADE_BONUS while it counts toward the
    upgrade).

    A plan values every port, so the loop is kept cheap: what does not depend on the port
    is worked out once, the loop calls no function that takes an array (numba keeps the
    reference counting of such calls, atomic operations, even when they are inlined) and
    picks its terms by value rather than by branches (often mispredicted here). A term
    that does not apply adds 0 (0.0), which leaves the sum exactly as skipping it would
    (it starts at +0.0 and is never -0.0)."""
    pepper = 10.0 if tiles_left(s) > 0 else 5.0
    upgrade = (s[K.UPGRADED + p] == 0 and non_pepper_cubes(s, p) < 3 and tiles_left(s) > 1
               and s[K.DICE] == 0)
    bonus = prm[P_UPGRADE_BONUS]
    loadable = 0                                # bit g: p can load good g (`can_load`)
    for g in range(NG):
        if can_load(s, p, g):
            loadable |= 1 << g
    P = m[K.M_P]
    target = np.zeros(P, dtype=np.bool_)        # p's target cards
    for j in range(NT):
        q = s[K.TARGETS + p * NT + j]
        if 0 <= q < P:
            target[q] = True
    first = denial[0]
    second = denial[1]
    for port in range(P):
        new = s[K.DISCOVERED + port] < 0
        share = first if K.portf(m, port, K.P_DECK) == 0 else second
        card = float(R.TARGET_VP) if target[port] else share
        g = K.portf(m, port, K.P_GOOD)
        gg = g if g >= 0 else 0                 # a valid index; g < 0 loads nothing
        load = (g >= 0) & ((loadable >> gg) & 1 == 1)
        value = pepper if gg == PEPPER else float(K.GOOD_VP[gg])
        v = 0.0
        v += K.portf(m, port, K.P_VP) if new else 0
        v += card if new else 0.0
        v += value if load else 0.0
        v += bonus if load & upgrade & (gg != PEPPER) else 0.0
        worth[port] = v


@njit(cache=True, inline="always")
def last_round(s):
    """This round is the game's last (V49)."""
    return s[K.END_TRIG] == 1 or tiles_left(s) <= 0


@njit(cache=True, inline="always")
def _working(s, p):
    k = 0
    for ship in range(4):
        if K.ship_works(s, p, ship):
            k += 1
    return k


@njit(cache=True, inline="always")
def risk_level(s, p, prm):
    """How much a red hex should be avoided: higher with pepper or valuable cargo aboard
    and when a wreck would leave a single working ship."""
    lv = int(prm[P_RISK_BASE])
    if s[K.CUBES + p * NG + PEPPER] == 1 or _cargo_value(s, p) >= 10.0:
        lv += 1
    if _working(s, p) <= 2:
        lv += 1
    return min(max(lv, 0), NUM_LEVELS - 1)


@njit(cache=True, inline="always")
def route_context(s, m, wts, routes, p, prm):
    """Seat p's route weights and tables at its current risk level (the dice row in the
    dice variant)."""
    lv = risk_level(s, p, prm) if s[K.DICE] == 0 else DICE_LEVEL
    dist, via, valid = _tables(m, routes, lv)
    return wts[lv], dist, via, valid


# ---------------------------------------------------------------- the plan


@njit(cache=True, inline="always")
def pepper_port(s, m, wt, dist, via, valid, dx):
    """The pepper port to sail for (the one cheapest out and home when there are several);
    -1 when none can be reached."""
    P = m[K.M_P]
    count, only = 0, NO_TARGET
    for port in range(P):
        if K.portf(m, port, K.P_GOOD) == PEPPER and dx[port] < INF:
            count += 1
            only = port
    if count <= 1:
        return only
    dl = costs_to(m, wt, dist, via, valid, P)
    best, best_port = INF, NO_TARGET
    for port in range(P):
        if K.portf(m, port, K.P_GOOD) == PEPPER and dx[port] < INF:
            c = dx[port] + dl[K.portf(m, port, K.P_HEX)]
            if c < best:
                best, best_port = c, port
    return best_port


@njit(cache=True)
def plan(s, m, wt, dist, via, valid, dx, p, prm, own_turn):
    """The target row (port id, or P for Lisbon) seat p heads for now; -1: nothing useful.
    Fills dx (costs from p's ship to every target row)."""
    worth = np.empty(m[K.M_P], dtype=np.float64)
    port_values(s, m, p, prm, denial_values(s, m, prm), worth)
    return plan_with(s, m, wt, dist, via, valid, dx, p, prm, own_turn, worth)


@njit(cache=True)
def plan_with(s, m, wt, dist, via, valid, dx, p, prm, own_turn, worth):
    """`plan` with the ports' values for p given (`port_values` of this `s`: a foreseen
    turn reuses them until its ship enters a port)."""
    x = s[K.SHIP + p]
    P = m[K.M_P]
    dists_from(m, wt, dist, via, valid, x, dx)
    cargo = _cargo_value(s, p)
    if last_round(s):
        # the last round: only what this turn can still score
        reach = (K.available(s, p) if own_turn else 2) * DISC
        best, best_k = 0.0, NO_TARGET
        if own_turn and cargo > 0 and dx[P] <= reach:
            best, best_k = cargo - prm[P_NEAR] * dx[P] / DISC, P
        for port in range(P):
            if dx[port] <= reach and K.portf(m, port, K.P_HEX) != x:
                v = worth[port] - prm[P_NEAR] * dx[port] / DISC
                if v > best:
                    best, best_k = v, port
        return best_k
    G = NO_TARGET
    if s[K.CUBES + p * NG + PEPPER] == 1:
        G = P                                   # the tile (V41)
    else:
        if can_load(s, p, PEPPER):
            G = pepper_port(s, m, wt, dist, via, valid, dx)
        if G < 0 and (cargo > 0 or any_wreck(s, p)):
            G = P                               # sell, or repair (V44, V46)
    inherent = G >= 0
    if not inherent:
        G = P                                   # detours are counted as round trips
    fill_row(m, wt, dist, via, valid, G)          # dist[G]: costs to the goal
    base = dist[G, x]
    lam = prm[P_LAMBDA]
    best, best_k = 0.0, NO_TARGET
    for port in range(P):
        if port == G or dx[port] >= INF:
            continue
        h = K.portf(m, port, K.P_HEX)
        if h == x:
            continue
        v = worth[port]
        if v <= 0.0:
            continue
        th = dist[G, h]
        extra = dx[port] + th - base if th < INF and base < INF else dx[port]
        score = v - lam * extra / DISC - prm[P_NEAR] * dx[port] / DISC
        if score > best:
            best, best_k = score, port
    if best_k >= 0:
        return best_k
    if not inherent or base >= INF:
        return NO_TARGET
    return G


disk_cache.refresh(globals())
