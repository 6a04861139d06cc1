"""The Hansa heuristic (agents/heuristic_hansa.py): always legal, deterministic given its
key, and playing the strategy of the rules in positions built with hansa_env.scenario.

Strength and speed are measured, not asserted here: lab/heuristic_hansa_strength.py.
"""

import numpy as np
import pytest

from hansa_env import GAME, scenario
from hansa_env.bindings import AUX
from hansa_env.state import StateView
from tradewinds.agents import heuristic_hansa as H
from tradewinds.agents.heuristic import HeuristicAgent, decide
from tradewinds.protocol import as_key
from tradewinds.studies import arena

MASK = np.zeros(GAME.num_actions, dtype=np.int8)
TWO_WAREHOUSES = {"Lubeck", "Danzig", "Stockholm", "Riga"}   # Copenhagen: not in setup
C2 = ["red", "orange", "yellow", "blue"]                     # colours of 2-player positions


def heuristic(state, key) -> int:
    """The heuristic's action through the generic binding (agents.policies)."""
    return int(decide(AUX, state, MASK, key))


def choice(state, seed=0) -> str:
    return GAME.action_name(heuristic(state, as_key(seed)))


def play_turn(state, seat, key) -> list:
    """Heuristic decisions while `seat` decides; the names played."""
    names = []
    while not GAME.is_terminal(state) and GAME.current_player(state) == seat:
        a = heuristic(state, key)
        names.append(GAME.action_name(a))
        GAME.step(state, a)
    return names


def play_game(n, seed, heuristic_seats) -> tuple:
    """One game, the heuristic in `heuristic_seats`, random elsewhere; every heuristic
    choice is checked against the legal mask. Returns (decisions checked, final state)."""
    s = GAME.new_state(n, seed)
    key = as_key(seed)
    rng = np.random.default_rng(seed)
    checked = 0
    while not GAME.is_terminal(s):
        p = GAME.current_player(s)
        legal = GAME.legal_mask(s)
        if p in heuristic_seats:
            before = s.copy()
            a = heuristic(s, key)
            assert legal[a], f"illegal {GAME.action_name(a)} in {scenario.describe(s)}"
            assert (s == before).all(), "the heuristic changed the state it was given"
            checked += 1
        else:
            a = int(rng.choice(np.flatnonzero(legal)))
        GAME.step(s, a)
    return checked, s


# ---------------------------------------------------------------- legality, determinism


@pytest.mark.parametrize("n", [2, 3, 4])
def test_always_legal_in_whole_games(n):
    checked = 0
    for seed in range(3):
        checked += play_game(n, seed, set(range(n)))[0]          # all seats heuristic
        checked += play_game(n, 100 + seed, {seed % n})[0]       # one seat, random others
        checked += play_game(n, 200 + seed, {0, n - 1})[0]
    assert checked > 1000


def test_every_phase_is_decided():
    """Games of heuristic players pass through setup, refill, actions, selling and loss
    (it seldom ends a turn above three tokens: tax has its own tests below)."""
    seen = set()
    for n in (2, 3, 4):
        for seed in range(4):
            s = GAME.new_state(n, seed)
            key = as_key(seed)
            while not GAME.is_terminal(s):
                seen.add(StateView(s).phase)
                GAME.step(s, heuristic(s, key))
    assert seen >= {0, 1, 2, 3, 4}


def test_deterministic_given_the_key():
    def game(seed):
        s = GAME.new_state(3, 7)
        key = as_key(seed)
        out = []
        while not GAME.is_terminal(s):
            a = heuristic(s, key)
            out.append(a)
            GAME.step(s, a)
        return out

    assert game(1) == game(1)
    s = GAME.new_state(2, 3)
    first = [heuristic(s, as_key(5)) for _ in range(3)]
    assert len(set(first)) == 1


def test_the_agent_plays_whole_games_in_the_arena():
    """`heuristic` as an agent (on determinizations): legal throughout, mixed with random."""
    st = arena.Study.create("hansa", 3, "heuristic,random,heuristic", seating="rotate")
    for i in range(2):
        row = arena.play_game(st, i)
        assert row["steps"] > 0 and not row["truncated"]
    agent = HeuristicAgent("hansa")
    s = GAME.new_state(2, 0)
    rng = np.random.default_rng(0)
    a = agent.act(GAME.observe(s, 0), GAME.legal_mask(s), rng, state=s)
    assert GAME.legal_mask(s)[a]


def test_beats_random():
    """A small sample (the benchmark measures the win rate): the heuristic, seats rotated."""
    wins = 0.0
    for n, games in ((2, 20), (3, 9), (4, 8)):
        for g in range(games):
            seat = g % n
            _, s = play_game(n, 1000 + g, {seat})
            w = GAME.winners(s)
            wins += (seat in w) / len(w)
    assert wins >= 0.8 * (20 + 9 + 8)


def test_fast_enough_to_finish_games_without_truncation():
    for n in (2, 4):
        _, s = play_game(n, 5, set(range(n)))
        assert GAME.is_terminal(s) and not GAME.is_truncated(s)
        assert StateView(s).round < 40


# ---------------------------------------------------------------- strategy


def test_sells_every_colour_held_twice():
    """A two-colour sale of four tokens: all of them go, and the opponent loses tokens."""
    s = scenario.build(2, ship="Danzig", colours=C2, money={0: 3},
                       stalls={"Danzig": {0: 2}, "Riga": {1: 2}},
                       hands={0: ["red1", "red2", "blue2", "blue3"], 1: ["red3", "blue1"]})
    for seed in range(3):
        t = s.copy()
        key = as_key(seed)
        first = GAME.action_name(heuristic(t, key))
        assert first.startswith("sell:add:"), first
        names = []
        while StateView(t).phase != 2 or not names:          # until the sale is settled
            a = heuristic(t, key)
            names.append(GAME.action_name(a))
            GAME.step(t, a)
        d = scenario.describe(t)
        assert d["sold"][0] == ["red1", "red2", "blue2", "blue3"], names
        assert d["hands"][1] == []                             # one red and one blue lost


def test_sells_on_the_last_turn_to_win():
    """The game ends with this turn: selling wins it, ending the turn at once loses."""
    s = scenario.build(2, ship="Danzig", active=1, end_triggered=True, round=9, colours=C2,
                       stalls={"Danzig": {1: 2}, "Riga": {0: 2}},
                       hands={1: ["red2", "red3"]}, sold={0: ["blue3"]})
    assert list(GAME.scores(s)) == [8, 6]
    for seed in range(3):
        t = s.copy()
        names = play_turn(t, 1, as_key(seed))
        assert GAME.is_terminal(t), names
        assert GAME.winners(t) == [1], names


def test_buys_for_free_where_it_holds_the_majority():
    s = scenario.build(2, ship="Danzig", colours=C2, money={0: 1},
                       stalls={"Danzig": {0: 3, 1: 1}},
                       warehouses={"Danzig": ["blue2", None]}, hands={0: ["blue3"]})
    for seed in range(3):
        t = s.copy()
        assert choice(t, seed) == "buy:Danzig/1"
        GAME.step(t, "buy:Danzig/1")
        assert scenario.describe(t)["money"] == {0: 1, 1: 3}


def test_sails_to_its_majority_city_rather_than_pay_the_opponent():
    """The same token here (opponent's majority: 1 taler to him) and one route away (own
    majority: free); the taler is spent either way (four talers, three survive the turn)."""
    s = scenario.build(2, ship="Copenhagen", colours=C2, money={0: 4, 1: 3},
                       stalls={"Copenhagen": {1: 2}, "Danzig": {0: 3, 1: 1}},
                       warehouses={c: [None] * len(scenario.SLOTS[i])
                                   for i, c in enumerate(scenario.CITY)}
                       | {"Copenhagen": ["blue2", None], "Danzig": ["blue2", None]})
    for seed in range(5):
        t = s.copy()
        key = as_key(seed)
        assert GAME.action_name(heuristic(t, key)) == "sail:Danzig"
        GAME.step(t, "sail:Danzig")
        assert GAME.action_name(heuristic(t, key)) == "buy:Danzig/1"


def test_does_not_pay_for_sailing_when_nothing_can_be_gained():
    empty = {c: [None] * len(scenario.SLOTS[i]) for i, c in enumerate(scenario.CITY)}
    for money in (1, 3, 6):
        s = scenario.build(2, ship="Lubeck", money={0: money}, warehouses=empty,
                           stalls={"Lubeck": {0: 2}, "Aalborg": {1: 2}})
        for seed in range(3):
            assert choice(s, seed) == "end_actions"


def test_loss_gives_up_the_cheapest_token():
    for held, lost in ((["red1", "red3"], "discard:red1"),
                       (["red2", "red3", "red3"], "discard:red2"),
                       (["red1", "red2", "blue3"], "discard:red1")):
        s = scenario.build(2, phase="loss", ship="Danzig", colours=C2,
                           stalls={"Danzig": {0: 1}}, hands={1: held},
                           sold={0: ["red2", "red2"]}, loss={"seat": 1, "colour": "red"})
        for seed in range(3):
            assert choice(s, seed) == lost


def test_tax_keeps_the_pair_and_discards_the_least_useful_token():
    s = scenario.build(2, phase="tax", colours=C2, money={0: 3},
                       hands={0: ["red1", "red2", "blue3", "yellow1"]})
    assert choice(s) == "discard:yellow1"
    # two pairs and two lone 1-barrel tokens: the lone ones go first, then the red1: the
    # blue pair (1 + 3 barrels) and the red2 stay
    s = scenario.build(2, phase="tax", colours=C2, money={0: 3},
                       hands={0: ["red1", "red2", "blue1", "blue3", "yellow1", "orange1"]})
    t = s.copy()
    names = play_turn(t, 0, as_key(0))
    assert sorted(names) == ["discard:orange1", "discard:red1", "discard:yellow1"]
    assert scenario.describe(t)["hands"][0] == ["red2", "blue1", "blue3"]


def test_builds_with_a_lone_token_for_a_majority():
    """A single 3-barrel token (no sale possible) in a city where 3 stalls take the
    majority from the opponent, no taler to go anywhere else: build."""
    empty = {c: [None] * len(scenario.SLOTS[i]) for i, c in enumerate(scenario.CITY)}
    s = scenario.build(2, ship="Riga", colours=C2, money={0: 0}, warehouses=empty,
                       stalls={"Riga": {0: 1, 1: 2}, "Danzig": {1: 2}},
                       hands={0: ["yellow3"]})
    for seed in range(3):
        assert choice(s, seed) == "build:yellow3"


def test_setup_takes_open_cities_with_two_warehouses():
    for seed in range(8):
        s = scenario.build(2, seed=seed, phase="setup")
        assert choice(s, seed).split(":")[1] in TWO_WAREHOUSES
        # seat 1 answers seat 0's Danzig elsewhere
        s = scenario.build(2, seed=seed, phase="setup", stalls={"Danzig": {0: 2}})
        city = choice(s, seed).split(":")[1]
        assert city in TWO_WAREHOUSES - {"Danzig"}


def test_weights_are_a_parameter():
    """decide(s, mask, key, weights) is the policy with other weights (tuning)."""
    s = GAME.new_state(2, 0)
    a = H.decide(s, MASK, as_key(0), H.WEIGHTS)
    b = heuristic(s, as_key(0))
    assert a == b
    assert H.WEIGHTS.shape == (H.NUM_WEIGHTS,)
