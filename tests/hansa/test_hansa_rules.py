"""One or more tests per rule H1-H30 of docs/rules/hansa.md, plus its decisions (the HA
answers, §7-§8) and the engine contract (docs/hansa_engine.md).

Each test is written so that it fails if the rule it names is implemented wrongly.
"""

from __future__ import annotations

import numpy as np
import pytest

from hansa_env import GAME
from hansa_env import actions as A
from hansa_env import board as B
from hansa_env.state import ACTIONS, GAME_OVER, LOSS, REFILL, SELLING, SETUP, TAX, StateView
from tests.helpers.hansa_helpers import (
    CITY,
    SLOT,
    empty_slot,
    expected_deal,
    hand_of,
    legal,
    legal_of,
    money_of,
    pile_sizes_of,
    play,
    post_setup,
    removed_count,
    sold_of,
    staged,
    stalls_at,
    supply_sequence,
    warehouse_of,
)
from tradewinds import IllegalActionError

ACTION_KINDS = ("buy", "build", "sell")


def action_kinds(state) -> set:
    """The legal buy/build/sell actions (H14: the three kinds of action)."""
    return {a for a in legal(state) if a.split(":")[0] in ACTION_KINDS}


def assert_illegal(state, action, *fragments):
    """Stepping `action` raises naming it (plus any fragments) and leaves the state alone."""
    before = state.copy()
    with pytest.raises(IllegalActionError) as err:
        GAME.step(state, action)
    msg = str(err.value)
    assert action in msg, msg
    for f in fragments:
        assert f in msg, msg
    assert (state == before).all(), f"{action}: illegal action changed the state"


# ============================================================== 2. Setup (H1-H8)


def test_H1_two_to_four_players():
    for n in (2, 3, 4):
        s = GAME.new_state(n, 1)
        assert GAME.num_players(s) == n
        GAME.validate_state(s)
    for n in (0, 1, 5):
        with pytest.raises(ValueError):
            GAME.new_state(n, 1)


@pytest.mark.parametrize("num_players,in_play,colours", [(2, 52, 4), (3, 65, 5), (4, 78, 6)])
def test_H2_colours_removed_per_player_count(num_players, in_play, colours):
    """H2/HA4: 4 players all six colours (78), 3 players one whole colour out (65),
    2 players two (52); set-aside colours are random (seeded) and take no part."""
    set_aside = set()
    for seed in range(12):
        s = GAME.new_state(num_players, seed)
        v = StateView(s)
        live = [int(t) for t in v.warehouse if t >= 0] + [int(t) for t in supply_sequence_ids(s)]
        assert len(live) == in_play
        assert int(v.colour_in_play.sum()) == colours
        removed = v.removed
        for c in range(6):
            if v.colour_in_play[c]:
                assert list(removed[c]) == [0, 0, 0]
                counts = [sum(1 for t in live if t == c * 3 + b) for b in range(3)]
                assert counts == [4, 5, 4], "13 tokens per colour: 4 x 1, 5 x 2, 4 x 3 barrels"
            else:
                assert list(removed[c]) == [4, 5, 4], "a whole colour is set aside"
                assert not any(t // 3 == c for t in live)
        set_aside.add(tuple(np.flatnonzero(v.colour_in_play == 0)))
        assert int(v.removed.sum()) + in_play == 78
    if num_players < 4:
        assert len(set_aside) > 1, "HA4: set-aside colours vary with the seed"


def supply_sequence_ids(state):
    v = StateView(state)
    return v.supply[v.supply_drawn: v.pile_end[4]]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_H3_first_fill_every_warehouse_in_slot_order(num_players):
    """H3/HA2: all 14 warehouses filled at setup, in slot order from the shuffled tokens
    (Tonsberg's first, Riga's last; two-warehouse cities fill slot 1 then 2)."""
    assert B.NUM_WAREHOUSES == 14
    for seed in (2, 99):
        s = GAME.new_state(num_players, seed)
        _, tokens = expected_deal(num_players, seed)
        assert list(StateView(s).warehouse) == tokens[:14]
        assert [B.CITIES[c] for c, _ in B.WAREHOUSES] == sorted(
            [B.CITIES[c] for c, _ in B.WAREHOUSES], key=B.CITIES.index)


@pytest.mark.parametrize("num_players,sizes", [
    (2, [8, 8, 8, 7, 7]), (3, [11, 10, 10, 10, 10]), (4, [13, 13, 13, 13, 12])])
def test_H4_HA5_five_piles_as_even_as_possible(num_players, sizes):
    """H4/HA5: the rest splits into five piles, larger piles first; used in order 1..5."""
    s = GAME.new_state(num_players, 4)
    assert pile_sizes_of(s) == sizes
    assert list(StateView(s).pile_end) == list(np.cumsum(sizes))
    assert StateView(s).supply_drawn == 0


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_H5_ship_starts_in_copenhagen(num_players):
    """H5: the ship starts in Copenhagen, and the first turn starts there."""
    s = GAME.new_state(num_players, 8)
    assert StateView(s).ship == B.COPENHAGEN
    finish = post_setup(num_players, 8)
    assert StateView(finish).ship == B.COPENHAGEN
    assert legal_of(finish, "sail:") == {"sail:Danzig", "sail:Lubeck", "sail:Tonsberg"}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_H6_three_talers_and_fifteen_stalls_each(num_players):
    """H6: every player starts with 3 talers and 15 stalls in his supply, no goods."""
    s = GAME.new_state(num_players, 8)
    v = StateView(s)
    assert money_of(s) == [3] * num_players
    assert list(v.stall_supply[:num_players]) == [15] * num_players
    assert int(v.stalls.sum()) == 0
    assert int(v.hand.sum()) == 0 and int(v.sold.sum()) == 0


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_H7_seat_0_starts(num_players):
    """H7/HA7: seat 0 is the start player: the draft opens with seat 0 and the first turn
    after the draft is seat 0's, round 1."""
    s = GAME.new_state(num_players, 11)
    assert GAME.current_player(s) == 0 and StateView(s).phase == SETUP
    s = post_setup(num_players, 11)
    v = StateView(s)
    assert v.active == 0 and GAME.current_player(s) == 0 and v.round == 1
    assert v.phase == ACTIONS and v.turns == 0


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_H8_setup_draft_order_and_constraints(num_players):
    """H8/HA6: 3n placements by seats 1..n, n..1, n..1; 2 stalls each; three different
    cities per player; never Copenhagen; other players' cities are allowed."""
    n = num_players
    order = list(range(n)) + list(range(n - 1, -1, -1)) * 2
    s = GAME.new_state(n, 5)
    placed = {p: [] for p in range(n)}
    # everybody's first placement is Riga (sharing is fine), then distinct cities
    choices = ["Riga", "Kalmar", "Stockholm", "Tonsberg", "Reval", "Danzig", "Lubeck", "Aalborg"]
    for i, seat in enumerate(order):
        v = StateView(s)
        assert v.phase == SETUP and v.setup_step == i
        assert GAME.current_player(s) == seat, f"placement {i}"
        assert "setup:Copenhagen" not in legal(s)
        assert_illegal(s, "setup:Copenhagen", "Copenhagen")
        for c in placed[seat]:
            assert_illegal(s, f"setup:{c}")
        assert legal(s) == {f"setup:{c}" for c in B.CITIES
                            if c != "Copenhagen" and c not in placed[seat]}
        assert legal(s) <= {f"setup:{c}" for c in B.CITIES}, "only placements during setup"
        for other in ("end_actions", "refill", "sail:Danzig"):
            assert_illegal(s, other)
        city = next(c for c in choices if c not in placed[seat])
        supply = int(v.stall_supply[seat])
        play(s, f"setup:{city}")
        placed[seat].append(city)
        assert StateView(s).stalls[CITY[city], seat] == 2
        assert StateView(s).stall_supply[seat] == supply - 2
    v = StateView(s)
    assert v.phase == ACTIONS and v.active == 0
    assert stalls_at(s, "Riga") == [2] * n
    for p in range(n):
        assert len(set(placed[p])) == 3
        assert int(v.stalls[:, p].sum()) == 6 and v.stall_supply[p] == 9
        assert v.stalls[B.COPENHAGEN, p] == 0
    GAME.validate_state(s)


# ============================================================== 3. Turn (H9-H26)


def test_H9_turn_order_clockwise_and_phases():
    """H9/HA7: turns go 0,1,...,n-1,0,...; each turn starts with income (phase 1)
    before the refill decision (phase 2), then actions (phase 3)."""
    s = staged(4, warehouses={"Kalmar/1": None})
    seen = []
    for _ in range(9):
        play(s, "end_actions")
        v = StateView(s)
        seen.append(v.active)
        assert GAME.current_player(s) == v.active
        if v.phase == REFILL:
            # income has already been paid when the refill decision comes
            assert money_of(s)[v.active] == 3 + 3
            play(s, "skip_refill")
        assert StateView(s).phase == ACTIONS
    assert seen == [1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert StateView(s).round == 3


def test_H25_turn_passes_after_phase_4():
    """H25: only when phase 4 is complete (discards done) does the next seat in turn order
    start, with a new visit, income and phase 2; after the last seat, seat 0 and a new
    round."""
    s = staged(3, colours=("red",), active=2, ship="Kalmar", acted_here=1,
               hands={2: {"red1": 4}}, money={0: 0, 1: 0, 2: 0})
    play(s, "end_actions")
    assert StateView(s).phase == TAX and GAME.current_player(s) == 2
    assert money_of(s) == [0, 0, 0], "no income before phase 4 is over"
    play(s, "discard:red1")
    v = StateView(s)
    assert v.active == 0 and GAME.current_player(s) == 0 and v.phase == ACTIONS
    assert v.round == 2 and v.acted_here == 0 and v.ship == CITY["Kalmar"]
    assert money_of(s) == [3, 0, 0]
    play(s, "end_actions")
    assert StateView(s).active == 1 and StateView(s).round == 2


def test_H10_income_three_talers_for_the_active_player_only():
    """H10/HA14: only the player whose turn starts receives 3 talers."""
    s = staged(3, active=0, money={0: 2, 1: 1, 2: 5})
    play(s, "end_actions")
    assert money_of(s) == [2, 1 + 3, 5]
    play(s, "end_actions")
    assert money_of(s) == [2, 3, 5 + 3]


def test_H11_refill_decision_only_when_some_but_not_all_empty():
    """H11: no empty warehouse -> no refill; some empty -> optional (refill/skip_refill),
    and may be skipped turn after turn; all empty -> automatic, mandatory refill;
    never in phase 3."""
    # none empty: straight to actions, refill not offered
    s = staged(2)
    play(s, "end_actions")
    assert StateView(s).phase == ACTIONS
    assert_illegal(s, "refill")
    assert_illegal(s, "skip_refill")
    # some empty: optional, skipped twice in a row
    s = staged(2, warehouses={"Danzig/2": None, "Riga/1": None})
    for seat in (1, 0):
        play(s, "end_actions")
        assert StateView(s).phase == REFILL and GAME.current_player(s) == seat
        assert legal(s) == {"refill", "skip_refill"}
        money = money_of(s)
        play(s, "skip_refill")
        assert StateView(s).phase == ACTIONS
        assert warehouse_of(s, "Danzig/2") is None and warehouse_of(s, "Riga/1") is None
        assert money_of(s) == money
        # refilling is impossible in phase 3
        assert_illegal(s, "refill")
    # all empty: mandatory and automatic, paid by the new active player
    s = staged(2, empty_warehouses=True)
    play(s, "end_actions")
    v = StateView(s)
    assert v.phase == ACTIONS and GAME.current_player(s) == 1
    assert (v.warehouse >= 0).all()
    assert money_of(s) == [3, 3 + 3 - 1]


def test_H12_refill_in_slot_order_across_piles_costs_one_taler_to_bank():
    """H12: pay 1 taler to the bank; lay tokens on the lowest-numbered empty warehouse
    first, from the lowest non-empty pile, continuing into the next pile."""
    piles = [["red1", "red2"], ["green3", "blue2", "brown1"], ["red3"], ["green1"], ["blue1"]]
    empties = ["Aalborg/1", "Copenhagen/2", "Danzig/1", "Riga/2"]  # slot order
    assert [SLOT[w] for w in empties] == sorted(SLOT[w] for w in empties)
    s = staged(4, warehouses={w: None for w in empties}, piles=piles,
               money={0: 3, 1: 0, 2: 7, 3: 1})
    play(s, "end_actions")
    assert StateView(s).phase == REFILL
    total = sum(money_of(s))
    play(s, "refill")
    assert [warehouse_of(s, w) for w in empties] == ["red1", "red2", "green3", "blue2"]
    assert money_of(s) == [3, 0 + 3 - 1, 7, 1]
    assert sum(money_of(s)) == total - 1, "the taler goes to the bank"
    assert pile_sizes_of(s) == [0, 1, 1, 1, 1]
    assert supply_sequence(s) == ["brown1", "red3", "green1", "blue1"]
    assert (StateView(s).warehouse >= 0).all(), "a refill fills all empty warehouses"


def test_H13_HA16_first_draw_from_pile_5_triggers_the_end():
    """H13/HA16: emptying pile 4 does not trigger the end; the first pile-5 draw does."""
    piles = [[], [], [], ["red1"], ["red2", "red3"]]
    s = staged(2, colours=("red",), warehouses={"Reval/1": None}, piles=piles)
    play(s, "end_actions", "refill")
    assert warehouse_of(s, "Reval/1") == "red1"
    assert pile_sizes_of(s)[3] == 0
    assert StateView(s).end_triggered == 0, "pile 4 running out does not trigger"
    empty_slot(s, "Reval/1")
    play(s, "end_actions", "refill")
    assert warehouse_of(s, "Reval/1") == "red2"
    assert StateView(s).end_triggered == 1
    assert not GAME.is_terminal(s)


def test_H14_sailing_is_not_an_action():
    """H14: sail before, between and after actions, as often as paid; sailing does not use
    up the visit's action, and the three kinds are buy, build and sell."""
    s = staged(2, colours=("red",), ship="Copenhagen", money={0: 10},
               hands={0: {"red1": 2}}, stalls={("Copenhagen", 0): 1})
    kinds = {a.split(":")[0] for a in action_kinds(s)}
    assert kinds == {"buy", "build", "sell"}
    play(s, "sail:Lubeck", "sail:Aalborg", "sail:Copenhagen")  # three moves, no action
    assert money_of(s)[0] == 7
    assert StateView(s).acted_here == 0
    assert action_kinds(s), "sailing did not use the action"
    play(s, "build:red1")
    assert legal_of(s, "sail:") == {"sail:Danzig", "sail:Lubeck", "sail:Tonsberg"}
    play(s, "sail:Danzig", "build:red1")
    assert money_of(s)[0] == 6
    assert stalls_at(s, "Copenhagen")[0] == 2 and stalls_at(s, "Danzig")[0] == 1


def test_H15_sailing_follows_arrows_and_costs_one_taler():
    """H15: for every city, the legal moves are exactly its outgoing routes; each costs
    1 taler to the bank; without a taler no move; the next turn starts where the ship is."""
    for city in B.CITIES:
        s = staged(3, ship=city, money={0: 1})
        out = {f"sail:{b}" for a, b in B.ROUTES if a == city}
        assert legal_of(s, "sail:") == out, city
        for c in B.CITIES:
            if f"sail:{c}" not in out:
                assert_illegal(s, f"sail:{c}")
        for a in out:
            t = s.copy()
            play(t, a)
            assert money_of(t) == [0, 3, 3]
            assert StateView(t).ship == CITY[a.split(":")[1]]
    s = staged(3, ship="Copenhagen", money={0: 0})
    assert not legal_of(s, "sail:")
    assert_illegal(s, "sail:Danzig", "taler")
    # the ship stays where the previous player left it
    s = staged(3, ship="Copenhagen", money={0: 2})
    play(s, "sail:Danzig", "sail:Reval", "end_actions")
    assert GAME.current_player(s) == 1 and StateView(s).ship == CITY["Reval"]


def test_H16_tonsberg_stockholm_is_an_ordinary_route():
    """H16/HA18: Tonsberg -> Stockholm is a normal one-way route costing 1 taler."""
    s = staged(2, ship="Tonsberg", money={0: 1})
    assert legal_of(s, "sail:") == {"sail:Stockholm"}
    play(s, "sail:Stockholm")
    assert money_of(s)[0] == 0 and StateView(s).ship == CITY["Stockholm"]
    s = staged(2, ship="Stockholm", money={0: 5})
    assert_illegal(s, "sail:Tonsberg")


def test_H17_actions_happen_where_the_ship_is_including_the_start_city():
    """H17: the start-of-phase-3 city is a visit: one may act there without sailing;
    no action in any other city."""
    s = staged(2, colours=("red",), ship="Riga", active=1,
               hands={0: {"red1": 1}}, stalls={("Riga", 0): 1})
    play(s, "end_actions")  # seat 0's turn starts in Riga
    assert GAME.current_player(s) == 0 and StateView(s).ship == CITY["Riga"]
    assert legal_of(s, "buy:") == {"buy:Riga/1", "buy:Riga/2"}
    assert_illegal(s, "buy:Danzig/1", "Riga")
    play(s, "build:red1")
    assert stalls_at(s, "Riga") == [2, 0]


def test_H18_one_action_per_visit_again_after_sailing_away_and_back():
    """H18: one action per visit; a second one (any kind) is illegal until the ship has
    left and come back, which makes a new visit. Doing nothing on a visit is fine."""
    s = staged(2, colours=("red",), ship="Copenhagen", money={0: 10},
               hands={0: {"red1": 1, "red2": 1}}, stalls={("Copenhagen", 0): 2})
    play(s, "buy:Copenhagen/1")
    assert StateView(s).acted_here == 1
    assert action_kinds(s) == set()
    for a in ("buy:Copenhagen/2", "build:red1", "sell:add:red1"):
        assert_illegal(s, a, "already acted")
    assert "end_actions" in legal(s) and legal_of(s, "sail:")
    play(s, "sail:Lubeck")  # a visit with no action
    play(s, "sail:Aalborg", "sail:Copenhagen")
    assert StateView(s).acted_here == 0
    assert {"buy:Copenhagen/2", "build:red1", "sell:add:red1"} <= action_kinds(s)
    play(s, "build:red2")
    assert_illegal(s, "buy:Copenhagen/2")
    assert_illegal(s, "build:red1")
    # a new turn is a new visit even though the ship did not move (H17)
    play(s, "end_actions", "skip_refill", "end_actions", "skip_refill")
    assert GAME.current_player(s) == 0 and StateView(s).acted_here == 0
    assert "buy:Copenhagen/2" in legal(s)


@pytest.mark.parametrize("stalls,payee", [
    ({1: 3, 2: 1}, 1),                 # opponent strict majority -> him
    ({1: 3, 2: 2, 0: 2}, 1),           # strictly more than every other
    ({1: 2, 2: 2}, None),              # tie between opponents -> bank
    ({0: 2, 1: 2}, None),              # tie including the buyer -> bank
    ({0: 1, 1: 3, 2: 3}, None),        # tie at the top -> bank
    ({}, None),                        # nobody -> bank
    ({0: 3, 1: 2}, "free"),            # own majority -> free
    ({0: 1}, "free"),                  # alone there -> free
])
def test_H19_purchase_price_goes_to_majority_or_bank(stalls, payee):
    """H19: 1 taler to the strict majority holder; the bank on a tie or when nobody has
    stalls; free with one's own majority."""
    s = staged(3, ship="Danzig", money={0: 2, 1: 2, 2: 2},
               stalls={("Danzig", p): k for p, k in stalls.items()})
    token = warehouse_of(s, "Danzig/1")
    play(s, "buy:Danzig/1")
    expected = [2, 2, 2]
    if payee != "free":
        expected[0] -= 1
        if payee is not None:
            expected[payee] += 1
    assert money_of(s) == expected
    assert hand_of(s, 0) == {token: 1}
    assert warehouse_of(s, "Danzig/1") is None
    assert warehouse_of(s, "Danzig/2") is not None, "only one token per purchase"


def test_H19_no_money_and_choice_of_warehouse():
    """H19: with a price of 1 and no taler the purchase is illegal, but a free purchase
    (own majority) is still legal; in a two-warehouse city the buyer picks either; an
    empty warehouse cannot be bought from; no second token in the same visit."""
    s = staged(2, ship="Danzig", money={0: 0}, stalls={("Danzig", 1): 1})
    assert not legal_of(s, "buy:")
    assert_illegal(s, "buy:Danzig/1", "taler")
    s = staged(2, ship="Danzig", money={0: 0}, stalls={("Danzig", 0): 1},
               warehouses={"Danzig/1": None})
    assert legal_of(s, "buy:") == {"buy:Danzig/2"}
    assert_illegal(s, "buy:Danzig/1", "empty")
    s = staged(2, ship="Danzig", money={0: 0}, stalls={("Danzig", 0): 1})
    assert legal_of(s, "buy:") == {"buy:Danzig/1", "buy:Danzig/2"}
    t2 = warehouse_of(s, "Danzig/2")
    play(s, "buy:Danzig/2")
    assert hand_of(s, 0) == {t2: 1} and money_of(s) == [0, 3]
    assert warehouse_of(s, "Danzig/1") is not None
    assert_illegal(s, "buy:Danzig/1")


@pytest.mark.parametrize("token,placed", [("blue1", 1), ("blue2", 2), ("blue3", 3)])
def test_H20_build_places_as_many_stalls_as_barrels(token, placed):
    """H20: the token leaves the game (no talers), and that many stalls go to the city."""
    s = staged(2, colours=("blue",), ship="Kalmar", money={0: 1},
               hands={0: {token: 1}}, stalls={("Kalmar", 0): 1})
    removed = removed_count(s, token)
    play(s, f"build:{token}")
    assert hand_of(s, 0) == {}
    assert removed_count(s, token) == removed + 1
    assert stalls_at(s, "Kalmar") == [1 + placed, 0]
    assert StateView(s).stall_supply[0] == 15 - 1 - placed
    assert money_of(s) == [1, 3]
    GAME.validate_state(s)


def test_H20_HA8_HA11_build_capped_by_supply_and_per_stall_option():
    """H20/HA8/HA11: a 3-barrel token with 2 stalls left places 2; with none left building
    is illegal; option per_stall places 1 per token; Copenhagen allowed; no city limit."""
    s = staged(2, colours=("blue",), ship="Copenhagen",
               hands={0: {"blue3": 2}}, stalls={("Copenhagen", 0): 13})
    play(s, "build:blue3")
    assert stalls_at(s, "Copenhagen")[0] == 15 and StateView(s).stall_supply[0] == 0
    assert hand_of(s, 0) == {"blue3": 1}
    play(s, "sail:Danzig")
    assert not legal_of(s, "build:")
    assert_illegal(s, "build:blue3", "no stalls")
    s = staged(2, colours=("blue",), ship="Copenhagen", build_rule="per_stall",
               hands={0: {"blue3": 1}})
    play(s, "build:blue3")
    assert stalls_at(s, "Copenhagen") == [1, 0]
    assert hand_of(s, 0) == {} and StateView(s).stall_supply[0] == 14


def test_H21_sell_conditions():
    """H21/HA9: selling needs a stall in the city and >= 2 tokens of every colour sold;
    several colours in one sale; any subset with >= 2 per chosen colour."""
    hand = {"red1": 1, "red2": 2, "green3": 2, "blue1": 1}
    # no stall in the city: no sale
    s = staged(4, ship="Lubeck", hands={0: hand}, stalls={("Lubeck", 1): 3})
    assert not legal_of(s, "sell:")
    assert_illegal(s, "sell:add:red1", "stall")
    # with a stall: only colours with >= 2 tokens
    s = staged(4, ship="Lubeck", hands={0: hand}, stalls={("Lubeck", 0): 1})
    assert legal_of(s, "sell:") == {"sell:add:red1", "sell:add:red2", "sell:add:green3"}
    assert_illegal(s, "sell:add:blue1", "two")
    play(s, "sell:add:red1")
    v = StateView(s)
    assert v.phase == SELLING and GAME.current_player(s) == 0
    # one red selected: not yet a valid sale; no other decisions mid-sale
    assert "sell:done" not in legal(s)
    assert_illegal(s, "sell:done")
    assert_illegal(s, "end_actions")
    assert_illegal(s, "sail:Aalborg")
    assert legal(s) == {"sell:add:red2", "sell:add:green3"}
    play(s, "sell:add:red2")
    assert "sell:done" in legal(s)
    play(s, "sell:add:green3")
    assert "sell:done" not in legal(s), "green needs two selected tokens too"
    play(s, "sell:add:green3", "sell:done")
    # a subset: one red2 kept
    assert sold_of(s, 0) == {"red1": 1, "red2": 1, "green3": 2}
    assert hand_of(s, 0) == {"red2": 1, "blue1": 1}


def test_H21_reason_mid_sale_names_the_two_token_condition():
    """H21 + docs/design.md §3 (IllegalActionError names the action and the reason):
    mid-sale, adding a held token of a colour with fewer than two tokens is illegal
    because of H21, not because no such token is left."""
    s = staged(4, ship="Lubeck", hands={0: {"red1": 1, "red2": 1, "blue1": 1}},
               stalls={("Lubeck", 0): 1})
    play(s, "sell:add:red1")
    assert "sell:add:blue1" not in legal(s)
    assert_illegal(s, "sell:add:blue1", "two")


def test_HA9_sale_selection_never_dead_ends():
    """HA9: any subset with >= 2 tokens per chosen colour; from every reachable
    selection some decision is legal and sell:done stays reachable; every finished sale
    sells >= 2 tokens of each colour it contains."""
    hand = {"red1": 1, "red2": 2, "green3": 2, "blue1": 1, "yellow2": 3}
    s0 = staged(4, ship="Lubeck", hands={0: hand}, stalls={("Lubeck", 0): 1})
    seen = {}

    def done_reachable(s) -> bool:
        key = s.tobytes()
        if key in seen:
            return seen[key]
        acts = legal(s)
        assert acts, "dead end in a sale"
        assert acts <= {f"sell:add:{t}" for t in hand} | {"sell:done"}
        ok = False
        for a in sorted(acts):
            t = s.copy()
            play(t, a)
            if a == "sell:done":
                sold = sold_of(t, 0)
                per_colour = {}
                for name, k in sold.items():
                    per_colour[name[:-1]] = per_colour.get(name[:-1], 0) + k
                assert all(k >= 2 for k in per_colour.values()), sold
                assert all(hand[name] >= k for name, k in sold.items())
                ok = True
            else:
                ok = done_reachable(t) or ok
        seen[key] = ok
        return ok

    starts = legal_of(s0, "sell:add:")
    assert starts == {f"sell:add:{t}" for t in ("red1", "red2", "green3", "yellow2")}
    for a in starts:
        s = s0.copy()
        play(s, a)
        assert done_reachable(s)
    assert len(seen) > 20


def test_H22_sale_effects_one_stall_back_no_money():
    """H22: sold tokens go to the sold pile and count for nothing else; exactly one stall
    returns whatever was sold; no talers change hands."""
    s = staged(3, colours=("red", "green", "yellow"), ship="Stockholm", money={0: 1, 1: 4, 2: 0},
               hands={0: {"red1": 2, "green2": 3, "yellow3": 2}},
               stalls={("Stockholm", 0): 3, ("Stockholm", 1): 1})
    for t in ("red1", "red1", "green2", "green2", "green2", "yellow3", "yellow3"):
        play(s, f"sell:add:{t}")
    play(s, "sell:done")
    assert sold_of(s, 0) == {"red1": 2, "green2": 3, "yellow3": 2}
    assert hand_of(s, 0) == {}
    assert stalls_at(s, "Stockholm") == [2, 1, 0]
    assert StateView(s).stall_supply[0] == 15 - 2
    assert money_of(s) == [1, 4, 0]
    # sold tokens cannot be used: nothing to build with on the next visit
    play(s, "sail:Kalmar")
    assert not legal_of(s, "build:") and not legal_of(s, "sell:")
    # selling the last stall in a city empties it
    s = staged(2, colours=("red",), ship="Riga", hands={0: {"red1": 2}},
               stalls={("Riga", 0): 1})
    play(s, "sell:add:red1", "sell:add:red1", "sell:done")
    assert stalls_at(s, "Riga") == [0, 0] and StateView(s).stall_supply[0] == 15


def test_H23_loss_decision_for_the_opponent_only_that_colour():
    """H23: an opponent holding the sold colour in different barrels decides which to lose
    (current_player is that opponent, only tokens of that colour are legal); an opponent
    whose tokens of that colour are identical loses one automatically; one token per colour
    however many were sold; opponents without the colour and the seller lose nothing."""
    s = staged(4, ship="Danzig",
               hands={0: {"red1": 2, "red3": 2, "blue1": 1},
                      1: {"red2": 1, "red3": 1, "blue2": 2},
                      2: {"red2": 2, "green1": 1},
                      3: {"blue3": 1}},
               sold={3: {"red1": 2}},
               stalls={("Danzig", 0): 1})
    play(s, "sell:add:red1", "sell:add:red1", "sell:add:red3", "sell:add:red3", "sell:done")
    v = StateView(s)
    assert v.phase == LOSS and GAME.current_player(s) == 1 and v.active == 0
    assert legal(s) == {"discard:red2", "discard:red3"}
    obs = GAME.observe(s, 1)
    assert obs[GAME.obs_names.index("loss_colour=red")] == 1.0
    assert obs[GAME.obs_names.index("phase=loss")] == 1.0
    for a in ("discard:blue2", "discard:red1", "end_actions", "sail:Kalmar"):
        assert_illegal(s, a)
    assert hand_of(s, 2) == {"red2": 2, "green1": 1}, "seat 2 not processed before seat 1 decides"
    play(s, "discard:red3")
    assert hand_of(s, 1) == {"red2": 1, "blue2": 2}, "one red lost although four sold"
    assert hand_of(s, 2) == {"red2": 1, "green1": 1}, "identical barrels: automatic"
    assert hand_of(s, 0) == {"blue1": 1}
    assert hand_of(s, 3) == {"blue3": 1} and sold_of(s, 3) == {"red1": 2}, (
        "sold (face-down) tokens are not held: no loss")
    assert StateView(s).phase == ACTIONS and GAME.current_player(s) == 0
    GAME.validate_state(s)


def test_H23_HA10_losers_decide_in_seat_order_after_the_seller():
    """H23/HA10: with seat 2 of 4 selling, the opponents decide in order 3, 0, 1; an
    opponent with two sold colours decides them in ascending colour order."""
    mixed = {"orange1": 1, "orange2": 1}
    s = staged(4, ship="Aalborg", active=2,
               hands={2: {"orange3": 2, "brown3": 2},
                      3: mixed, 0: {**mixed, "brown1": 1, "brown2": 1}, 1: mixed},
               stalls={("Aalborg", 2): 2})
    play(s, "sell:add:orange3", "sell:add:orange3", "sell:add:brown3", "sell:add:brown3",
         "sell:done")
    decisions = []
    while StateView(s).phase == LOSS:
        p = GAME.current_player(s)
        colour = B.COLOURS[StateView(s).loss_colour]
        decisions.append((p, colour))
        options = sorted(legal(s))
        assert all(o.startswith(f"discard:{colour}") for o in options)
        play(s, options[0])
    assert decisions == [(3, "orange"), (0, "orange"), (0, "brown"), (1, "orange")]
    assert GAME.current_player(s) == 2 and StateView(s).phase == ACTIONS
    for p in (3, 0, 1):
        assert hand_of(s, p).get("orange2") == 1 and "orange1" not in hand_of(s, p)
    assert hand_of(s, 0) == {"orange2": 1, "brown2": 1}


def test_H24_tax_three_talers_and_three_tokens():
    """H24/HA12: at the end of his turn the player keeps at most 3 talers (automatic) and
    at most 3 held tokens (he chooses the discards, any held type); sold tokens do not
    count; the next turn starts only after the discards."""
    hand = {"red1": 2, "orange2": 1, "yellow3": 1, "green1": 1}
    s = staged(4, money={0: 7}, hands={0: hand}, sold={0: {"blue1": 4}})
    play(s, "end_actions")
    v = StateView(s)
    assert v.phase == TAX and GAME.current_player(s) == 0 and v.active == 0
    assert money_of(s)[0] == 3
    assert legal(s) == {f"discard:{t}" for t in hand}
    assert_illegal(s, "discard:blue1")
    assert_illegal(s, "end_actions")
    play(s, "discard:red1")
    assert StateView(s).phase == TAX
    play(s, "discard:green1")
    assert hand_of(s, 0) == {"red1": 1, "orange2": 1, "yellow3": 1}
    assert sold_of(s, 0) == {"blue1": 4}
    assert GAME.current_player(s) == 1 and StateView(s).phase == ACTIONS
    assert money_of(s)[0] == 3
    # exactly three tokens and few talers: nothing happens
    s = staged(4, money={0: 2}, hands={0: {"red1": 3}})
    play(s, "end_actions")
    assert GAME.current_player(s) == 1 and money_of(s)[0] == 2
    assert hand_of(s, 0) == {"red1": 3}


def test_H24_limits_only_in_own_phase_4():
    """H24: talers and tokens above 3 are allowed at other times (e.g. received during
    another player's turn, or held mid-turn) and are cut only in one's own phase 4."""
    s = staged(2, colours=("red",), ship="Danzig", money={0: 3, 1: 3},
               stalls={("Danzig", 1): 2},
               hands={0: {"red1": 3}})
    play(s, "buy:Danzig/1")  # pays seat 1 -> 4 talers
    assert money_of(s) == [2, 4]
    assert sum(hand_of(s, 0).values()) == 4
    play(s, "sail:Kalmar")
    assert StateView(s).phase == ACTIONS, "4 held tokens mid-turn are fine"
    play(s, "end_actions", "discard:red1")
    assert money_of(s) == [1, 4 + 3], "seat 1 keeps the extra taler until his phase 4"
    play(s, "skip_refill", "end_actions")
    assert money_of(s)[1] == 3


def test_H26_a_turn_is_a_sequence_of_decisions():
    """H26 (not a rule): the turn is played as single decisions by current_player: the
    active player, except opponents choosing losses; every decision is one step."""
    s = staged(2, colours=("red",), ship="Copenhagen", money={0: 5},
               hands={0: {"red1": 2, "red2": 1}, 1: {"red1": 1, "red3": 1}},
               stalls={("Copenhagen", 0): 1})
    script = [("sail:Lubeck", 0), ("buy:Lubeck/1", 0), ("sail:Aalborg", 0),
              ("sail:Copenhagen", 0), ("sell:add:red1", 0), ("sell:add:red1", 0),
              ("sell:done", 0), ("discard:red3", 1), ("end_actions", 0)]
    for action, decider in script:
        assert GAME.current_player(s) == decider, action
        assert action in legal(s), action
        play(s, action)
        GAME.validate_state(s)
    assert GAME.current_player(s) == 1 and StateView(s).active == 1
    assert hand_of(s, 1) == {"red1": 1}


def test_H27_mandatory_refill_can_trigger_the_end_too():
    """H27: starting pile 5 in phase 2 triggers the end, also in an automatic (all
    warehouses empty) refill; nothing else triggers it."""
    s = staged(2, empty_warehouses=True, piles=[[], [], [], [], []])
    v = StateView(s)
    # all warehouses empty, piles: 10 tokens in pile 4 and 4 in pile 5 (built by hand)
    seq = [t for t in range(B.NUM_TOKEN_TYPES) for _ in range(int(v.removed.reshape(-1)[t]))
           if v.colour_in_play[t // 3]][:14]
    for t in seq:
        v.removed.reshape(-1)[t] -= 1
    v.supply[:14] = seq
    v.pile_end = [0, 0, 0, 10, 14]
    GAME.validate_state(s)
    play(s, "sail:Danzig", "sail:Kalmar")
    assert StateView(s).end_triggered == 0, "actions and sailing never trigger"
    play(s, "end_actions")
    # seat 1: all 14 empty -> automatic refill draws pile 4 then all of pile 5
    assert StateView(s).phase == ACTIONS and GAME.current_player(s) == 1
    assert StateView(s).end_triggered == 1
    assert (StateView(s).warehouse >= 0).all()
    assert list(StateView(s).warehouse) == seq


@pytest.mark.parametrize("trigger_seat,more_turns", [(0, [1, 2, 3]), (1, [2, 3]), (2, [3]),
                                                     (3, [])])
def test_H28_last_round_is_completed(trigger_seat, more_turns):
    """H28/E9: 4 players; after the triggering turn the seats up to seat 3 still play;
    then the game ends (at once if seat 3 triggered); every seat had the same turns."""
    s = staged(4, colours=("red",), active=(trigger_seat - 1) % 4,
               warehouses={"Kalmar/1": None}, piles=[[], [], [], [], ["red1"]])
    play(s, "end_actions", "refill")
    assert GAME.current_player(s) == trigger_seat and StateView(s).end_triggered == 1
    round_ = StateView(s).round
    play(s, "end_actions")
    seen = []
    while not GAME.is_terminal(s):
        seen.append(GAME.current_player(s))
        play(s, "end_actions")
    assert seen == more_turns
    assert StateView(s).phase == GAME_OVER and StateView(s).round == round_
    assert GAME.legal_actions(s) == []
    assert not GAME.is_truncated(s)


def test_H29_scoring():
    """H29: held 1 VP each; sold 1 + barrels; 2 VP per city with a stall, 4 if alone."""
    s = staged(3, colours=("red", "blue", "green", "yellow", "orange"),
               hands={0: {"red3": 1, "blue1": 2}, 1: {"green2": 1}},
               sold={0: {"red1": 1, "red2": 2, "yellow3": 1}, 2: {"orange3": 3}},
               stalls={("Danzig", 0): 5, ("Danzig", 1): 1, ("Riga", 0): 1,
                       ("Kalmar", 2): 9, ("Reval", 1): 1, ("Reval", 2): 1})
    held0 = 3
    sold0 = 2 + 3 + 3 + 4
    cities0 = 2 + 4  # Danzig shared, Riga alone (stall counts do not matter)
    assert list(GAME.scores(s)) == [held0 + sold0 + cities0,
                                    1 + 2 + 2,          # green2 held, Danzig, Reval
                                    3 * 4 + 4 + 2]      # sold orange3 x3, Kalmar alone, Reval
    # scores are defined in every state and in the observation
    obs = GAME.observe(s, 1)  # relative seats: p0 = seat 1, p1 = seat 2, p2 = seat 0
    assert obs[GAME.obs_names.index("p0:score")] == pytest.approx(5 / 100)
    assert obs[GAME.obs_names.index("p1:score")] == pytest.approx(18 / 100)
    assert obs[GAME.obs_names.index("p2:score")] == pytest.approx(21 / 100)


def test_H30_winner_tie_break_by_stalls_then_shared():
    """H30: most VP; tie -> most stalls on the board; still tied -> shared victory."""
    # seat 0 and 1 both 4 VP (two shared cities); seat 1 has more stalls -> wins
    base = {("Danzig", 0): 1, ("Danzig", 1): 3, ("Riga", 0): 1, ("Riga", 1): 1}
    s = staged(3, stalls=base)
    assert list(GAME.scores(s)) == [4, 4, 0]
    assert GAME.winners(s) == [1]
    assert list(GAME.returns(s)) == [0.0, 1.0, 0.0]
    # more VP beats more stalls
    s = staged(3, colours=("red",), stalls=base, hands={0: {"red1": 1}})
    assert GAME.winners(s) == [0]
    # equal VP and equal stalls -> shared
    s = staged(4, stalls={("Danzig", 0): 2, ("Danzig", 1): 2, ("Danzig", 2): 1,
                          ("Danzig", 3): 2})
    assert GAME.winners(s) == [0, 1, 3]
    assert list(GAME.returns(s)) == pytest.approx([1 / 3, 1 / 3, 0, 1 / 3])
    # a tie-break on stalls where the higher stall count appears first in seat order
    s = staged(3, stalls={("Danzig", 0): 4, ("Danzig", 1): 1, ("Danzig", 2): 1})
    assert GAME.winners(s) == [0]


# ============================================ decisions (docs/rules/hansa.md §7-§8)


def test_DESIGN_map_routes_and_warehouses():
    """HA1/HA2/HA3: six colours (names used in action names); 9 cities, 14 warehouse
    slots (two in Lubeck, Copenhagen, Danzig, Stockholm, Riga), 13 one-way routes, none
    two-way, strongly connected."""
    assert B.COLOURS == ("red", "orange", "yellow", "green", "blue", "brown")
    assert len(B.CITIES) == 9
    two = {c for c, k in B.WAREHOUSES if k == 2}
    assert {B.CITIES[c] for c in two} == {"Lubeck", "Copenhagen", "Danzig", "Stockholm", "Riga"}
    assert len(SLOT) == 14 and len(set(B.ROUTES)) == 13
    assert not any((b, a) in B.ROUTES for a, b in B.ROUTES)
    for start in B.CITIES:
        seen, todo = {start}, [start]
        while todo:
            a = todo.pop()
            for x, y in B.ROUTES:
                if x == a and y not in seen:
                    seen.add(y)
                    todo.append(y)
        assert seen == set(B.CITIES), start
    # E4, E5, E8 facts
    for r in [("Lubeck", "Aalborg"), ("Aalborg", "Copenhagen"), ("Copenhagen", "Danzig"),
              ("Tonsberg", "Stockholm"), ("Stockholm", "Reval"), ("Copenhagen", "Tonsberg")]:
        assert r in B.ROUTES
    # Kalmar has only one outgoing route
    assert [b for a, b in B.ROUTES if a == "Kalmar"] == ["Copenhagen"]


def test_DESIGN_action_names_are_a_stable_bijection():
    assert A.NUM_ACTIONS == 90 == GAME.num_actions
    assert len(set(A.NAMES)) == A.NUM_ACTIONS
    for i, n in enumerate(A.NAMES):
        assert A.from_name(n) == i == GAME.action_id(n)
        assert GAME.action_name(i) == n
    for n in ("sail:Lubeck", "buy:Danzig/1", "build:red3", "sell:add:red2", "sell:done",
              "end_actions", "refill", "skip_refill", "setup:Kalmar", "discard:blue1"):
        assert n in A.NAMES
    with pytest.raises(ValueError):
        GAME.step(post_setup(2), "sail:Atlantis")


def test_HA15_exhausted_supply():
    """HA15: when the piles run dry the remaining warehouses stay empty; the taler is paid
    only if a token is placed; a mandatory refill with nothing to draw is skipped."""
    # partial refill: 1 token for 3 empty slots
    s = staged(2, colours=("red",), warehouses={"Aalborg/1": None, "Kalmar/1": None,
                                                 "Reval/1": None},
               piles=[[], [], [], [], ["red2"]], end_triggered=0)
    play(s, "end_actions")
    assert StateView(s).phase == REFILL
    play(s, "refill")
    assert [warehouse_of(s, w) for w in ("Aalborg/1", "Kalmar/1", "Reval/1")] == [
        "red2", None, None]
    assert money_of(s)[1] == 3 + 3 - 1 and StateView(s).end_triggered == 1
    # no supply left, some warehouses empty: no refill decision at all
    s = staged(2, warehouses={"Aalborg/1": None}, piles=[[]] * 5, end_triggered=1)
    play(s, "end_actions")
    assert StateView(s).phase == ACTIONS and money_of(s)[1] == 6
    # no supply left, all warehouses empty: the mandatory refill is skipped, no taler paid
    s = staged(2, empty_warehouses=True, piles=[[]] * 5, end_triggered=1)
    play(s, "end_actions")
    assert StateView(s).phase == ACTIONS and money_of(s)[1] == 6
    assert (StateView(s).warehouse < 0).all()
    assert not legal_of(s, "buy:")


def test_HA13_bank_unlimited():
    """HA13: the bank never runs out: income and payments work with any totals."""
    s = staged(4, money={0: 40, 1: 40, 2: 40, 3: 40})
    play(s, "end_actions")
    assert money_of(s) == [3, 43, 40, 40]


def test_HA17_observation_hides_pile_order_only():
    """HA17: pile sizes are public, pile contents/order are not; hands, sold piles, money
    and stalls of every seat are public (relative seats)."""
    s = staged(3, colours=("red", "blue"), hands={1: {"red2": 1}}, sold={2: {"blue3": 1}},
               money={1: 7}, stalls={("Danzig", 2): 4})
    t = s.copy()
    v = StateView(t)
    seq = v.supply[: v.pile_end[4]].copy()
    v.supply[: v.pile_end[4]] = seq[::-1]
    GAME.validate_state(t)
    names = GAME.obs_names
    for p in range(3):
        assert (GAME.observe(s, p) == GAME.observe(t, p)).all()
    o = GAME.observe(s, 0)
    assert o[names.index("p1:hand:red2")] == pytest.approx(1 / 5)
    assert o[names.index("p2:sold:blue3")] == pytest.approx(1 / 5)
    assert o[names.index("p1:money")] == pytest.approx(7 / 10)
    assert o[names.index("p2:stalls@Danzig")] == pytest.approx(4 / 15)
    sizes = pile_sizes_of(s)
    for k in range(5):
        assert o[names.index(f"pile{k + 1}_size")] == pytest.approx(sizes[k] / 13)
    o1 = GAME.observe(s, 1)
    assert o1[names.index("p0:hand:red2")] == pytest.approx(1 / 5), "relative seats"


# ============================================================== contract: caps, masks, replay


def test_round_cap_truncates():
    """Round cap: when seat 0 would start round max_rounds + 1, the game ends truncated."""
    s = staged(3, max_rounds=2, round=1, active=0)
    for _ in range(3):
        play(s, "end_actions")
    assert StateView(s).round == 2 and GAME.current_player(s) == 0
    for _ in range(2):
        play(s, "end_actions")
    assert not GAME.is_terminal(s)
    play(s, "end_actions")
    assert GAME.is_terminal(s) and GAME.is_truncated(s)
    assert GAME.current_player(s) == -1 and GAME.legal_actions(s) == []
    # a normal end is not a truncation, also when it falls in the last allowed round
    s = staged(2, active=1, end_triggered=1)
    play(s, "end_actions")
    assert GAME.is_terminal(s) and not GAME.is_truncated(s)
    s = staged(2, active=1, end_triggered=1, round=5, max_rounds=5)
    play(s, "end_actions")
    assert GAME.is_terminal(s) and not GAME.is_truncated(s)
    with pytest.raises(ValueError):
        GAME.new_state(2, 0, build_rule="dutch")
    with pytest.raises(ValueError):
        GAME.new_state(2, 0, max_rounds=0)


def test_round_cap_one_round_from_new_state():
    """max_rounds=1: after seat 0 and seat 1 have played one turn each, truncation."""
    s = post_setup(2, 3, max_rounds=1)
    play(s, "end_actions", "end_actions")
    assert GAME.is_truncated(s) and StateView(s).turns == 2


def check_mask_step_consistency(state) -> None:
    """Every legal action steps (to a valid state); every other raises naming itself."""
    mask = GAME.legal_mask(state)
    assert mask.shape == (A.NUM_ACTIONS,)
    acts = GAME.legal_actions(state)
    assert acts == [int(a) for a in np.flatnonzero(mask)]
    if not GAME.is_terminal(state):
        assert acts, "live state with no legal action"
    for a in range(A.NUM_ACTIONS):
        t = state.copy()
        if mask[a]:
            GAME.step(t, a)
            GAME.validate_state(t)
        else:
            with pytest.raises(IllegalActionError) as err:
                GAME.step(t, a)
            assert A.NAMES[a] in str(err.value)
            assert (t == state).all()


def random_game(num_players, seed, visit=None, max_steps=20_000, **options):
    rng = np.random.default_rng(seed)
    s = GAME.new_state(num_players, seed, **options)
    steps = 0
    while not GAME.is_terminal(s):
        if visit is not None:
            visit(s, steps)
        acts = GAME.legal_actions(s)
        GAME.step(s, int(rng.choice(acts)))
        steps += 1
        assert steps < max_steps
    return s, steps


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_mask_step_consistency_along_random_games(num_players):
    """legal_mask == legal_actions; all legal actions step, all others raise with the
    action's name and leave the state unchanged; checked along random games that visit
    every phase (LOSS needs 3+ players to come up reliably)."""
    phases = set()

    def visit(s, i):
        v = StateView(s)
        phases.add(v.phase)
        GAME.validate_state(s)
        # who decides: the active player, except an opponent in LOSS
        if v.phase == LOSS:
            assert GAME.current_player(s) != v.active
        elif v.phase != SETUP:
            assert GAME.current_player(s) == v.active
        if i % 7 == 0 or v.phase in (LOSS, TAX, SELLING, REFILL):
            check_mask_step_consistency(s)

    for seed in range(1000 + num_players, 1003 + num_players):
        s, _ = random_game(num_players, seed, visit)
        check_mask_step_consistency(s)
        phases.add(StateView(s).phase)
        for a in range(A.NUM_ACTIONS):
            assert_illegal(s, A.NAMES[a], "over")
    expected = {SETUP, REFILL, ACTIONS, SELLING, TAX, GAME_OVER}
    if num_players > 2:
        expected.add(LOSS)
    assert expected <= phases


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_end_and_replay_exactly(num_players):
    """Random legal play reaches the end (H27/H28 or the cap); the final state replays
    exactly from (seed, actions); tokens and stalls stay conserved."""
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = GAME.new_state(num_players, seed)
        history = []
        while not GAME.is_terminal(s):
            a = int(rng.choice(GAME.legal_actions(s)))
            GAME.step(s, a)
            history.append(a)
        GAME.validate_state(s)
        v = StateView(s)
        if not GAME.is_truncated(s):
            assert v.end_triggered == 1
            assert v.turns % num_players == 0, "H28: everybody had the same number of turns"
        assert (GAME.replay(num_players, seed, history) == s).all()
        w = GAME.winners(s)
        assert w and abs(sum(GAME.returns(s)) - 1.0) < 1e-9


def test_illegal_ids_and_names():
    s = post_setup(2)
    for bad in (-1, A.NUM_ACTIONS, 10_000):
        before = s.copy()
        with pytest.raises(IllegalActionError, match=str(bad)):
            GAME.step(s, bad)
        assert (s == before).all()
    with pytest.raises(ValueError, match="nope"):
        GAME.step(s, "nope")


# ============================================ project variants (docs/rules/hansa.md §6)


def test_HA21_seat_talers_add_to_the_start_money_by_seat():
    """HA21: seat p starts with 3 + seat_talers[p] talers (seat 0 = the start player); the
    kernel and the reference agree; the default gives everyone 3."""
    from hansa_env.reference import HansaGame

    s = GAME.new_state(4, 3, seat_talers=(0, 1, 2, 5))
    assert money_of(s) == [3, 4, 5, 8]
    ref = HansaGame(4, 3, seat_talers=(0, 1, 2, 5))
    np.testing.assert_array_equal(s, ref.to_state())
    assert money_of(GAME.new_state(4, 3)) == [3, 3, 3, 3]
    # a schedule longer than the table: entries past the last seat are not used
    s = GAME.new_state(2, 3, seat_talers=[0, 2, 9, 9])
    assert money_of(s) == [3, 5] and not StateView(s).money[2:].any()
    # seat 2's bonus is there at its first turn (income on top), and taxed away after it
    s = post_setup(3, 4, seat_talers=(0, 0, 4))
    play(s, "end_actions", "end_actions")           # seats 0 and 1 (full market: no refill)
    assert StateView(s).active == 2 and StateView(s).phase == ACTIONS
    assert money_of(s) == [3, 3, 3 + 4 + B.INCOME]
    play(s, "end_actions")
    assert money_of(s)[2] == B.TAX_MONEY_LIMIT      # H24 caps it like any money


def test_HA22_seat_vp_counts_in_scores_observation_and_winner():
    """HA22: seat_vp[p] is added to seat p's score (H29), in the observation too, and the
    winner (H30) is decided on the compensated score before the stall tie-break."""
    from hansa_env.reference import HansaGame

    s = GAME.new_state(3, 1, seat_vp=(0, 2, 5))
    assert list(StateView(s).seat_vp) == [0, 2, 5, 0]
    assert list(GAME.scores(s)) == [0, 2, 5]
    assert GAME.observe(s, 0)[GAME.obs_names.index("p2:score")] == pytest.approx(5 / 100)
    np.testing.assert_array_equal(s, HansaGame(3, 1, seat_vp=(0, 2, 5)).to_state())
    # raw scores 4 and 4, seat 1 has more stalls: seat 1 wins (H30) ...
    base = {("Danzig", 0): 1, ("Danzig", 1): 3, ("Riga", 0): 1, ("Riga", 1): 1}
    s = staged(3, stalls=base)
    assert GAME.winners(s) == [1]
    # ... one compensating VP for seat 0 flips the winner
    StateView(s).seat_vp[0] = 1
    assert list(GAME.scores(s)) == [5, 4, 0] and GAME.winners(s) == [0]
    ref = HansaGame.from_state(s)
    assert ref.scores() == [5, 4, 0] and ref.winners() == [0]
    # a shared victory (equal VP, equal stalls) goes to the compensated seat alone
    s = staged(4, stalls={("Danzig", 0): 2, ("Danzig", 1): 2, ("Danzig", 2): 1,
                          ("Danzig", 3): 2})
    assert GAME.winners(s) == [0, 1, 3]
    StateView(s).seat_vp[3] = 1
    GAME.validate_state(s)
    assert GAME.winners(s) == [3] and list(GAME.returns(s)) == [0, 0, 0, 1]
    assert HansaGame.from_state(s).winners() == [3]


def test_HA21_HA22_whole_games_end_with_the_bonus_in_the_score():
    """A played-out game: the final score of every seat is its raw score plus seat_vp."""
    rng = np.random.default_rng(0)
    plain = GAME.new_state(3, 8)
    comp = GAME.new_state(3, 8, seat_vp=(0, 4, 9))
    while not GAME.is_terminal(plain):
        a = int(rng.choice(GAME.legal_actions(plain)))
        GAME.step(plain, a)
        GAME.step(comp, a)
    assert GAME.is_terminal(comp)
    assert list(GAME.scores(comp)) == list(GAME.scores(plain) + [0, 4, 9])


@pytest.mark.parametrize("options, message", [
    ({"seat_vp": (0, -1)}, r"seat_vp\[1\]=-1 must be in 0\.\.1000"),
    ({"seat_vp": (0, 0.5)}, r"seat_vp\[1\]=0\.5 is not a whole number"),
    ({"seat_talers": "0,1"}, "seat_talers must be a list of integers"),
    ({"seat_talers": (0, True)}, r"seat_talers\[1\]=True is not a whole number"),
    ({"seat_talers": (0, 1, 2, 3, 4)}, "seat_talers has 5 entries; at most 4"),
    ({"seat_talers": (0, 101)}, r"seat_talers\[1\]=101 must be in 0\.\.100"),
])
def test_HA21_HA22_bad_option_values_are_named(options, message):
    import tradewinds
    from hansa_env.reference import HansaGame

    for call in (lambda: GAME.new_state(2, 0, **options),
                 lambda: GAME.resolve_options(options),
                 lambda: tradewinds.make("hansa", **options),
                 lambda: HansaGame(2, 0, **options)):
        with pytest.raises(ValueError, match=message):
            call()


def test_HA21_HA22_a_schedule_shorter_than_the_table_is_refused():
    import tradewinds
    from hansa_env.reference import HansaGame

    message = "seat_vp has 2 entries for a 3-player game"
    for call in (lambda: GAME.new_state(3, 0, seat_vp=(0, 1)),
                 lambda: tradewinds.make("hansa", num_players=3, seat_vp=(0, 1)),
                 lambda: HansaGame(3, 0, seat_vp=(0, 1))):
        with pytest.raises(ValueError, match=message):
            call()
    GAME.new_state(2, 0, seat_vp=(0, 1))          # fine for two players
