"""The opening-placement order option `setup_order` (HA23, docs/rules/hansa.md §6-7).

`forward` (the default) is HA6: seats 1..n, then n..1, then n..1. `reverse` mirrors every
pass, so the last seat makes the first placement: n..1, then 1..n, then 1..n. `snake`
alternates: 1..n, n..1, 1..n. Only the draft changes: the deal, the start player (H7,
HA7: seat 0 takes the first turn) and everything after the draft are the same.
"""

from __future__ import annotations

import numpy as np
import pytest

import tradewinds
from hansa_env import GAME, scenario
from hansa_env import board as B
from hansa_env.reference import HansaGame
from hansa_env.state import ACTIONS, SETUP, StateView
from tests.helpers.hansa_helpers import finish_setup, play, post_setup


def draft_order(n: int, setup_order: str) -> list:
    """The seats of the 3n placements, written out pass by pass."""
    up, down = list(range(n)), list(range(n - 1, -1, -1))
    passes = {"forward": [up, down, down], "reverse": [down, up, up],
              "snake": [up, down, up]}[setup_order]
    return [seat for p in passes for seat in p]


def placers(n: int, seed: int, **options) -> list:
    """Who decides at each placement of the draft (first legal city every time)."""
    s = GAME.new_state(n, seed, **options)
    out = []
    while StateView(s).phase == SETUP:
        out.append(GAME.current_player(s))
        GAME.step(s, GAME.legal_actions(s)[0])
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_HA23_reverse_the_last_seat_makes_the_first_placement(n):
    s = GAME.new_state(n, 7, setup_order="reverse")
    v = StateView(s)
    assert v.phase == SETUP and v.setup_step == 0
    assert GAME.current_player(s) == v.active == n - 1
    assert v.setup_order == B.SETUP_ORDERS.index("reverse") == 1
    # the whole draft: n..1, then 1..n twice (seat indices n-1..0, then 0..n-1)
    assert placers(n, 7, setup_order="reverse") == (
        list(range(n - 1, -1, -1)) + list(range(n)) * 2)
    # the start player is still seat 0 (H7, HA7): he takes turn 1 after the draft
    s = post_setup(n, 7, setup_order="reverse")
    v = StateView(s)
    assert v.phase == ACTIONS and v.active == 0 and v.round == 1 and v.turns == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_HA23_snake_alternates_the_direction_every_pass(n):
    assert placers(n, 3, setup_order="snake") == (
        list(range(n)) + list(range(n - 1, -1, -1)) + list(range(n)))
    assert GAME.current_player(GAME.new_state(n, 3, setup_order="snake")) == 0
    assert StateView(post_setup(n, 3, setup_order="snake")).active == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_HA23_forward_is_HA6_and_the_default(n):
    """The default is today's HA6 order, and giving it explicitly is the same state."""
    assert placers(n, 5) == placers(n, 5, setup_order="forward") == (
        list(range(n)) + list(range(n - 1, -1, -1)) * 2)
    np.testing.assert_array_equal(GAME.new_state(n, 5),
                                  GAME.new_state(n, 5, setup_order="forward"))
    assert GAME.option_defaults["setup_order"] == "forward"
    assert StateView(GAME.new_state(n, 5)).setup_order == 0


@pytest.mark.parametrize("setup_order", B.SETUP_ORDERS)
def test_HA23_only_the_draft_changes(setup_order):
    """Same seed: the same deal (colours, warehouses, piles, money); the draft rules of H8
    (two stalls, three different cities, never Copenhagen) hold for whoever places."""
    n = 4
    plain, s = GAME.new_state(n, 11), GAME.new_state(n, 11, setup_order=setup_order)
    a, b = StateView(plain), StateView(s)
    for field in ("warehouse", "supply", "pile_end", "colour_in_play", "money", "rng",
                  "stall_supply", "removed"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field), err_msg=field)
    placed = {p: set() for p in range(n)}
    for i, seat in enumerate(draft_order(n, setup_order)):
        assert GAME.current_player(s) == seat, f"placement {i}"
        names = {GAME.action_name(x) for x in GAME.legal_actions(s)}
        assert names == {f"setup:{c}" for c in B.CITIES
                         if c != "Copenhagen" and c not in placed[seat]}
        city = sorted(names)[0].split(":")[1]
        play(s, f"setup:{city}")
        placed[seat].add(city)
        assert StateView(s).stalls[B.CITIES.index(city), seat] == B.STALLS_PER_PLACEMENT
    assert all(len(c) == B.SETUP_PLACEMENTS for c in placed.values())
    assert StateView(s).phase == ACTIONS and StateView(s).active == 0


@pytest.mark.parametrize("setup_order", B.SETUP_ORDERS)
def test_HA23_kernel_and_reference_agree_on_whole_games(setup_order):
    rng = np.random.default_rng(len(setup_order))
    for n in (2, 3, 4):
        s, ref = GAME.new_state(n, 40 + n, setup_order=setup_order), HansaGame(
            n, 40 + n, setup_order=setup_order)
        while not ref.is_terminal():
            np.testing.assert_array_equal(s, ref.to_state())
            assert GAME.current_player(s) == ref.current_player()
            a = int(rng.choice(ref.legal_actions()))
            GAME.step(s, a)
            ref.step(a)
        np.testing.assert_array_equal(s, ref.to_state())
        assert GAME.winners(s) == ref.winners()


def test_HA23_a_built_setup_position_knows_whose_placement_it_is():
    """scenario.build in phase setup under reverse: after seats 3, 2, 1, 0 and 0 have
    placed once (4 + 1 placements), placement 6 is seat 1's; describe() round-trips."""
    stalls = {"Riga": {0: 2, 1: 2, 2: 2, 3: 2}, "Danzig": {0: 2}}
    s = scenario.build(4, phase="setup", stalls=stalls, setup_order="reverse")
    v = StateView(s)
    assert v.setup_step == 5 and GAME.current_player(s) == 1 and v.active == 1
    d = scenario.describe(s)
    assert d["setup_order"] == "reverse"
    np.testing.assert_array_equal(GAME.observe(scenario.build(**d), 1), GAME.observe(s, 1))
    # forward: the same stalls are no point of the draft (seat 0 places again 8th)
    with pytest.raises(ValueError, match="not a point of the setup draft"):
        scenario.build(4, phase="setup", stalls=stalls)
    # the default draft stalls of a post-setup build follow the order too
    a = scenario.build(3, setup_order="snake")
    b = GAME.new_state(3, 0, setup_order="snake")
    finish_setup(b)
    np.testing.assert_array_equal(StateView(a).stalls, StateView(b).stalls)


@pytest.mark.parametrize("value", ["backward", "Reverse", "", 1, None, True, ("reverse",)])
def test_HA23_bad_values_are_named(value):
    for call in (lambda: GAME.new_state(2, 0, setup_order=value),
                 lambda: GAME.resolve_options({"setup_order": value}),
                 lambda: tradewinds.make("hansa", setup_order=value),
                 lambda: HansaGame(2, 0, setup_order=value)):
        with pytest.raises(ValueError, match="setup_order must be one of forward, reverse, "
                                             "snake"):
            call()


def test_HA23_a_state_with_a_bad_setup_order_is_refused():
    s = GAME.new_state(3, 2, setup_order="snake")
    GAME.validate_state(s)
    HansaGame.from_state(s)
    for bad in (3, -1, 99):
        t = s.copy()
        StateView(t).setup_order = bad
        with pytest.raises(ValueError, match=f"setup_order={bad}"):
            GAME.validate_state(t)
        with pytest.raises(ValueError, match="setup_order"):
            HansaGame.from_state(t)
        with pytest.raises(ValueError, match=f"setup_order={bad}"):
            GAME.legal_mask(t)          # the structural check at every entry point
    # a valid order that does not fit the draft position: the placer is wrong
    t = s.copy()
    StateView(t).setup_order = B.SETUP_ORDERS.index("reverse")
    with pytest.raises(ValueError, match="belongs to another seat"):
        GAME.validate_state(t)
    with pytest.raises(ValueError, match="belongs to seat"):
        HansaGame.from_state(t)
