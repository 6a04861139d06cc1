"""Mid-game states for tests that probe agents at many kinds of position."""

import numpy as np

from tradewinds import registry


def positions(game_name: str, n: int, count: int, seed: int) -> list[np.ndarray]:
    """States from random play at random points, each with a live decider."""
    game = registry.game(game_name)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(count):
        s = game.new_state(n, seed * 1000 + g)
        for _ in range(int(rng.integers(0, 300))):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            game.step(s, int(legal[rng.integers(len(legal))]))
        if not game.is_terminal(s):
            out.append(s)
    return out
