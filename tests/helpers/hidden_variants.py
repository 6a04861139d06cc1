"""Hidden variants of a position: the same public position for the decider with the
hidden parts changed (the honesty tests' edits), and an agent's choice at a position."""

from __future__ import annotations

import numpy as np

from hansa_env.state import StateView as HansaView
from voyage_env.state import StateView as VoyageView


def hansa_variant(state: np.ndarray, rng) -> np.ndarray | None:
    """The same public position with the undrawn supply reordered and a new generator."""
    s = state.copy()
    v = HansaView(s)
    lo, hi = v.supply_drawn, int(v.pile_end[4])
    unseen = v.supply[lo:hi]
    if len(set(unseen.tolist())) < 2:
        return None
    while np.array_equal(unseen, state[v.layout.offset("supply") + lo:][: hi - lo]):
        rng.shuffle(unseen)
    v.rng[:] = rng.integers(-(2**31), 2**31, size=2)
    return s


def voyage_variant(state: np.ndarray, player: int, rng) -> np.ndarray | None:
    """The same position for `player` with an opponent's card swapped with a deck card of
    another kind, the deck reshuffled and opponents' targets exchanged."""
    s = state.copy()
    v = VoyageView(s)
    n = v.num_players
    changed = False
    for q in range(n):
        if q == player:
            continue
        for kind in np.flatnonzero(v.hand[q]):
            deck = v.deck[: v.deck_size]
            other = np.flatnonzero(deck != kind)
            if other.size:
                i = int(other[0])
                v.hand[q, kind] -= 1
                v.hand[q, deck[i]] += 1
                deck[i] = kind
                changed = True
                break
    deck = v.deck[: v.deck_size]
    rng.shuffle(deck)
    opponents = [q for q in range(n) if q != player]
    if len(opponents) >= 2:
        a, b = opponents[:2]
        ta, tb = v.targets[a].copy(), v.targets[b].copy()
        if not np.array_equal(ta, tb):
            v.targets[a], v.targets[b] = tb, ta
            changed = True
    v.rng[:] = rng.integers(-(2**31), 2**31, size=2)
    return s if changed else None


def choice(agent, game, state, seed: int) -> int:
    """`agent`'s action at `state` from a fresh start (what it remembers of a turn, such
    as a destination search's target, cleared), with a generator seeded by `seed`."""
    if hasattr(agent, "reset"):
        agent.reset()
    p = game.current_player(state)
    return agent.act(game.observe(state, p), game.legal_mask(state),
                     np.random.default_rng(seed), state=state.copy())
