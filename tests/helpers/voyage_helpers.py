"""Shared builders for the Voyage rules tests (test_voyage_examples.py, test_voyage_rules.py).

States are built through the public surface only: `Game.new_state`, the round-1 auction
played with `bid:pass`, then named edits through `StateView`. Builders move wind cards and
goods cubes instead of creating them (deck + discard + hands = 86, or 81 with the simple
deck; stock + held = 4 per good) and check `validate_state` before handing a state out.

Tiny maps are written as text grids (`voyage_env.board.map_from_text`, docs/voyage_map.md):
flat-top odd-q hexes, (col, row), directions N NE SE S SW NW. `route` turns a list of
cells into the `move:D` names between them so tests read as paths.

The die (VA11: faces 0 and 1 of `below(6)` wreck) and all shuffles come from the
SplitMix64 generator inside the state (docs/voyage_engine.md "Randomness"); `SplitMix64`
below is written out independently from that text, `force_rolls` picks a generator state
whose next rolls are the ones a test needs, and `rng_word` lets a test check that no die
was rolled (the generator did not move).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from tradewinds import IllegalActionError
from tradewinds.pyrng import SplitMix64  # the plain-Python generator (not the kernel's)
from voyage_env import make_game
from voyage_env import rules as R
from voyage_env.board import DIRS, GOODS, map_from_text, step
from voyage_env.state import BID, MOVE, ORDER, StateView

GOOD = {g: i for i, g in enumerate(GOODS)}
KIND = {k: i for i, k in enumerate(R.CARD_KINDS)}
INTO_LISBON = 25    # a sea space of the default board whose current runs NE into Lisbon (free)

# ---------------------------------------------------------------- the RNG contract

_M64 = (1 << 64) - 1
_M32 = (1 << 32) - 1


def rng_word(state) -> int:
    """The 64-bit generator state stored in the game state."""
    v = StateView(state)
    return (int(v.rng[0]) & _M32) | ((int(v.rng[1]) & _M32) << 32)


def set_rng_word(state, x: int) -> None:
    v = StateView(state)
    lo, hi = x & _M32, (x >> 32) & _M32
    v.rng[0] = lo - (1 << 32) if lo >= 1 << 31 else lo
    v.rng[1] = hi - (1 << 32) if hi >= 1 << 31 else hi


def die_rolls(state, k: int) -> list:
    """The next k die results (True = the wreck face, VA11) the state's generator gives."""
    r = SplitMix64(rng_word(state))
    return [r.below(R.DIE_FACES) < R.WRECK_FACES for _ in range(k)]


def force_rolls(state, *wrecks: bool) -> int:
    """Set the generator so that the next die rolls are `wrecks` (True = "1": a wreck).
    Returns the generator word chosen."""
    for x in range(1, 100_000):
        r = SplitMix64(x)
        if all((r.below(R.DIE_FACES) < R.WRECK_FACES) == w for w in wrecks):
            set_rng_word(state, x)
            return x
    raise AssertionError(f"no generator state gives rolls {wrecks}")


def force_face(state, face: int) -> int:
    """Set the generator so that the next die shows `face` (`below(6)`, 0..5)."""
    for x in range(1, 100_000):
        if SplitMix64(x).below(R.DIE_FACES) == face:
            set_rng_word(state, x)
            return x
    raise AssertionError(f"no generator state gives face {face}")


def advanced(word: int, k: int) -> int:
    """The generator word after k draws."""
    return (word + k * 0x9E3779B97F4A7C15) & _M64


# ---------------------------------------------------------------- maps


@cache
def tiny_game(grid: str, ports: str = "", currents: str = "", events: str | None = None,
              hemisphere: str | None = None, walls: str = ""):
    """The Voyage `Game` on a tiny map (cached per map text)."""
    return make_game(map_from_text(grid, ports=ports, currents=currents, events=events,
                                   hemisphere=hemisphere, walls=walls))


def hx(game, col: int, row: int) -> int:
    """Sea-space index of a grid cell (asserts it is sea)."""
    h = game.board.hex_at(col, row)
    assert h >= 0, f"({col},{row}) is not a sea space"
    return h


def cell(game, h: int) -> tuple:
    c, r = game.board.coords[h]
    return int(c), int(r)


def direction(a: tuple, b: tuple) -> str:
    """The direction name of the step from cell a to the adjacent cell b."""
    for d in range(6):
        if step(*a, d) == tuple(b):
            return DIRS[d]
    raise AssertionError(f"{a} and {b} are not adjacent")


def route(*cells, prefix: str = "move") -> list:
    """Action names stepping along adjacent cells: route((0,0),(0,1)) == ['move:S']."""
    return [f"{prefix}:{direction(a, b)}" for a, b in zip(cells, cells[1:], strict=False)]


def port_of(game, name: str) -> int:
    return game.board.port_id(name)


# ---------------------------------------------------------------- actions


def legal(game, state) -> set:
    """The legal actions, as names."""
    return {game.action_name(a) for a in game.legal_actions(state)}


def legal_of(game, state, prefix: str) -> set:
    return {a for a in legal(game, state) if a.startswith(prefix)}


def play(game, state, *actions) -> None:
    """Step every action (names or ids) in order; check the state after each."""
    for a in actions:
        game.step(state, a)
        game.validate_state(state)


def assert_illegal(game, state, action, *fragments):
    """Stepping `action` raises naming it (plus fragments) and leaves the state alone."""
    before = state.copy()
    with pytest.raises(IllegalActionError) as err:
        game.step(state, action)
    msg = str(err.value)
    assert action in msg, msg
    for f in fragments:
        assert f in msg, msg
    assert (state == before).all(), f"{action}: illegal action changed the state"
    assert action not in legal(game, state), f"{action} refused but in the mask"


def pass_bidding(game, state) -> None:
    """Everybody passes until the auction is over (n passes, order unchanged)."""
    while StateView(state).phase == BID:
        game.step(state, "bid:pass")


# ---------------------------------------------------------------- cards and cubes


def total_cards(state) -> int:
    return R.DECK_SIZE - (R.SIMPLE_DECK_CALMS_REMOVED if StateView(state).simple_deck else 0)


def hand_of(state, p: int) -> dict:
    """Seat p's hand as {kind name: count} (non-zero only)."""
    h = StateView(state).hand[p]
    return {R.CARD_KINDS[k]: int(h[k]) for k in range(R.NUM_CARD_KINDS) if h[k]}


def hand_size(state, p: int) -> int:
    return int(StateView(state).hand[p].sum())


def deck_top(state, k: int) -> list:
    """The next k cards to be drawn, as kind names (top first)."""
    v = StateView(state)
    n = v.deck_size
    return [R.CARD_KINDS[int(v.deck[i])] for i in range(n - 1, max(n - 1 - k, -1), -1)]


def set_cards(state, hands=None, discard=None, top=(), shuffle_seed: int = 0) -> None:
    """Redistribute the wind cards: `hands` {seat: {kind: count}} (seats not named hold
    nothing), `discard` {kind: count}, the rest in the deck (shuffled with a fixed seed)
    with `top` (kind names, the first is drawn first) on top. Cards are conserved."""
    v = StateView(state)
    n = v.num_players
    counts = np.array(R.CARD_COUNTS, dtype=np.int64)
    if v.simple_deck:
        counts[R.CALM] -= R.SIMPLE_DECK_CALMS_REMOVED
    v.hand[...] = 0
    for p, h in (hands or {}).items():
        assert 0 <= p < n
        for kind, k in h.items():
            v.hand[p, KIND[kind]] = k
    v.discard[...] = 0
    for kind, k in (discard or {}).items():
        v.discard[KIND[kind]] = k
    rest = counts - v.hand.sum(axis=0) - v.discard
    for kind in top:
        rest[KIND[kind]] -= 1
    assert (rest >= 0).all(), "not enough cards of some kind"
    deck = [k for k in range(R.NUM_CARD_KINDS) for _ in range(int(rest[k]))]
    np.random.default_rng(shuffle_seed).shuffle(deck)
    deck += [KIND[kind] for kind in reversed(top)]
    v.deck[...] = 0
    v.deck[: len(deck)] = deck
    v.deck_size = len(deck)


def give_cubes(state, p: int, *goods: str) -> None:
    """Move cubes of the named goods from the stock to seat p."""
    v = StateView(state)
    for g in goods:
        assert v.stock[GOOD[g]] > 0 and v.cubes[p, GOOD[g]] == 0
        v.stock[GOOD[g]] -= 1
        v.cubes[p, GOOD[g]] = 1


def cubes_of(state, p: int) -> set:
    return {GOODS[g] for g in np.flatnonzero(StateView(state).cubes[p])}


def upgrade(state, p: int) -> None:
    v = StateView(state)
    v.upgraded[p] = 1
    v.discs[p] = R.UPGRADED_DISCS


def avail(state, p: int) -> int:
    v = StateView(state)
    return int(v.discs[p] - v.spent[p])


# ---------------------------------------------------------------- builders


def staged(game, n: int = 2, *, seed: int = 0, order=None, active=None, ships=None,
           hands=None, discard=None, top=(), spent=None, upgraded=(), cubes=None,
           wrecked=None, vp=None, round: int = 1, black_hex=None, simple_deck=False,
           black_ship=False, max_rounds=40, tiles_taken=None, tiles=None) -> np.ndarray:
    """A consistent state in phase MOVE at the start of seat `active`'s turn.

    The round-1 auction is played with passes (so the round-1 deal has happened), then:
    `order` (seats by position, default 0..n-1), `active` (default: the first position), `ships`
    {seat: (col, row)} (others stay on Lisbon), `hands` {seat: {kind: count}} (others
    empty), `discard`, `top` (next cards drawn), `spent` {seat: discs}, `upgraded` seats
    (12 discs), `cubes` {seat: [goods]}, `wrecked` {seat: [ship numbers 1..4]}, `vp`
    {seat: VP}, `round`, `black_hex` (col, row), `tiles_taken` (held by the last seat in
    `order` other than `active`, unless `tiles` {seat: (count, best tile)} says who)."""
    s = game.new_state(n, seed, simple_deck=simple_deck, black_ship=black_ship,
                       max_rounds=max_rounds)
    pass_bidding(game, s)
    v = StateView(s)
    assert v.phase == MOVE
    order = list(range(n)) if order is None else order
    assert sorted(order) == list(range(n))
    v.order[:n] = order
    order = [int(x) for x in v.order[:n]]
    active = order[0] if active is None else active
    v.position = order.index(active)
    v.active = active
    v.decider = active
    v.round = round
    for p, c in (ships or {}).items():
        v.ship[p] = hx(game, *c)
    for p in upgraded:
        upgrade(s, p)
    for p, k in (spent or {}).items():
        v.spent[p] = k
    for p, goods in (cubes or {}).items():
        give_cubes(s, p, *goods)
    for p, ships_ in (wrecked or {}).items():
        for k in ships_:
            v.wrecked[p, k - 1] = 1
    for p, x in (vp or {}).items():
        v.vp[p] = x
    if black_hex is not None:
        v.black_hex = hx(game, *black_hex)
    if tiles_taken is not None:
        v.tiles_taken = tiles_taken
        if tiles is None:
            holder = [p for p in order if p != v.active][-1]
            tiles = {holder: (tiles_taken, 1)} if tiles_taken else {}
        for p, (count, best) in tiles.items():
            v.tiles[p], v.best_tile[p] = count, best
        v.end_triggered = int(tiles_taken == v.tiles_total)
    if not simple_deck:
        set_cards(s, hands, discard, top)
    else:
        assert not hands
        set_cards(s, None, discard, top)
    game.validate_state(s)
    return s


def stop_all(game, state, max_decisions: int = 1000) -> None:
    """Everybody stops / passes until the current round is over (the next auction or the
    end of the game); order choices take the first free position."""
    start = StateView(state).round
    for _ in range(max_decisions):
        v = StateView(state)
        if game.is_terminal(state) or (v.round != start and v.phase == BID):
            return
        names = legal(game, state)
        for a in ("bid:pass", "stop", "upgrade:skip", "monastery:sell", "cards:top_up"):
            if a in names:
                game.step(state, a)
                break
        else:
            if v.phase == ORDER:
                game.step(state, sorted(names)[0])
            else:
                raise AssertionError(f"stop_all: no way to go on from {sorted(names)}")
    raise AssertionError("stop_all: the round does not end")


# Movement costs (E3, E4, V15-V18): two currents running south and two pirate spaces.
COST_MAP = dict(
    grid="""
        @.~
        ~.~
        ~~~
        ~.~
        ~.~
        ~.~
    """,
    currents="""
        c : 0,1 : S S S
        d : 2,3 : S S
    """,
    events="""
        ~.~
        ~.P
        ~~~
        ~.~
        ~.P
        ~.~
    """,
)
