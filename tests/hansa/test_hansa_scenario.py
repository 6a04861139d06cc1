"""hansa_env.scenario: positions from readable fields (build) and back (describe).

Round trips from real games in every phase, the fields of built positions, every error
message, positions where the game ends after one move, and built positions playing on
legally to the end.
"""

import numpy as np
import pytest

from hansa_env import GAME, scenario
from hansa_env import board as B
from hansa_env.state import StateView


def same_position(a, b) -> None:
    """Every seat sees the same thing, the same actions are legal, the same description."""
    n = GAME.num_players(a)
    for p in range(n):
        assert (GAME.observe(a, p) == GAME.observe(b, p)).all(), f"observation of seat {p}"
    assert (GAME.legal_mask(a) == GAME.legal_mask(b)).all()
    assert scenario.describe(a) == scenario.describe(b)


def play_random(state, rng, limit=100_000) -> int:
    """Uniformly random legal actions to the end (GAME.step rejects illegal ones)."""
    k = 0
    while not GAME.is_terminal(state) and k < limit:
        GAME.step(state, int(rng.choice(GAME.legal_actions(state))))
        k += 1
    return k


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_trip_through_real_games(n):
    """build(**describe(s)) reproduces the public fields at every phase of random games,
    and both states play on identically (the supply order is kept)."""
    phases = set()
    for seed in range(2):
        s = GAME.new_state(n, seed)
        rng = np.random.default_rng(seed)
        k = 0
        while True:
            if k % 9 == 0 or GAME.is_terminal(s) or StateView(s).phase not in (1, 2):
                d = scenario.describe(s)
                phases.add(d["phase"])
                t = scenario.build(**d)
                same_position(s, t)
                if k % 63 == 0 and not GAME.is_terminal(s):
                    a, b = s.copy(), t.copy()
                    for _ in range(40):
                        if GAME.is_terminal(a):
                            break
                        x = int(rng.choice(GAME.legal_actions(a)))
                        GAME.step(a, x)
                        GAME.step(b, x)
                    same_position(a, b)
            if GAME.is_terminal(s):
                break
            GAME.step(s, int(rng.choice(GAME.legal_actions(s))))
            k += 1
    assert {"setup", "refill", "actions", "selling", "tax", "over"} <= phases


def test_round_trip_of_a_loss_position():
    s = scenario.build(3, phase="loss", active=0, ship="Danzig",
                       hands={1: ["red1", "red3", "blue2"], 2: ["red2", "red3"]},
                       sold={0: ["red2", "red2", "blue1", "blue3"]},
                       stalls={"Danzig": {0: 1, 1: 2}},
                       loss={"seat": 1, "colour": "red", "colours": ["red", "blue"]})
    d = scenario.describe(s)
    assert d["loss"] == {"seat": 1, "colour": "red", "colours": ["red", "blue"]}
    assert d["acted_here"] is True
    same_position(s, scenario.build(**d))


def test_described_fields_are_the_built_ones():
    s = scenario.build(2, ship="Danzig", active=1, money={0: 4, 1: 0}, round=5,
                       hands={0: ["red1", "red2", "blue3"], 1: {"red3": 1}},
                       sold={1: ["blue1", "blue1"]},
                       stalls={"Danzig": {0: 2, 1: 1}, "Riga": {1: 2}},
                       warehouses={"Danzig": ["red1", None], "Tonsberg": "blue2"},
                       colours=["red", "orange", "blue", "brown"])
    d = scenario.describe(s)
    assert d["phase"] == "actions" and d["active"] == 1 and d["ship"] == "Danzig"
    assert d["money"] == {0: 4, 1: 0} and d["round"] == 5
    assert d["hands"] == {0: ["red1", "red2", "blue3"], 1: ["red3"]}
    assert d["sold"] == {0: [], 1: ["blue1", "blue1"]}
    assert d["stalls"] == {"Danzig": {0: 2, 1: 1}, "Riga": {1: 2}}
    assert d["warehouses"]["Danzig"] == ["red1", None]
    assert d["warehouses"]["Tonsberg"] == ["blue2"]
    assert d["colours"] == ["red", "orange", "blue", "brown"]
    v = StateView(s)
    assert list(v.stall_supply[:2]) == [13, 12]
    assert v.decider == 1 and v.turns == 4 * 2 + 1
    GAME.validate_state(s)


def test_named_tokens_come_out_of_the_supply():
    colours = ["red", "orange", "yellow", "blue"]
    base = scenario.describe(scenario.build(2, colours=colours))
    d = scenario.describe(scenario.build(2, colours=colours, hands={0: ["red1", "red2"]}))
    before = sum(len(p) for p in base["piles"])
    after = sum(len(p) for p in d["piles"])
    assert after == before - 2
    assert d["warehouses"] == base["warehouses"]         # dealt warehouses kept


def test_default_stalls_are_the_first_legal_draft():
    s = scenario.build(3)
    d = scenario.describe(s)
    assert d["stalls"] == {c: {0: 2, 1: 2, 2: 2} for c in ("Tonsberg", "Aalborg", "Lubeck")}
    assert list(StateView(s).stall_supply[:3]) == [9, 9, 9]


def test_named_colours_are_put_in_play():
    """Naming a colour the seed set aside swaps it into play (the others kept)."""
    dealt = scenario.describe(scenario.build(2, seed=3))["colours"]
    aside = [c for c in B.COLOURS if c not in dealt]
    s = scenario.build(2, seed=3, hands={0: [f"{aside[0]}1", f"{aside[0]}2"]})
    now = scenario.describe(s)["colours"]
    assert aside[0] in now and len(now) == 4
    GAME.validate_state(s)


def test_piles_are_taken_as_given():
    s = scenario.build(2, colours=["red", "orange", "yellow", "blue"],
                       piles=[["red1"], [], ["blue2", "blue3"], [], ["orange1"]])
    d = scenario.describe(s)
    assert d["piles"] == [["red1"], [], ["blue2", "blue3"], [], ["orange1"]]


# ---------------------------------------------------------------- phases


def test_setup_position_derives_the_placing_seat():
    # 2 players: draft order 0, 1, 1, 0, 1, 0; after 0: Kalmar, 1: Riga, 1: Reval it is 0's turn
    s = scenario.build(2, phase="setup",
                       stalls={"Kalmar": {0: 2}, "Riga": {1: 2}, "Reval": {1: 2}})
    v = StateView(s)
    assert v.setup_step == 3 and v.decider == 0 and v.round == 0
    assert "setup:Kalmar" not in {GAME.action_name(a) for a in GAME.legal_actions(s)}
    play_random(s, np.random.default_rng(0))
    GAME.validate_state(s)


def test_selling_position_continues_the_sale():
    s = scenario.build(2, phase="selling", ship="Danzig", stalls={"Danzig": {0: 1}},
                       colours=["red", "orange", "yellow", "blue"],
                       hands={0: ["red1", "red2", "blue2", "blue3"], 1: ["red3", "blue1"]},
                       sale=["red1"])
    names = {GAME.action_name(a) for a in GAME.legal_actions(s)}
    assert names == {"sell:add:red2", "sell:add:blue2", "sell:add:blue3"}
    for a in ("sell:add:red2", "sell:add:blue2", "sell:add:blue3", "sell:done"):
        GAME.step(s, a)
    d = scenario.describe(s)
    assert d["sold"][0] == ["red1", "red2", "blue2", "blue3"]
    assert d["hands"][1] == []            # one red and one blue lost (H23)


def test_loss_position_asks_the_opponent():
    s = scenario.build(3, phase="loss", active=0, ship="Danzig",
                       colours=["red", "orange", "yellow", "blue", "brown"],
                       hands={1: ["red1", "red3", "blue2"], 2: ["red2", "red3"]},
                       sold={0: ["red2", "red2", "blue1", "blue3"]},
                       stalls={"Danzig": {0: 1, 1: 2}},
                       loss={"seat": 1, "colour": "red", "colours": ["red", "blue"]})
    assert GAME.current_player(s) == 1
    assert {GAME.action_name(a) for a in GAME.legal_actions(s)} == {"discard:red1",
                                                                    "discard:red3"}
    GAME.step(s, "discard:red1")          # blue goes automatically, then seat 2 chooses
    assert scenario.describe(s)["hands"][1] == ["red3"]
    assert GAME.current_player(s) == 2
    same_position(s, scenario.build(**scenario.describe(s)))   # a later opponent's choice
    GAME.step(s, "discard:red2")
    assert GAME.current_player(s) == 0 and scenario.describe(s)["phase"] == "actions"


def test_tax_position():
    s = scenario.build(2, phase="tax", active=1, money={1: 3},
                       colours=["red", "orange", "yellow", "blue"],
                       hands={1: ["red1", "red2", "blue3", "yellow1", "orange2"]})
    assert GAME.current_player(s) == 1
    GAME.step(s, "discard:yellow1")
    GAME.step(s, "discard:orange2")
    v = StateView(s)
    assert v.active == 0 and v.round == 2          # turn over, next round began


def test_refill_position():
    s = scenario.build(2, phase="refill", warehouses={"Danzig": [None, None]})
    assert {GAME.action_name(a) for a in GAME.legal_actions(s)} == {"refill", "skip_refill"}
    GAME.step(s, "refill")
    assert None not in scenario.describe(s)["warehouses"]["Danzig"]


# ---------------------------------------------------------------- the game ends after one move


@pytest.mark.parametrize("n", [2, 3, 4])
def test_last_turn_of_the_game(n):
    s = scenario.build(n, end_triggered=True, active=n - 1, round=9, ship="Danzig",
                       stalls={"Danzig": {n - 1: 1}})
    v = StateView(s)
    assert v.end_triggered == 1 and sum(scenario.describe(s)["piles"][0:4], []) == []
    GAME.step(s, "end_actions")
    assert GAME.is_terminal(s) and not GAME.is_truncated(s)


def test_refill_starting_the_last_pile_ends_the_game_after_the_round():
    s = scenario.build(2, phase="refill", active=1, pile_sizes=[0, 0, 0, 0, 5],
                       warehouses={"Kalmar": None})
    GAME.step(s, "refill")
    assert StateView(s).end_triggered == 1
    GAME.step(s, "end_actions")
    assert GAME.is_terminal(s)


def test_end_triggered_by_an_earlier_seat_lets_the_round_finish():
    s = scenario.build(3, end_triggered=True, active=1)
    GAME.step(s, "end_actions")
    assert not GAME.is_terminal(s) and GAME.current_player(s) == 2
    GAME.step(s, GAME.legal_actions(s)[-1] if "refill" not in
              {GAME.action_name(a) for a in GAME.legal_actions(s)} else "skip_refill")
    while not GAME.is_terminal(s):
        GAME.step(s, "end_actions" if "end_actions" in
                  {GAME.action_name(a) for a in GAME.legal_actions(s)}
                  else GAME.legal_actions(s)[0])
    assert GAME.is_terminal(s)


def test_game_over_position():
    s = scenario.build(2, phase="over", end_triggered=True, active=1,
                       colours=["red", "orange", "yellow", "blue"], sold={0: ["red3", "red3"]})
    assert GAME.is_terminal(s) and GAME.winners(s) == [0]
    t = scenario.build(2, phase="over", truncated=True, round=200)
    assert GAME.is_truncated(t)


# ---------------------------------------------------------------- built positions play on


@pytest.mark.parametrize("n", [2, 3, 4])
def test_built_positions_play_on_legally(n):
    rng = np.random.default_rng(n)
    colours = list(B.COLOURS[: 6 - B.COLOURS_REMOVED[n]])
    specs = [
        {},
        {"ship": "Riga", "money": {0: 6}, "hands": {0: [f"{colours[0]}1", f"{colours[0]}2"]},
         "stalls": {"Riga": {0: 3, 1: 3}, "Copenhagen": {1: 1}}},
        {"end_triggered": True, "active": n - 1, "hands": {1: [f"{colours[1]}3"]}},
        {"warehouses": {c: [None] * len(scenario.SLOTS[i]) for i, c in enumerate(B.CITIES)}},
        {"pile_sizes": [0, 0, 0, 1, 2], "round": 30},
    ]
    for spec in specs:
        for seed in range(3):
            s = scenario.build(n, seed=seed, colours=colours, **spec)
            play_random(s, rng)
            assert GAME.is_terminal(s)
            GAME.validate_state(s)


# ---------------------------------------------------------------- errors


HANDS_2P = {"colours": ["red", "orange", "yellow", "blue"]}

ERRORS = [
    ({"num_players": 5}, "2 to 4 players"),
    ({"phase": "bogus"}, "phase: unknown phase 'bogus'"),
    ({"active": 2}, "active: seat 2 is not a seat of a 2-player game"),
    ({"ship": "Berlin"}, "ship: unknown city 'Berlin'"),
    ({"money": {0: -1}}, "money[0]: -1 is out of range"),
    ({"money": {3: 1}}, "money: seat 3 is not a seat"),
    ({"money": {0: 1.5}}, "money[0]: expected an integer"),
    ({"hands": {0: ["purple2"]}}, "hands[0]: unknown token 'purple2'"),
    ({"hands": {0: "red1"}}, "hands[0]: expected a list of token names"),
    ({"hands": {2: ["red1"]}}, "hands: seat 2 is not a seat"),
    ({"hands": {0: ["red1"] * 3, 1: ["red1"] * 2}, **HANDS_2P},
     "tokens: the position names 5 red1 tokens (hands[0] 3, hands[1] 2); the game has 4"),
    ({"warehouses": {"Danzig": ["red3", "red3"]}, "sold": {1: ["red3"] * 3}, **HANDS_2P},
     "names 5 red3 tokens (sold[1] 3, warehouses 2); the game has 4"),
    ({"phase": "refill", "acted_here": True}, "acted_here: True before the actions phase"),
    ({"hands": {0: ["red1", "orange1", "yellow1", "green1", "blue1"]}},
     "names 5 colours (red, orange, yellow, green, blue) but a 2-player game has 4"),
    ({"sold": {0: ["brown9"]}}, "sold[0]: unknown token 'brown9'"),
    ({"stalls": {"Atlantis": {0: 1}}}, "stalls: unknown city 'Atlantis'"),
    ({"stalls": {"Danzig": {0: 16}}}, "seat 0 has 16 stalls on the board, more than the 15"),
    ({"stalls": {"Danzig": {0: 10}, "Riga": {0: 6}}}, "seat 0 has 16 stalls"),
    ({"stalls": {"Danzig": {0: -1}}}, "stalls['Danzig'][0]: -1 is out of range"),
    ({"stalls": {"Danzig": {7: 1}}}, "stalls['Danzig']: seat 7 is not a seat"),
    ({"warehouses": {"Danzig": ["red1"]}, **HANDS_2P},
     "warehouses['Danzig']: Danzig has 2 warehouse(s), got 1 entries"),
    ({"warehouses": {"Tonsberg": "red9"}}, "warehouses['Tonsberg']: unknown token 'red9'"),
    ({"warehouses": {"Oslo": None}}, "warehouses: unknown city 'Oslo'"),
    ({"colours": ["red", "blue"]}, "colours: a 2-player game has 4 different colours"),
    ({"colours": ["red", "red", "blue", "yellow"]}, "colours: a 2-player game has 4"),
    ({"colours": ["red", "orange", "yellow", "blue"], "hands": {0: ["green1"]}},
     "colours: colour 'green' is named in the position but set aside"),
    ({"colours": ["red", "orange", "yellow", "pink"]}, "colours: unknown colour 'pink'"),
    ({"pile_sizes": [1, 0, 0, 0, 3], "end_triggered": True},
     "end_triggered: True, but piles 1-4 still hold"),
    ({"pile_sizes": [0, 0, 0, 0, 0]}, "end_triggered: False, but the supply piles are empty"),
    ({"pile_sizes": [100, 0, 0, 0, 0]}, "pile_sizes: [100, 0, 0, 0, 0] need 100 tokens"),
    ({"pile_sizes": [1, 2]}, "pile_sizes: expected 5 counts"),
    ({"piles": [["red1"]] * 4}, "piles: expected 5 lists of token names"),
    ({"piles": [[]] * 5, "pile_sizes": [0] * 5}, "pile_sizes: give piles or pile_sizes"),
    ({"round": 0}, "round: 0: rounds count from 1"),
    ({"round": 201}, "round: 201 is out of range"),
    ({"build_rule": "free"}, "options: build_rule must be one of"),
    ({"phase": "tax", "hands": {0: ["red1"]}, **HANDS_2P},
     "phase: 'tax' needs more than 3 held tokens; seat 0 holds 1"),
    ({"phase": "tax", "money": {0: 5}, "hands": {0: ["red1"] * 4}, **HANDS_2P},
     "money: seat 0 has 5 talers in phase 'tax'"),
    ({"phase": "refill"}, "phase: 'refill' needs an empty warehouse"),
    ({"phase": "refill", "warehouses": {c: [None] * len(scenario.SLOTS[i])
                                        for i, c in enumerate(B.CITIES)}},
     "'refill' with every warehouse empty"),
    ({"phase": "refill", "warehouses": {"Kalmar": None}, "pile_sizes": [0] * 5,
      "end_triggered": True}, "phase: 'refill' with empty supply piles"),
    ({"phase": "selling", "stalls": {"Lubeck": {0: 1}}}, "sale: phase 'selling' needs"),
    ({"phase": "selling", "stalls": {"Lubeck": {0: 1}}, "hands": {0: ["red1", "red2"]},
      "sale": ["red3"], **HANDS_2P}, "sale: 1 red3 selected but seat 0 holds 0"),
    ({"phase": "selling", "stalls": {"Lubeck": {0: 1}}, "hands": {0: ["red1", "blue2"]},
      "sale": ["red1"], **HANDS_2P}, "sale: seat 0 holds fewer than two red tokens"),
    ({"phase": "selling", "hands": {0: ["red1", "red2"]}, "sale": ["red1"],
      "stalls": {"Riga": {0: 1}}, **HANDS_2P}, "sale: seat 0 has no stall in Lubeck"),
    ({"phase": "selling", "stalls": {"Lubeck": {0: 1}}, "hands": {0: ["red1", "red2"]},
      "sale": ["red1"], "acted_here": True, **HANDS_2P}, "acted_here: a sale in progress"),
    ({"sale": ["red1"], "hands": {0: ["red1", "red2"]}, **HANDS_2P},
     "sale: only in phase 'selling'"),
    ({"phase": "loss"}, "loss: phase 'loss' needs loss="),
    ({"loss": {"seat": 1, "colour": "red"}, **HANDS_2P}, "loss: only in phase 'loss'"),
    ({"phase": "loss", "loss": {"seat": 0, "colour": "red"}, **HANDS_2P},
     "loss['seat']: 0 is the seller"),
    ({"phase": "loss", "loss": {"seat": 1, "colour": "red"}, "hands": {1: ["red1", "red1"]},
      **HANDS_2P}, "loss: seat 1 holds 1 kind(s) of red token"),
    ({"phase": "loss", "loss": {"seat": 1, "colour": "red", "colours": ["blue"]}, **HANDS_2P},
     "loss: colour 'red' is not among the colours sold"),
    ({"phase": "loss", "loss": {"seat": 1}}, "loss: expected {'seat'"),
    ({"phase": "loss", "loss": {"seat": 1, "colour": "red", "when": 1}}, "unknown keys"),
    ({"phase": "loss", "loss": {"seat": 1, "colour": "red"}, "acted_here": False,
      "hands": {1: ["red1", "red2"]}, **HANDS_2P}, "acted_here: the sale before a loss"),
    ({"phase": "setup", "stalls": {"Copenhagen": {0: 2}}}, "no stalls in Copenhagen"),
    ({"phase": "setup", "stalls": {"Danzig": {0: 3}}}, "setup placements put 2 stalls"),
    ({"phase": "setup", "stalls": {"Danzig": {1: 2}}}, "not a point of the setup draft"),
    ({"phase": "setup", "stalls": {"Danzig": {0: 2}}, "active": 0},
     "active: 0, but placement 2 of the draft is seat 1's"),
    ({"phase": "setup", "round": 1}, "round: 1: the setup draft comes before round 1"),
    ({"phase": "setup", "hands": {0: ["red1"]}, **HANDS_2P}, "hands: nobody holds"),
    ({"phase": "setup", "money": {0: 6}}, "money: every player has 3 talers"),
    ({"phase": "over"}, "phase: 'over' needs end_triggered=True or truncated=True"),
    ({"truncated": True}, "truncated: only in phase 'over'"),
]


@pytest.mark.parametrize("kwargs, message", ERRORS, ids=[m[:40] for _, m in ERRORS])
def test_errors_name_the_field_and_value(kwargs, message):
    kwargs = dict(kwargs)
    n = kwargs.pop("num_players", 2)
    with pytest.raises(ValueError) as e:
        scenario.build(n, **kwargs)
    assert message in str(e.value)
