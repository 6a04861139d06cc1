"""Cheap structural checks of Voyage states that come from outside the kernels (njit).

The contract, the codes and the entry points: `tradewinds.state_checks`. `check(s, m)`
guards the fields that could make a kernel read or write outside the state or the packed
map `m`, or loop for ever. Besides plain ranges it checks the few relations the kernels
rely on: all wind cards are there (a reshuffle writes the whole discard pile into the
deck), the turn order is a permutation, and in phase ORDER the bidders still to place fit
the free positions. `check_play` adds the cards per kind (for playouts, determinizing and
`validate_state`, the full consistency check in voyage_env/game.py).
"""

import sys

import numpy as np
from numba import njit, types

from tradewinds import state_checks
from tradewinds.compiled import disk_cache
from tradewinds.state_checks import first_out
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.state import BID, CARD_NONE, CARD_OWN, CARD_REACTIONS, GAME_OVER, ORDER, REACT

MAX_ROUNDS_LIMIT = 1000             # the largest max_rounds parse_options accepts
MAX_BUDGET = max(R.storm_value(R.STORM4), R.COMPASS_STEPS, R.FAVOURABLE_REACH)

RULES = (
    ("<length>", f"{K.STATE_SIZE} entries"),
    ("num_players", "in 2..4"),
    ("phase", "a phase 0..9"),
    ("decider", "a seat 0..num_players-1, or -1 exactly when the game is over (phase 9)"),
    ("active", "a seat 0..num_players-1"),
    ("position", "in 0..num_players"),
    ("max_rounds", f"in 1..{MAX_ROUNDS_LIMIT}"),
    ("round", "in 1..max_rounds"),
    ("truncated", "0 or 1"),
    ("end_triggered", "0 or 1"),
    ("simple_deck", "0 or 1"),
    ("black_ship", "0 or 1 (1 only on a map with Melaka)"),
    ("dice_movement", "0 or 1 (1 not with simple_deck)"),
    ("rotate_order", "0 or 1 (1 not with dice_movement)"),
    ("bid_raised", "0 or 1"),
    ("turn_over", "0 or 1"),
    ("bid_high", f"in 0..{R.UPGRADED_DISCS}"),
    ("bid_leader", "a seat or -1"),
    ("bid_passes", "in 0..num_players"),
    ("bid_turn", "a position 0..num_players-1"),
    ("order_step", "in 0..num_players-1 in phase order (the bidder choosing), else 0"),
    ("arrival_stage", "0, 1 or 2"),
    ("arrival_hex", "a space of the map (-1 allowed while arrival_stage is 0)"),
    ("card_stage", "0, 1 or 2"),
    ("card", f"a card kind 0..{K.NK - 1} while card_stage > 0, else -1"),
    ("react_k", "in 0..num_players"),
    ("react_seat", "a seat or -1"),
    ("react_budget", f"in 0..{MAX_BUDGET}"),
    ("<reaction>", "in phase react: card_stage 1, react_k 1..n-1, react_seat the decider, "
                   "react_budget >= 1"),
    ("compass_left", f"in 0..{R.COMPASS_STEPS}"),
    ("attack_queue", "a bitmask of the seats"),
    ("upgrade_given", f"in 0..{R.UPGRADE_CUBES - 1}"),
    ("black_hex", "a space of the map with black_ship, else -1"),
    ("deck_size", f"in 0..{R.DECK_SIZE}"),
    ("deck", f"a card kind 0..{K.NK - 1} (every entry below deck_size)"),
    ("discard", "a count >= 0"),
    ("hand", "a count >= 0"),
    ("<wind cards>", f"{R.DECK_SIZE} over deck, discard pile and hands "
                     f"({R.DECK_SIZE - R.SIMPLE_DECK_CALMS_REMOVED} with simple_deck, "
                     "0 with dice_movement)"),
    ("<wind cards of a kind>", "as many of each kind as the deck has", "card kind"),
    ("order", "a permutation of the seats"),
    ("ranking", "in phase order the bidders (bid > 0), each once, then -1, the decider at "
                "order_step; else all -1"),
    ("new_order", "in phase order the seats of ranking[:order_step] placed, else all -1"),
    ("ship", "a space of the map"),
    ("discs", f"{R.BASE_DISCS} or {R.UPGRADED_DISCS} (0..{R.UPGRADED_DISCS} with "
              "dice_movement)"),
    ("spent", "in 0..discs"),
    ("bid", "in 0..bid_high"),
    ("targets", "a port id of the map, or -1"),
    ("discovered", "a seat or -1"),
    ("<player>", "a seat 0..num_players-1"),
    ("<legal actions>", "there while the game is not over (this state has none)"),
)
(R_LENGTH, R_NP, R_PHASE, R_DECIDER, R_ACTIVE, R_POSITION, R_MAX_ROUNDS, R_ROUND, R_TRUNC,
 R_END, R_SIMPLE, R_BLACK_OPT, R_DICE, R_ROTATE, R_BID_RAISED, R_TURN_OVER, R_BID_HIGH,
 R_BID_LEADER, R_BID_PASSES, R_BID_TURN, R_ORDER_STEP, R_ARR_STAGE, R_ARR_HEX, R_CARD_STAGE, R_CARD,
 R_REACT_K, R_REACT_SEAT, R_REACT_BUDGET, R_REACTION, R_COMPASS_LEFT, R_ATTACKQ, R_UPG_GIVEN,
 R_BLACK_HEX, R_DECK_SIZE, R_DECK, R_DISCARD, R_HAND, R_CARDS, R_KINDS, R_ORDER, R_RANKING,
 R_NEW_ORDER, R_SHIP, R_DISCS, R_SPENT, R_BID, R_TARGETS, R_DISCOVERED, R_PLAYER,
 R_NO_LEGAL) = state_checks.rule_codes(RULES)


@njit(cache=True)
def _in(x, lo, hi):
    return lo <= x <= hi


@njit(cache=True)
def _scalars(s, m, n):
    """Ranges of the scalar fields; 0 or a code."""
    phase = s[K.PHASE]
    if not _in(phase, BID, GAME_OVER):
        return R_PHASE
    d = s[K.DECIDER]
    if (d != -1) if phase == GAME_OVER else not _in(d, 0, n - 1):
        return R_DECIDER
    if not _in(s[K.ACTIVE], 0, n - 1):
        return R_ACTIVE
    if not _in(s[K.POSITION], 0, n):
        return R_POSITION
    if not _in(s[K.MAX_ROUNDS], 1, MAX_ROUNDS_LIMIT):
        return R_MAX_ROUNDS
    if not _in(s[K.ROUND], 1, s[K.MAX_ROUNDS]):
        return R_ROUND
    for at, rule in ((K.TRUNC, R_TRUNC), (K.END_TRIG, R_END), (K.SIMPLE, R_SIMPLE),
                     (K.BLACK_OPT, R_BLACK_OPT), (K.DICE, R_DICE), (K.ROTATE, R_ROTATE),
                     (K.BID_RAISED, R_BID_RAISED), (K.TURN_OVER, R_TURN_OVER)):
        if not _in(s[at], 0, 1):
            return rule
    if s[K.DICE] == 1 and s[K.SIMPLE] == 1:
        return R_DICE
    if s[K.DICE] == 1 and s[K.ROTATE] == 1:
        return R_ROTATE
    if s[K.BLACK_OPT] == 1 and m[K.M_BLACK_START] < 0:
        return R_BLACK_OPT
    if not _in(s[K.BID_HIGH], 0, R.UPGRADED_DISCS):
        return R_BID_HIGH
    if not _in(s[K.BID_LEADER], -1, n - 1):
        return R_BID_LEADER
    if not _in(s[K.BID_PASSES], 0, n):
        return R_BID_PASSES
    if not _in(s[K.BID_TURN], 0, n - 1):
        return R_BID_TURN
    if not _in(s[K.ORDER_STEP], 0, n - 1 if phase == ORDER else 0):
        return R_ORDER_STEP
    hexes = m[K.M_H]
    if not _in(s[K.ARR_STAGE], 0, 2):
        return R_ARR_STAGE
    if not _in(s[K.ARR_HEX], -1 if s[K.ARR_STAGE] == 0 else 0, hexes - 1):
        return R_ARR_HEX
    stage = s[K.CARD_STAGE]
    if not _in(stage, CARD_NONE, CARD_OWN):
        return R_CARD_STAGE
    if (s[K.CARD] != -1) if stage == CARD_NONE else not _in(s[K.CARD], 0, K.NK - 1):
        return R_CARD
    if not _in(s[K.REACT_K], 0, n):
        return R_REACT_K
    if not _in(s[K.REACT_SEAT], -1, n - 1):
        return R_REACT_SEAT
    if not _in(s[K.REACT_BUDGET], 0, MAX_BUDGET):
        return R_REACT_BUDGET
    if phase == REACT and (stage != CARD_REACTIONS or not _in(s[K.REACT_K], 1, n - 1)
                           or s[K.REACT_SEAT] != d or s[K.REACT_BUDGET] < 1):
        return R_REACTION
    if not _in(s[K.COMPASS_LEFT], 0, R.COMPASS_STEPS):
        return R_COMPASS_LEFT
    if not _in(s[K.ATTACKQ], 0, (1 << n) - 1):
        return R_ATTACKQ
    if not _in(s[K.UPG_GIVEN], 0, R.UPGRADE_CUBES - 1):
        return R_UPG_GIVEN
    if (not _in(s[K.BLACK_HEX], 0, hexes - 1)) if s[K.BLACK_OPT] == 1 else s[K.BLACK_HEX] != -1:
        return R_BLACK_HEX
    return 0


@njit(cache=True)
def _cards(s):
    """The wind cards: deck entries are kinds, counts >= 0, and all of them are there (a
    reshuffle writes the whole discard pile into the deck)."""
    size = s[K.DECK_SIZE]
    if not _in(size, 0, R.DECK_SIZE):
        return R_DECK_SIZE
    i = first_out(s, K.DECK, size, 0, K.NK - 1)
    if i >= 0:
        return R_DECK + i
    i = first_out(s, K.DISCARD, K.NK, 0, R.DECK_SIZE)
    if i >= 0:
        return R_DISCARD + i
    i = first_out(s, K.HAND, K.MAXP * K.NK, 0, R.DECK_SIZE)
    if i >= 0:
        return R_HAND + i
    cards = size + K.total(s, K.DISCARD, K.NK) + K.total(s, K.HAND, K.MAXP * K.NK)
    expected = R.DECK_SIZE - (R.SIMPLE_DECK_CALMS_REMOVED if s[K.SIMPLE] == 1 else 0)
    if s[K.DICE] == 1:
        expected = 0
    return 0 if cards == expected else R_CARDS


@njit(cache=True)
def check_play(s, m):
    """`check`, and the wind cards conserved kind by kind (what `validate_state` and the
    playouts use; determinizing relies on it)."""
    code = check(s, m)
    if code != 0:
        return code
    count = np.zeros(K.NK, dtype=np.int64)
    for i in range(s[K.DECK_SIZE]):
        count[s[K.DECK + i]] += 1
    for i in range(K.MAXP * K.NK):
        count[i % K.NK] += s[K.HAND + i]
    for kind in range(K.NK):
        total = K.CARD_COUNTS[kind] if s[K.DICE] == 0 else 0
        if kind == R.CALM and s[K.SIMPLE] == 1:
            total -= R.SIMPLE_DECK_CALMS_REMOVED
        if count[kind] + s[K.DISCARD + kind] != total:
            return R_KINDS + kind
    return 0


@njit(cache=True, inline="always")
def _seat_set(s, at, n, allowed, packed):
    """The seats listed at s[at:at + MAXP] (-1: no seat) as a bitmask, or -1 - k for the
    first entry k that is not a seat of `allowed` listed once, below n (and, `packed`,
    before every empty entry)."""
    seats = 0
    count = 0
    for k in range(K.MAXP):
        p = s[at + k]
        if p == -1:
            continue
        if (k >= n or (packed and k != count) or not _in(p, 0, n - 1) or (seats >> p) & 1
                or not (allowed >> p) & 1):
            return -1 - k
        seats |= 1 << p
        count += 1
    return seats


@njit(cache=True)
def _orders(s, n):
    """order is a permutation; ranking and new_order as phase ORDER needs them."""
    seen = 0
    for pos in range(n):
        p = s[K.ORDER_ + pos]
        if not _in(p, 0, n - 1) or (seen >> p) & 1:
            return R_ORDER + pos
        seen |= 1 << p
    in_order = s[K.PHASE] == ORDER
    bidders = 0
    for p in range(n):
        if s[K.BIDS + p] > 0:
            bidders |= 1 << p
    ranked = _seat_set(s, K.RANKING, n, bidders if in_order else 0, True)
    if ranked < 0:
        return R_RANKING - 1 - ranked
    step = s[K.ORDER_STEP]         # the decider is a seat (_scalars): ranked at step
    if in_order and (ranked != bidders or s[K.RANKING + step] != s[K.DECIDER]):
        return R_RANKING
    placed = _seat_set(s, K.NEW_ORDER, n, (1 << n) - 1 if in_order else 0, False)
    if placed < 0:
        return R_NEW_ORDER - 1 - placed
    if in_order:
        first = 0
        for k in range(step):
            first |= 1 << s[K.RANKING + k]
        if placed != first:
            return R_NEW_ORDER
    return 0


@njit(cache=True)
def check(s, m):
    """0, or the code of the first field that could make a kernel crash or hang."""
    if s.shape[0] != K.STATE_SIZE:
        return R_LENGTH
    n = s[K.NP]
    if not _in(n, R.MIN_PLAYERS, R.MAX_PLAYERS):
        return R_NP
    code = _scalars(s, m, n)
    if code == 0:
        code = _cards(s)
    if code == 0:
        code = _orders(s, n)
    if code != 0:
        return code
    hexes, ports = m[K.M_H], m[K.M_P]
    for p in range(n):
        if not _in(s[K.SHIP + p], 0, hexes - 1):
            return R_SHIP + p
        if s[K.DICE] == 1:
            if not _in(s[K.DISCS + p], 0, R.UPGRADED_DISCS):
                return R_DISCS + p
        elif s[K.DISCS + p] != R.BASE_DISCS and s[K.DISCS + p] != R.UPGRADED_DISCS:
            return R_DISCS + p
        if not _in(s[K.SPENT + p], 0, s[K.DISCS + p]):
            return R_SPENT + p
        if not _in(s[K.BIDS + p], 0, s[K.BID_HIGH]):
            return R_BID + p
    i = first_out(s, K.TARGETS, n * K.NT, -1, ports - 1)
    if i >= 0:
        return R_TARGETS + i
    i = first_out(s, K.DISCOVERED, ports, -1, n - 1)
    if i >= 0:
        return R_DISCOVERED + i
    return 0


(legal_mask, step, observe, query, scores, winners, returns, random_playout,
 check_batch) = state_checks.entry_points(sys.modules[__name__], K, returns_need_play=False)
SIGNATURES = state_checks.signatures(types.Array(types.int32, 1, "C"))

disk_cache.refresh(globals())
