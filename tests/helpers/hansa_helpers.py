"""Shared builders for the Hansa rules tests (test_hansa_examples.py, test_hansa_rules.py).

States are built through the public surface only: `GAME.new_state`, the setup draft
played with `setup:<City>` actions, then named edits through `StateView`. Every builder
keeps the state consistent (78 tokens conserved over warehouses, piles, hands, sold piles
and `removed`; 15 stalls per player over board and supply) and asserts
`GAME.validate_state` before handing the state out.
"""

from __future__ import annotations

import numpy as np

from hansa_env import GAME
from hansa_env import board as B
from hansa_env.state import ACTIONS, SETUP, StateView
from tradewinds.pyrng import SplitMix64  # the plain-Python generator (not the kernel's)

CITY = {name: i for i, name in enumerate(B.CITIES)}
COLOUR = {name: i for i, name in enumerate(B.COLOURS)}
TOKEN = {name: i for i, name in enumerate(B.TOKEN_NAMES)}
SLOT = {f"{B.CITIES[c]}/{k}": w for w, (c, k) in enumerate(B.WAREHOUSES)}
SLOT_NAME = {w: name for name, w in SLOT.items()}


# ---------------------------------------------------------------- small accessors


def tok(name: str) -> int:
    """Token type id of e.g. 'orange2'."""
    return TOKEN[name]


def colour_of(name: str) -> int:
    return TOKEN[name] // 3


def barrels_of(name: str) -> int:
    return TOKEN[name] % 3 + 1


def legal(state) -> set:
    """The legal actions, as names."""
    return {GAME.action_name(a) for a in GAME.legal_actions(state)}


def legal_of(state, prefix: str) -> set:
    """The legal actions whose name starts with `prefix`."""
    return {a for a in legal(state) if a.startswith(prefix)}


def play(state, *actions) -> None:
    """Step every action (names or ids) in order; IllegalActionError propagates."""
    for a in actions:
        GAME.step(state, a)


def hand_of(state, p: int) -> dict:
    """Seat p's held tokens as {name: count} (non-zero entries only)."""
    h = StateView(state).hand[p].reshape(-1)
    return {B.TOKEN_NAMES[t]: int(h[t]) for t in range(B.NUM_TOKEN_TYPES) if h[t]}


def sold_of(state, p: int) -> dict:
    s = StateView(state).sold[p].reshape(-1)
    return {B.TOKEN_NAMES[t]: int(s[t]) for t in range(B.NUM_TOKEN_TYPES) if s[t]}


def removed_count(state, name: str) -> int:
    return int(StateView(state).removed.reshape(-1)[TOKEN[name]])


def warehouse_of(state, slot: str):
    """Token name on a warehouse slot ('Danzig/1'), or None when empty."""
    t = int(StateView(state).warehouse[SLOT[slot]])
    return None if t < 0 else B.TOKEN_NAMES[t]


def pile_sizes_of(state) -> list:
    """Tokens left in each of the five piles."""
    v = StateView(state)
    out, start = [], 0
    for k in range(B.NUM_PILES):
        end = int(v.pile_end[k])
        out.append(max(0, end - max(start, v.supply_drawn)))
        start = end
    return out


def supply_sequence(state) -> list:
    """The undrawn supply tokens, in draw order, as names."""
    v = StateView(state)
    return [B.TOKEN_NAMES[t] for t in v.supply[v.supply_drawn: v.pile_end[4]]]


def empty_slot(state, slot: str) -> str:
    """Take the token off a warehouse slot out of the game (keeps tokens conserved)."""
    v = StateView(state)
    w = SLOT[slot]
    t = int(v.warehouse[w])
    assert t >= 0, f"{slot} is already empty"
    v.warehouse[w] = -1
    v.removed.reshape(-1)[t] += 1
    GAME.validate_state(state)
    return B.TOKEN_NAMES[t]


def colours_in_play(state) -> list:
    return [B.COLOURS[c] for c in np.flatnonzero(StateView(state).colour_in_play)]


# ---------------------------------------------------------------- the RNG contract


def expected_deal(num_players: int, seed: int):
    """(set-aside colour ids, shuffled token list) per the engine contract's setup steps 1-2."""
    r = SplitMix64(seed)
    colours = list(range(len(B.COLOURS)))
    r.shuffle(colours)
    k = B.COLOURS_REMOVED[num_players]
    aside = set(colours[:k])
    tokens = [
        c * 3 + b
        for c in range(len(B.COLOURS)) if c not in aside
        for b in range(3)
        for _ in range(B.TOKENS_PER_BARREL[b])
    ]
    r.shuffle(tokens)
    return aside, tokens


# ---------------------------------------------------------------- builders


def finish_setup(state) -> None:
    """Play the rest of the setup draft: each placement takes the first legal city."""
    while StateView(state).phase == SETUP:
        GAME.step(state, GAME.legal_actions(state)[0])


def post_setup(num_players: int, seed: int = 0, **options) -> np.ndarray:
    """A fresh game with the setup draft completed (seat 0's first turn, phase 2 done)."""
    s = GAME.new_state(num_players, seed, **options)
    finish_setup(s)
    GAME.validate_state(s)
    return s


def seed_with_colours(num_players: int, colours, start: int = 0) -> int:
    """The first seed >= start whose colours in play include all of `colours`."""
    want = {COLOUR[c] for c in colours}
    for seed in range(start, start + 1000):
        aside, _ = expected_deal(num_players, seed)
        if not want & aside:
            return seed
    raise AssertionError(f"no seed with colours {colours} in play")


def staged(
    num_players: int = 2,
    *,
    seed: int = 0,
    colours=(),
    ship: str = "Copenhagen",
    active: int = 0,
    money=None,
    hands=None,
    sold=None,
    stalls=None,
    warehouses=None,
    empty_warehouses=False,
    piles=None,
    acted_here: int = 0,
    round: int = 1,
    end_triggered: int = 0,
    build_rule: str = "barrels",
    max_rounds: int = B.DEFAULT_MAX_ROUNDS,
) -> np.ndarray:
    """A consistent mid-game state in phase ACTIONS for seat `active`.

    - `colours`: colour names that must be in play (the seed is advanced until they are).
    - `money`: {seat: talers} (seats not named get 3).
    - `hands` / `sold`: {seat: {"orange2": count}}; tokens are taken from the supply piles
      (from the back) or from warehouses being overwritten; never from set-aside colours.
    - `stalls`: {("Danzig", seat): count}; setup stalls are cleared first; the rest of each
      player's 15 stalls are in his supply.
    - `empty_warehouses`: first take every warehouse token back into the pool;
      `warehouses`: {"Danzig/1": "orange2" or None} then sets single slots.
    - `piles`: five lists of token names forming the new supply piles 1..5 (drawn from the
      pool); tokens left over leave the game (`removed`). Without `piles` the remaining
      pool keeps its order and is split by `pile_sizes`.
    """
    if colours:
        seed = seed_with_colours(num_players, colours, seed)
    s = post_setup(num_players, seed, build_rule=build_rule, max_rounds=max_rounds)
    v = StateView(s)
    n = num_players

    # -- the pool of movable tokens: undrawn supply, plus warehouse tokens being replaced
    pool = [int(t) for t in v.supply[v.supply_drawn: v.pile_end[4]]]
    if empty_warehouses:
        for w in range(B.NUM_WAREHOUSES):
            if v.warehouse[w] >= 0:
                pool.append(int(v.warehouse[w]))
                v.warehouse[w] = -1
    for slot in (warehouses or {}):
        w = SLOT[slot]
        if v.warehouse[w] >= 0:
            pool.append(int(v.warehouse[w]))
            v.warehouse[w] = -1

    fixed = {SLOT[w] for w in (warehouses or {})}

    def take(name: str) -> int:
        t = TOKEN[name]
        for i in range(len(pool) - 1, -1, -1):
            if pool[i] == t:
                del pool[i]
                return t
        # a dealt warehouse the caller did not fix holds one: swap in a pool token
        for w in range(B.NUM_WAREHOUSES - 1, -1, -1):
            if w not in fixed and v.warehouse[w] == t and pool:
                v.warehouse[w] = pool.pop(0)
                return t
        raise AssertionError(
            f"staged(): no {name} token left in the pool (colours in play: "
            f"{colours_in_play(s)}; pass colours=... to pick a seed)")

    for slot, name in (warehouses or {}).items():
        if name is not None:
            v.warehouse[SLOT[slot]] = take(name)
    for field, spec in (("hand", hands), ("sold", sold)):
        arr = getattr(v, field)
        arr[...] = 0
        for p, tokens in (spec or {}).items():
            for name, k in tokens.items():
                for _ in range(k):
                    t = take(name)
                    arr[p, t // 3, t % 3] += 1

    if piles is not None:
        assert len(piles) == B.NUM_PILES
        sizes = [len(pile) for pile in piles]
        seq = [take(name) for pile in piles for name in pile]
    else:
        seq = pool[: len(v.supply)]  # tokens beyond the piles' capacity leave the game
        del pool[: len(v.supply)]
        sizes = list(B.pile_sizes(len(seq)))
    for t in pool:  # left over: out of the game
        v.removed[t // 3, t % 3] += 1
    v.supply = -1
    v.supply[: len(seq)] = seq
    v.supply_drawn = 0
    v.pile_end = np.cumsum(sizes)

    # -- stalls
    v.stalls = 0
    for (city, p), k in (stalls or {}).items():
        v.stalls[CITY[city], p] = k
    for p in range(n):
        v.stall_supply[p] = B.STALLS_PER_PLAYER - int(v.stalls[:, p].sum())

    # -- money and turn
    for p in range(n):
        v.money[p] = (money or {}).get(p, 3)
    v.phase = ACTIONS
    v.active = active
    v.decider = active
    v.ship = CITY[ship]
    v.acted_here = acted_here
    v.round = round
    v.end_triggered = end_triggered
    GAME.validate_state(s)
    return s


def money_of(state) -> list:
    n = GAME.num_players(state)
    return [int(m) for m in StateView(state).money[:n]]


def stalls_at(state, city: str) -> list:
    n = GAME.num_players(state)
    return [int(k) for k in StateView(state).stalls[CITY[city], :n]]
