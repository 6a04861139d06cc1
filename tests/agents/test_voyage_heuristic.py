"""The Voyage heuristic (agents/heuristic_voyage.py): always legal, deterministic, ends games,
and plays the strategy it claims (docs/rules/voyage.md; docs/design.md §8).

Strength and speed are measured, not asserted here: lab/heuristic_voyage_strength.py.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from numba import njit

from tests.helpers.voyage_helpers import force_rolls, hx, legal, staged, tiny_game
from tradewinds.agents import heuristic_voyage as HV
from tradewinds.agents import plan_voyage as PV
from tradewinds.agents.heuristic import decide as agent_decide
from voyage_env import GAME, scenario
from voyage_env import actions as A
from voyage_env import kernel as K
from voyage_env import routes as RT
from voyage_env.board import load_map
from voyage_env.state import BID, CARDS, MONASTERY, ORDER, PLAY, UPGRADE, WRECK, StateView

WTS = PV.plan_weights()
PRM = PV.default_params()
NO_TABLES = np.zeros((0, 2, 0, 0), np.int32)
TABLES = {}


def tables(game):
    if id(game) not in TABLES:
        TABLES[id(game)] = RT.plan_tables(game)
    return TABLES[id(game)]


def choose(game, s, routes=None):
    """The strategy's own choice (no legality guard) and the legal mask."""
    mask = np.zeros(A.NUM_ACTIONS, np.int8)
    K.legal_mask(s, game.aux.m, mask)
    r = tables(game) if routes is None else routes
    return int(HV.choose(s, game.aux.m, WTS, r, mask, PRM)), mask


def nothing_to_find(s, seat=1):
    """(An edited state) all ports discovered by `seat` and no cube in stock but pepper:
    nothing tempts a detour."""
    v = StateView(s)
    v.discovered[:] = seat
    v.stock[[0, 1, 2, 4, 5, 6, 7]] = 0


def heuristic_turn(game, s, seat, limit=200):
    """Let the heuristic play while `seat` decides; the action names taken."""
    names = []
    for _ in range(limit):
        if game.is_terminal(s) or s[K.DECIDER] != seat:
            return names
        a, mask = choose(game, s)
        assert mask[a], f"illegal {A.NAMES[a]}"
        names.append(A.NAMES[a])
        game.step(s, a)
    raise AssertionError(f"seat {seat} still deciding after {limit} actions: {names[-20:]}")


def play_out(game, n, seed, seats, routes=None, **options):
    """A whole game: 'h' seats play the heuristic (each choice checked legal), 'r' seats
    uniformly random legal actions. Returns (state, heuristic decisions)."""
    s = game.new_state(n, seed, **options)
    rng = np.random.default_rng(seed)
    count = 0
    mask = np.zeros(A.NUM_ACTIONS, np.int8)
    while not game.is_terminal(s):
        p = int(s[K.DECIDER])
        if seats[p] == "h":
            a, mask = choose(game, s, routes)
            assert mask[a], f"seed {seed} seat {p}: illegal {A.NAMES[a]} in phase {s[K.PHASE]}"
            count += 1
        else:
            K.legal_mask(s, game.aux.m, mask)
            a = int(rng.choice(np.flatnonzero(mask)))
        game.step(s, a)
    return s, count


# ---------------------------------------------------------------- legality, determinism


@pytest.mark.parametrize("options", [{}, {"simple_deck": True}, {"black_ship": True},
                                     {"dice_movement": True},
                                     {"dice_movement": True, "black_ship": True}],
                         ids=["default", "simple_deck", "black_ship", "dice", "dice+black"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_choice_is_legal_in_whole_games(n, options):
    total = 0
    _, k = play_out(GAME, n, 100 + n, "h" * n, **options)
    total += k
    _, k = play_out(GAME, n, 200 + n, "h" + "r" * (n - 1), **options)
    total += k
    _, k = play_out(GAME, n, 300 + n, "r" + "h" * (n - 1), **options)
    total += k
    assert total > 500


@pytest.mark.parametrize("n", [2, 3, 4])
def test_all_heuristic_games_end_by_the_rules(n):
    for seed in range(3):
        s, _ = play_out(GAME, n, 1000 * n + seed, "h" * n)
        v = StateView(s)
        assert not GAME.is_truncated(s) and v.round < v.max_rounds
        assert v.tiles_taken == v.tiles_total, "the game ended with the last tile (V49)"
        assert int(v.tiles[:n].sum()) == v.tiles_total


def test_the_bound_policy_is_deterministic_for_the_same_key():
    s = GAME.new_state(3, 7)
    mask = np.zeros(A.NUM_ACTIONS, np.int8)
    for _ in range(300):
        if GAME.is_terminal(s):
            break
        a = agent_decide(GAME.aux, s, mask, np.array([5, 9], np.int32))
        b = agent_decide(GAME.aux, s.copy(), mask, np.array([5, 9], np.int32))
        assert a == b and GAME.legal_mask(s)[a]
        GAME.step(s, int(a))


def test_precomputed_tables_decide_exactly_like_tables_made_on_the_spot():
    s = GAME.new_state(2, 11)
    decisions = 0
    while not GAME.is_terminal(s) and decisions < 600:
        a, _ = choose(GAME, s)
        b, _ = choose(GAME, s, NO_TABLES)
        assert a == b, f"decision {decisions}: {A.NAMES[a]} != {A.NAMES[b]}"
        GAME.step(s, a)
        decisions += 1


class AuxWithRoutes(NamedTuple):
    """An aux value carrying precomputed route tables (see PV.aux_routes)."""

    m: np.ndarray
    routes: np.ndarray


def test_an_aux_value_with_route_tables_is_read_and_decides_the_same():
    # an uncached copy: numba's on-disk index must not record this test module's class
    policy = njit(HV.heuristic_action.py_func)
    aux = AuxWithRoutes(GAME.aux.m, RT.plan_tables(GAME))
    s = GAME.new_state(3, 5)
    mask = np.zeros(A.NUM_ACTIONS, np.int8)
    for _ in range(300):
        a = policy(aux, s, mask, np.array([1, 2], np.int32))
        b = HV.heuristic_action(GAME.aux, s, mask, np.array([1, 2], np.int32))
        assert a == b
        GAME.step(s, int(a))


def test_heuristic_agent_beats_random_in_the_arena():
    from tradewinds.studies import arena

    st = arena.Study.create("voyage", 2, "heuristic,random", seating="rotate")
    for i in range(2):
        row = arena.play_game(st, i)
        seat = row["agents"].index("heuristic")
        assert row["winners"] == [seat], row


# ---------------------------------------------------------------- strategy


def test_a_ship_with_pepper_next_to_lisbon_goes_home_docks_and_takes_a_tile():
    lisbon = GAME.board.lisbon
    s = staged(GAME, 2, ships={0: (11, 3)}, cubes={0: ["pepper"]},
               hands={0: {"favourable": 2, "storm2": 3}})
    nothing_to_find(s)
    names = heuristic_turn(GAME, s, 0)
    assert names[0] == "move:NE" and GAME.board.neighbors[hx(GAME, 11, 3), 1] == lisbon
    assert names[1:3] == ["dock", "monastery:take"], names
    v = StateView(s)
    assert v.tiles[0] == 1 and v.vp[0] == 10 and v.docked[0] == 1
    # with Madeira (one step south) undiscovered, the pepper makes the short detour first
    s = staged(GAME, 2, ships={0: (11, 3)}, cubes={0: ["pepper"]},
               hands={0: {"favourable": 2, "storm2": 3}})
    nothing_to_find(s)
    v = StateView(s)
    v.discovered[GAME.board.port_id("Madeira")] = -1
    names = heuristic_turn(GAME, s, 0)
    assert names[0] == "move:S" and "dock" in names
    assert v.discovered[GAME.board.port_id("Madeira")] == 0 and v.tiles[0] == 1


def test_upgrade_with_three_cheap_cubes_and_keep_the_pepper_for_the_tile():
    s = staged(GAME, 2, cubes={0: ["chili", "ivory", "cinnamon", "pepper"]},
               hands={0: {"favourable": 1}})
    nothing_to_find(s)
    a, _ = choose(GAME, s)
    assert A.NAMES[a] == "dock", "at Lisbon with pepper: dock"
    names = heuristic_turn(GAME, s, 0)
    assert names[:4] == ["dock", "upgrade:chili", "upgrade:ivory", "upgrade:cinnamon"], names
    assert names[4] == "monastery:take"
    v = StateView(s)
    assert v.upgraded[0] == 1 and v.discs[0] == 12 and v.tiles[0] == 1


# Lisbon (0,0) and Calicut (4,2): six paid steps along the top, or one paid step into a
# current that runs along the bottom row to Calicut for free.
CURRENT_MAP = dict(
    grid="""
        @~~~~
        ~...~
        ~~~~A
    """,
    ports="A | Calicut | 1498 | east | pepper",
    currents="c : 0,1 : S SE NE SE NE",
)


def test_the_route_helpers_first_step_is_taken_and_the_current_used():
    g = tiny_game(**CURRENT_MAP)
    s = staged(g, 2, hands={0: {"favourable": 1}})
    r = RT.Router(g)
    assert r.cost("Lisbon", "Calicut") == 1
    a, _ = choose(g, s)
    assert a == A.MOVE + r.next_step("Lisbon", "Calicut") == A.from_name("move:S")
    names = heuristic_turn(g, s, 0)
    v = StateView(s)
    assert v.discovered[0] == 0, "Calicut discovered"
    # 1 disc out, the current to Calicut, 6 back along the top row: home in the same turn
    assert names[-3:] == ["dock", "monastery:take", "cards:top_up"], names
    assert v.tiles[0] == 1 and v.docked[0] == 1


# Lisbon (0,0), Calicut (4,0): the top row crosses a red hex at (2,0); the way round
# through row 1 costs two discs more.
RED_MAP = dict(
    grid="""
        @~~~A
        ~~.~~
        ~~~~~
    """,
    ports="A | Calicut | 1498 | east | pepper",
    events="""
        ~~R~~
        ~~.~~
        ~~~~~
    """,
)


def test_pepper_goes_home_round_the_red_hex_when_the_detour_is_short():
    g = tiny_game(**RED_MAP)
    red = hx(g, 2, 0)
    assert RT.Router(g).cost("Calicut", "Lisbon") == 4
    assert RT.Router(g, red=100).cost("Calicut", "Lisbon") == 6
    assert red in RT.Router(g).path("Calicut", "Lisbon")
    s = staged(g, 2, ships={0: (4, 0)}, cubes={0: ["pepper"]}, hands={0: {"favourable": 1}})
    ships = []
    while s[K.DECIDER] == 0:
        a, _ = choose(g, s)
        g.step(s, a)
        ships.append(int(StateView(s).ship[0]))
    v = StateView(s)
    assert v.docked[0] == 1 and v.tiles[0] == 1
    assert red not in ships, "4 discs of risk for the red hex > 2 discs of detour"


def test_the_wreck_falls_on_the_ship_carrying_least():
    g = tiny_game(**RED_MAP)
    s = staged(g, 2, ships={0: (1, 0)}, cubes={0: ["chili", "pepper"]},
               hands={0: {"favourable": 1}})
    force_rolls(s, True)
    g.step(s, "move:NE")        # onto the red hex: the die shows the wreck face
    assert s[K.PHASE] == WRECK and s[K.DECIDER] == 0
    a, mask = choose(g, s)
    assert mask[a] and A.NAMES[a] == "wreck:ship3", "ship 3 carries nothing"
    s2 = staged(g, 2, ships={0: (1, 0)}, cubes={0: ["chili", "pepper", "cinnamon"]},
                hands={0: {"favourable": 1}})
    force_rolls(s2, True)
    g.step(s2, "move:NE")
    a, _ = choose(g, s2)
    assert A.NAMES[a] in ("wreck:ship1", "wreck:ship3"), "never the pepper's ship"


def test_a_favourable_wind_on_a_blue_hex_gives_discs_back():
    g = tiny_game(grid="@~~~A", ports="A | Calicut | 1498 | east | pepper", events="~~B~~")
    s = staged(g, 2, ships={0: (1, 0)}, spent={0: 3},
               hands={0: {"favourable": 1, "storm2": 1, "calm": 1}})
    assert choose(g, s)[0] == A.from_name("move:NE")
    g.step(s, "move:NE")
    assert s[K.PHASE] == PLAY
    a, _ = choose(g, s)
    assert A.NAMES[a] == "play:favourable"


def auction(game, s):
    """Let the heuristic play the auction out: [(seat, action name)] until the turns start."""
    said = []
    while s[K.PHASE] in (BID, ORDER):
        a, mask = choose(game, s)
        assert mask[a], f"illegal {A.NAMES[a]}"
        said.append((int(s[K.DECIDER]), A.NAMES[a]))
        game.step(s, a)
    return said


def port_names():
    return list(load_map().port_name)


def test_with_nothing_to_race_for_every_seat_passes():
    s = scenario.build(2, phase="bid", round=3, order=[0, 1], ships={0: "Ceylon", 1: "Lisbon"},
                       discovered={name: 0 for name in port_names()})
    assert auction(GAME, s) == [(0, "bid:pass"), (1, "bid:pass")]


def test_a_bid_for_first_place_where_both_fleets_race_to_a_port():
    """V10-V12, VA13: Ceylon (2 VP, V23) is the only undiscovered port and both ships are
    two steps from it. It is seat 1's target card (+5 VP at the end, V51) but not seat
    0's, so seat 1, second in the order, raises to 1 disc; seat 0 values the port less and
    lets it go; seat 1 takes the first position (V11). With the card in seat 0's hand
    instead, seat 0 would win any raise, and nobody bids: the order stays."""
    names = port_names()
    west, east = names[:16], names[16:]
    others = [e for e in east if e != "Ceylon"]
    everything_but_ceylon = {name: 0 for name in names if name != "Ceylon"}
    for holder in (1, 0):
        rival = 1 - holder
        targets = {holder: west[:4] + ["Ceylon"] + others[:3],
                   rival: west[4:8] + others[3:7]}
        s = scenario.build(2, phase="bid", round=4, order=[0, 1], ships={0: (28, 9), 1: (28, 9)},
                           targets=targets, discovered=everything_but_ceylon)
        said = auction(GAME, s)
        if holder == 1:
            assert said == [(0, "bid:pass"), (1, "bid:1"), (0, "bid:pass"), (1, "order:1")]
            assert list(s[K.ORDER_:K.ORDER_ + 2]) == [1, 0]
            assert K.available(s, 1) == 8, "the bid stays spent this round (V12)"
        else:
            assert said == [(0, "bid:pass"), (1, "bid:pass")]
            assert list(s[K.ORDER_:K.ORDER_ + 2]) == [0, 1]


def test_the_race_for_the_last_tile_goes_to_the_fleet_that_can_spare_more():
    """V41, V49: one tile left, both carry pepper. Seat 1 is one step from Lisbon; seat 0,
    first in the order, seven discs away, could spare two discs at most and still dock
    this round: seat 1 bids 1 and moves first. Both next to Lisbon: equal limits, the
    earlier place keeps the tile and nobody wastes a disc (V12)."""
    everything = {name: 0 for name in port_names()}
    far = {0: ["chili", "brazilwood", "ivory", "pepper"], 1: ["pepper"]}
    s = scenario.build(2, phase="bid", round=9, order=[0, 1], ships={0: (12, 13), 1: (11, 3)},
                       cubes=far, tiles={0: [1], 1: [2]}, discovered=everything)
    assert auction(GAME, s) == [(0, "bid:pass"), (1, "bid:1"), (0, "bid:pass"),
                                (1, "order:1")]
    s = scenario.build(2, phase="bid", round=9, order=[0, 1], ships={0: (11, 3), 1: (11, 3)},
                       cubes={0: ["pepper"], 1: ["pepper"]}, tiles={0: [1], 1: [2]},
                       discovered=everything)
    assert auction(GAME, s) == [(0, "bid:pass"), (1, "bid:pass")]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_all_heuristic_games_bid_and_change_the_turn_order(n):
    """The heuristic bids (V10) in whole games and the order then changes (V11)."""
    raises = changed = rounds = 0
    for seed in range(12):
        s = GAME.new_state(n, 500 + seed)
        v = StateView(s)
        before = list(v.order[:n])
        while not GAME.is_terminal(s):
            phase = int(v.phase)
            a, mask = choose(GAME, s)
            assert mask[a]
            raises += phase == BID and a != A.BID_PASS
            GAME.step(s, a)
            if phase in (BID, ORDER) and v.phase not in (BID, ORDER):   # auction over
                after = list(v.order[:n])
                changed += after != before
                before = after
        rounds += int(v.round)
    assert raises > 0 and changed > 0
    assert changed / rounds >= 0.03, f"order changed in {changed} of {rounds} rounds"


def test_cards_and_monastery_choices():
    s = staged(GAME, 2, cubes={0: ["pepper"]}, hands={0: {"calm": 3, "storm4": 2}})
    nothing_to_find(s)
    names = heuristic_turn(GAME, s, 0)
    assert names[:3] == ["dock", "monastery:take", "cards:new"], "a bad hand is replaced"
    s = staged(GAME, 2, cubes={0: ["pepper"]}, hands={0: {"favourable": 3, "calm": 1}})
    nothing_to_find(s)
    names = heuristic_turn(GAME, s, 0)
    assert names[:3] == ["dock", "monastery:take", "cards:top_up"], "a good hand is kept"


def test_stops_when_nothing_is_left_to_do():
    g = tiny_game(grid="@~~A", ports="A | Guinea | 1444 | west | chili")
    for ship in ((3, 0), (0, 0)):
        s = staged(g, 2, ships={0: ship}, hands={0: {"favourable": 1}})
        v = StateView(s)
        v.discovered[0] = 1      # Guinea found by the other seat
        v.stock[0] = 0           # and no chili left to load (an edited, partial state)
        assert A.NAMES[choose(g, s)[0]] == "stop", ship
    v.stock[0] = 4               # chili again: go and load it
    assert A.NAMES[choose(g, s)[0]] == "move:SE"


def test_phases_that_do_not_need_routes():
    s = staged(GAME, 2, cubes={0: ["chili", "ivory", "cinnamon", "pepper"]},
               hands={0: {"favourable": 1}})
    StateView(s).tiles_taken = 2     # (edited) the pepper takes the last tile
    GAME.step(s, "dock")
    assert s[K.PHASE] == UPGRADE
    a, _ = choose(GAME, s)
    assert A.NAMES[a] == "upgrade:skip", "no upgrade when the game ends with this tile"
    s = staged(GAME, 2, cubes={0: ["pepper"]}, hands={0: {"favourable": 1}})
    GAME.step(s, "dock")
    assert s[K.PHASE] == MONASTERY and A.NAMES[choose(GAME, s)[0]] == "monastery:take"
    GAME.step(s, "monastery:take")
    assert s[K.PHASE] == CARDS and "cards:top_up" in legal(GAME, s)


def _port_value_as_written(s, m, p, port, denial):
    """The port valuation in its plain, branching form (what `plan_voyage.port_values` computes
    without branches): discovery VP and the target card or the denial share if
    undiscovered; a cube p can load, plus the upgrade bonus while it counts toward it."""
    v = 0.0
    tiles_left = s[K.TILES_TOTAL] - s[K.TILES_TAKEN]
    if s[K.DISCOVERED + port] < 0:
        v += K.portf(m, port, K.P_VP)
        if port in s[K.TARGETS + p * PV.NT: K.TARGETS + (p + 1) * PV.NT]:
            v += PV.R.TARGET_VP
        else:
            v += denial[K.portf(m, port, K.P_DECK)]
    g = K.portf(m, port, K.P_GOOD)
    if (g >= 0 and s[K.CUBES + p * PV.NG + g] == 0 and K.ship_works(s, p, g // 2)
            and s[K.STOCK + g] > 0):
        v += (10.0 if tiles_left > 0 else 5.0) if g == PV.PEPPER else float(K.GOOD_VP[g])
        cubes = sum(int(s[K.CUBES + p * PV.NG + h]) for h in range(PV.NG) if h != PV.PEPPER)
        if (g != PV.PEPPER and s[K.UPGRADED + p] == 0 and cubes < 3 and tiles_left > 1
                and s[K.DICE] == 0):
            v += PRM[PV.P_UPGRADE_BONUS]
    return v


@pytest.mark.parametrize("options", [{}, {"dice_movement": True}], ids=["default", "dice"])
def test_port_values_equal_the_plain_valuation_exactly(options):
    """`port_values` picks its terms by value instead of branching; every port's value
    for every seat equals the plain form bit for bit, along whole heuristic games."""
    m = GAME.aux.m
    worth = np.empty(int(m[K.M_P]), np.float64)
    checked = 0
    for n, seed in ((2, 5), (3, 6), (4, 7)):
        s = GAME.new_state(n, seed, **options)
        steps = 0
        while not GAME.is_terminal(s) and steps < 400:
            if steps % 7 == 0:
                denial = PV.denial_values(s, m, PRM)
                for p in range(n):
                    PV.port_values(s, m, p, PRM, denial, worth)
                    for port in range(int(m[K.M_P])):
                        assert worth[port] == _port_value_as_written(s, m, p, port, denial)
                        checked += 1
            a, _ = choose(GAME, s)
            GAME.step(s, a)
            steps += 1
    assert checked > 1000
