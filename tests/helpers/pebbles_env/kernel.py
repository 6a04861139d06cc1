"""Pebbles' rules as numba kernels over the flat int32 state (`pebbles_env.state`).

The rules, in full: 2-4 players share a pile of pebbles (option `pile`, 100). Each seat
is dealt a secret card 1..6 from a shuffled deck of six, and a random take 1..3 is
forbidden for the first player. Seats take turns in seat order, starting with seat 0;
a turn takes 1, 2 or 3 pebbles, never more than are left and never as many as the
previous take (the last pebble may always be taken). When the pile is empty the cards
are shown; a seat scores its pebbles plus its card, and the highest score wins (ties
share). Option `open_cards` deals the cards face up.

Every function is `@njit(cache=True)`: these kernels take only arrays and integers, so
their disk cache is safe to share (the generic functions compiled for this game are kept
off the disk instead: see `pebbles_env.bindings`).
"""

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.compiled import disk_cache

from .state import (
    CARD,
    DECIDER,
    FORBIDDEN,
    MAX_PLAYERS,
    MAX_TAKE,
    NP,
    NUM_CARDS,
    OPEN,
    PILE,
    PILE_SIZE,
    RNG,
    TAKEN,
    TURNS,
)

NUM_ACTIONS = MAX_TAKE
OBS_SIZE = 1 + 3 * MAX_PLAYERS + MAX_TAKE + 1 + MAX_PLAYERS
OK, OUT_OF_RANGE, OVER, ILLEGAL = 0, 1, 2, 3      # step's error codes (tradewinds.protocol)


@njit(cache=True)
def init(s, num_players, seed, pile, open_cards):
    s[:] = 0
    s[NP], s[PILE], s[PILE_SIZE], s[OPEN] = num_players, pile, pile, open_cards
    rng.seed_state(s, RNG, seed)
    deck = np.arange(1, NUM_CARDS + 1)
    rng.shuffle(s, RNG, deck, NUM_CARDS)
    for p in range(num_players):
        s[CARD + p] = deck[p]
    s[FORBIDDEN] = 1 + rng.below(s, RNG, MAX_TAKE)


@njit(cache=True)
def is_legal(s, a):
    k = a + 1
    return (s[DECIDER] >= 0 and 0 <= a < NUM_ACTIONS and k <= s[PILE]
            and (k != s[FORBIDDEN] or s[PILE] == 1))


@njit(cache=True)
def legal_mask(s, mask):
    for a in range(NUM_ACTIONS):
        mask[a] = 1 if is_legal(s, a) else 0


@njit(cache=True)
def step(s, a):
    if not 0 <= a < NUM_ACTIONS:
        return OUT_OF_RANGE
    if s[DECIDER] < 0:
        return OVER
    if not is_legal(s, a):
        return ILLEGAL
    p, k = s[DECIDER], a + 1
    s[PILE] -= k
    s[TAKEN + p] += k
    s[FORBIDDEN] = k
    s[TURNS] += 1
    s[DECIDER] = -1 if s[PILE] == 0 else (p + 1) % s[NP]
    return OK


@njit(cache=True)
def current_player(s):
    return s[DECIDER]


@njit(cache=True)
def is_terminal(s):
    return s[DECIDER] < 0


@njit(cache=True)
def is_truncated(s):
    return False            # no round cap: the pile always runs out


@njit(cache=True)
def scores(s, out):
    """Pebbles taken, plus the card once the game is over (cards count at the end)."""
    out[:] = 0
    for p in range(s[NP]):
        out[p] = s[TAKEN + p] + (s[CARD + p] if s[DECIDER] < 0 else 0)


@njit(cache=True)
def winners(s, out):
    vp = np.zeros(MAX_PLAYERS, dtype=np.int64)
    scores(s, vp)
    best = vp[: s[NP]].max()
    out[:] = 0
    for p in range(s[NP]):
        out[p] = 1 if vp[p] == best else 0


@njit(cache=True)
def returns(s, out):
    w = np.zeros(MAX_PLAYERS, dtype=np.int64)
    winners(s, w)
    k = w.sum()
    for p in range(out.shape[0]):
        out[p] = w[p] / k if p < MAX_PLAYERS else 0.0


@njit(cache=True)
def observe(s, player, out):
    """pile, taken[4], me[4], to_move[4], forbidden[3], my_card, card[4] (a card shows
    when it is the player's own, the cards are open, or the game is over)."""
    out[:] = 0.0
    out[0] = s[PILE]
    n, shown = s[NP], s[OPEN] == 1 or s[DECIDER] < 0
    for q in range(n):
        out[1 + q] = s[TAKEN + q]
        if shown or q == player:
            out[1 + 3 * MAX_PLAYERS + MAX_TAKE + 1 + q] = s[CARD + q]
    out[1 + MAX_PLAYERS + player] = 1.0
    if s[DECIDER] >= 0:
        out[1 + 2 * MAX_PLAYERS + s[DECIDER]] = 1.0
    out[1 + 3 * MAX_PLAYERS + s[FORBIDDEN] - 1] = 1.0
    out[1 + 3 * MAX_PLAYERS + MAX_TAKE] = s[CARD + player]


@njit(cache=True)
def determinize(s, player, key):
    """In place: the cards `player` cannot see dealt again uniformly from the five cards
    that are not `player`'s (drawing from `key`), and the generator reseeded from `key`. The
    result depends on `player`'s observation and the key only."""
    if s[DECIDER] >= 0 and s[OPEN] == 0:
        pool = np.zeros(NUM_CARDS - 1, dtype=np.int64)
        j = 0
        for c in range(1, NUM_CARDS + 1):
            if c != s[CARD + player]:
                pool[j] = c
                j += 1
        rng.shuffle(key, 0, pool, NUM_CARDS - 1)
        j = 0
        for q in range(s[NP]):
            if q != player:
                s[CARD + q] = pool[j]
                j += 1
    rng.store(s, RNG, rng.next_u64(key, 0))


# ---------------------------------------------------------------- playouts and batches

@njit(cache=True)
def random_playout(s, key):
    """Uniformly random legal actions (`rng.pick_set`) to the end; the decisions."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    steps = 0
    while s[DECIDER] >= 0:
        legal_mask(s, mask)
        step(s, rng.pick_set(mask, key))
        steps += 1
    return steps


disk_cache.refresh(globals())
