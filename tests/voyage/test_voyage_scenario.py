"""The Voyage scenario builder (voyage_env/scenario.py): readable positions, round trips,
every refusal, and built positions that play on by the rules."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.voyage_helpers import COST_MAP, INTO_LISBON, tiny_game
from tradewinds.protocol import as_key
from voyage_env import GAME, scenario
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.state import BID, CARDS, GAME_OVER, MONASTERY, MOVE, PLAY, UPGRADE, StateView

MAP = GAME.board
LISBON = int(MAP.lisbon)


def blue_space():
    return next(h for h in range(MAP.num_hexes) if MAP.blue[h] and not MAP.red[h])


def east_space():
    melaka = MAP.port_hex[MAP.port_name.index("Melaka")]
    return next(h for h in range(MAP.num_hexes) if MAP.hemisphere[h] == MAP.hemisphere[melaka])


def west_space():
    melaka = MAP.port_hex[MAP.port_name.index("Melaka")]
    return next(h for h in range(MAP.num_hexes) if MAP.hemisphere[h] != MAP.hemisphere[melaka])


def play_randomly(state, seed: int, steps: int = 100_000) -> None:
    """Random legal play to the end, checking the state after every decision."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if GAME.is_terminal(state):
            return
        legal = np.flatnonzero(GAME.legal_mask(state))
        assert legal.size, "a live state without a legal action"
        GAME.step(state, int(legal[rng.integers(legal.size)]))
        GAME.validate_state(state)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- defaults and fields

def test_defaults_are_the_first_move_of_a_fresh_game():
    s = scenario.build(3, seed=4)
    v = StateView(s)
    GAME.validate_state(s)
    assert v.phase == MOVE and v.active == 0 and v.decider == 0 and v.position == 0
    assert list(v.order[:3]) == [0, 1, 2] and v.round == 1
    assert (v.ship[:3] == LISBON).all()
    assert list(v.hand[:3].sum(axis=1)) == list(R.ROUND1_DEAL[:3])   # by position (V13)
    assert v.hand.sum() + v.discard.sum() + v.deck_size == R.DECK_SIZE


def test_fields_are_set_by_name():
    blue = blue_space()
    s = scenario.build(
        4, seed=1, order=[2, 0, 3, 1], active=3, round=7,
        ships={0: "Ceylon", 1: "Lisbon", 2: blue, 3: MAP.coords[INTO_LISBON].tolist()},
        hands={3: {"storm4": 2, "favourable": 1}, 0: ["calm", "calm"]},
        discard={"compass_N": 3}, deck_top=["storm2", "calm"],
        cubes={0: ["cinnamon", "silk"], 3: ["nutmeg"]}, upgraded=[3], wrecked={1: [2]},
        spent={3: 4}, bids={3: 2, 2: 1}, vp={0: 12, 1: 3}, tiles={1: [1], 0: [2, 3]},
        discovered={"Ceylon": 0, "Guinea": 2}, rng=12345)
    GAME.validate_state(s)
    d = scenario.describe(s)
    assert d["phase"] == "move" and d["active"] == 3 and d["order"] == [2, 0, 3, 1]
    assert d["ships"] == {0: "Ceylon", 1: "Lisbon", 2: blue, 3: INTO_LISBON}
    assert d["hands"][3] == {"storm4": 2, "favourable": 1}
    assert d["hands"][0] == {"calm": 2}
    assert d["discard"] == {"compass_N": 3}
    assert d["deck"][:2] == ["storm2", "calm"]
    assert d["cubes"] == {0: ["cinnamon", "silk"], 1: [], 2: [], 3: ["nutmeg"]}
    assert d["upgraded"] == [3] and d["discs"] == {0: 9, 1: 9, 2: 9, 3: 12}
    assert d["wrecked"][1] == [2] and d["spent"][3] == 4 and d["bids"][3] == 2
    assert d["vp"] == {0: 12, 1: 3, 2: 0, 3: 0}
    assert d["tiles"] == {0: [2, 3], 1: [1], 2: [], 3: []}
    assert d["discovered"] == {"Guinea": 2, "Ceylon": 0}
    assert d["rng"] == 12345
    v = StateView(s)
    assert v.tiles_taken == 3 and v.best_tile[0] == 2 and v.end_triggered == 0
    assert v.bid_high == 2 and v.bid_leader == 3
    assert list(v.stock) == [4, 4, 4, 4, 3, 3, 3, 4]
    # seats after the active one still have their bids spent, earlier seats had their turn
    assert v.spent[2] == 0 and v.spent[1] == 0
    # the deck's next draws are the cards put on top
    assert [int(v.deck[v.deck_size - 1]), int(v.deck[v.deck_size - 2])] == [R.STORM2, R.CALM]


def test_cards_are_conserved_and_other_hands_keep_their_size():
    base = scenario.build(2, seed=9)
    s = scenario.build(2, seed=9, hands={0: {"storm4": 8}}, discard={"calm": 10})
    v, b = StateView(s), StateView(base)
    assert v.hand[0, R.STORM4] == 8 and v.hand[0].sum() == 8
    assert v.hand[1].sum() == b.hand[1].sum() and v.hand[1, R.STORM4] == 0
    assert v.hand[1, R.CALM] == 0 and v.discard[R.CALM] == 10
    assert (v.hand.sum(axis=0) + v.discard + np.bincount(v.deck[: v.deck_size], minlength=11)
            == np.array(R.CARD_COUNTS)).all()
    simple = scenario.build(3, simple_deck=True, discard={"calm": 5})
    assert StateView(simple).hand.sum() == 0
    assert StateView(simple).deck_size == R.DECK_SIZE - R.SIMPLE_DECK_CALMS_REMOVED - 5


def test_targets_are_dealt_without_duplicates():
    mine = ["Guinea", "Mina", "Azores", "Madeira", "Ceylon", "Melaka", "Macau", "Diu"]
    for n in (2, 3, 4):
        s = scenario.build(n, seed=n, targets={1: mine})
        v = StateView(s)
        assert [MAP.port_name[x] for x in v.targets[1]] == mine
        dealt = [int(x) for x in v.targets[:n].ravel()]
        assert -1 not in dealt and len(set(dealt)) == 8 * n
        for p in range(n):
            assert all(MAP.port_deck[x] == j // 4 for j, x in enumerate(v.targets[p]))


# ---------------------------------------------------------------- round trips

ROUND_TRIPS = {
    "fresh": dict(num_players=2),
    "rich": dict(num_players=4, seed=3, order=[3, 1, 0, 2], active=0, round=9,
                 ships={0: "Calicut", 1: 17, 2: "Lisbon"}, cubes={0: ["pepper", "ivory"]},
                 hands={0: ["storm2", "favourable"]}, discard={"calm": 2}, upgraded=[1],
                 wrecked={0: [1]}, vp={0: 8, 2: 31}, tiles={3: [1, 2]}, spent={0: 3},
                 targets={2: ["Labrador", "Florida", "Congo", "Luanda",
                              "Siam", "Timor", "Bahrain", "Muscat"]},
                 discovered={"Calicut": 0, "Labrador": 2}, docked=[3]),
    "bid round 1": dict(num_players=3, phase="bid", order=[1, 2, 0]),
    "bid round 5": dict(num_players=3, phase="bid", round=5, ships={1: "Mina"}),
    "play": dict(num_players=2, phase="play", ships={0: "BLUE"}, hands={0: ["calm"]}),
    "upgrade": dict(num_players=2, phase="upgrade", cubes={0: ["chili", "ivory", "pepper"]}),
    "monastery": dict(num_players=3, phase="monastery", cubes={0: ["pepper"]},
                      tiles={1: [1, 2, 3]}),
    "cards": dict(num_players=2, phase="cards", active=1, order=[0, 1]),
    "simple": dict(num_players=3, simple_deck=True, ships={2: "Guinea"}),
    "black ship": dict(num_players=2, black_ship=True, black_hex="Ceylon", attacked=[1]),
}


@pytest.mark.parametrize("name", ROUND_TRIPS)
def test_describe_then_build_gives_the_same_state(name):
    kwargs = dict(ROUND_TRIPS[name])
    if kwargs.get("ships", {}).get(0) == "BLUE":
        kwargs["ships"] = {0: blue_space()}
    s = scenario.build(**kwargs)
    d = scenario.describe(s)
    again = scenario.build(**d, seed=12345)      # another seed: every field comes from d
    assert np.array_equal(again, s), np.flatnonzero(again != s)
    assert scenario.describe(again) == d


def test_describe_reads_random_play_back():
    """Positions of real games at their move decisions: what describe reads rebuilds a
    state every seat observes identically."""
    rng = np.random.default_rng(3)
    checked = 0
    for g in range(24):
        n = 2 + g % 3
        opts = ({}, {"black_ship": True}, {"simple_deck": True})[g % 3]
        s = GAME.new_state(n, g, **opts)
        for _ in range(int(rng.integers(0, 200 * n))):
            if GAME.is_terminal(s):
                break
            legal = np.flatnonzero(GAME.legal_mask(s))
            GAME.step(s, int(legal[rng.integers(legal.size)]))
        d = scenario.describe(s)
        if StateView(s).phase != MOVE:
            assert d["phase"] in ("bid", "order", "play", "react", "wreck", "upgrade",
                                  "monastery", "cards", "over")
            continue
        again = scenario.build(**d)
        assert scenario.describe(again) == d
        for p in range(n):
            assert np.array_equal(GAME.observe(again, p), GAME.observe(s, p))
        checked += 1
    assert checked >= 8


def test_tiny_maps_take_cells():
    game = tiny_game(COST_MAP["grid"], currents=COST_MAP["currents"], events=COST_MAP["events"])
    s = scenario.build(2, game=game, ships={1: (2, 3)})
    assert game.board.coords[StateView(s).ship[1]].tolist() == [2, 3]
    d = scenario.describe(s, game=game)
    assert np.array_equal(scenario.build(**d, game=game), s)


# ---------------------------------------------------------------- positions that play on

def test_one_move_to_win_home_in_the_last_round():
    """Last round, last position, 10 VP behind: sail the free current into Lisbon, dock,
    sell three cubes (15 VP) and win."""
    s = scenario.build(2, round=40, order=[1, 0], active=0, ships={0: INTO_LISBON},
                       cubes={0: ["chili", "ivory", "cinnamon"]}, vp={0: 10, 1: 20})
    assert GAME.winners(s) == [1]
    for a in ("move:NE", "dock", "upgrade:skip", "cards:top_up"):
        GAME.step(s, a)
        GAME.validate_state(s)
    assert StateView(s).phase == GAME_OVER and GAME.is_truncated(s)
    assert list(GAME.scores(s)) == [25, 20] and GAME.winners(s) == [0]


def test_the_last_monastery_tile_ends_the_game_after_the_round():
    s = scenario.build(3, order=[1, 0, 2], active=0, cubes={0: ["pepper"]},
                       tiles={1: [1, 2], 2: [3]}, vp={1: 20, 2: 10})
    GAME.step(s, "dock")
    assert StateView(s).phase == MONASTERY
    GAME.step(s, "monastery:take")
    v = StateView(s)
    assert v.end_triggered == 1 and v.tiles_taken == 4 and v.vp[0] == 10
    assert v.phase == CARDS
    GAME.step(s, "cards:top_up")
    assert v.phase == MOVE and v.active == 2      # the round is finished (V49)
    GAME.step(s, "stop")
    assert GAME.is_terminal(s) and not GAME.is_truncated(s)


@pytest.mark.parametrize("name", ROUND_TRIPS)
def test_built_positions_play_on_by_the_rules(name):
    kwargs = dict(ROUND_TRIPS[name])
    if kwargs.get("ships", {}).get(0) == "BLUE":
        kwargs["ships"] = {0: blue_space()}
    s = scenario.build(**kwargs)
    phase = StateView(s).phase
    assert phase == {"bid": BID, "play": PLAY, "upgrade": UPGRADE, "monastery": MONASTERY,
                     "cards": CARDS}.get(kwargs.get("phase", "move"), MOVE)
    assert GAME.legal_mask(s).any()
    play_randomly(s.copy(), seed=len(name))
    K.random_playout(s, GAME.aux.m, as_key(len(name)))   # and inside the kernel
    assert GAME.is_terminal(s)


# ---------------------------------------------------------------- refusals

B = blue_space()
ALL_CARDS = {k: c for k, c in zip(R.CARD_KINDS, R.CARD_COUNTS, strict=True)}
ERRORS = [
    # (kwargs, fragments that must appear in the message)
    (dict(phase="sail"), ["phase", "'sail'"]),
    (dict(phase="react"), ["phase", "'react'", "cannot be built"]),
    (dict(round=0), ["round", "0 not in 1..40"]),
    (dict(round=5, max_rounds=4), ["round", "5 not in 1..4"]),
    (dict(max_rounds=True), ["max_rounds", "True"]),
    (dict(order=[0, 0]), ["order", "[0, 0]", "permutation"]),
    (dict(order="01"), ["order", "'01'"]),
    (dict(active=2), ["active", "bad seat 2"]),
    (dict(phase="bid", active=1), ["active", "seat 0", "1"]),
    (dict(ships={2: "Lisbon"}), ["ships", "bad seat 2"]),
    (dict(ships=["Lisbon"]), ["ships", "['Lisbon']"]),
    (dict(ships={0: "Atlantis"}), ["ships: seat 0", "'Atlantis'"]),
    (dict(ships={0: (0, 0)}), ["ships: seat 0", "(0, 0)", "land"]),
    (dict(ships={0: 100_000}), ["ships: seat 0", "100000"]),
    (dict(ships={0: 2.5}), ["ships: seat 0", "2.5"]),
    (dict(hands={0: ["storm5"]}), ["hands: seat 0", "'storm5'"]),
    (dict(hands={0: "calm"}), ["hands: seat 0", "'calm'"]),
    (dict(hands={0: {"calm": -1}}), ["hands: seat 0: calm", "-1"]),
    (dict(hands={0: {"storm4": 9}}), ["hands", "storm4", "9"]),
    (dict(hands={0: {"storm4": 5}, 1: {"storm4": 4}}), ["hands", "storm4", "9"]),
    (dict(discard={"calm": 11}), ["discard", "calm", "11"]),
    (dict(deck_top=["calm"] * 11), ["deck_top", "calm", "11"]),
    (dict(deck_top="calm"), ["deck_top", "'calm'"]),
    (dict(deck=["calm"], deck_top=["calm"]), ["deck", "deck_top"]),
    (dict(deck=["calm"]), ["deck", "1 cards listed"]),
    (dict(hands={0: ALL_CARDS}), ["hands", "seat 1", "hand of 5"]),
    (dict(simple_deck=True, hands={0: ["calm"]}), ["hands", "simple game"]),
    (dict(phase="bid", hands={0: ["calm"]}), ["hands", "round 1", "V13"]),
    (dict(cubes={0: ["gold"]}), ["cubes: seat 0", "'gold'"]),
    (dict(cubes={0: "pepper"}), ["cubes: seat 0", "'pepper'"]),
    (dict(cubes={0: ["pepper", "pepper"]}), ["cubes", "seat 0", "pepper twice"]),
    (dict(cubes={1: ["silver"]}), ["cubes", "seat 1", "silver", "ship 4"]),
    (dict(cubes={0: ["chili"]}, wrecked={0: [1]}), ["cubes", "seat 0", "chili", "ship 1"]),
    (dict(wrecked={0: [5]}), ["wrecked: seat 0", "5 not in 1..4"]),
    (dict(wrecked={1: [4]}), ["wrecked", "seat 1", "ship 4"]),
    (dict(upgraded="0"), ["upgraded", "'0'"]),
    (dict(upgraded=[3]), ["upgraded", "bad seat 3"]),
    (dict(discs={0: 10}), ["discs", "seat 0", "10"]),
    (dict(discs={0: 9}, upgraded=[0]), ["discs", "seat 0", "9"]),
    (dict(spent={0: 10}), ["spent", "seat 0", "10"]),
    (dict(spent={0: 9}, ships={0: "Mina"}), ["spent", "seat 0", "'Mina'", "no disc"]),
    (dict(phase="bid", spent={1: 2}), ["spent", "auction"]),
    (dict(bids={0: 2, 1: 2}), ["bids", "{0: 2, 1: 2}"]),
    (dict(bids={0: 13}), ["bids: seat 0", "13"]),
    (dict(phase="bid", bids={0: 1}), ["bids", "auction"]),
    (dict(vp={1: -3}), ["vp: seat 1", "-3"]),
    (dict(vp={1: "10"}), ["vp: seat 1", "'10'"]),
    (dict(tiles={0: 1}), ["tiles: seat 0", "1"]),
    (dict(tiles={0: [4]}), ["tiles: seat 0", "4 not in 1..3"]),
    (dict(tiles={0: [1, 3]}), ["tiles", "[1, 3]"]),
    (dict(tiles={0: [1], 1: [1]}), ["tiles", "[1, 1]"]),
    (dict(targets={0: "Guinea"}), ["targets: seat 0", "'Guinea'"]),
    (dict(targets={0: ["Atlantis"]}), ["targets: seat 0", "'Atlantis'"]),
    (dict(targets={0: ["Guinea"]}), ["targets", "seat 0", "4 west", "got 1 west"]),
    (dict(targets={0: ["Guinea", "Mina", "Azores", "Madeira", "Ceylon", "Melaka", "Macau",
                       "Diu"],
                   1: ["Guinea", "Ceuta", "Florida", "Congo", "Siam", "Timor", "Bahrain",
                       "Muscat"]}), ["targets", "'Guinea'", "seat 0", "seat 1"]),
    (dict(discovered=["Guinea"]), ["discovered", "['Guinea']"]),
    (dict(discovered={"Atlantis": 0}), ["discovered", "'Atlantis'"]),
    (dict(discovered={"Guinea": 5}), ["discovered: Guinea", "bad seat 5"]),
    (dict(docked=[1]), ["docked", "seat 1", "cannot have docked"]),
    (dict(order=[1, 0], docked=[1], ships={1: "Mina"}), ["docked", "seat 1", "'Mina'"]),
    (dict(attacked=[0]), ["attacked", "[0]", "black_ship"]),
    (dict(black_ship=True, phase="bid", attacked=[0]), ["attacked", "[0]", "reset"]),
    (dict(black_hex="Ceylon"), ["black_hex", "'Ceylon'", "black_ship"]),
    (dict(black_ship=True, black_hex="Guinea"), ["black_hex", "'Guinea'", "hemisphere"]),
    (dict(rng=-1), ["rng", "-1"]),
    (dict(rng=1 << 64), ["rng", str(1 << 64)]),
    (dict(phase="play", ships={0: B}, simple_deck=True), ["phase", "'play'", "simple"]),
    (dict(phase="play", ships={0: "Mina"}), ["phase", "'play'", "blue", "'Mina'"]),
    (dict(phase="play", ships={0: B}, hands={0: ["storm4"]}, spent={0: 7}),
     ["hands", "seat 0", "2 discs"]),
    (dict(phase="upgrade", ships={0: "Mina"}), ["phase", "'upgrade'", "'Mina'", "Lisbon"]),
    (dict(phase="upgrade", cubes={0: ["chili"]}), ["phase", "'upgrade'", "1 cubes"]),
    (dict(phase="monastery"), ["phase", "'monastery'", "pepper=0"]),
    (dict(phase="monastery", cubes={0: ["pepper"]}, tiles={1: [1, 2, 3]}),
     ["phase", "'monastery'", "tiles left 0"]),
    (dict(phase="cards", simple_deck=True), ["phase", "'cards'", "simple"]),
    (dict(phase="cards", cubes={0: ["chili"]}), ["cubes", "seat 0", "1 cubes"]),
]


@pytest.mark.parametrize("kwargs,fragments", ERRORS,
                         ids=[f"{i}-{'-'.join(map(str, e[0]))}" for i, e in enumerate(ERRORS)])
def test_inconsistent_fields_are_refused_by_name(kwargs, fragments):
    with pytest.raises(ValueError) as err:
        scenario.build(2, **kwargs)
    msg = str(err.value)
    for f in fragments:
        assert f in msg, msg


def test_game_level_refusals():
    with pytest.raises(ValueError, match="num_players=5"):
        scenario.build(5)
    with pytest.raises(ValueError, match="simple_deck must be True or False"):
        scenario.build(2, simple_deck="yes")
    game = tiny_game(COST_MAP["grid"], currents=COST_MAP["currents"], events=COST_MAP["events"])
    with pytest.raises(ValueError, match="black_ship needs a port named Melaka"):
        scenario.build(2, game=game, black_ship=True)
