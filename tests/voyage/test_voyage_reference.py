"""Tests of the plain-Python Voyage reference alone (docs/rules/voyage.md: rules V1..V62,
examples E1..E19, decisions VA1..VA39; contract docs/voyage_engine.md). Scenario states are
built by editing a state vector with StateView and loading it with `VoyageGame.from_state`,
so every scenario can be replayed on the kernel as well."""

import random

import numpy as np
import pytest

from tests.helpers.rng_oracle import numpy_splitmix
from tests.helpers.voyage_medium import MEDIUM, goal_policy
from voyage_env import actions as A
from voyage_env import rules as R
from voyage_env.board import DIRS, GOODS, MapError, load_map, map_from_text
from voyage_env.observation import obs_names
from voyage_env.reference import SplitMix64, VoyageGame
from voyage_env.state import (
    BID,
    CARDS,
    GAME_OVER,
    MONASTERY,
    MOVE,
    ORDER,
    PLAY,
    REACT,
    STATE_SIZE,
    UPGRADE,
    WRECK,
    StateView,
)

KIND = {name: k for k, name in enumerate(R.CARD_KINDS)}
GOOD = {name: g for g, name in enumerate(GOODS)}


def act(game, *names):
    for name in names:
        game.step(A.from_name(name))


def legal_names(game):
    return sorted(A.name(a) for a in game.legal_actions())


# ---------------------------------------------------------------- maps

try:
    DEFAULT_MAP = load_map()
except MapError:  # pragma: no cover - only if the default board is broken
    DEFAULT_MAP = None

PLAYOUT_MAP = DEFAULT_MAP if DEFAULT_MAP is not None else MEDIUM


# ---------------------------------------------------------------- scenario helpers

def card_totals(simple=False):
    totals = list(R.CARD_COUNTS)
    if simple:
        totals[R.CALM] -= R.SIMPLE_DECK_CALMS_REMOVED
    return totals


def set_cards(v, hands, top=(), simple=False):
    """Hands {seat: {kind name: count}}; the rest is the deck, `top` its top cards (last =
    drawn first); the discard pile empty."""
    v.hand = 0
    v.discard = 0
    rest = card_totals(simple)
    for seat, hand in hands.items():
        for name, count in hand.items():
            v.hand[seat, KIND[name]] = count
            rest[KIND[name]] -= count
    top_kinds = [KIND[name] for name in top]
    for k in top_kinds:
        rest[k] -= 1
    assert min(rest) >= 0
    deck = [k for k in range(R.NUM_CARD_KINDS) for _ in range(rest[k])] + top_kinds
    v.deck = 0
    v.deck[:len(deck)] = deck
    v.deck_size = len(deck)


def build(m, n=2, active=0, ships=None, hands=None, order=None, top=(), **options):
    """A state in phase MOVE for `active`; ships {seat: (col, row)}. Returns (state, view)."""
    s = VoyageGame(n, 0, voyage_map=m, **options).to_state()
    v = StateView(s)
    order = list(range(n)) if order is None else order
    v.order[:n] = order
    v.phase, v.active, v.position, v.decider = MOVE, active, order.index(active), active
    for seat, (col, row) in (ships or {}).items():
        v.ship[seat] = m.hex_at(col, row)
        assert v.ship[seat] >= 0, (col, row)
    set_cards(v, hands or {}, top, options.get("simple_deck", False))
    return s, v


def load(s, m):
    return VoyageGame.from_state(s, m)


def rng_words(wreck: bool):
    """RNG words whose next die roll is (or is not) a wreck (below(6) < 2, VA11)."""
    for seed in range(1000):
        if (SplitMix64(seed).below(R.DIE_FACES) < R.WRECK_FACES) == wreck:
            return [seed, 0]
    raise AssertionError


def state_of(game):
    return StateView(game.to_state())


def hexat(m, col, row):
    return m.hex_at(col, row)


# ---------------------------------------------------------------- RNG and setup

def test_splitmix64_published_values_and_independent_copy():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for seed in (1, 99, 2**63 - 1):
        rng = SplitMix64(seed)
        nxt, below, _ = numpy_splitmix(seed)
        assert [rng.next() for _ in range(10)] == [nxt() for _ in range(10)]
        assert [rng.below(k) for k in range(1, 30)] == [below(k) for k in range(1, 30)]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("simple", [False, True])
def test_setup_follows_the_contract_order_of_randomness(n, simple):
    """Contract setup: order shuffle, west deck shuffle, east deck shuffle, wind deck shuffle."""
    m = DEFAULT_MAP or MEDIUM
    for seed in (0, 7, 123456789):
        v = state_of(VoyageGame(n, seed, voyage_map=m, simple_deck=simple))
        _, _, shuffle = numpy_splitmix(seed)
        order = list(range(n))
        shuffle(order)
        assert list(v.order[:n]) == order and all(v.order[n:] == -1)
        decks = []
        for deck_id in (0, 1):
            cards = [i for i in range(m.num_ports) if m.port_deck[i] == deck_id]
            shuffle(cards)
            decks.append(cards)
        for seat in range(n):
            for deck_id, cards in enumerate(decks):
                k = min(4, len(cards) // n)
                got = list(v.targets[seat, 4 * deck_id:4 * deck_id + 4])
                assert got == cards[k * seat:k * seat + k] + [-1] * (4 - k)
        wind = [k for k in range(R.NUM_CARD_KINDS) for _ in range(card_totals(simple)[k])]
        shuffle(wind)
        assert v.deck_size == len(wind) == (81 if simple else 86)
        assert list(v.deck[:v.deck_size]) == wind and all(v.deck[v.deck_size:] == 0)


@pytest.mark.skipif(DEFAULT_MAP is None, reason="default map does not load")
@pytest.mark.parametrize("n,unused", [(2, 16), (3, 8), (4, 0)])
def test_target_deal_sizes(n, unused):
    """V3: 4 west + 4 east cards per player; the rest out of the game."""
    m = DEFAULT_MAP
    v = state_of(VoyageGame(n, 5, voyage_map=m))
    dealt = []
    for seat in range(n):
        cards = list(v.targets[seat])
        assert -1 not in cards
        assert all(m.port_deck[c] == 0 for c in cards[:4])
        assert all(m.port_deck[c] == 1 for c in cards[4:])
        dealt += cards
    assert len(set(dealt)) == 8 * n == 32 - unused
    assert np.all(v.targets[n:] == -1)


def test_initial_state():
    """V1, V2, V4, V7, V57, E2: ships in Lisbon, 9 discs, no cards, 4 cubes per good."""
    m = DEFAULT_MAP or MEDIUM
    g = VoyageGame(3, 11, voyage_map=m, black_ship=True)
    v = state_of(g)
    assert v.phase == BID and v.round == 1 and v.tiles_total == 4 and v.tiles_taken == 0
    assert list(v.ship[:3]) == [m.lisbon] * 3 and list(v.discs[:3]) == [9] * 3
    assert not v.spent.any() and not v.hand.any() and not v.cubes.any() and not v.wrecked.any()
    assert list(v.stock) == [4] * 8 and list(v.discard) == [0] * R.NUM_CARD_KINDS
    assert v.black_hex == m.port_hex[m.port_id("Melaka")]
    assert g.current_player() == v.order[0] == v.decider
    assert legal_names(g) == sorted(["bid:pass"] + [f"bid:{t}" for t in range(1, 10)])
    assert VoyageGame(2, 3, voyage_map=m).to_state()[StateView.layout.offset("black_hex")] == -1
    assert state_of(VoyageGame(4, 3, voyage_map=m)).tiles_total == 5
    assert state_of(VoyageGame(2, 3, voyage_map=m)).tiles_total == 3


def test_bad_arguments():
    m = MEDIUM
    for kwargs, text in [
        (dict(num_players=1, seed=0), "num_players"), (dict(num_players=5, seed=0), "num_players"),
        (dict(num_players=2.0, seed=0), "num_players"), (dict(num_players=2, seed=-1), "seed"),
        (dict(num_players=2, seed=2**63), "seed"), (dict(num_players=2, seed=0, max_rounds=0),
                                                    "max_rounds"),
        (dict(num_players=2, seed=0, simple_deck=1), "simple_deck"),
        (dict(num_players=2, seed=0, voyage_map="x"), "VoyageMap"),
    ]:
        kwargs.setdefault("voyage_map", m)
        with pytest.raises(ValueError, match=text):
            VoyageGame(**kwargs)
    no_melaka = map_from_text("@~~A", ports="A | Guinea | 1444 | west | chili")
    with pytest.raises(ValueError, match="Melaka"):
        VoyageGame(2, 0, voyage_map=no_melaka, black_ship=True)
    VoyageGame(2, 0, voyage_map=no_melaka)  # fine without the option


# ---------------------------------------------------------------- random playouts

def check_invariants(g):
    v = state_of(g)
    n = v.num_players
    for p in range(n):
        assert v.discs[p] in (9, 12) and 0 <= v.spent[p] <= v.discs[p]
        assert v.discs[p] == (12 if v.upgraded[p] else 9)
    total = 81 if v.simple_deck else 86
    assert v.deck_size + v.discard.sum() + v.hand.sum() == total
    assert np.all(v.stock + v.cubes.sum(axis=0) == 4) and np.all(v.stock >= 0)
    assert v.tiles[:n].sum() == v.tiles_taken <= v.tiles_total
    mask = g.legal_mask()
    if g.is_terminal():
        assert not mask.any() and g.current_player() == -1 == v.decider
    else:
        assert mask.any() and g.current_player() == v.decider >= 0
        assert 1 <= v.round <= v.max_rounds


def uniform_policy(g, rnd):
    return rnd.choice(g.legal_actions())


def play(g, policy, rnd, round_trip_every=0):
    steps = 0
    check_invariants(g)
    while not g.is_terminal():
        g.step(policy(g, rnd))
        steps += 1
        check_invariants(g)
        if round_trip_every and steps % round_trip_every == 0:
            s = g.to_state()
            h = VoyageGame.from_state(s, g.board.map)
            assert np.array_equal(h.to_state(), s)
    v = state_of(g)
    if g.is_truncated():
        assert v.round == v.max_rounds and not v.end_triggered
    else:
        assert v.end_triggered and v.tiles_taken == v.tiles_total
    assert g.current_player() == -1 and g.legal_actions() == []
    return steps


OPTIONS = [dict(), dict(simple_deck=True), dict(black_ship=True)]


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "simple_deck", "black_ship"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_on_the_playout_map(n, options):
    """100 games per player count and option on the default board (short games: the cap)."""
    rnd = random.Random(n * 1000 + len(options))
    for seed in range(100):
        g = VoyageGame(n, seed, voyage_map=PLAYOUT_MAP, max_rounds=4, **options)
        play(g, uniform_policy, rnd, round_trip_every=25)
        assert g.is_truncated()


@pytest.mark.parametrize("options", OPTIONS + [dict(simple_deck=True, black_ship=True)],
                         ids=["base", "simple_deck", "black_ship", "both"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_full_games_on_the_medium_map(n, options):
    """Whole games with every event kind: they end by V49 or truncate at max_rounds."""
    policy = goal_policy(MEDIUM)
    rnd = random.Random(n + 10 * len(options))
    ended = truncated = 0
    for seed in range(12):
        g = VoyageGame(n, seed, voyage_map=MEDIUM, max_rounds=25, **options)
        play(g, policy, rnd, round_trip_every=40)
        ended += not g.is_truncated()
        truncated += g.is_truncated()
        assert len(g.winners()) >= 1 and abs(sum(g.returns()) - 1) < 1e-9
    assert ended > 0


def test_same_seed_same_game_and_clone_independence():
    policy = goal_policy(MEDIUM)
    runs = []
    for _ in range(2):
        g = VoyageGame(3, 42, voyage_map=MEDIUM, black_ship=True)
        rnd = random.Random(1)
        states = []
        while not g.is_terminal():
            g.step(policy(g, rnd))
            states.append(g.to_state())
        runs.append(states)
    assert len(runs[0]) == len(runs[1])
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    g = VoyageGame(3, 42, voyage_map=MEDIUM)
    c = g.clone()
    g.step(A.BID_PASS)
    assert not np.array_equal(g.to_state(), c.to_state())
    assert c.board is g.board


def test_round_trip_every_step_with_lockstep_replay():
    """from_state(to_state) gives the same state, mask and observations, and replays the same."""
    policy = goal_policy(MEDIUM)
    for n, options in [(2, dict(black_ship=True)), (4, dict(simple_deck=True)), (3, {})]:
        g = VoyageGame(n, 9, voyage_map=MEDIUM, **options)
        rnd = random.Random(n)
        while not g.is_terminal():
            s = g.to_state()
            h = VoyageGame.from_state(s, MEDIUM)
            assert np.array_equal(h.to_state(), s)
            assert np.array_equal(h.legal_mask(), g.legal_mask())
            for p in range(n):
                assert np.array_equal(h.observe(p), g.observe(p))
            a = policy(g, rnd)
            g.step(a)
            h.step(a)
            assert np.array_equal(h.to_state(), g.to_state())


# ---------------------------------------------------------------- state vector checks

def test_from_state_rejects_bad_vectors():
    g = VoyageGame(2, 0, voyage_map=MEDIUM)
    s = g.to_state()
    with pytest.raises(ValueError, match="int32"):
        VoyageGame.from_state(s.astype(np.int64), MEDIUM)
    with pytest.raises(ValueError, match="length"):
        VoyageGame.from_state(s[:-1], MEDIUM)
    cases = [
        ("num_players", 5, "num_players"),
        ("phase", 12, "phase"),
        ("deck_size", 85, "deck"),
        ("decider", 1 - g.current_player(), "decider"),
        ("tiles_total", 4, "tiles_total"),
        ("black_hex", 3, "black_hex"),
    ]
    for field, value, text in cases:
        bad = s.copy()
        StateView(bad).__setattr__(field, value)
        with pytest.raises(ValueError, match=text):
            VoyageGame.from_state(bad, MEDIUM)
    bad = s.copy()
    StateView(bad).stock[2] = 3
    with pytest.raises(ValueError, match="stock"):
        VoyageGame.from_state(bad, MEDIUM)
    bad = s.copy()
    StateView(bad).ship[0] = MEDIUM.num_hexes
    with pytest.raises(ValueError, match="ship"):
        VoyageGame.from_state(bad, MEDIUM)
    bad = s.copy()
    StateView(bad).spent[1] = 10
    with pytest.raises(ValueError, match="spent"):
        VoyageGame.from_state(bad, MEDIUM)


def test_illegal_actions_raise_with_name_and_reason_and_leave_the_state():
    s, v = build(MEDIUM, ships={0: (0, 0), 1: (0, 0)}, hands={0: {"storm4": 1}})
    v.spent[0] = 6
    g = load(s, MEDIUM)
    before = g.to_state()
    for name, reason in [
        ("bid:3", "not allowed in phase move"),
        ("move:N", "no sea passage N"),
        ("shield:SE", "not a pirate space"),
        ("black:N", "Black Ship is not in this game"),
        ("play:storm4", "not allowed in phase move"),
        ("upgrade:skip", "not allowed"),
    ]:
        with pytest.raises(ValueError, match=name) as err:
            g.step(A.from_name(name))
        assert reason in str(err.value)
        assert np.array_equal(g.to_state(), before)
    with pytest.raises(ValueError, match="out of range"):
        g.step(A.NUM_ACTIONS)
    with pytest.raises(ValueError, match="int"):
        g.step("dock")
    g = VoyageGame(2, 0, voyage_map=MEDIUM)
    with pytest.raises(ValueError, match=r"bid:10 is illegal: raising to 10 costs 10 discs"):
        act(g, "bid:10")
    with pytest.raises(ValueError, match="order:1 is illegal: not allowed in phase bid"):
        act(g, "order:1")


# ---------------------------------------------------------------- E1 bidding (V10-V13)

def test_e1_bidding_four_players():
    """E1: green, yellow, red, blue (seats 0..3); red ends with 3, blue with 2; red first."""
    g0 = VoyageGame(4, 0, voyage_map=MEDIUM)
    s = g0.to_state()
    v = StateView(s)
    v.order = [0, 1, 2, 3]
    v.active, v.decider = 0, 0
    g = load(s, MEDIUM)
    green, yellow, red, blue = range(4)
    act(g, "bid:pass", "bid:pass", "bid:1")           # green, yellow pass; red 1
    assert g.current_player() == blue
    assert legal_names(g) == sorted(["bid:pass"] + [f"bid:{t}" for t in range(2, 10)])
    act(g, "bid:2", "bid:pass", "bid:pass")           # blue 2; green, yellow pass
    assert g.current_player() == red
    assert legal_names(g) == sorted(["bid:pass"] + [f"bid:{t}" for t in range(3, 10)])
    act(g, "bid:3")                                   # red +2 = 3
    for seat in (blue, green, yellow):                # red is skipped
        assert g.phase == BID and g.current_player() == seat
        act(g, "bid:pass")
    v = state_of(g)
    assert g.phase == ORDER and g.current_player() == red
    assert list(v.spent) == [0, 0, 3, 2] and list(v.bid) == [0, 0, 3, 2]
    assert v.bid_high == 3 and v.bid_leader == red
    assert legal_names(g) == ["order:1", "order:2", "order:3", "order:4"]
    act(g, "order:1")
    assert g.current_player() == blue and legal_names(g) == ["order:2", "order:3", "order:4"]
    act(g, "order:2")
    v = state_of(g)
    assert list(v.order) == [red, blue, green, yellow]
    assert [v.hand[s].sum() for s in (red, blue, green, yellow)] == [4, 5, 6, 7]   # V13
    assert [v.discs[p] - v.spent[p] for p in (red, blue)] == [6, 7]
    assert g.phase == MOVE and g.current_player() == red
    assert all(v.ranking == -1) and v.order_step == 0


def test_bidding_without_raise_keeps_the_order_and_bidder_may_choose_a_later_position():
    g = VoyageGame(3, 4, voyage_map=MEDIUM)
    before = list(state_of(g).order)
    act(g, "bid:pass", "bid:pass", "bid:pass")
    assert list(state_of(g).order) == before and g.phase == MOVE
    # a lone bidder may take the last position; the others keep their relative order
    g = VoyageGame(3, 4, voyage_map=MEDIUM)
    a, b, c = state_of(g).order[:3]
    act(g, "bid:pass", "bid:2", "bid:pass", "bid:pass")
    assert g.phase == ORDER and g.current_player() == b
    act(g, "order:3")
    assert list(state_of(g).order[:3]) == [a, c, b]


def test_two_players_bid_all_discs_gives_an_empty_turn():
    """VA21: a player without available discs at the start of his turn has an empty turn."""
    g = VoyageGame(2, 1, voyage_map=MEDIUM)
    first, second = state_of(g).order[:2]
    act(g, "bid:9", "bid:pass")
    assert g.phase == ORDER and g.current_player() == first
    act(g, "order:1")                                  # second placed automatically
    v = state_of(g)
    assert list(v.order[:2]) == [first, second]
    assert g.phase == MOVE and g.current_player() == second
    assert v.spent[first] == 0 and v.hand[first].sum() == 5   # refreshed at turn end (V48)


# ---------------------------------------------------------------- movement (V14-V18)

ROW = map_from_text(
    grid="""
    ~~~~~~
    ~~~~~~
    ~~~~~@
    """,
    events="""
    ~~~~P~
    ~~~~~~
    ~~~~~~
    """,
    hemisphere="""
    WWWWEE
    WWWWEE
    WWWWEE
    """,
    currents="c : 0,0 : SE NE SE NE",
    name="row")
"""Row 0 carries a current (0,0) -> (4,0) eastward; (4,0) is a pirate hex (the end dot)."""


def test_e3_free_current_steps_and_paid_steps():
    s, v = build(ROW, ships={0: (0, 0), 1: (0, 1)})
    g = load(s, ROW)
    act(g, "move:SE", "move:NE")                       # yellow along the current: 0 discs
    assert state_of(g).spent[0] == 0 and g.players[0].ship == hexat(ROW, 2, 0)
    act(g, "move:SW")                                  # against the arrows: 1 disc (V16)
    assert state_of(g).spent[0] == 1
    s, v = build(ROW, active=1, ships={0: (0, 0), 1: (0, 1)})
    g = load(s, ROW)
    act(g, "move:N", "move:SE", "move:NE", "move:S")  # red: two steps without current help
    assert state_of(g).spent[1] == 2 and g.players[1].ship == hexat(ROW, 2, 1)


def test_e4_pirate_costs_and_favourable_protection():
    s, v = build(ROW, ships={0: (4, 2), 1: (2, 0)})
    g = load(s, ROW)
    act(g, "move:N", "move:N")                         # yellow: 1 + (1 + 1 pirate) = 3
    assert state_of(g).spent[0] == 3
    s, v = build(ROW, active=1, ships={0: (4, 2), 1: (2, 0)})
    g = load(s, ROW)
    act(g, "move:SE", "move:NE")                       # red: 0 + (0 + 1 pirate) = 1
    assert state_of(g).spent[1] == 1
    # V34: a favourable wind cancels only the surcharge; it is discarded and nobody reacts
    s, v = build(ROW, ships={0: (4, 1), 1: (4, 2)}, hands={0: {"favourable": 1}})
    g = load(s, ROW)
    assert "shield:N" in legal_names(g) and "shield:S" not in legal_names(g)
    act(g, "shield:N")
    v = state_of(g)
    assert v.spent[0] == 1 and v.hand[0, KIND["favourable"]] == 0
    assert v.discard[KIND["favourable"]] == 1 and g.phase == MOVE
    # VA27: leaving a pirate hex costs nothing extra
    act(g, "move:S")
    assert state_of(g).spent[0] == 2
    # a pirate step needs 2 discs when not along a current
    s, v = build(ROW, ships={0: (4, 1), 1: (4, 2)})
    v.spent[0] = 8
    g = load(s, ROW)
    with pytest.raises(ValueError, match="costs 2 disc"):
        act(g, "move:N")


# ---------------------------------------------------------------- blue spaces, cards

BLUE_ROW = map_from_text(
    grid="""
    ~~~~~~
    ~~~~~~
    ~~~~~@
    """,
    events="""
    ~~B~~~
    ~~~~~~
    ~~~~~~
    """,
    hemisphere="""
    WWWWEE
    WWWWEE
    WWWWEE
    """,
    currents="c : 0,0 : SE NE SE NE",
    name="blue_row")
"""The current of ROW passes the blue hex (2,0)."""


def test_e8_storm_too_big_must_play_another_card():
    s, v = build(BLUE_ROW, ships={0: (1, 0), 1: (5, 0)},
                 hands={0: {"storm4": 1, "storm2": 1}})
    v.spent[0] = 6                                     # 3 available
    g = load(s, BLUE_ROW)
    act(g, "move:NE")                                  # free step onto the blue hex
    assert g.phase == PLAY and legal_names(g) == ["play:storm2"]
    with pytest.raises(ValueError, match="storm4 needs 4 available discs"):
        act(g, "play:storm4")
    act(g, "play:storm2")
    assert state_of(g).spent[0] == 8 and g.phase == MOVE
    # with only the -4 storm he may not enter the blue space (V19)
    s, v = build(BLUE_ROW, ships={0: (1, 0), 1: (5, 0)}, hands={0: {"storm4": 1}})
    v.spent[0] = 6
    g = load(s, BLUE_ROW)
    assert "move:NE" not in legal_names(g)
    with pytest.raises(ValueError, match="blue space"):
        act(g, "move:NE")
    # a paid step counts: 4 available, 1 paid -> storm3 playable, storm4 not
    for card, ok in (("storm3", True), ("storm4", False)):
        s, v = build(BLUE_ROW, ships={0: (2, 1), 1: (5, 0)}, hands={0: {card: 1}})
        v.spent[0] = 5
        g = load(s, BLUE_ROW)
        assert ("move:N" in legal_names(g)) == ok
    # no card at all: no blue space
    s, v = build(BLUE_ROW, ships={0: (1, 0), 1: (5, 0)})
    assert "move:NE" not in legal_names(load(s, BLUE_ROW))


def test_e9_favourable_wind_returns_two_spent_discs():
    s, v = build(BLUE_ROW, ships={0: (2, 1), 1: (5, 0)}, hands={0: {"favourable": 1}})
    v.spent[0] = 5
    v.bid[0] = 3
    g = load(s, BLUE_ROW)
    act(g, "move:N")                                   # 1 disc: spent 6
    assert g.phase == PLAY
    act(g, "play:favourable")                          # the other ship is east: no reaction
    v = state_of(g)
    assert v.spent[0] == 4 and g.phase == MOVE and g.current_player() == 0
    # VA10: only what was spent comes back
    s, v = build(BLUE_ROW, ships={0: (1, 0), 1: (5, 0)}, hands={0: {"favourable": 1}})
    v.spent[0] = 1
    g = load(s, BLUE_ROW)
    act(g, "move:NE", "play:favourable")
    assert state_of(g).spent[0] == 0


def test_calm_ends_the_turn_at_once():
    s, v = build(BLUE_ROW, ships={0: (1, 0), 1: (5, 0)}, hands={0: {"calm": 1}})
    g = load(s, BLUE_ROW)
    act(g, "move:NE", "play:calm")                     # V35
    v = state_of(g)
    assert g.current_player() == 1 and g.phase == MOVE
    assert v.spent[0] == 0 and v.hand[0].sum() == 5    # V48 refresh


def test_va21_last_disc_on_a_blue_space_still_plays_and_favourable_continues():
    s, v = build(BLUE_ROW, ships={0: (2, 1), 1: (5, 0)},
                 hands={0: {"favourable": 1, "storm2": 1}})
    v.spent[0] = 8                                     # the step costs the last disc
    g = load(s, BLUE_ROW)
    act(g, "move:N")
    assert g.phase == PLAY and legal_names(g) == ["play:favourable"]
    act(g, "play:favourable")
    assert g.phase == MOVE and g.current_player() == 0 and state_of(g).spent[0] == 7


COMPASS_MAP = map_from_text(
    grid="""
    @~~~~~~~
    ~~~~~~~~
    .~~~~~~~
    ~~~~~~~~
    ~.~~~~~~
    ~~~~~~~~
    ~~~~~~~~
    """,
    events="""
    ~~~~~~~~
    ~~~~~~~~
    .~~~~~~~
    ~B~~~~~~
    ~.~~~~B~
    ~~B~~~~~
    ~~~~~~~~
    """,
    name="compass")


def test_e10_compass_storm_reactions_in_turn_order():
    """E10: red plays NW; yellow 1 step (land), blue 1 or 2, green none; red moves 2 NW."""
    red, yellow, blue, green = range(4)
    m = COMPASS_MAP
    s, v = build(m, n=4, ships={red: (6, 5), yellow: (3, 5), blue: (7, 2), green: (1, 2)},
                 hands={red: {"compass_NW": 1}})
    g = load(s, m)
    act(g, "move:N")
    assert g.phase == PLAY
    act(g, "play:compass_NW")
    assert g.phase == REACT and g.current_player() == yellow
    assert legal_names(g) == ["move:NW", "stop"]
    act(g, "move:NW")                                  # land beyond: automatically over
    assert g.players[yellow].ship == hexat(m, 2, 5)
    assert g.phase == REACT and g.current_player() == blue
    assert legal_names(g) == ["move:NW", "stop"]
    act(g, "move:NW", "move:NW")
    assert g.players[blue].ship == hexat(m, 5, 1)
    assert g.players[green].ship == hexat(m, 1, 2)    # no step possible: skipped
    assert g.phase == MOVE and g.current_player() == red
    assert g.players[red].ship == hexat(m, 4, 3)      # V30: 2 steps NW
    v = state_of(g)
    assert v.card == -1 and v.compass_left == 0 and v.spent[red] == 1


def test_compass_reaction_may_stop_early_and_own_move_stops_at_land():
    m = COMPASS_MAP
    s, v = build(m, n=2, ships={0: (6, 5), 1: (7, 2)}, hands={0: {"compass_NW": 1}})
    g = load(s, m)
    act(g, "move:N", "play:compass_NW")
    assert g.current_player() == 1 and state_of(g).compass_left == 2
    act(g, "stop")
    assert g.players[1].ship == hexat(m, 7, 2) and g.players[0].ship == hexat(m, 4, 3)
    # V30: land right behind the blue hex (2,5): no move; from (1,3) only 1 step fits
    s, v = build(m, n=2, ships={0: (2, 6), 1: (0, 0)}, hands={0: {"compass_NW": 1}})
    g = load(s, m)
    act(g, "move:N", "play:compass_NW")
    assert g.players[0].ship == hexat(m, 2, 5) and g.phase == MOVE
    s, v = build(m, n=2, ships={0: (0, 4), 1: (0, 0)}, hands={0: {"compass_NW": 1}})
    g = load(s, m)
    act(g, "move:NE", "play:compass_NW")              # (0,4) even NE -> (1,3), blue
    assert g.players[0].ship == hexat(m, 0, 3)


HEMI_MAP = map_from_text(
    grid="""
    @~~~~~~~
    ~~~~~C~~
    ~~~~~~~~
    """,
    events="""
    ~~~~~~~~
    ~~RBB~~~
    ~~~~~~~~
    """,
    hemisphere="""
    WWWWEEEE
    WWWWEEEE
    WWWWEEEE
    """,
    ports="C | Cape of Good Hope | 1487 | west | -",
    name="hemispheres")


def test_e12_hemisphere_eligibility_and_crossing_the_line():
    """E12: yellow plays -4 on a west blue hex; green (west) moves 4 across the line into the
    undiscovered Cape port (+1 VP), ignoring red and blue; blue (east) and a docked ship are
    not asked; then yellow pays 4."""
    yellow, green, blue, docked = range(4)
    m = HEMI_MAP
    s, v = build(m, n=4, ships={yellow: (3, 0), green: (1, 1), blue: (6, 0), docked: (0, 0)},
                 hands={yellow: {"storm4": 1}})
    v.docked[docked] = 1
    g = load(s, m)
    act(g, "move:S")                                   # onto the blue hex (3,1), 1 disc
    act(g, "play:storm4")
    assert g.phase == REACT and g.current_player() == green
    assert state_of(g).react_budget == 4
    rng_before = list(state_of(g).rng)
    act(g, "move:NE", "move:SE", "move:NE", "move:SE")
    v = state_of(g)
    assert g.players[green].ship == hexat(m, 5, 1)
    assert v.discovered[0] == green and v.vp[green] == 1
    assert list(v.rng) == rng_before                   # no die on the red hex
    assert g.phase == MOVE and g.current_player() == yellow
    assert v.spent[yellow] == 1 + 4


# ---------------------------------------------------------------- E13 last disc

E13_MAP = map_from_text(
    grid="""
    ~~~~A~
    ~~G~~~
    ~~~~~~
    ~~~~~~
    @~~~~~
    """,
    events="""
    ~~B~~~
    ~~~~~~
    ~~B~~~
    ~~~~~~
    ~~~~~~
    """,
    ports="""
    A | Guinea | 1444 | west | chili
    G | Porto Seguro | 1500 | west | brazilwood
    """,
    currents="c : 0,0 : SE NE SE NE",
    name="e13")


def test_e13_turn_ends_on_the_last_disc():
    red, yellow = 0, 1
    m = E13_MAP
    s, v = build(m, ships={red: (0, 0), yellow: (2, 3)}, hands={red: {"storm2": 1, "calm": 1}})
    v.upgraded[red], v.discs[red], v.spent[red] = 1, 12, 7
    for good in ("brazilwood", "ivory", "pepper", "cinnamon", "silk", "nutmeg", "silver"):
        v.cubes[red, GOOD[good]] = 1
        v.stock[GOOD[good]] -= 1
    g = load(s, m)
    act(g, "move:SE", "move:NE")                       # along the current onto blue: 0 discs
    assert g.phase == PLAY and state_of(g).spent[red] == 7
    act(g, "play:storm2")
    assert g.current_player() == yellow and g.phase == REACT
    act(g, "move:N", "move:N")                         # over a blue hex into Porto Seguro
    v = state_of(g)
    assert v.cubes[yellow, GOOD["brazilwood"]] == 1 and v.vp[yellow] == 2
    assert g.phase == MOVE and v.spent[red] == 9
    act(g, "move:SE", "move:NE")                       # current into Guinea: chili
    v = state_of(g)
    assert v.cubes[red].sum() == 8 and v.spent[red] == 9 and v.vp[red] == 1
    act(g, "move:S", "move:S")
    assert g.current_player() == red and state_of(g).spent[red] == 11
    act(g, "move:S")                                   # the last disc: the turn ends at once
    v = state_of(g)
    assert g.current_player() == yellow and g.phase == MOVE
    assert v.spent[red] == 0 and v.hand[red].sum() == 5
    assert g.players[red].ship == hexat(m, 4, 3)


# ---------------------------------------------------------------- goods and discovery

GOODS_MAP = map_from_text(
    grid="@~AM~",
    ports="""
    A | Guinea | 1444 | west | chili
    M | Moluccas | 1512 | east | nutmeg
    """,
    name="goods")


def test_e14_ship_four_goods_need_the_upgrade():
    m = GOODS_MAP
    s, v = build(m, ships={0: (2, 0), 1: (2, 0)})
    g = load(s, m)
    act(g, "move:SE")                                  # (2,0) -> (3,0) Moluccas
    v = state_of(g)
    assert g.players[0].ship == hexat(m, 3, 0) and v.vp[0] == 3
    assert v.cubes[0, GOOD["nutmeg"]] == 0 and v.stock[GOOD["nutmeg"]] == 4
    s, v = build(m, ships={0: (2, 0), 1: (2, 0)})
    v.upgraded[0], v.discs[0] = 1, 12
    g = load(s, m)
    act(g, "move:SE")
    assert state_of(g).cubes[0, GOOD["nutmeg"]] == 1
    # a wrecked ship carries nothing (V21, V24)
    s, v = build(m, ships={0: (2, 0), 1: (2, 0)})
    v.upgraded[0], v.discs[0], v.wrecked[0, 3] = 1, 12, 1
    g = load(s, m)
    act(g, "move:SE")
    assert state_of(g).cubes[0, GOOD["nutmeg"]] == 0


def test_e15_discover_and_load_in_one_entry():
    m = GOODS_MAP
    s, v = build(m, ships={0: (1, 0), 1: (1, 0)})
    g = load(s, m)
    act(g, "move:NE")                                  # (1,0) odd: NE -> (2,0) Guinea
    v = state_of(g)
    assert v.discovered[0] == 0 and v.vp[0] == 1 and v.cubes[0, GOOD["chili"]] == 1
    assert v.stock[GOOD["chili"]] == 3
    act(g, "stop")
    act(g, "move:NE")                                  # seat 1: no VP, but loads
    v = state_of(g)
    assert v.discovered[0] == 0 and v.vp[1] == 0 and v.cubes[1, GOOD["chili"]] == 1
    act(g, "move:SW", "move:NE")                       # already carries chili: nothing more
    assert state_of(g).stock[GOOD["chili"]] == 2


# ---------------------------------------------------------------- Lisbon

def test_e16_docking_upgrade_monastery_sale():
    m = GOODS_MAP
    s, v = build(m, ships={0: (0, 0), 1: (4, 0)}, hands={0: {"storm2": 2}})
    v.spent[0] = 5
    v.wrecked[0, 2] = 1
    for good in ("chili", "brazilwood", "ivory", "pepper"):
        v.cubes[0, GOOD[good]] = 1
        v.stock[GOOD[good]] -= 1
    g = load(s, m)
    act(g, "dock")
    assert g.phase == UPGRADE
    assert legal_names(g) == sorted(["upgrade:chili", "upgrade:brazilwood", "upgrade:ivory",
                                     "upgrade:pepper", "upgrade:skip"])
    act(g, "upgrade:chili")
    assert "upgrade:skip" not in legal_names(g)
    act(g, "upgrade:brazilwood", "upgrade:ivory")
    v = state_of(g)
    assert v.upgraded[0] == 1 and v.discs[0] == 12 and v.vp[0] == 0
    assert g.phase == MONASTERY
    act(g, "monastery:take")
    assert g.phase == CARDS and state_of(g).vp[0] == 10
    act(g, "cards:new")
    v = state_of(g)
    assert v.tiles[0] == 1 and v.best_tile[0] == 1 and v.tiles_taken == 1
    assert v.docked[0] == 1 and v.spent[0] == 0 and not v.wrecked[0].any()
    assert list(v.stock) == [4] * 8 and v.hand[0].sum() == 5
    assert v.discard[KIND["storm2"]] == 2
    assert g.current_player() == 1 and g.players[0].ship == m.lisbon


def test_e16_full_example_plus_twenty():
    """E16: 6 cubes incl. pepper, 5 discs spent: upgrade, tile (+10), 2 sold (+10) = +20."""
    m = GOODS_MAP
    s, v = build(m, ships={0: (0, 0), 1: (4, 0)})
    v.spent[0] = 5
    for good in GOODS[:6]:
        v.cubes[0, GOOD[good]] = 1
        v.stock[GOOD[good]] -= 1
    g = load(s, m)
    act(g, "dock", "upgrade:chili", "upgrade:brazilwood", "upgrade:ivory", "monastery:take")
    v = state_of(g)
    assert v.vp[0] == 20 and v.cubes[0].sum() == 0 and v.upgraded[0] == 1
    act(g, "cards:top_up")
    assert state_of(g).hand[0].sum() == 5 and g.current_player() == 1


def test_docking_without_upgrade_and_selling_pepper():
    m = GOODS_MAP
    s, v = build(m, ships={0: (0, 0), 1: (4, 0)}, simple_deck=True)
    for good in ("pepper", "silver"):
        v.cubes[0, GOOD[good]] = 1
        v.stock[GOOD[good]] -= 1
    v.upgraded[0], v.discs[0] = 1, 12
    g = load(s, m)
    act(g, "dock")
    assert g.phase == MONASTERY
    act(g, "monastery:sell")                           # simple_deck: no CARDS phase
    v = state_of(g)
    assert v.vp[0] == 15 and v.tiles[0] == 0 and g.current_player() == 1


def test_docked_ship_stays_and_is_not_moved_by_cards():
    """V47, VA26: a ship docked this round is not offered later players' cards."""
    m = HEMI_MAP
    s, v = build(m, ships={0: (0, 0), 1: (3, 0)}, hands={1: {"storm2": 1}})
    g = load(s, m)
    act(g, "dock", "cards:top_up")
    assert g.current_player() == 1 and state_of(g).docked[0] == 1
    act(g, "move:S", "play:storm2")                    # same hemisphere, but docked
    assert g.phase == MOVE and g.current_player() == 1 and state_of(g).spent[1] == 3
    assert g.players[0].ship == m.lisbon and "dock" not in legal_names(g)


# ---------------------------------------------------------------- wrecks and the Black Ship

RED_ROW = map_from_text(
    grid="@~~~",
    events="~~R~",
    ports="",
    name="red_row")


def test_red_hex_wreck_is_a_choice_and_loses_cubes():
    m = RED_ROW
    s, v = build(m, ships={0: (1, 0), 1: (0, 0)})
    v.rng = rng_words(True)
    v.cubes[0, GOOD["ivory"]] = 1
    v.stock[GOOD["ivory"]] -= 1
    g = load(s, m)
    act(g, "move:NE")                                  # (1,0) odd NE -> (2,0) red
    assert g.phase == WRECK and g.current_player() == 0
    assert legal_names(g) == ["wreck:ship1", "wreck:ship2", "wreck:ship3"]
    act(g, "wreck:ship2")
    v = state_of(g)
    assert v.wrecked[0, 1] == 1 and v.cubes[0, GOOD["ivory"]] == 0
    assert v.stock[GOOD["ivory"]] == 4 and g.phase == MOVE
    # no wreck on the other faces
    s, v = build(m, ships={0: (1, 0), 1: (0, 0)})
    v.rng = rng_words(False)
    g = load(s, m)
    act(g, "move:NE")
    assert g.phase == MOVE and not state_of(g).wrecked.any()
    # one candidate left: automatic
    s, v = build(m, ships={0: (1, 0), 1: (0, 0)})
    v.rng = rng_words(True)
    v.wrecked[0, :3] = [1, 1, 0]
    g = load(s, m)
    act(g, "move:NE")
    assert g.phase == MOVE and state_of(g).wrecked[0, 2] == 1


BLACK_MAP = map_from_text(
    grid="""
    @~~~~~
    ~~~M~~
    """,
    hemisphere="""
    WWWEEE
    WWWEEE
    """,
    ports="M | Melaka | 1509 | east | -",
    name="black")


def test_black_ship_moves_attacks_and_stays_in_its_hemisphere():
    """V58-V62, VA35."""
    m = BLACK_MAP
    s, v = build(m, ships={0: (3, 0), 1: (4, 0)}, black_ship=True)
    v.rng = rng_words(True)
    g = load(s, m)
    assert state_of(g).black_hex == hexat(m, 3, 1)
    with pytest.raises(ValueError, match="hemisphere"):
        act(g, "black:NW")                             # (2,1) is west (V60)
    act(g, "black:NE")                                 # (3,1) odd NE -> (4,1), 1 disc
    assert state_of(g).black_hex == hexat(m, 4, 1) and state_of(g).spent[0] == 1
    act(g, "black:N")                                  # onto seat 1's hex (4,0): attack
    assert g.phase == WRECK and g.current_player() == 1
    act(g, "wreck:ship3")
    v = state_of(g)
    assert v.attacked[1] == 1 and v.wrecked[1, 2] == 1 and v.attacked[0] == 0
    assert g.phase == MOVE and g.current_player() == 0 and v.spent[0] == 2
    # seat 0 sails onto the Black Ship's hex (4,0): attacked as well (no wreck this time)
    s = g.to_state()
    StateView(s).rng = rng_words(False)
    g = load(s, m)
    act(g, "move:NE")                                  # (3,0) odd NE -> (4,0)
    v = state_of(g)
    assert g.players[0].ship == v.black_hex and v.attacked[0] == 1 and g.phase == MOVE
    # at most once per round: moving the Black Ship onto attacked ships rolls nothing
    rng_before = list(v.rng)
    act(g, "black:S", "black:N")
    assert g.phase == MOVE and list(state_of(g).rng) == rng_before


def test_black_ship_attacks_every_ship_in_turn_order_from_the_active_player():
    m = BLACK_MAP
    s, v = build(m, n=3, ships={0: (4, 0), 1: (4, 0), 2: (4, 0)}, black_ship=True,
                 order=[2, 0, 1], active=0)
    v.black_hex = hexat(m, 4, 1)
    v.rng = [0, 0]
    g = load(s, m)
    ref = SplitMix64(0)
    rolls = [ref.below(6) < 2 for _ in range(3)]
    act(g, "black:N")
    seen = []
    while g.phase == WRECK:
        seen.append(g.current_player())
        act(g, "wreck:ship1")
    wrecked_seats = [p for p in range(3) if state_of(g).wrecked[p].any()]
    expected = [seat for seat, hit in zip([0, 1, 2], rolls, strict=True) if hit]
    assert seen == expected and wrecked_seats == sorted(expected)
    assert list(state_of(g).attacked[:3]) == [1, 1, 1]


# ---------------------------------------------------------------- simple deck (V53, VA33)

def test_simple_deck_reveals_the_top_card_on_a_blue_hex():
    m = BLUE_ROW
    s, v = build(m, ships={0: (1, 0), 1: (3, 0)}, top=("storm3",), simple_deck=True)
    v.spent[0] = 7
    g = load(s, m)
    assert "move:NE" in legal_names(g) and "shield:NE" not in legal_names(g)
    act(g, "move:NE")                                  # reveal storm3: seat 1 reacts (3)
    assert g.phase == REACT and g.current_player() == 1 and state_of(g).react_budget == 3
    act(g, "stop")
    v = state_of(g)
    assert v.discard[KIND["storm3"]] == 1
    assert g.current_player() == 1 and v.spent[0] == 0  # min(3, 2) spent: turn over
    assert v.hand.sum() == 0


# ---------------------------------------------------------------- end of game (V49-V52)

def test_e19_end_timing():
    """E19: B takes the last tile; C and D still play; then the game is over."""
    m = GOODS_MAP
    a, b, c, d = range(4)
    s, v = build(m, n=4, active=b, ships={a: (4, 0), b: (0, 0), c: (4, 0), d: (4, 0)})
    v.tiles_taken = 4
    v.tiles[a], v.best_tile[a] = 2, 1
    v.tiles[d], v.best_tile[d] = 2, 3
    v.cubes[b, GOOD["pepper"]] = 1
    v.stock[GOOD["pepper"]] -= 1
    g = load(s, m)
    act(g, "dock", "monastery:take", "cards:top_up")
    v = state_of(g)
    assert v.end_triggered == 1 and v.tiles_taken == 5 and v.best_tile[b] == 5
    assert g.phase == MOVE and g.current_player() == c
    act(g, "stop")
    assert g.current_player() == d
    act(g, "stop")
    assert g.is_terminal() and not g.is_truncated() and state_of(g).round == 1
    assert g.current_player() == -1 and g.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        act(g, "stop")


def test_truncation_at_max_rounds():
    g = VoyageGame(2, 3, voyage_map=MEDIUM, max_rounds=1)
    act(g, "bid:pass", "bid:pass", "stop", "stop")
    assert g.is_terminal() and g.is_truncated() and state_of(g).truncated == 1


def test_scores_winners_and_tie_breaks():
    """V51, V52, VA31, E18: 5 VP per own discovered target; ties by tiles, lowest tile."""
    m = MEDIUM
    s = VoyageGame(3, 2, voyage_map=m).to_state()
    v = StateView(s)
    v.phase, v.decider, v.position = GAME_OVER, -1, 3
    v.vp[:3] = [20, 20, 20]
    targets = [int(t) for t in v.targets[0] if t >= 0]
    v.discovered[targets[0]] = 0
    v.discovered[int(v.targets[1][0])] = 0              # not his card: no target VP for 1
    g = load(s, m)
    assert g.scores() == [25, 20, 20] and g.winners() == [0] and g.returns()[0] == 1.0
    v.discovered = -1
    v.tiles_taken = 3
    v.tiles[:3], v.best_tile[:3] = [1, 2, 0], [3, 1, 0]
    assert load(s, m).winners() == [1]                  # more tiles
    v.tiles[:3], v.best_tile[:3] = [1, 1, 1], [3, 1, 2]
    assert load(s, m).winners() == [1]                  # lowest tile
    v.tiles_taken = 0
    v.tiles[:3], v.best_tile[:3] = 0, 0
    g = load(s, m)
    assert g.winners() == [0, 1, 2] and g.returns() == [1 / 3] * 3


# ---------------------------------------------------------------- observation

def test_observation_layout_and_hidden_information():
    m = MEDIUM
    g = VoyageGame(3, 5, voyage_map=m, black_ship=True)
    names = obs_names(m.num_hexes, m.port_name)
    act(g, "bid:pass", "bid:pass", "bid:pass")         # round 1 deal done
    o = g.observe(0)
    assert o.dtype == np.float32 and o.shape == (len(names),)
    d = dict(zip(names, o.tolist(), strict=True))
    v = state_of(g)
    for k, kind in enumerate(R.CARD_KINDS):
        assert d[f"my_hand:{kind}"] == pytest.approx(v.hand[0, k] / 5)
    for t in v.targets[0]:
        assert d[f"my_target:{m.port_name[t]}"] == 1
    # 4 west and 6 east ports, 3 players: 1 west + 2 east cards each
    assert sum(d[f"my_target:{p}"] for p in m.port_name) == 3 == (v.targets[0] >= 0).sum()
    assert d["num_players=3"] == 1 and d["phase=move"] == 1
    assert d[f"black@{v.black_hex}"] == 1
    assert d["my_position"] == pytest.approx(list(v.order).index(0) / 3)
    assert d["deck_size"] == pytest.approx(v.deck_size / 86)
    assert d["tiles_left"] == pytest.approx(4 / 5)
    for r in range(3):
        seat = (0 + r) % 3
        assert d[f"p{r}:present"] == 1 and d[f"p{r}:ship@{m.lisbon}"] == 1
        assert d[f"p{r}:hand_size"] == pytest.approx(v.hand[seat].sum() / 5)
        assert d[f"p{r}:position={list(v.order).index(seat) + 1}"] == 1
        assert d[f"p{r}:decider"] == (seat == g.current_player())
    assert all(d[n] == 0 for n in names if n.startswith("p3:"))
    # other seats' hands (same size) and target cards do not change seat 0's view (VA32)
    s = g.to_state()
    v = StateView(s)
    k = int(np.flatnonzero(v.hand[1])[0])
    i = int(np.flatnonzero(v.deck[:v.deck_size] != k)[0])
    other = int(v.deck[i])
    v.hand[1, k] -= 1                                  # swap a card of seat 1 with the deck
    v.hand[1, other] += 1
    v.deck[i] = k
    t1, t2 = v.targets[1].copy(), v.targets[2].copy()
    v.targets[1], v.targets[2] = t2, t1
    h = VoyageGame.from_state(s, m)
    assert np.array_equal(h.observe(0), g.observe(0))
    assert not np.array_equal(h.observe(1), g.observe(1))


def test_observation_of_a_reaction():
    m = COMPASS_MAP
    s, v = build(m, n=2, ships={0: (6, 5), 1: (7, 2)}, hands={0: {"storm3": 1}})
    g = load(s, m)
    act(g, "move:N", "play:storm3", "move:N")
    names = obs_names(m.num_hexes, m.port_name)
    d = dict(zip(names, g.observe(1).tolist(), strict=True))
    assert d["phase=react"] == 1 and d["card=storm3"] == 1
    assert d["react_budget"] == pytest.approx(2 / 4)
    assert d["p0:decider"] == 1 and d["p1:active"] == 1 and d["p0:active"] == 0
    assert d["p1:available"] == pytest.approx(8 / 12)
    with pytest.raises(ValueError, match="seat"):
        g.observe(2)


def test_direction_names_match_actions():
    assert [A.name(A.MOVE + d) for d in range(6)] == [f"move:{x}" for x in DIRS]
    assert STATE_SIZE == StateView.layout.size
