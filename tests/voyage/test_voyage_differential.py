"""Voyage kernel vs plain-Python reference, step by step (docs/design.md §5).

Written independently from the rules and docs/voyage_engine.md. At every step the full
state vectors (including the RNG words, the deck order and the pending-work fields) and
the legal masks must be equal; observations of every seat, scores and winners are
compared along the way and at the end. Uniform random games on the default board cover
the early game; a goal-directed policy on a medium map plays whole games through
docking, upgrades, monastery tiles and the end of the game. The comparison is
`tradewinds.differential.first_difference` (`benchmarks.soak` runs it over thousands of
games).
"""

import numpy as np
import pytest

from tests.helpers.voyage_medium import MEDIUM, goal_policy
from tradewinds.differential import first_difference
from voyage_env import GAME, make_game
from voyage_env.reference import VoyageGame

OPTIONS = [dict(), dict(simple_deck=True), dict(black_ship=True),
           dict(simple_deck=True, black_ship=True), dict(dice_movement=True),
           dict(dice_movement=True, black_ship=True),
           dict(seat_vp=(0, 2, 5, 9), seat_cards=(0, 1, 2, 3)),       # VA40, VA41
           dict(seat_vp=(0, 3, 6, 9), dice_movement=True),
           dict(rotate_order=True), dict(rotate_order=True, black_ship=True)]   # VA42


def _compare(game, state, ref, n, full):
    diff = first_difference(game, state, ref, observations=full)
    assert diff is None, f"kernel vs reference: {diff}"


def _lockstep(game, vmap, n, seed, options, choose, rnd, full_every):
    state = game.new_state(n, seed, **options)
    ref = VoyageGame(n, seed, voyage_map=vmap, **options)
    steps = 0
    while True:
        _compare(game, state, ref, n, steps % full_every == 0)
        if ref.is_terminal():
            break
        a = choose(ref, rnd)
        game.step(state, a)
        ref.step(a)
        steps += 1
    _compare(game, state, ref, n, True)
    assert game.is_truncated(state) == ref.is_truncated()
    np.testing.assert_allclose(game.returns(state), ref.returns())
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "+".join(o) or "base")
def test_uniform_random_games_on_the_default_board(n, options):
    import random

    rnd = random.Random(n)
    vmap = GAME.board
    for g in range(12):
        _lockstep(GAME, vmap, n, 100 * n + g, dict(options, max_rounds=4),
                  lambda ref, r: r.choice(ref.legal_actions()), rnd, full_every=7)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "+".join(o) or "base")
def test_whole_games_on_the_medium_map(n, options):
    import random

    rnd = random.Random(10 + n)
    game = make_game(MEDIUM)
    policy = goal_policy(MEDIUM)
    ended_by_tiles = 0
    for g in range(6):
        final = _lockstep(game, MEDIUM, n, 1000 * n + g, options, policy, rnd, full_every=5)
        ended_by_tiles += not game.is_truncated(final)
    assert ended_by_tiles > 0  # the comparison covered docking, tiles and the real end
