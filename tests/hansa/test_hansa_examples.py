"""Golden tests: the worked examples E1-E11 of docs/rules/hansa.md, played on the kernel.

Seat names follow the rulebook where it names players: in 3-player examples grey is
seat 0, yellow seat 1, purple seat 2 (seat 0 starts, HA7). Each test states the
assumptions the rules doc lists for that example.
"""

from __future__ import annotations

import pytest

from hansa_env import GAME
from hansa_env import board as B
from hansa_env.state import ACTIONS, LOSS, REFILL, SELLING, SETUP, StateView
from tests.helpers.hansa_helpers import (
    SLOT,
    colours_in_play,
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

GREY, YELLOW, PURPLE = 0, 1, 2


# ---------------------------------------------------------------- E1, E2 (setup)


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_E1_first_warehouse_fill_in_ascending_order(num_players, seed):
    """E1/H3: one token per warehouse, dealt in slot order Tonsberg/1 ... Riga/2, face up;
    the rest form the five piles (H4). Checked against the documented deal (RNG contract)."""
    s = GAME.new_state(num_players, seed)
    v = StateView(s)
    _, tokens = expected_deal(num_players, seed)
    assert B.WAREHOUSES[0] == (B.CITIES.index("Tonsberg"), 1)
    assert B.CITIES[B.WAREHOUSES[-1][0]] == "Riga"
    assert (v.warehouse >= 0).all(), "every warehouse holds a token"
    assert list(v.warehouse) == tokens[: B.NUM_WAREHOUSES]
    assert warehouse_of(s, "Tonsberg/1") == B.TOKEN_NAMES[tokens[0]]
    assert warehouse_of(s, "Riga/2") == B.TOKEN_NAMES[tokens[B.NUM_WAREHOUSES - 1]]
    # face up: every seat sees every warehouse token
    names = GAME.obs_names
    for p in range(num_players):
        obs = GAME.observe(s, p)
        for w, t in enumerate(tokens[: B.NUM_WAREHOUSES]):
            c, k = B.WAREHOUSES[w]
            assert obs[names.index(f"wh:{B.CITIES[c]}/{k}:{B.TOKEN_NAMES[t]}")] == 1.0
    # the rest: the five piles, in order
    rest = tokens[B.NUM_WAREHOUSES:]
    assert supply_sequence(s) == [B.TOKEN_NAMES[t] for t in rest]
    assert sum(pile_sizes_of(s)) == len(rest)
    assert pile_sizes_of(s) == list(B.pile_sizes(len(rest)))


def test_E2_refills_draw_pile_by_pile_and_pile_5_ends():
    """E2/H12/H13: refills take pile 1 until empty, then pile 2, ...; the first token of
    pile 5 triggers the end. Assumed: piles of 2,1,2,1,2 known tokens; each turn two
    warehouses (Tonsberg/1, Aalborg/1) are empty and the new active seat refills."""
    piles = [["red1", "red2"], ["red3"], ["orange1", "orange2"], ["orange3"],
             ["blue1", "blue2"]]
    order = [t for pile in piles for t in pile]
    s = staged(4, warehouses={"Tonsberg/1": None, "Aalborg/1": None}, piles=piles)
    assert pile_sizes_of(s) == [2, 1, 2, 1, 2]
    assert int(StateView(s).pile_end[3]) == 6, "pile 5 starts at supply index 6"
    drawn = []
    for turn in range(4):  # 2 tokens per refill: indices 0-1, 2-3, 4-5, 6-7
        play(s, "end_actions")
        seat = (turn + 1) % 4
        assert StateView(s).phase == REFILL and GAME.current_player(s) == seat
        play(s, "refill")
        got = [warehouse_of(s, "Tonsberg/1"), warehouse_of(s, "Aalborg/1")]
        assert got == order[2 * turn: 2 * turn + 2]
        drawn += got
        # piles 1-4 emptied (even pile 4 running out) do not trigger; pile 5 does
        assert StateView(s).end_triggered == (1 if turn == 3 else 0), turn
        if turn < 3:
            empty_slot(s, "Tonsberg/1")
            empty_slot(s, "Aalborg/1")
    assert drawn == order
    assert pile_sizes_of(s) == [0, 0, 0, 0, 0]


# ---------------------------------------------------------------- E3 (setup stalls)


def test_E3_initial_placement_three_players():
    """E3/H8: after setup each of 3 players has 2 stalls in each of exactly 3 different
    cities, none in Copenhagen; cities may be shared; Copenhagen and repeats are illegal."""
    s = GAME.new_state(3, 3)
    # deciders 0,1,2 | 2,1,0 | 2,1,0 ; everybody starts in Danzig (shared city is legal)
    plan = ["Danzig", "Danzig", "Danzig",
            "Riga", "Riga", "Kalmar",
            "Lubeck", "Reval", "Tonsberg"]
    seats = [0, 1, 2, 2, 1, 0, 2, 1, 0]
    for i, (city, seat) in enumerate(zip(plan, seats, strict=True)):
        assert StateView(s).phase == SETUP
        assert GAME.current_player(s) == seat
        # illegal: Copenhagen, and any city where this seat already placed
        before = s.copy()
        with pytest.raises(IllegalActionError, match="setup:Copenhagen"):
            GAME.step(s, "setup:Copenhagen")
        assert (s == before).all()
        own = [c for c in B.CITIES if StateView(s).stalls[B.CITIES.index(c), seat] > 0]
        for c in own:
            with pytest.raises(IllegalActionError, match=f"setup:{c}"):
                GAME.step(s, f"setup:{c}")
        assert (s == before).all()
        assert "setup:Copenhagen" not in legal(s)
        assert legal(s) == {f"setup:{c}" for c in B.CITIES if c != "Copenhagen" and c not in own}
        play(s, f"setup:{city}")
        assert StateView(s).stalls[B.CITIES.index(city), seat] == 2, i
    v = StateView(s)
    assert v.phase != SETUP
    for p in range(3):
        cities = [c for c in range(len(B.CITIES)) if v.stalls[c, p] > 0]
        assert len(cities) == 3
        assert all(v.stalls[c, p] == 2 for c in cities)
        assert v.stalls[B.COPENHAGEN, p] == 0
        assert v.stall_supply[p] == 15 - 6
    assert stalls_at(s, "Danzig") == [2, 2, 2]
    GAME.validate_state(s)


# ---------------------------------------------------------------- E4, E5 (turn, sailing)


def test_E4_several_actions_in_one_turn():
    """E4/H14/H18: Anna (seat 0) acts in Lubeck, sails to Aalborg (1) and acts, sails to
    Copenhagen (1) and does nothing, sails to Danzig (1) and acts. Assumed: Anna has 10
    talers and a held red2 token; nobody has stalls in Lubeck or Danzig (purchases pay
    the bank)."""
    s = staged(2, colours=("red",), ship="Lubeck", money={0: 10, 1: 3},
               hands={0: {"red2": 1}})
    other = money_of(s)[1]

    def no_second_action(*tries):
        assert not {a for a in legal(s) if a.split(":")[0] in ("buy", "build", "sell")}
        for a in tries:
            before = s.copy()
            with pytest.raises(IllegalActionError, match=a):
                GAME.step(s, a)
            assert (s == before).all()

    play(s, "buy:Lubeck/1")                     # action 1 in Lubeck (bank: 1)
    no_second_action("buy:Lubeck/2", "build:red2")
    play(s, "sail:Aalborg")                     # 1 taler
    play(s, "build:red2")                       # action 2 in Aalborg (free)
    assert stalls_at(s, "Aalborg")[0] == 2
    no_second_action("buy:Aalborg/1")
    play(s, "sail:Copenhagen")                  # 1 taler, no action
    play(s, "sail:Danzig")                      # 1 taler
    play(s, "buy:Danzig/1")                     # action 3 in Danzig (bank: 1)
    no_second_action("buy:Danzig/2")
    # 3 talers sailing + 2 purchases paid to the bank
    assert money_of(s) == [10 - 3 - 2, other]
    assert StateView(s).ship == B.CITIES.index("Danzig")
    assert sum(hand_of(s, 0).values()) == 2


def test_E5_sailing_directions_from_copenhagen():
    """E5/H15: from Copenhagen exactly {Danzig, Lubeck, Tonsberg}, 1 taler each."""
    s = staged(2, ship="Copenhagen", money={0: 3})
    assert legal_of(s, "sail:") == {"sail:Danzig", "sail:Lubeck", "sail:Tonsberg"}
    for bad in ("Aalborg", "Kalmar", "Riga", "Stockholm", "Reval"):
        with pytest.raises(IllegalActionError, match=f"sail:{bad}"):
            GAME.step(s, f"sail:{bad}")
    for dest in ("Danzig", "Lubeck", "Tonsberg"):
        c = s.copy()
        play(c, f"sail:{dest}")
        assert StateView(c).ship == B.CITIES.index(dest)
        assert money_of(c) == [2, 3]


# ---------------------------------------------------------------- E6 (building)


def test_E6_building_to_tie():
    """E6/H18/H19/H20: yellow builds 2 stalls with a 2-barrel token in Danzig (grey 4,
    yellow 2) -> 4:4; building again in the same visit is illegal; while tied, purple's
    purchase in Danzig pays the bank. Assumed colours: red1, red2."""
    s = staged(3, colours=("red",), ship="Danzig", active=YELLOW,
               hands={YELLOW: {"red1": 1, "red2": 1}},
               stalls={("Danzig", GREY): 4, ("Danzig", YELLOW): 2})
    removed = removed_count(s, "red2")
    play(s, "build:red2")
    assert hand_of(s, YELLOW) == {"red1": 1}
    assert removed_count(s, "red2") == removed + 1, "the 2-barrel token leaves the game"
    assert stalls_at(s, "Danzig") == [4, 4, 0]
    assert StateView(s).stall_supply[YELLOW] == 15 - 4
    before = s.copy()
    with pytest.raises(IllegalActionError, match="build:red1"):
        GAME.step(s, "build:red1")
    assert (s == before).all()
    # derived: purple buys in Danzig while 4:4 -> pays the bank
    play(s, "end_actions")
    assert GAME.current_player(s) == PURPLE and StateView(s).phase == ACTIONS
    m = money_of(s)
    play(s, "buy:Danzig/1")
    assert money_of(s) == [m[0], m[1], m[2] - 1]


# ---------------------------------------------------------------- E7 (selling)


def test_E7_selling_and_opponents_losses():
    """E7a/E7b/H21-H23: grey sells 3 orange + 2 brown in Danzig. 7a: five tokens to his
    sold pile, exactly one stall back, no talers move. 7b: yellow (2 orange of different
    barrels, 1 brown) chooses which orange to lose and loses his brown; purple (exactly
    one brown, assumed) loses it and nothing for orange."""
    grey_hand = {"orange1": 1, "orange2": 1, "orange3": 1, "brown1": 1, "brown2": 1}
    s = staged(3, colours=("orange", "brown"), ship="Danzig",
               hands={GREY: grey_hand,
                      YELLOW: {"orange1": 1, "orange3": 1, "brown2": 1},
                      PURPLE: {"brown3": 1}},
               stalls={("Danzig", GREY): 2})
    money = money_of(s)
    for t in grey_hand:
        play(s, f"sell:add:{t}")
        assert StateView(s).phase == SELLING
    play(s, "sell:done")
    # 7a
    assert sold_of(s, GREY) == grey_hand
    assert hand_of(s, GREY) == {}
    assert stalls_at(s, "Danzig")[GREY] == 1
    assert StateView(s).stall_supply[GREY] == 15 - 1
    assert money_of(s) == money
    # 7b: yellow decides his orange loss (colours in ascending id: orange before brown)
    assert StateView(s).phase == LOSS
    assert GAME.current_player(s) == YELLOW
    assert legal(s) == {"discard:orange1", "discard:orange3"}
    assert hand_of(s, PURPLE) == {"brown3": 1}, "purple decides after yellow (seat order)"
    play(s, "discard:orange1")
    assert hand_of(s, YELLOW) == {"orange3": 1}
    assert hand_of(s, PURPLE) == {}
    assert removed_count(s, "orange1") >= 1 and removed_count(s, "brown3") >= 1
    # back to grey's actions; the sale was his action in Danzig
    assert StateView(s).phase == ACTIONS and GAME.current_player(s) == GREY
    assert StateView(s).acted_here == 1
    assert not legal_of(s, "buy:") and not legal_of(s, "sell:")
    assert money_of(s) == money
    GAME.validate_state(s)


# ---------------------------------------------------------------- E8 (two turns)


def test_E8_two_complete_turns():
    """E8/H10-H12/H15/H19/H20/H24: grey (2 talers, one held 3-barrel token, assumed)
    refills, buys in Copenhagen paying purple, buys free in Tonsberg, sails via Stockholm
    to Reval with his last taler and builds 3 stalls. Then yellow: income, no refill, no
    action. Assumed: Copenhagen/1, Copenhagen/2, Tonsberg/1 start empty; purple
    (Copenhagen 2 vs grey 1) and grey (Tonsberg 2 vs yellow 1) hold the majorities."""
    s = staged(3, colours=("green",), ship="Copenhagen", active=PURPLE,
               money={GREY: 2, YELLOW: 1, PURPLE: 0},
               hands={GREY: {"green3": 1}},
               warehouses={"Copenhagen/1": None, "Copenhagen/2": None, "Tonsberg/1": None},
               stalls={("Copenhagen", PURPLE): 2, ("Copenhagen", GREY): 1,
                       ("Tonsberg", GREY): 2, ("Tonsberg", YELLOW): 1})
    play(s, "end_actions")  # purple's turn ends -> grey's turn, income +3
    v = StateView(s)
    assert GAME.current_player(s) == GREY and v.phase == REFILL
    assert money_of(s) == [5, 1, 0]
    play(s, "refill")
    assert money_of(s) == [4, 1, 0], "refill: 1 taler to the bank"
    assert all(warehouse_of(s, w) for w in ("Copenhagen/1", "Copenhagen/2", "Tonsberg/1"))
    bought = [warehouse_of(s, "Copenhagen/1"), warehouse_of(s, "Tonsberg/1")]
    play(s, "buy:Copenhagen/1")
    assert money_of(s) == [3, 1, 1], "1 taler to purple (majority in Copenhagen)"
    play(s, "sail:Tonsberg")
    play(s, "buy:Tonsberg/1")
    assert money_of(s) == [2, 1, 1], "own majority: free"
    play(s, "sail:Stockholm")
    play(s, "sail:Reval")
    assert money_of(s) == [0, 1, 1]
    play(s, "build:green3")
    assert stalls_at(s, "Reval") == [3, 0, 0]
    assert legal(s) == {"end_actions"}, "no taler to sail, already acted in Reval"
    expected_hand = {}
    for t in bought:
        expected_hand[t] = expected_hand.get(t, 0) + 1
    assert hand_of(s, GREY) == expected_hand
    play(s, "end_actions")  # taxes: nothing to give up
    assert money_of(s) == [0, 4, 1]
    assert hand_of(s, GREY) == expected_hand
    # yellow's turn: two warehouses empty -> refill optional; he skips and does nothing
    assert GAME.current_player(s) == YELLOW and StateView(s).phase == REFILL
    play(s, "skip_refill", "end_actions")
    assert money_of(s)[YELLOW] == min(1 + 3, 3)
    assert GAME.current_player(s) == PURPLE and StateView(s).active == PURPLE
    assert money_of(s)[PURPLE] == 1 + 3, "purple kept grey's taler (H24 only in own phase 4)"


# ---------------------------------------------------------------- E9 (end timing)


@pytest.mark.parametrize("trigger_seat", [0, 1, 2])
def test_E9_end_timing(trigger_seat):
    """E9/H27/H28: 3 players; the seat that starts pile 5 while refilling finishes his turn,
    the remaining seats up to seat 2 play, then the game ends; seat 0 gets no more turn.
    (trigger_seat=1 is the rulebook's 'player 2'.)"""
    s = staged(3, colours=("red",), active=(trigger_seat - 1) % 3,
               warehouses={"Kalmar/1": None},
               piles=[[], [], [], [], ["red1", "red2", "red3"]])
    turns = StateView(s).turns
    play(s, "end_actions")
    assert GAME.current_player(s) == trigger_seat and StateView(s).phase == REFILL
    assert StateView(s).end_triggered == 0
    play(s, "refill")
    assert StateView(s).end_triggered == 1
    played = [trigger_seat]
    play(s, "end_actions")
    while not GAME.is_terminal(s):
        played.append(GAME.current_player(s))
        assert StateView(s).phase == ACTIONS
        play(s, "end_actions")
    assert played == list(range(trigger_seat, 3))
    assert StateView(s).turns == turns + 1 + len(played)
    assert GAME.current_player(s) == -1
    assert not GAME.is_truncated(s)
    with pytest.raises(IllegalActionError, match="over"):
        GAME.step(s, "end_actions")


# ---------------------------------------------------------------- E10, E11 (scoring)


def test_E10_city_points():
    """E10/H29: Copenhagen grey 1, yellow 2, purple 3 -> 2 VP each; Kalmar yellow alone
    -> 4 VP for yellow. Nothing else scores (no tokens)."""
    s = staged(3, stalls={("Copenhagen", GREY): 1, ("Copenhagen", YELLOW): 2,
                          ("Copenhagen", PURPLE): 3, ("Kalmar", YELLOW): 2})
    assert list(GAME.scores(s)) == [2, 2 + 4, 2]


def test_E11_token_values():
    """E11/H29: an unsold token 1 VP whatever its barrels; sold 1/2/3 barrels = 2/3/4 VP."""
    for name, vp in (("red1", 1), ("red2", 1), ("red3", 1)):
        s = staged(2, colours=("red",), hands={0: {name: 1}})
        assert list(GAME.scores(s)) == [vp, 0]
    for name, vp in (("red1", 2), ("red2", 3), ("red3", 4)):
        s = staged(2, colours=("red",), sold={1: {name: 1}})
        assert list(GAME.scores(s)) == [0, vp]
    s = staged(2, colours=("red",), hands={0: {"red3": 2}}, sold={0: {"red1": 1, "red3": 1}})
    assert list(GAME.scores(s)) == [2 + 2 + 4, 0]


def test_examples_start_from_a_real_setup():
    """Sanity for the builders used above: a post-setup game is seat 0's first turn."""
    s = post_setup(3, 5)
    v = StateView(s)
    assert v.phase == ACTIONS and v.active == 0 and v.round == 1
    assert len(colours_in_play(s)) == 5
    assert SLOT["Riga/2"] == B.NUM_WAREHOUSES - 1
