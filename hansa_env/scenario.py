"""Hansa positions from readable fields, and back: `build(...)` and `describe(state)`.

    from hansa_env import scenario
    s = scenario.build(2, ship="Danzig", money={0: 4},
                       hands={0: ["red1", "red2", "blue3"], 1: ["red3"]},
                       stalls={"Danzig": {0: 2, 1: 1}, "Riga": {1: 2}},
                       warehouses={"Danzig": ["red1", None]})
    scenario.describe(s)["hands"]    # {0: ['red1', 'red2', 'blue3'], 1: ['red3']}

Names are those of `hansa_env.board`: cities as in `CITIES` ("Lubeck", "Copenhagen", ...),
tokens as in `TOKEN_NAMES` ("red2" = a red token with 2 barrels), colours as in `COLOURS`,
phases as in `state.PHASE_NAMES`; seats are 0..n-1.

How a position is made. The game of `seed` is dealt (`GAME.new_state`); its tokens in play
form a pool: the undrawn supply (in draw order), plus the dealt tokens of every warehouse
the caller sets. Every token the caller names (held, sold, on a warehouse, in a pile) is
taken from that pool, from the back of the supply first; when the pool has none of a
type left, it is taken off a warehouse the caller did not set, which gets the next pool
token instead (or stays empty when the pool is exhausted). What remains of the pool forms
the supply piles (`piles`, `pile_sizes`, or split as evenly as the rules split them); tokens
left over leave the game (the state's `removed` counts), so the 78 tokens are conserved.
Stalls given replace the setup stalls; each player's other stalls are in his supply.
Without `stalls`, the setup draft is the one where every placement takes the first legal
city. The result passes `GAME.validate_state`; anything inconsistent raises ValueError
naming the field and the value.

Positions where the game ends after one move: `end_triggered=True` (piles 1-4 empty, the
rest of pile 5 in `piles`/`pile_sizes`) with `active=num_players - 1`: the game is over when
that turn ends. Or phase "refill" with piles 1-4 empty (`pile_sizes=[0, 0, 0, 0, k]`): the
refill starts pile 5 and triggers the end (H27).

`describe(state)` returns the same fields (every seat and city listed), so
`build(**describe(s))` gives a state with the same observation for every seat, the same
legal actions and the same description (the supply keeps its order too; the generator state
and the drawn-token counter are not reproduced).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from hansa_env import board as B
from hansa_env.game import GAME, parse_options
from hansa_env.kernel import setup_seat
from hansa_env.state import (
    GAME_OVER,
    LOSS,
    PHASE_NAMES,
    REFILL,
    SELLING,
    SETUP,
    TAX,
    StateView,
)

CITY = {name: i for i, name in enumerate(B.CITIES)}
COLOUR = {name: i for i, name in enumerate(B.COLOURS)}
TOKEN = {name: i for i, name in enumerate(B.TOKEN_NAMES)}
PHASE = {name: i for i, name in enumerate(PHASE_NAMES)}
SLOTS = {c: [w for w, (cc, _) in enumerate(B.WAREHOUSES) if cc == c] for c in range(len(B.CITIES))}
TOKENS_PER_TYPE = np.tile(np.array(B.TOKENS_PER_BARREL), len(B.COLOURS))


def _err(field: str, msg: str) -> ValueError:
    return ValueError(f"scenario: {field}: {msg}")


def _as_int(field: str, value, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise _err(field, f"expected an integer, got {value!r}")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise _err(field, f"{v} is out of range ({rng})")
    return v


def _seat(field: str, value, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < n:
        raise _err(field, f"seat {value!r} is not a seat of a {n}-player game (0..{n - 1})")
    return int(value)


def _city(field: str, name) -> int:
    if name not in CITY:
        raise _err(field, f"unknown city {name!r} (cities: {', '.join(B.CITIES)})")
    return CITY[name]


def _colour(field: str, name) -> int:
    if name not in COLOUR:
        raise _err(field, f"unknown colour {name!r} (colours: {', '.join(B.COLOURS)})")
    return COLOUR[name]


def _token(field: str, name) -> int:
    if name not in TOKEN:
        raise _err(field, f"unknown token {name!r} (tokens look like 'red2': "
                          f"{', '.join(B.COLOURS)} with 1, 2 or 3 barrels)")
    return TOKEN[name]


def _tokens(field: str, spec) -> list:
    """A list of token names, or {name: count}, as a list of token type ids."""
    if spec is None:
        return []
    if isinstance(spec, str):
        raise _err(field, f"expected a list of token names, got the string {spec!r}")
    if isinstance(spec, Mapping):
        out = []
        for name, k in spec.items():
            t = _token(field, name)
            out += [t] * _as_int(f"{field}[{name!r}]", k, 0)
        return out
    return [_token(field, name) for name in spec]


def _per_seat(field: str, spec, n: int) -> dict:
    if spec is None:
        return {}
    if not isinstance(spec, Mapping):
        raise _err(field, f"expected a dict {{seat: ...}}, got {spec!r}")
    return {_seat(field, p, n): v for p, v in spec.items()}


def _draft_stalls(n: int, order: int) -> np.ndarray:
    """Stalls after the setup draft in which every placement takes the first legal city
    (`order`: the setup_order's index, HA23)."""
    stalls = np.zeros((len(B.CITIES), n), dtype=np.int64)
    for i in range(B.SETUP_PLACEMENTS * n):
        p = setup_seat(n, i, order)
        c = next(c for c in range(len(B.CITIES)) if c != B.COPENHAGEN and stalls[c, p] == 0)
        stalls[c, p] += B.STALLS_PER_PLACEMENT
    return stalls


def _setup_step(stalls: np.ndarray, n: int, order: int) -> int:
    """The number of draft placements that `stalls` shows (phase setup), or ValueError."""
    if stalls[B.COPENHAGEN].any():
        raise _err("stalls", "no stalls in Copenhagen during the setup draft (H8)")
    bad = [(B.CITIES[c], p, int(stalls[c, p])) for c in range(len(B.CITIES)) for p in range(n)
           if stalls[c, p] not in (0, B.STALLS_PER_PLACEMENT)]
    if bad:
        c, p, k = bad[0]
        raise _err("stalls", f"{c} seat {p} has {k}; setup placements put "
                             f"{B.STALLS_PER_PLACEMENT} stalls in a city")
    made = [int((stalls[:, p] > 0).sum()) for p in range(n)]
    for step in range(B.SETUP_PLACEMENTS * n):
        want = [0] * n
        for i in range(step):
            want[setup_seat(n, i, order)] += 1
        if want == made:
            return step
    raise _err("stalls", f"placements per seat {made} are not a point of the setup draft "
                         f"(setup_order {B.SETUP_ORDERS[order]!r}; H8, HA6, HA23)")


def build(num_players: int, *, seed: int = 0, phase: str = "actions", active: int | None = None,
          ship: str = "Lubeck", money=None, hands=None, stalls=None, warehouses=None,
          sold=None, round: int | None = None, acted_here: bool | None = None,
          end_triggered: bool = False, colours=None, piles=None, pile_sizes=None,
          sale=None, loss=None, truncated: bool = False, build_rule: str = "barrels",
          max_rounds: int = B.DEFAULT_MAX_ROUNDS, setup_order: str = "forward") -> np.ndarray:
    """A valid Hansa state from readable fields (module docstring for the details).

    - `phase`: "setup", "refill", "actions", "selling", "loss", "tax" or "over";
    - `active`: the seat whose turn it is (default 0; in "setup" the seat whose placement it
      is, derived from `stalls`);
    - `money`: {seat: talers}, seats not named get 3;
    - `hands`, `sold`: {seat: ["red1", "red2"]} (or {seat: {"red1": 2}});
    - `stalls`: {"Danzig": {0: 2, 1: 1}}; `warehouses`: {"Danzig": ["red1", None]}, one entry
      per warehouse of the city (None = empty), cities not named keep their dealt tokens;
    - `round` (default 1; 0 in setup), `acted_here` (default False; True in "loss"),
      `end_triggered` (pile 5 started: piles 1-4 must be empty);
    - `colours`: the colours in play (default: the seed's, changed only as far as the
      named tokens need);
    - `piles`: five lists of token names, the undrawn supply pile by pile in draw order; or
      `pile_sizes`: five counts filled from the pool;
    - `sale` ("selling"): the tokens selected so far;
    - `loss` ("loss"): {"seat": 1, "colour": "red", "colours": ["red", "blue"]}: the seat
      choosing which token of `colour` to give up, and the colours of the sale (default
      [colour]);
    - `truncated` ("over"): the game stopped at the round cap;
    - `build_rule`, `max_rounds`, `setup_order`: the game options (`setup_order`, HA23,
      decides who places next in "setup" and the draft of the default stalls).
    """
    n = GAME.check_players(num_players)
    ph = _phase_id(phase)
    _check_options(build_rule, max_rounds, setup_order)
    state = GAME.new_state(n, seed, build_rule=build_rule, max_rounds=max_rounds,
                           setup_order=setup_order)
    v = StateView(state)
    f = _read_fields(n, ship, money, hands, sold, sale, warehouses, piles, pile_sizes)
    named = f.named()
    loss_ids = _read_loss(loss, ph, phase)
    _set_colours(state, n, seed, colours, named, loss_ids[1])
    sizes = _set_tokens(v, f, _token_demand(named, f), end_triggered)
    _check_end_triggered(sizes, end_triggered, ph)
    board = _stalls_board(stalls, n, ph, int(v.setup_order))
    _set_stalls(v, board, n)
    _set_money(v, n, f.money)
    turn = _read_turn(n, ph, phase, active, round, acted_here, max_rounds)
    v.ship = f.ship
    v.end_triggered = int(bool(end_triggered))
    v.truncated = 0
    v.acted_here = int(bool(turn.acted_here))
    if ph == SETUP:
        _check_setup(v, n, turn.round_number, f.hands, f.sold, f.warehouses, f.money,
                     end_triggered)
        _set_setup_turn(v, n, board, turn)
    else:
        _set_turn(v, n, turn)
    v.phase = ph
    _check_phase(v, n, ph, phase, turn, f.sale, loss, loss_ids, sizes, truncated,
                 end_triggered)
    _validate(state)
    return state


# ------------------------------------------------------------ options and phase


def _phase_id(phase) -> int:
    """The id of a phase name."""
    if phase not in PHASE:
        raise _err("phase", f"unknown phase {phase!r} (phases: {', '.join(PHASE_NAMES)})")
    return PHASE[phase]


def _check_options(build_rule, max_rounds, setup_order) -> None:
    """The game options, checked as the game checks them."""
    try:
        parse_options(build_rule=build_rule, max_rounds=max_rounds, setup_order=setup_order)
    except ValueError as e:
        raise _err("options", str(e)) from None


def _validate(state) -> None:
    """The game's own validation, for a case the checks of `build` missed."""
    try:
        GAME.validate_state(state)
    except ValueError as e:
        raise _err("state", str(e)) from None


# ------------------------------------------------------------ readable -> ids


class _Fields(NamedTuple):
    """The caller's board fields as ids (seats, city, warehouse and token type numbers)."""

    ship: int
    money: dict              # seat -> talers, as given
    hands: dict              # seat -> token type ids
    sold: dict               # seat -> token type ids
    sale: list               # token type ids
    warehouses: dict         # warehouse -> token type id, -1 = empty
    piles: list | None       # five lists of token type ids
    pile_sizes: list | None  # five counts

    def named(self) -> list:
        """Every token the caller names, the sale included (it is also counted in a hand)."""
        return [t for ids in (*self.hands.values(), *self.sold.values(), self.sale,
                              [t for t in self.warehouses.values() if t >= 0],
                              *(self.piles or []))
                for t in ids]


def _read_fields(n, ship, money, hands, sold, sale, warehouses, piles, pile_sizes) -> _Fields:
    """The board fields as ids, read in this order (the first bad field is the one named)."""
    return _Fields(ship=_city("ship", ship),
                   money=_per_seat("money", money, n),
                   hands=_seat_tokens("hands", hands, n),
                   sold=_seat_tokens("sold", sold, n),
                   sale=_tokens("sale", sale),
                   warehouses=_warehouse_tokens(warehouses),
                   piles=_pile_tokens(piles),
                   pile_sizes=_pile_counts(pile_sizes, piles))


def _seat_tokens(field: str, spec, n: int) -> dict:
    """{seat: token names} as {seat: token type ids}."""
    return {p: _tokens(f"{field}[{p}]", t) for p, t in _per_seat(field, spec, n).items()}


def _warehouse_tokens(warehouses) -> dict:
    """{city: [token name or None, ...]} as {warehouse: token type id, -1 = empty}."""
    wh_spec = {}
    if warehouses is None:
        return wh_spec
    if not isinstance(warehouses, Mapping):
        raise _err("warehouses", f"expected a dict {{city: [token or None, ...]}}, "
                                 f"got {warehouses!r}")
    for name, tokens in warehouses.items():
        c = _city("warehouses", name)
        slots = SLOTS[c]
        if tokens is None or isinstance(tokens, str):
            tokens = [tokens]
        tokens = list(tokens)
        if len(tokens) != len(slots):
            raise _err(f"warehouses[{name!r}]",
                       f"{name} has {len(slots)} warehouse(s), got {len(tokens)} entries "
                       f"{tokens!r} (one token name or None per warehouse)")
        for w, t in zip(slots, tokens, strict=True):
            wh_spec[w] = -1 if t is None else _token(f"warehouses[{name!r}]", t)
    return wh_spec


def _pile_tokens(piles) -> list | None:
    """Five lists of token names as five lists of token type ids (None if not given)."""
    if piles is None:
        return None
    if isinstance(piles, (str, Mapping)) or len(piles) != B.NUM_PILES:
        raise _err("piles", f"expected {B.NUM_PILES} lists of token names, got {piles!r}")
    return [_tokens(f"piles[{k}]", pile) for k, pile in enumerate(piles)]


def _pile_counts(pile_sizes, piles) -> list | None:
    """Five pile sizes as integers (None if not given); not together with `piles`."""
    if pile_sizes is None:
        return None
    if piles is not None:
        raise _err("pile_sizes", "give piles or pile_sizes, not both")
    if isinstance(pile_sizes, (str, Mapping)) or len(pile_sizes) != B.NUM_PILES:
        raise _err("pile_sizes", f"expected {B.NUM_PILES} counts, got {pile_sizes!r}")
    return [_as_int(f"pile_sizes[{k}]", x, 0) for k, x in enumerate(pile_sizes)]


def _read_loss(loss, ph: int, phase: str) -> tuple[int, list]:
    """`loss` as (colour id, sorted colour ids of the sale); (-1, []) when not given."""
    if loss is None:
        return -1, []
    if ph != LOSS:
        raise _err("loss", f"only in phase 'loss', not {phase!r}")
    if not isinstance(loss, Mapping) or "seat" not in loss or "colour" not in loss:
        raise _err("loss", f"expected {{'seat': s, 'colour': c, 'colours': [...]}}, "
                           f"got {loss!r}")
    unknown = set(loss) - {"seat", "colour", "colours"}
    if unknown:
        raise _err("loss", f"unknown keys {sorted(unknown)}")
    loss_colour = _colour("loss['colour']", loss["colour"])
    loss_colours = sorted({_colour("loss['colours']", c)
                           for c in loss.get("colours", [loss["colour"]])})
    if loss_colour not in loss_colours:
        raise _err("loss", f"colour {loss['colour']!r} is not among the colours sold "
                           f"{loss.get('colours')!r}")
    return loss_colour, loss_colours


# ------------------------------------------------------------ colours in play


def _set_colours(state, n: int, seed: int, colours, named: list, loss_colours: list) -> None:
    """Put the colours in play that the position needs, redealing when they change."""
    v = StateView(state)
    col_ids = _colours_in_play(v, n, colours, named, loss_colours)
    if [c for c in range(len(B.COLOURS)) if v.colour_in_play[c]] != col_ids:
        _redeal(state, col_ids, seed)


def _colours_in_play(v, n: int, colours, named: list, loss_colours: list) -> list:
    """The sorted colour ids in play: `colours` as given, or else the seed's."""
    need_colours = sorted({t // 3 for t in named} | set(loss_colours))
    k_in = len(B.COLOURS) - B.COLOURS_REMOVED[n]
    if colours is not None:
        return _given_colours(colours, need_colours, n, k_in)
    return _seed_colours(v, need_colours, n, k_in)


def _given_colours(colours, need_colours: list, n: int, k_in: int) -> list:
    """The caller's `colours`: `k_in` different ones, holding every colour named."""
    if isinstance(colours, str):
        colours = [colours]
    col_ids = sorted({_colour("colours", c) for c in colours})
    if len(col_ids) != k_in or len(col_ids) != len(list(colours)):
        raise _err("colours", f"a {n}-player game has {k_in} different colours in play, "
                              f"got {list(colours)!r}")
    for c in need_colours:
        if c not in col_ids:
            raise _err("colours", f"colour {B.COLOURS[c]!r} is named in the position but "
                                  f"set aside (colours in play: {list(colours)})")
    return col_ids


def _seed_colours(v, need_colours: list, n: int, k_in: int) -> list:
    """The colours named, completed to `k_in` by the seed's colours, then the lowest."""
    dealt = [c for c in range(len(B.COLOURS)) if v.colour_in_play[c]]
    col_ids = list(need_colours)
    if len(col_ids) > k_in:
        raise _err("colours", f"the position names {len(col_ids)} colours "
                              f"({', '.join(B.COLOURS[c] for c in col_ids)}) but a "
                              f"{n}-player game has {k_in} in play")
    for c in dealt + list(range(len(B.COLOURS))):
        if len(col_ids) < k_in and c not in col_ids:
            col_ids.append(c)
    col_ids.sort()
    return col_ids


# ------------------------------------------------------------ tokens


def _token_demand(named: list, f: _Fields) -> np.ndarray:
    """How many tokens of each type the position names; no more than the game has."""
    demand = np.zeros(B.NUM_TOKEN_TYPES, dtype=np.int64)
    for t in named:
        demand[t] += 1
    for t in f.sale:          # the sale is part of the hand, not extra tokens
        demand[t] -= 1
    over = np.flatnonzero(demand > TOKENS_PER_TYPE)
    if over.size:
        raise _too_many_tokens(int(over[0]), demand, f)
    return demand


def _too_many_tokens(t: int, demand: np.ndarray, f: _Fields) -> ValueError:
    """The error for token type `t`, named more often than the game has it, per field."""
    where = [(f"hands[{p}]", ids) for p, ids in f.hands.items()]
    where += [(f"sold[{p}]", ids) for p, ids in f.sold.items()]
    where += [("warehouses", list(f.warehouses.values()))]
    where += [(f"piles[{k}]", ids) for k, ids in enumerate(f.piles or [])]
    fields = ", ".join(f"{field} {ids.count(t)}" for field, ids in where if t in ids)
    return _err("tokens", f"the position names {demand[t]} {B.TOKEN_NAMES[t]} tokens "
                          f"({fields}); the game has {TOKENS_PER_TYPE[t]}")


class _Pool:
    """The tokens in play that named tokens are taken from (module docstring): the undrawn
    supply, plus the dealt tokens of the warehouses the caller sets (which are emptied)."""

    def __init__(self, v, wh_spec: dict, demand: np.ndarray):
        self.wh = v.warehouse
        self.tokens = [int(t) for t in v.supply[v.supply_drawn: v.pile_end[4]]]
        for w in wh_spec:
            if self.wh[w] >= 0:
                self.tokens.append(int(self.wh[w]))
            self.wh[w] = -1
        self.free_slots = [w for w in range(B.NUM_WAREHOUSES) if w not in wh_spec]
        self.demand_left = demand.copy()    # named tokens not taken yet, per type

    def take(self, t: int, field: str) -> int:
        """A token of type `t`: from the back of the pool, else off a warehouse the caller
        did not set, which gets the first pool token no named token still needs."""
        pool, wh = self.tokens, self.wh
        for i in range(len(pool) - 1, -1, -1):
            if pool[i] == t:
                del pool[i]
                return t
        for w in reversed(self.free_slots):
            if wh[w] == t:
                wh[w] = -1
                for i, u in enumerate(pool):
                    if self.demand_left[u] <= 0:
                        wh[w] = pool.pop(i)
                        break
                return t
        raise _err(field, f"no {B.TOKEN_NAMES[t]} token left in play for it")  # not reached

    def take_all(self, ids: list, field: str) -> None:
        """Take the tokens `ids`, a field's named tokens, one by one."""
        for t in ids:
            self.demand_left[t] -= 1
            self.take(t, field)


def _set_tokens(v, f: _Fields, demand: np.ndarray, end_triggered) -> list:
    """Put the named tokens in place, the rest of the pool in the supply and out of the
    game; returns the pile sizes."""
    pool = _Pool(v, f.warehouses, demand)
    for w, t in f.warehouses.items():
        if t >= 0:
            pool.demand_left[t] -= 1
            pool.wh[w] = pool.take(t, "warehouses")
    v.hand[...] = 0
    v.sold[...] = 0
    _give_tokens(pool, f.hands, v.hand, "hands")
    _give_tokens(pool, f.sold, v.sold, "sold")
    seq, sizes = _supply_tokens(v, pool, f, end_triggered)
    _set_supply(v, seq, sizes, pool.tokens)
    return sizes


def _give_tokens(pool: _Pool, ids_by_seat: dict, counts, field: str) -> None:
    """Take each seat's tokens from the pool and count them in counts[seat, colour, barrels]."""
    for p, ids in ids_by_seat.items():
        pool.take_all(ids, f"{field}[{p}]")
        for t in ids:
            counts[p, t // 3, t % 3] += 1


def _supply_tokens(v, pool: _Pool, f: _Fields, end_triggered) -> tuple[list, list]:
    """The supply in draw order and its pile sizes: the given piles (taken from the pool),
    or the next pool tokens for `pile_sizes` (by default split as the rules split them, or
    all in pile 5 once the end is triggered)."""
    if f.piles is not None:
        for k, ids in enumerate(f.piles):
            pool.take_all(ids, f"piles[{k}]")
        return [t for ids in f.piles for t in ids], [len(ids) for ids in f.piles]
    pile_sizes = f.pile_sizes
    if pile_sizes is None:
        if end_triggered:
            last = B.pile_sizes(int(v.pile_end[4]))[4]
            pile_sizes = [0, 0, 0, 0, min(len(pool.tokens), last - 1)]
        else:
            pile_sizes = list(B.pile_sizes(min(len(pool.tokens), len(v.supply))))
    if sum(pile_sizes) > len(pool.tokens):
        raise _err("pile_sizes", f"{pile_sizes} need {sum(pile_sizes)} tokens but only "
                                 f"{len(pool.tokens)} are left for the supply")
    seq = pool.tokens[: sum(pile_sizes)]
    del pool.tokens[: sum(pile_sizes)]
    return seq, pile_sizes


def _set_supply(v, seq: list, sizes: list, left_over: list) -> None:
    """Lay out the supply piles; the tokens left over leave the game (the `removed` counts)."""
    if len(seq) > len(v.supply):
        raise _err("piles", f"{len(seq)} tokens do not fit the {len(v.supply)} supply places")
    for t in left_over:
        v.removed[t // 3, t % 3] += 1
    v.supply = -1
    v.supply[: len(seq)] = seq
    v.supply_drawn = 0
    v.pile_end = np.cumsum(sizes)


def _check_end_triggered(sizes: list, end_triggered, ph: int) -> None:
    """`end_triggered` agrees with the piles: set exactly once only pile 5 is left (H27)."""
    if end_triggered and sum(sizes[:4]) > 0:
        raise _err("end_triggered", f"True, but piles 1-4 still hold {sizes[:4]} tokens (the "
                                    f"end comes with the first draw from pile 5, H27)")
    if not end_triggered and ph != SETUP and sum(sizes) == 0:
        raise _err("end_triggered", "False, but the supply piles are empty (drawing the last "
                                    "pile ends the game, H27, HA16)")


# ------------------------------------------------------------ stalls and money


def _stalls_board(stalls, n: int, ph: int, order: int) -> np.ndarray:
    """The stalls on the board [city, seat]: as given, else those of the first-legal-city
    draft (none yet in setup); no seat has more than he owns."""
    if stalls is None:
        board = (np.zeros((len(B.CITIES), n), dtype=np.int64) if ph == SETUP
                 else _draft_stalls(n, order))
    else:
        board = _given_stalls(stalls, n)
    for p in range(n):
        if board[:, p].sum() > B.STALLS_PER_PLAYER:
            raise _err("stalls", f"seat {p} has {int(board[:, p].sum())} stalls on the board, "
                                 f"more than the {B.STALLS_PER_PLAYER} he owns")
    return board


def _given_stalls(stalls, n: int) -> np.ndarray:
    """{city: {seat: count}} as counts [city, seat]."""
    if not isinstance(stalls, Mapping):
        raise _err("stalls", f"expected a dict {{city: {{seat: count}}}}, got {stalls!r}")
    board = np.zeros((len(B.CITIES), n), dtype=np.int64)
    for name, per in stalls.items():
        c = _city("stalls", name)
        for p, k in _per_seat(f"stalls[{name!r}]", per, n).items():
            board[c, p] = _as_int(f"stalls[{name!r}][{p}]", k, 0)
    return board


def _set_stalls(v, board: np.ndarray, n: int) -> None:
    """The stalls on the board; each player's other stalls are in his supply."""
    v.stalls = 0
    v.stalls[:, :n] = board
    for p in range(n):
        v.stall_supply[p] = B.STALLS_PER_PLAYER - int(board[:, p].sum())


def _set_money(v, n: int, money_spec: dict) -> None:
    """Each seat's talers; seats not named get the starting money."""
    for p in range(n):
        v.money[p] = _as_int(f"money[{p}]", money_spec.get(p, B.START_MONEY), 0)


# ------------------------------------------------------------ turn and phase


class _Turn(NamedTuple):
    """Whose turn it is, in which round, and whether he has acted in the ship's city."""

    active: int            # 0 when not given
    active_given: bool
    round_number: int
    acted_here: bool


def _read_turn(n: int, ph: int, phase: str, active, round, acted_here, max_rounds) -> _Turn:
    """The turn fields, read in this order, with their phase defaults."""
    active_given = active is not None
    return _Turn(active=_seat("active", active, n) if active_given else 0,
                 active_given=active_given,
                 round_number=_read_round(round, ph, max_rounds),
                 acted_here=_read_acted_here(acted_here, ph, phase))


def _read_round(round, ph: int, max_rounds) -> int:
    """The round: 0 during the setup draft, counted from 1 after it."""
    if round is None:
        round = 0 if ph == SETUP else 1
    round_ = _as_int("round", round, 0, max_rounds)
    if ph != SETUP and round_ < 1:
        raise _err("round", f"{round_}: rounds count from 1 after the setup draft")
    return round_


def _read_acted_here(acted_here, ph: int, phase: str):
    """Whether the active seat has acted in the ship's city: by default only in "loss"."""
    if acted_here is None:
        return ph == LOSS
    if acted_here and ph in (SETUP, REFILL):
        raise _err("acted_here", f"True before the actions phase ({phase!r})")
    return acted_here


def _set_setup_turn(v, n: int, board: np.ndarray, turn: _Turn) -> None:
    """The draft placement that `board` shows, its seat active and deciding."""
    step = _setup_step(board, n, int(v.setup_order))
    v.setup_step = step
    v.active = v.decider = setup_seat(n, step, int(v.setup_order))
    if turn.active_given and turn.active != v.active:
        raise _err("active", f"{turn.active}, but placement {step + 1} of the draft is seat "
                             f"{v.active}'s")
    v.round = 0
    v.turns = 0


def _set_turn(v, n: int, turn: _Turn) -> None:
    """A turn after the setup draft: the active seat decides."""
    v.setup_step = B.SETUP_PLACEMENTS * n
    v.active = turn.active
    v.decider = turn.active
    v.round = turn.round_number
    v.turns = (turn.round_number - 1) * n + turn.active


def _check_phase(v, n: int, ph: int, phase: str, turn: _Turn, sale_ids: list, loss,
                 loss_ids: tuple, sizes: list, truncated, end_triggered) -> None:
    """The pending work of the phase makes sense; its fields are set."""
    if sale_ids and ph != SELLING:
        raise _err("sale", f"only in phase 'selling', not {phase!r}")
    if ph == REFILL:
        _check_refill(v, sizes)
    elif ph == SELLING:
        _check_sale(v, turn.active, sale_ids, turn.acted_here)
    elif ph == LOSS:
        _check_loss(v, n, turn.active, loss, *loss_ids, turn.acted_here)
    elif ph == TAX:
        _check_tax(v, turn.active)
    elif ph == GAME_OVER:
        _set_game_over(v, n, turn.round_number, truncated, end_triggered)
    if truncated and ph != GAME_OVER:
        raise _err("truncated", f"only in phase 'over', not {phase!r}")


def _check_refill(v, sizes: list) -> None:
    """A refill needs an empty warehouse, a full one, and tokens in the supply."""
    empty = int((v.warehouse < 0).sum())
    if empty == 0:
        raise _err("phase", "'refill' needs an empty warehouse (H11)")
    if empty == B.NUM_WAREHOUSES:
        raise _err("phase", "'refill' with every warehouse empty: the refill is "
                            "compulsory and automatic (H11)")
    if sum(sizes) == 0:
        raise _err("phase", "'refill' with empty supply piles (HA15)")


def _check_tax(v, p: int) -> None:
    """The tax falls on a seat with too many tokens and not too few talers (H24)."""
    held = int(v.hand[p].sum())
    if held <= B.TAX_GOODS_LIMIT:
        raise _err("phase", f"'tax' needs more than {B.TAX_GOODS_LIMIT} held tokens; seat "
                            f"{p} holds {held} (H24)")
    if v.money[p] > B.TAX_MONEY_LIMIT:
        raise _err("money", f"seat {p} has {int(v.money[p])} talers in phase "
                            f"'tax': the tax keeps {B.TAX_MONEY_LIMIT} (H24)")


def _set_game_over(v, n: int, round_: int, truncated, end_triggered) -> None:
    """A finished game: nobody decides; it ended by the piles or at the round cap."""
    v.decider = -1
    v.truncated = int(bool(truncated))
    v.turns = round_ * n
    if not truncated and not end_triggered:
        raise _err("phase", "'over' needs end_triggered=True or truncated=True")


def _redeal(state, col_ids, seed) -> None:
    """Deal the tokens of colours `col_ids` afresh (shuffled from `seed`), as init would."""
    v = StateView(state)
    v.colour_in_play = 0
    v.removed = 0
    tokens = []
    for c in range(len(B.COLOURS)):
        for b in range(3):
            if c in col_ids:
                tokens += [c * 3 + b] * B.TOKENS_PER_BARREL[b]
            else:
                v.removed[c, b] = B.TOKENS_PER_BARREL[b]
    for c in col_ids:
        v.colour_in_play[c] = 1
    tokens = list(np.random.default_rng(seed).permutation(tokens))
    v.warehouse = tokens[: B.NUM_WAREHOUSES]
    rest = tokens[B.NUM_WAREHOUSES:]
    v.supply = -1
    v.supply[: len(rest)] = rest
    v.supply_drawn = 0
    v.pile_end = np.cumsum(B.pile_sizes(len(rest)))


def _check_setup(v, n, round_, hand_ids, sold_ids, wh_spec, money_spec, end_triggered):
    if round_ != 0:
        raise _err("round", f"{round_}: the setup draft comes before round 1 (round 0)")
    if any(hand_ids.values()) or any(sold_ids.values()):
        raise _err("hands", "nobody holds or has sold tokens during the setup draft")
    if any(t < 0 for t in wh_spec.values()):
        raise _err("warehouses", "every warehouse holds a token during the setup draft (H3)")
    if any(m != B.START_MONEY for m in money_spec.values()):
        raise _err("money", f"every player has {B.START_MONEY} talers during the setup draft, "
                            f"got {money_spec}")
    if end_triggered:
        raise _err("end_triggered", "not during the setup draft")


def _check_sale(v, p, sale_ids, acted_here):
    if acted_here:
        raise _err("acted_here", "a sale in progress is this visit's action (must be False)")
    if not sale_ids:
        raise _err("sale", "phase 'selling' needs the tokens selected so far (sale=[...])")
    if v.stalls[v.ship, p] == 0:
        raise _err("sale", f"seat {p} has no stall in {B.CITIES[v.ship]} (H21)")
    chosen = np.zeros(B.NUM_TOKEN_TYPES, dtype=np.int64)
    for t in sale_ids:
        chosen[t] += 1
    hand = v.hand[p].reshape(-1)
    for t in np.flatnonzero(chosen):
        if chosen[t] > hand[t]:
            raise _err("sale", f"{int(chosen[t])} {B.TOKEN_NAMES[t]} selected but seat {p} "
                               f"holds {int(hand[t])}")
        if v.hand[p, t // 3].sum() < 2:
            raise _err("sale", f"seat {p} holds fewer than two {B.COLOURS[t // 3]} tokens (H21)")
    v.sale = chosen.reshape(len(B.COLOURS), 3)


def _check_loss(v, n, seller, loss, c, colours, acted_here):
    if loss is None:
        raise _err("loss", "phase 'loss' needs loss={'seat': s, 'colour': c, ...}")
    q = _seat("loss['seat']", loss["seat"], n)
    if q == seller:
        raise _err("loss['seat']", f"{q} is the seller (active); an opponent chooses the loss")
    if not acted_here:
        raise _err("acted_here", "the sale before a loss was this visit's action (must be True)")
    kinds = int((v.hand[q, c] > 0).sum())
    if kinds < 2:
        raise _err("loss", f"seat {q} holds {kinds} kind(s) of {B.COLOURS[c]} token: a choice "
                           f"needs two kinds or more (otherwise the loss is automatic, H23)")
    mask = 0
    for k in colours:
        mask |= 1 << k
    v.loss_colours = mask
    v.loss_pending = sum(1 << k for k in colours if k > c)
    v.loss_next = (q - seller) % n
    v.loss_seat = q
    v.loss_colour = c
    v.decider = q


def _names(counts) -> list:
    counts = np.asarray(counts).reshape(-1)
    return [B.TOKEN_NAMES[t] for t in range(B.NUM_TOKEN_TYPES) for _ in range(int(counts[t]))]


def describe(state) -> dict:
    """The readable fields of a state (the keywords of `build`, every seat and city listed).

    It reads the state as it is; `GAME.validate_state` says whether it is consistent."""
    v = StateView(state)
    n = v.num_players
    ph = v.phase
    wh, hand, sold, supply, stalls = v.warehouse, v.hand, v.sold, v.supply, v.stalls
    piles, start = [], 0
    for k in range(B.NUM_PILES):
        end = int(v.pile_end[k])
        lo = max(start, v.supply_drawn)
        piles.append([B.TOKEN_NAMES[t] for t in supply[lo:end]] if end > lo else [])
        start = end
    out = {
        "num_players": n,
        "phase": PHASE_NAMES[ph],
        "active": int(v.active),
        "ship": B.CITIES[v.ship],
        "money": {p: int(v.money[p]) for p in range(n)},
        "hands": {p: _names(hand[p]) for p in range(n)},
        "sold": {p: _names(sold[p]) for p in range(n)},
        "stalls": {B.CITIES[c]: {p: int(stalls[c, p]) for p in range(n) if stalls[c, p]}
                   for c in range(len(B.CITIES)) if stalls[c, :n].any()},
        "warehouses": {B.CITIES[c]: [None if wh[w] < 0 else B.TOKEN_NAMES[wh[w]]
                                     for w in SLOTS[c]]
                       for c in range(len(B.CITIES))},
        "round": int(v.round),
        "acted_here": bool(v.acted_here),
        "end_triggered": bool(v.end_triggered),
        "colours": [B.COLOURS[c] for c in range(len(B.COLOURS)) if v.colour_in_play[c]],
        "piles": piles,
        "build_rule": "per_stall" if v.build_rule == 1 else "barrels",
        "max_rounds": int(v.max_rounds),
        "setup_order": B.SETUP_ORDERS[v.setup_order],
    }
    if ph == SELLING:
        out["sale"] = _names(v.sale)
    if ph == LOSS:
        out["loss"] = {"seat": int(v.loss_seat), "colour": B.COLOURS[v.loss_colour],
                       "colours": [B.COLOURS[c] for c in range(len(B.COLOURS))
                                   if v.loss_colours >> c & 1]}
    if ph == GAME_OVER:
        out["truncated"] = bool(v.truncated)
    return out


__all__ = ["build", "describe"]
