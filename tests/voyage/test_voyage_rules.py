"""One or more tests per rule V1-V62 of docs/rules/voyage.md, the decisions VA1-VA39 of
the same page that are implemented, and the engine contract (docs/voyage_engine.md).

Each test is written so that it fails if the rule it names is implemented wrongly. Tiny
maps make positions and costs exact (see voyage_helpers.py for the builders).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.voyage_helpers import (
    COST_MAP,
    GOOD,
    KIND,
    SplitMix64,
    advanced,
    assert_illegal,
    avail,
    cubes_of,
    deck_top,
    force_face,
    force_rolls,
    hand_of,
    hand_size,
    hx,
    legal,
    legal_of,
    pass_bidding,
    play,
    port_of,
    rng_word,
    route,
    set_cards,
    staged,
    stop_all,
    tiny_game,
)
from tradewinds import IllegalActionError
from voyage_env import GAME
from voyage_env import actions as A
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.board import GOODS
from voyage_env.state import (
    BID,
    CARDS,
    GAME_OVER,
    MONASTERY,
    MOVE,
    ORDER,
    PLAY,
    REACT,
    UPGRADE,
    WRECK,
    StateView,
)

MAP = GAME.board

# ================================================================ tiny maps

# Movement costs: column 0 carries a current (0,1)->(0,4) (end dot (0,4)); (1,2) touches
# (0,2) and (0,3) from the side; column 2 has pirates on (2,1) and (2,4) and a current
# (2,3)->(2,5) through (2,4).

# Wind cards: a blue space (2,2), reached free from (2,1) (current S) or paid from (1,2)
# (NE); row 4 holds a blue, a red and a pirate space one after another
# ((0,4) -SE-> (1,4) -NE-> (2,4) -SE-> (3,4)); columns 4-5 are the east.
OPEN_MAP = dict(
    grid="""
        @~~~~~
        ~~~~~~
        ~~~~~~
        ~~~~~~
        ~~~~~~
    """,
    currents="c : 2,1 : S",
    events="""
        ~~~~~~
        ~~~~~~
        ~~B~~~
        ~~~~~~
        ~BRP~~
    """,
    hemisphere="""
        WWWWEE
        WWWWEE
        WWWWEE
        WWWWEE
        WWWWEE
    """,
)

# OPEN_MAP with Guinea on (5,4), in the east.
OPEN_PORT_MAP = dict(OPEN_MAP, ports="G | Guinea | 1444 | west | chili", grid="""
        @~~~~~
        ~~~~~~
        ~~~~~~
        ~~~~~~
        ~~~~~G
    """)

# Ports along one column below Lisbon; a red space at (0,4), a blue one at (0,6).
PORT_MAP = dict(
    grid="""
        @
        G
        S
        C
        ~
        N
        ~
    """,
    ports="""
        G | Guinea | 1444 | west | chili
        S | Porto Seguro | 1500 | west | brazilwood
        C | Calicut | 1498 | east | pepper
        N | Moluccas | 1512 | east | nutmeg
    """,
    events="""
        ~
        ~
        ~
        ~
        R
        ~
        B
    """,
)

# Lisbon (1,0) with sea around; Guinea (1,2) two steps south.
LISBON_MAP = dict(
    grid="""
        ~@~
        ~~~
        ~G~
    """,
    ports="G | Guinea | 1444 | west | chili",
)

# Black Ship: Melaka (4,1) in the east (cols 2-4); Ceylon (3,2) east; a current, a blue,
# a red and a pirate space in the east for the Black Ship to ignore.
BLACK_MAP = dict(
    grid="""
        @~~~~
        ~~~~M
        ~~~C~
    """,
    ports="""
        M | Melaka | 1509 | east | -
        C | Ceylon | 1505 | east | cinnamon
    """,
    currents="b : 4,1 : N",
    events="""
        ~~~B~
        ~~RP~
        ~~~~~
    """,
    hemisphere="""
        WWEEE
        WWEEE
        WWEEE
    """,
)

# BLACK_MAP plus a pepper port (Calicut) and Guinea next to Lisbon: games end by tiles.
FAST_MAP = dict(BLACK_MAP, grid="""
        @K~~~
        ~G~~M
        ~~~C~
    """, ports="""
        M | Melaka | 1509 | east | -
        C | Ceylon | 1505 | east | cinnamon
        K | Calicut | 1498 | east | pepper
        G | Guinea | 1444 | west | chili
    """)


def spend_on_blue(g, s, card, others=()):
    """From (2,1) on OPEN_MAP: the free step onto the blue (2,2), play `card`, and let
    `others` (seats) stop their reactions."""
    play(g, s, "move:S", f"play:{card}")
    for seat in others:
        assert GAME.current_player(s) == seat and StateView(s).phase == REACT
        play(g, s, "stop")


# ================================================================ 2. Setup (V1-V8)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_V1_V2_V6_V7_V8_fresh_game(n):
    """V1 ships on Lisbon; V2 9 discs, ship 4 out of service; V6 0 VP; V7 a face-down
    deck of 86, nobody holds cards before the deal, empty discard; V8/VA8 4 cubes per
    good in the stock; V4 monastery tiles; nothing discovered; the auction starts."""
    s = GAME.new_state(n, 17)
    v = StateView(s)
    GAME.validate_state(s)
    assert (v.ship[:n] == MAP.lisbon).all()
    assert (v.discs[:n] == 9).all() and (v.spent[:n] == 0).all()
    assert (v.upgraded[:n] == 0).all() and (v.vp[:n] == 0).all()
    assert v.hand.sum() == 0 and v.discard.sum() == 0 and v.deck_size == 86
    assert list(v.stock) == [4] * 8 and v.cubes.sum() == 0
    assert (v.discovered == -1).all()
    assert v.tiles_total == R.TILES_BY_PLAYERS[n] == n + 1 and v.tiles_taken == 0
    assert v.phase == BID and v.round == 1 and v.black_hex == -1
    assert GAME.current_player(s) == v.order[0]


def test_V4_monastery_tiles_by_player_count():
    """V4: 2 players tiles 1-3, 3 players 1-4, 4 players 1-5."""
    assert [StateView(GAME.new_state(n, 0)).tiles_total for n in (2, 3, 4)] == [3, 4, 5]


def expected_setup(vmap, n, seed, simple_deck=False):
    """docs/voyage_engine.md "Randomness": order, target decks, wind deck."""
    r = SplitMix64(seed)
    order = list(range(n))
    r.shuffle(order)
    targets = [[-1] * 8 for _ in range(n)]
    for side in (0, 1):
        deck = [p for p in range(vmap.num_ports) if vmap.port_deck[p] == side]
        r.shuffle(deck)
        k = min(4, len(deck) // n)
        for p in range(n):
            targets[p][4 * side: 4 * side + k] = deck[k * p: k * p + k]
    counts = list(R.CARD_COUNTS)
    if simple_deck:
        counts[R.CALM] -= 5
    wind = [kind for kind in range(R.NUM_CARD_KINDS) for _ in range(counts[kind])]
    r.shuffle(wind)
    return order, targets, wind


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 99, 2**40 + 7])
def test_V3_V5_V7_setup_randomness_follows_the_contract(n, seed):
    """V5 random order, V3 4 west + 4 east target cards each (all seats from the west deck
    first, then the east deck), V7 the shuffled wind deck (top = last entry)."""
    s = GAME.new_state(n, seed)
    v = StateView(s)
    order, targets, wind = expected_setup(MAP, n, seed)
    assert [int(x) for x in v.order[:n]] == order
    assert (v.order[n:] == -1).all()
    for p in range(n):
        assert [int(t) for t in v.targets[p]] == targets[p]
        assert all(MAP.port_deck[t] == 0 for t in targets[p][:4])
        assert all(MAP.port_deck[t] == 1 for t in targets[p][4:])
    dealt = [t for p in range(n) for t in targets[p]]
    assert len(set(dealt)) == 8 * n, "target cards are distinct"
    assert [int(x) for x in v.deck[:86]] == wind and v.deck_size == 86


def test_V5_starting_order_varies_with_the_seed():
    orders = {tuple(StateView(GAME.new_state(4, seed)).order) for seed in range(30)}
    assert len(orders) > 5


def test_V3_small_map_deals_what_the_decks_allow():
    """Contract: k = min(4, len(deck) // n) per deck; unused slots are -1."""
    g = tiny_game(grid="@ABCDE", ports="""
        A | Azores | 1427 | west | -
        B | Madeira | 1419 | west | -
        C | Ceuta | 1415 | west | -
        D | Diu | 1513 | east | -
        E | Siam | 1511 | east | -
    """)
    for seed in range(5):
        s = g.new_state(2, seed)
        _, targets, _ = expected_setup(g.board, 2, seed)
        v = StateView(s)
        for p in range(2):
            assert [int(t) for t in v.targets[p]] == targets[p]
            assert sum(t >= 0 for t in targets[p]) == 2


def test_VA9_wind_deck_composition():
    """VA9: storm -2 x10, -3 x10, -4 x8, compass 5 per direction, favourable 18, calm 10."""
    s = GAME.new_state(2, 3)
    counts = np.bincount(StateView(s).deck[:86], minlength=R.NUM_CARD_KINDS)
    assert list(counts) == [10, 10, 8, 5, 5, 5, 5, 5, 5, 18, 10]


# ================================================================ 3.1 Bidding (V10-V13)


def bidders(n=3, seed=0):
    s = GAME.new_state(n, seed)
    return s, [int(x) for x in StateView(s).order[:n]]


def test_V10_a_raise_must_exceed_the_highest_total():
    s, (a, b, c) = bidders()
    play(GAME, s, "bid:2")
    assert GAME.current_player(s) == b
    assert legal(GAME, s) == {"bid:pass"} | {f"bid:{t}" for t in range(3, 10)}
    assert_illegal(GAME, s, "bid:2", "must exceed")
    assert_illegal(GAME, s, "bid:1", "must exceed")
    play(GAME, s, "bid:5")
    assert_illegal(GAME, s, "bid:5", "must exceed")
    assert "bid:6" in legal(GAME, s)


def test_V10_raises_are_limited_by_available_discs_and_cost_only_the_difference():
    s, (a, b, c) = bidders()
    v = StateView(s)
    assert_illegal(GAME, s, "bid:10", "needs")
    v.discs[a] = 12  # an upgraded fleet bids with 12 discs
    v.upgraded[a] = 1
    assert "bid:12" in legal(GAME, s)
    play(GAME, s, "bid:1", "bid:2", "bid:3")
    assert GAME.current_player(s) == a
    play(GAME, s, "bid:10")
    assert v.spent[a] == 10 and v.bid[a] == 10, "raising 1 -> 10 spends 9 more"
    assert v.spent[b] == 2 and v.spent[c] == 3, "outbid discs stay spent (V12)"


def test_V10_a_pass_is_not_final():
    s, (a, b, c) = bidders()
    play(GAME, s, "bid:pass", "bid:1", "bid:pass")
    assert GAME.current_player(s) == a
    play(GAME, s, "bid:2")
    assert StateView(s).bid[a] == 2 and StateView(s).bid_leader == a


def test_VA13_auction_without_raise_ends_after_n_passes_order_unchanged():
    for n in (2, 3, 4):
        s, order = bidders(n, 5)
        for k in range(n):
            assert StateView(s).phase == BID, f"over after {k} passes"
            assert GAME.current_player(s) == order[k]
            play(GAME, s, "bid:pass")
        v = StateView(s)
        assert v.phase == MOVE and [int(x) for x in v.order[:n]] == order
        assert (v.spent[:n] == 0).all()


def test_VA13_after_a_raise_the_auction_ends_after_n_minus_1_passes():
    s, (a, b, c) = bidders()
    play(GAME, s, "bid:pass", "bid:pass", "bid:1")  # c raises after two passes
    v = StateView(s)
    assert v.phase == BID and GAME.current_player(s) == a, "passes before a raise reset"
    play(GAME, s, "bid:pass")
    assert v.phase == BID and GAME.current_player(s) == b
    play(GAME, s, "bid:pass")
    assert v.phase == ORDER and GAME.current_player(s) == c


def test_VA13_the_high_bidder_never_acts_while_leading():
    """VA13: the leader skips his own go (he cannot raise his own bid); checked along
    random auctions, which also always end."""
    rng = np.random.default_rng(3)
    for game_no in range(60):
        n = 2 + game_no % 3
        s = GAME.new_state(n, game_no)
        v = StateView(s)
        for _ in range(200):
            if v.phase != BID:
                break
            assert GAME.current_player(s) != v.bid_leader
            acts = GAME.legal_actions(s)
            a = acts[0] if rng.random() < 0.6 else int(rng.choice(acts))
            GAME.step(s, a)
        assert v.phase != BID


def test_V11_placement_by_bid_non_bidders_keep_their_order():
    """V11: the highest bidder takes any position (here 3), then the next (1); the
    non-bidders fill the rest in their previous relative order."""
    s, (a, b, c, d) = bidders(4, 8)
    play(GAME, s, "bid:pass", "bid:1", "bid:pass", "bid:2", "bid:pass", "bid:pass",
         "bid:pass")
    v = StateView(s)
    assert v.phase == ORDER and GAME.current_player(s) == d
    assert legal(GAME, s) == {"order:1", "order:2", "order:3", "order:4"}
    play(GAME, s, "order:3")
    assert GAME.current_player(s) == b
    assert legal(GAME, s) == {"order:1", "order:2", "order:4"}
    assert_illegal(GAME, s, "order:3", "free turn-order position")
    play(GAME, s, "order:1")
    assert [int(x) for x in v.order[:4]] == [b, a, d, c]
    assert v.phase == MOVE and v.active == b
    assert [hand_size(s, p) for p in (b, a, d, c)] == [4, 5, 6, 7]
    seen = []
    while v.phase != BID:
        seen.append(v.active)
        play(GAME, s, "stop")
    assert seen == [b, a, d, c], "the rest of the round uses the new order"
    assert GAME.current_player(s) == b, "the next auction starts with the new first"


def test_V11_the_last_placement_is_automatic():
    """Everybody bid: the lowest bidder gets the last free position without a decision."""
    s, (a, b) = bidders(2, 1)
    play(GAME, s, "bid:1", "bid:2", "bid:pass")
    v = StateView(s)
    assert v.phase == ORDER and GAME.current_player(s) == b
    play(GAME, s, "order:2")
    assert v.phase == MOVE and [int(x) for x in v.order[:2]] == [a, b]


def test_V12_bid_discs_reduce_movement_and_return_at_the_end_of_the_turn():
    s, (a, b) = bidders(2, 4)
    play(GAME, s, "bid:3", "bid:pass", "order:1")
    v = StateView(s)
    assert v.active == a and avail(s, a) == 6
    play(GAME, s, "stop")
    assert v.spent[a] == 0 and v.bid[a] == 3, "the bid is kept until the next round"
    play(GAME, s, "stop")
    assert v.phase == BID and v.round == 2 and v.bid[a] == 0 and v.bid_high == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_V13_round_1_deal_by_position(n):
    """V13: after the auction, positions 1..n draw 4, 5, 6, 7 from the top in position
    order; no deal in later rounds (VA14 refill, VA15 no discard above 5)."""
    s = GAME.new_state(n, 31 + n)
    for _ in range(n - 1):
        play(GAME, s, "bid:pass")
    top = deck_top(s, 22)
    play(GAME, s, "bid:pass")
    v = StateView(s)
    k = 0
    for pos in range(n):
        p = int(v.order[pos])
        want = {}
        for kind in top[k: k + 4 + pos]:
            want[kind] = want.get(kind, 0) + 1
        assert hand_of(s, p) == want, f"position {pos}"
        k += 4 + pos
    assert v.deck_size == 86 - k
    stop_all(GAME, s)  # everybody stops: hands of 4 are refilled to 5, larger ones kept
    sizes = [hand_size(s, int(v.order[pos])) for pos in range(n)]
    assert sizes == [5, 5, 6, 7][:n]
    pass_bidding(GAME, s)
    assert [hand_size(s, int(v.order[pos])) for pos in range(n)] == sizes, "no second deal"


# ================================================================ 3.2 Movement (V14-V18)


def test_V14_only_adjacent_sea_spaces_and_ships_may_share():
    g = tiny_game(**COST_MAP)
    s = staged(g, 2)
    assert legal_of(g, s, "move:") == {"move:S"}, "land and the board's edge are closed"
    for d in ("N", "NE", "SE", "SW", "NW"):
        assert_illegal(g, s, f"move:{d}", "no sea passage")
    s = staged(g, 2, ships={0: (1, 2), 1: (2, 3)})
    assert legal_of(g, s, "move:") == {"move:NW", "move:SW", "move:NE", "move:SE"}
    play(g, s, "move:SE")
    assert StateView(s).ship[0] == StateView(s).ship[1], "any number of ships share a space"


def cost_of(g, s, action):
    t = s.copy()
    before = int(StateView(t).spent[StateView(t).active])
    play(g, t, action)
    return int(StateView(t).spent[StateView(s).active]) - before


def test_V15_V16_VA29_a_step_is_free_only_from_an_arrow_space_in_its_direction():
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (0, 2)})
    assert cost_of(g, s, "move:S") == 0, "along the arrow"
    assert cost_of(g, s, "move:N") == 1, "against the arrow"
    assert cost_of(g, s, "move:SE") == 1, "out of the current sideways"
    s = staged(g, 2, ships={0: (1, 2)})
    assert cost_of(g, s, "move:NW") == 1, "entering a current from the side"
    assert cost_of(g, s, "move:SW") == 1
    s = staged(g, 2, ships={0: (0, 4)})
    assert g.board.current_ends()[hx(g, 0, 4)] == 1
    assert cost_of(g, s, "move:S") == 1, "the end dot has no arrow"
    s = staged(g, 2, ships={0: (0, 0)})
    assert cost_of(g, s, "move:S") == 1, "entering the current's first space"


def test_V15_free_steps_are_unlimited_and_need_no_spare_disc_beyond_one():
    """V15: a player with a single available disc follows the whole current for free."""
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (0, 1)}, spent={0: 8})
    play(g, s, "move:S", "move:S", "move:S")
    v = StateView(s)
    assert v.ship[0] == hx(g, 0, 4) and v.spent[0] == 8 and v.active == 0


def test_V16_V17_a_step_needs_its_discs():
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (2, 0)}, spent={0: 8})
    assert_illegal(g, s, "move:S", "costs more discs")  # 1 + pirate = 2 > 1
    s = staged(g, 2, ships={0: (2, 0)}, spent={0: 7})
    play(g, s, "move:S")  # pays the last 2 discs: the turn ends on the pirate space
    assert StateView(s).ship[0] == hx(g, 2, 1) and StateView(s).active == 1


# currents in several directions, pirates on and off the arrows, a blue space
SWEEP_MAP = dict(
    grid="""
        @~~~
        ~~~~
        ~~.~
        ~~~~
    """,
    currents="""
        a : 0,1 : S SE N
        b : 3,0 : S S SW
    """,
    events="""
        ~~~~
        P~~P
        ~P.~
        ~~BP
    """,
)


def expected_moves(g, s, p):
    """The own moves and shields the rules allow from p's ship (V14-V19, V29, V34)."""
    m = g.board
    v = StateView(s)
    h, have = int(v.ship[p]), avail(s, p)
    hand = v.hand[p]
    out = set()
    for d, name in enumerate(("N", "NE", "SE", "S", "SW", "NW")):
        t = int(m.neighbors[h, d])
        if t < 0:
            continue
        base = 0 if m.current[h] == d else 1
        for shield in (False, True):
            if shield and not (m.pirate[t] and hand[R.FAVOURABLE] > 0):
                continue
            cost = base + (1 if m.pirate[t] and not shield else 0)
            if cost > have:
                continue
            if m.blue[t]:
                left = hand.copy()
                left[R.FAVOURABLE] -= shield
                if not any(left[k] > 0 and R.storm_value(k) <= have - cost
                           for k in range(R.NUM_CARD_KINDS)):
                    continue
            out.add(f"{'shield' if shield else 'move'}:{name}")
    return out


@pytest.mark.parametrize("spent", [6, 7, 8])
@pytest.mark.parametrize("hand", [{}, {"favourable": 1}, {"storm2": 1}, {"storm3": 1}])
def test_V14_V19_V34_the_mask_matches_the_step_costs_everywhere(spent, hand):
    g = tiny_game(**SWEEP_MAP)
    m = g.board
    for h in range(m.num_hexes):
        s = staged(g, 2, ships={0: tuple(int(x) for x in m.coords[h])}, spent={0: spent},
                   hands={0: hand})
        want = expected_moves(g, s, 0)
        got = legal_of(g, s, "move:") | legal_of(g, s, "shield:")
        assert got == want, (tuple(m.coords[h]), spent, hand)
        for a in want:  # and each costs what it should
            t = s.copy()
            d = ("N", "NE", "SE", "S", "SW", "NW").index(a.split(":")[1])
            target = int(m.neighbors[h, d])
            cost = (0 if m.current[h] == d else 1) + (
                1 if m.pirate[target] and a.startswith("move") else 0)
            g.step(t, a)
            vt = StateView(t)
            if vt.active == 0 and vt.phase in (MOVE, PLAY):
                assert vt.spent[0] == spent + cost, (a, tuple(m.coords[h]))


def test_V18_VA27_pirate_surcharge_on_entering_only():
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (2, 0)})
    assert cost_of(g, s, "move:S") == 2, "plain step onto a pirate space: 1 + 1"
    s = staged(g, 2, ships={0: (2, 3)})
    assert cost_of(g, s, "move:S") == 1, "current step onto a pirate space: 0 + 1"
    s = staged(g, 2, ships={0: (2, 1)})
    assert cost_of(g, s, "move:S") == 1, "starting on a pirate space costs nothing extra"
    s = staged(g, 2, ships={0: (2, 4)})
    assert cost_of(g, s, "move:S") == 0


def test_V34_VA27_favourable_wind_shields_from_the_pirate_only():
    """V34: shield:D plays a favourable wind to step onto a pirate space without the
    surcharge (the step's own cost stays, VA27); the card is discarded and affects nobody."""
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (2, 0), 1: (2, 2)}, hands={0: {"favourable": 1, "calm": 1}})
    v = StateView(s)
    assert "shield:S" in legal(g, s)
    play(g, s, "shield:S")
    assert v.spent[0] == 1 and v.ship[0] == hx(g, 2, 1)
    assert hand_of(s, 0) == {"calm": 1} and v.discard[R.FAVOURABLE] == 1
    assert v.phase == MOVE and GAME.current_player(s) == 0, "the other player is not asked"
    # along a current the shielded step is free
    s = staged(g, 2, ships={0: (2, 3)}, hands={0: {"favourable": 1}})
    play(g, s, "shield:S")
    assert StateView(s).spent[0] == 0
    # not without the card, not off a pirate space
    s = staged(g, 2, ships={0: (2, 0)}, hands={0: {"calm": 1}})
    assert_illegal(g, s, "shield:S", "favourable")
    s = staged(g, 2, ships={0: (2, 1)}, hands={0: {"favourable": 1}})
    assert_illegal(g, s, "shield:S", "pirate")


def test_V34_shield_still_needs_the_normal_cost():
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (2, 0)}, spent={0: 8}, hands={0: {"favourable": 1}})
    assert_illegal(g, s, "move:S", "costs more")
    play(g, s, "shield:S")  # the last disc: the turn ends on the pirate space
    v = StateView(s)
    assert v.ship[0] == hx(g, 2, 1) and v.discard[R.FAVOURABLE] == 1 and v.active == 1


# ================================================================ V19 blue, V20-V21 red


def test_V19_blue_space_stop_and_play_then_continue():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (5, 0)}, hands={0: {"storm2": 1, "calm": 1}})
    v = StateView(s)
    play(g, s, "move:S")
    assert v.phase == PLAY and GAME.current_player(s) == 0
    assert legal(g, s) == {"play:storm2", "play:calm"}, "no move, no stop before the card"
    assert_illegal(g, s, "move:S", "wind card")
    assert_illegal(g, s, "stop")
    play(g, s, "play:storm2")
    assert v.phase == MOVE and v.spent[0] == 2 and hand_of(s, 0) == {"calm": 1}
    play(g, s, "move:S")
    assert v.spent[0] == 3 and v.ship[0] == hx(g, 2, 3)


def test_V19_no_card_no_blue_space():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1)})
    assert "move:S" not in legal(g, s) and "move:SE" in legal(g, s)
    assert_illegal(g, s, "move:S", "blue space")
    s = staged(g, 2, ships={0: (1, 2)}, spent={0: 7}, hands={0: {"storm2": 1}})
    assert_illegal(g, s, "move:NE", "blue space")  # 1 left after paying: no -2 storm


def test_VA28_events_do_not_fire_at_the_start_of_a_turn():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 2)})
    v = StateView(s)
    assert v.phase == MOVE and GAME.current_player(s) == 0
    play(g, s, "stop")
    assert v.active == 1
    s = staged(g, 2, ships={0: (2, 4)})
    word = rng_word(s)
    play(g, s, "move:N")
    assert rng_word(s) == word, "leaving a red space rolls no die"


def red_state(**kw):
    g = tiny_game(**PORT_MAP)
    return g, staged(g, 2, ships={0: (0, 3)}, **kw)


def test_V20_blank_die_nothing_happens():
    g, s = red_state(cubes={0: ["chili", "ivory"]})
    word = force_rolls(s, False)
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == MOVE and not v.wrecked[0].any() and cubes_of(s, 0) == {"chili", "ivory"}
    assert rng_word(s) == advanced(word, 1), "exactly one die roll"


@pytest.mark.parametrize("face", range(6))
def test_VA11_two_faces_of_six_wreck(face):
    """VA11 and the contract: `below(6) < 2` is the "1" face (a wreck)."""
    g, s = red_state(wrecked={0: [1, 2]})
    word = force_face(s, face)
    play(g, s, "move:S")
    assert StateView(s).wrecked[0, 2] == (1 if face < 2 else 0)
    assert rng_word(s) == advanced(word, 1)


def test_VA11_the_die_is_rolled_even_when_no_ship_can_be_wrecked():
    g, s = red_state(wrecked={0: [1, 2, 3]})
    word = rng_word(s)
    play(g, s, "move:S")
    assert rng_word(s) == advanced(word, 1)


def test_V21_wreck_choice_among_working_ships_and_cubes_lost_to_stock():
    g, s = red_state(cubes={0: ["chili", "brazilwood", "ivory"]})
    force_rolls(s, True)
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == WRECK and GAME.current_player(s) == 0
    assert legal(g, s) == {"wreck:ship1", "wreck:ship2", "wreck:ship3"}
    assert_illegal(g, s, "wreck:ship4", "working ships")
    play(g, s, "wreck:ship1")
    assert list(v.wrecked[0]) == [1, 0, 0, 0] and cubes_of(s, 0) == {"ivory"}
    assert v.stock[GOOD["chili"]] == 4 and v.stock[GOOD["brazilwood"]] == 4
    assert v.phase == MOVE and GAME.current_player(s) == 0


def test_V21_VA12_upgraded_fleet_may_lose_ship_4():
    g, s = red_state(upgraded=[0], wrecked={0: [2]}, cubes={0: ["nutmeg", "chili"]})
    force_rolls(s, True)
    play(g, s, "move:S")
    assert legal(g, s) == {"wreck:ship1", "wreck:ship3", "wreck:ship4"}
    play(g, s, "wreck:ship4")
    assert cubes_of(s, 0) == {"chili"} and StateView(s).stock[GOOD["nutmeg"]] == 4


def test_VA12_single_candidate_is_automatic_none_means_nothing():
    g, s = red_state(wrecked={0: [1, 3]}, cubes={0: ["pepper"]})
    force_rolls(s, True)
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == MOVE and list(v.wrecked[0]) == [1, 1, 1, 0]
    assert cubes_of(s, 0) == set()
    g, s = red_state(wrecked={0: [1, 2, 3]})
    force_rolls(s, True)
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == MOVE and list(v.wrecked[0]) == [1, 1, 1, 0]


def test_V21_wrecked_ship_cannot_load_until_repaired():
    g = tiny_game(**PORT_MAP)
    s = staged(g, 2, wrecked={0: [1]})
    play(g, s, "move:S")
    assert cubes_of(s, 0) == set()
    play(g, s, "move:S")
    assert cubes_of(s, 0) == set(), "brazilwood is ship 1's too"
    play(g, s, "move:S")
    assert cubes_of(s, 0) == {"pepper"}


# ================================================================ V22-V25 ports


def test_V23_discovery_only_by_the_first_visitor():
    g = tiny_game(**PORT_MAP)
    s = staged(g, 2)
    v = StateView(s)
    play(g, s, "move:S", "move:S")
    assert v.vp[0] == 1 + 2
    play(g, s, "move:N", "move:S")
    assert v.vp[0] == 3, "re-entering scores nothing"
    play(g, s, "stop")
    play(g, s, "move:S", "move:S")
    assert v.vp[1] == 0 and v.discovered[port_of(g, "Guinea")] == 0
    assert v.discovered[port_of(g, "Porto Seguro")] == 0
    assert cubes_of(s, 1) == {"chili", "brazilwood"}, "later visitors still load"


def test_V24_one_cube_per_good():
    g = tiny_game(**PORT_MAP)
    s = staged(g, 2, cubes={0: ["chili"]})
    play(g, s, "move:S")
    v = StateView(s)
    assert v.cubes[0, GOOD["chili"]] == 1 and v.stock[GOOD["chili"]] == 3


def test_VA8_empty_stock_loads_nothing():
    """VA8: the stock of 4 per good is a hard limit. In a consistent state it cannot bind
    (4 cubes, at most 4 players, one each), so this one state is deliberately broken:
    the 4th chili cube is taken out of the game to empty the stock."""
    g = tiny_game(**PORT_MAP)
    s = staged(g, 4, cubes={1: ["chili"], 2: ["chili"], 3: ["chili"]})
    StateView(s).stock[GOOD["chili"]] = 0
    g.step(s, "move:S")
    assert cubes_of(s, 0) == set() and StateView(s).stock[GOOD["chili"]] == 0


def test_V24_reactions_and_forced_moves_load_too():
    """V22/V37: a reaction move into a goods port discovers and loads."""
    g = tiny_game(**OPEN_PORT_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (3, 4)}, hands={0: {"storm2": 1}})
    play(g, s, "move:S", "play:storm2")
    play(g, s, *route((3, 4), (4, 4), (5, 4)))
    v = StateView(s)
    assert cubes_of(s, 1) == {"chili"} and v.vp[1] == 1 and v.spent[1] == 0


def test_V25_VA37_reload_after_selling_in_lisbon():
    g = tiny_game(**PORT_MAP)
    s = staged(g, 2, cubes={0: ["chili"]})
    play(g, s, "dock", "cards:top_up")
    assert cubes_of(s, 0) == set() and StateView(s).vp[0] == 5
    stop_all(g, s)
    pass_bidding(g, s)
    v = StateView(s)
    assert v.active == 0 and v.round == 2
    play(g, s, "move:S")
    assert cubes_of(s, 0) == {"chili"}


# ================================================================ V26-V37 wind cards


def test_V27_V29_storm_spends_N_after_the_others_moved():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (0, 1)}, hands={0: {"storm3": 1}})
    v = StateView(s)
    play(g, s, "move:S", "play:storm3")
    assert v.discard[R.STORM3] == 1 and hand_of(s, 0) == {}
    assert v.phase == REACT and GAME.current_player(s) == 1 and v.react_budget == 3
    assert v.spent[0] == 0
    play(g, s, "move:S")
    assert v.react_budget == 2 and v.spent[0] == 0
    play(g, s, "stop")
    assert v.phase == MOVE and v.spent[0] == 3 and v.spent[1] == 0


@pytest.mark.parametrize("kind,budget", [("storm2", 2), ("storm4", 4), ("favourable", 2)])
def test_V37_VA30_others_move_up_to_N_in_any_direction(kind, budget):
    """V37/VA9/VA30: up to N single steps, any path, doubling back allowed, free."""
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (0, 1)}, spent={0: 1}, hands={0: {kind: 1}})
    v = StateView(s)
    play(g, s, "move:S", f"play:{kind}")
    assert legal(g, s) == {"move:N", "move:NE", "move:SE", "move:S", "stop"}
    for k in range(budget):
        assert v.phase == REACT and v.react_budget == budget - k
        assert v.spent[0] == 1, "V28: the card player's own effect comes after"
        play(g, s, "move:S" if k % 2 == 0 else "move:N")
    assert v.phase == MOVE and GAME.current_player(s) == 0
    assert v.spent[0] == {"storm2": 3, "storm4": 5, "favourable": 0}[kind]
    assert v.ship[1] == hx(g, 0, 1 if budget % 2 == 0 else 2)
    assert v.spent[1] == 0


def test_V37_VA28_others_ignore_blue_red_and_pirate_spaces():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (0, 4)}, hands={0: {"storm3": 1}})
    v = StateView(s)
    play(g, s, "move:S", "play:storm3")
    word = rng_word(s)
    play(g, s, *route((0, 4), (1, 4), (2, 4), (3, 4)))
    assert v.ship[1] == hx(g, 3, 4) and v.spent[1] == 0, "no pirate disc"
    assert rng_word(s) == word and not v.wrecked[1].any(), "no die"
    assert v.phase == MOVE and GAME.current_player(s) == 0, "no card on the blue space"


def test_V36_only_the_card_players_hemisphere_is_affected():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 3, ships={0: (2, 1), 1: (5, 0), 2: (3, 0)}, hands={0: {"storm2": 1}})
    play(g, s, "move:S", "play:storm2")
    assert GAME.current_player(s) == 2, "seat 1 is in the east and is skipped"
    play(g, s, *route((3, 0), (4, 1), (5, 1)))  # across the line
    v = StateView(s)
    assert v.ship[2] == hx(g, 5, 1) and v.phase == MOVE


def test_V36_a_card_played_in_the_east_affects_the_east_only():
    g = tiny_game(**BLACK_MAP)  # without the Black Ship option
    s = staged(g, 3, ships={0: (2, 0), 2: (4, 2)}, hands={0: {"storm2": 1}})
    play(g, s, "move:SE", "play:storm2")  # onto the blue (3,0), east
    assert GAME.current_player(s) == 2, "seat 1 on Lisbon (west) is skipped"
    play(g, s, "stop")
    assert StateView(s).phase == MOVE and GAME.current_player(s) == 0


def test_VA17_reactions_in_turn_order_after_the_card_player():
    g = tiny_game(**OPEN_MAP)
    a, b, c, d = 3, 1, 0, 2
    s = staged(g, 4, order=[a, b, c, d], active=c, ships={c: (2, 1)},
               hands={c: {"storm2": 1}})
    play(g, s, "move:S", "play:storm2")
    seen = []
    while StateView(s).phase == REACT:
        seen.append(GAME.current_player(s))
        play(g, s, "stop")
    assert seen == [d, a, b]
    assert StateView(s).phase == MOVE and GAME.current_player(s) == c


def test_VA26_ships_docked_this_round_are_not_affected():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 3, ships={1: (2, 1)}, hands={1: {"storm2": 2}})
    play(g, s, "dock", "cards:top_up")  # seat 0 docks in Lisbon (west)
    v = StateView(s)
    assert v.docked[0] == 1 and v.active == 1
    set_cards(s, {1: {"storm2": 2}})
    play(g, s, "move:S", "play:storm2")
    assert GAME.current_player(s) == 2, "the docked seat 0 is not asked"
    play(g, s, "stop")
    assert v.phase == MOVE and v.ship[0] == g.board.lisbon
    # next round the flag is cleared: seat 0 reacts again
    stop_all(g, s)
    assert v.docked[0] == 0
    pass_bidding(g, s)
    play(g, s, "stop")  # seat 0
    assert v.active == 1
    set_cards(s, {1: {"storm2": 1}})
    v.ship[1] = hx(g, 2, 1)
    play(g, s, "move:S", "play:storm2")
    assert GAME.current_player(s) == 2
    play(g, s, "stop")
    assert GAME.current_player(s) == 0 and v.phase == REACT


def test_V30_VA28_compass_storm_own_move_ignores_symbols():
    """V30: 2 spaces in the card's direction after the others; a red space on the way
    (here the second space) rolls no die."""
    g = tiny_game(**PORT_MAP)
    s = staged(g, 2, ships={0: (0, 5), 1: (0, 5)}, hands={0: {"compass_N": 1}})
    v = StateView(s)
    word = rng_word(s)
    play(g, s, "move:S")  # onto the blue (0,6)
    play(g, s, "play:compass_N")
    assert GAME.current_player(s) == 1 and legal(g, s) == {"move:N", "stop"}
    play(g, s, "stop")
    assert v.ship[0] == hx(g, 0, 4), "2 spaces N: (0,5) then the red (0,4), no die"
    assert rng_word(s) == word and v.phase == MOVE and v.spent[0] == 1


def test_V30_compass_forced_move_enters_ports_and_stops_at_the_edge():
    g = tiny_game(grid="""
        @
        ~
        G
        ~
        ~
    """, ports="G | Guinea | 1444 | west | chili", events="""
        ~
        ~
        ~
        B
        ~
    """)
    s = staged(g, 2, ships={0: (0, 4)}, hands={0: {"compass_N": 1}})
    v = StateView(s)
    play(g, s, "move:N", "play:compass_N")  # seat 1 on Lisbon cannot go N: not asked
    assert v.ship[0] == hx(g, 0, 1), "(0,3) -> (0,2) Guinea -> (0,1)"
    assert v.discovered[port_of(g, "Guinea")] == 0 and cubes_of(s, 0) == {"chili"}
    assert v.vp[0] == 1 and v.phase == MOVE
    # at the edge: 2 S from (0,3) is one space only (then off the board)
    s = staged(g, 2, ships={0: (0, 4)}, hands={0: {"compass_S": 1, "compass_N": 1}})
    play(g, s, "move:N", "play:compass_S")
    play(g, s, "stop")
    assert StateView(s).ship[0] == hx(g, 0, 4), "one step S, then the edge"


def test_V30_V31_compass_against_land_moves_nobody_that_way():
    g = tiny_game(grid="""
        @.
        ~~
        ~.
    """, events="""
        ~.
        ~B
        ~.
    """)
    s = staged(g, 2, ships={0: (0, 1), 1: (0, 2)}, hands={0: {"compass_N": 1}})
    v = StateView(s)
    play(g, s, "move:SE")  # onto the blue (1,1)
    play(g, s, "play:compass_N")
    assert GAME.current_player(s) == 1 and legal(g, s) == {"move:N", "stop"}
    play(g, s, "move:N")
    assert v.phase == REACT and v.react_budget == 1
    play(g, s, "move:N")
    assert v.ship[1] == hx(g, 0, 0)
    assert v.ship[0] == hx(g, 1, 1), "land N of (1,1): no step"
    assert v.phase == MOVE and GAME.current_player(s) == 0


@pytest.mark.parametrize("spent,after", [(0, 0), (1, 0), (2, 0), (5, 3)])
def test_V33_VA10_favourable_regains_min_2_spent(spent, after):
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (5, 4)}, spent={0: spent},
               hands={0: {"favourable": 1}})
    play(g, s, "move:S", "play:favourable")
    v = StateView(s)
    assert v.phase == MOVE and v.spent[0] == after


def test_V33_VA10_favourable_regains_bid_discs():
    g = tiny_game(**OPEN_MAP)
    s = g.new_state(2, 6)
    v = StateView(s)
    a, b = (int(x) for x in v.order[:2])
    play(g, s, "bid:3", "bid:pass", "order:1")
    assert v.active == a and v.spent[a] == 3
    v.ship[a] = hx(g, 2, 1)
    v.ship[b] = hx(g, 5, 0)
    set_cards(s, {a: {"favourable": 1}})
    play(g, s, "move:S", "play:favourable")
    assert v.spent[a] == 1 and v.phase == MOVE


def test_V35_calm_ends_the_turn_at_once_and_affects_nobody():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (0, 1)}, hands={0: {"calm": 1}},
               top=["storm2"] * 5)
    play(g, s, "move:S", "play:calm")
    v = StateView(s)
    assert v.active == 1 and v.phase == MOVE and GAME.current_player(s) == 1
    assert v.spent[0] == 0 and hand_of(s, 0) == {"storm2": 5}
    assert v.ship[1] == hx(g, 0, 1) and v.discard[R.CALM] == 1


# ================================================================ V38-V47 Lisbon


def test_V38_sailing_over_lisbon_does_nothing():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, ships={0: (1, 1)}, cubes={0: ["chili"]}, wrecked={0: [3]})
    play(g, s, "move:N")
    v = StateView(s)
    assert "dock" in legal(g, s)
    play(g, s, "move:S")
    assert cubes_of(s, 0) == {"chili"} and v.wrecked[0, 2] == 1 and v.docked[0] == 0
    assert v.spent[0] == 2 and v.vp[0] == 0
    assert_illegal(g, s, "dock", "Lisbon")


def test_VA22_dock_at_the_start_of_the_turn():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2)
    assert "dock" in legal(g, s)
    play(g, s, "dock")
    v = StateView(s)
    assert v.phase == CARDS and legal(g, s) == {"cards:top_up", "cards:new"}, \
        "VA23: docking without cubes is allowed"
    play(g, s, "cards:top_up")
    assert v.docked[0] == 1 and v.active == 1


def test_VA21_VA22_reaching_lisbon_with_the_last_disc_may_still_dock():
    """Decision (docs/voyage_engine.md, end check): docking costs no disc, so a ship that
    reaches the Lisbon space with its last disc may still enter the port - and do nothing
    else: with 0 discs only dock or stop are legal (V48c)."""
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, ships={0: (1, 1)}, spent={0: 8}, cubes={0: ["chili"]})
    play(g, s, "move:N")
    v = StateView(s)
    assert v.ship[0] == g.board.lisbon and v.active == 0 and v.phase == MOVE
    assert set(g.legal_actions(s)) == {g.action_id("dock"), g.action_id("stop")}
    with pytest.raises(ValueError, match="no disc left"):
        play(g, s, "move:S")
    play(g, s, "dock", "cards:top_up")
    assert v.docked[0] == 1 and v.vp[0] == 5 and cubes_of(s, 0) == set() and v.active == 1


def test_V48c_last_disc_elsewhere_ends_the_turn_at_once():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, ships={0: (1, 2)}, spent={0: 8}, cubes={0: ["chili"]})
    play(g, s, "move:N")
    v = StateView(s)
    assert v.ship[0] != g.board.lisbon and v.active == 1 and v.spent[0] == 0


def test_V40_V44_sale_values_and_no_upgrade_when_already_upgraded():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, upgraded=[0], cubes={0: list(GOODS)})
    play(g, s, "dock")
    v = StateView(s)
    assert v.phase == MONASTERY, "VA23: the upgrade happens once"
    play(g, s, "monastery:sell")
    assert v.vp[0] == 6 * 5 + 2 * 10 and cubes_of(s, 0) == set()
    assert list(v.stock) == [4] * 8 and v.tiles_taken == 0


def test_V43_upgrade_needs_three_cubes_and_can_be_skipped_only_before_the_first():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, cubes={0: ["chili", "ivory"]})
    play(g, s, "dock")
    assert StateView(s).phase == CARDS and StateView(s).vp[0] == 10, "2 cubes: no upgrade"
    s = staged(g, 2, cubes={0: ["chili", "ivory", "silk"]})
    play(g, s, "dock")
    v = StateView(s)
    assert v.phase == UPGRADE
    assert_illegal(g, s, "upgrade:pepper", "hand in a cube")
    play(g, s, "upgrade:silk")
    assert_illegal(g, s, "upgrade:skip", "three cubes")
    assert_illegal(g, s, "upgrade:silk")
    play(g, s, "upgrade:chili", "upgrade:ivory")
    assert v.upgraded[0] == 1 and v.discs[0] == 12 and v.vp[0] == 0
    assert v.phase == CARDS
    s = staged(g, 2, cubes={0: ["chili", "ivory", "silk"]})
    play(g, s, "dock", "upgrade:skip")
    v = StateView(s)
    assert v.upgraded[0] == 0 and v.vp[0] == 15 and v.phase == CARDS


def test_VA24_the_upgraded_fleet_has_12_discs_from_the_next_turn():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, cubes={0: ["chili", "ivory", "silk"]})
    play(g, s, "dock", "upgrade:chili", "upgrade:ivory", "upgrade:silk", "cards:top_up")
    stop_all(g, s)
    pass_bidding(g, s)
    assert StateView(s).active == 0 and avail(s, 0) == 12


def test_V41_monastery_tiles_ascending_and_none_left():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, tiles_taken=1, cubes={0: ["pepper"]})
    v = StateView(s)
    v.tiles[1], v.best_tile[1] = 1, 1
    play(g, s, "dock", "monastery:take")
    assert v.tiles[0] == 1 and v.best_tile[0] == 2 and v.tiles_taken == 2
    assert v.end_triggered == 0
    # all tiles gone: the pepper is simply sold
    s = staged(g, 2, tiles_taken=3, cubes={0: ["pepper"]})
    v = StateView(s)
    v.tiles[1], v.best_tile[1] = 3, 1
    v.end_triggered = 1
    play(g, s, "dock")
    assert v.phase == CARDS and v.vp[0] == 5 and v.tiles[0] == 0


def test_V41_best_tile_keeps_the_lowest():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 4, tiles_taken=2, tiles={0: (1, 2), 1: (1, 1)}, cubes={0: ["pepper"]})
    v = StateView(s)
    play(g, s, "dock", "monastery:take")
    assert v.tiles[0] == 2 and v.best_tile[0] == 2 and v.vp[0] == 10


def test_V45_cards_top_up_or_new_hand():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, hands={0: {"calm": 2}}, top=["storm2", "storm3", "storm4", "favourable",
                                                  "compass_S"])
    play(g, s, "dock", "cards:top_up")
    assert hand_of(s, 0) == {"calm": 2, "storm2": 1, "storm3": 1, "storm4": 1}
    s = staged(g, 2, hands={0: {"calm": 2}}, top=["storm2", "storm3", "storm4", "favourable",
                                                  "compass_S"])
    play(g, s, "dock", "cards:new")
    assert hand_of(s, 0) == {"storm2": 1, "storm3": 1, "storm4": 1, "favourable": 1,
                             "compass_S": 1}
    assert StateView(s).discard[R.CALM] == 2


def test_V46_refit_repairs_and_returns_all_discs():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, upgraded=[0], spent={0: 11}, wrecked={0: [1, 4]}, cubes={0: ["ivory"]})
    play(g, s, "dock")
    v = StateView(s)
    assert v.vp[0] == 5 and v.phase == CARDS
    play(g, s, "cards:top_up")
    assert not v.wrecked[0].any() and v.spent[0] == 0 and v.docked[0] == 1
    assert v.active == 1


def test_V47_VA22_a_ship_moved_onto_lisbon_by_a_card_does_not_dock():
    g = tiny_game(grid="""
        ~@~
        ~~~
        ~~~
    """, events="""
        ~~~
        ~~~
        ~B~
    """)
    s = staged(g, 2, ships={0: (1, 1), 1: (1, 1)}, hands={0: {"storm2": 1}})
    play(g, s, "move:S", "play:storm2")
    v = StateView(s)
    assert GAME.current_player(s) == 1
    play(g, s, "move:N")
    assert v.ship[1] == g.board.lisbon and "dock" not in legal(g, s)
    assert_illegal(g, s, "dock")
    play(g, s, "stop")
    assert v.docked[1] == 0
    play(g, s, "stop")  # seat 0 ends; seat 1's own turn on Lisbon
    assert v.active == 1 and "dock" in legal(g, s)


# ================================================================ V48 turn end, VA14-VA16, VA21


def test_V48_stop_refreshes_discs_and_hand_and_passes_on():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 3, ships={0: (2, 1)}, spent={0: 4}, hands={0: {"calm": 1}},
               top=["storm3", "favourable", "storm2", "compass_N"])
    play(g, s, "stop")
    v = StateView(s)
    assert v.spent[0] == 0 and hand_of(s, 0) == {"calm": 1, "storm3": 1, "favourable": 1,
                                                 "storm2": 1, "compass_N": 1}
    assert v.active == 1 and v.position == 1 and v.phase == MOVE


def test_VA15_no_discard_above_five():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, hands={0: {"calm": 7}})
    play(g, s, "stop")
    assert hand_size(s, 0) == 7


def test_VA16_reshuffle_the_discard_pile_when_the_deck_runs_out():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, hands={1: {"calm": 3}})
    v = StateView(s)
    # everything but one storm2 (deck) and seat 1's hand goes to the discard pile
    counts = np.array(R.CARD_COUNTS)
    counts[R.CALM] -= 3
    counts[R.STORM2] -= 1
    set_cards(s, {1: {"calm": 3}}, {R.CARD_KINDS[k]: int(c) for k, c in enumerate(counts)},
              top=["storm2"])
    assert v.deck_size == 1
    g.validate_state(s)
    pile = [k for k in range(R.NUM_CARD_KINDS) for _ in range(int(counts[k]))]
    r = SplitMix64(rng_word(s))
    r.shuffle(pile)
    play(g, s, "stop")
    want = {"storm2": 1}
    for k in pile[-4:]:
        want[R.CARD_KINDS[k]] = want.get(R.CARD_KINDS[k], 0) + 1
    assert hand_of(s, 0) == want
    assert v.discard.sum() == 0 and v.deck_size == len(pile) - 4
    assert [int(x) for x in v.deck[: v.deck_size]] == pile[:-4]


def test_VA16_nothing_to_draw_draws_nothing():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2)
    set_cards(s, {1: {kind: c for kind, c in zip(R.CARD_KINDS, R.CARD_COUNTS, strict=True)}})
    assert StateView(s).deck_size == 0
    play(g, s, "stop")
    assert hand_size(s, 0) == 0 and StateView(s).active == 1


def test_V48c_VA21_the_last_disc_ends_the_turn_after_its_space_resolves():
    # a port: discovered and loaded with the last disc
    g = tiny_game(**PORT_MAP)
    s = staged(g, 2, spent={0: 8})
    play(g, s, "move:S")
    v = StateView(s)
    assert v.vp[0] == 1 and cubes_of(s, 0) == {"chili"}
    assert v.active == 1 and v.ship[0] == hx(g, 0, 1)
    # a red space: the die is rolled, the wreck chosen, then the turn ends
    g, s = red_state(spent={0: 8})
    force_rolls(s, True)
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == WRECK and GAME.current_player(s) == 0
    play(g, s, "wreck:ship2")
    assert v.active == 1 and v.wrecked[0, 1] == 1 and v.spent[0] == 0


def test_VA21_last_disc_onto_a_blue_space_favourable_wind_continues():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (1, 2), 1: (5, 0)}, spent={0: 8},
               hands={0: {"storm2": 1, "favourable": 1}})
    play(g, s, "move:NE")
    v = StateView(s)
    assert v.phase == PLAY and avail(s, 0) == 0
    assert legal(g, s) == {"play:favourable"}
    play(g, s, "play:favourable")
    assert v.phase == MOVE and v.active == 0 and avail(s, 0) == 2


def test_VA21_last_disc_onto_a_blue_space_other_card_ends_the_turn():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (1, 2), 1: (5, 0)}, spent={0: 8},
               hands={0: {"compass_S": 1}})
    play(g, s, "move:NE", "play:compass_S")
    v = StateView(s)
    assert v.ship[0] == hx(g, 2, 4), "the forced move is made, then the turn ends"
    assert v.active == 1 and v.spent[0] == 0
    # only storms in hand: the blue space cannot be entered with the last disc
    s = staged(g, 2, ships={0: (1, 2)}, spent={0: 8}, hands={0: {"storm2": 3}})
    assert_illegal(g, s, "move:NE", "blue space")


def test_VA21_storm_spending_the_last_discs_ends_the_turn():
    g = tiny_game(**OPEN_MAP)
    s = staged(g, 2, ships={0: (2, 1), 1: (5, 0)}, spent={0: 7}, hands={0: {"storm2": 1}})
    play(g, s, "move:S", "play:storm2")
    assert StateView(s).active == 1


def test_VA21_a_player_who_bid_every_disc_has_an_empty_turn():
    s = GAME.new_state(2, 12)
    v = StateView(s)
    a, b = (int(x) for x in v.order[:2])
    play(GAME, s, "bid:9", "bid:pass", "order:1")
    # a's turn is empty: b decides at once; a's discs are back and his hand refilled
    assert v.active == b and v.phase == MOVE and GAME.current_player(s) == b
    assert v.spent[a] == 0 and hand_size(s, a) == 5 and v.ship[a] == MAP.lisbon


# ================================================================ V49-V52 end and scoring


@pytest.mark.parametrize("n", [2, 3, 4])
def test_V49_V4_the_last_tile_ends_the_game_after_the_round(n):
    g = tiny_game(**LISBON_MAP)
    s = staged(g, n, tiles_taken=n - 1, cubes={0: ["pepper"]})
    play(g, s, "dock", "monastery:take", "cards:top_up")
    assert StateView(s).end_triggered == 0, f"tile {n} of {n + 1}"
    stop_all(g, s)
    pass_bidding(g, s)
    v = StateView(s)
    assert v.round == 2
    give = [p for p in range(n) if v.cubes[p].sum() == 0][0]
    v.stock[GOOD["pepper"]] -= 1
    v.cubes[give, GOOD["pepper"]] = 1
    while v.active != give:
        play(g, s, "stop")
    v.ship[give] = g.board.lisbon
    play(g, s, "dock", "monastery:take", "cards:top_up")
    assert v.end_triggered == 1 and v.tiles_taken == n + 1
    while not g.is_terminal(s):
        assert v.round == 2
        play(g, s, "stop")
    assert not g.is_truncated(s) and v.round == 2


def test_V51_targets_count_only_with_ones_own_monument():
    s = GAME.new_state(3, 8)
    v = StateView(s)
    t0 = [int(t) for t in v.targets[0]]
    v.discovered[t0[0]] = 0
    v.discovered[t0[1]] = 1  # someone else's monument on seat 0's target
    v.discovered[t0[5]] = 0
    v.vp[0] = 3
    other = next(p for p in range(MAP.num_ports) if p not in t0 and v.discovered[p] < 0)
    v.discovered[other] = 0  # a monument on a port that is no target of seat 0
    sc = GAME.scores(s)
    assert sc[0] == 3 + 10
    t1 = [int(t) for t in v.targets[1]]
    assert sc[1] == 5 * (t0[1] in t1)


def tie_state(vp, tiles, best):
    s = GAME.new_state(len(vp), 1)
    v = StateView(s)
    for p in range(len(vp)):
        v.vp[p], v.tiles[p], v.best_tile[p] = vp[p], tiles[p], best[p]
    return s


@pytest.mark.parametrize("vp,tiles,best,winners", [
    ([30, 20, 20], [0, 2, 1], [0, 1, 3], [0]),      # most VP wins, tiles do not matter
    ([20, 20, 10], [1, 2, 0], [1, 2, 0], [1]),      # tie: more tiles
    ([20, 20, 10], [1, 1, 0], [3, 2, 0], [1]),      # tie, equal tiles: lowest tile
    ([20, 20, 20], [0, 0, 0], [0, 0, 0], [0, 1, 2]),  # VA31: shared
    ([20, 20, 5], [0, 0, 1], [0, 0, 1], [0, 1]),
])
def test_V52_VA31_winner_and_tie_breaks(vp, tiles, best, winners):
    s = tie_state(vp, tiles, best)
    assert GAME.winners(s) == winners
    r = GAME.returns(s)
    assert r.sum() == pytest.approx(1.0)
    assert all(r[p] == pytest.approx(1 / len(winners)) for p in winners)


def test_round_cap_truncates_the_game():
    g = tiny_game(**OPEN_MAP)
    s = g.new_state(3, 2, max_rounds=2)
    for _ in range(2):
        assert not g.is_terminal(s)
        pass_bidding(g, s)
        stop_all(g, s)
    v = StateView(s)
    assert g.is_terminal(s) and g.is_truncated(s) and v.round == 2
    assert v.phase == GAME_OVER and g.current_player(s) == -1 and g.legal_actions(s) == []
    for a in range(A.NUM_ACTIONS):
        with pytest.raises(IllegalActionError, match="over"):
            g.step(s, a)


def test_round_cap_defaults_to_40():
    s = GAME.new_state(2, 1)
    assert StateView(s).max_rounds == 40
    g = tiny_game(**OPEN_MAP)
    s = g.new_state(2, 1)
    for _ in range(40):
        pass_bidding(g, s)
        stop_all(g, s)
    assert g.is_truncated(s) and StateView(s).round == 40


def test_the_end_in_the_last_capped_round_is_not_a_truncation():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, max_rounds=1, tiles_taken=2, cubes={0: ["pepper"]})
    play(g, s, "dock", "monastery:take", "cards:top_up", "stop")
    assert g.is_terminal(s) and not g.is_truncated(s)


# ================================================================ V53 simple deck (VA33)


def test_V53_VA33_simple_deck_setup_no_hands():
    s = GAME.new_state(3, 4, simple_deck=True)
    v = StateView(s)
    assert v.deck_size == 81
    counts = np.bincount(v.deck[:81], minlength=R.NUM_CARD_KINDS)
    assert counts[R.CALM] == 5 and counts.sum() == 81
    _, _, wind = expected_setup(MAP, 3, 4, simple_deck=True)
    assert [int(x) for x in v.deck[:81]] == wind
    pass_bidding(GAME, s)
    assert v.hand.sum() == 0, "no round-1 deal"
    stop_all(GAME, s)
    assert v.hand.sum() == 0 and v.deck_size == 81, "no refill"


def simple(g, **kw):
    return staged(g, 2, simple_deck=True, **kw)


def test_V53_VA33_blue_reveals_the_top_card_storm_takes_what_is_available():
    g = tiny_game(**OPEN_MAP)
    s = simple(g, ships={0: (1, 2), 1: (5, 0)}, spent={0: 7}, top=["storm4"])
    assert "move:NE" in legal(g, s), "a blue space can always be entered"
    play(g, s, "move:NE")
    v = StateView(s)
    assert v.discard[R.STORM4] == 1 and v.deck_size == 80
    assert v.active == 1 and v.spent[0] == 0, "storm took the last disc: turn over"


def test_V53_VA33_revealed_storm_affects_others():
    g = tiny_game(**OPEN_MAP)
    s = simple(g, ships={0: (2, 1), 1: (0, 1)}, top=["storm2"])
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == REACT and GAME.current_player(s) == 1 and v.react_budget == 2
    play(g, s, "stop")
    assert v.phase == MOVE and v.spent[0] == 2


@pytest.mark.parametrize("card,check", [
    ("compass_S", lambda g, v: v.ship[0] == hx(g, 2, 4) and v.active == 0),
    ("favourable", lambda g, v: v.spent[0] == 1 and v.active == 0),
    ("calm", lambda g, v: v.active == 1),
])
def test_V53_revealed_cards_resolve(card, check):
    g = tiny_game(**OPEN_MAP)
    s = simple(g, ships={0: (1, 2), 1: (5, 0)}, spent={0: 2}, top=[card])
    play(g, s, "move:NE")
    assert check(g, StateView(s))
    assert StateView(s).discard[KIND[card]] == 1


def test_VA21_VA33_revealed_storm_with_no_disc_left_still_moves_the_others():
    g = tiny_game(**OPEN_MAP)
    s = simple(g, ships={0: (1, 2), 1: (0, 1)}, spent={0: 8}, top=["storm3"])
    play(g, s, "move:NE")  # the last disc onto the blue space
    v = StateView(s)
    assert v.phase == REACT and GAME.current_player(s) == 1 and v.react_budget == 3
    play(g, s, "stop")
    assert v.active == 1 and v.phase == MOVE and v.spent[0] == 0


def test_VA33_no_pirate_protection_and_no_card_choice_in_lisbon():
    g = tiny_game(**COST_MAP)
    s = simple(g, ships={0: (2, 0)})
    assert legal_of(g, s, "shield:") == set()
    assert_illegal(g, s, "shield:S", "simple game")
    g = tiny_game(**LISBON_MAP)
    s = simple(g, cubes={0: ["chili"]})
    play(g, s, "dock")
    v = StateView(s)
    assert v.vp[0] == 5 and v.docked[0] == 1 and v.active == 1, "no CARDS phase"
    assert v.hand.sum() == 0


# ================================================================ V56-V62 Black Ship (VA35)


def black(g=None, **kw):
    g = g or tiny_game(**BLACK_MAP)
    return g, staged(g, 2, black_ship=True, **kw)


def test_V57_the_black_ship_starts_on_melaka():
    s = GAME.new_state(3, 1, black_ship=True)
    assert StateView(s).black_hex == MAP.port_hex[MAP.port_id("Melaka")]
    g, s = black()
    assert StateView(s).black_hex == hx(g, 4, 1)
    s = g.new_state(2, 1)
    assert StateView(s).black_hex == -1
    with pytest.raises(ValueError, match="Melaka"):
        tiny_game(**LISBON_MAP).new_state(2, 0, black_ship=True)


def test_V58_V59_one_disc_per_step_ignoring_currents_symbols_and_ports():
    g, s = black()
    v = StateView(s)
    word = rng_word(s)
    assert legal_of(g, s, "black:") == {"black:N", "black:S", "black:NW", "black:SW"}
    play(g, s, "black:N")  # along the current (4,1) N: still 1 disc
    assert v.black_hex == hx(g, 4, 0) and v.spent[0] == 1
    play(g, s, "black:SW")  # onto the blue (3,0): no card
    assert v.black_hex == hx(g, 3, 0) and v.phase == MOVE and v.spent[0] == 2
    play(g, s, "black:S")  # the pirate (3,1): no surcharge
    assert v.spent[0] == 3
    play(g, s, *route((3, 1), (2, 1), (2, 2), (3, 2), prefix="black"))  # red, sea, Ceylon
    assert v.black_hex == hx(g, 3, 2) and v.spent[0] == 6
    assert (v.discovered == -1).all() and v.cubes.sum() == 0, "ports do nothing"
    assert rng_word(s) == word, "no die for the Black Ship on a red space"


def test_V58_not_without_the_option():
    g = tiny_game(**BLACK_MAP)
    s = staged(g, 2)
    assert legal_of(g, s, "black:") == set()
    assert_illegal(g, s, "black:N", "not in this game")


def test_V60_the_black_ship_stays_in_its_hemisphere():
    g, s = black(black_hex=(2, 1))
    assert "black:NW" not in legal(g, s) and "black:SW" not in legal(g, s)
    assert_illegal(g, s, "black:SW", "hemisphere")
    assert "black:NE" in legal(g, s)


def test_V61_VA35_black_ship_attacks_every_ship_it_enters_including_the_movers():
    g, s = black(ships={0: (3, 1), 1: (3, 1)}, black_hex=(4, 1), cubes={1: ["chili"]})
    v = StateView(s)
    order_rolls = force_rolls(s, False, True)
    play(g, s, "black:SW")  # (4,1) SW -> (3,1): both ships there
    assert v.attacked[0] == 1 and v.attacked[1] == 1
    assert rng_word(s) == advanced(order_rolls, 2), "two dice: the mover's, then seat 1's"
    assert v.phase == WRECK and GAME.current_player(s) == 1, "seat 1 rolled the 1"
    play(g, s, "wreck:ship1")
    assert cubes_of(s, 1) == set() and not v.wrecked[0].any()
    assert v.phase == MOVE and GAME.current_player(s) == 0


def test_V61_attack_order_starts_with_the_active_player():
    """Contract: attacked one by one in turn order starting with the active player."""
    g = tiny_game(**BLACK_MAP)
    s = staged(g, 3, black_ship=True, active=2, ships={0: (3, 1), 2: (3, 1)},
               black_hex=(4, 1))
    v = StateView(s)
    assert v.position == 2
    force_rolls(s, True, True)
    play(g, s, "black:SW")
    assert v.phase == WRECK and GAME.current_player(s) == 2, "the active player first"
    play(g, s, "wreck:ship2")
    assert GAME.current_player(s) == 0 and v.phase == WRECK
    play(g, s, "wreck:ship3")
    assert v.phase == MOVE and GAME.current_player(s) == 2
    assert v.wrecked[2, 1] == 1 and v.wrecked[0, 2] == 1 and v.attacked[1] == 0


def test_V61_a_ship_entering_the_black_ships_space_is_attacked_also_on_a_port():
    g, s = black(ships={0: (3, 1)}, cubes={0: ["chili", "ivory"]})
    force_rolls(s, True)
    play(g, s, "move:NE")  # (3,1) NE -> (4,1) Melaka, where the Black Ship stands
    v = StateView(s)
    assert v.discovered[port_of(g, "Melaka")] == 0 and v.vp[0] == 2
    assert v.phase == WRECK and v.attacked[0] == 1


def test_V61_a_ship_moved_by_a_wind_card_onto_the_black_ship_is_attacked():
    g, s = black(ships={0: (2, 0), 1: (3, 1)}, hands={0: {"storm2": 1}})
    v = StateView(s)
    word = force_rolls(s, False)
    play(g, s, "move:SE")
    assert v.phase == PLAY
    play(g, s, "play:storm2")
    assert GAME.current_player(s) == 1
    play(g, s, "move:NE")  # (3,1) -> (4,1): the Black Ship
    assert v.attacked[1] == 1 and rng_word(s) == advanced(word, 1)


def test_V61_a_compass_forced_move_onto_the_black_ship_is_attacked():
    g, s = black(ships={0: (3, 1)}, hands={0: {"compass_S": 1}}, black_hex=(3, 1))
    v = StateView(s)
    play(g, s, "move:N")  # onto the blue (3,0); the Black Ship stays on (3,1)
    assert v.phase == PLAY and v.attacked[0] == 0
    word = force_rolls(s, True)
    play(g, s, "play:compass_S")  # forced: (3,1) with the Black Ship, then (3,2) Ceylon
    assert v.attacked[0] == 1 and rng_word(s) == advanced(word, 1)
    assert v.phase == WRECK and GAME.current_player(s) == 0
    assert v.ship[0] == hx(g, 3, 1)
    play(g, s, "wreck:ship3")
    assert v.ship[0] == hx(g, 3, 2), "the forced move goes on after the attack"
    assert v.discovered[port_of(g, "Ceylon")] == 0
    assert cubes_of(s, 0) == set(), "ship 3 (cinnamon) was just wrecked"
    assert v.phase == MOVE


def test_V61_a_reacting_player_chooses_his_wreck_then_goes_on():
    g, s = black(ships={0: (2, 0), 1: (3, 1)}, hands={0: {"storm3": 1}})
    v = StateView(s)
    play(g, s, "move:SE")
    force_rolls(s, True)
    play(g, s, "play:storm3", "move:NE")  # seat 1 onto the Black Ship (4,1)
    assert v.phase == WRECK and GAME.current_player(s) == 1 and v.active == 0
    play(g, s, "wreck:ship2")
    assert v.phase == REACT and GAME.current_player(s) == 1 and v.react_budget == 2
    play(g, s, "stop")
    assert v.phase == MOVE and GAME.current_player(s) == 0 and v.spent[0] == 1 + 3


def test_V61_contract_arrival_order_attack_before_the_red_die():
    """Contract arrival sequence: port, then the Black Ship attack, then the red die."""
    g, s = black(ships={0: (2, 0)}, black_hex=(2, 1), cubes={0: ["chili", "ivory"]})
    word = force_rolls(s, True, False)
    play(g, s, "move:S")  # onto the red (2,1), where the Black Ship waits
    v = StateView(s)
    assert v.phase == WRECK and v.attacked[0] == 1, "the attack's die came first"
    assert rng_word(s) == advanced(word, 1), "the red die is still to come"
    play(g, s, "wreck:ship2")
    assert rng_word(s) == advanced(word, 2) and v.phase == MOVE
    assert list(v.wrecked[0]) == [0, 1, 0, 0] and cubes_of(s, 0) == {"chili"}


def test_V62_at_most_once_per_round_reset_next_round():
    g, s = black(ships={0: (3, 1)})
    v = StateView(s)
    force_rolls(s, False)
    play(g, s, "move:NE")
    assert v.attacked[0] == 1
    word = rng_word(s)
    play(g, s, "move:SW", "move:NE", "black:N", "black:S")
    assert rng_word(s) == word, "no second attack this round"
    assert v.black_hex == hx(g, 4, 1) and v.ship[0] == hx(g, 4, 1)
    stop_all(g, s)
    assert v.attacked[0] == 0
    pass_bidding(g, s)
    word = force_rolls(s, False)
    play(g, s, "black:N", "black:S")
    assert v.attacked[0] == 1 and rng_word(s) == advanced(word, 1)


def test_VA35_no_attack_for_a_ship_starting_its_turn_with_the_black_ship():
    g, s = black(ships={0: (4, 1)})
    word = rng_word(s)
    assert StateView(s).phase == MOVE and rng_word(s) == word
    play(g, s, "move:N")
    assert rng_word(s) == word and StateView(s).attacked[0] == 0


def test_VA35_black_ship_steps_interleave_and_the_last_disc_ends_the_turn():
    g, s = black(ships={0: (2, 0)}, spent={0: 6})
    play(g, s, "move:S", "black:N")
    v = StateView(s)
    assert v.spent[0] == 8 and v.active == 0 and v.black_hex == hx(g, 4, 0)
    play(g, s, "move:N")
    assert v.spent[0] == 0 and v.active == 1, "own step with the last disc ended the turn"
    g, s = black(ships={0: (2, 0)}, spent={0: 7})
    play(g, s, "move:S", "black:N")  # the Black Ship step spends the last disc
    v = StateView(s)
    assert v.active == 1 and v.black_hex == hx(g, 4, 0) and v.ship[0] == hx(g, 2, 1)


# ================================================================ mask / step consistency


def check_every_action(game, s):
    """Every legal action steps without error to a valid state; every other action raises
    naming itself and leaves the state untouched."""
    mask = game.legal_mask(s)
    assert mask.any(), "a live state always has a legal action"
    for a in range(A.NUM_ACTIONS):
        t = s.copy()
        assert bool(mask[a]) == bool(K.is_legal(t, game.aux.m, a))
        if mask[a]:
            game.step(t, a)
            game.validate_state(t)
        else:
            with pytest.raises(IllegalActionError) as err:
                game.step(t, a)
            assert game.action_name(a) in str(err.value)
            assert (t == s).all()


def check_bookkeeping(game, s):
    """docs/voyage_engine.md "Bookkeeping fields", at a decision point."""
    v = StateView(s)
    n = v.num_players
    ph = v.phase
    assert (v.deck[v.deck_size:] == 0).all(), "drawn deck slots are zeroed"
    assert (v.order[n:] == -1).all()
    assert v.tiles_total == n + 1 and v.tiles_taken == int(v.tiles[:n].sum())
    for p in range(n):
        assert (v.best_tile[p] == 0) == (v.tiles[p] == 0)
        assert v.discs[p] == (12 if v.upgraded[p] else 9)
        if v.docked[p]:
            assert v.ship[p] == game.board.lisbon
        assert v.bid[p] <= v.bid_high
    if not v.black_ship:
        assert v.black_hex == -1 and not v.attacked.any()
    else:
        m = game.board
        assert m.hemisphere[v.black_hex] == m.hemisphere[m.port_hex[m.port_id("Melaka")]]
    for p in range(n):  # V21, V24: cubes only in working ships' holds
        for g_ in np.flatnonzero(v.cubes[p]):
            ship = g_ // 2
            assert (ship < 3 or v.upgraded[p]) and not v.wrecked[p, ship]
        if not v.upgraded[p]:
            assert not v.wrecked[p, 3], "ship 4 out of service cannot be wrecked"
    if v.simple_deck:
        assert v.hand.sum() == 0
    if ph == GAME_OVER:
        assert v.decider == -1 and v.position == n
        return
    if ph != ORDER:
        assert (v.ranking == -1).all() and (v.new_order == -1).all() and v.order_step == 0
    if ph != UPGRADE:
        assert v.upgrade_given == 0
    assert v.turn_over == 0
    if ph in (BID, ORDER):
        assert v.position == 0
    else:
        assert v.order[v.position] == v.active
    if ph == BID:
        assert v.active == v.decider == v.order[v.bid_turn]
    if ph == ORDER:
        assert v.active == v.decider == v.ranking[v.order_step]
    if ph in (BID, ORDER, MOVE, PLAY, UPGRADE, MONASTERY, CARDS):
        assert v.card == -1 and v.card_stage == 0 and v.react_k == 0
        assert v.react_seat == -1 and v.react_budget == 0 and v.compass_left == 0
        assert v.arrival_stage == 0 and v.attack_queue == 0
    if ph in (MOVE, PLAY, UPGRADE, MONASTERY, CARDS):
        assert v.decider == v.active
    if ph == REACT:
        assert v.card >= 0 and v.card != R.CALM and v.card_stage == 1
        assert v.react_seat == v.decider != v.active and v.react_budget > 0
        assert 1 <= v.react_k < n and v.order[(v.position + v.react_k) % n] == v.decider
        compass = R.COMPASS <= v.card < R.FAVOURABLE
        assert v.compass_left == (R.COMPASS_STEPS if compass else 0)


def biased_action(game, s, rng):
    """Random, but heading for the end: a player holding pepper docks when he can, takes
    the tile, and upgrades with other cubes; otherwise stopping is rarer than moving."""
    v = StateView(s)
    acts = game.legal_actions(s)
    names = [game.action_name(a) for a in acts]
    pepper = v.cubes[v.decider, GOODS.index("pepper")] if v.decider >= 0 else 0
    for want in ("monastery:take", "dock" if pepper else "-", "upgrade:chili",
                 "upgrade:brazilwood", "upgrade:ivory", "upgrade:cinnamon", "upgrade:silk"):
        if want in names and rng.random() < 0.9:
            return acts[names.index(want)]
    if "stop" in names and len(names) > 1 and rng.random() < 0.7:
        acts = [a for a, name in zip(acts, names, strict=True) if name != "stop"]
    return int(rng.choice(acts))


@pytest.mark.parametrize("n,opts,game_seed", [
    (2, {}, 1), (3, {"black_ship": True}, 2), (4, {"simple_deck": True}, 3),
    (3, {"simple_deck": True, "black_ship": True}, 4), (4, {"black_ship": True}, 5),
])
def test_mask_and_step_agree_along_random_games(n, opts, game_seed):
    rng = np.random.default_rng(game_seed)
    s = GAME.new_state(n, game_seed, max_rounds=12, **opts)
    steps = 0
    while not GAME.is_terminal(s) and steps < 900:
        check_every_action(GAME, s)
        check_bookkeeping(GAME, s)
        before = s.copy()
        GAME.step(s, biased_action(GAME, s, rng))
        GAME.validate_state(s)
        check_monotone(before, s)
        steps += 1
    check_bookkeeping(GAME, s)
    if GAME.is_terminal(s):
        check_every_action_over(GAME, s)


def check_monotone(before, after):
    """VP are never lost (V6, V50); a monument stays (V23); tiles only leave the board."""
    a, b = StateView(before), StateView(after)
    assert (b.vp >= a.vp).all()
    was = a.discovered >= 0
    assert (b.discovered[was] == a.discovered[was]).all()
    assert b.tiles_taken >= a.tiles_taken and (b.tiles >= a.tiles).all()


def check_every_action_over(game, s):
    assert game.legal_actions(s) == []
    for a in range(A.NUM_ACTIONS):
        t = s.copy()
        with pytest.raises(IllegalActionError, match="over"):
            game.step(t, a)
        assert (t == s).all()


def test_bookkeeping_holds_along_many_fast_games():
    """The cheap checks only (no per-action stepping), over whole games to their end."""
    g = tiny_game(**FAST_MAP)
    ends = set()
    for seed in range(30):
        rng = np.random.default_rng(seed)
        opts = {"black_ship": bool(seed % 2), "simple_deck": bool(seed % 3 == 0)}
        s = g.new_state(2 + seed % 3, seed, max_rounds=15, **opts)
        while not g.is_terminal(s):
            check_bookkeeping(g, s)
            before = s.copy()
            g.step(s, biased_action(g, s, rng))
            check_monotone(before, s)
        check_bookkeeping(g, s)
        g.validate_state(s)
        ends.add(g.is_truncated(s))
    assert ends == {True, False}, "both ways to end were reached"


def test_mask_and_step_agree_on_a_tiny_map_to_the_end():
    g = tiny_game(**OPEN_MAP)
    rng = np.random.default_rng(5)
    s = g.new_state(3, 5, max_rounds=3)
    steps = 0
    while not g.is_terminal(s):
        check_every_action(g, s)
        check_bookkeeping(g, s)
        g.step(s, int(rng.choice(g.legal_actions(s))))
        steps += 1
    assert g.is_truncated(s) and steps > 10
    check_every_action_over(g, s)


# ---------------------------------------------------- project variants (VA40, VA41)


def _order(s) -> list:
    v = StateView(s)
    return [int(x) for x in v.order[: v.num_players]]


def test_VA40_seat_vp_by_initial_position_counts_for_the_winner():
    """VA40: the seat at initial position k (V5's random order, the first player first)
    starts with seat_vp[k] VP; it counts in scores and decides the winner (V52)."""
    from voyage_env.reference import VoyageGame

    s = GAME.new_state(3, 11, seat_vp=(0, 4, 9))
    first, second, third = _order(s)
    assert [first, second, third] != [0, 1, 2], "pick a seed with a shuffled order"
    assert GAME.scores(s)[[first, second, third]].tolist() == [0, 4, 9]
    np.testing.assert_array_equal(s, VoyageGame(3, 11, seat_vp=(0, 4, 9)).to_state())
    # raw scores tie (all 0, no tiles: shared, VA31); one VP makes the last position win
    s = GAME.new_state(3, 11, seat_vp=(0, 0, 1))
    assert GAME.winners(GAME.new_state(3, 11)) == [0, 1, 2]
    assert GAME.winners(s) == [third]
    # a raw lead of 1 VP for the first player loses to a compensation of 2
    s = GAME.new_state(2, 11, seat_vp=(0, 2))
    a, b = _order(s)
    StateView(s).vp[a] += 1                    # scored in play
    assert GAME.winners(s) == [b]
    StateView(s).vp[a] += 2
    assert GAME.winners(s) == [a]


def test_VA40_whole_games_end_with_the_bonus_in_the_score():
    """The bonus is added once: a played-out game scores raw VP plus seat_vp."""
    rng = np.random.default_rng(1)
    plain = GAME.new_state(3, 5, max_rounds=3)
    comp = GAME.new_state(3, 5, max_rounds=3, seat_vp=(0, 3, 7))
    while not GAME.is_terminal(plain):
        a = int(rng.choice(GAME.legal_actions(plain)))
        GAME.step(plain, a)
        GAME.step(comp, a)
    order = _order(GAME.new_state(3, 5))
    bonus = np.zeros(3, dtype=np.int64)
    bonus[order] = (0, 3, 7)
    assert list(GAME.scores(comp)) == list(GAME.scores(plain) + bonus)


def test_VA41_seat_cards_by_initial_position_before_the_round_1_deal():
    """VA41: at setup the seat at initial position k draws seat_cards[k] wind cards; the
    round-1 deal (V13) then adds 4, 5, 6 by the order after the first bidding."""
    from voyage_env.reference import VoyageGame

    s = GAME.new_state(3, 11, seat_cards=(0, 1, 3))
    order = _order(s)
    assert [hand_size(s, p) for p in order] == [0, 1, 3]
    np.testing.assert_array_equal(s, VoyageGame(3, 11, seat_cards=(0, 1, 3)).to_state())
    pass_bidding(GAME, s)                      # no bids: the order stays (V10)
    assert _order(s) == order
    assert [hand_size(s, p) for p in order] == [4, 5 + 1, 6 + 3]
    GAME.validate_state(s)                     # cards conserved


@pytest.mark.parametrize("options, message", [
    ({"seat_vp": (0, -2)}, r"seat_vp\[1\]=-2 must be in 0\.\.1000"),
    ({"seat_vp": (0, 1.5)}, r"seat_vp\[1\]=1\.5 is not a whole number"),
    ({"seat_cards": 3}, "seat_cards must be a list of integers"),
    ({"seat_cards": (0, 11)}, r"seat_cards\[1\]=11 must be in 0\.\.10"),
    ({"seat_cards": (0, 1), "simple_deck": True}, "seat_cards needs wind-card hands"),
    ({"seat_cards": (0, 1), "dice_movement": True}, "seat_cards needs wind-card hands"),
])
def test_VA40_VA41_bad_option_values_are_named(options, message):
    import tradewinds
    from voyage_env.reference import VoyageGame

    for call in (lambda: GAME.new_state(2, 0, **options),
                 lambda: GAME.resolve_options(options),
                 lambda: tradewinds.make("voyage", **options),
                 lambda: VoyageGame(2, 0, **options)):
        with pytest.raises(ValueError, match=message):
            call()


def test_VA40_VA41_a_schedule_shorter_than_the_table_is_refused():
    import tradewinds
    from voyage_env.reference import VoyageGame

    message = "seat_cards has 3 entries for a 4-player game"
    for call in (lambda: GAME.new_state(4, 0, seat_cards=(0, 1, 2)),
                 lambda: tradewinds.make("voyage", num_players=4, seat_cards=(0, 1, 2)),
                 lambda: VoyageGame(4, 0, seat_cards=(0, 1, 2))):
        with pytest.raises(ValueError, match=message):
            call()
