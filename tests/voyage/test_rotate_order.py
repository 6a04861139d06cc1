"""The rotating start position, option `rotate_order` (VA42, docs/rules/voyage.md §5.3, §7).

From round 2 on, before the turn-order bidding (V10), the order of the round before (after
its auction) rotates by one position: the first player goes last and the others move up
one. The auction then runs on the rotated order as usual, from its new first player. Round
1 (the random order of V5, the V13 deal by it) is unchanged; the option is off by default
and does not combine with `dice_movement`, which rotates the order already (VA34).
"""

from __future__ import annotations

import numpy as np
import pytest

import tradewinds
from voyage_env import GAME, scenario
from voyage_env import actions as A
from voyage_env.reference import VoyageGame
from voyage_env.state import BID, GAME_OVER, MOVE, ORDER, StateView

ROTATE = {"rotate_order": True}


def order_of(s) -> list:
    v = StateView(s)
    return v.order[:v.num_players].tolist()


def finish_round(s, bids=()) -> None:
    """The rest of the round: the auction with the given bids (seat, total) made at that
    seat's first go (everyone else passes; a bidder takes position 1), then every turn
    stops at once; until the next round's auction starts (or the game ends)."""
    todo = dict(bids)
    start = StateView(s).round
    while not GAME.is_terminal(s) and not (StateView(s).phase == BID
                                           and StateView(s).round > start):
        v = StateView(s)
        p = GAME.current_player(s)
        if v.phase == BID:
            a = A.from_name(f"bid:{todo.pop(p)}") if p in todo else A.BID_PASS
        elif v.phase == ORDER:   # the first free position
            free = [k for k in range(v.num_players) if v.new_order[k] < 0]
            a = A.from_name(f"order:{free[0] + 1}")
        elif v.phase == MOVE:
            a = A.STOP
        else:
            a = GAME.legal_actions(s)[0]
        GAME.step(s, a)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_VA42_the_start_position_passes_on_every_round(n):
    s = GAME.new_state(n, 21, **ROTATE)
    plain = GAME.new_state(n, 21)
    first = order_of(s)
    assert first == order_of(plain), "round 1 keeps the random order of V5"
    assert GAME.current_player(s) == first[0] and StateView(s).phase == BID
    order = first
    for r in range(2, 6):
        finish_round(s)
        finish_round(plain)
        order = order[1:] + order[:1]              # nobody bid: only the rotation moves
        v = StateView(s)
        assert v.round == r and v.phase == BID
        assert order_of(s) == order, f"round {r}"
        assert GAME.current_player(s) == order[0], "the new first player bids first"
        assert order_of(plain) == first, "without the option the order stays (V10)"


def test_VA42_the_rotation_takes_the_order_the_auction_made():
    """Round 1: the second seat of the order bids 1 and takes position 1 (V11). Round 2
    starts from that order, rotated: the round-1 winner of the auction goes last."""
    s = GAME.new_state(3, 4, **ROTATE)
    plain = GAME.new_state(3, 4)
    a, b, c = order_of(s)
    for state in (s, plain):
        finish_round(state, bids={b: 1})
    assert order_of(plain) == [b, a, c]
    assert order_of(s) == [a, c, b]
    assert GAME.current_player(s) == a
    # the auction of round 2 reorders the rotated order by V11 as usual (c bids and takes
    # position 1: c, a, b), and round 3 starts from that order rotated
    finish_round(s, bids={c: 2})
    assert order_of(s) == [a, b, c] and GAME.current_player(s) == a


def test_VA42_round_one_and_the_deal_are_unchanged():
    for n in (2, 4):
        s, plain = GAME.new_state(n, 9, **ROTATE), GAME.new_state(n, 9)
        differ = np.flatnonzero(s != plain).tolist()
        assert differ == [StateView.layout.offset("rotate_order")], "only the flag differs"
        assert StateView(s).rotate_order == 1 and StateView(plain).rotate_order == 0
        for state in (s, plain):
            GAME.step(state, A.BID_PASS)
            while StateView(state).phase == BID:
                GAME.step(state, A.BID_PASS)
        np.testing.assert_array_equal(StateView(s).hand, StateView(plain).hand)  # V13


def test_VA42_kernel_and_reference_agree_on_whole_games():
    rng = np.random.default_rng(42)
    for n in (2, 3, 4):
        for opts in (ROTATE, dict(ROTATE, black_ship=True), dict(ROTATE, simple_deck=True),
                     dict(ROTATE, seat_vp=(0, 5, 9, 13)[:n])):
            s, ref = GAME.new_state(n, 70 + n, **opts), VoyageGame(n, 70 + n, **opts)
            while not ref.is_terminal():
                np.testing.assert_array_equal(s, ref.to_state())
                a = int(rng.choice(ref.legal_actions()))
                GAME.step(s, a)
                ref.step(a)
            np.testing.assert_array_equal(s, ref.to_state())
            assert StateView(s).phase == GAME_OVER and GAME.winners(s) == ref.winners()


def test_VA42_a_built_state_keeps_the_option():
    s = scenario.build(3, seed=2, phase="bid", round=3, rotate_order=True)
    d = scenario.describe(s)
    assert d["rotate_order"] is True and StateView(s).rotate_order == 1
    assert scenario.describe(scenario.build(**d)) == d
    assert scenario.describe(scenario.build(3, seed=2))["rotate_order"] is False


@pytest.mark.parametrize("options, message", [
    ({"rotate_order": 1}, "rotate_order must be True or False"),
    ({"rotate_order": "yes"}, "rotate_order must be True or False"),
    ({"rotate_order": True, "dice_movement": True},
     "rotate_order=True and dice_movement=True do not combine"),
])
def test_VA42_bad_values_are_named(options, message):
    for call in (lambda: GAME.new_state(2, 0, **options),
                 lambda: GAME.resolve_options(options),
                 lambda: tradewinds.make("voyage", **options)):
        with pytest.raises(ValueError, match=message):
            call()
    with pytest.raises(ValueError, match="rotate_order"):
        VoyageGame(2, 0, **options)


def test_VA42_a_state_with_a_bad_flag_is_refused():
    s = GAME.new_state(2, 3, **ROTATE)
    GAME.validate_state(s)
    VoyageGame.from_state(s)
    t = s.copy()
    StateView(t).rotate_order = 2
    for call in (GAME.validate_state, GAME.legal_mask):
        with pytest.raises(ValueError, match="rotate_order=2"):
            call(t)
    with pytest.raises(ValueError, match="rotate_order"):
        VoyageGame.from_state(t)
    t = GAME.new_state(2, 3, dice_movement=True)
    StateView(t).rotate_order = 1
    for call in (GAME.validate_state, GAME.legal_mask, VoyageGame.from_state):
        with pytest.raises(ValueError, match="rotate_order"):
            call(t)
