"""Pebbles' rules written plainly (lists, no numba), from the rules in `kernel`'s
docstring: the oracle of tests/core/test_pebbles.py (same seed and actions -> the same state
vector, masks and scores at every step). It draws from `tradewinds.pyrng`, the plain
SplitMix64, in the kernel's order: the shuffle of the deck, then the forbidden first take.
"""

from __future__ import annotations

import numpy as np

from tradewinds.pyrng import SplitMix64

from .state import DEFAULT_PILE, LAYOUT, MAX_PLAYERS, MAX_TAKE, NUM_CARDS, StateView


class PebblesGame:
    def __init__(self, num_players: int, seed: int, pile: int = DEFAULT_PILE,
                 open_cards: bool = False):
        self.n, self.pile_size, self.pile, self.open_cards = num_players, pile, pile, open_cards
        self.rng = SplitMix64(seed)
        deck = list(range(1, NUM_CARDS + 1))
        self.rng.shuffle(deck)
        self.cards = deck[:num_players]
        self.forbidden = 1 + self.rng.below(MAX_TAKE)
        self.taken = [0] * num_players
        self.turns = 0

    def is_terminal(self) -> bool:
        return self.pile == 0

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.turns % self.n

    def legal_actions(self) -> list:
        if self.is_terminal():
            return []
        takes = [k for k in range(1, MAX_TAKE + 1)
                 if k <= self.pile and (k != self.forbidden or self.pile == 1)]
        return [k - 1 for k in takes]

    def step(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        k = action + 1
        self.taken[self.current_player()] += k
        self.pile -= k
        self.forbidden = k
        self.turns += 1

    def scores(self) -> list:
        end = self.is_terminal()
        return [t + (c if end else 0) for t, c in zip(self.taken, self.cards, strict=True)]

    def to_state(self) -> np.ndarray:
        """The kernel's state vector for this position."""
        s = np.zeros(LAYOUT.size, dtype=np.int32)
        v = StateView(s)
        v.num_players, v.pile, v.pile_size = self.n, self.pile, self.pile_size
        v.open_cards, v.decider, v.forbidden = int(self.open_cards), self.current_player(), \
            self.forbidden
        v.turns = self.turns
        v.taken[: self.n] = self.taken
        v.card[: self.n] = self.cards
        v.rng[:] = self.rng.words()
        assert len(v.taken) == MAX_PLAYERS
        return s
