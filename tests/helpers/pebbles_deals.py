"""Every start of a Pebbles game with its probability: the deal of the secret cards (an
ordered draw from the six) and the forbidden first take (1..3), each uniform, as
`pebbles_env.kernel.init` draws them. The chance input of the exact best response
(`training.best_response`)."""

from __future__ import annotations

from itertools import permutations

from .pebbles_env.state import MAX_TAKE, NUM_CARDS, StateView


def deals(game, num_players: int, pile: int) -> list:
    """(probability, state) of every deal of `num_players` cards and forbidden take."""
    base = game.new_state(num_players, 0, pile=pile)
    cards = list(permutations(range(1, NUM_CARDS + 1), num_players))
    p = 1.0 / (len(cards) * MAX_TAKE)
    out = []
    for hand in cards:
        for forbidden in range(1, MAX_TAKE + 1):
            s = base.copy()
            v = StateView(s)
            v.card[:num_players] = hand
            v.forbidden = forbidden
            out.append((p, s))
    return out
