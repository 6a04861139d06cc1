"""Fuzz invariants of the Voyage kernel on the default map (inside njit).

After every decision: wind cards conserved (deck + discard + hands = 86, or 81 with the
simple deck, none with the dice); cubes conserved (stock + held = 4 per good, at most one
per player); discs within 0..total with total 9 or 12 (dice: the active seat's roll 2..12,
every other seat 0); monastery tiles within bounds; the legal mask never
empty in a live state and equal to `is_legal` (which `step` uses); the decider a seat;
every game ends or truncates at the cap.
"""

import numpy as np
import pytest
from numba import njit

from voyage_env import GAME
from voyage_env import kernel as K

(FAIL_CARDS, FAIL_CUBES, FAIL_DISCS, FAIL_MASK, FAIL_DECIDER, FAIL_TILES, FAIL_ENDLESS,
 FAIL_STEP, FAIL_AGREE) = range(1, 10)
M = GAME.aux.m


@njit(cache=True)
def _check(s, m, mask, total_cards):
    cards = s[K.DECK_SIZE]
    for k in range(K.NK):
        cards += s[K.DISCARD + k]
        for p in range(K.MAXP):
            cards += s[K.HAND + p * K.NK + k]
    if cards != total_cards:
        return FAIL_CARDS
    for g in range(K.NG):
        held = s[K.STOCK + g]
        for p in range(K.MAXP):
            c = s[K.CUBES + p * K.NG + g]
            if c < 0 or c > 1:
                return FAIL_CUBES
            held += c
        if held != 4:
            return FAIL_CUBES
    for p in range(s[K.NP]):
        d = s[K.DISCS + p]
        if s[K.DICE] == 1:
            turn = not K.is_terminal(s) and p == s[K.ACTIVE]
            if (turn and (d < 2 or d > 12)) or (not turn and d != 0):
                return FAIL_DISCS
        elif d != 9 and d != 12:
            return FAIL_DISCS
        if s[K.SPENT + p] < 0 or s[K.SPENT + p] > d:
            return FAIL_DISCS
    if s[K.TILES_TAKEN] < 0 or s[K.TILES_TAKEN] > s[K.TILES_TOTAL]:
        return FAIL_TILES
    if not K.is_terminal(s):
        if not (0 <= s[K.DECIDER] < s[K.NP]):
            return FAIL_DECIDER
        K.legal_mask(s, m, mask)
        if mask.sum() == 0:
            return FAIL_MASK
        for a in range(K.NUM_ACTIONS):
            if (mask[a] == 1) != K.is_legal(s, m, a):
                return FAIL_AGREE
    return 0


@njit(cache=True)
def _fuzz(m, num_players, first_seed, games, simple_deck, black_ship, max_rounds, dice=0):
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    key = np.zeros(2, dtype=np.int32)
    total_cards = 0 if dice else 86 - (5 if simple_deck else 0)
    for g in range(games):
        seed = first_seed + g
        K.init(s, m, num_players, seed, simple_deck, black_ship, max_rounds, dice)
        key[0] = seed
        key[1] = 31
        steps = 0
        while not K.is_terminal(s):
            code = _check(s, m, mask, total_cards)
            if code:
                return code, seed, steps
            if K.step(s, m, K.random_action(s, m, mask, key)) != 0:
                return FAIL_STEP, seed, steps
            steps += 1
            if steps > 500_000:
                return FAIL_ENDLESS, seed, steps
        code = _check(s, m, mask, total_cards)
        if code:
            return code, seed, steps
        if s[K.ROUND] > max_rounds:
            return FAIL_ENDLESS, seed, steps
    return 0, 0, 0


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("simple_deck, black_ship, dice",
                         [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (0, 1, 1)])
def test_invariants_hold_in_random_games(n, simple_deck, black_ship, dice):
    games = 300 if (simple_deck, black_ship, dice) == (0, 0, 0) else 100
    assert _fuzz(M, n, 7_000 * n, games, simple_deck, black_ship, 40, dice) == (0, 0, 0)


def test_short_cap_games_reach_the_end_of_their_rounds():
    assert _fuzz(M, 3, 1, 200, 0, 0, 3) == (0, 0, 0)


def test_the_checker_catches_broken_states():
    s = GAME.new_state(3, 1)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    assert _check(s, M, mask, 86) == 0
    for field, code in ((K.DISCARD, FAIL_CARDS), (K.STOCK, FAIL_CUBES), (K.SPENT, FAIL_DISCS)):
        t = s.copy()
        t[field] -= 1
        assert _check(t, M, mask, 86) == code
