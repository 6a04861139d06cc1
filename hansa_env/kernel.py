"""The Hansa rules as numba kernels over the flat int32 state (docs/hansa_engine.md).

Every function takes the state vector `s` (layout: state.py) and works in place; no
Python objects, no allocation in `step`. `is_legal` is the single source of truth for
legality: `legal_mask` asks it for the actions of the current phase and `step` asks it
before applying anything, so an illegal action never touches the state.
"""

import numpy as np
from numba import njit

from hansa_env import actions as A
from hansa_env import board as B
from hansa_env import observation as O
from hansa_env.state import (
    ACTIONS,
    GAME_OVER,
    LAYOUT,
    LOSS,
    MAX_SUPPLY,
    REFILL,
    SELLING,
    SETUP,
    TAX,
)
from tradewinds import rng
from tradewinds.compiled import disk_cache
from tradewinds.compiled.no_runtime import kernel

# ---- state offsets (plain ints, frozen into the compiled code) ----
_o = LAYOUT.offset
NP, PHASE, ACTIVE, DECIDER, SHIP, ACTED = (
    _o("num_players"), _o("phase"), _o("active"), _o("decider"), _o("ship"), _o("acted_here"))
ROUND, TURNS, END_TRIG, SETUP_STEP, BUILD_RULE, MAX_ROUNDS, TRUNC, DRAWN = (
    _o("round"), _o("turns"), _o("end_triggered"), _o("setup_step"), _o("build_rule"),
    _o("max_rounds"), _o("truncated"), _o("supply_drawn"))
LOSS_COLOURS, LOSS_NEXT, LOSS_PENDING, LOSS_SEAT, LOSS_COLOUR = (
    _o("loss_colours"), _o("loss_next"), _o("loss_pending"), _o("loss_seat"), _o("loss_colour"))
RNG, MONEY, SUPPLY_STALLS, STALLS = _o("rng"), _o("money"), _o("stall_supply"), _o("stalls")
HAND, SOLD, SALE, REMOVED = _o("hand"), _o("sold"), _o("sale"), _o("removed")
IN_PLAY, WAREHOUSE, PILE_END, SUPPLY = (
    _o("colour_in_play"), _o("warehouse"), _o("pile_end"), _o("supply"))
BUILD_COUNT, SEAT_VP, SETUP_ORDER = _o("build_count"), _o("seat_vp"), _o("setup_order")

_ob = O.obs_names().index
OB_NP, OB_PHASE, OB_SEAT, OB_ROUND, OB_END, OB_ACTED, OB_BUILD, OB_SHIP = (
    _ob("num_players=2"), _ob("phase=setup"), _ob("my_seat/3"), _ob("round/max_rounds"),
    _ob("end_triggered"), _ob("acted_here"), _ob("build_count/3"), _ob("ship@Tonsberg"))
OB_WH, OB_PILE, OB_SALE, OB_LOSS, OB_INPLAY = (
    _ob("wh:Tonsberg/1:red1"), _ob("pile1_size"), _ob("sale:red1"), _ob("loss_colour=red"),
    _ob("colour_in_play:red"))
SF = O.SEAT_FIELDS.index
SF_PRESENT, SF_ACTIVE, SF_DECIDER, SF_MONEY, SF_SUPPLY, SF_STALLS, SF_HAND, SF_SOLD, SF_SCORE = (
    SF("present"), SF("active"), SF("decider"), SF("money"), SF("stall_supply"),
    SF("stalls@Tonsberg"), SF("hand:red1"), SF("sold:red1"), SF("score"))

STATE_SIZE = LAYOUT.size
NUM_ACTIONS = A.NUM_ACTIONS
OBS_SIZE = O.OBS_SIZE
MAXP = B.MAX_PLAYERS
NCITY = len(B.CITIES)
NTYPE = B.NUM_TOKEN_TYPES
NCOL = len(B.COLOURS)
NWH = B.NUM_WAREHOUSES
COPENHAGEN = B.COPENHAGEN
MAX_STALLS_PER_BUILD = 3  # build_rule per_stall: one build places 1, 2 or 3 stalls (H20, DA)

# ---- board arrays ----
WH_CITY = np.array([c for c, _ in B.WAREHOUSES], dtype=np.int64)
ROUTE = np.zeros((NCITY, NCITY), dtype=np.int64)  # ROUTE[a, b] = 1 if a -> b
for _a, _b in B.ROUTES:
    ROUTE[B.CITIES.index(_a), B.CITIES.index(_b)] = 1
TOKENS_PER_BARREL = np.array(B.TOKENS_PER_BARREL, dtype=np.int64)
# Per city: its outgoing routes and its warehouse slots, for the fast mask.
OUT_COUNT = ROUTE.sum(axis=1)
OUT_TO = np.full((NCITY, NCITY), -1, dtype=np.int64)
SLOT_COUNT = np.zeros(NCITY, dtype=np.int64)
SLOTS = np.full((NCITY, 2), -1, dtype=np.int64)
for _c in range(NCITY):
    _dest = np.flatnonzero(ROUTE[_c])
    OUT_TO[_c, : len(_dest)] = _dest
for _w in range(NWH):
    _c = WH_CITY[_w]
    SLOTS[_c, SLOT_COUNT[_c]] = _w
    SLOT_COUNT[_c] += 1

# ---- error codes returned by step ----
OK, ERR_RANGE, ERR_OVER, ERR_ILLEGAL = 0, 1, 2, 3


# =====================================================================  setup

@njit(cache=True)
def init(s, num_players, seed, build_rule, max_rounds, talers0=0, talers1=0, talers2=0,
         talers3=0, vp0=0, vp1=0, vp2=0, vp3=0, setup_order=0):
    """A fresh game: colours set aside, tokens shuffled onto warehouses and piles (H2-H6).
    talers0..3 and vp0..3: the options seat_talers and seat_vp by seat (HA21, HA22);
    setup_order: the option's index in board.SETUP_ORDERS (HA23; 0 = HA6)."""
    s[:] = 0
    n = num_players
    s[NP] = n
    s[BUILD_RULE] = build_rule
    s[MAX_ROUNDS] = max_rounds
    s[SETUP_ORDER] = setup_order
    rng.seed_state(s, RNG, seed)
    colours = np.arange(NCOL)
    rng.shuffle(s, RNG, colours, NCOL)
    removed_colours = 4 - n if n < 4 else 0
    for i in range(NCOL):
        s[IN_PLAY + colours[i]] = 0 if i < removed_colours else 1
    tokens = np.empty(NCOL * 13, dtype=np.int64)
    count = 0
    for c in range(NCOL):
        for b in range(3):
            if s[IN_PLAY + c] == 1:
                for _ in range(TOKENS_PER_BARREL[b]):
                    tokens[count] = c * 3 + b
                    count += 1
            else:
                s[REMOVED + c * 3 + b] = TOKENS_PER_BARREL[b]
    rng.shuffle(s, RNG, tokens, count)
    for w in range(NWH):
        s[WAREHOUSE + w] = tokens[w]
    rest = count - NWH
    for i in range(MAX_SUPPLY):
        s[SUPPLY + i] = tokens[NWH + i] if i < rest else -1
    base = rest // 5
    extra = rest % 5
    end = 0
    for k in range(5):
        end += base + (1 if k < extra else 0)
        s[PILE_END + k] = end
    for p in range(n):
        s[MONEY + p] = B.START_MONEY + seat_entry(p, talers0, talers1, talers2, talers3)
        s[SUPPLY_STALLS + p] = B.STALLS_PER_PLAYER
        s[SEAT_VP + p] = seat_entry(p, vp0, vp1, vp2, vp3)
    s[SHIP] = COPENHAGEN
    s[PHASE] = SETUP
    s[ACTIVE] = setup_seat(n, 0, setup_order)
    s[DECIDER] = s[ACTIVE]
    s[LOSS_SEAT] = 0


@njit(cache=True)
def init_opts(s, num_players, seed, opts):
    """init with parse_options' values as one int64 vector (build_rule, max_rounds,
    seat_talers x4, seat_vp x4, setup_order); entries missing from a shorter vector count
    as 0."""
    x = np.zeros(11, dtype=np.int64)
    k = min(len(opts), 11)
    x[:k] = opts[:k]
    init(s, num_players, seed, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9],
         x[10])


@kernel
def seat_entry(p, x0, x1, x2, x3):
    """Seat p's entry of a per-seat option that init takes as four scalars."""
    if p == 0:
        return x0
    if p == 1:
        return x1
    if p == 2:
        return x2
    return x3


@kernel
def setup_seat(n, i, order):
    """Who makes placement i of the draft (H8). `order` is the state's setup_order (HA23):
    0 forward, HA6: seats 1..n, then n..1, then n..1; 1 reverse, the mirror image: n..1,
    then 1..n, then 1..n; 2 snake: 1..n, n..1, 1..n. Any other value counts as forward
    (the state checks refuse it)."""
    j = i % n
    if order == 2:
        return j if (i // n) % 2 == 0 else n - 1 - j
    seat = j if i < n else n - 1 - j
    return n - 1 - seat if order == 1 else seat


# =====================================================================  queries

@kernel
def current_player(s):
    return s[DECIDER]


@kernel
def is_terminal(s):
    return s[PHASE] == GAME_OVER


@kernel
def is_truncated(s):
    return s[PHASE] == GAME_OVER and s[TRUNC] == 1


@kernel
def hand_of_colour(s, p, c):
    at = HAND + p * NTYPE + c * 3
    return s[at] + s[at + 1] + s[at + 2]


@kernel
def hand_total(s, p):
    t = 0
    for k in range(NTYPE):
        t += s[HAND + p * NTYPE + k]
    return t


@kernel
def majority_holder(s, city):
    """The seat with strictly more stalls in the city than every other, else -1."""
    best = 0
    who = -1
    for p in range(s[NP]):
        k = s[STALLS + city * MAXP + p]
        if k > best:
            best = k
            who = p
        elif k == best and k > 0:
            who = -1
    return who


@kernel
def supply_left(s):
    return s[PILE_END + 4] - s[DRAWN]


@kernel
def empty_warehouses(s):
    k = 0
    for w in range(NWH):
        if s[WAREHOUSE + w] < 0:
            k += 1
    return k


@kernel
def building_on(s):
    """per_stall: a build is in progress this visit and may place another stall (H20, DA)."""
    return 0 < s[BUILD_COUNT] < MAX_STALLS_PER_BUILD


@kernel
def sale_ok(s):
    """A non-empty selection with >= 2 tokens in every chosen colour (H21, HA9)."""
    total = 0
    for c in range(NCOL):
        k = s[SALE + c * 3] + s[SALE + c * 3 + 1] + s[SALE + c * 3 + 2]
        if k == 1:
            return False
        total += k
    return total > 0


# =====================================================================  legality

@kernel
def is_legal(s, a):
    phase = s[PHASE]
    p = s[DECIDER]
    if phase == SETUP:
        if a >= A.REFILL:
            return False
        return a != COPENHAGEN and s[STALLS + a * MAXP + p] == 0
    if phase == REFILL:
        return a == A.REFILL or a == A.SKIP_REFILL
    if phase == ACTIONS:
        city = s[SHIP]
        if A.SAIL <= a < A.BUY:
            return ROUTE[city, a - A.SAIL] == 1 and s[MONEY + p] >= 1
        if a == A.END_ACTIONS:
            return True
        if s[ACTED] != 0:
            if A.BUILD <= a < A.SELL_ADD and building_on(s):
                return s[HAND + p * NTYPE + a - A.BUILD] > 0 and s[SUPPLY_STALLS + p] > 0
            return False
        if A.BUY <= a < A.BUILD:
            w = a - A.BUY
            if WH_CITY[w] != city or s[WAREHOUSE + w] < 0:
                return False
            return majority_holder(s, city) == p or s[MONEY + p] >= 1
        if A.BUILD <= a < A.SELL_ADD:
            return s[HAND + p * NTYPE + a - A.BUILD] > 0 and s[SUPPLY_STALLS + p] > 0
        if A.SELL_ADD <= a < A.SELL_DONE:
            t = a - A.SELL_ADD
            return (s[STALLS + city * MAXP + p] > 0 and s[HAND + p * NTYPE + t] > 0
                    and hand_of_colour(s, p, t // 3) >= 2)
        return False
    if phase == SELLING:
        if A.SELL_ADD <= a < A.SELL_DONE:
            t = a - A.SELL_ADD
            return (s[HAND + p * NTYPE + t] - s[SALE + t] > 0
                    and hand_of_colour(s, p, t // 3) >= 2)
        if a == A.SELL_DONE:
            return sale_ok(s)
        return False
    if phase == LOSS:
        if A.DISCARD <= a < A.END_ACTIONS:
            t = a - A.DISCARD
            return t // 3 == s[LOSS_COLOUR] and s[HAND + p * NTYPE + t] > 0
        return False
    if phase == TAX:
        if A.DISCARD <= a < A.END_ACTIONS:
            return s[HAND + p * NTYPE + a - A.DISCARD] > 0
        return False
    return False


@kernel
def _mark(s, mask, lo, hi):
    for a in range(lo, hi):
        mask[a] = 1 if is_legal(s, a) else 0


@kernel
def _mask_actions(s, mask):
    """Phase 3 mask built per city and per held token (equal to is_legal, tested)."""
    p = s[DECIDER]
    city = s[SHIP]
    money = s[MONEY + p]
    if money >= 1:
        for k in range(OUT_COUNT[city]):
            mask[A.SAIL + OUT_TO[city, k]] = 1
    mask[A.END_ACTIONS] = 1
    if s[ACTED] != 0:
        if building_on(s) and s[SUPPLY_STALLS + p] > 0:
            for t in range(NTYPE):
                if s[HAND + p * NTYPE + t] > 0:
                    mask[A.BUILD + t] = 1
        return
    if majority_holder(s, city) == p or money >= 1:
        for k in range(SLOT_COUNT[city]):
            w = SLOTS[city, k]
            if s[WAREHOUSE + w] >= 0:
                mask[A.BUY + w] = 1
    can_build = s[SUPPLY_STALLS + p] > 0
    can_sell = s[STALLS + city * MAXP + p] > 0
    for c in range(NCOL):
        at = HAND + p * NTYPE + c * 3
        total = s[at] + s[at + 1] + s[at + 2]
        if total == 0:
            continue
        for b in range(3):
            if s[at + b] > 0:
                if can_build:
                    mask[A.BUILD + c * 3 + b] = 1
                if can_sell and total >= 2:
                    mask[A.SELL_ADD + c * 3 + b] = 1


@kernel
def _mask_selling(s, mask):
    p = s[DECIDER]
    for c in range(NCOL):
        at = HAND + p * NTYPE + c * 3
        if s[at] + s[at + 1] + s[at + 2] < 2:
            continue
        for b in range(3):
            if s[at + b] - s[SALE + c * 3 + b] > 0:
                mask[A.SELL_ADD + c * 3 + b] = 1
    if sale_ok(s):
        mask[A.SELL_DONE] = 1


@kernel
def legal_mask(s, mask):
    """Writes 0/1 for every action; only the current phase's ranges can be 1."""
    mask[:] = 0
    phase = s[PHASE]
    if phase == ACTIONS:
        _mask_actions(s, mask)
    elif phase == SELLING:
        _mask_selling(s, mask)
    elif phase == REFILL:
        mask[A.REFILL] = 1
        mask[A.SKIP_REFILL] = 1
    elif phase == SETUP:
        _mark(s, mask, A.SETUP, A.REFILL)
    elif phase == LOSS or phase == TAX:
        _mark(s, mask, A.DISCARD, A.END_ACTIONS)


# =====================================================================  automatic work

@kernel
def refill(s):
    """H12: pay 1 taler if anything gets placed, fill empty slots in order (HA15, H13)."""
    if supply_left(s) <= 0 or empty_warehouses(s) == 0:
        return
    s[MONEY + s[ACTIVE]] -= 1
    for w in range(NWH):
        if s[WAREHOUSE + w] < 0 and s[DRAWN] < s[PILE_END + 4]:
            if s[DRAWN] >= s[PILE_END + 3]:
                s[END_TRIG] = 1
            s[WAREHOUSE + w] = s[SUPPLY + s[DRAWN]]
            s[DRAWN] += 1


@kernel
def start_turn(s, p):
    """Income and phase 2 for seat p; stops at the first decision (H9-H12)."""
    if p == 0:
        if s[ROUND] >= s[MAX_ROUNDS]:
            s[TRUNC] = 1
            game_over(s)
            return
        s[ROUND] += 1
    s[ACTIVE] = p
    s[DECIDER] = p
    s[ACTED] = 0
    s[MONEY + p] += B.INCOME
    empty = empty_warehouses(s)
    if empty == 0 or supply_left(s) <= 0:
        s[PHASE] = ACTIONS
    elif empty == NWH:
        refill(s)
        s[PHASE] = ACTIONS
    else:
        s[PHASE] = REFILL


@kernel
def game_over(s):
    s[PHASE] = GAME_OVER
    s[DECIDER] = -1


@kernel
def end_turn(s):
    p = s[ACTIVE]
    s[TURNS] += 1
    if s[END_TRIG] == 1 and p == s[NP] - 1:
        game_over(s)
    else:
        start_turn(s, (p + 1) % s[NP])


@kernel
def tax(s):
    """H24: talers above 3 go to the bank; above 3 tokens the player discards (TAX)."""
    p = s[ACTIVE]
    if s[MONEY + p] > B.TAX_MONEY_LIMIT:
        s[MONEY + p] = B.TAX_MONEY_LIMIT
    if hand_total(s, p) > B.TAX_GOODS_LIMIT:
        s[PHASE] = TAX
        s[DECIDER] = p
    else:
        end_turn(s)


@kernel
def discard(s, p, t):
    s[HAND + p * NTYPE + t] -= 1
    s[REMOVED + t] += 1


@kernel
def resolve_losses(s):
    """H23/HA10: opponents in seat order after the seller, colours ascending."""
    n = s[NP]
    seller = s[ACTIVE]
    while s[LOSS_NEXT] < n:
        opp = (seller + s[LOSS_NEXT]) % n
        while s[LOSS_PENDING] != 0:
            c = 0
            while (s[LOSS_PENDING] >> c) & 1 == 0:
                c += 1
            s[LOSS_PENDING] &= ~(1 << c)
            at = HAND + opp * NTYPE + c * 3
            kinds = 0
            last = -1
            for b in range(3):
                if s[at + b] > 0:
                    kinds += 1
                    last = c * 3 + b
            if kinds == 1:
                discard(s, opp, last)
            elif kinds > 1:
                s[PHASE] = LOSS
                s[DECIDER] = opp
                s[LOSS_SEAT] = opp
                s[LOSS_COLOUR] = c
                return
        s[LOSS_NEXT] += 1
        s[LOSS_PENDING] = s[LOSS_COLOURS]
    s[LOSS_COLOURS] = 0
    s[LOSS_NEXT] = 0
    s[LOSS_PENDING] = 0
    s[LOSS_SEAT] = 0
    s[LOSS_COLOUR] = 0
    s[PHASE] = ACTIONS
    s[DECIDER] = seller


@kernel
def finish_sale(s):
    """H22: selected tokens to the sold pile, one stall home, then opponents' losses."""
    p = s[ACTIVE]
    colours = 0
    for t in range(NTYPE):
        k = s[SALE + t]
        if k > 0:
            s[HAND + p * NTYPE + t] -= k
            s[SOLD + p * NTYPE + t] += k
            s[SALE + t] = 0
            colours |= 1 << (t // 3)
    city = s[SHIP]
    s[STALLS + city * MAXP + p] -= 1
    s[SUPPLY_STALLS + p] += 1
    s[ACTED] = 1
    s[LOSS_COLOURS] = colours
    s[LOSS_PENDING] = colours
    s[LOSS_NEXT] = 1
    resolve_losses(s)


# =====================================================================  step

@kernel
def step(s, a):
    """Apply one decision and everything automatic after it; 0 or an error code."""
    if a < 0 or a >= NUM_ACTIONS:
        return ERR_RANGE
    if s[PHASE] == GAME_OVER:
        return ERR_OVER
    if not is_legal(s, a):
        return ERR_ILLEGAL
    apply(s, a)
    return OK


@kernel
def apply(s, a):
    """`step` for an action known legal (taken from `legal_mask`), without its checks."""
    phase = s[PHASE]
    p = s[DECIDER]
    if phase == SETUP:
        s[STALLS + a * MAXP + p] += B.STALLS_PER_PLACEMENT
        s[SUPPLY_STALLS + p] -= B.STALLS_PER_PLACEMENT
        s[SETUP_STEP] += 1
        n = s[NP]
        if s[SETUP_STEP] < B.SETUP_PLACEMENTS * n:
            s[DECIDER] = setup_seat(n, s[SETUP_STEP], s[SETUP_ORDER])
            s[ACTIVE] = s[DECIDER]
        else:
            start_turn(s, 0)
    elif phase == REFILL:
        if a == A.REFILL:
            refill(s)
        s[PHASE] = ACTIONS
    elif phase == ACTIONS:
        city = s[SHIP]
        if a < A.BUY:
            s[MONEY + p] -= 1
            s[SHIP] = a - A.SAIL
            s[ACTED] = 0
            s[BUILD_COUNT] = 0
        elif a < A.BUILD:
            w = a - A.BUY
            holder = majority_holder(s, city)
            if holder != p:
                s[MONEY + p] -= 1
                if holder >= 0:
                    s[MONEY + holder] += 1
            s[HAND + p * NTYPE + s[WAREHOUSE + w]] += 1
            s[WAREHOUSE + w] = -1
            s[ACTED] = 1
        elif a < A.SELL_ADD:
            t = a - A.BUILD
            discard(s, p, t)
            if s[BUILD_RULE] == 1:  # per_stall: one stall per token, up to 3 in one build
                k = 1
                s[BUILD_COUNT] += 1
            else:
                k = t % 3 + 1
            if k > s[SUPPLY_STALLS + p]:
                k = s[SUPPLY_STALLS + p]
            s[SUPPLY_STALLS + p] -= k
            s[STALLS + city * MAXP + p] += k
            s[ACTED] = 1
        elif a < A.SELL_DONE:
            s[SALE + a - A.SELL_ADD] = 1
            s[PHASE] = SELLING
        else:  # END_ACTIONS
            s[BUILD_COUNT] = 0
            tax(s)
    elif phase == SELLING:
        if a == A.SELL_DONE:
            finish_sale(s)
        else:
            s[SALE + a - A.SELL_ADD] += 1
    elif phase == LOSS:
        discard(s, p, a - A.DISCARD)
        resolve_losses(s)
    elif phase == TAX:
        discard(s, p, a - A.DISCARD)
        if hand_total(s, p) <= B.TAX_GOODS_LIMIT:
            end_turn(s)


# =====================================================================  scoring

@kernel
def scores(s, out):
    """H29: held 1, sold 1 + barrels, 2 per city with a stall, 4 if alone there; plus
    the seat's compensation (option seat_vp, HA22), so it counts for the winner too."""
    n = s[NP]
    out[:] = 0
    for p in range(n):
        v = s[SEAT_VP + p]
        for t in range(NTYPE):
            v += s[HAND + p * NTYPE + t] + s[SOLD + p * NTYPE + t] * (2 + t % 3)
        for c in range(NCITY):
            if s[STALLS + c * MAXP + p] > 0:
                alone = True
                for q in range(n):
                    if q != p and s[STALLS + c * MAXP + q] > 0:
                        alone = False
                v += 4 if alone else 2
        out[p] = v


@kernel
def stalls_on_board(s, p):
    k = 0
    for c in range(NCITY):
        k += s[STALLS + c * MAXP + p]
    return k


@njit(cache=True)
def winners(s, out):
    """H30: most VP, then most stalls on the board; remaining ties share."""
    n = s[NP]
    vp = np.zeros(MAXP, dtype=np.int64)
    scores(s, vp)
    best_vp = -1
    best_stalls = -1
    for p in range(n):
        st = stalls_on_board(s, p)
        if vp[p] > best_vp or (vp[p] == best_vp and st > best_stalls):
            best_vp = vp[p]
            best_stalls = st
    out[:] = 0
    for p in range(n):
        if vp[p] == best_vp and stalls_on_board(s, p) == best_stalls:
            out[p] = 1


@njit(cache=True)
def returns(s, out):
    """Win mode: 1 shared equally among the winners."""
    w = np.zeros(MAXP, dtype=np.int64)
    winners(s, w)
    k = 0
    for p in range(MAXP):
        k += w[p]
    for p in range(out.shape[0]):
        out[p] = w[p] / k if p < MAXP else 0.0


# =====================================================================  observation

@njit(cache=True)
def observe(s, o, out):
    """Seat o's view (everything but pile contents and order is public, HA17)."""
    out[:] = 0.0
    n = s[NP]
    out[OB_NP + n - 2] = 1.0
    out[OB_PHASE + s[PHASE]] = 1.0
    out[OB_SEAT] = o / 3.0
    out[OB_ROUND] = s[ROUND] / s[MAX_ROUNDS]
    out[OB_END] = s[END_TRIG]
    out[OB_ACTED] = s[ACTED]
    out[OB_BUILD] = s[BUILD_COUNT] / MAX_STALLS_PER_BUILD
    out[OB_SHIP + s[SHIP]] = 1.0
    for w in range(NWH):
        if s[WAREHOUSE + w] >= 0:
            out[OB_WH + w * NTYPE + s[WAREHOUSE + w]] = 1.0
    start = 0
    for k in range(5):
        end = s[PILE_END + k]
        lo = s[DRAWN] if s[DRAWN] > start else start
        left = end - lo
        out[OB_PILE + k] = (left if left > 0 else 0) / O.PILE_SCALE
        start = end
    for t in range(NTYPE):
        out[OB_SALE + t] = s[SALE + t] / O.TOKEN_SCALE
    if s[PHASE] == LOSS:
        out[OB_LOSS + s[LOSS_COLOUR]] = 1.0
    for c in range(NCOL):
        out[OB_INPLAY + c] = s[IN_PLAY + c]
    vp = np.zeros(MAXP, dtype=np.int64)
    scores(s, vp)
    for r in range(n):
        p = (o + r) % n
        b = O.SEATS_OFFSET + r * O.SEAT_BLOCK
        out[b + SF_PRESENT] = 1.0
        out[b + SF_ACTIVE] = 1.0 if s[ACTIVE] == p and s[PHASE] != GAME_OVER else 0.0
        out[b + SF_DECIDER] = 1.0 if s[DECIDER] == p else 0.0
        out[b + SF_MONEY] = s[MONEY + p] / O.MONEY_SCALE
        out[b + SF_SUPPLY] = s[SUPPLY_STALLS + p] / O.STALL_SCALE
        for c in range(NCITY):
            out[b + SF_STALLS + c] = s[STALLS + c * MAXP + p] / O.STALL_SCALE
        for t in range(NTYPE):
            out[b + SF_HAND + t] = s[HAND + p * NTYPE + t] / O.TOKEN_SCALE
            out[b + SF_SOLD + t] = s[SOLD + p * NTYPE + t] / O.TOKEN_SCALE
        out[b + SF_SCORE] = vp[p] / O.SCORE_SCALE


# =====================================================================  playouts and batches

@kernel
def random_action(s, mask, key):
    """A uniform legal action, drawing from the generator stored at key[0:2]."""
    legal_mask(s, mask)
    return rng.pick_set(mask, key)


@njit(cache=True)
def random_playout(s, key):
    """Plays uniformly random legal actions to the end; returns the number of decisions."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    steps = 0
    while s[PHASE] != GAME_OVER:
        apply(s, random_action(s, mask, key))
        steps += 1
    return steps


disk_cache.refresh(globals())
