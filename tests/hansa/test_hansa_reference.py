"""Tests of the plain-Python Hansa reference alone (rules H1..H30, examples E1..E11,
contract docs/hansa_engine.md). Scenario states are built by editing a state vector via
StateView and loading it with `HansaGame.from_state`, so they can be replayed on the kernel."""

import random

import numpy as np
import pytest

from hansa_env import actions as A
from hansa_env.board import CITIES, COLOURS, NUM_WAREHOUSES, TOKEN_NAMES, pile_sizes
from hansa_env.observation import OBS_SIZE, obs_names
from hansa_env.reference import HansaGame, SplitMix64
from hansa_env.state import ACTIONS, GAME_OVER, LOSS, REFILL, SETUP, TAX, StateView
from tests.helpers.rng_oracle import numpy_splitmix

PER_TYPE = np.array([4, 5, 4] * 6)


# ---------------------------------------------------------------- an independent RNG

def test_splitmix64_published_values_for_seed_0():
    # Vigna's splitmix64.c with x = 0.
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 7, 2**64 - 1])
def test_splitmix64_matches_independent_implementation(seed):
    rng = SplitMix64(seed)
    nxt, below, _ = numpy_splitmix(seed)
    assert [rng.next() for _ in range(20)] == [nxt() for _ in range(20)]
    assert [rng.below(k) for k in range(1, 40)] == [below(k) for k in range(1, 40)]


def test_splitmix64_seed_1_and_wraparound():
    assert SplitMix64(1).next() == 0x910A2DEC89025CC1
    assert SplitMix64(2**64 + 1).next() == SplitMix64(1).next()


def test_shuffle_is_fisher_yates_from_the_top():
    items = list(range(10))
    SplitMix64(7).shuffle(items)
    expected = list(range(10))
    _, below, _ = numpy_splitmix(7)
    for i in range(9, 0, -1):
        j = below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and sorted(items) == list(range(10))


# ---------------------------------------------------------------- setup

def independent_setup(n, seed):
    """Contract setup steps 1-3 with the independent RNG."""
    _, below, _ = numpy_splitmix(seed)

    def shuffle(a):
        for i in range(len(a) - 1, 0, -1):
            j = below(i + 1)
            a[i], a[j] = a[j], a[i]

    colours = list(range(6))
    shuffle(colours)
    aside = set(colours[:{2: 2, 3: 1, 4: 0}[n]])
    tokens = [c * 3 + b for c in range(6) if c not in aside for b in range(3)
              for _ in range((4, 5, 4)[b])]
    shuffle(tokens)
    return aside, tokens[:NUM_WAREHOUSES], tokens[NUM_WAREHOUSES:]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_setup_follows_the_contracts_randomness(n, seed):
    v = StateView(HansaGame(n, seed).to_state())
    aside, first_fill, rest = independent_setup(n, seed)
    assert [c for c in range(6) if not v.colour_in_play[c]] == sorted(aside)
    assert list(v.warehouse) == first_fill                      # H3, E1
    assert list(v.supply[:len(rest)]) == rest
    assert list(np.diff(np.r_[0, v.pile_end])) == list(pile_sizes(len(rest)))


@pytest.mark.parametrize("n,in_play,piles", [
    (2, 52, [8, 8, 8, 7, 7]), (3, 65, [11, 10, 10, 10, 10]), (4, 78, [13, 13, 13, 13, 12])])
def test_setup_counts(n, in_play, piles):
    for seed in range(5):
        g = HansaGame(n, seed)
        v = StateView(g.to_state())
        assert np.all(v.warehouse >= 0)                         # 14 warehouses filled
        supply = int(v.pile_end[-1])
        assert NUM_WAREHOUSES + supply == in_play               # H2
        assert list(np.diff(np.r_[0, v.pile_end])) == piles     # HA5
        assert v.removed.sum() == 78 - in_play and v.colour_in_play.sum() == n + 2
        assert list(v.money[:n]) == [3] * n and list(v.stall_supply[:n]) == [15] * n
        assert not v.money[n:].any() and not v.stall_supply[n:].any()
        assert CITIES[v.ship] == "Copenhagen"                   # H5
        assert v.phase == SETUP and v.round == 0 and g.current_player() == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_draft_order_and_constraints(n):
    rnd = random.Random(n)
    g = HansaGame(n, seed=n)
    order, chosen = [], {p: [] for p in range(n)}
    while StateView(g.to_state()).phase == SETUP:
        p = g.current_player()
        legal = [A.name(a) for a in g.legal_actions()]
        assert "setup:Copenhagen" not in legal                 # H8
        assert all(f"setup:{CITIES[c]}" not in legal for c in chosen[p])
        with pytest.raises(ValueError, match="setup:Copenhagen is illegal: no setup placement"):
            g.step(A.from_name("setup:Copenhagen"))
        if chosen[p]:
            again = f"setup:{CITIES[chosen[p][0]]}"
            with pytest.raises(ValueError, match=f"{again} is illegal: seat {p} already has"):
                g.step(A.from_name(again))
        action = rnd.choice(g.legal_actions())
        order.append(p)
        chosen[p].append(action - A.SETUP)
        g.step(action)
    assert order == list(range(n)) + list(range(n))[::-1] * 2   # 1..n, n..1, n..1
    v = StateView(g.to_state())
    for p in range(n):
        assert len(set(chosen[p])) == 3                         # E3
        assert sorted(np.flatnonzero(v.stalls[:, p])) == sorted(chosen[p])
        assert set(v.stalls[:, p]) <= {0, 2} and v.stall_supply[p] == 9
    assert v.phase == ACTIONS and v.active == 0 and v.round == 1
    assert v.money[0] == 6 and list(v.money[1:n]) == [3] * (n - 1)   # H10


# ---------------------------------------------------------------- random playouts

def check_invariants(state, n):
    v = StateView(state)
    where = v.removed.ravel() + v.hand.reshape(4, -1).sum(0) + v.sold.reshape(4, -1).sum(0)
    where = where + np.bincount(v.warehouse[v.warehouse >= 0], minlength=18)
    where = where + np.bincount(v.supply[v.supply_drawn:v.pile_end[-1]], minlength=18)
    assert np.array_equal(where, PER_TYPE), "tokens not conserved per type"
    assert np.array_equal(v.stall_supply[:n] + v.stalls[:, :n].sum(0), [15] * n)
    assert np.all(v.money >= 0) and np.all(v.hand >= 0) and np.all(v.stall_supply >= 0)
    assert v.round <= v.max_rounds


def play(game, rnd, each_step=None):
    """Random legal actions to the end; returns the action list."""
    history = []
    while not game.is_terminal():
        legal = game.legal_actions()
        assert legal, "no legal action in a live state"
        assert np.array_equal(np.flatnonzero(game.legal_mask()), legal)
        action = rnd.choice(legal)
        game.step(action)
        history.append(action)
        if each_step:
            each_step(game)
    return history


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_invariants(n):
    seen = set()
    for seed in range(100):
        g = HansaGame(n, seed)
        check_invariants(g.to_state(), n)

        def each(game):
            state = game.to_state()
            check_invariants(state, n)
            seen.add(StateView(state).phase)

        play(g, random.Random(seed), each)
        v = StateView(g.to_state())
        assert g.current_player() == -1 and g.legal_actions() == [] and not g.legal_mask().any()
        assert not g.is_truncated() and v.end_triggered          # ended by H27/H28
        assert v.turns == n * v.round                            # complete rounds (H28)
        assert len(g.scores()) == n and sum(g.returns()) == pytest.approx(1.0)
        assert set(g.winners()) <= set(range(n))
    assert {ACTIONS, REFILL, TAX, GAME_OVER} <= seen
    if n > 2:
        assert LOSS in seen


@pytest.mark.parametrize("n", [2, 3, 4])
def test_state_round_trip_along_games(n):
    for seed in range(4):
        g = HansaGame(n, seed, build_rule=("barrels", "per_stall")[seed % 2])

        def each(game):
            state = game.to_state()
            copy = HansaGame.from_state(state)
            assert np.array_equal(copy.to_state(), state)
            assert copy.legal_actions() == game.legal_actions()
            assert np.array_equal(copy.observe(0), game.observe(0))

        play(g, random.Random(seed), each)


def test_same_seed_and_actions_replay_exactly():
    g = HansaGame(3, 42)
    history = play(g, random.Random(5))
    replay = HansaGame(3, 42)
    for action in history:
        replay.step(action)
    assert np.array_equal(replay.to_state(), g.to_state())
    assert not np.array_equal(HansaGame(3, 43).to_state(), HansaGame(3, 42).to_state())


def test_clone_is_independent():
    g = HansaGame(2, 3)
    c = g.clone()
    c.step(c.legal_actions()[0])
    assert StateView(g.to_state()).setup_step == 0 and StateView(c.to_state()).setup_step == 1


def test_round_cap_truncates():
    g = HansaGame(2, 0, max_rounds=2)
    while not g.is_terminal():
        legal = g.legal_actions()
        for pick in (A.SKIP_REFILL, A.END_ACTIONS):
            if pick in legal:
                g.step(pick)
                break
        else:
            g.step(legal[0])
    v = StateView(g.to_state())
    assert g.is_truncated() and v.truncated and v.round == 2 and v.turns == 4
    assert g.current_player() == -1 and v.decider == -1 and v.phase == GAME_OVER
    with pytest.raises(ValueError, match="end_actions is illegal: the game is over"):
        g.step(A.END_ACTIONS)


# ---------------------------------------------------------------- scenario helpers

def after_setup(n, seed=0):
    g = HansaGame(n, seed)
    while g.current_player() >= 0 and StateView(g.to_state()).phase == SETUP:
        g.step(g.legal_actions()[0])
    return g


DEFAULT_ASIDE = {2: ("orange", "yellow"), 3: ("yellow",), 4: ()}


def blank(n, ship="Danzig", money=3, aside=None, keep_supply=False):
    """Seat 0 in phase actions; no stalls, empty hands and warehouses; every token out of
    play is in `removed` (with keep_supply the piles stay and the set-aside colours too)."""
    s = after_setup(n).to_state()
    v = StateView(s)
    for t in v.warehouse[v.warehouse >= 0]:
        v.removed[t // 3, t % 3] += 1
    v.warehouse = -1
    if not keep_supply:
        draw_away(v, int(v.pile_end[-1]) - v.supply_drawn)
    v.stalls = 0
    v.stall_supply[:n] = 15
    v.money[:n] = money
    if not keep_supply:
        aside = DEFAULT_ASIDE[n] if aside is None else aside
        v.colour_in_play = [c not in aside for c in COLOURS]
    v.ship = CITIES.index(ship)
    return s, v


def draw_away(v, k):
    for t in v.supply[v.supply_drawn:v.supply_drawn + k]:
        v.removed[t // 3, t % 3] += 1
    v.supply_drawn = v.supply_drawn + k


def available(v, barrels=1):
    """A token type name with `barrels` that is out of play but of a colour in play."""
    for t, name in enumerate(TOKEN_NAMES):
        if t % 3 == barrels - 1 and v.colour_in_play[t // 3] and v.removed[t // 3, t % 3]:
            return name
    raise AssertionError("no such token available")


def give(v, seat, name, k=1):
    t = TOKEN_NAMES.index(name)
    v.removed[t // 3, t % 3] -= k
    v.hand[seat, t // 3, t % 3] += k


def stock(v, where, name):
    t = TOKEN_NAMES.index(name)
    v.removed[t // 3, t % 3] -= 1
    v.warehouse[A.from_name(f"buy:{where}") - A.BUY] = t


def stalls(v, seat, city, k):
    v.stalls[CITIES.index(city), seat] += k
    v.stall_supply[seat] -= k


def turn_of(v, seat, phase=ACTIONS):
    v.active = v.decider = seat
    v.phase = phase


def do(g, *names):
    for a in names:
        g.step(A.from_name(a))


def legal_names(g):
    return [A.name(a) for a in g.legal_actions()]


# ---------------------------------------------------------------- rule scenarios

def test_e5_sailing_directions():
    g = after_setup(3)
    assert [a for a in legal_names(g) if a.startswith("sail:")] == [
        "sail:Tonsberg", "sail:Lubeck", "sail:Danzig"]
    for city in ("Aalborg", "Kalmar", "Riga"):
        before = g.to_state()
        with pytest.raises(ValueError, match=f"sail:{city} is illegal: no route from "
                                             f"Copenhagen to {city}"):
            g.step(A.from_name(f"sail:{city}"))
        assert np.array_equal(g.to_state(), before)             # state unchanged on error


def test_e4_several_actions_one_visit_each():
    s, v = blank(2, ship="Lubeck", money=8)
    for where in ("Lubeck/1", "Lubeck/2", "Aalborg/1", "Danzig/1"):
        stock(v, where, "red1")
    g = HansaGame.from_state(s)
    do(g, "buy:Lubeck/1")
    with pytest.raises(ValueError, match="buy:Lubeck/2 is illegal: already took an action"):
        do(g, "buy:Lubeck/2")
    do(g, "sail:Aalborg", "buy:Aalborg/1", "sail:Copenhagen", "sail:Danzig", "buy:Danzig/1")
    v = StateView(g.to_state())
    assert v.money[0] == 8 - 3 - 3 and v.hand[0, 0, 0] == 3     # 3 sails + 3 bank prices


def test_e6_build_to_tie_then_bank_price():
    s, v = blank(3, money=3)
    stalls(v, 0, "Danzig", 4)
    stalls(v, 1, "Danzig", 2)
    give(v, 1, "red1")
    give(v, 1, "blue2")
    turn_of(v, 1)
    g = HansaGame.from_state(s)
    do(g, "build:blue2")
    v = StateView(g.to_state())
    assert v.stalls[CITIES.index("Danzig"), :3].tolist() == [4, 4, 0]
    assert v.hand[1].sum() == 1 and v.hand[1, 0, 0] == 1
    with pytest.raises(ValueError, match="build:red1 is illegal: already took an action"):
        do(g, "build:red1")
    # a third player's purchase during the tie pays the bank (H19)
    s = g.to_state()
    v = StateView(s)
    stock(v, "Danzig/1", "green2")
    turn_of(v, 2)
    v.acted_here = 0
    g = HansaGame.from_state(s)
    do(g, "buy:Danzig/1")
    assert StateView(g.to_state()).money[:3].tolist() == [3, 3, 2]


def test_e7_sale_and_opponents_losses():
    s, v = blank(3, aside=("green",))
    stalls(v, 0, "Danzig", 2)
    for name in ("orange1", "orange2", "orange3", "brown1", "brown2"):
        give(v, 0, name)
    for name in ("orange1", "orange2", "brown2"):
        give(v, 1, name)
    give(v, 2, "brown3")
    g = HansaGame.from_state(s)
    assert "sell:done" not in legal_names(g)
    do(g, "sell:add:orange1", "sell:add:orange2", "sell:add:orange3", "sell:add:brown1")
    with pytest.raises(ValueError, match="sell:done is illegal: every selected colour"):
        do(g, "sell:done")
    do(g, "sell:add:brown2", "sell:done")
    v = StateView(g.to_state())
    assert v.phase == LOSS and g.current_player() == 1 and v.active == 0
    assert (v.loss_seat, v.loss_next, COLOURS[v.loss_colour]) == (1, 1, "orange")
    assert v.loss_colours == 0b100010 and v.loss_pending == 0b100000
    assert legal_names(g) == ["discard:orange1", "discard:orange2"]
    obs = dict(zip(obs_names(), g.observe(0), strict=True))
    assert obs["loss_colour=orange"] == 1 and obs["p1:decider"] == 1 and obs["p0:active"] == 1
    with pytest.raises(ValueError, match="discard:brown2 is illegal: the loss must be orange"):
        do(g, "discard:brown2")
    do(g, "discard:orange1")
    v = StateView(g.to_state())
    assert v.phase == ACTIONS and g.current_player() == 0
    assert v.sold[0].sum() == 5 and v.hand[0].sum() == 0
    assert v.stalls[CITIES.index("Danzig"), 0] == 1 and v.stall_supply[0] == 14   # H22
    assert v.hand[1].tolist() == [[0] * 3, [0, 1, 0], [0] * 3, [0] * 3, [0] * 3, [0] * 3]
    assert v.hand[2].sum() == 0                                  # brown3 lost automatically
    assert v.money[:3].tolist() == [3, 3, 3]
    assert not any((v.loss_colours, v.loss_next, v.loss_pending, v.loss_seat))
    assert not any(a.startswith(("sell", "build", "buy")) for a in legal_names(g))


def test_sell_needs_a_stall_and_two_of_a_colour():
    s, v = blank(2)
    give(v, 0, "red1")
    give(v, 0, "red2")
    give(v, 0, "blue1")
    g = HansaGame.from_state(s)
    with pytest.raises(ValueError, match="sell:add:red1 is illegal: seat 0 has no stall in"):
        do(g, "sell:add:red1")
    s = g.to_state()
    stalls(StateView(s), 0, "Danzig", 1)
    g = HansaGame.from_state(s)
    assert [a for a in legal_names(g) if a.startswith("sell")] == [
        "sell:add:red1", "sell:add:red2"]
    with pytest.raises(ValueError, match="sell:add:blue1 is illegal: fewer than 2 blue"):
        do(g, "sell:add:blue1")
    do(g, "sell:add:red2")
    assert legal_names(g) == ["sell:add:red1"]                  # no dead end, no escape


def test_e8_two_complete_turns():
    s, v = blank(3, ship="Copenhagen", money=3, keep_supply=True)
    stock(v, "Kalmar/1", available(v))                           # one filled: refill optional
    stalls(v, 2, "Copenhagen", 2)                                # purple's majority
    stalls(v, 0, "Copenhagen", 1)
    stalls(v, 0, "Tonsberg", 2)                                  # grey's majority
    three = available(v, barrels=3)
    give(v, 0, three)
    turn_of(v, 0, REFILL)
    v.money[0] = 5                                               # 2 + income (HA19)
    g = HansaGame.from_state(s)
    do(g, "refill")
    assert (StateView(g.to_state()).warehouse >= 0).all()
    do(g, "buy:Copenhagen/1", "sail:Tonsberg", "buy:Tonsberg/1", "sail:Stockholm",
       "sail:Reval", f"build:{three}")
    v = StateView(g.to_state())
    assert v.money[:3].tolist() == [0, 3, 4]
    assert v.stalls[CITIES.index("Reval"), 0] == 3 and v.hand[0].sum() == 2
    do(g, "end_actions")
    v = StateView(g.to_state())                                  # yellow: income, refill?
    assert v.active == 1 and v.phase == REFILL and v.money[1] == 6
    do(g, "skip_refill", "end_actions")
    v = StateView(g.to_state())
    assert v.money[1] == 3 and v.active == 2 and v.turns == StateView(s).turns + 2


def test_buy_free_with_own_majority_and_unpayable_price():
    s, v = blank(2, money=0)
    stock(v, "Danzig/1", "red1")
    stock(v, "Danzig/2", "red2")
    g = HansaGame.from_state(s)
    with pytest.raises(ValueError, match="buy:Danzig/1 is illegal: the price is 1 taler"):
        do(g, "buy:Danzig/1")
    assert legal_names(g) == ["end_actions"]
    stalls(v, 0, "Danzig", 1)
    g = HansaGame.from_state(s)
    do(g, "buy:Danzig/2")
    assert StateView(g.to_state()).money[:2].tolist() == [0, 0]


def test_build_rules_and_stall_supply_cap():
    s, v = blank(2)
    give(v, 0, "red3", 2)
    v.stall_supply[0] = 2
    v.stalls[CITIES.index("Riga"), 0] = 13
    g = HansaGame.from_state(s)
    do(g, "build:red3")                                          # HA8: min(3, 2)
    v2 = StateView(g.to_state())
    assert v2.stall_supply[0] == 0 and v2.stalls[CITIES.index("Danzig"), 0] == 2
    do(g, "sail:Kalmar")
    with pytest.raises(ValueError, match="build:red3 is illegal: no stall left"):
        do(g, "build:red3")                                      # HA11
    v.build_rule = 1
    g = HansaGame.from_state(s)
    do(g, "build:red3")
    assert StateView(g.to_state()).stalls[CITIES.index("Danzig"), 0] == 1   # per_stall


def test_tax_caps_money_and_goods():
    s, v = blank(2, money=7)
    for name in ("red1", "red2", "blue1", "blue3", "green2"):
        give(v, 0, name)
    g = HansaGame.from_state(s)
    do(g, "end_actions")
    v = StateView(g.to_state())
    assert v.phase == TAX and v.money[0] == 3 and g.current_player() == 0
    assert legal_names(g) == [f"discard:{t}" for t in ("red1", "red2", "green2", "blue1",
                                                        "blue3")]
    do(g, "discard:red1", "discard:green2")
    v = StateView(g.to_state())
    assert v.hand[0].sum() == 3 and v.active == 1 and v.phase == ACTIONS   # supply exhausted


def test_mandatory_refill_and_end_trigger_from_pile_5():
    s, v = blank(3, keep_supply=True)
    draw_away(v, int(v.pile_end[3]) - 5)                        # 5 left in pile 4
    g = HansaGame.from_state(s)
    do(g, "end_actions")                                         # all empty: automatic refill
    v = StateView(g.to_state())
    assert v.active == 1 and v.phase == ACTIONS and v.money[1] == 3 + 3 - 1
    assert (v.warehouse >= 0).all() and v.end_triggered == 1     # 9 tokens from pile 5


def test_last_token_of_pile_4_does_not_trigger():
    s, v = blank(3, keep_supply=True)
    draw_away(v, int(v.pile_end[3]) - 14)
    g = HansaGame.from_state(s)
    do(g, "end_actions")
    v = StateView(g.to_state())
    assert v.supply_drawn == v.pile_end[3] and v.end_triggered == 0


def test_exhausted_supply_skips_refill_without_payment():
    s, v = blank(2)
    g = HansaGame.from_state(s)
    do(g, "end_actions")
    v = StateView(g.to_state())
    assert v.phase == ACTIONS and v.money[1] == 6                # HA15


@pytest.mark.parametrize("trigger,turns_after", [(1, 1), (2, 0)])
def test_e9_end_timing(trigger, turns_after):
    s, v = blank(3, keep_supply=True)
    draw_away(v, int(v.pile_end[3]) - 1)
    stock(v, "Danzig/1", available(v))                           # not all empty: optional
    turn_of(v, trigger, REFILL)
    g = HansaGame.from_state(s)
    do(g, "refill", "end_actions")
    for _ in range(turns_after):
        assert g.current_player() == 2
        do(g, "end_actions")
    assert g.is_terminal() and not g.is_truncated() and g.current_player() == -1
    assert StateView(g.to_state()).active == 2                   # player 1 gets no turn


def test_e10_e11_scores_and_winners():
    s, v = blank(3)
    stalls(v, 0, "Copenhagen", 3)
    stalls(v, 1, "Copenhagen", 1)
    stalls(v, 2, "Copenhagen", 2)
    stalls(v, 1, "Kalmar", 1)
    give(v, 0, "red1")                                           # held: 1
    for name in ("red1", "red2", "red3"):                        # sold: 2 + 3 + 4
        t = TOKEN_NAMES.index(name)
        v.removed[t // 3, t % 3] -= 1
        v.sold[0, t // 3, t % 3] += 1
    g = HansaGame.from_state(s)
    assert g.scores() == [12, 6, 2] and g.winners() == [0] and g.returns() == [1, 0, 0]
    obs = dict(zip(obs_names(), g.observe(1), strict=True))
    assert obs["p0:score"] == pytest.approx(0.06) and obs["p2:score"] == pytest.approx(0.12)
    stalls(v, 2, "Riga", 1)
    stalls(v, 1, "Kalmar", 1)
    v.sold[0] = 0
    v.removed[0] += [1, 1, 1]
    v.hand[0, 0, 0] = 0
    v.removed[0, 0] += 1
    g = HansaGame.from_state(s)                                  # 2, 6, 6: tie, stalls 3 vs 3
    assert g.scores() == [2, 6, 6] and g.winners() == [1, 2] and g.returns() == [0, 0.5, 0.5]
    stalls(v, 2, "Riga", 1)
    assert HansaGame.from_state(s).winners() == [2]              # H30 tie-break


# ---------------------------------------------------------------- observation

def test_observation_layout_and_relative_seats():
    g = after_setup(3, seed=4)
    names = obs_names()
    for o in range(3):
        x = g.observe(o)
        assert x.dtype == np.float32 and x.shape == (OBS_SIZE,)
        obs = dict(zip(names, x, strict=True))
        v = StateView(g.to_state())
        assert obs["num_players=3"] == 1 and obs["phase=actions"] == 1
        assert obs["my_seat/3"] == pytest.approx(o / 3)
        assert obs["ship@Copenhagen"] == 1 and obs["round/max_rounds"] == pytest.approx(1 / 200)
        for r in range(3):
            seat = (o + r) % 3
            assert obs[f"p{r}:money"] == pytest.approx(v.money[seat] / 10)
            assert obs[f"p{r}:active"] == obs[f"p{r}:decider"] == (seat == 0)
        assert not any(val for k, val in obs.items() if k.startswith("p3:"))
        piles = sum(obs[f"pile{k}_size"] for k in range(1, 6)) * 13
        assert piles == pytest.approx(v.pile_end[-1] - v.supply_drawn)
        assert sum(val for k, val in obs.items() if k.startswith("wh:")) == 14
    with pytest.raises(ValueError, match="player must be a seat"):
        g.observe(3)


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("kwargs,message", [
    (dict(num_players=1, seed=0), "num_players"),
    (dict(num_players=5, seed=0), "num_players"),
    (dict(num_players=2, seed=-1), "seed"),
    (dict(num_players=2, seed=0, build_rule="tokens"), "build_rule"),
    (dict(num_players=2, seed=0, max_rounds=0), "max_rounds"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        HansaGame(**kwargs)


def test_illegal_actions_name_action_and_reason():
    g = after_setup(2)
    cases = {
        "sail:Riga": "no route from Copenhagen to Riga",
        "buy:Danzig/1": "the ship is in Copenhagen, not Danzig",
        "build:red1": "seat 0 holds no red1 token",
        "sell:done": "not allowed in phase actions",
        "discard:red1": "not allowed in phase actions",
        "refill": "not allowed in phase actions",
        "setup:Riga": "not allowed in phase actions",
    }
    before = g.to_state()
    for name, reason in cases.items():
        with pytest.raises(ValueError) as info:
            g.step(A.from_name(name))
        assert f"{name} is illegal: {reason}" in str(info.value)
    assert np.array_equal(g.to_state(), before)
    with pytest.raises(ValueError, match="out of range"):
        g.step(A.NUM_ACTIONS)
    with pytest.raises(ValueError, match="action must be an int"):
        g.step("sail:Riga")


def test_from_state_validates():
    good = HansaGame(3, 0).to_state()
    with pytest.raises(ValueError, match="length"):
        HansaGame.from_state(good[:-1])
    with pytest.raises(ValueError, match="int32"):
        HansaGame.from_state(good.astype(np.int64))
    edits = {
        "num_players": (5, "num_players"),
        "phase": (9, "phase"),
        "ship": (9, "ship"),
        "decider": (2, "decider"),
        "supply_drawn": (99, "supply_drawn"),
        "loss_seat": (1, "loss fields"),
    }
    for field, (value, message) in edits.items():
        bad = good.copy()
        setattr(StateView(bad), field, value)
        with pytest.raises(ValueError, match=message):
            HansaGame.from_state(bad)
    bad = good.copy()
    StateView(bad).money[1] = -1
    with pytest.raises(ValueError, match="negatives"):
        HansaGame.from_state(bad)
    bad = good.copy()
    StateView(bad).stalls[0, 0] = 1
    with pytest.raises(ValueError, match="stalls do not add up"):
        HansaGame.from_state(bad)
    bad = good.copy()
    StateView(bad).hand[0, 0, 0] = 1
    with pytest.raises(ValueError, match="token counts"):
        HansaGame.from_state(bad)
    bad = good.copy()
    StateView(bad).money[3] = 1
    with pytest.raises(ValueError, match="unused seat 3"):
        HansaGame.from_state(bad)
