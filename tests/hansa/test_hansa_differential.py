"""Kernel vs plain-Python reference, step by step on random games (docs/design.md §5).

The two were written independently from the rules and docs/hansa_engine.md. At every
step: the full state vector, the legal mask, every seat's observation, scores, winners
and the current player must be equal (`tradewinds.differential.first_difference`, the
soak's comparison); illegal actions must be refused by both.
"""

import numpy as np
import pytest

from hansa_env import GAME
from hansa_env.reference import HansaGame
from tradewinds.differential import first_difference

GAMES_PER_COUNT = 200


def _compare(state, ref, n):
    diff = first_difference(GAME, state, ref)
    assert diff is None, f"kernel vs reference: {diff}"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_kernel_equals_reference_on_random_games(n):
    rng = np.random.default_rng(n)
    for g in range(GAMES_PER_COUNT):
        seed = 1_000 * n + g
        build_rule = "per_stall" if g % 10 == 9 else "barrels"
        max_rounds = 8 if g % 25 == 24 else 200  # some games end by truncation
        opts = dict(build_rule=build_rule, max_rounds=max_rounds)
        if g % 4 == 1:  # the compensation variants (HA21, HA22), by seat
            opts.update(seat_talers=(0, 1, 2, 4)[:n], seat_vp=(0, 3, 1, 7)[:n])
        if g % 6 in (2, 5):  # the opening-placement orders (HA23)
            opts.update(setup_order="reverse" if g % 6 == 2 else "snake")
        state = GAME.new_state(n, seed, **opts)
        ref = HansaGame(n, seed, **opts)
        full = g % 20 == 0  # observations of every seat at every step in some games
        while True:
            if full:
                _compare(state, ref, n)
            else:
                np.testing.assert_array_equal(state, ref.to_state())
            if ref.is_terminal():
                break
            legal = ref.legal_actions()
            a = int(rng.choice(legal))
            GAME.step(state, a)
            ref.step(a)
        _compare(state, ref, n)
        assert GAME.is_truncated(state) == ref.is_truncated()
        np.testing.assert_allclose(GAME.returns(state), ref.returns())


def test_both_refuse_the_same_illegal_actions():
    rng = np.random.default_rng(0)
    state = GAME.new_state(3, 5)
    ref = HansaGame(3, 5)
    for _ in range(300):
        if ref.is_terminal():
            break
        mask = ref.legal_mask()
        bad = int(rng.choice(np.flatnonzero(~mask)))
        before = state.copy()
        with pytest.raises(ValueError, match=GAME.action_name(bad)):
            GAME.step(state, bad)
        with pytest.raises(ValueError, match=GAME.action_name(bad)):
            ref.step(bad)
        np.testing.assert_array_equal(state, before)
        a = int(rng.choice(np.flatnonzero(mask)))
        GAME.step(state, a)
        ref.step(a)
