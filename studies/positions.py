"""Positions to measure agents on: mid-game states of random play, and the decisions of
heuristic self-play where the seat to move has a choice.

Benchmarks time searches from them (`benchmarks.agents`, `benchmarks.az_speed`) and tests
of the agents check their moves on them; the same arguments give the same states.
"""

from __future__ import annotations

import numpy as np

from tradewinds.studies.arena import agent_action


def random_positions(game, n: int, count: int, seed: int = 0) -> list:
    """`count` live states of `n`-player games after 20-119 uniformly random moves, each
    from a game of its own."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.new_state(n, int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(20, 120))):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            game.step(s, legal[int(rng.integers(len(legal)))])
        if not game.is_terminal(s):
            out.append(s)
    return out


def decision_positions(game, n: int, count: int, seed: int = 0, every: int = 4) -> list:
    """`count` states of heuristic self-play where the seat to move has a choice, one
    decision in `every`, from as many games as that takes."""
    from tradewinds.agents import make_agent

    heuristic = make_agent("heuristic", game=game.name)
    out, seen, g = [], 0, 0
    while len(out) < count:
        state, rng = game.new_state(n, seed + g), np.random.default_rng([seed, g])
        while len(out) < count and not (game.is_terminal(state) or game.is_truncated(state)):
            if game.legal_mask(state).sum() > 1:
                seen += 1
                if seen % every == 0:
                    out.append(state.copy())
            game.step(state, agent_action(heuristic, game, state,
                                          game.current_player(state), rng))
        g += 1
    return out
