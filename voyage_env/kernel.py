"""The Voyage rules as numba kernels over the flat int32 state (docs/voyage_engine.md).

Every function takes the state `s` (layout: state.py) and the packed map `m` (see
`pack_map`), so tests can run the same kernel on tiny maps. `is_legal` is the single
source of truth for legality. Automatic work between decisions (attacks, forced compass
moves, reactions, the red die, the blue card) is queued in state fields and drained by
`advance`, which stops at the next decision.

Variant 2 (`dice_movement`, V54, VA34; docs/voyage_engine.md "Dice movement"): no bidding
(the order rotates each round), no wind or target cards, blue and red symbols ignored; each
turn starts with 2d6 movement points drawn from the state's generator, held in `discs`.
The project variant `rotate_order` (VA42) rotates the order the same way before every
auction from round 2 on (`end_round`), the auction kept.
"""

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.compiled import disk_cache
from tradewinds.compiled.no_runtime import kernel
from voyage_env import actions as A
from voyage_env import rules as R
from voyage_env.board import GOODS
from voyage_env.observation import (
    BUDGET_SCALE,
    DECK_SCALE,
    DISC_SCALE,
    DISCARD_SCALE,
    HAND_SCALE,
    STOCK_SCALE,
    TILE_SCALE,
    VP_SCALE,
    obs_names,
)
from voyage_env.state import (
    ARRIVAL_BLUE,
    ARRIVAL_NONE,
    ARRIVAL_RED,
    BID,
    CARD_NONE,
    CARD_OWN,
    CARD_REACTIONS,
    CARDS,
    GAME_OVER,
    LAYOUT,
    MONASTERY,
    MOVE,
    ORDER,
    PLAY,
    REACT,
    UPGRADE,
    WRECK,
)

# ---- packed map: header, then H rows of hex data, then P rows of port data ----
M_H, M_P, M_LISBON, M_BLACK_START = 0, 1, 2, 3
HEX0, HEX_W = 8, 12
F_CURRENT, F_PORT, F_PIRATE, F_BLUE, F_RED, F_HEMI = 6, 7, 8, 9, 10, 11
PORT_W = 4
P_VP, P_DECK, P_GOOD, P_HEX = 0, 1, 2, 3


def pack_map(vmap) -> np.ndarray:
    """A `VoyageMap` as one int32 vector the kernels take (read-only)."""
    h, p = len(vmap.current), len(vmap.port_vp)
    m = np.zeros(HEX0 + h * HEX_W + p * PORT_W, dtype=np.int32)
    melaka = [i for i, name in enumerate(vmap.port_name) if name == "Melaka"]
    m[M_H], m[M_P], m[M_LISBON] = h, p, vmap.lisbon
    m[M_BLACK_START] = vmap.port_hex[melaka[0]] if melaka else -1
    hexes = m[HEX0: HEX0 + h * HEX_W].reshape(h, HEX_W)
    hexes[:, :6] = vmap.neighbors
    hexes[:, F_CURRENT] = vmap.current
    hexes[:, F_PORT] = vmap.port
    hexes[:, F_PIRATE] = vmap.pirate
    hexes[:, F_BLUE] = vmap.blue
    hexes[:, F_RED] = vmap.red
    hexes[:, F_HEMI] = vmap.hemisphere
    ports = m[HEX0 + h * HEX_W:].reshape(p, PORT_W)
    ports[:, P_VP] = vmap.port_vp
    ports[:, P_DECK] = vmap.port_deck
    ports[:, P_GOOD] = vmap.port_good
    ports[:, P_HEX] = vmap.port_hex
    return m


# ---- state offsets ----
_o = LAYOUT.offset
NP, PHASE, DECIDER, ACTIVE, POSITION, ROUND, MAX_ROUNDS, TRUNC, END_TRIG = (
    _o("num_players"), _o("phase"), _o("decider"), _o("active"), _o("position"), _o("round"),
    _o("max_rounds"), _o("truncated"), _o("end_triggered"))
SIMPLE, BLACK_OPT, DICE, TILES_TOTAL, TILES_TAKEN = (
    _o("simple_deck"), _o("black_ship"), _o("dice_movement"), _o("tiles_total"),
    _o("tiles_taken"))
BID_HIGH, BID_LEADER, BID_PASSES, BID_TURN, BID_RAISED, ORDER_STEP = (
    _o("bid_high"), _o("bid_leader"), _o("bid_passes"), _o("bid_turn"), _o("bid_raised"),
    _o("order_step"))
ARR_STAGE, ARR_HEX, CARD, CARD_STAGE, REACT_K, REACT_SEAT, REACT_BUDGET = (
    _o("arrival_stage"), _o("arrival_hex"), _o("card"), _o("card_stage"), _o("react_k"),
    _o("react_seat"), _o("react_budget"))
COMPASS_LEFT, TURN_OVER, ATTACKQ, UPG_GIVEN, BLACK_HEX, DECK_SIZE, RNG = (
    _o("compass_left"), _o("turn_over"), _o("attack_queue"), _o("upgrade_given"),
    _o("black_hex"), _o("deck_size"), _o("rng"))
ORDER_, RANKING, NEW_ORDER, DISCARD, STOCK, DISCOVERED = (
    _o("order"), _o("ranking"), _o("new_order"), _o("discard"), _o("stock"), _o("discovered"))
SHIP, DISCS, SPENT, BIDS, VP, UPGRADED, DOCKED, ATTACKED, TILES, BEST_TILE = (
    _o("ship"), _o("discs"), _o("spent"), _o("bid"), _o("vp"), _o("upgraded"), _o("docked"),
    _o("attacked"), _o("tiles"), _o("best_tile"))
HAND, TARGETS, CUBES, WRECKED, DECK, ROTATE = (
    _o("hand"), _o("targets"), _o("cubes"), _o("wrecked"), _o("deck"), _o("rotate_order"))

STATE_SIZE = LAYOUT.size
NUM_ACTIONS = A.NUM_ACTIONS
MAXP = R.MAX_PLAYERS
NK = R.NUM_CARD_KINDS
NG = len(GOODS)
NUM_SHIPS = R.NUM_SHIPS
NT = 2 * R.TARGETS_PER_DECK
CARD_COUNTS = np.array(R.CARD_COUNTS, dtype=np.int64)
GOOD_VP = np.array(R.GOOD_VP, dtype=np.int64)
ROUND1_DEAL = np.array(R.ROUND1_DEAL, dtype=np.int64)
OK, ERR_RANGE, ERR_OVER, ERR_ILLEGAL = 0, 1, 2, 3


# =====================================================================  small queries

@kernel
def nb(m, h, d):
    return m[HEX0 + h * HEX_W + d]


@kernel
def hexf(m, h, f):
    return m[HEX0 + h * HEX_W + f]


@kernel
def portf(m, port, f):
    return m[HEX0 + m[M_H] * HEX_W + port * PORT_W + f]


@kernel
def available(s, p):
    return s[DISCS + p] - s[SPENT + p]


@kernel(inline="always")
def total(s, at, count):
    """The sum of s[at:at + count]."""
    t = 0
    for i in range(at, at + count):
        t += s[i]
    return t


@kernel
def hand_total(s, p):
    return total(s, HAND + p * NK, NK)


@kernel
def cards_in_hand(s):
    """Players hold wind cards: neither the simple deck (V53) nor the dice variant (V54)."""
    return s[SIMPLE] == 0 and s[DICE] == 0


@kernel
def ship_works(s, p, k):
    """Ship k (0..3) is in service (ship 4 only after the upgrade) and not wrecked."""
    return (k < 3 or s[UPGRADED + p] == 1) and s[WRECKED + p * NUM_SHIPS + k] == 0


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
def ask(s, phase, p):
    """Stop at a decision: seat p's in `phase`."""
    s[PHASE] = phase
    s[DECIDER] = p


@kernel
def storm_n(kind):
    return kind + 2 if kind <= R.STORM4 else 0


# =====================================================================  cards

@kernel
def reshuffle(s):
    """VA16: the discard pile, listed by kind, shuffled, becomes the deck."""
    k = 0
    for kind in range(NK):
        for _ in range(s[DISCARD + kind]):
            s[DECK + k] = kind
            k += 1
        s[DISCARD + kind] = 0
    rng.shuffle(s, RNG, s[DECK:DECK + k], k)
    s[DECK_SIZE] = k


@kernel
def draw_card(s):
    """The top card's kind, or -1 when deck and discard pile are both empty."""
    if s[DECK_SIZE] == 0:
        reshuffle(s)
        if s[DECK_SIZE] == 0:
            return -1
    s[DECK_SIZE] -= 1
    kind = s[DECK + s[DECK_SIZE]]
    s[DECK + s[DECK_SIZE]] = 0
    return kind


@kernel
def draw_to(s, p, size):
    while hand_total(s, p) < size:
        kind = draw_card(s)
        if kind < 0:
            return
        s[HAND + p * NK + kind] += 1


# =====================================================================  setup

@njit(cache=True)
def init(s, m, num_players, seed, simple_deck, black_ship, max_rounds, dice_movement=0,
         vp0=0, vp1=0, vp2=0, vp3=0, cards0=0, cards1=0, cards2=0, cards3=0,
         rotate_order=0):
    """A fresh game (V1-V8). vp0..3 and cards0..3: the options seat_vp and seat_cards by
    initial turn-order position (VA40, VA41); rotate_order: 1 rotates the turn order before
    every auction from round 2 on (VA42)."""
    s[:] = 0
    n = num_players
    s[NP] = n
    s[MAX_ROUNDS] = max_rounds
    s[SIMPLE] = simple_deck
    s[BLACK_OPT] = black_ship
    s[DICE] = dice_movement
    s[ROTATE] = rotate_order
    s[TILES_TOTAL] = n + 1
    rng.seed_state(s, RNG, seed)
    for k in range(MAXP):
        s[ORDER_ + k] = k if k < n else -1
        s[RANKING + k] = -1
        s[NEW_ORDER + k] = -1
    rng.shuffle(s, RNG, s[ORDER_:ORDER_ + n], n)
    for p in range(MAXP):
        for j in range(NT):
            s[TARGETS + p * NT + j] = -1
    if dice_movement == 0:
        deal_cards_at_setup(s, m, n, simple_deck)
    for pos in range(n):
        p = s[ORDER_ + pos]
        s[VP + p] = seat_entry(pos, vp0, vp1, vp2, vp3)
        for _ in range(seat_entry(pos, cards0, cards1, cards2, cards3)):
            kind = draw_card(s)
            if kind >= 0:
                s[HAND + p * NK + kind] += 1
    for g in range(NG):
        s[STOCK + g] = R.STOCK_PER_GOOD
    for port in range(R.MAX_PORTS):
        s[DISCOVERED + port] = -1
    for p in range(n):
        s[SHIP + p] = m[M_LISBON]
        s[DISCS + p] = 0 if dice_movement else R.BASE_DISCS
    s[BLACK_HEX] = m[M_BLACK_START] if black_ship else -1
    s[CARD] = -1
    s[REACT_SEAT] = -1
    s[ROUND] = 1
    if dice_movement == 0:
        start_bidding(s)
    else:
        dice_round(s)
        next_turn(s)


@njit(cache=True)
def init_opts(s, m, num_players, seed, opts):
    """init with parse_options' values as one int64 vector (simple_deck, black_ship,
    max_rounds, dice_movement, seat_vp x4, seat_cards x4, rotate_order); missing entries
    count as 0."""
    x = np.zeros(13, dtype=np.int64)
    k = min(len(opts), 13)
    x[:k] = opts[:k]
    init(s, m, num_players, seed, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8],
         x[9], x[10], x[11], x[12])


@kernel
def seat_entry(pos, x0, x1, x2, x3):
    """Entry pos of a per-position option that init takes as four scalars."""
    if pos == 0:
        return x0
    if pos == 1:
        return x1
    if pos == 2:
        return x2
    return x3


@njit(cache=True)
def deal_cards_at_setup(s, m, n, simple_deck):
    """V3 and V7 (not in the dice variant, V54): target cards, then the wind deck."""
    # target cards (V3): west deck then east deck, each shuffled and dealt by seat
    nports = m[M_P]
    deck = np.empty(nports, dtype=np.int32)
    for side in range(2):
        size = 0
        for port in range(nports):
            if portf(m, port, P_DECK) == side:
                deck[size] = port
                size += 1
        rng.shuffle(s, RNG, deck, size)
        k = min(R.TARGETS_PER_DECK, size // n)
        for p in range(n):
            for j in range(k):
                s[TARGETS + p * NT + side * R.TARGETS_PER_DECK + j] = deck[k * p + j]
    # wind deck (V7)
    size = 0
    for kind in range(NK):
        count = CARD_COUNTS[kind]
        if simple_deck and kind == R.CALM:
            count -= R.SIMPLE_DECK_CALMS_REMOVED
        for _ in range(count):
            s[DECK + size] = kind
            size += 1
    rng.shuffle(s, RNG, s[DECK:DECK + size], size)
    s[DECK_SIZE] = size


# =====================================================================  bidding and order

@kernel
def dice_round(s):
    """The dice variant has no auction (VA34): from round 2 on the turn order rotates (the
    first position moves to the last); the caller then starts the first turn."""
    reset_auction(s)
    if s[ROUND] > 1:
        rotate_order(s)
    s[POSITION] = -1


@kernel
def rotate_order(s):
    """The first position moves to the last, the others up by one (VA34, VA42)."""
    n = s[NP]
    first = s[ORDER_]
    for pos in range(n - 1):
        s[ORDER_ + pos] = s[ORDER_ + pos + 1]
    s[ORDER_ + n - 1] = first


@kernel
def reset_auction(s):
    s[BID_HIGH] = 0
    s[BID_LEADER] = -1
    s[BID_PASSES] = 0
    s[BID_RAISED] = 0
    s[BID_TURN] = 0


@kernel
def start_bidding(s):
    s[PHASE] = BID
    reset_auction(s)
    s[POSITION] = 0
    s[ACTIVE] = s[ORDER_]
    s[DECIDER] = s[ORDER_]


@kernel
def next_bidder(s):
    """VA13: the auction ends after n-1 passes following a raise (n with no raise)."""
    n = s[NP]
    need = n - 1 if s[BID_RAISED] else n
    if s[BID_PASSES] >= need:
        end_auction(s)
        return
    t = (s[BID_TURN] + 1) % n
    if s[ORDER_ + t] == s[BID_LEADER]:
        t = (t + 1) % n
    s[BID_TURN] = t
    s[ACTIVE] = s[ORDER_ + t]
    s[DECIDER] = s[ORDER_ + t]


@kernel
def end_auction(s):
    n = s[NP]
    count = 0
    for k in range(MAXP):
        s[RANKING + k] = -1
        s[NEW_ORDER + k] = -1
    for p in range(n):  # insertion by decreasing bid (bids are distinct, V10)
        if s[BIDS + p] > 0:
            j = count
            while j > 0 and s[BIDS + s[RANKING + j - 1]] < s[BIDS + p]:
                s[RANKING + j] = s[RANKING + j - 1]
                j -= 1
            s[RANKING + j] = p
            count += 1
    s[ORDER_STEP] = 0
    place_bidders(s)


@kernel
def free_positions(s):
    k = 0
    for pos in range(s[NP]):
        if s[NEW_ORDER + pos] < 0:
            k += 1
    return k


@kernel
def place_bidders(s):
    """V11: bidders choose positions in decreasing bid order; the last choice is forced."""
    n = s[NP]
    while s[ORDER_STEP] < n and s[RANKING + s[ORDER_STEP]] >= 0:
        p = s[RANKING + s[ORDER_STEP]]
        if free_positions(s) > 1:
            s[ACTIVE] = p
            ask(s, ORDER, p)
            return
        for pos in range(n):
            if s[NEW_ORDER + pos] < 0:
                s[NEW_ORDER + pos] = p
                break
        s[ORDER_STEP] += 1
    finish_order(s)


@kernel
def finish_order(s):
    n = s[NP]
    if s[RANKING] >= 0:
        free = 0
        for pos in range(n):  # non-bidders keep their relative order
            p = s[ORDER_ + pos]
            if s[BIDS + p] == 0:
                while s[NEW_ORDER + free] >= 0:
                    free += 1
                s[NEW_ORDER + free] = p
        for pos in range(n):
            s[ORDER_ + pos] = s[NEW_ORDER + pos]
    for k in range(MAXP):
        s[NEW_ORDER + k] = -1
        s[RANKING + k] = -1
    s[ORDER_STEP] = 0
    if s[ROUND] == 1 and s[SIMPLE] == 0:  # V13
        for pos in range(n):
            p = s[ORDER_ + pos]
            for _ in range(ROUND1_DEAL[pos]):
                kind = draw_card(s)
                if kind >= 0:
                    s[HAND + p * NK + kind] += 1
    s[POSITION] = -1
    next_turn(s)


# =====================================================================  turns and rounds

@kernel
def refresh(s, p):
    """V48: all discs back, hand drawn up to 5. Dice variant: unused points are lost."""
    s[SPENT + p] = 0
    if s[DICE] == 1:
        s[DISCS + p] = 0
    elif s[SIMPLE] == 0:
        draw_to(s, p, R.HAND_SIZE)


@kernel
def roll_movement(s, p):
    """V54, VA34: the turn's movement points, two dice drawn one after the other."""
    points = 0
    for _ in range(R.MOVE_DICE):
        points += rng.below(s, RNG, R.DIE_FACES) + 1
    s[DISCS + p] = points


@kernel
def next_turn(s):
    """Start the next position's turn; empty turns (no disc) pass at once (VA21). After
    the last position the round ends; in the dice variant the next round's turns follow
    at once (a loop here, not a call back: numba's cache does not take recursion)."""
    n = s[NP]
    while True:
        s[POSITION] += 1
        if s[POSITION] >= n:
            if end_round(s):
                continue
            return
        p = s[ORDER_ + s[POSITION]]
        s[ACTIVE] = p
        if s[DICE] == 1:
            roll_movement(s, p)
        if available(s, p) > 0:
            ask(s, MOVE, p)
            return
        refresh(s, p)


@kernel
def end_turn(s):
    refresh(s, s[ACTIVE])
    s[TURN_OVER] = 0
    next_turn(s)


@kernel
def end_round(s):
    """V49: the round of the last tile is finished, then the game ends; else cap or next.
    True when the next round's turns start at once (dice variant: no auction)."""
    if s[END_TRIG] == 1 or s[ROUND] >= s[MAX_ROUNDS]:
        s[TRUNC] = 0 if s[END_TRIG] == 1 else 1
        s[PHASE] = GAME_OVER
        s[DECIDER] = -1
        return False
    s[ROUND] += 1
    for p in range(s[NP]):
        s[DOCKED + p] = 0
        s[ATTACKED + p] = 0
        s[BIDS + p] = 0
    if s[DICE] == 1:
        dice_round(s)
        return True
    if s[ROTATE] == 1:  # VA42: the start position passes on before the auction
        rotate_order(s)
    start_bidding(s)
    return False


# =====================================================================  movement effects

@kernel
def load(s, p, g):
    """V24, VA37, VA38: one cube per good, ship working, stock permitting."""
    if s[CUBES + p * NG + g] == 0 and ship_works(s, p, g // 2) and s[STOCK + g] > 0:
        s[CUBES + p * NG + g] = 1
        s[STOCK + g] -= 1


@kernel
def enter_hex(s, m, p, h):
    """Any movement onto h: port discovery and loading (V22-V24), Black Ship contact (V61)."""
    s[SHIP + p] = h
    port = hexf(m, h, F_PORT)
    if port >= 0:
        if s[DISCOVERED + port] < 0:
            s[DISCOVERED + port] = p
            s[VP + p] += portf(m, port, P_VP)
        g = portf(m, port, P_GOOD)
        if g >= 0:
            load(s, p, g)
    if s[BLACK_HEX] == h and s[ATTACKED + p] == 0:
        s[ATTACKQ] |= 1 << p


@kernel
def wreck_candidates(s, p):
    k = 0
    for ship in range(NUM_SHIPS):
        if ship_works(s, p, ship):
            k += 1
    return k


@kernel
def apply_wreck(s, p, ship):
    """V21: the ship's goods are lost (back to stock) until repaired in Lisbon."""
    s[WRECKED + p * NUM_SHIPS + ship] = 1
    for g in (2 * ship, 2 * ship + 1):
        if s[CUBES + p * NG + g] == 1:
            s[CUBES + p * NG + g] = 0
            s[STOCK + g] += 1


@kernel
def roll_and_wreck(s, p):
    """Roll the die for p (VA11); returns True when p must choose the wrecked ship."""
    if rng.below(s, RNG, R.DIE_FACES) >= R.WRECK_FACES:
        return False
    k = wreck_candidates(s, p)
    if k == 0:
        return False
    if k == 1:
        for ship in range(NUM_SHIPS):
            if ship_works(s, p, ship):
                apply_wreck(s, p, ship)
        return False
    ask(s, WRECK, p)
    return True


@kernel
def start_card(s, kind):
    """V28: reactions first (not for a calm), then the own effect; a compass card's own
    forced steps are counted from the moment it is played."""
    s[CARD] = kind
    s[REACT_SEAT] = -1
    s[REACT_BUDGET] = 0
    s[COMPASS_LEFT] = R.COMPASS_STEPS if R.COMPASS <= kind < R.FAVOURABLE else 0
    if kind == R.CALM:
        s[CARD_STAGE] = CARD_OWN
        s[REACT_K] = 0
    else:
        s[CARD_STAGE] = CARD_REACTIONS
        s[REACT_K] = 1


@kernel
def react_can_move(s, m, p):
    h = s[SHIP + p]
    kind = s[CARD]
    if R.COMPASS <= kind < R.FAVOURABLE:
        return nb(m, h, kind - R.COMPASS) >= 0
    for d in range(6):
        if nb(m, h, d) >= 0:
            return True
    return False


@kernel
def next_reaction(s, m):
    """V36-V37: find the next seat that may move on the card; True when one must decide."""
    n = s[NP]
    if s[REACT_SEAT] >= 0:
        p = s[REACT_SEAT]
        if s[REACT_BUDGET] > 0 and react_can_move(s, m, p):
            ask(s, REACT, p)
            return True
        s[REACT_SEAT] = -1
        s[REACT_BUDGET] = 0
        s[REACT_K] += 1
    active_hemi = hexf(m, s[SHIP + s[ACTIVE]], F_HEMI)
    kind = s[CARD]
    budget = storm_n(kind) if kind <= R.STORM4 else (
        R.COMPASS_STEPS if kind < R.FAVOURABLE else R.FAVOURABLE_REACH)
    while s[REACT_K] < n:
        p = s[ORDER_ + (s[POSITION] + s[REACT_K]) % n]
        if s[DOCKED + p] == 0 and hexf(m, s[SHIP + p], F_HEMI) == active_hemi:
            s[REACT_SEAT] = p
            s[REACT_BUDGET] = budget
            if react_can_move(s, m, p):
                ask(s, REACT, p)
                return True
            s[REACT_SEAT] = -1
            s[REACT_BUDGET] = 0
        s[REACT_K] += 1
    s[REACT_K] = 0
    s[CARD_STAGE] = CARD_OWN
    return False


@kernel
def own_effect(s, m):
    """V29-V35: the card's effect on its player, after the others. Returns False while a
    compass card still has forced steps to make (each may be interrupted by an attack)."""
    p = s[ACTIVE]
    kind = s[CARD]
    if R.COMPASS <= kind < R.FAVOURABLE:
        if s[COMPASS_LEFT] > 0:
            t = nb(m, s[SHIP + p], kind - R.COMPASS)
            if t < 0:
                s[COMPASS_LEFT] = 0
            else:
                s[COMPASS_LEFT] -= 1
                enter_hex(s, m, p, t)
                return False
    elif kind <= R.STORM4:
        n = storm_n(kind)
        avail = available(s, p)
        s[SPENT + p] += n if n <= avail else avail  # simple deck: what he has (VA33)
    elif kind == R.FAVOURABLE:
        back = s[SPENT + p]
        s[SPENT + p] -= back if back < R.FAVOURABLE_REGAIN else R.FAVOURABLE_REGAIN
    else:
        s[TURN_OVER] = 1
    s[CARD] = -1
    s[CARD_STAGE] = CARD_NONE
    s[COMPASS_LEFT] = 0
    return True


@kernel
def advance(s, m):
    """Drain pending automatic work in priority order; stop at the next decision."""
    n = s[NP]
    while True:
        if s[ATTACKQ] != 0:
            seat = -1
            for k in range(n):
                q = s[ORDER_ + (s[POSITION] + k) % n]
                if (s[ATTACKQ] >> q) & 1:
                    seat = q
                    break
            s[ATTACKQ] &= ~(1 << seat)
            s[ATTACKED + seat] = 1
            if roll_and_wreck(s, seat):
                return
            continue
        if s[CARD_STAGE] == CARD_REACTIONS:
            if next_reaction(s, m):
                return
            continue
        if s[CARD_STAGE] == CARD_OWN:
            own_effect(s, m)
            continue
        p = s[ACTIVE]
        if s[ARR_STAGE] == ARRIVAL_RED:
            s[ARR_STAGE] = ARRIVAL_BLUE
            if hexf(m, s[ARR_HEX], F_RED) and roll_and_wreck(s, p):
                return
            continue
        if s[ARR_STAGE] == ARRIVAL_BLUE:
            s[ARR_STAGE] = ARRIVAL_NONE
            if hexf(m, s[ARR_HEX], F_BLUE):
                if s[SIMPLE] == 0:
                    ask(s, PLAY, p)
                    return
                kind = draw_card(s)  # V53: the top card of the shared deck
                if kind >= 0:
                    s[DISCARD + kind] += 1
                    start_card(s, kind)
            continue
        if s[TURN_OVER] == 1 or (available(s, p) == 0 and s[SHIP + p] != m[M_LISBON]):
            end_turn(s)  # V48c; on the Lisbon space the player may still dock
            return
        ask(s, MOVE, p)
        return


# =====================================================================  legality

@kernel
def playable(s, p, avail, minus_favourable):
    """Some card in hand can be played on a blue hex with `avail` discs (V29, E8)."""
    for kind in range(NK):
        k = s[HAND + p * NK + kind] - (1 if minus_favourable and kind == R.FAVOURABLE else 0)
        if k > 0 and storm_n(kind) <= avail:
            return True
    return False


@kernel
def step_cost(s, m, p, d, shielded):
    """Discs for p's own step in direction d (V15-V18, V34); -1 if impossible."""
    h = s[SHIP + p]
    t = nb(m, h, d)
    if t < 0:
        return -1
    cost = 0 if hexf(m, h, F_CURRENT) == d else 1
    if hexf(m, t, F_PIRATE) and not shielded:
        cost += 1
    return cost


@kernel
def is_legal(s, m, a):
    phase = s[PHASE]
    p = s[DECIDER]
    if phase == MOVE:
        avail = available(s, p)
        if avail == 0:  # V48c: no further move; only docking (on Lisbon) or stopping
            return a == A.STOP or (a == A.DOCK and s[SHIP + p] == m[M_LISBON])
        if A.MOVE <= a < A.BLACK:
            shielded = a >= A.SHIELD
            d = a - (A.SHIELD if shielded else A.MOVE)
            cost = step_cost(s, m, p, d, shielded)
            if cost < 0 or cost > avail:
                return False
            t = nb(m, s[SHIP + p], d)
            if shielded:
                if (not cards_in_hand(s) or hexf(m, t, F_PIRATE) == 0
                        or s[HAND + p * NK + R.FAVOURABLE] == 0):
                    return False
            if hexf(m, t, F_BLUE) and cards_in_hand(s):
                return playable(s, p, avail - cost, shielded)
            return True
        if A.BLACK <= a < A.DOCK:
            if s[BLACK_OPT] == 0 or avail < 1:
                return False
            t = nb(m, s[BLACK_HEX], a - A.BLACK)
            return t >= 0 and hexf(m, t, F_HEMI) == hexf(m, m[M_BLACK_START], F_HEMI)
        if a == A.DOCK:
            return s[SHIP + p] == m[M_LISBON]
        return a == A.STOP
    if phase == BID:
        if a == A.BID_PASS:
            return True
        if A.BID <= a < A.ORDER:
            total = a - A.BID + 1
            return total > s[BID_HIGH] and total - s[BIDS + p] <= available(s, p)
        return False
    if phase == ORDER:
        k = a - A.ORDER
        return 0 <= k < s[NP] and a < A.MOVE and s[NEW_ORDER + k] < 0
    if phase == PLAY:
        if A.PLAY <= a < A.WRECK:
            kind = a - A.PLAY
            return s[HAND + p * NK + kind] > 0 and storm_n(kind) <= available(s, p)
        return False
    if phase == REACT:
        if a == A.STOP:
            return True
        if A.MOVE <= a < A.SHIELD:
            d = a - A.MOVE
            kind = s[CARD]
            if R.COMPASS <= kind < R.FAVOURABLE and d != kind - R.COMPASS:
                return False
            return nb(m, s[SHIP + p], d) >= 0
        return False
    if phase == WRECK:
        return A.WRECK <= a < A.UPGRADE and ship_works(s, p, a - A.WRECK)
    if phase == UPGRADE:
        if a == A.UPGRADE_SKIP:
            return s[UPG_GIVEN] == 0
        return A.UPGRADE <= a < A.UPGRADE_SKIP and s[CUBES + p * NG + a - A.UPGRADE] == 1
    if phase == MONASTERY:
        return a == A.MONASTERY_TAKE or a == A.MONASTERY_SELL
    if phase == CARDS:
        return a == A.CARDS_TOP_UP or a == A.CARDS_NEW
    return False


@kernel
def _mask_move(s, m, mask):
    """MOVE mask computed once per direction (equal to is_legal, checked by the fuzz test)."""
    p = s[DECIDER]
    avail = available(s, p)
    h = s[SHIP + p]
    mask[A.STOP] = 1
    if h == m[M_LISBON]:
        mask[A.DOCK] = 1
    if avail == 0:
        return
    current = hexf(m, h, F_CURRENT)
    cards = cards_in_hand(s)
    favourable = s[HAND + p * NK + R.FAVOURABLE] > 0
    for d in range(6):
        t = nb(m, h, d)
        if t < 0:
            continue
        base = 0 if current == d else 1
        pirate = hexf(m, t, F_PIRATE)
        blue = cards and hexf(m, t, F_BLUE) == 1
        cost = base + pirate
        if cost <= avail and (not blue or playable(s, p, avail - cost, False)):
            mask[A.MOVE + d] = 1
        if (pirate and cards and favourable and base <= avail
                and (not blue or playable(s, p, avail - base, True))):
            mask[A.SHIELD + d] = 1
    if s[BLACK_OPT] == 1 and avail >= 1:
        hemi = hexf(m, m[M_BLACK_START], F_HEMI)
        for d in range(6):
            t = nb(m, s[BLACK_HEX], d)
            if t >= 0 and hexf(m, t, F_HEMI) == hemi:
                mask[A.BLACK + d] = 1


@kernel
def _mask_bid(s, p, mask):
    """BID mask: pass, or a total above the high bid that p's free discs cover."""
    mask[A.BID_PASS] = 1
    top = min(available(s, p) + s[BIDS + p], A.ORDER - A.BID)
    for total in range(max(1, s[BID_HIGH] + 1), top + 1):
        mask[A.BID + total - 1] = 1


@kernel
def _mask_order(s, mask):
    for k in range(min(s[NP], A.MOVE - A.ORDER)):
        if s[NEW_ORDER + k] < 0:
            mask[A.ORDER + k] = 1


@kernel
def _mask_play(s, p, mask):
    avail = available(s, p)
    for kind in range(A.WRECK - A.PLAY):
        if s[HAND + p * NK + kind] > 0 and storm_n(kind) <= avail:
            mask[A.PLAY + kind] = 1


@kernel
def _mask_react(s, m, p, mask):
    mask[A.STOP] = 1
    kind = s[CARD]
    h = s[SHIP + p]
    for d in range(6):
        if R.COMPASS <= kind < R.FAVOURABLE and d != kind - R.COMPASS:
            continue
        if nb(m, h, d) >= 0:
            mask[A.MOVE + d] = 1


@kernel
def _mask_wreck(s, p, mask):
    for ship in range(A.UPGRADE - A.WRECK):
        if ship_works(s, p, ship):
            mask[A.WRECK + ship] = 1


@kernel
def _mask_upgrade(s, p, mask):
    if s[UPG_GIVEN] == 0:
        mask[A.UPGRADE_SKIP] = 1
    for g in range(A.UPGRADE_SKIP - A.UPGRADE):
        if s[CUBES + p * NG + g] == 1:
            mask[A.UPGRADE + g] = 1


@kernel
def legal_mask(s, m, mask):
    """Every phase's mask built in one pass of its own (equal to is_legal, checked by the
    fuzz test): a loop of is_legal calls is slower under numba >= 0.66 (docs/numba.md,
    "Reference counts")."""
    mask[:] = 0
    phase = s[PHASE]
    p = s[DECIDER]
    if phase == MOVE:
        _mask_move(s, m, mask)
    elif phase == BID:
        _mask_bid(s, p, mask)
    elif phase == ORDER:
        _mask_order(s, mask)
    elif phase == PLAY:
        _mask_play(s, p, mask)
    elif phase == REACT:
        _mask_react(s, m, p, mask)
    elif phase == WRECK:
        _mask_wreck(s, p, mask)
    elif phase == UPGRADE:
        _mask_upgrade(s, p, mask)
    elif phase == MONASTERY:
        mask[A.MONASTERY_TAKE] = 1
        mask[A.MONASTERY_SELL] = 1
    elif phase == CARDS:
        mask[A.CARDS_TOP_UP] = 1
        mask[A.CARDS_NEW] = 1


# =====================================================================  docking

@kernel
def cube_count(s, p):
    return total(s, CUBES + p * NG, NG)


@kernel
def dock_monastery(s):
    p = s[ACTIVE]
    if s[CUBES + p * NG + R.PEPPER] == 1 and s[TILES_TAKEN] < s[TILES_TOTAL]:
        ask(s, MONASTERY, p)
    else:
        dock_sell(s)


@kernel
def dock_sell(s):
    """V44: every remaining cube is sold; then the card choice (V45)."""
    p = s[ACTIVE]
    for g in range(NG):
        if s[CUBES + p * NG + g] == 1:
            s[CUBES + p * NG + g] = 0
            s[STOCK + g] += 1
            s[VP + p] += GOOD_VP[g]
    if cards_in_hand(s):
        ask(s, CARDS, p)
    else:
        dock_finish(s)


@kernel
def dock_finish(s):
    """V46-V47: refit (discs back, wrecks repaired), stay in port, the turn ends."""
    p = s[ACTIVE]
    for ship in range(NUM_SHIPS):
        s[WRECKED + p * NUM_SHIPS + ship] = 0
    s[DOCKED + p] = 1
    end_turn(s)


# =====================================================================  step

@kernel
def step(s, m, a):
    """Apply one decision and everything automatic after it; 0 or an error code."""
    if a < 0 or a >= NUM_ACTIONS:
        return ERR_RANGE
    if s[PHASE] == GAME_OVER:
        return ERR_OVER
    if not is_legal(s, m, a):
        return ERR_ILLEGAL
    apply(s, m, a)
    return OK


@kernel
def apply(s, m, a):
    """`step` for an action known legal (taken from `legal_mask`), without its checks."""
    phase = s[PHASE]
    p = s[DECIDER]
    if phase == BID:
        step_bid(s, p, a)
    elif phase == ORDER:
        step_order(s, p, a)
    elif phase == MOVE:
        step_move(s, m, p, a)
    elif phase == PLAY:
        step_play(s, m, p, a)
    elif phase == REACT:
        step_react(s, m, p, a)
    elif phase == WRECK:
        apply_wreck(s, p, a - A.WRECK)
        advance(s, m)
    elif phase == UPGRADE:
        step_upgrade(s, p, a)
    elif phase == MONASTERY:
        step_monastery(s, p, a)
    elif phase == CARDS:
        step_cards(s, p, a)


# The decision of each phase, as `step` applies it to a legal action `a` of seat `p`.

@kernel
def step_bid(s, p, a):
    """V10, V12: pass, or raise the own total bid above the high bid (discs spent)."""
    if a == A.BID_PASS:
        s[BID_PASSES] += 1
    else:
        total = a - A.BID + 1
        s[SPENT + p] += total - s[BIDS + p]
        s[BIDS + p] = total
        s[BID_HIGH] = total
        s[BID_LEADER] = p
        s[BID_PASSES] = 0
        s[BID_RAISED] = 1
    next_bidder(s)


@kernel
def step_order(s, p, a):
    """V11: the bidder takes a free position of the new turn order."""
    s[NEW_ORDER + a - A.ORDER] = p
    s[ORDER_STEP] += 1
    place_bidders(s)


@kernel
def step_move(s, m, p, a):
    """A step of the own ship (shielded or not), of the Black Ship, docking, or the end."""
    if a < A.BLACK:
        sail(s, m, p, a)
    elif a < A.DOCK:
        move_black_ship(s, m, p, a - A.BLACK)
    elif a == A.DOCK:
        if s[UPGRADED + p] == 0 and cube_count(s, p) >= R.UPGRADE_CUBES:
            s[PHASE] = UPGRADE
            s[UPG_GIVEN] = 0
        else:
            dock_monastery(s)
    else:
        s[TURN_OVER] = 1
        advance(s, m)


@kernel
def sail(s, m, p, a):
    """V14-V18, V34: one step of the own ship, paid in discs, a favourable wind discarded
    for a shield; then what the new hex brings."""
    shielded = a >= A.SHIELD
    d = a - (A.SHIELD if shielded else A.MOVE)
    s[SPENT + p] += step_cost(s, m, p, d, shielded)
    if shielded:
        s[HAND + p * NK + R.FAVOURABLE] -= 1
        s[DISCARD + R.FAVOURABLE] += 1
    t = nb(m, s[SHIP + p], d)
    enter_hex(s, m, p, t)
    # dice variant: blue and red symbols are ignored, nothing follows the attack
    s[ARR_STAGE] = ARRIVAL_RED if s[DICE] == 0 else ARRIVAL_NONE
    s[ARR_HEX] = t
    advance(s, m)


@kernel
def move_black_ship(s, m, p, d):
    """V58, V61, V62: one step of the Black Ship for a disc; it attacks every ship there
    not attacked this round."""
    t = nb(m, s[BLACK_HEX], d)
    s[SPENT + p] += 1
    s[BLACK_HEX] = t
    for q in range(s[NP]):
        if s[SHIP + q] == t and s[ATTACKED + q] == 0:
            s[ATTACKQ] |= 1 << q
    advance(s, m)


@kernel
def step_play(s, m, p, a):
    """V19, V27: a wind card from the hand is discarded and resolved."""
    kind = a - A.PLAY
    s[HAND + p * NK + kind] -= 1
    s[DISCARD + kind] += 1
    start_card(s, kind)
    advance(s, m)


@kernel
def step_react(s, m, p, a):
    """A reacting seat stops or moves one step on the active seat's card."""
    if a == A.STOP:
        s[REACT_BUDGET] = 0
    else:
        s[REACT_BUDGET] -= 1
        enter_hex(s, m, p, nb(m, s[SHIP + p], a - A.MOVE))
    advance(s, m)


@kernel
def step_upgrade(s, p, a):
    """V43: skip, or hand in a cube; the last of UPGRADE_CUBES puts ship 4 in service."""
    if a == A.UPGRADE_SKIP:
        dock_monastery(s)
        return
    g = a - A.UPGRADE
    s[CUBES + p * NG + g] = 0
    s[STOCK + g] += 1
    s[UPG_GIVEN] += 1
    if s[UPG_GIVEN] == R.UPGRADE_CUBES:
        s[UPG_GIVEN] = 0
        s[UPGRADED + p] = 1
        if s[DICE] == 0:  # dice variant: ship 4 in service, no discs (VA34)
            s[DISCS + p] = R.UPGRADED_DISCS
        dock_monastery(s)


@kernel
def step_monastery(s, p, a):
    """V41: take a monastery tile for the pepper cube, or not; then the cubes are sold."""
    if a == A.MONASTERY_TAKE:
        s[CUBES + p * NG + R.PEPPER] = 0
        s[STOCK + R.PEPPER] += 1
        s[TILES_TAKEN] += 1
        s[TILES + p] += 1
        if s[BEST_TILE + p] == 0:
            s[BEST_TILE + p] = s[TILES_TAKEN]
        s[VP + p] += R.MONASTERY_VP
        if s[TILES_TAKEN] == s[TILES_TOTAL]:
            s[END_TRIG] = 1
    dock_sell(s)


@kernel
def step_cards(s, p, a):
    """V45: keep the hand or discard it all, then draw up to HAND_SIZE; the turn ends."""
    if a == A.CARDS_NEW:
        for kind in range(NK):
            s[DISCARD + kind] += s[HAND + p * NK + kind]
            s[HAND + p * NK + kind] = 0
    draw_to(s, p, R.HAND_SIZE)
    dock_finish(s)


# =====================================================================  scoring

@kernel
def scores(s, m, out):
    """V50-V51: VP from play (a seat_vp compensation included from the start, VA40) plus
    5 per own target port carrying own monument."""
    out[:] = 0
    for p in range(s[NP]):
        v = s[VP + p]
        for j in range(NT):
            port = s[TARGETS + p * NT + j]
            if port >= 0 and s[DISCOVERED + port] == p:
                v += R.TARGET_VP
        out[p] = v


@njit(cache=True)
def winners(s, m, out):
    """V52, VA31: most VP, then most tiles, then the lowest tile; else shared."""
    n = s[NP]
    vp = np.zeros(MAXP, dtype=np.int64)
    scores(s, m, vp)
    best = 0
    for p in range(1, n):
        if _better(s, vp, p, best):
            best = p
    out[:] = 0
    for p in range(n):
        if not _better(s, vp, best, p):
            out[p] = 1


@kernel
def _better(s, vp, p, q):
    """p ranks strictly above q."""
    if vp[p] != vp[q]:
        return vp[p] > vp[q]
    if s[TILES + p] != s[TILES + q]:
        return s[TILES + p] > s[TILES + q]
    if s[TILES + p] > 0:
        return s[BEST_TILE + p] < s[BEST_TILE + q]
    return False


@njit(cache=True)
def returns(s, m, out):
    w = np.zeros(MAXP, dtype=np.int64)
    winners(s, m, w)
    k = w.sum()
    for p in range(out.shape[0]):
        out[p] = w[p] / k if p < MAXP else 0.0


# =====================================================================  observation

OB_NP, OB_PHASE, OB_ROUND, OB_END, OB_TILES, OB_MYPOS, OB_CARD = 0, 3, 13, 14, 15, 16, 17
OB_BUDGET, OB_BID, OB_DECK, OB_DISCARD, OB_STOCK, OB_PORTS = 28, 29, 30, 31, 42, 50
SEAT_HEAD = 7            # present, active, decider, position=1..4
SEAT_TAIL = 11 + NG + NUM_SHIPS  # hemisphere .. hand_size, cubes, wrecks


def obs_size(num_hexes, num_ports):
    return len(obs_names(num_hexes, ["x"] * num_ports))


@kernel
def observe(s, m, o, out):
    """Seat o's view: public state, own hand and own target cards only (VA32)."""
    out[:] = 0.0
    n = s[NP]
    H = m[M_H]
    P = m[M_P]
    over = s[PHASE] == GAME_OVER
    out[OB_NP + n - 2] = 1.0
    out[OB_PHASE + s[PHASE]] = 1.0
    out[OB_ROUND] = s[ROUND] / s[MAX_ROUNDS]
    out[OB_END] = s[END_TRIG]
    out[OB_TILES] = (s[TILES_TOTAL] - s[TILES_TAKEN]) / TILE_SCALE
    for pos in range(n):
        if s[ORDER_ + pos] == o:
            out[OB_MYPOS] = pos / 3.0
    if s[CARD] >= 0:
        out[OB_CARD + s[CARD]] = 1.0
    if s[PHASE] == REACT:
        out[OB_BUDGET] = s[REACT_BUDGET] / BUDGET_SCALE
    out[OB_BID] = s[BID_HIGH] / DISC_SCALE
    out[OB_DECK] = s[DECK_SIZE] / DECK_SCALE
    for k in range(NK):
        out[OB_DISCARD + k] = s[DISCARD + k] / DISCARD_SCALE
    for g in range(NG):
        out[OB_STOCK + g] = s[STOCK + g] / STOCK_SCALE
    for port in range(P):
        q = s[DISCOVERED + port]
        if q >= 0:
            out[OB_PORTS + port * MAXP + (q - o) % n] = 1.0
    at = OB_PORTS + P * MAXP
    for k in range(NK):
        out[at + k] = s[HAND + o * NK + k] / HAND_SCALE
    at += NK
    for j in range(NT):
        port = s[TARGETS + o * NT + j]
        if port >= 0:
            out[at + port] = 1.0
    at += P
    if s[BLACK_HEX] >= 0:
        out[at + s[BLACK_HEX]] = 1.0
    at += H
    block = SEAT_HEAD + H + SEAT_TAIL
    for r in range(n):
        p = (o + r) % n
        b = at + r * block
        out[b] = 1.0
        out[b + 1] = 1.0 if s[ACTIVE] == p and not over else 0.0
        out[b + 2] = 1.0 if s[DECIDER] == p else 0.0
        for pos in range(n):
            if s[ORDER_ + pos] == p:
                out[b + 3 + pos] = 1.0
        out[b + SEAT_HEAD + s[SHIP + p]] = 1.0
        t = b + SEAT_HEAD + H
        out[t] = hexf(m, s[SHIP + p], F_HEMI)
        out[t + 1] = s[DISCS + p] / DISC_SCALE
        out[t + 2] = available(s, p) / DISC_SCALE
        out[t + 3] = s[BIDS + p] / DISC_SCALE
        out[t + 4] = s[VP + p] / VP_SCALE
        out[t + 5] = s[UPGRADED + p]
        out[t + 6] = s[DOCKED + p]
        out[t + 7] = s[ATTACKED + p]
        out[t + 8] = s[TILES + p] / TILE_SCALE
        out[t + 9] = s[BEST_TILE + p] / TILE_SCALE
        out[t + 10] = hand_total(s, p) / HAND_SCALE
        for g in range(NG):
            out[t + 11 + g] = s[CUBES + p * NG + g]
        for k in range(NUM_SHIPS):
            out[t + 11 + NG + k] = s[WRECKED + p * NUM_SHIPS + k]


# =====================================================================  playouts and batches

@kernel
def random_action(s, m, mask, key):
    """A uniform legal action, drawing from the generator stored at key[0:2]."""
    legal_mask(s, m, mask)
    return rng.pick_set(mask, key)


@njit(cache=True)
def random_playout(s, m, key):
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    steps = 0
    while s[PHASE] != GAME_OVER:
        apply(s, m, random_action(s, m, mask, key))
        steps += 1
    return steps


disk_cache.refresh(globals())
