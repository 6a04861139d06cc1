"""Cheap structural checks of Hansa states that come from outside the kernels (njit).

`check` guards the fields the kernels use as array indices or loop bounds; `check_play`
adds what a whole played-out game needs to end (bounded token counts), and is what
`random_playout`, `returns` and `validate_state` (hansa_env/game.py, the full consistency
check) use. The codes, the entry points `tradewinds.Game` calls and the contract they keep:
`tradewinds.state_checks`.
"""

import sys

import numpy as np
from numba import njit, types

from hansa_env import board as B
from hansa_env import kernel as K
from hansa_env.state import GAME_OVER, MAX_SUPPLY, SELLING, SETUP
from tradewinds import state_checks
from tradewinds.compiled import disk_cache
from tradewinds.state_checks import first_out

MAX_ROUNDS_LIMIT = 10_000           # the largest max_rounds parse_options accepts

RULES = (
    ("<length>", f"{K.STATE_SIZE} entries"),
    ("num_players", "in 2..4"),
    ("phase", "a phase 0..6"),
    ("active", "a seat 0..num_players-1"),
    ("decider", "a seat 0..num_players-1, or -1 exactly when the game is over (phase 6)"),
    ("ship", f"a city 0..{K.NCITY - 1}"),
    ("max_rounds", f"in 1..{MAX_ROUNDS_LIMIT}"),
    ("round", "in 0..max_rounds"),
    ("setup_step", "in 0..3*num_players, below 3*num_players exactly in phase setup"),
    ("acted_here", "0 or 1"),
    ("end_triggered", "0 or 1"),
    ("truncated", "0 or 1"),
    ("build_rule", "0 (barrels) or 1 (per_stall)"),
    ("setup_order", "0 (forward), 1 (reverse) or 2 (snake)"),
    ("build_count", f"in 0..{K.MAX_STALLS_PER_BUILD}, and 0 unless acted_here"),
    ("pile_end", f"non-decreasing cumulative pile ends in 0..{MAX_SUPPLY}"),
    ("supply_drawn", "in 0..pile_end[4]"),
    ("supply", f"a token type 0..{K.NTYPE - 1} (every undrawn entry)"),
    ("warehouse", f"a token type 0..{K.NTYPE - 1}, or -1 for an empty slot"),
    ("hand", "a count >= 0"),
    ("sold", "a count >= 0"),
    ("removed", "a count >= 0"),
    ("<tokens>", "conserved: 4/5/4 of each token type over warehouses, undrawn supply, hands, "
                 "sold and removed", "token type"),
    ("sale", "in phase selling (decided by the active seat) a count 0..the active seat's "
             "tokens of that type, else 0"),
    ("loss_colours", "a bitmask of the 6 colours (0..63)"),
    ("loss_pending", "a bitmask of the 6 colours (0..63)"),
    ("loss_next", "in 0..num_players"),
    ("loss_seat", "a seat 0..num_players-1"),
    ("loss_colour", "a colour 0..5"),
    ("<player>", "a seat 0..num_players-1"),
    ("<legal actions>", "there while the game is not over (this state has none)"),
)
(R_LENGTH, R_NP, R_PHASE, R_ACTIVE, R_DECIDER, R_SHIP, R_MAX_ROUNDS, R_ROUND, R_SETUP_STEP,
 R_ACTED, R_END, R_TRUNC, R_BUILD_RULE, R_SETUP_ORDER, R_BUILD_COUNT, R_PILE_END, R_DRAWN,
 R_SUPPLY, R_WAREHOUSE, R_HAND, R_SOLD, R_REMOVED, R_TOKENS, R_SALE, R_LOSS_COLOURS,
 R_LOSS_PENDING, R_LOSS_NEXT, R_LOSS_SEAT, R_LOSS_COLOUR, R_PLAYER,
 R_NO_LEGAL) = state_checks.rule_codes(RULES)
TOKENS_OF_TYPE = np.array([B.TOKENS_PER_BARREL[t % 3] for t in range(K.NTYPE)], dtype=np.int64)
M = 0      # Hansa has no map: the placeholder for `m` (an int: cheap to pass, and it tells
           # `tradewinds.state_checks.with_map` to call the kernels without it)


@njit(cache=True)
def check(s, m):
    """0, or the code of the first field that could make a kernel crash: the check at the
    entry of every per-decision call (ranges of indices and loop bounds only)."""
    if s.shape[0] != K.STATE_SIZE:
        return R_LENGTH
    n = s[K.NP]
    if n < B.MIN_PLAYERS or n > B.MAX_PLAYERS:
        return R_NP
    phase = s[K.PHASE]
    if phase < SETUP or phase > GAME_OVER:
        return R_PHASE
    if s[K.ACTIVE] < 0 or s[K.ACTIVE] >= n:
        return R_ACTIVE
    d = s[K.DECIDER]
    if (d != -1) if phase == GAME_OVER else (d < 0 or d >= n):
        return R_DECIDER
    if s[K.SHIP] < 0 or s[K.SHIP] >= K.NCITY:
        return R_SHIP
    if s[K.MAX_ROUNDS] < 1 or s[K.MAX_ROUNDS] > MAX_ROUNDS_LIMIT:
        return R_MAX_ROUNDS
    if s[K.ROUND] < 0 or s[K.ROUND] > s[K.MAX_ROUNDS]:
        return R_ROUND
    steps = B.SETUP_PLACEMENTS * n
    if s[K.SETUP_STEP] < 0 or s[K.SETUP_STEP] > steps or (
            (phase == SETUP) != (s[K.SETUP_STEP] < steps)):
        return R_SETUP_STEP
    if s[K.ACTED] != 0 and s[K.ACTED] != 1:
        return R_ACTED
    if s[K.END_TRIG] != 0 and s[K.END_TRIG] != 1:
        return R_END
    if s[K.TRUNC] != 0 and s[K.TRUNC] != 1:
        return R_TRUNC
    if s[K.BUILD_RULE] != 0 and s[K.BUILD_RULE] != 1:
        return R_BUILD_RULE
    if s[K.SETUP_ORDER] < 0 or s[K.SETUP_ORDER] >= len(B.SETUP_ORDERS):
        return R_SETUP_ORDER
    b = s[K.BUILD_COUNT]
    if b < 0 or b > K.MAX_STALLS_PER_BUILD or (b > 0 and s[K.ACTED] == 0):
        return R_BUILD_COUNT
    end = 0
    for k in range(B.NUM_PILES):
        e = s[K.PILE_END + k]
        if e < end or e > MAX_SUPPLY:
            return R_PILE_END + k
        end = e
    drawn = s[K.DRAWN]
    if drawn < 0 or drawn > end:
        return R_DRAWN
    i = first_out(s, K.SUPPLY + drawn, end - drawn, 0, K.NTYPE - 1)
    if i >= 0:
        return R_SUPPLY + drawn + i
    i = first_out(s, K.WAREHOUSE, K.NWH, -1, K.NTYPE - 1)
    if i >= 0:
        return R_WAREHOUSE + i
    if s[K.LOSS_COLOURS] < 0 or s[K.LOSS_COLOURS] >= 1 << K.NCOL:
        return R_LOSS_COLOURS
    if s[K.LOSS_PENDING] < 0 or s[K.LOSS_PENDING] >= 1 << K.NCOL:
        return R_LOSS_PENDING
    if s[K.LOSS_NEXT] < 0 or s[K.LOSS_NEXT] > n:
        return R_LOSS_NEXT
    if s[K.LOSS_SEAT] < 0 or s[K.LOSS_SEAT] >= n:
        return R_LOSS_SEAT
    if s[K.LOSS_COLOUR] < 0 or s[K.LOSS_COLOUR] >= K.NCOL:
        return R_LOSS_COLOUR
    return 0


@njit(cache=True)
def check_play(s, m):
    """`check`, and the token counts: every token once (so hands are bounded and a played
    out game ends) and the sale in progress within the seller's hand. Playouts and
    `validate_state` use it; every kernel step keeps it."""
    code = check(s, m)
    if code != 0:
        return code
    count = np.zeros(K.NTYPE, dtype=np.int64)
    for i in range(s[K.DRAWN], s[K.PILE_END + 4]):
        count[s[K.SUPPLY + i]] += 1
    for w in range(K.NWH):
        if s[K.WAREHOUSE + w] >= 0:
            count[s[K.WAREHOUSE + w]] += 1
    for i in range(K.MAXP * K.NTYPE):
        if s[K.HAND + i] < 0:
            return R_HAND + i
        if s[K.SOLD + i] < 0:
            return R_SOLD + i
        count[i % K.NTYPE] += s[K.HAND + i] + s[K.SOLD + i]
    for tok in range(K.NTYPE):
        if s[K.REMOVED + tok] < 0:
            return R_REMOVED + tok
        if count[tok] + s[K.REMOVED + tok] != TOKENS_OF_TYPE[tok]:
            return R_TOKENS + tok
    selling = s[K.PHASE] == SELLING
    if selling and s[K.DECIDER] != s[K.ACTIVE]:
        return R_SALE
    at = K.HAND + s[K.ACTIVE] * K.NTYPE
    for tok in range(K.NTYPE):
        k = s[K.SALE + tok]
        if (k < 0 or k > s[at + tok]) if selling else k != 0:
            return R_SALE + tok
    return 0


(legal_mask, step, observe, query, scores, winners, returns, random_playout,
 check_batch) = state_checks.entry_points(sys.modules[__name__], K, returns_need_play=True)
SIGNATURES = state_checks.signatures(types.int64)

disk_cache.refresh(globals())
