"""Hansa determinization: the supply order a seat cannot see, resampled (HA17).

Everything in Hansa is public except the order of the tokens left in the five supply
piles: their multiset follows from what is visible (78 tokens minus warehouses, hands,
sold and removed ones) and the pile sizes are public. So a determinization keeps every
field, sorts the unseen tokens (forgetting the real order) and deals them back in a
uniformly random order; the state's generator is reseeded from the key, as its future
draws are hidden too. The result is a function of the observation and the key only.
"""

from numba import njit

from hansa_env.state import LAYOUT
from tradewinds import rng
from tradewinds.compiled import disk_cache

RNG, DRAWN, PILE_END, SUPPLY = (LAYOUT.offset(f) for f in ("rng", "supply_drawn", "pile_end",
                                                           "supply"))
LAST_PILE_END = PILE_END + 4


@njit(cache=True)
def determinize(s, player, key):
    """In place: shuffle the undrawn supply uniformly (drawing from `key`), reseed the RNG."""
    lo, hi = s[DRAWN], s[LAST_PILE_END]
    unseen = s[SUPPLY + lo: SUPPLY + hi]
    unseen.sort()
    rng.shuffle(key, 0, unseen, hi - lo)
    rng.store(s, RNG, rng.next_u64(key, 0))


disk_cache.refresh(globals())
