"""Golden tests: the worked examples E1-E19 of docs/rules/voyage.md, played on the kernel.

The rulebook gives no positions, so every example runs on a tiny map built for it (see
voyage_helpers.py) where the stated costs, symbols and distances hold exactly. Seat
colours are named after the rulebook's players; each test states what it assumes beyond
the text (marked *assumed* in the rules doc).
"""

from __future__ import annotations

import pytest

from tests.helpers.voyage_helpers import (
    COST_MAP,
    GOOD,
    assert_illegal,
    avail,
    cubes_of,
    force_rolls,
    hand_of,
    hand_size,
    hx,
    legal,
    legal_of,
    play,
    port_of,
    rng_word,
    route,
    staged,
    stop_all,
    tiny_game,
)
from voyage_env import GAME
from voyage_env import rules as R
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

# ---------------------------------------------------------------- E1 bidding


def test_E1_turn_order_bidding():
    """E1 (V10-V13, VA13): random order green, yellow, red, blue; the auction of the
    rulebook; red 3 and blue 2 discs spent; red takes position 1, blue position 2
    (*assumed*); green and yellow keep their order; round-1 deal 4, 5, 6, 7."""
    s = GAME.new_state(4, 2024)
    v = StateView(s)
    green, yellow, red, blue = (int(x) for x in v.order[:4])
    seq = [(green, "bid:pass"), (yellow, "bid:pass"), (red, "bid:1"), (blue, "bid:2"),
           (green, "bid:pass"), (yellow, "bid:pass"), (red, "bid:3"), (blue, "bid:pass"),
           (green, "bid:pass"), (yellow, "bid:pass")]
    for seat, action in seq:
        assert v.phase == BID and GAME.current_player(s) == seat, action
        play(GAME, s, action)
    # nobody changes his mind: the auction is over, red places first
    assert v.phase == ORDER and GAME.current_player(s) == red
    assert [int(v.spent[p]) for p in (red, blue, green, yellow)] == [3, 2, 0, 0]
    assert [int(v.bid[p]) for p in (red, blue, green, yellow)] == [3, 2, 0, 0]
    play(GAME, s, "order:1")
    assert v.phase == ORDER and GAME.current_player(s) == blue
    assert legal(GAME, s) == {"order:2", "order:3", "order:4"}
    play(GAME, s, "order:2")
    assert [int(x) for x in v.order[:4]] == [red, blue, green, yellow]
    # red has 6 of 9 discs for his turn, blue 7
    assert v.phase == MOVE and v.active == red and GAME.current_player(s) == red
    assert avail(s, red) == 6 and avail(s, blue) == 7
    assert avail(s, green) == 9 and avail(s, yellow) == 9
    # derived (V13): round-1 wind cards by position
    assert [hand_size(s, p) for p in (red, blue, green, yellow)] == [4, 5, 6, 7]


# ---------------------------------------------------------------- E2, E14, E15 (boards, loading)

LOAD_MAP = dict(
    grid="""
        @
        A
        M
        T
        G
    """,
    ports="""
        A | Azores | 1427 | west | -
        M | Moluccas | 1512 | east | nutmeg
        T | Tanegashima | 1542 | east | silver
        G | Guinea | 1444 | west | chili
    """,
)


def test_E2_player_board_after_setup():
    """E2 (V1, V2): 9 available discs, ship 4 out of service (not upgraded), no wrecks,
    no cubes, everybody on Lisbon, no VP."""
    for n in (2, 3, 4):
        s = GAME.new_state(n, 5)
        v = StateView(s)
        for p in range(n):
            assert v.ship[p] == GAME.board.lisbon
            assert v.discs[p] == R.BASE_DISCS == 9 and v.spent[p] == 0
            assert v.upgraded[p] == 0
            assert not v.wrecked[p].any() and not v.cubes[p].any()
            assert v.vp[p] == 0 and v.tiles[p] == 0


def test_E14_no_ship_4_goods_before_the_upgrade():
    """E14 (V24b): entering the nutmeg and silver ports loads nothing while ship 4 carries
    its disc (the ports are still discovered); after the upgrade the same entries load."""
    g = tiny_game(**LOAD_MAP)
    s = staged(g, 2)
    v = StateView(s)
    play(g, s, "move:S", "move:S")
    assert v.discovered[port_of(g, "Moluccas")] == 0
    assert cubes_of(s, 0) == set(), "nutmeg is carried by ship 4, not in service"
    play(g, s, "move:S")
    assert cubes_of(s, 0) == set(), "silver is carried by ship 4, not in service"
    assert v.vp[0] == 1 + 3 + 3
    assert list(v.stock) == [4] * 8
    s = staged(g, 2, upgraded=[0])
    play(g, s, "move:S", "move:S", "move:S")
    assert cubes_of(s, 0) == {"nutmeg", "silver"}


def test_E15_discover_and_load_in_one_entry():
    """E15 (V23, V24): the first player to enter a goods port scores its discovery VP and
    loads its cube in the same move; the VP are on the track at once."""
    g = tiny_game(**LOAD_MAP)
    s = staged(g, 2, ships={0: (0, 3)})
    v = StateView(s)
    play(g, s, "move:S")
    assert cubes_of(s, 0) == {"chili"} and v.stock[GOOD["chili"]] == 3
    assert v.vp[0] == 1 and v.discovered[port_of(g, "Guinea")] == 0
    assert g.scores(s)[0] >= 1


# ---------------------------------------------------------------- E3, E4, E5 (movement)

# column 0: a current (0,1)->(0,4) (arrows on (0,1),(0,2),(0,3); end dot (0,4));
# column 2: pirates on (2,1) and (2,4), a current (2,3)->(2,5) through the pirate (2,4).


def test_E3_movement_costs_along_and_off_the_current():
    """E3 (V15, V16): yellow moves only along the current in the arrows' direction: 0 discs.
    Red's path has exactly two steps without current help: 2 discs."""
    g = tiny_game(**COST_MAP)
    yellow, red = 0, 1
    s = staged(g, 2, order=[yellow, red], ships={yellow: (0, 1), red: (0, 0)})
    play(g, s, *route((0, 1), (0, 2), (0, 3), (0, 4)))
    assert StateView(s).spent[yellow] == 0 and StateView(s).ship[yellow] == hx(g, 0, 4)
    play(g, s, "stop")
    assert StateView(s).active == red
    path = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]
    spent = []
    for a in route(*path):
        play(g, s, a)
        spent.append(int(StateView(s).spent[red]))
    assert spent == [1, 1, 1, 1, 2], "entering the current and leaving its end dot are paid"


def test_E4_movement_costs_with_a_pirate():
    """E4 (V16, V18): yellow 2 steps without current, one onto a pirate: 3 discs; red 2
    steps with the current, one onto a pirate: 1 disc."""
    g = tiny_game(**COST_MAP)
    yellow, red = 0, 1
    s = staged(g, 2, order=[yellow, red], ships={yellow: (2, 0), red: (2, 3)})
    play(g, s, *route((2, 0), (2, 1), (2, 2)))
    assert StateView(s).spent[yellow] == 3
    play(g, s, "stop")
    play(g, s, *route((2, 3), (2, 4), (2, 5)))
    assert StateView(s).spent[red] == 1


WALL_MAP = dict(
    grid="""
        ~~~
        ~.@
        ~~~
    """,
    walls="0,1 S",
)


def test_E5_land_only_separation_blocks_a_step_a_sea_passage_does_not():
    """E5 (V14): (0,1)/(0,2) touch but are separated by land only (a wall): no step
    either way; (0,2)->(1,2) is a sea passage; land and the board's edge are closed."""
    g = tiny_game(**WALL_MAP)
    s = staged(g, 2, ships={0: (0, 2), 1: (0, 2)})
    assert legal_of(g, s, "move:") == {"move:SE"}
    assert_illegal(g, s, "move:N", "no sea passage")
    assert_illegal(g, s, "move:NE", "no sea passage")  # land
    assert_illegal(g, s, "move:S", "no sea passage")  # off the board
    play(g, s, "move:SE")
    assert StateView(s).ship[0] == hx(g, 1, 2)
    s = staged(g, 2, ships={0: (0, 1)})
    assert legal_of(g, s, "move:") == {"move:N", "move:NE"}
    assert_illegal(g, s, "move:S", "no sea passage")


# ---------------------------------------------------------------- E6 shipwreck

WRECK_MAP = dict(
    grid="""
        @
        ~
        ~
        G
    """,
    ports="G | Guinea | 1444 | west | chili",
    events="""
        ~
        ~
        R
        ~
    """,
)


def test_E6_shipwreck_at_the_cape():
    """E6 (V20, V21, V46, VA12): red moves onto a red space, the die shows "1"; red puts
    the wreck on ship 1: its chili cube is lost to the stock, ivory (ship 2) stays, chili
    cannot be loaded; sailing over Lisbon does not repair (VA25), docking does."""
    g = tiny_game(**WRECK_MAP)
    red = 0
    s = staged(g, 2, order=[red, 1], ships={red: (0, 1)}, cubes={red: ["chili", "ivory"]})
    v = StateView(s)
    force_rolls(s, True)
    play(g, s, "move:S")
    assert v.phase == WRECK and GAME.current_player(s) == red
    assert legal(g, s) == {"wreck:ship1", "wreck:ship2", "wreck:ship3"}, "ship 4 not in service"
    play(g, s, "wreck:ship1")
    assert v.phase == MOVE and list(v.wrecked[red]) == [1, 0, 0, 0]
    assert cubes_of(s, red) == {"ivory"} and v.stock[GOOD["chili"]] == 4
    play(g, s, "move:S")  # Guinea: discovered, but no chili for a wrecked ship 1
    assert v.discovered[port_of(g, "Guinea")] == red and cubes_of(s, red) == {"ivory"}
    play(g, s, "move:N", "move:N", "move:N")
    assert v.ship[red] == g.board.lisbon and list(v.wrecked[red]) == [1, 0, 0, 0]
    play(g, s, "dock", "cards:top_up")
    assert list(v.wrecked[red]) == [0, 0, 0, 0], "repaired at once in the Lisbon port"
    assert v.vp[red] == 1 + 5, "Guinea discovered, ivory sold"


# ---------------------------------------------------------------- E7 double discovery

EAST_MAP = dict(
    grid="""
        @
        ~
        C
        ~
        M
    """,
    ports="""
        C | Ceylon | 1505 | east | cinnamon
        M | Melaka | 1509 | east | -
    """,
)


def test_E7_double_discovery():
    """E7 (V22-V24): yellow spends 4 discs entering Ceylon and then Melaka, both new:
    a monument on each, +2 +2 scored at once; cinnamon loaded at Ceylon."""
    g = tiny_game(**EAST_MAP)
    yellow = 1
    s = staged(g, 2, order=[yellow, 0])
    v = StateView(s)
    play(g, s, "move:S", "move:S")
    assert v.vp[yellow] == 2 and v.discovered[port_of(g, "Ceylon")] == yellow
    assert cubes_of(s, yellow) == {"cinnamon"}
    play(g, s, "move:S", "move:S")
    assert v.vp[yellow] == 4 and v.discovered[port_of(g, "Melaka")] == yellow
    assert v.spent[yellow] == 4
    assert g.scores(s)[yellow] >= 4


# ---------------------------------------------------------------- E8, E9 (blue spaces)

# (0,1) has a current S onto the blue (0,2): a free step; (1,1) -> (0,2) is a paid step.
BLUE_MAP = dict(
    grid="""
        @~
        ~~
        ~~
        ~~
    """,
    currents="c : 0,1 : S",
    events="""
        ~~
        ~~
        B~
        ~~
    """,
)


@pytest.mark.parametrize("hand,enter,playable", [
    ({"storm4": 1}, False, set()),
    ({"storm4": 2, "storm2": 1}, True, {"play:storm2"}),
    ({"storm4": 1, "storm3": 1}, True, {"play:storm3"}),
    ({"storm4": 1, "calm": 1}, True, {"play:calm"}),
])
def test_E8_storm_too_big(hand, enter, playable):
    """E8 (V19, V29): with 3 available discs on the blue space a -4 storm cannot be
    played; another card must be, and without one the blue space cannot be entered."""
    g = tiny_game(**BLUE_MAP)
    s = staged(g, 2, ships={0: (0, 1)}, spent={0: 6}, hands={0: hand})
    if not enter:
        assert_illegal(g, s, "move:S", "blue space")
        return
    play(g, s, "move:S")
    v = StateView(s)
    assert v.phase == PLAY and avail(s, 0) == 3
    assert legal(g, s) == playable
    assert_illegal(g, s, "play:storm4", "storm -4")


def test_E8_playability_counts_the_discs_left_after_paying_the_step():
    """E8 with a paid step: 4 available, the step onto the blue space costs 1, so a -4
    storm is no longer playable; a -3 storm is."""
    g = tiny_game(**BLUE_MAP)
    s = staged(g, 2, ships={0: (1, 1)}, spent={0: 5}, hands={0: {"storm4": 1}})
    assert_illegal(g, s, "move:SW", "blue space")
    s = staged(g, 2, ships={0: (1, 1)}, spent={0: 5}, hands={0: {"storm4": 1, "storm3": 1}})
    play(g, s, "move:SW")
    assert legal(g, s) == {"play:storm3"} and avail(s, 0) == 3


RUN_MAP = dict(
    grid="""
        @
        ~
        ~
        ~
        ~
        ~
    """,
    events="""
        ~
        ~
        ~
        B
        ~
        ~
    """,
    hemisphere="""
        W
        W
        W
        W
        W
        E
    """,
)


def test_E9_favourable_wind_on_a_blue_space():
    """E9 (V33): red moves onto a blue space and plays a favourable wind: two of the discs
    he spent this turn come back and are spent again this turn."""
    g = tiny_game(**RUN_MAP)
    red = 0
    s = staged(g, 2, order=[red, 1], ships={1: (0, 5)}, hands={red: {"favourable": 1}})
    v = StateView(s)
    play(g, s, "move:S", "move:S", "move:S")
    assert v.phase == PLAY and v.spent[red] == 3
    play(g, s, "play:favourable")
    assert v.phase == MOVE and v.spent[red] == 1 and avail(s, red) == 8
    assert v.discard[R.FAVOURABLE] == 1 and hand_of(s, red) == {}
    play(g, s, "move:N", "move:N", "move:N")
    assert v.spent[red] == 4


# ---------------------------------------------------------------- E10, E11 (compass storms)

# red reaches the blue (6,4) from (7,4); NW of it (5,3), (4,3). Yellow at (3,5): one sea
# space NW, then land (1,4). Blue at (7,2): two sea spaces NW. Green at (2,2): land NW.
E10_MAP = dict(
    grid="""
        @~~~~~~~
        ~.~~~~~~
        ~~~~~~~~
        ~~~~~~~~
        ~.~~~~~~
        ~~~~~~~~
    """,
    events="""
        ~~~~~~~~
        ~.~~~~~~
        ~~~~~~~~
        ~~~~~~~~
        ~.~~~~B~
        ~~~~~~~~
    """,
)


def test_E10_compass_storm_NW_played_by_red():
    """E10 (V30, V31, V36, V28, VA17): others first in turn order: yellow may move 1 NW
    (land beyond), blue 1 or 2 NW, green not at all (land NW); then red moves 2 NW."""
    g = tiny_game(**E10_MAP)
    red, yellow, blue, green = 0, 1, 2, 3
    s = staged(g, 4, order=[red, yellow, blue, green],
               ships={red: (7, 4), yellow: (3, 5), blue: (7, 2), green: (2, 2)},
               hands={red: {"compass_NW": 1}})
    v = StateView(s)
    play(g, s, "move:NW")
    assert v.phase == PLAY
    play(g, s, "play:compass_NW")
    assert v.phase == REACT and GAME.current_player(s) == yellow
    assert legal(g, s) == {"move:NW", "stop"}, "only in the card's direction"
    assert v.ship[red] == hx(g, 6, 4), "the others move first"
    play(g, s, "move:NW")
    assert v.ship[yellow] == hx(g, 2, 5)
    # yellow's next NW is land: his reaction is over; blue's turn
    assert v.phase == REACT and GAME.current_player(s) == blue
    play(g, s, "move:NW", "move:NW")
    assert v.ship[blue] == hx(g, 5, 1)
    # green cannot move NW and is skipped; red's own forced move follows
    assert v.ship[green] == hx(g, 2, 2)
    assert v.phase == MOVE and GAME.current_player(s) == red
    assert v.ship[red] == hx(g, 4, 3)
    assert v.spent[red] == 1, "only the step onto the blue space was paid"


def test_E10_blue_may_stop_after_one_space():
    g = tiny_game(**E10_MAP)
    red, yellow, blue, green = 0, 1, 2, 3
    s = staged(g, 4, order=[red, yellow, blue, green],
               ships={red: (7, 4), yellow: (3, 5), blue: (7, 2), green: (2, 2)},
               hands={red: {"compass_NW": 1}})
    play(g, s, "move:NW", "play:compass_NW", "stop")  # yellow declines
    assert StateView(s).ship[yellow] == hx(g, 3, 5)
    play(g, s, "move:NW", "stop")  # blue: one space, then stops
    v = StateView(s)
    assert v.ship[blue] == hx(g, 6, 2)
    assert v.phase == MOVE and v.ship[red] == hx(g, 4, 3)


# yellow on the blue (6,4) (from (7,4)); his NW path (5,3) red, (4,3) blue: both ignored.
# red at (5,5): NW (4,5) red, (3,4) red. Green at (2,2): land (1,1) NW.
E11_MAP = dict(
    grid="""
        @~~~~~~~
        ~.~~~~~~
        ~~~~~~~~
        ~~~~~~~~
        ~~~~~~~~
        ~~~~~~~~
    """,
    events="""
        ~~~~~~~~
        ~.~~~~~~
        ~~~~~~~~
        ~~~~RB~~
        ~~~R~~B~
        ~~~~R~~~
    """,
)


def test_E11_compass_storm_NW_played_by_yellow():
    """E11 (V30, V31, V37, VA19, VA28): red may move 1 or 2 NW ignoring red symbols (no
    die); green cannot (land NW); then the card player's (yellow's) ship moves exactly 2
    NW ignoring the red and blue symbols on its way (no die, no card)."""
    g = tiny_game(**E11_MAP)
    yellow, red, green = 0, 1, 2
    s = staged(g, 3, order=[yellow, red, green],
               ships={yellow: (7, 4), red: (5, 5), green: (2, 2)},
               hands={yellow: {"compass_NW": 1, "storm2": 1}})
    v = StateView(s)
    play(g, s, "move:NW", "play:compass_NW")
    word = rng_word(s)
    assert GAME.current_player(s) == red and legal(g, s) == {"move:NW", "stop"}
    play(g, s, "move:NW", "move:NW")
    assert v.ship[red] == hx(g, 3, 4) and not v.wrecked[red].any()
    assert v.phase == MOVE and GAME.current_player(s) == yellow
    assert v.ship[yellow] == hx(g, 4, 3), "the card player's ship moved 2 NW"
    assert v.ship[green] == hx(g, 2, 2)
    assert rng_word(s) == word, "no die was rolled on the red spaces"
    assert hand_of(s, yellow) == {"storm2": 1}, "no card was played on the blue space"
    assert v.spent[yellow] == 1


# ---------------------------------------------------------------- E12 hemispheres

# cols 0-3 west, 4-7 east (the Cape line between cols 3 and 4). Yellow reaches the blue
# (2,0) from (1,0). Green at (1,1) goes (2,1) blue, (3,1) red, (4,1), (5,1) the Cape port;
# a current runs (4,1) -> (5,1) -> (6,1). The blue seat is in the east.
CAPE_MAP = dict(
    grid="""
        @~~~~~~~
        ~~~~~K~~
    """,
    ports="K | Cape of Good Hope | 1487 | west | -",
    currents="k : 4,1 : SE NE",
    events="""
        ~~B~~~~~
        ~~BR~~~~
    """,
    hemisphere="""
        WWWWEEEE
        WWWWEEEE
    """,
)


def test_E12_hemispheres_and_the_cape():
    """E12 (V28, V29, V36, V37, V23): yellow plays a -4 storm on a blue space in the west;
    green (west) moves 4 spaces free, ignoring blue and red symbols, no current help,
    crossing the line into the Cape port: monument and +1 VP. Blue (east) is not asked.
    Only then does yellow spend 4 discs, and he goes on moving."""
    g = tiny_game(**CAPE_MAP)
    yellow, green, blue = 0, 1, 2
    s = staged(g, 3, order=[yellow, green, blue],
               ships={yellow: (1, 0), green: (1, 1), blue: (6, 0)},
               hands={yellow: {"storm4": 1}, green: {"calm": 1}})
    v = StateView(s)
    word = rng_word(s)
    play(g, s, "move:NE")
    assert v.phase == PLAY and v.spent[yellow] == 1
    play(g, s, "play:storm4")
    assert v.phase == REACT and GAME.current_player(s) == green
    path = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]
    for a in route(*path):
        assert v.spent[yellow] == 1, "the others move before the card player pays"
        play(g, s, a)
    assert v.ship[green] == hx(g, 5, 1), "budget used up: no free ride on the current"
    assert g.board.hemisphere[v.ship[green]] == 1, "crossed the line"
    assert v.discovered[port_of(g, "Cape of Good Hope")] == green and v.vp[green] == 1
    assert hand_of(s, green) == {"calm": 1} and rng_word(s) == word
    assert v.spent[green] == 0
    # blue (east) was never asked; yellow pays 4 and continues
    assert v.phase == MOVE and GAME.current_player(s) == yellow
    assert v.spent[yellow] == 5 and v.ship[blue] == hx(g, 6, 0)
    play(g, s, "move:SE")
    assert v.spent[yellow] == 6


# ---------------------------------------------------------------- E13 last disc

# red: (0,0) -> (0,1) blue -> (0,2) Guinea on a current, then 3 paid steps to (0,5),
# which has a current onward. Yellow: (2,0) -> (2,1) blue -> (2,2) Porto Seguro.
E13_MAP = dict(
    grid="""
        @.~
        ~.~
        G.S
        ~.~
        ~.~
        ~.~
        ~~~
    """,
    ports="""
        G | Guinea | 1444 | west | chili
        S | Porto Seguro | 1500 | west | brazilwood
    """,
    currents="""
        r : 0,0 : S S
        t : 0,5 : S
    """,
    events="""
        ~.~
        B.B
        ~.~
        ~.~
        ~.~
        ~.~
        ~~~
    """,
)


def test_E13_turn_ending_on_the_last_disc():
    """E13 (V15, V19, V28, V29, V37, V24, V48, VA20, VA21): upgraded red has spent 7 of 12.
    Current onto a blue space (0 discs); a -2 storm: yellow first moves 2 into Porto
    Seguro ignoring a blue symbol and loads brazilwood; red pays 2; current into Guinea
    (chili fills red's last hold); 3 paid steps spend his last 3 discs and end the turn at
    once although a current would carry him on; the refresh returns all discs and fills
    his hand to 5."""
    g = tiny_game(**E13_MAP)
    red, yellow = 0, 1
    others = ["brazilwood", "ivory", "pepper", "cinnamon", "silk", "nutmeg", "silver"]
    s = staged(g, 2, order=[red, yellow], ships={yellow: (2, 0)}, upgraded=[red],
               spent={red: 7}, cubes={red: others},
               hands={red: {"storm2": 1, "calm": 1, "compass_N": 1}},
               top=["favourable", "storm3", "favourable"])
    v = StateView(s)
    assert avail(s, red) == 5
    play(g, s, "move:S")
    assert v.spent[red] == 7 and v.phase == PLAY
    play(g, s, "play:storm2")
    assert GAME.current_player(s) == yellow and v.phase == REACT
    play(g, s, "move:S")
    assert v.phase == REACT, "the blue symbol is ignored"
    play(g, s, "move:S")
    assert cubes_of(s, yellow) == {"brazilwood"}
    assert v.discovered[port_of(g, "Porto Seguro")] == yellow
    assert v.phase == MOVE and GAME.current_player(s) == red and v.spent[red] == 9
    play(g, s, "move:S")
    assert v.spent[red] == 9 and cubes_of(s, red) == set(others) | {"chili"}
    assert v.cubes[red].sum() == 8, "every hold of the upgraded fleet is full"
    play(g, s, "move:S", "move:S")
    assert v.spent[red] == 11 and v.active == red
    play(g, s, "move:S")  # the last disc
    assert v.ship[red] == hx(g, 0, 5), "no free move on after the last disc"
    assert v.active == yellow and v.phase == MOVE and GAME.current_player(s) == yellow
    assert v.spent[red] == 0 and avail(s, red) == 12
    assert hand_of(s, red) == {"calm": 1, "compass_N": 1, "favourable": 2, "storm3": 1}


# ---------------------------------------------------------------- E16, E17 Lisbon

LISBON_MAP = dict(
    grid="""
        ~@~
        ~~~
    """,
)


def test_E16_lisbon():
    """E16 (V39-V47, VA23): not upgraded yellow with 6 cubes incl. pepper, 5 discs spent:
    3 different cubes -> upgrade (12 discs); pepper -> tile 1 (+10); the remaining 2 sold
    at 5 each (+10): +20 VP; cards refreshed, all discs back, turn over, ship stays."""
    g = tiny_game(**LISBON_MAP)
    yellow, other = 0, 1
    load = ["chili", "brazilwood", "ivory", "pepper", "cinnamon", "silk"]
    s = staged(g, 2, order=[yellow, other], spent={yellow: 5}, cubes={yellow: load},
               hands={yellow: {"calm": 2}}, top=["storm2", "storm3", "favourable"])
    v = StateView(s)
    play(g, s, "dock")
    assert v.phase == UPGRADE and GAME.current_player(s) == yellow
    assert legal(g, s) == {f"upgrade:{c}" for c in load} | {"upgrade:skip"}
    play(g, s, "upgrade:chili", "upgrade:brazilwood")
    assert v.upgraded[yellow] == 0 and v.vp[yellow] == 0
    play(g, s, "upgrade:ivory")
    assert v.upgraded[yellow] == 1 and v.discs[yellow] == 12 and v.vp[yellow] == 0
    assert v.phase == MONASTERY
    play(g, s, "monastery:take")  # +10, then the 2 other cubes are sold at once (+10)
    assert v.tiles[yellow] == 1 and v.best_tile[yellow] == 1 and v.tiles_taken == 1
    assert v.phase == CARDS and v.vp[yellow] == 20 and cubes_of(s, yellow) == set()
    assert list(v.stock) == [4] * 8, "handed-in and sold cubes go back to the stock"
    play(g, s, "cards:top_up")
    assert hand_of(s, yellow) == {"calm": 2, "storm2": 1, "storm3": 1, "favourable": 1}
    assert v.spent[yellow] == 0 and avail(s, yellow) == 12
    assert v.docked[yellow] == 1 and v.ship[yellow] == g.board.lisbon
    assert v.active == other and v.phase == MOVE
    assert g.scores(s)[yellow] == 20


@pytest.mark.parametrize("choice,vp", [("monastery:take", 10), ("monastery:sell", 5)])
def test_E17_pepper_value(choice, vp):
    """E17 (V41, V44): pepper sold in Lisbon 5 VP; exchanged for a monastery tile 10 VP."""
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 2, cubes={0: ["pepper"]}, order=[0, 1])
    play(g, s, "dock")
    assert StateView(s).phase == MONASTERY and legal(g, s) == {"monastery:take",
                                                               "monastery:sell"}
    play(g, s, choice)
    v = StateView(s)
    assert v.vp[0] == vp and v.tiles[0] == (1 if vp == 10 else 0)
    assert v.stock[GOOD["pepper"]] == 4


# ---------------------------------------------------------------- E18, E19 (the end)


def test_E18_target_card_ceiling():
    """E18 (V51): monuments on all 8 of one's target ports: 8 x 5 = 40 VP at the end."""
    s = GAME.new_state(2, 3)
    v = StateView(s)
    targets = [int(t) for t in v.targets[0]]
    assert len(targets) == 8 and min(targets) >= 0
    v.vp[0] = 7
    for port in targets:
        v.discovered[port] = 0
    assert GAME.scores(s)[0] == 7 + 40
    assert GAME.scores(s)[1] == 0


def test_E19_end_timing():
    """E19 (V49): 4 players A, B, C, D; B takes the last monastery tile: C and D still
    take their turns, no new round starts, then the game is over and scored."""
    g = tiny_game(**LISBON_MAP)
    a, b, c, d = 2, 0, 3, 1
    s = staged(g, 4, order=[a, b, c, d], active=b, tiles_taken=4, cubes={b: ["pepper"]},
               vp={a: 30}, round=3)
    v = StateView(s)
    play(g, s, "dock", "monastery:take")
    assert v.tiles_taken == 5 == v.tiles_total and v.end_triggered == 1
    assert v.vp[b] == 10 and v.best_tile[b] == 5
    play(g, s, "cards:top_up")
    assert v.active == c and v.phase == MOVE and not g.is_terminal(s)
    play(g, s, "stop")
    assert v.active == d and v.phase == MOVE and not g.is_terminal(s)
    play(g, s, "stop")
    assert g.is_terminal(s) and not g.is_truncated(s)
    assert v.phase == GAME_OVER and v.round == 3 and g.current_player(s) == -1
    assert g.winners(s) == [a]
    assert_illegal(g, s, "stop", "over")


def test_E19_without_the_last_tile_a_new_round_starts():
    g = tiny_game(**LISBON_MAP)
    s = staged(g, 4, order=[2, 0, 3, 1], active=0, tiles_taken=3, cubes={0: ["pepper"]})
    play(g, s, "dock", "monastery:take", "cards:top_up")
    assert StateView(s).end_triggered == 0
    stop_all(g, s)
    assert StateView(s).phase == BID and StateView(s).round == 2
