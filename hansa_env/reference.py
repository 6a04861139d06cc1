"""Hansa in plain Python: the readable reference implementation and differential oracle.

Written from the rules (`docs/rules/hansa.md`, ids H1..H30), the decisions (HA1..HA20;
docs/design.md §12) and the engine contract (`docs/hansa_engine.md`), independently of the
numba kernel. It uses the same RNG, setup order, decision points and state layout, so both
can be compared step by step: same seed and actions -> same states, masks, observations
and scores.

Token types are `colour * 3 + (barrels - 1)` (board.py); hands are counts per type.
"""

from __future__ import annotations

import copy
import operator

import numpy as np

from hansa_env import actions as A
from hansa_env import board as B
from hansa_env.observation import (
    MONEY_SCALE,
    PILE_SCALE,
    SCORE_SCALE,
    STALL_SCALE,
    TOKEN_SCALE,
    obs_names,
)
from hansa_env.state import (
    ACTIONS,
    GAME_OVER,
    LAYOUT,
    LOSS,
    MAX_SUPPLY,
    PHASE_NAMES,
    REFILL,
    SELLING,
    SETUP,
    STATE_SIZE,
    TAX,
    StateView,
)
from tradewinds.compensation import check_count, parse_schedule
from tradewinds.pyrng import SplitMix64
from tradewinds.reference import ReferenceGame, decode_table, is_int

NUM_CITIES = len(B.CITIES)
NUM_COLOURS = len(B.COLOURS)
NUM_TYPES = B.NUM_TOKEN_TYPES
BUILD_RULES = ("barrels", "per_stall")
# build_rule per_stall (the Danish summary, H20/HA8): "1, 2 or 3 stalls, one good per stall";
# the build is made token by token and may go on while fewer than this many are placed.
PER_STALL_LIMIT = 3
OBS_NAMES = tuple(obs_names())
OBS_INDEX = {name: i for i, name in enumerate(OBS_NAMES)}
# the entries of one seat's block ("p{r}:<field>", as seen from the observer at distance r)
SEAT_FIELDS = tuple(name[len("p0:"):] for name in OBS_NAMES if name.startswith("p0:"))
SEAT_FIELD_INDEX = {field: k for k, field in enumerate(SEAT_FIELDS)}
SEAT_ENTRIES = [np.array([OBS_INDEX[f"p{r}:{field}"] for field in SEAT_FIELDS])
                for r in range(B.MAX_PLAYERS)]
# a block of consecutive entries is written as a slice (the same entries, faster)
SEAT_SLOTS = [slice(int(e[0]), int(e[-1]) + 1) if (np.diff(e) == 1).all() else e
              for e in SEAT_ENTRIES]
# observation entry and field names built once (observe looks them up by name)
SHIP_ENTRIES = tuple(f"ship@{city}" for city in B.CITIES)
WAREHOUSE_ENTRIES = tuple(tuple(f"wh:{B.CITIES[city]}/{k}:{token}" for token in B.TOKEN_NAMES)
                          for city, k in B.WAREHOUSES)     # [slot][token type]
PILE_ENTRIES = tuple(f"pile{k + 1}_size" for k in range(B.NUM_PILES))
SALE_ENTRIES = tuple(f"sale:{token}" for token in B.TOKEN_NAMES)
LOSS_ENTRIES = tuple(f"loss_colour={colour}" for colour in B.COLOURS)
IN_PLAY_ENTRIES = tuple(f"colour_in_play:{colour}" for colour in B.COLOURS)
STALL_FIELDS = tuple(f"stalls@{city}" for city in B.CITIES)
HAND_FIELDS = tuple(f"hand:{token}" for token in B.TOKEN_NAMES)
SOLD_FIELDS = tuple(f"sold:{token}" for token in B.TOKEN_NAMES)
AT = {name: f.offset for name, f in LAYOUT.fields.items()}   # state field -> first index
# Cities reachable from each city along a one-way route (H15, HA1).
ROUTES_FROM = {
    c: tuple(sorted(B.CITIES.index(b) for a, b in B.ROUTES if a == name))
    for c, name in enumerate(B.CITIES)
}
# Warehouse slot indices of each city (HA2).
SLOTS_OF = {c: tuple(i for i, (wc, _) in enumerate(B.WAREHOUSES) if wc == c)
            for c in range(NUM_CITIES)}


def colour_of(token: int) -> int:
    return token // 3


def barrels_of(token: int) -> int:
    return token % 3 + 1


def types_of_colour(colour: int) -> range:
    return range(colour * 3, colour * 3 + 3)


def full_count(token: int) -> int:
    """How many tokens of this type exist (4 / 5 / 4 by barrels, H2)."""
    return B.TOKENS_PER_BARREL[token % 3]


# H29: a sold token scores 1 VP plus its barrels.
SOLD_VP = tuple(1 + barrels_of(t) for t in range(NUM_TYPES))
# Action id -> (kind, argument): the kind is the id block's first id (see `_decode`).
ACTION_BLOCKS = ((A.SETUP, NUM_CITIES), (A.SAIL, NUM_CITIES), (A.BUY, B.NUM_WAREHOUSES),
                 (A.BUILD, NUM_TYPES), (A.SELL_ADD, NUM_TYPES), (A.DISCARD, NUM_TYPES))
DECODED = decode_table(ACTION_BLOCKS, A.NUM_ACTIONS)
# The kinds of action each phase allows.
ALLOWED = {
    SETUP: (A.SETUP,), REFILL: (A.REFILL, A.SKIP_REFILL),
    ACTIONS: (A.SAIL, A.BUY, A.BUILD, A.SELL_ADD, A.END_ACTIONS),
    SELLING: (A.SELL_ADD, A.SELL_DONE), LOSS: (A.DISCARD,), TAX: (A.DISCARD,),
}


class Player:
    """One seat: talers, stall supply, stalls per city, held and sold tokens (H6, H22)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.money = B.START_MONEY
        self.stall_supply = B.STALLS_PER_PLAYER
        self.stalls = [0] * NUM_CITIES
        self.hand = [0] * NUM_TYPES
        self.sold = [0] * NUM_TYPES

    def held(self) -> int:
        return sum(self.hand)

    def held_of_colour(self, colour: int) -> int:
        return sum(self.hand[t] for t in types_of_colour(colour))

    def stalls_on_board(self) -> int:
        return sum(self.stalls)


class Market:
    """The 14 warehouse slots and the five supply piles, kept as one draw sequence (H3, H4)."""

    def __init__(self, warehouse: list, supply: list, pile_end: list, drawn: int = 0):
        self.warehouse = warehouse        # token type or None per slot
        self.supply = supply              # token types in draw order (drawn ones stay)
        self.pile_end = pile_end          # cumulative end index of piles 1..5
        self.drawn = drawn                # tokens drawn so far

    def supply_left(self) -> int:
        return len(self.supply) - self.drawn

    def pile_left(self, k: int) -> int:
        start = self.pile_end[k - 1] if k > 0 else 0
        return max(0, self.pile_end[k] - max(start, self.drawn))

    def empty_slots(self) -> list:
        return [i for i, t in enumerate(self.warehouse) if t is None]

    def draw(self) -> tuple:
        """Next token from the lowest non-empty pile; also whether it came from pile 5."""
        token = self.supply[self.drawn]
        from_last = self.drawn >= self.pile_end[B.NUM_PILES - 2]
        self.drawn += 1
        return token, from_last


class HansaGame(ReferenceGame):
    """A whole game of Hansa; see the module docstring and docs/hansa_engine.md.

    Choices where the contract is silent (kept identical in `to_state`):
    - during setup `active` is the seat whose placement it is;
    - at game over `active` keeps the seat of the last turn, `acted_here` is left as it was,
      and the observation marks no seat as active or decider;
    - drawn supply tokens stay in the `supply` field; `supply_drawn` is the read pointer;
    - `is_terminal()` is true for every finished game, truncated ones included.
    """

    STATE_SIZE = STATE_SIZE
    DECODED = DECODED
    action_name = staticmethod(A.name)

    def __init__(self, num_players: int, seed: int, build_rule: str = "barrels",
                 max_rounds: int = B.DEFAULT_MAX_ROUNDS, seat_talers=(), seat_vp=(),
                 setup_order: str = "forward"):
        if not is_int(num_players) or not B.MIN_PLAYERS <= num_players <= B.MAX_PLAYERS:
            raise ValueError(f"num_players must be an int in 2..4, got {num_players!r}")
        if not is_int(seed) or seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        if build_rule not in BUILD_RULES:
            raise ValueError(f"build_rule must be 'barrels' or 'per_stall', got {build_rule!r}")
        if not is_int(max_rounds) or not 1 <= max_rounds < 2**31:
            raise ValueError(f"max_rounds must be an int >= 1, got {max_rounds!r}")
        if not isinstance(setup_order, str) or setup_order not in B.SETUP_ORDERS:
            raise ValueError(f"setup_order must be one of {', '.join(B.SETUP_ORDERS)} (HA23), "
                             f"got {setup_order!r}")
        n = int(num_players)
        talers = self._schedule("seat_talers", seat_talers, n, B.SEAT_TALERS_LIMIT)
        self.num_players = n
        self.build_rule = build_rule
        self.setup_order = setup_order                    # HA23: who places when (H8)
        self.max_rounds = int(max_rounds)
        self.rng = SplitMix64(int(seed))
        self.players = [Player(p) for p in range(n)]
        for p in self.players:                           # HA21: seat p starts with more
            p.money += talers[p.seat]
        self.seat_vp = self._schedule("seat_vp", seat_vp, n, B.SEAT_VP_LIMIT)[:n]   # HA22
        self.ship = B.START_CITY                          # H5
        self.phase = SETUP
        self.acted_here = False
        self.build_count = 0                              # per_stall: stalls of this build
        self.round = 0
        self.turns = 0
        self.end_triggered = False
        self.truncated = False
        self.setup_step = 0
        self.sale = [0] * NUM_TYPES
        self._clear_loss()
        # H2, HA4: set aside k random colours.
        colours = list(range(NUM_COLOURS))
        self.rng.shuffle(colours)
        k = B.COLOURS_REMOVED[n]
        self.colour_in_play = [c not in colours[:k] for c in range(NUM_COLOURS)]
        self.removed = [0] * NUM_TYPES
        tokens = []
        for c in range(NUM_COLOURS):
            for t in types_of_colour(c):
                if self.colour_in_play[c]:
                    tokens += [t] * full_count(t)
                else:
                    self.removed[t] = full_count(t)
        # H3, H4, E1, E2, HA5: first fill in slot order, the rest is the pile sequence.
        self.rng.shuffle(tokens)
        rest = tokens[B.NUM_WAREHOUSES:]
        ends, total = [], 0
        for size in B.pile_sizes(len(rest)):
            total += size
            ends.append(total)
        self.market = Market(tokens[:B.NUM_WAREHOUSES], rest, ends)
        self.active = self._setup_seat()

    @staticmethod
    def _schedule(name: str, value, n: int, limit: int) -> tuple:
        """A per-seat option (HA21, HA22): one entry per seat, seat 0 first; () is zeros."""
        entries = parse_schedule(name, value, limit)
        check_count(name, value, n)
        return entries

    # ----------------------------------------------------------------- who decides

    def _setup_seat(self) -> int:
        """Seat of setup placement `setup_step` (H8): three passes over the seats. HA6
        (forward): 1..n, then n..1, then n..1; HA23 reverse: every pass mirrored, so the
        last seat places first; HA23 snake: 1..n, n..1, 1..n."""
        n = self.num_players
        up, down = list(range(n)), list(range(n - 1, -1, -1))
        passes = {"forward": (up, down, down), "reverse": (down, up, up),
                  "snake": (up, down, up)}[self.setup_order]
        return [seat for p in passes for seat in p][self.setup_step]

    def current_player(self) -> int:
        """The seat deciding now; -1 when the game is over."""
        if self.phase == GAME_OVER:
            return -1
        if self.phase == LOSS:
            return self.loss_seat
        return self.active

    def is_terminal(self) -> bool:
        """True once the game is over, by the end rule (H28) or by the round cap."""
        return self.phase == GAME_OVER

    def is_truncated(self) -> bool:
        """True if the game was stopped by `max_rounds` rather than by H28."""
        return self.truncated

    # ----------------------------------------------------------------- legality

    def _candidates(self) -> list[int]:
        """Every action that could be legal in this phase (a superset, sorted)."""
        held = [t for t in range(NUM_TYPES) if self.players[self.current_player()].hand[t]] \
            if self.phase != GAME_OVER else []
        if self.phase == SETUP:
            return [A.SETUP + c for c in range(NUM_CITIES)]
        if self.phase == REFILL:
            return [A.REFILL, A.SKIP_REFILL]
        if self.phase == ACTIONS:
            return ([A.SAIL + c for c in ROUTES_FROM[self.ship]]
                    + [A.BUY + s for s in SLOTS_OF[self.ship]]
                    + [A.BUILD + t for t in held] + [A.SELL_ADD + t for t in held]
                    + [A.END_ACTIONS])
        if self.phase == SELLING:
            return [A.SELL_ADD + t for t in held] + [A.SELL_DONE]
        if self.phase in (LOSS, TAX):
            return [A.DISCARD + t for t in held]
        return []

    def _illegal_reason(self, action: int) -> str | None:
        """Why `action` is illegal now, or None if it is legal."""
        kind, arg = self._decode(action)
        phase = self.phase
        if phase == GAME_OVER:
            return "the game is over"
        p = self.players[self.current_player()]
        if kind not in ALLOWED[phase]:
            return f"not allowed in phase {PHASE_NAMES[phase]} (seat {p.seat} to decide)"
        here = B.CITIES[self.ship]
        if kind == A.SETUP:
            if arg == B.COPENHAGEN:
                return "no setup placement in Copenhagen (H8)"
            if p.stalls[arg]:
                return f"seat {p.seat} already has stalls in {B.CITIES[arg]} (H8)"
        elif kind == A.SAIL:
            if arg not in ROUTES_FROM[self.ship]:
                return f"no route from {here} to {B.CITIES[arg]} (H15)"
            if p.money < 1:
                return f"sailing costs 1 taler and seat {p.seat} has none (H15)"
        elif kind == A.BUY:
            city = B.WAREHOUSES[arg][0]
            if city != self.ship:
                return f"the ship is in {here}, not {B.CITIES[city]} (H17)"
            if self.market.warehouse[arg] is None:
                return "that warehouse is empty (H19)"
            if self.acted_here:
                return f"already took an action during this visit to {here} (H18)"
            if self._majority(self.ship) != p.seat and p.money < 1:
                return f"the price is 1 taler and seat {p.seat} has none (H19)"
        elif kind == A.BUILD:
            if self.acted_here and not 0 < self.build_count < PER_STALL_LIMIT:
                return f"already took an action during this visit to {here} (H18)"
            if not p.hand[arg]:
                return f"seat {p.seat} holds no {B.TOKEN_NAMES[arg]} token"
            if p.stall_supply < 1:
                return "no stall left in supply (HA11)"
        elif kind == A.SELL_ADD:
            if phase == ACTIONS:
                if self.acted_here:
                    return f"already took an action during this visit to {here} (H18)"
                if not p.stalls[self.ship]:
                    return f"seat {p.seat} has no stall in {here} (H21)"
            if p.hand[arg] - self.sale[arg] < 1:
                return f"no unselected {B.TOKEN_NAMES[arg]} token in hand"
            if p.held_of_colour(colour_of(arg)) < 2:
                return f"fewer than 2 {B.COLOURS[colour_of(arg)]} tokens held (H21)"
        elif kind == A.SELL_DONE:
            picked = [self._sale_of_colour(c) for c in range(NUM_COLOURS)]
            if not any(picked):
                return "nothing selected for the sale"
            if any(0 < k < 2 for k in picked):
                return "every selected colour needs at least 2 selected tokens (H21, HA9)"
        elif kind == A.DISCARD:
            if not p.hand[arg]:
                return f"seat {p.seat} holds no {B.TOKEN_NAMES[arg]} token"
            if phase == LOSS and colour_of(arg) != self.loss_colour:
                return f"the loss must be {B.COLOURS[self.loss_colour]} (H23)"
        return None

    def _sale_of_colour(self, colour: int) -> int:
        return sum(self.sale[t] for t in types_of_colour(colour))

    def _majority(self, city: int) -> int:
        """Seat with strictly more stalls in `city` than every other seat, else -1."""
        counts = [pl.stalls[city] for pl in self.players]
        top = max(counts)
        return counts.index(top) if top > 0 and counts.count(top) == 1 else -1

    # ----------------------------------------------------------------- stepping

    def step(self, action: int) -> None:
        """Apply one decision, then all automatic work up to the next decision."""
        kind, arg = self._decided(action)
        p = self.players[self.current_player()]
        if kind == A.SETUP:
            self._place_setup(p, arg)
        elif kind == A.REFILL:
            self._refill()
            self.phase = ACTIONS
        elif kind == A.SKIP_REFILL:
            self.phase = ACTIONS
        elif kind == A.SAIL:
            p.money -= 1                                   # H15
            self.ship = arg
            self.acted_here = False                        # a new visit (H18)
            self.build_count = 0
        elif kind == A.BUY:
            self._buy(p, arg)
        elif kind == A.BUILD:
            self._build(p, arg)
        elif kind == A.SELL_ADD:
            self.sale[arg] += 1
            self.phase = SELLING
        elif kind == A.SELL_DONE:
            self._sell(p)
        elif kind == A.DISCARD:
            p.hand[arg] -= 1
            self.removed[arg] += 1
            if self.phase == LOSS:
                self._resolve_losses(self.loss_next, self.loss_pending)
            else:
                self._finish_tax()
        elif kind == A.END_ACTIONS:
            self.build_count = 0
            p.money = min(p.money, B.TAX_MONEY_LIMIT)      # H24
            self._finish_tax()

    def _place_setup(self, p: Player, city: int) -> None:
        """H8: two stalls into a new city; after 3n placements seat 0's first turn."""
        p.stall_supply -= B.STALLS_PER_PLACEMENT
        p.stalls[city] += B.STALLS_PER_PLACEMENT
        self.setup_step += 1
        if self.setup_step < B.SETUP_PLACEMENTS * self.num_players:
            self.active = self._setup_seat()
        else:
            self._start_turn(0)

    def _start_turn(self, seat: int) -> None:
        """Round count, new visit, income (H10), then phase 2 (H11, HA15)."""
        if seat == 0:
            if self.round == self.max_rounds:
                self.truncated = True
                self.phase = GAME_OVER
                return
            self.round += 1
        self.active = seat
        self.acted_here = False
        self.players[seat].money += B.INCOME
        empty = self.market.empty_slots()
        if not empty or self.market.supply_left() == 0:
            self.phase = ACTIONS
        elif len(empty) == B.NUM_WAREHOUSES:
            self._refill()                                 # mandatory (H11)
            self.phase = ACTIONS
        else:
            self.phase = REFILL

    def _refill(self) -> None:
        """H12, H13, HA15, HA16: pay 1, fill empty slots in order from the piles."""
        market = self.market
        slots = market.empty_slots()
        if not slots or not market.supply_left():
            return
        self.players[self.active].money -= 1
        for slot in slots:
            if not market.supply_left():
                break
            token, from_last = market.draw()
            market.warehouse[slot] = token
            if from_last:
                self.end_triggered = True

    def _buy(self, p: Player, slot: int) -> None:
        """H19: take the token; pay the majority holder, the bank (-1), or nothing."""
        receiver = self._majority(self.ship)
        if receiver != p.seat:
            p.money -= 1
            if receiver >= 0:
                self.players[receiver].money += 1
        token = self.market.warehouse[slot]
        self.market.warehouse[slot] = None
        p.hand[token] += 1
        self.acted_here = True

    def _build(self, p: Player, token: int) -> None:
        """H20, HA8, HA11: the token leaves the game; place stalls in the ship's city.
        per_stall: this token pays for one stall, and the same build may go on with further
        tokens (one stall each) up to PER_STALL_LIMIT stalls."""
        p.hand[token] -= 1
        self.removed[token] += 1
        if self.build_rule == "barrels":
            wanted = barrels_of(token)
        else:
            wanted = 1
            self.build_count += 1
        placed = min(wanted, p.stall_supply)
        p.stall_supply -= placed
        p.stalls[self.ship] += placed
        self.acted_here = True

    def _sell(self, p: Player) -> None:
        """H22: selected tokens to the sold pile, one stall home; then H23 losses."""
        colours = 0
        for t in range(NUM_TYPES):
            if self.sale[t]:
                p.hand[t] -= self.sale[t]
                p.sold[t] += self.sale[t]
                colours |= 1 << colour_of(t)
        self.sale = [0] * NUM_TYPES
        p.stalls[self.ship] -= 1
        p.stall_supply += 1
        self.acted_here = True
        self.loss_colours = colours
        self._resolve_losses(1, colours)

    def _resolve_losses(self, offset: int, pending: int) -> None:
        """H23, HA10: opponents after the seller, sold colours ascending; ask only when
        the opponent's tokens of that colour differ in barrels."""
        n = self.num_players
        while offset < n:
            opp = self.players[(self.active + offset) % n]
            while pending:
                colour = (pending & -pending).bit_length() - 1
                pending &= pending - 1
                kinds = [t for t in types_of_colour(colour) if opp.hand[t]]
                if len(kinds) == 1:
                    opp.hand[kinds[0]] -= 1
                    self.removed[kinds[0]] += 1
                elif len(kinds) > 1:
                    self.phase = LOSS
                    self.loss_next, self.loss_seat = offset, opp.seat
                    self.loss_colour, self.loss_pending = colour, pending
                    return
            offset += 1
            pending = self.loss_colours
        self._clear_loss()
        self.phase = ACTIONS

    def _clear_loss(self) -> None:
        self.loss_colours = self.loss_next = self.loss_pending = 0
        self.loss_seat = self.loss_colour = 0

    def _finish_tax(self) -> None:
        """H24: ask for discards while more than 3 held tokens, then end the turn."""
        p = self.players[self.active]
        if p.held() > B.TAX_GOODS_LIMIT:
            self.phase = TAX
            return
        self.turns += 1
        if self.end_triggered and p.seat == self.num_players - 1:   # H28, E9
            self.phase = GAME_OVER
        else:
            self._start_turn((p.seat + 1) % self.num_players)

    # ----------------------------------------------------------------- scoring

    def scores(self) -> list[int]:
        """H29: held 1 VP, sold 1 + barrels, city 2 VP (4 VP if alone there); plus the
        seat's compensation (HA22), which thereby decides winners too."""
        vp = [self.seat_vp[p.seat] + p.held() + sum(map(operator.mul, p.sold, SOLD_VP))
              for p in self.players]
        for c in range(NUM_CITIES):
            present = [p.seat for p in self.players if p.stalls[c]]
            for seat in present:
                vp[seat] += 4 if len(present) == 1 else 2
        return vp

    def winners(self) -> list[int]:
        """H30: most VP, then most stalls on the board; remaining ties share."""
        vp = self.scores()
        best = [p for p in self.players if vp[p.seat] == max(vp)]
        most = max(p.stalls_on_board() for p in best)
        return [p.seat for p in best if p.stalls_on_board() == most]

    # ----------------------------------------------------------------- observation

    def _view_of(self, player: int, shared: np.ndarray, blocks: list) -> np.ndarray:
        """Seat `player`'s observation, public (HA17: only pile contents are hidden): the
        shared entries, its seat number and every seat's block, relative to it (`p0` is the
        observer, `p1` the next seat, ...)."""
        obs = shared.copy()
        obs[OBS_INDEX["my_seat/3"]] = player / 3
        for r in range(self.num_players):
            obs[SEAT_SLOTS[r]] = blocks[(player + r) % self.num_players]
        return obs

    def _shared_view(self) -> np.ndarray:
        """The entries that are the same for every observer (the seat blocks left at 0)."""
        obs = np.zeros(len(OBS_NAMES), dtype=np.float32)

        def put(name: str, value: float) -> None:
            obs[OBS_INDEX[name]] = value              # KeyError for an unknown entry

        put(f"num_players={self.num_players}", 1)
        put(f"phase={PHASE_NAMES[self.phase]}", 1)
        put("round/max_rounds", self.round / self.max_rounds)
        put("end_triggered", self.end_triggered)
        put("acted_here", self.acted_here)
        put("build_count/3", self.build_count / PER_STALL_LIMIT)
        put(SHIP_ENTRIES[self.ship], 1)
        for slot, token in enumerate(self.market.warehouse):
            if token is not None:
                put(WAREHOUSE_ENTRIES[slot][token], 1)
        for k in range(B.NUM_PILES):
            put(PILE_ENTRIES[k], self.market.pile_left(k) / PILE_SCALE)
        for t in range(NUM_TYPES):
            if self.sale[t]:
                put(SALE_ENTRIES[t], self.sale[t] / TOKEN_SCALE)
        if self.phase == LOSS:
            put(LOSS_ENTRIES[self.loss_colour], 1)
        for c in range(NUM_COLOURS):
            put(IN_PLAY_ENTRIES[c], self.colour_in_play[c])
        return obs

    def _seat_blocks(self) -> list[np.ndarray]:
        """Each seat's block of entries (`SEAT_FIELDS`), the same whoever observes it."""
        vp = self.scores()
        over = self.phase == GAME_OVER
        decider = self.current_player()
        blocks = []
        for q in self.players:
            block = np.zeros(len(SEAT_FIELDS), dtype=np.float32)

            def put(field: str, value: float, block=block) -> None:
                block[SEAT_FIELD_INDEX[field]] = value  # KeyError for an unknown field

            put("present", 1)
            put("active", not over and q.seat == self.active)
            put("decider", q.seat == decider)
            put("money", q.money / MONEY_SCALE)
            put("stall_supply", q.stall_supply / STALL_SCALE)
            for c in range(NUM_CITIES):
                if q.stalls[c]:
                    put(STALL_FIELDS[c], q.stalls[c] / STALL_SCALE)
            for t in range(NUM_TYPES):
                if q.hand[t]:
                    put(HAND_FIELDS[t], q.hand[t] / TOKEN_SCALE)
                if q.sold[t]:
                    put(SOLD_FIELDS[t], q.sold[t] / TOKEN_SCALE)
            put("score", vp[q.seat] / SCORE_SCALE)
            blocks.append(block)
        return blocks

    # ----------------------------------------------------------------- state vector

    def clone(self) -> HansaGame:
        return copy.deepcopy(self)

    def state_values(self) -> list[int]:
        """`to_state()` as a list of ints, written by field offset (this runs at every step
        of the differential tests, which compare it with the kernel's `state.tolist()`)."""
        s = [0] * STATE_SIZE
        scalars = {
            "num_players": self.num_players, "phase": self.phase, "active": self.active,
            "decider": self.current_player(), "ship": self.ship,
            "acted_here": int(self.acted_here), "build_count": self.build_count,
            "round": self.round, "turns": self.turns, "end_triggered": int(self.end_triggered),
            "setup_step": self.setup_step, "build_rule": BUILD_RULES.index(self.build_rule),
            "setup_order": B.SETUP_ORDERS.index(self.setup_order),
            "max_rounds": self.max_rounds, "truncated": int(self.truncated),
            "supply_drawn": self.market.drawn, "loss_colours": self.loss_colours,
            "loss_next": self.loss_next, "loss_pending": self.loss_pending,
            "loss_seat": self.loss_seat, "loss_colour": self.loss_colour,
        }
        for name, value in scalars.items():
            s[AT[name]] = value
        lists = {   # written from the field's first entry (token types in type order)
            "rng": self.rng.words(),
            "sale": self.sale,
            "removed": self.removed,
            "colour_in_play": [int(x) for x in self.colour_in_play],
            "warehouse": [-1 if t is None else t for t in self.market.warehouse],
            "pile_end": self.market.pile_end,
            "supply": self.market.supply + [-1] * (MAX_SUPPLY - len(self.market.supply)),
            "seat_vp": self.seat_vp,
        }
        for name, values in lists.items():
            s[AT[name]: AT[name] + len(values)] = values
        for p in self.players:
            i = p.seat
            s[AT["money"] + i] = p.money
            s[AT["stall_supply"] + i] = p.stall_supply
            # stalls[city, seat]: one column per seat
            s[AT["stalls"] + i: AT["stalls"] + NUM_CITIES * B.MAX_PLAYERS: B.MAX_PLAYERS] = \
                p.stalls
            s[AT["hand"] + i * NUM_TYPES: AT["hand"] + (i + 1) * NUM_TYPES] = p.hand
            s[AT["sold"] + i * NUM_TYPES: AT["sold"] + (i + 1) * NUM_TYPES] = p.sold
        if len(s) != STATE_SIZE:
            raise AssertionError(f"state_values wrote {len(s)} entries, not {STATE_SIZE}")
        return s

    @classmethod
    def from_state(cls, state: np.ndarray) -> HansaGame:
        """Rebuild a game from a kernel-layout vector, validating it first."""
        cls._checked_vector(state)
        v = StateView(state.copy())
        _check_state(v)
        g = cls.__new__(cls)
        n = g.num_players = v.num_players
        g.build_rule = BUILD_RULES[v.build_rule]
        g.setup_order = B.SETUP_ORDERS[v.setup_order]
        g.max_rounds = v.max_rounds
        g.rng = SplitMix64(0)
        g.rng = SplitMix64.from_words(*v.rng)
        g.ship, g.phase, g.active = v.ship, v.phase, v.active
        g.acted_here = bool(v.acted_here)
        g.build_count = v.build_count
        g.round, g.turns, g.setup_step = v.round, v.turns, v.setup_step
        g.end_triggered, g.truncated = bool(v.end_triggered), bool(v.truncated)
        g.loss_colours, g.loss_next, g.loss_pending = v.loss_colours, v.loss_next, v.loss_pending
        g.loss_seat, g.loss_colour = v.loss_seat, v.loss_colour
        g.seat_vp = tuple(int(x) for x in v.seat_vp[:n])
        g.players = []
        for seat in range(n):
            p = Player(seat)
            p.money = int(v.money[seat])
            p.stall_supply = int(v.stall_supply[seat])
            p.stalls = [int(x) for x in v.stalls[:, seat]]
            p.hand = [int(x) for x in v.hand[seat].ravel()]
            p.sold = [int(x) for x in v.sold[seat].ravel()]
            g.players.append(p)
        g.sale = [int(x) for x in v.sale.ravel()]
        g.removed = [int(x) for x in v.removed.ravel()]
        g.colour_in_play = [bool(x) for x in v.colour_in_play]
        pile_end = [int(x) for x in v.pile_end]
        g.market = Market([None if t < 0 else int(t) for t in v.warehouse],
                          [int(t) for t in v.supply[:pile_end[-1]]], pile_end, v.supply_drawn)
        if g.current_player() != v.decider:
            raise ValueError(f"decider is {v.decider} but the rules give "
                             f"{g.current_player()} in phase {PHASE_NAMES[g.phase]}")
        if g.phase == SETUP and g.active != g._setup_seat():
            raise ValueError(f"active is {g.active} but setup placement {g.setup_step} "
                             f"belongs to seat {g._setup_seat()}")
        return g


def _check_state(v: StateView) -> None:
    """Ranges and conservation laws of a state vector; ValueError naming the field."""

    def need(ok, message: str) -> None:
        if not ok:
            raise ValueError(f"invalid Hansa state: {message}")

    n = v.num_players
    need(B.MIN_PLAYERS <= n <= B.MAX_PLAYERS, f"num_players={n} not in 2..4")
    need(0 <= v.phase <= GAME_OVER, f"phase={v.phase} not in 0..{GAME_OVER}")
    need(0 <= v.active < n, f"active={v.active} not a seat")
    need(0 <= v.ship < NUM_CITIES, f"ship={v.ship} not a city")
    for flag in ("acted_here", "end_triggered", "truncated", "build_rule"):
        need(getattr(v, flag) in (0, 1), f"{flag}={getattr(v, flag)} not 0/1")
    need(v.max_rounds >= 1, f"max_rounds={v.max_rounds} < 1")
    need(0 <= v.setup_order < len(B.SETUP_ORDERS),
         f"setup_order={v.setup_order} not one of {', '.join(B.SETUP_ORDERS)} by index")
    need(0 <= v.build_count <= PER_STALL_LIMIT,
         f"build_count={v.build_count} not in 0..{PER_STALL_LIMIT}")
    need(v.build_count == 0 or (v.build_rule == 1 and v.acted_here and v.phase == ACTIONS),
         "build_count is only kept by a per_stall build in phase actions")
    need(0 <= v.round <= v.max_rounds, f"round={v.round} not in 0..max_rounds")
    need(v.turns >= 0, f"turns={v.turns} negative")
    need(not v.truncated or v.phase == GAME_OVER, "truncated but not over")
    steps = B.SETUP_PLACEMENTS * n
    need(0 <= v.setup_step <= steps, f"setup_step={v.setup_step} not in 0..{steps}")
    need((v.phase == SETUP) == (v.setup_step < steps), "phase setup iff setup_step < 3n")
    for seat in range(B.MAX_PLAYERS):
        arrays = (v.money[seat], v.stall_supply[seat], v.stalls[:, seat],
                  v.hand[seat], v.sold[seat], v.seat_vp[seat])
        if seat >= n:
            need(all(not np.any(a) for a in arrays), f"unused seat {seat} not all zero")
            continue
        need(all(np.all(np.asarray(a) >= 0) for a in arrays), f"seat {seat} has negatives")
        need(v.stall_supply[seat] + v.stalls[:, seat].sum() == B.STALLS_PER_PLAYER,
             f"seat {seat} stalls do not add up to {B.STALLS_PER_PLAYER}")
    need(np.all(v.sale >= 0) and np.all(v.removed >= 0), "sale/removed negative")
    need(v.phase == SELLING or not np.any(v.sale), "sale outside phase selling")
    need(np.all((v.colour_in_play == 0) | (v.colour_in_play == 1)), "colour_in_play not 0/1")
    need(v.colour_in_play.sum() == NUM_COLOURS - B.COLOURS_REMOVED[n],
         "wrong number of colours in play")
    need(np.all((v.warehouse >= -1) & (v.warehouse < NUM_TYPES)), "warehouse entry out of range")
    ends = [int(x) for x in v.pile_end]
    starts = [0] + ends[:-1]
    need(all(0 <= a <= b for a, b in zip(starts, ends, strict=True)) and ends[-1] <= MAX_SUPPLY,
         f"pile_end={ends} not non-decreasing within 0..{MAX_SUPPLY}")
    need(np.all((v.supply[:ends[-1]] >= 0) & (v.supply[:ends[-1]] < NUM_TYPES))
         and np.all(v.supply[ends[-1]:] == -1), "supply entries out of range")
    need(0 <= v.supply_drawn <= ends[-1], f"supply_drawn={v.supply_drawn} out of range")
    loss = (v.loss_colours, v.loss_next, v.loss_pending, v.loss_seat, v.loss_colour)
    if v.phase == LOSS:
        need(1 <= v.loss_next < n and v.loss_seat == (v.active + v.loss_next) % n
             and 0 <= v.loss_colour < NUM_COLOURS and v.loss_colours >> v.loss_colour & 1
             and 0 <= v.loss_pending < 1 << NUM_COLOURS
             and v.loss_pending & ~v.loss_colours == 0, "loss fields inconsistent")
    else:
        need(not any(loss), "loss fields must be 0 outside phase loss")
    # Every token is somewhere exactly once (H2): 4 / 5 / 4 per type.
    where = v.removed.ravel() + v.hand.reshape(B.MAX_PLAYERS, -1).sum(0) \
        + v.sold.reshape(B.MAX_PLAYERS, -1).sum(0)
    where = where + np.bincount(v.warehouse[v.warehouse >= 0], minlength=NUM_TYPES)
    where = where + np.bincount(v.supply[v.supply_drawn:ends[-1]], minlength=NUM_TYPES)
    need(all(int(where[t]) == full_count(t) for t in range(NUM_TYPES)),
         "token counts per type are not 4/5/4")
    for c in range(NUM_COLOURS):
        if not v.colour_in_play[c]:
            need(all(v.removed.ravel()[t] == full_count(t) for t in types_of_colour(c)),
                 f"colour {B.COLOURS[c]} is set aside but has tokens in play")
