"""Fuzz invariants of the Hansa kernel over thousands of random games (inside njit).

Checked after every decision: goods tokens conserved per type across warehouses, piles,
hands, sold piles and the removed heap; 15 stalls per player (board + supply); money
never negative; the legal mask never empty in a live state; the decider is a seat;
every game ends (by the end trigger, or by the round cap as truncation); the fast
legal mask agrees with the per-action legality check that `step` uses.
"""

import numpy as np
import pytest
from numba import njit

from hansa_env import kernel as K

(FAIL_TOKENS, FAIL_STALLS, FAIL_MONEY, FAIL_MASK, FAIL_DECIDER, FAIL_ENDLESS,
 FAIL_AGREE) = range(1, 8)


@njit(cache=True)
def _check(s, mask):
    counts = np.zeros(K.NTYPE, dtype=np.int64)
    for w in range(K.NWH):
        if s[K.WAREHOUSE + w] >= 0:
            counts[s[K.WAREHOUSE + w]] += 1
    for i in range(s[K.DRAWN], s[K.PILE_END + 4]):
        counts[s[K.SUPPLY + i]] += 1
    for t in range(K.NTYPE):
        counts[t] += s[K.REMOVED + t]
        for p in range(K.MAXP):
            counts[t] += s[K.HAND + p * K.NTYPE + t] + s[K.SOLD + p * K.NTYPE + t]
        if counts[t] != K.TOKENS_PER_BARREL[t % 3]:
            return FAIL_TOKENS
    for p in range(s[K.NP]):
        total = s[K.SUPPLY_STALLS + p]
        for c in range(K.NCITY):
            total += s[K.STALLS + c * K.MAXP + p]
        if total != 15:
            return FAIL_STALLS
        if s[K.MONEY + p] < 0:
            return FAIL_MONEY
    if not K.is_terminal(s):
        if not (0 <= s[K.DECIDER] < s[K.NP]):
            return FAIL_DECIDER
        K.legal_mask(s, mask)
        if mask.sum() == 0:
            return FAIL_MASK
        for a in range(K.NUM_ACTIONS):
            if (mask[a] == 1) != K.is_legal(s, a):
                return FAIL_AGREE
    return 0


@njit(cache=True)
def _fuzz(num_players, first_seed, games, max_rounds, build_rule):
    """Returns (failure code, seed, step) of the first broken invariant, or zeros."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    key = np.zeros(2, dtype=np.int32)
    for g in range(games):
        seed = first_seed + g
        K.init(s, num_players, seed, build_rule, max_rounds)
        key[0] = seed
        key[1] = 99
        steps = 0
        while not K.is_terminal(s):
            code = _check(s, mask)
            if code:
                return code, seed, steps
            a = K.random_action(s, mask, key)
            if K.step(s, a) != 0:
                return 100, seed, steps
            steps += 1
            if steps > 200_000:
                return FAIL_ENDLESS, seed, steps
        code = _check(s, mask)
        if code:
            return code, seed, steps
    return 0, 0, 0


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("build_rule", [0, 1])
def test_invariants_hold_in_random_games(num_players, build_rule):
    games = 1000 if build_rule == 0 else 250
    assert _fuzz(num_players, 10_000 * num_players, games, 200, build_rule) == (0, 0, 0)


def test_round_cap_truncates_and_still_conserves():
    assert _fuzz(3, 5, 300, 3, 0) == (0, 0, 0)
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    K.init(s, 3, 5, 0, 3)
    K.random_playout(s, np.array([1, 2], dtype=np.int32))
    assert K.is_truncated(s) and s[K.ROUND] == 3


def test_the_checker_catches_a_broken_state():
    """The invariant checker is not vacuous: break each invariant and see it fire."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    K.init(s, 3, 1, 0, 200)
    assert _check(s, mask) == 0
    for field, code in ((K.REMOVED, FAIL_TOKENS), (K.SUPPLY_STALLS, FAIL_STALLS)):
        t = s.copy()
        t[field] += 1
        assert _check(t, mask) == code
    t = s.copy()
    t[K.MONEY] = -1
    assert _check(t, mask) == FAIL_MONEY
