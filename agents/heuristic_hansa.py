"""Hansa heuristic: the strategy of the rules, as one njit function (agents.policies).

`heuristic_action(aux, s, mask, key)` returns a legal action for the decider of `s` (a
state that seat may see: the agents pass a determinization). Phase by phase:

* **setup** — cities with two warehouses and no rival stalls first (majorities, monopolies);
* **refill** — plays the turn ahead after a refill and after a skip and keeps the better
  (refilling whenever the turn after a skip would only pass, so the game moves on to its end);
* **actions** — a one-segment planner: every "sail the shortest route to city X (teleported
  on a copy: sailing only costs talers), then buy / build / sell there" and "end the turn
  now" is applied with `hansa_env.kernel.step` on a scratch copy and scored by `evaluate`;
  the first action of the best plan is played, and the plan is made again at the next
  decision. A sale sells every colour held at least twice. A plan that leaves a colour
  held twice is also scored as if that sale followed in the cheapest reachable city with
  an own stall, so buy-then-sell turns are seen;
* **selling** — adds the remaining tokens of every colour held twice or more, then done;
* **loss** — gives up the token of the lost colour with the fewest barrels;
* **tax** — discards the token whose loss lowers the hand value least.

`evaluate` scores a position for seat `me` as an end of turn: VP (H29, the active player's
hand cut to three tokens and talers to three, H24), plus for seats that still get a turn
the expected worth of their hand (colours held twice are worth their barrels, as a sale
would add them), talers, and majorities in cities with warehouses (free purchases,
income from others' purchases), minus the same for the opponents (their mean, blended
with the strongest one by W_MAX_OPP).
Randomness (setup ties, a tiny jitter between equal plans) comes from the generator at
key[0:2] only, so a decision is a function of (state, key).

The weights live in `WEIGHTS` (indices W_*); `decide(s, mask, key, weights)` is the same
policy with other weights (benchmarks/heuristic_hansa_strength.py tunes with it).
"""

import numpy as np
from numba import njit

from hansa_env import actions as A
from hansa_env import kernel as K
from hansa_env.bindings import HansaAux
from hansa_env.state import ACTIONS, LOSS, REFILL, SELLING, SETUP, STATE_SIZE, TAX
from tradewinds import rng
from tradewinds.agents.policies import bind_heuristic, bind_values
from tradewinds.compiled import disk_cache

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

NCITY, NCOL, NTYPE, MAXP = K.NCITY, K.NCOL, K.NTYPE, K.MAXP
NP, PHASE, ACTIVE, DECIDER, SHIP, ACTED = K.NP, K.PHASE, K.ACTIVE, K.DECIDER, K.SHIP, K.ACTED
MONEY, SUPPLY_STALLS, STALLS, HAND = K.MONEY, K.SUPPLY_STALLS, K.STALLS, K.HAND
WAREHOUSE, END_TRIG, LOSS_COLOUR, SALE = K.WAREHOUSE, K.END_TRIG, K.LOSS_COLOUR, K.SALE
SLOT_COUNT, SLOTS = K.SLOT_COUNT, K.SLOTS

# ---- weights (indices into WEIGHTS)
(W_PAIR, W_PAIR_TOKEN, W_SINGLE, W_MONEY, W_MAJ, W_STALL, W_MAX_OPP, W_JITTER,
 W_SETUP_SLOT, W_SETUP_ALONE, W_SETUP_IN, W_SUPPLY_STALL) = range(12)
WEIGHTS = np.array([
    0.9,    # W_PAIR: per barrel of a colour held twice or more (a sale adds its barrels)
    0.0,    # W_PAIR_TOKEN: per token of such a colour
    0.7,    # W_SINGLE: per barrel of a colour held once (may pair up, or pay a build)
    1.2,    # W_MONEY: per taler kept (at most three survive the turn's end)
    1.3,    # W_MAJ: per warehouse slot of a city where the seat holds the majority
    0.01,   # W_STALL: per stall on the board (the tie-break of H30)
    0.0,    # W_MAX_OPP: weight of the strongest opponent vs the opponents' mean
    0.01,   # W_JITTER: random tie-break between plans of (nearly) equal value
    1.0,    # W_SETUP_SLOT: setup, per warehouse slot of the city
    1.5,    # W_SETUP_ALONE: setup, city without rival stalls
    0.3,    # W_SETUP_IN: setup, per route into the city (ship visits)
    0.0,    # W_SUPPLY_STALL: per stall left in supply (future builds)
])
NUM_WEIGHTS = WEIGHTS.shape[0]


# ---- shortest routes on the one-way map (talers needed to reach a city)
def _routes():
    route = K.ROUTE
    dist = np.full((NCITY, NCITY), 99, dtype=np.int64)
    first = np.full((NCITY, NCITY), -1, dtype=np.int64)   # first hop from a towards b
    for a in range(NCITY):
        dist[a, a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in range(NCITY):
                    if route[x, y] and dist[a, y] == 99:
                        dist[a, y] = dist[a, x] + 1
                        first[a, y] = y if x == a else first[a, x]
                        nxt.append(y)
            frontier = nxt
    back = np.full(NCITY, 99, dtype=np.int64)      # shortest round trip leaving c
    back_first = np.full(NCITY, -1, dtype=np.int64)
    for c in range(NCITY):
        for y in range(NCITY):
            if route[c, y] and 1 + dist[y, c] < back[c]:
                back[c] = 1 + dist[y, c]
                back_first[c] = y
    return dist, first, back, back_first


DIST, FIRST_HOP, ROUND_TRIP, ROUND_TRIP_FIRST = _routes()
IN_ROUTES = K.ROUTE.sum(axis=0).astype(np.int64)


# ===================================================================  evaluation

@njit(cache=True)
def hand_worth(h, w):
    """Expected worth beyond their 1 VP each of held tokens `h` (counts by token type)."""
    v = 0.0
    for c in range(NCOL):
        k = h[3 * c] + h[3 * c + 1] + h[3 * c + 2]
        if k == 0:
            continue
        bar = h[3 * c] + 2 * h[3 * c + 1] + 3 * h[3 * c + 2]
        if k >= 2:
            v += w[W_PAIR] * bar + w[W_PAIR_TOKEN] * k
        else:
            v += w[W_SINGLE] * bar
    return v


@njit(cache=True)
def least_useful(h, w):
    """The held token type whose discard keeps the most hand worth (ties: the lowest type
    id, i.e. fewer barrels within a colour)."""
    best_t = -1
    best_v = -1e18
    for t in range(NTYPE):
        if h[t] > 0:
            h[t] -= 1
            v = hand_worth(h, w)
            h[t] += 1
            if v > best_v + 1e-9:
                best_v = v
                best_t = t
    return best_t


@njit(cache=True)
def taxed_hand_worth(s, q, limit, w, h):
    """(worth, discarded): seat q's hand worth after discarding down to `limit` tokens."""
    total = 0
    for t in range(NTYPE):
        h[t] = s[HAND + q * NTYPE + t]
        total += h[t]
    gone = 0
    while total > limit:
        t = least_useful(h, w)
        h[t] -= 1
        total -= 1
        gone += 1
    return hand_worth(h, w), gone


@njit(cache=True)
def evaluate(s, me, w, vp, e, h):
    """Seat me's standing in s, read as the end of the active player's turn (see module)."""
    n = s[NP]
    act = s[ACTIVE]
    K.scores(s, vp)
    for q in range(n):
        future = s[END_TRIG] == 0 or q > act
        if q == act:
            worth, gone = taxed_hand_worth(s, q, 3, w, h)
            money = min(s[MONEY + q], 3)
        else:
            worth, gone = taxed_hand_worth(s, q, 99, w, h)
            money = min(s[MONEY + q], 6)
        v = vp[q] - gone + w[W_STALL] * K.stalls_on_board(s, q)
        if future:
            v += worth + w[W_MONEY] * money + w[W_SUPPLY_STALL] * s[SUPPLY_STALLS + q]
        e[q] = v
    for c in range(NCITY):
        if SLOT_COUNT[c] > 0:
            holder = K.majority_holder(s, c)
            if holder >= 0 and (s[END_TRIG] == 0 or holder > act):
                e[holder] += w[W_MAJ] * SLOT_COUNT[c]
    best = -1e18
    total = 0.0
    for q in range(n):
        if q != me:
            total += e[q]
            if e[q] > best:
                best = e[q]
    return e[me] - (w[W_MAX_OPP] * best + (1.0 - w[W_MAX_OPP]) * total / (n - 1))


# ===================================================================  sales

@njit(cache=True)
def next_sale_action(s, p):
    """The next step of the sale of every colour p holds twice: sell:add or sell:done."""
    for t in range(NTYPE):
        if (s[HAND + p * NTYPE + t] - s[SALE + t] > 0
                and K.hand_of_colour(s, p, t // 3) >= 2):
            return A.SELL_ADD + t
    return A.SELL_DONE


@njit(cache=True)
def can_sell(s, p):
    for c in range(NCOL):
        if K.hand_of_colour(s, p, c) >= 2:
            return True
    return False


@njit(cache=True)
def cheapest_loss(s, p, c):
    """The token of colour c that p gives up: the one with the fewest barrels."""
    for b in range(3):
        if s[HAND + p * NTYPE + c * 3 + b] > 0:
            return A.DISCARD + c * 3 + b
    return -1


@njit(cache=True)
def resolve_losses(s):
    """Play the opponents' loss choices (H23) with `cheapest_loss`."""
    while s[PHASE] == LOSS:
        K.step(s, cheapest_loss(s, s[DECIDER], s[LOSS_COLOUR]))


@njit(cache=True)
def apply_sale(s, p):
    """Sell every colour p holds twice (state in ACTIONS, p may sell here); True if done."""
    while True:
        a = next_sale_action(s, p)
        if K.step(s, a) != 0:
            return False
        if a == A.SELL_DONE:
            break
    resolve_losses(s)
    return True


# ===================================================================  planning

@njit(cache=True)
def visit_cost(s, c):
    """Talers needed before an action may be taken in city c (99 if unreachable)."""
    ship = s[SHIP]
    if c == ship:
        return 0 if s[ACTED] == 0 else ROUND_TRIP[c]
    return DIST[ship, c]


@njit(cache=True)
def first_step(s, c, a):
    """The first action of the plan "go to c, then play a"."""
    ship = s[SHIP]
    if c == ship:
        return a if s[ACTED] == 0 else A.SAIL + ROUND_TRIP_FIRST[c]
    return A.SAIL + FIRST_HOP[ship, c]


@njit(cache=True)
def teleport(dst, src, c, cost, p):
    """dst = src with the ship moved to c for `cost` talers (what sailing there does)."""
    dst[:] = src
    dst[SHIP] = c
    dst[MONEY + p] -= cost
    dst[ACTED] = 0


@njit(cache=True)
def sale_follow_up(s, me, w, vp, e, h, buf):
    """Value of s if p then sails to the cheapest city with an own stall and sells there."""
    if not can_sell(s, me):
        return -1e18
    best_c = -1
    best_k = 1 << 30
    money = s[MONEY + me]
    for c in range(NCITY):
        k = s[STALLS + c * MAXP + me]
        if k == 0:
            continue
        d = visit_cost(s, c)
        if d > money:
            continue
        rank = d * 4 + (8 if k == 1 else 0)
        if rank < best_k:
            best_k = rank
            best_c = c
    if best_c < 0:
        return -1e18
    teleport(buf, s, best_c, visit_cost(s, best_c), me)
    if not apply_sale(buf, me):
        return -1e18
    return evaluate(buf, me, w, vp, e, h)


@njit(cache=True)
def plan_value(s, me, w, vp, e, h, buf):
    v = evaluate(s, me, w, vp, e, h)
    f = sale_follow_up(s, me, w, vp, e, h, buf)
    return v if v >= f else f


@njit(cache=True)
def jitter(key, w):
    return w[W_JITTER] * rng.below(key, 0, 1 << 20) / (1 << 20)


@njit(cache=True)
def best_plan(s, w, key, out_value, bufs, vp, e, h):
    """The first action of the best one-segment plan in phase ACTIONS; its value in
    out_value[0]."""
    me = s[DECIDER]
    money = s[MONEY + me]
    at, nxt, fol = bufs[0], bufs[1], bufs[2]
    best_a = A.END_ACTIONS
    best_v = evaluate(s, me, w, vp, e, h) + jitter(key, w)
    for c in range(NCITY):
        d = visit_cost(s, c)
        if d > money:
            continue
        teleport(at, s, c, d, me)
        # buy
        for k in range(SLOT_COUNT[c]):
            slot = SLOTS[c, k]
            if at[WAREHOUSE + slot] < 0:
                continue
            a = A.BUY + slot
            nxt[:] = at
            if K.step(nxt, a) != 0:
                continue
            v = plan_value(nxt, me, w, vp, e, h, fol) + jitter(key, w)
            if v > best_v:
                best_v = v
                best_a = first_step(s, c, a)
        # build
        if at[SUPPLY_STALLS + me] > 0:
            for t in range(NTYPE):
                if at[HAND + me * NTYPE + t] == 0:
                    continue
                a = A.BUILD + t
                nxt[:] = at
                if K.step(nxt, a) != 0:
                    continue
                v = plan_value(nxt, me, w, vp, e, h, fol) + jitter(key, w)
                if v > best_v:
                    best_v = v
                    best_a = first_step(s, c, a)
        # sell every colour held twice
        if at[STALLS + c * MAXP + me] > 0 and can_sell(at, me):
            a = next_sale_action(at, me)
            nxt[:] = at
            if apply_sale(nxt, me):
                v = plan_value(nxt, me, w, vp, e, h, fol) + jitter(key, w)
                if v > best_v:
                    best_v = v
                    best_a = first_step(s, c, a)
    out_value[0] = best_v
    return best_a


@njit(cache=True)
def setup_choice(s, mask, w, key):
    me = s[DECIDER]
    n = s[NP]
    best_a = -1
    best_v = -1e18
    for c in range(NCITY):
        if not mask[A.SETUP + c]:
            continue
        v = w[W_SETUP_SLOT] * SLOT_COUNT[c] + w[W_SETUP_IN] * IN_ROUTES[c]
        alone = True
        for q in range(n):
            if q != me and s[STALLS + c * MAXP + q] > 0:
                alone = False
        if alone:
            v += w[W_SETUP_ALONE]
        v += 0.5 * rng.below(key, 0, 1 << 20) / (1 << 20)
        if v > best_v:
            best_v = v
            best_a = A.SETUP + c
    return best_a


@njit(cache=True)
def decide(s, mask, key, w):
    """The heuristic's action for the decider of s, with weights w (see WEIGHTS)."""
    K.legal_mask(s, mask)
    phase = s[PHASE]
    p = s[DECIDER]
    if phase == SETUP:
        return setup_choice(s, mask, w, key)
    if phase == LOSS:
        return cheapest_loss(s, p, s[LOSS_COLOUR])
    if phase == SELLING:
        return next_sale_action(s, p)
    h = np.zeros(NTYPE, dtype=np.int64)
    if phase == TAX:
        for t in range(NTYPE):
            h[t] = s[HAND + p * NTYPE + t]
        return A.DISCARD + least_useful(h, w)
    bufs = np.empty((4, STATE_SIZE), dtype=np.int32)
    vp = np.zeros(MAXP, dtype=np.int64)
    e = np.zeros(MAXP, dtype=np.float64)
    value = np.zeros(1, dtype=np.float64)
    if phase == ACTIONS:
        return best_plan(s, w, key, value, bufs, vp, e, h)
    if phase == REFILL:
        start = bufs[3]
        start[:] = s
        K.step(start, A.REFILL)
        best_plan(start, w, key, value, bufs, vp, e, h)
        v_refill = value[0]
        start[:] = s
        K.step(start, A.SKIP_REFILL)
        # a turn that would only pass refills anyway: otherwise two players who both
        # prefer to wait can skip forever (one token left in the warehouses, H11 lets
        # them) and the game never reaches its end (H27)
        if best_plan(start, w, key, value, bufs, vp, e, h) == A.END_ACTIONS:
            return A.REFILL
        return A.REFILL if v_refill > value[0] else A.SKIP_REFILL
    return rng.pick_set(mask, key)


@njit(cache=True)
def heuristic_action(aux, s, mask, key):
    # a copy: numba types a global array as read-only, and one compiled `decide` (weights
    # as a plain float64 array) serves this entry point and the tuning calls alike
    return decide(s, mask, key, WEIGHTS.copy())


@njit(cache=True)
def position_values(aux, s, out):
    """Each seat's standing as `evaluate` sees it (VP, hand, talers, majorities): the
    leaf judgement of depth-limited searches (agents.policies.position_values)."""
    vp = np.zeros(MAXP, dtype=np.int64)
    e = np.zeros(MAXP, dtype=np.float64)
    h = np.zeros(NTYPE, dtype=np.int64)
    evaluate(s, 0, WEIGHTS.copy(), vp, e, h)
    for q in range(s[NP]):
        out[q] = e[q]


bind_heuristic(HansaAux, heuristic_action)
bind_values(HansaAux, position_values)


disk_cache.refresh(globals())
