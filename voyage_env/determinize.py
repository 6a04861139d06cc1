"""Voyage determinization: what a seat cannot see, resampled (VA32, docs/voyage_engine.md).

What seat `player` sees is defined by `kernel.observe`: the whole public position, his own
wind cards and his own target cards. Hidden from him, and resampled here:

- the wind cards he cannot see: every card that is in no hand of his and not on the
  (public) discard pile lies in another seat's hand or in the deck. Per kind their number
  is public (deck composition minus discard pile minus his hand), so that multiset is
  rebuilt in kind order, shuffled uniformly and dealt back: each other seat gets as many
  cards as he holds now (hand sizes are public), the rest becomes the deck, in that order
  (deck size is public). With `simple_deck` nobody holds cards: the deck is reshuffled.
- the target cards of the other seats: per west/east deck, every port of that deck except
  his own targets (so the undealt cards, with 2 or 3 players, join the pool), sorted by
  port id, shuffled; each other seat gets as many as he holds of that deck now.
- the state's generator (future draws, die rolls, reshuffles), reseeded from the key.

One constraint of the public position limits the hidden hands: a seat that is to play a
wind card on a blue space (phase PLAY, or a blue arrival still pending behind a die roll
or a Black Ship attack) holds a card he can play with his available discs (V19, V29:
otherwise he could not have entered the space). When that seat is not `player`, deals
that break it are rejected and redrawn, which samples uniformly among the consistent ones
(the chance that 10 000 deals in a row break it is below 1e-50).

Everything is rebuilt from public counts and canonical orders before shuffling, so the
result is a function of (what `player` sees, key) only: two states that differ only in
hidden parts give the same determinization for the same key. A finished game is only
reseeded. The key (int32[2], `tradewinds.rng`) is advanced.

With `dice_movement` (variant 2, VA34) nobody holds wind or target cards: nothing is hidden
and a determinization only reseeds the generator (the future dice and wreck rolls).
"""

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.compiled import disk_cache
from tradewinds.compiled.no_runtime import kernel
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.state import ARRIVAL_NONE, GAME_OVER, PLAY

TPD = R.TARGETS_PER_DECK
MAX_TRIES = 10_000   # deals tried for the playable-card constraint (each succeeds w.p. >= 1/86)


@njit(cache=True)
def deal_targets(s, m, player, key):
    """Other seats' target cards, uniformly from the ports `player` does not hold."""
    n = s[K.NP]
    nports = m[K.M_P]
    own = np.zeros(nports, dtype=np.bool_)
    for j in range(K.NT):
        port = s[K.TARGETS + player * K.NT + j]
        if 0 <= port < nports:
            own[port] = True
    pool = np.empty(nports, dtype=np.int32)
    for side in range(2):
        size = 0
        for port in range(nports):
            if K.portf(m, port, K.P_DECK) == side and not own[port]:
                pool[size] = port
                size += 1
        rng.shuffle(key, 0, pool, size)
        k = 0
        for q in range(n):
            if q == player:
                continue
            base = K.TARGETS + q * K.NT + side * TPD
            held = 0
            for j in range(TPD):
                if s[base + j] >= 0:
                    held += 1
            for j in range(TPD):
                if j < held and k < size:
                    s[base + j] = pool[k]
                    k += 1
                else:
                    s[base + j] = -1


@kernel
def must_play(s, m, player):
    """The seat other than `player` that must be able to play a wind card on a blue space
    now or after the pending automatic work, or -1."""
    if s[K.SIMPLE] == 1 or s[K.PHASE] == GAME_OVER:
        return -1
    q = s[K.ACTIVE]
    if q == player:
        return -1
    if s[K.PHASE] == PLAY:
        return q
    if s[K.ARR_STAGE] != ARRIVAL_NONE and K.hexf(m, s[K.ARR_HEX], K.F_BLUE) == 1:
        return q
    return -1


@kernel
def _playable_in(pool, lo, hi, limit):
    for i in range(lo, hi):
        if K.storm_n(pool[i]) <= limit:
            return True
    return False


@njit(cache=True)
def deal_cards(s, m, player, key):
    """Other hands and the deck, uniformly from the cards `player` cannot see."""
    n = s[K.NP]
    counts = np.empty(K.NK, dtype=np.int64)
    total = 0
    for kind in range(K.NK):
        c = K.CARD_COUNTS[kind]
        if s[K.SIMPLE] == 1 and kind == R.CALM:
            c -= R.SIMPLE_DECK_CALMS_REMOVED
        c -= s[K.DISCARD + kind] + s[K.HAND + player * K.NK + kind]
        if c < 0:
            raise ValueError("determinize: more wind cards of a kind seen than exist")
        counts[kind] = c
        total += c
    sizes = np.zeros(K.MAXP, dtype=np.int64)
    places = s[K.DECK_SIZE]
    for q in range(n):
        if q != player:
            sizes[q] = K.hand_total(s, q)
            places += sizes[q]
    if places != total:
        raise ValueError("determinize: wind cards not conserved")
    pool = np.empty(total, dtype=np.int32)
    k = 0
    for kind in range(K.NK):   # canonical: the unseen multiset in kind order
        for _ in range(counts[kind]):
            pool[k] = kind
            k += 1
    # the seat that must hold a playable card, when some unseen card could be it
    q_play, lo, hi, limit = must_play(s, m, player), 0, 0, 0
    if q_play >= 0:
        limit = K.available(s, q_play)
        feasible = False
        for kind in range(K.NK):
            if counts[kind] > 0 and K.storm_n(kind) <= limit:
                feasible = True
        if not feasible or sizes[q_play] == 0:
            q_play = -1
        else:
            for q in range(q_play):
                lo += sizes[q]
            hi = lo + sizes[q_play]
    dealt = False
    for _ in range(MAX_TRIES):
        rng.shuffle(key, 0, pool, total)
        if q_play < 0 or _playable_in(pool, lo, hi, limit):
            dealt = True
            break
    if not dealt:
        # unreachable in practice (each try succeeds with probability >= 1/86); keeps the
        # kernel from looping forever: swap the first playable card into the seat's hand
        for i in range(total):
            if K.storm_n(pool[i]) <= limit:
                t = pool[lo]
                pool[lo] = pool[i]
                pool[i] = t
                break
    k = 0
    for q in range(n):   # other hands in seat order, then the deck bottom to top
        if q == player:
            continue
        for kind in range(K.NK):
            s[K.HAND + q * K.NK + kind] = 0
        for _ in range(sizes[q]):
            s[K.HAND + q * K.NK + pool[k]] += 1
            k += 1
    for i in range(K.DECK, K.DECK + R.DECK_SIZE):
        s[i] = 0
    for i in range(s[K.DECK_SIZE]):
        s[K.DECK + i] = pool[k]
        k += 1


@njit(cache=True)
def determinize(s, m, player, key):
    """In place: resample what `player` cannot see (module docstring), drawing from `key`."""
    if s[K.PHASE] != GAME_OVER and s[K.DICE] == 0:
        deal_targets(s, m, player, key)
        deal_cards(s, m, player, key)
    rng.store(s, K.RNG, rng.next_u64(key, 0))


disk_cache.refresh(globals())
