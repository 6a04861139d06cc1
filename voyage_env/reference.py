"""Voyage (Caravelas, Gil d'Orey 2010) in plain Python: the readable reference implementation.

Written from the rules (`docs/rules/voyage.md`, ids V1..V62, examples E1..E19), the
decisions (VA1..VA39; docs/design.md §12) and the engine contract (`docs/voyage_engine.md`),
independently of the numba kernel. It uses the same RNG (SplitMix64), the same order of
randomness, the same decision points and the same state layout (`state.py`), so the two can
be compared step by step: same seed and actions -> same states, masks, observations, scores.

Classes: `SplitMix64` (the shared generator), `Board` (the map as plain Python lists),
`Player` (one seat's fleet, discs, hand, cargo), `WindDeck` (draw pile and discard pile),
`VoyageGame` (the whole game; see its docstring for every choice the contract leaves open).
"""

from __future__ import annotations

import copy

import numpy as np

from tradewinds.compensation import check_count, parse_schedule
from tradewinds.pyrng import SplitMix64
from tradewinds.reference import ReferenceGame, decode_table, is_int
from voyage_env import actions as A
from voyage_env import board as B
from voyage_env import rules as R
from voyage_env.observation import (
    BUDGET_SCALE,
    DECK_SCALE,
    DISC_SCALE,
    DISCARD_SCALE,
    HAND_SCALE,
    STOCK_SCALE,
    TILE_SCALE,
    VP_SCALE,
    obs_names,
)
from voyage_env.state import (
    ARRIVAL_BLUE,
    ARRIVAL_NONE,
    ARRIVAL_RED,
    BID,
    CARD_NONE,
    CARD_OWN,
    CARD_REACTIONS,
    CARDS,
    GAME_OVER,
    LAYOUT,
    MONASTERY,
    MOVE,
    ORDER,
    PHASE_NAMES,
    PLAY,
    REACT,
    STATE_SIZE,
    UPGRADE,
    WRECK,
    StateView,
)

NUM_GOODS = len(B.GOODS)
NUM_KINDS = R.NUM_CARD_KINDS
TARGET_SLOTS = 2 * R.TARGETS_PER_DECK
MELAKA = "Melaka"
PHASES_OF_ACTIVE = (MOVE, PLAY, UPGRADE, MONASTERY, CARDS)
AT = {name: f.offset for name, f in LAYOUT.fields.items()}   # state field -> first index
# observation entry names built once (observe looks them up by name)
CARD_ENTRIES = tuple(f"card={c}" for c in R.CARD_KINDS)
DISCARD_ENTRIES = tuple(f"discard:{c}" for c in R.CARD_KINDS)
MY_HAND_ENTRIES = tuple(f"my_hand:{c}" for c in R.CARD_KINDS)
STOCK_ENTRIES = tuple(f"stock:{g}" for g in B.GOODS)
CUBE_FIELDS = tuple(f"cube:{g}" for g in B.GOODS)
WRECK_FIELDS = tuple(f"wrecked:ship{k + 1}" for k in range(R.NUM_SHIPS))
# Action id -> (kind, argument): the kind is the id block's first id (see `_decode`).
ACTION_BLOCKS = ((A.BID, R.UPGRADED_DISCS), (A.ORDER, 4), (A.MOVE, 6), (A.SHIELD, 6),
                 (A.BLACK, 6), (A.PLAY, NUM_KINDS), (A.WRECK, R.NUM_SHIPS),
                 (A.UPGRADE, NUM_GOODS))
DECODED = decode_table(ACTION_BLOCKS, A.NUM_ACTIONS)
# The kinds of action each phase allows.
ALLOWED = {
    BID: (A.BID_PASS, A.BID), ORDER: (A.ORDER,),
    MOVE: (A.MOVE, A.SHIELD, A.BLACK, A.DOCK, A.STOP), REACT: (A.MOVE, A.STOP),
    PLAY: (A.PLAY,), WRECK: (A.WRECK,), UPGRADE: (A.UPGRADE, A.UPGRADE_SKIP),
    MONASTERY: (A.MONASTERY_TAKE, A.MONASTERY_SELL),
    CARDS: (A.CARDS_TOP_UP, A.CARDS_NEW),
}


def card_name(kind: int) -> str:
    return R.CARD_KINDS[kind]


def is_storm(kind: int) -> bool:
    return R.STORM2 <= kind <= R.STORM4


def is_compass(kind: int) -> bool:
    return R.COMPASS <= kind < R.COMPASS + len(B.DIRS)


def playable(kind: int, available: int) -> bool:
    """V29, E8: a storm -N needs N available discs; every other card can always be played."""
    return not is_storm(kind) or available >= R.storm_value(kind)


def reach_of(kind: int) -> int:
    """V36-V37, VA9: how far the other players may move on this card (0: not at all)."""
    if is_storm(kind):
        return R.storm_value(kind)
    if is_compass(kind):
        return R.COMPASS_STEPS
    if kind == R.FAVOURABLE:
        return R.FAVOURABLE_REACH
    return 0


class Board:
    """A `VoyageMap` turned into plain lists (fast to index from Python), plus the
    observation names of this map. Shared, never modified, between clones."""

    def __init__(self, voyage_map: B.VoyageMap):
        m = voyage_map
        if not isinstance(m, B.VoyageMap):
            raise ValueError(f"voyage_map must be a board.VoyageMap, got {type(m).__name__}")
        if m.num_ports > R.MAX_PORTS:
            raise ValueError(f"the map has {m.num_ports} ports; the state holds at most "
                             f"{R.MAX_PORTS}")
        self.map = m
        self.num_hexes = m.num_hexes
        self.neighbors = [tuple(int(t) for t in row) for row in m.neighbors]
        self.current = [int(d) for d in m.current]
        self.port = [int(x) for x in m.port]
        self.pirate = [bool(x) for x in m.pirate]
        self.blue = [bool(x) for x in m.blue]
        self.red = [bool(x) for x in m.red]
        self.hemisphere = [int(x) for x in m.hemisphere]
        self.lisbon = int(m.lisbon)
        self.num_ports = m.num_ports
        self.port_name = tuple(m.port_name)
        self.port_vp = [int(x) for x in m.port_vp]
        self.port_deck = [int(x) for x in m.port_deck]
        self.port_good = [int(x) for x in m.port_good]
        self.port_hex = [int(x) for x in m.port_hex]
        self.melaka = self.port_hex[self.port_name.index(MELAKA)] \
            if MELAKA in self.port_name else -1
        self.obs_names = tuple(obs_names(self.num_hexes, self.port_name))
        self.obs_index = {name: i for i, name in enumerate(self.obs_names)}
        # per relative seat r: the index of each "p{r}:<field>" entry, by field
        self.seat_obs_index = [
            {name[len(f"p{r}:"):]: i for name, i in self.obs_index.items()
             if name.startswith(f"p{r}:")} for r in range(R.MAX_PLAYERS)]
        # entries named by port or hex, looked up once
        self.port_by_entry = [[self.obs_index[f"port:{name}:by=p{r}"]
                               for r in range(R.MAX_PLAYERS)] for name in self.port_name]
        self.my_target_entry = [self.obs_index[f"my_target:{name}"] for name in self.port_name]
        self.black_entry = [self.obs_index[f"black@{h}"] for h in range(self.num_hexes)]
        # one seat's block of entries: its fields, and where the block of relative seat r is
        self.seat_fields = tuple(self.seat_obs_index[0])
        self.seat_field_index = {field: k for k, field in enumerate(self.seat_fields)}
        self.ship_field = [self.seat_field_index[f"ship@{h}"] for h in range(self.num_hexes)]
        self.seat_entries = [np.array([self.seat_obs_index[r][field]
                                       for field in self.seat_fields])
                             for r in range(R.MAX_PLAYERS)]
        # a block of consecutive entries is written as a slice (the same entries, faster)
        self.seat_slots = [slice(int(e[0]), int(e[-1]) + 1) if (np.diff(e) == 1).all() else e
                           for e in self.seat_entries]

    def step_is_free(self, hex_from: int, direction: int) -> bool:
        """V15, VA29: a step is free iff the hex being left has a current arrow that way."""
        return self.current[hex_from] == direction


_BOARDS: dict = {}


def board_for(voyage_map=None) -> Board:
    """The `Board` of a map (the default map when None), built once per map object."""
    if voyage_map is None:
        if "default" not in _BOARDS:
            _BOARDS["default"] = Board(B.load_map())
        return _BOARDS["default"]
    entry = _BOARDS.get(id(voyage_map))
    if entry is None or entry.map is not voyage_map:
        entry = _BOARDS[id(voyage_map)] = Board(voyage_map)
    return entry


class Player:
    """One seat (V2, V43): ship hex, discs, bid, hand (counts per card kind), target cards
    (8 slots of port ids, -1 unused), cubes (0/1 per good), wrecks (0/1 per ship 0..3)."""

    def __init__(self, seat: int, ship: int = 0):
        self.seat = seat
        self.ship = ship
        self.discs = R.BASE_DISCS
        self.spent = 0
        self.bid = 0
        self.vp = 0
        self.upgraded = 0
        self.docked = 0
        self.attacked = 0
        self.tiles = 0
        self.best_tile = 0
        self.hand = [0] * NUM_KINDS
        self.targets = [-1] * TARGET_SLOTS
        self.cubes = [0] * NUM_GOODS
        self.wrecked = [0] * R.NUM_SHIPS

    @property
    def available(self) -> int:
        return self.discs - self.spent

    def hand_size(self) -> int:
        return sum(self.hand)

    def in_service(self, ship: int) -> bool:
        """Ships 1-3 always; ship 4 only after the upgrade (V2, V43)."""
        return ship < R.NUM_SHIPS - 1 or bool(self.upgraded)

    def wreck_candidates(self) -> list[int]:
        """VA12: the in-service ships that are not wrecked."""
        return [k for k in range(R.NUM_SHIPS) if self.in_service(k) and not self.wrecked[k]]

    def held_goods(self) -> list[int]:
        return [g for g in range(NUM_GOODS) if self.cubes[g]]

    def can_play_any(self, available: int, without: int = -1) -> bool:
        """Holds a card playable with `available` discs (one card of kind `without` set aside)."""
        for kind, count in enumerate(self.hand):
            if kind == without:
                count -= 1
            if count > 0 and playable(kind, available):
                return True
        return False


class WindDeck:
    """The face-down draw pile (`cards`, bottom first: the top is the last entry) and the
    face-up discard pile (`discard`, counts per kind). V7, VA16."""

    def __init__(self, cards: list, discard: list):
        self.cards = cards
        self.discard = discard

    def draw(self, rng: SplitMix64) -> int:
        """The top card, or -1 when deck and discard pile are both empty. An empty deck is
        first refilled from the discard pile: counts -> list in kind-id order -> shuffle."""
        if not self.cards:
            if not any(self.discard):
                return -1
            refill = [k for k in range(NUM_KINDS) for _ in range(self.discard[k])]
            self.discard = [0] * NUM_KINDS
            rng.shuffle(refill)
            self.cards = refill
        return self.cards.pop()


def _schedule(name: str, value, n: int, limit: int) -> tuple:
    """A per-position option (VA40, VA41): an entry per initial turn-order position, the
    first player first; () is zeros."""
    entries = parse_schedule(name, value, limit)
    check_count(name, value, n)
    return entries


def _check_settings(num_players, seed, simple_deck, black_ship, max_rounds, dice_movement,
                    rotate_order) -> None:
    """ValueError for a setting of the wrong type or range, or two that do not combine."""
    if not is_int(num_players) or not R.MIN_PLAYERS <= num_players <= R.MAX_PLAYERS:
        raise ValueError(f"num_players must be an int in 2..4, got {num_players!r}")
    if not is_int(seed) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an int in [0, 2**63), got {seed!r}")
    if not isinstance(simple_deck, (bool, np.bool_)):
        raise ValueError(f"simple_deck must be a bool, got {simple_deck!r}")
    if not isinstance(black_ship, (bool, np.bool_)):
        raise ValueError(f"black_ship must be a bool, got {black_ship!r}")
    if not isinstance(dice_movement, (bool, np.bool_)):
        raise ValueError(f"dice_movement must be a bool, got {dice_movement!r}")
    if dice_movement and simple_deck:
        raise ValueError("dice_movement and simple_deck do not combine: the dice variant "
                         "has no wind cards (VA39)")
    if not isinstance(rotate_order, (bool, np.bool_)):
        raise ValueError(f"rotate_order must be a bool, got {rotate_order!r}")
    if rotate_order and dice_movement:
        raise ValueError("rotate_order and dice_movement do not combine: the dice variant "
                         "already rotates the order (VA34, VA42)")
    if not is_int(max_rounds) or not 1 <= max_rounds < 2**31:
        raise ValueError(f"max_rounds must be an int >= 1, got {max_rounds!r}")


class VoyageGame(ReferenceGame):
    """A whole game of Voyage; see the module docstring and docs/voyage_engine.md.

    The state vector follows the contract's "Bookkeeping fields" section. Choices made here
    where the contract (rules, decisions, engine page) is still silent:

    Setup
    - Target cards: `k = min(4, len(deck) // n)` is computed per deck; a seat's west cards go
      to slots 0..3 and its east cards to slots 4..7, unused slots -1 (seats beyond n: all
      -1; every other per-seat field of an absent seat is 0).
    - `arrival_hex` starts at 0 (the zeroed vector) until the first own step.

    Bidding and ORDER (V10-V11, VA13)
    - The pass that ends an auction does not move `bid_turn` on: it keeps the position of
      that last passer (the contract keeps the final values until the next auction).
    - `order` keeps the previous order during ORDER; `new_order` collects the placements and
      replaces `order` when the last bidder is placed (non-bidders fill the free positions).

    Arrival and cards
    - `arrival_stage` is the next step of the own-step sequence still to do when a decision
      interrupts it: ARRIVAL_RED after a Black Ship attack (the red check comes next, whether
      or not the hex is red), ARRIVAL_BLUE after the die of a red hex; in PLAY the blue step
      is under way and the stage is already ARRIVAL_NONE (only the end check is left).
    - `compass_left` is set to 2 when a compass card is played or revealed ("own forced
      steps still to do", so also during the reactions) and counts down as the ship moves.
    - `react_k` is 1 when a card with reactions is played, the offset of the seat being
      considered while reactions run, and 0 from the own effect on (also for a calm).
    - The die is rolled for every attack or red hex even if no ship can be wrecked.
    - Black Ship attacks: a seat is marked `attacked` when its die is rolled; a queue from
      one Black Ship step holds every seat on the entered hex not yet attacked this round
      (docked ships included: the contract names no exception), rolled in turn order from
      the active player. A WRECK decision's seat is the `decider` field (no own field).
    - With `simple_deck`, a blue hex reveals the top card (an empty deck refills from the
      discard; nothing revealed: nothing happens); the card goes to the discard pile like a
      played one; a storm -N then takes min(N, available) discs (VA33).
    - `turn_over` is set by a calm and consumed by the end check at once (never seen at a
      decision point); `stop` ends the turn directly.
    - `is_terminal()` is true for a truncated game too; `is_truncated()` tells them apart.

    Dice movement (variant 2, V54; VA34; docs/voyage_engine.md "Dice movement")
    - No target cards are dealt and no wind deck is built: the setup draws only the turn
      order. There is no auction: the bid fields keep their neutral values, and from round
      2 on the turn order rotates (the first position becomes the last).
    - A turn starts by rolling two dice (`below(6) + 1`, twice) from the game's generator;
      their sum is the turn's movement points, kept in `discs` (`spent` counts what is
      used). Steps cost as with discs, a pirate space one point more (no protection: no
      cards). Unused points are lost at the end of the turn: `discs` and `spent` go back to
      0, so every seat but the one taking its turn shows 0.
    - Blue and red symbols are ignored: after the port and the Black Ship nothing is left of
      an own step (`arrival_stage` stays ARRIVAL_NONE).
    - Lisbon: the upgrade (3 different cubes) puts ship 4 in service and nothing else (there
      are no discs to add); no wind-card choice. The Black Ship costs 1 point per step and
      its attacks still roll the wreck die (V61 is no red symbol).
    - The end is unchanged (V49: the round of the last monastery tile, or the round cap);
      without target cards the final VP are the VP scored in play.

    Rotating start position (`rotate_order`, VA42)
    - From round 2 on, the order left by the round before (after its auction) rotates by
      one position before the bidding starts; the auction then runs on it as usual.
    """

    STATE_SIZE = STATE_SIZE
    DECODED = DECODED
    action_name = staticmethod(A.name)

    # ----------------------------------------------------------------- construction

    def __init__(self, num_players: int, seed: int, voyage_map=None, simple_deck=False,
                 black_ship=False, max_rounds: int = R.DEFAULT_MAX_ROUNDS,
                 dice_movement=False, seat_vp=(), seat_cards=(), rotate_order=False):
        _check_settings(num_players, seed, simple_deck, black_ship, max_rounds, dice_movement,
                        rotate_order)
        bonus_vp = _schedule("seat_vp", seat_vp, num_players, R.SEAT_VP_LIMIT)
        bonus_cards = _schedule("seat_cards", seat_cards, num_players, R.SEAT_CARDS_LIMIT)
        if any(bonus_cards) and (simple_deck or dice_movement):
            raise ValueError("seat_cards needs wind-card hands, which simple_deck and "
                             "dice_movement do not have (VA41)")
        self.board = board_for(voyage_map)
        if black_ship and self.board.melaka < 0:
            raise ValueError("black_ship needs a port named 'Melaka' on the map (V57); "
                             f"map {self.board.map.name!r} has none")
        self.simple_deck = bool(simple_deck)
        self.black_ship = bool(black_ship)
        self.dice_movement = bool(dice_movement)
        self.rotate_order = bool(rotate_order)            # VA42
        self.max_rounds = int(max_rounds)
        self.rng = SplitMix64(int(seed))
        self._set_up_table(int(num_players))
        # 1. V5: random starting turn order.
        self.order = list(range(self.num_players))
        self.rng.shuffle(self.order)
        for k, seat in enumerate(self.order):   # VA40: the score starts at the bonus
            self.players[seat].vp = bonus_vp[k]
        if self.dice_movement:       # V54: neither target cards nor wind cards
            self.deck = WindDeck([], [0] * NUM_KINDS)
            self._start_round()
            return
        self._deal_targets()                                            # 2. V3
        self.deck = WindDeck(self._shuffled_wind_cards(), [0] * NUM_KINDS)  # 3. V7
        for k, seat in enumerate(self.order):   # VA41: bonus cards in initial order
            for _ in range(bonus_cards[k]):
                self._draw_into(self.players[seat])
        self._start_round()

    def _set_up_table(self, n: int) -> None:
        """The fields of round 1 before anything is drawn: stock, players, no auction yet."""
        self.num_players = n
        self.round = 1
        self.truncated = False
        self.end_triggered = False
        self.tiles_total = R.TILES_BY_PLAYERS[n]          # V4
        self.tiles_taken = 0
        self.stock = [R.STOCK_PER_GOOD] * NUM_GOODS        # VA8
        self.discovered = [-1] * self.board.num_ports      # V23: discovering seat
        self.black_hex = self.board.melaka if self.black_ship else -1   # V57
        self.players = [Player(p, self.board.lisbon) for p in range(n)]  # V1
        if self.dice_movement:
            for p in self.players:
                p.discs = 0                  # V54: no discs; points are rolled each turn
        self._clear_pending()
        self.arrival_hex = 0
        self.phase = BID
        self.active = self.position = 0
        self.bid_high, self.bid_leader = 0, -1
        self.bid_passes = self.bid_turn = self.bid_raised = 0
        self.order_step = 0
        self.ranking = []
        self.new_order = []

    def _deal_targets(self) -> None:
        """V3: target cards, west deck then east deck, each shuffled, k to a seat."""
        decks = []
        for deck_id in (0, 1):
            cards = [i for i in range(self.board.num_ports) if self.board.port_deck[i] == deck_id]
            self.rng.shuffle(cards)
            decks.append(cards)
        n = self.num_players
        for deck_id, cards in enumerate(decks):
            k = min(R.TARGETS_PER_DECK, len(cards) // n)
            base = deck_id * R.TARGETS_PER_DECK
            for p in self.players:
                p.targets[base:base + k] = cards[k * p.seat:k * p.seat + k]

    def _shuffled_wind_cards(self) -> list[int]:
        """V7: the wind deck, kind by kind, shuffled; the top is the last entry."""
        cards = []
        for kind in range(NUM_KINDS):
            count = R.CARD_COUNTS[kind]
            if self.simple_deck and kind == R.CALM:
                count -= R.SIMPLE_DECK_CALMS_REMOVED      # VA33
            cards += [kind] * count
        self.rng.shuffle(cards)
        return cards

    def _clear_pending(self) -> None:
        """Neutral values of a turn's pending-work fields (contract, bookkeeping fields)."""
        self.arrival_stage = ARRIVAL_NONE
        self.card, self.card_stage, self.compass_left = -1, CARD_NONE, 0
        self.react_k, self.react_seat, self.react_budget = 0, -1, 0
        self.turn_over = False
        self.attack_queue = 0
        self.wreck_seat = -1
        self.upgrade_given = 0

    # ----------------------------------------------------------------- who decides

    def current_player(self) -> int:
        """The seat deciding now; -1 when the game is over."""
        if self.phase == GAME_OVER:
            return -1
        if self.phase == BID:
            return self.order[self.bid_turn]
        if self.phase == ORDER:
            return self.ranking[self.order_step]
        if self.phase == REACT:
            return self.react_seat
        if self.phase == WRECK:
            return self.wreck_seat
        return self.active

    def is_terminal(self) -> bool:
        """True once the game is over, by V49 or by the round cap."""
        return self.phase == GAME_OVER

    def is_truncated(self) -> bool:
        """True if the game was stopped by `max_rounds` rather than by V49."""
        return self.truncated

    def _me(self) -> Player:
        return self.players[self.active]

    # ----------------------------------------------------------------- legality

    def _candidates(self) -> list[int]:
        """Every action that could be legal in this phase (a superset, sorted)."""
        ph = self.phase
        if ph == BID:
            return list(range(A.BID_PASS, A.BID + R.UPGRADED_DISCS))
        if ph == ORDER:
            return list(range(A.ORDER, A.ORDER + self.num_players))
        if ph == MOVE:
            return list(range(A.MOVE, A.STOP + 1))
        if ph == REACT:
            return list(range(A.MOVE, A.MOVE + 6)) + [A.STOP]
        if ph == PLAY:
            return list(range(A.PLAY, A.PLAY + NUM_KINDS))
        if ph == WRECK:
            return list(range(A.WRECK, A.WRECK + R.NUM_SHIPS))
        if ph == UPGRADE:
            return list(range(A.UPGRADE, A.UPGRADE_SKIP + 1))
        if ph == MONASTERY:
            return [A.MONASTERY_TAKE, A.MONASTERY_SELL]
        if ph == CARDS:
            return [A.CARDS_TOP_UP, A.CARDS_NEW]
        return []

    def _step_cost(self, hex_from: int, direction: int, target: int, shield: bool) -> int:
        """V15-V18, VA27: 1 unless the step follows a current, +1 onto a pirate hex unless a
        favourable wind protects (V34)."""
        cost = 0 if self.board.step_is_free(hex_from, direction) else 1
        if self.board.pirate[target] and not shield:
            cost += 1
        return cost

    def _illegal_reason(self, action: int) -> str | None:
        """Why `action` is illegal now, or None if it is legal."""
        ph = self.phase
        if ph == GAME_OVER:
            return "the game is over"
        kind, arg = self._decode(action)
        seat = self.current_player()
        p = self.players[seat]
        if kind not in ALLOWED[ph]:
            return f"not allowed in phase {PHASE_NAMES[ph]} (seat {seat} to decide)"
        if ph == MOVE and p.available == 0 and kind not in (A.DOCK, A.STOP):
            return "no disc left: the ship moves no further, only dock or stop (V48c, VA21)"
        why = self._WHY_ILLEGAL.get(kind)
        return None if why is None else why(self, p, arg)

    # Each `_why_<kind>(p, arg)`: why that kind of action with argument `arg` is illegal
    # for `p`, the seat deciding, in a phase that allows it; None if it is legal.

    def _why_bid(self, p: Player, arg: int) -> str | None:
        total = arg + 1
        if total <= self.bid_high:
            return f"a raise must exceed the high bid {self.bid_high} (V10)"
        if total - p.bid > p.available:
            return (f"raising to {total} costs {total - p.bid} discs and seat {p.seat} has "
                    f"{p.available} available (V10)")
        return None

    def _why_order(self, p: Player, arg: int) -> str | None:
        if arg >= self.num_players:
            return f"there are only {self.num_players} positions"
        if self.new_order[arg] >= 0:
            return f"position {arg + 1} is already taken (V11)"
        return None

    def _why_move(self, p: Player, arg: int) -> str | None:
        b = self.board
        target = b.neighbors[p.ship][arg]
        if target < 0:
            return f"no sea passage {B.DIRS[arg]} from hex {p.ship} (V14)"
        if self.phase == REACT:
            if is_compass(self.card) and arg != self.card - R.COMPASS:
                return (f"a compass storm allows moves toward "
                        f"{B.DIRS[self.card - R.COMPASS]} only (V31, V37)")
            return None
        cost = self._step_cost(p.ship, arg, target, shield=False)
        if cost > p.available:
            return (f"the step costs {cost} disc(s) and seat {p.seat} has {p.available} "
                    "available (V16, V18)")
        if b.blue[target] and self._cards_in_hand() and not p.can_play_any(p.available - cost):
            return ("moving onto a blue space needs a wind card that can be played there "
                    "(V19, V29, E8)")
        return None

    def _why_shield(self, p: Player, arg: int) -> str | None:
        if self.simple_deck:
            return "no wind cards in hand with simple_deck (VA33)"
        if self.dice_movement:
            return "no wind cards in the dice variant (V54, VA34)"
        b = self.board
        target = b.neighbors[p.ship][arg]
        if target < 0:
            return f"no sea passage {B.DIRS[arg]} from hex {p.ship} (V14)"
        if not b.pirate[target]:
            return f"hex {target} is not a pirate space (V34)"
        if not p.hand[R.FAVOURABLE]:
            return f"seat {p.seat} holds no favourable wind (V34)"
        cost = self._step_cost(p.ship, arg, target, shield=True)
        if cost > p.available:
            return (f"the step costs {cost} disc and seat {p.seat} has {p.available} "
                    "available (V16)")
        if b.blue[target] and not p.can_play_any(p.available - cost, R.FAVOURABLE):
            return ("moving onto a blue space needs another wind card that can be played "
                    "there (V19, V29)")
        return None

    def _why_black(self, p: Player, arg: int) -> str | None:
        b = self.board
        if not self.black_ship:
            return "the Black Ship is not in this game (V56)"
        target = b.neighbors[self.black_hex][arg]
        if target < 0:
            return f"no sea passage {B.DIRS[arg]} from the Black Ship's hex (V14)"
        if b.hemisphere[target] != b.hemisphere[b.melaka]:
            return "the Black Ship may not cross the hemisphere line (V60)"
        if p.available < 1:
            return f"moving the Black Ship costs 1 disc and seat {p.seat} has none (V58)"
        return None

    def _why_dock(self, p: Player, arg: int) -> str | None:
        if p.ship != self.board.lisbon:
            return "the ship is not on the Lisbon space (V39, VA22)"
        return None

    def _why_play(self, p: Player, arg: int) -> str | None:
        if not p.hand[arg]:
            return f"seat {p.seat} holds no {card_name(arg)} card"
        if not playable(arg, p.available):
            return (f"{card_name(arg)} needs {R.storm_value(arg)} available discs and seat "
                    f"{p.seat} has {p.available} (V29, E8)")
        return None

    def _why_wreck(self, p: Player, arg: int) -> str | None:
        if arg not in p.wreck_candidates():
            return f"ship {arg + 1} is not an in-service, unwrecked ship (V21, VA12)"
        return None

    def _why_upgrade(self, p: Player, arg: int) -> str | None:
        if not p.cubes[arg]:
            return f"seat {p.seat} carries no {B.GOODS[arg]} cube (V43)"
        return None

    def _why_upgrade_skip(self, p: Player, arg: int) -> str | None:
        if self.upgrade_given:
            return "the upgrade was started: hand in 3 cubes (V43)"
        return None

    # The kinds that have a condition beyond the phase (the others are legal when allowed).
    _WHY_ILLEGAL = {A.BID: _why_bid, A.ORDER: _why_order, A.MOVE: _why_move,
                    A.SHIELD: _why_shield, A.BLACK: _why_black, A.DOCK: _why_dock,
                    A.PLAY: _why_play, A.WRECK: _why_wreck, A.UPGRADE: _why_upgrade,
                    A.UPGRADE_SKIP: _why_upgrade_skip}

    # ----------------------------------------------------------------- stepping

    def step(self, action: int) -> None:
        """Apply one decision, then every automatic consequence up to the next decision."""
        kind, arg = self._decided(action)
        seat = self.current_player()
        p = self.players[seat]
        if kind == A.BID_PASS:
            self.bid_passes += 1
            self._next_bidder()
        elif kind == A.BID:
            total = arg + 1
            p.spent += total - p.bid                      # V10, V12
            p.bid = self.bid_high = total
            self.bid_leader = seat
            self.bid_raised = 1
            self.bid_passes = 0
            self._next_bidder()
        elif kind == A.ORDER:
            self.new_order[arg] = seat
            self.order_step += 1
            self._ask_order()
        elif kind == A.MOVE and self.phase == REACT:
            self._react_step(p, arg)
        elif kind in (A.MOVE, A.SHIELD):
            self._own_step(p, arg, shield=kind == A.SHIELD)
        elif kind == A.BLACK:
            self._black_step(p, arg)
        elif kind == A.DOCK:
            self._dock()
        elif kind == A.STOP:
            if self.phase == REACT:
                self.react_budget = 0                     # this reaction is over
                self._proceed()
            else:
                self._end_turn()                          # V48a
        elif kind == A.PLAY:
            p.hand[arg] -= 1
            self.deck.discard[arg] += 1                   # V27
            self._start_card(arg)
            self._proceed()
        elif kind == A.WRECK:
            self._wreck(p, arg)
            self.wreck_seat = -1
            self._proceed()
        elif kind == A.UPGRADE:
            self._return_cube(p, arg)                     # V43: no VP
            self.upgrade_given += 1
            if self.upgrade_given == R.UPGRADE_CUBES:
                self.upgrade_given = 0
                p.upgraded = 1
                if not self.dice_movement:                # VA34: the dice replace discs
                    p.discs = R.UPGRADED_DISCS            # VA24: new discs available now
                self._dock_monastery()
        elif kind == A.UPGRADE_SKIP:
            self._dock_monastery()
        elif kind == A.MONASTERY_TAKE:
            self._take_tile(p)
            self._dock_sell()
        elif kind == A.MONASTERY_SELL:
            self._dock_sell()
        elif kind == A.CARDS_TOP_UP:
            self._fill_hand(p)                            # V45
            self._dock_finish()
        elif kind == A.CARDS_NEW:
            for k in range(NUM_KINDS):
                self.deck.discard[k] += p.hand[k]
                p.hand[k] = 0
            for _ in range(R.HAND_SIZE):
                self._draw_into(p)
            self._dock_finish()

    # ----------------------------------------------------------------- bidding (V10-V13)

    def _cards_in_hand(self) -> bool:
        """Players hold wind cards, except with the simple deck (V53) or the dice (V54)."""
        return not (self.simple_deck or self.dice_movement)

    def _start_round(self) -> None:
        """V9: the auction, then the turns. Dice variant (VA34): no auction; the turn order
        rotates by one position from round 2 on, then the first turn starts. VA42
        (rotate_order): the order rotates the same way, then the auction runs on it."""
        if not self.dice_movement:
            if self.rotate_order and self.round > 1:
                self.order = self.order[1:] + self.order[:1]
            self._start_bidding()
            return
        self.bid_high, self.bid_leader = 0, -1
        self.bid_passes = self.bid_turn = self.bid_raised = 0
        if self.round > 1:
            self.order = self.order[1:] + self.order[:1]
        self._start_turn(0)

    def _start_bidding(self) -> None:
        self.phase = BID
        self.bid_high, self.bid_leader = 0, -1
        self.bid_passes = self.bid_turn = self.bid_raised = 0
        self.position = 0
        self.active = self.order[0]

    def _next_bidder(self) -> None:
        """VA13: the auction ends after n-1 passes in a row following a raise (n passes if
        nobody raised); the high bidder's go is skipped and is no pass."""
        n = self.num_players
        needed = n - 1 if self.bid_raised else n
        if self.bid_passes >= needed:
            self._finish_auction()
            return
        self.bid_turn = (self.bid_turn + 1) % n
        if self.order[self.bid_turn] == self.bid_leader:
            self.bid_turn = (self.bid_turn + 1) % n
        self.active = self.order[self.bid_turn]

    def _finish_auction(self) -> None:
        """V11: bidders in decreasing bid order choose positions; no bidder: order stays."""
        bidders = sorted((p for p in self.players if p.bid > 0), key=lambda q: -q.bid)
        if not bidders:
            self._after_order()
            return
        self.ranking = [q.seat for q in bidders]
        self.new_order = [-1] * self.num_players
        self.order_step = 0
        self._ask_order()

    def _free_positions(self) -> list[int]:
        return [k for k in range(self.num_players) if self.new_order[k] < 0]

    def _ask_order(self) -> None:
        """Next bidder's position choice; automatic when one position is left. When every
        bidder is placed, the non-bidders fill the free positions in ascending order, keeping
        their previous relative order."""
        while self.order_step < len(self.ranking):
            seat = self.ranking[self.order_step]
            free = self._free_positions()
            if len(free) > 1:
                self.phase = ORDER
                self.active = seat
                return
            self.new_order[free[0]] = seat
            self.order_step += 1
        others = [s for s in self.order if s not in self.ranking]
        for k, seat in zip(self._free_positions(), others, strict=True):
            self.new_order[k] = seat
        self.order = self.new_order
        self.new_order, self.ranking, self.order_step = [], [], 0
        self._after_order()

    def _after_order(self) -> None:
        """V13: round 1 only, positions 0..n-1 draw 4, 5, 6, 7 cards; then the first turn."""
        if self.round == 1 and not self.simple_deck:
            for k, seat in enumerate(self.order):
                for _ in range(R.ROUND1_DEAL[k]):
                    self._draw_into(self.players[seat])
        self._start_turn(0)

    # ----------------------------------------------------------------- turns

    def _start_turn(self, position: int) -> None:
        """A player with no available disc has an empty turn (VA21). Dice variant: the turn
        starts with two dice rolled for the movement points (V54, VA34)."""
        self.position = position
        self.active = self.order[position]
        self.phase = MOVE
        me = self._me()
        if self.dice_movement:
            me.discs = sum(self.rng.below(R.DIE_FACES) + 1 for _ in range(R.MOVE_DICE))
        if me.available == 0:
            self._end_turn()

    def _end_turn(self) -> None:
        """V48: all discs back, draw up to 5 (VA14, VA15); next position or round end."""
        p = self._me()
        p.spent = 0
        if self.dice_movement:
            p.discs = 0                                   # unused points are lost
        elif not self.simple_deck:
            self._fill_hand(p)
        self._clear_pending()
        if self.position + 1 < self.num_players:
            self._start_turn(self.position + 1)
        else:
            self._end_round()

    def _end_round(self) -> None:
        """V49: the round in which the end was triggered is the last; else the round cap."""
        if self.end_triggered:
            self._game_over(truncated=False)
        elif self.round >= self.max_rounds:
            self._game_over(truncated=True)
        else:
            self.round += 1
            for p in self.players:
                p.docked = p.attacked = p.bid = 0
            self._start_round()

    def _game_over(self, truncated: bool) -> None:
        self.phase = GAME_OVER
        self.truncated = truncated
        self.position = self.num_players

    # ----------------------------------------------------------------- cards in hand

    def _draw_into(self, p: Player) -> bool:
        kind = self.deck.draw(self.rng)
        if kind < 0:
            return False
        p.hand[kind] += 1
        return True

    def _fill_hand(self, p: Player) -> None:
        """Draw until the hand holds 5; a bigger hand draws nothing (VA15)."""
        while p.hand_size() < R.HAND_SIZE and self._draw_into(p):
            pass

    # ----------------------------------------------------------------- movement

    def _own_step(self, p: Player, direction: int, shield: bool) -> None:
        """The arrival sequence of the contract: pay, port, Black Ship, red, blue, end check."""
        target = self.board.neighbors[p.ship][direction]
        cost = self._step_cost(p.ship, direction, target, shield)
        if shield:                                        # V34: affects nobody
            p.hand[R.FAVOURABLE] -= 1
            self.deck.discard[R.FAVOURABLE] += 1
        p.spent += cost
        p.ship = target
        self.arrival_hex = target
        self._enter_port(p, target)
        # V54: with the dice, blue and red symbols are ignored (no stage left after the port)
        self.arrival_stage = ARRIVAL_NONE if self.dice_movement else ARRIVAL_RED
        self._queue_attack_on_entry(p, target)
        self._proceed()

    def _react_step(self, p: Player, direction: int) -> None:
        """V37: a free step on another player's card; only ports and the Black Ship act."""
        target = self.board.neighbors[p.ship][direction]
        p.ship = target
        self.react_budget -= 1
        self._enter_port(p, target)
        self._queue_attack_on_entry(p, target)
        self._proceed()

    def _black_step(self, p: Player, direction: int) -> None:
        """V58-V61: 1 disc; every ship on the entered hex not yet attacked is attacked."""
        target = self.board.neighbors[self.black_hex][direction]
        p.spent += 1
        self.black_hex = target
        for q in self.players:
            if q.ship == target and not q.attacked:
                self.attack_queue |= 1 << q.seat
        self._proceed()

    def _queue_attack_on_entry(self, p: Player, target: int) -> None:
        """V61-V62: a ship entering the Black Ship's hex is attacked once per round."""
        if target == self.black_hex and not p.attacked:
            self.attack_queue |= 1 << p.seat

    def _enter_port(self, p: Player, hex_: int) -> None:
        """V22-V24, V30, V37: discovery (first entry scores the port's VP) and loading."""
        port = self.board.port[hex_]
        if port < 0:
            return
        if self.discovered[port] < 0:
            self.discovered[port] = p.seat
            p.vp += self.board.port_vp[port]
        good = self.board.port_good[port]
        if good >= 0 and not p.cubes[good] and self.stock[good] > 0:
            ship = R.ship_of(good)
            if p.in_service(ship) and not p.wrecked[ship]:
                p.cubes[good] = 1
                self.stock[good] -= 1

    # ----------------------------------------------------------------- pending work

    def _proceed(self) -> None:
        """Run the pending automatic work until the next decision: Black Ship attacks, the
        card's reactions, the card's own effect, the rest of the arrival, the end check."""
        while True:
            if self.attack_queue:
                if not self._run_attacks():
                    return
                continue
            if self.card_stage == CARD_REACTIONS:
                if not self._run_reactions():
                    return
                continue
            if self.card_stage == CARD_OWN:
                if not self._run_own_effect():
                    return
                continue
            if self.arrival_stage == ARRIVAL_RED:
                self.arrival_stage = ARRIVAL_BLUE
                if self.board.red[self.arrival_hex] and not self._roll_die(self._me()):
                    return                                # V20
                continue
            if self.arrival_stage == ARRIVAL_BLUE:
                self.arrival_stage = ARRIVAL_NONE
                if self.board.blue[self.arrival_hex]:     # V19
                    if not self.simple_deck:
                        self.phase = PLAY
                        return
                    kind = self.deck.draw(self.rng)       # V53
                    if kind >= 0:
                        self.deck.discard[kind] += 1
                        self._start_card(kind)
                continue
            # End check (V35, V48c, VA21); a ship that reached the Lisbon space with its
            # last disc may still enter the port (docking costs no disc).
            me = self._me()
            if self.turn_over or (me.available == 0 and me.ship != self.board.lisbon):
                self._end_turn()
            else:
                self.phase = MOVE
            return

    def _run_attacks(self) -> bool:
        """V61: queued seats roll in turn order from the active player. False = suspended."""
        n = self.num_players
        for k in range(n):
            seat = self.order[(self.position + k) % n]
            if self.attack_queue >> seat & 1:
                self.attack_queue &= ~(1 << seat)
                q = self.players[seat]
                q.attacked = 1
                if not self._roll_die(q):
                    return False
        return True

    def _roll_die(self, p: Player) -> bool:
        """V20-V21, VA11-VA12: 2 faces of 6 wreck one in-service ship; the owner chooses when
        there are several. False = suspended in WRECK."""
        if self.rng.below(R.DIE_FACES) >= R.WRECK_FACES:
            return True
        ships = p.wreck_candidates()
        if len(ships) == 1:
            self._wreck(p, ships[0])
        elif len(ships) > 1:
            self.phase = WRECK
            self.wreck_seat = p.seat
            return False
        return True

    def _wreck(self, p: Player, ship: int) -> None:
        """V21: the ship's two goods types are lost (back to stock, VA8)."""
        p.wrecked[ship] = 1
        for g in (2 * ship, 2 * ship + 1):
            if p.cubes[g]:
                self._return_cube(p, g)

    def _return_cube(self, p: Player, good: int) -> None:
        p.cubes[good] = 0
        self.stock[good] += 1

    # ----------------------------------------------------------------- wind cards

    def _start_card(self, kind: int) -> None:
        """V28: the others first (storms, compass, favourable), then the own effect."""
        self.card = kind
        self.compass_left = R.COMPASS_STEPS if is_compass(kind) else 0
        self.react_seat, self.react_budget = -1, 0
        if reach_of(kind):
            self.card_stage, self.react_k = CARD_REACTIONS, 1
        else:
            self.card_stage, self.react_k = CARD_OWN, 0

    def _can_react_step(self, p: Player) -> bool:
        if is_compass(self.card):
            return self.board.neighbors[p.ship][self.card - R.COMPASS] >= 0
        return True

    def _run_reactions(self) -> bool:
        """V36-V37, VA17, VA26: the seats after the active one in turn order (offset
        `react_k`), in the active ship's hemisphere now, not docked this round, each react in
        turn. False = a decision (REACT) is pending."""
        n = self.num_players
        me = self._me()
        while self.react_k < n:
            if self.react_seat < 0:
                q = self.players[self.order[(self.position + self.react_k) % n]]
                same = self.board.hemisphere[q.ship] == self.board.hemisphere[me.ship]
                if same and not q.docked:
                    self.react_seat = q.seat
                    self.react_budget = reach_of(self.card)
            if self.react_seat >= 0:
                if self.react_budget > 0 and self._can_react_step(self.players[self.react_seat]):
                    self.phase = REACT
                    return False
                self.react_seat, self.react_budget = -1, 0
            self.react_k += 1
        self.react_k = 0
        self.card_stage = CARD_OWN
        return True

    def _run_own_effect(self) -> bool:
        """V29-V35 for the card player. False = suspended (an attack's WRECK)."""
        p = self._me()
        kind = self.card
        if is_storm(kind):                                # V29 (VA33: min with simple_deck)
            p.spent += min(R.storm_value(kind), p.available)
        elif is_compass(kind):                            # V30
            d = kind - R.COMPASS
            while self.compass_left > 0:
                target = self.board.neighbors[p.ship][d]
                if target < 0:
                    self.compass_left = 0
                    break
                self.compass_left -= 1
                p.ship = target
                self._enter_port(p, target)
                self._queue_attack_on_entry(p, target)
                if self.attack_queue and not self._run_attacks():
                    return False
        elif kind == R.FAVOURABLE:                        # V33, VA10
            p.spent -= min(R.FAVOURABLE_REGAIN, p.spent)
        elif kind == R.CALM:                              # V35
            self.turn_over = True
        self.card, self.card_stage, self.compass_left = -1, CARD_NONE, 0
        return True

    # ----------------------------------------------------------------- Lisbon (V39-V47)

    def _dock(self) -> None:
        p = self._me()
        if not p.upgraded and len(p.held_goods()) >= R.UPGRADE_CUBES:
            self.phase = UPGRADE
            return
        self._dock_monastery()

    def _dock_monastery(self) -> None:
        p = self._me()
        if p.cubes[R.PEPPER] and self.tiles_taken < self.tiles_total:
            self.phase = MONASTERY
            return
        self._dock_sell()

    def _take_tile(self, p: Player) -> None:
        """V41: pepper for the lowest tile left, 10 VP; the last tile triggers the end (V49)."""
        self._return_cube(p, R.PEPPER)
        self.tiles_taken += 1
        p.tiles += 1
        if p.best_tile == 0:
            p.best_tile = self.tiles_taken
        p.vp += R.MONASTERY_VP
        if self.tiles_taken == self.tiles_total:
            self.end_triggered = True

    def _dock_sell(self) -> None:
        """V44: every remaining cube is sold, 5 or 10 VP."""
        p = self._me()
        for g in p.held_goods():
            p.vp += R.GOOD_VP[g]
            self._return_cube(p, g)
        if not self._cards_in_hand():                     # V45 needs a hand of cards
            self._dock_finish()
        else:
            self.phase = CARDS

    def _dock_finish(self) -> None:
        """V46-V47: discs back, wrecks repaired, docked for the round; the turn ends."""
        p = self._me()
        p.spent = 0
        p.wrecked = [0] * R.NUM_SHIPS
        p.docked = 1
        self._end_turn()

    # ----------------------------------------------------------------- scoring

    def target_vp(self, seat: int) -> int:
        """V51: 5 VP per own target card whose port carries the seat's monument."""
        return R.TARGET_VP * sum(
            1 for port in self.players[seat].targets if port >= 0 and self.discovered[port] == seat)

    def scores(self) -> list[int]:
        """V50-V51: in-play VP plus the target cards (at every state)."""
        return [p.vp + self.target_vp(p.seat) for p in self.players]

    def winners(self) -> list[int]:
        """V52, VA31: most VP; then most tiles; then the lowest tile held; else shared."""
        vp = self.scores()
        best = [p for p in self.players if vp[p.seat] == max(vp)]
        most = max(p.tiles for p in best)
        best = [p for p in best if p.tiles == most]
        if most > 0:
            low = min(p.best_tile for p in best)
            best = [p for p in best if p.best_tile == low]
        return [p.seat for p in best]

    # ----------------------------------------------------------------- observation

    def _view_of(self, player: int, shared: np.ndarray, blocks: list) -> np.ndarray:
        """Seat `player`'s observation (VA32): the shared entries, what only `player` sees
        (his hand, his target cards) or sees relative to himself (his position, who
        discovered each port), and every seat's block (`p0` is the observer, `p1` the next
        seat, ...)."""
        n = self.num_players
        b = self.board
        out = shared.copy()
        index = b.obs_index

        def put(name: str, value: float) -> None:
            if value:                      # every entry starts at 0
                out[index[name]] = value

        put("my_position", self.order.index(player) / 3)
        for port, seat in enumerate(self.discovered):
            if seat >= 0:                  # "port:<name>:by=p<seat relative to player>"
                out[b.port_by_entry[port][(seat - player) % n]] = 1
        me = self.players[player]
        for k in range(NUM_KINDS):
            put(MY_HAND_ENTRIES[k], me.hand[k] / HAND_SCALE)
        for port in me.targets:
            if port >= 0:
                out[b.my_target_entry[port]] = 1     # "my_target:<name>"
        for r in range(n):
            out[b.seat_slots[r]] = blocks[(player + r) % n]
        return out

    def _shared_view(self) -> np.ndarray:
        """The entries every seat sees alike (the rest left at 0)."""
        b = self.board
        out = np.zeros(len(b.obs_names), dtype=np.float32)
        index = b.obs_index

        def put(name: str, value: float) -> None:
            if value:                      # every entry starts at 0
                out[index[name]] = value

        put(f"num_players={self.num_players}", 1)
        put(f"phase={PHASE_NAMES[self.phase]}", 1)
        put("round/max_rounds", self.round / self.max_rounds)
        put("end_triggered", self.end_triggered)
        put("tiles_left", (self.tiles_total - self.tiles_taken) / TILE_SCALE)
        if self.card >= 0:
            put(CARD_ENTRIES[self.card], 1)
        if self.phase == REACT:
            put("react_budget", self.react_budget / BUDGET_SCALE)
        put("bid_high", self.bid_high / DISC_SCALE)
        put("deck_size", len(self.deck.cards) / DECK_SCALE)
        for k in range(NUM_KINDS):
            put(DISCARD_ENTRIES[k], self.deck.discard[k] / DISCARD_SCALE)
        for g in range(NUM_GOODS):
            put(STOCK_ENTRIES[g], self.stock[g] / STOCK_SCALE)
        if self.black_hex >= 0:
            out[b.black_entry[self.black_hex]] = 1   # "black@<hex>"
        return out

    def _seat_blocks(self) -> list[np.ndarray]:
        """Each seat's block of entries (`Board.seat_fields`), the same whoever observes it."""
        b = self.board
        over = self.phase == GAME_OVER
        decider = self.current_player()
        blocks = []
        for q in self.players:
            block = np.zeros(len(b.seat_fields), dtype=np.float32)

            def put(field: str, value: float, block=block) -> None:
                if value:
                    block[b.seat_field_index[field]] = value

            put("present", 1)
            put("active", not over and q.seat == self.active)
            put("decider", q.seat == decider)
            put(f"position={self.order.index(q.seat) + 1}", 1)
            block[b.ship_field[q.ship]] = 1                   # "ship@<hex>"
            put("hemisphere", b.hemisphere[q.ship])
            put("discs", q.discs / DISC_SCALE)
            put("available", q.available / DISC_SCALE)
            put("bid", q.bid / DISC_SCALE)
            put("vp", q.vp / VP_SCALE)
            put("upgraded", q.upgraded)
            put("docked", q.docked)
            put("attacked", q.attacked)
            put("tiles", q.tiles / TILE_SCALE)
            put("best_tile", q.best_tile / TILE_SCALE)
            put("hand_size", q.hand_size() / HAND_SCALE)
            for g in range(NUM_GOODS):
                put(CUBE_FIELDS[g], q.cubes[g])
            for k in range(R.NUM_SHIPS):
                put(WRECK_FIELDS[k], q.wrecked[k])
            blocks.append(block)
        return blocks

    def observation_names(self) -> tuple:
        return self.board.obs_names

    # ----------------------------------------------------------------- state vector

    def clone(self) -> VoyageGame:
        return copy.deepcopy(self, memo={id(self.board): self.board})

    def state_values(self) -> list[int]:
        """`to_state()` as a list of ints, written by field offset (this runs at every step
        of the differential tests, which compare it with the kernel's `state.tolist()`)."""
        s = [0] * STATE_SIZE
        n = self.num_players
        scalars = {
            "num_players": n, "phase": self.phase, "decider": self.current_player(),
            "active": self.active, "position": self.position, "round": self.round,
            "max_rounds": self.max_rounds, "truncated": int(self.truncated),
            "end_triggered": int(self.end_triggered), "simple_deck": int(self.simple_deck),
            "black_ship": int(self.black_ship), "dice_movement": int(self.dice_movement),
            "tiles_total": self.tiles_total, "tiles_taken": self.tiles_taken,
            "bid_high": self.bid_high, "bid_leader": self.bid_leader,
            "bid_passes": self.bid_passes, "bid_turn": self.bid_turn,
            "bid_raised": self.bid_raised, "order_step": self.order_step,
            "arrival_stage": self.arrival_stage, "arrival_hex": self.arrival_hex,
            "card": self.card, "card_stage": self.card_stage, "react_k": self.react_k,
            "react_seat": self.react_seat, "react_budget": self.react_budget,
            "compass_left": self.compass_left, "turn_over": int(self.turn_over),
            "attack_queue": self.attack_queue, "upgrade_given": self.upgrade_given,
            "black_hex": self.black_hex, "deck_size": len(self.deck.cards),
            "rotate_order": int(self.rotate_order),
        }
        for name, value in scalars.items():
            s[AT[name]] = value
        padded = {   # lists written from the field's first entry (the rest stays as filled)
            "rng": self.rng.words(),
            "order": self.order + [-1] * (R.MAX_PLAYERS - n),
            "ranking": self.ranking + [-1] * (R.MAX_PLAYERS - len(self.ranking)),
            "new_order": self.new_order + [-1] * (R.MAX_PLAYERS - len(self.new_order)),
            "discard": self.deck.discard,
            "stock": self.stock,
            "discovered": self.discovered + [-1] * (R.MAX_PORTS - len(self.discovered)),
            "targets": [-1] * (R.MAX_PLAYERS * TARGET_SLOTS),
            "deck": self.deck.cards,          # entries above deck_size stay 0
        }
        for name, values in padded.items():
            s[AT[name]: AT[name] + len(values)] = values
        for p in self.players:
            i = p.seat
            for name, value in (("ship", p.ship), ("discs", p.discs), ("spent", p.spent),
                                ("bid", p.bid), ("vp", p.vp), ("upgraded", p.upgraded),
                                ("docked", p.docked), ("attacked", p.attacked),
                                ("tiles", p.tiles), ("best_tile", p.best_tile)):
                s[AT[name] + i] = value
            for name, row in (("hand", p.hand), ("targets", p.targets), ("cubes", p.cubes),
                              ("wrecked", p.wrecked)):
                at = AT[name] + i * len(row)
                s[at: at + len(row)] = row
        if len(s) != STATE_SIZE:
            raise AssertionError(f"state_values wrote {len(s)} entries, not {STATE_SIZE}")
        return s

    @classmethod
    def from_state(cls, state: np.ndarray, voyage_map=None) -> VoyageGame:
        """Rebuild a game from a kernel-layout vector, validating it first (ValueError)."""
        cls._checked_vector(state)
        board = board_for(voyage_map)
        v = StateView(state.copy())
        _check_state(v, board)
        g = cls.__new__(cls)
        g.board = board
        n = g.num_players = v.num_players
        g.simple_deck, g.black_ship = bool(v.simple_deck), bool(v.black_ship)
        g.dice_movement = bool(v.dice_movement)
        g.rotate_order = bool(v.rotate_order)
        g.max_rounds, g.round = v.max_rounds, v.round
        g.truncated, g.end_triggered = bool(v.truncated), bool(v.end_triggered)
        g.rng = SplitMix64(0)
        g.rng = SplitMix64.from_words(*v.rng)
        g.phase, g.active, g.position = v.phase, v.active, v.position
        g.tiles_total, g.tiles_taken = v.tiles_total, v.tiles_taken
        g.bid_high, g.bid_leader = v.bid_high, v.bid_leader
        g.bid_passes, g.bid_turn, g.bid_raised = v.bid_passes, v.bid_turn, v.bid_raised
        g.order_step = v.order_step
        g.ranking = [int(x) for x in v.ranking if x >= 0]
        g.new_order = [int(x) for x in v.new_order[:n]] if v.phase == ORDER else []
        g.arrival_stage, g.arrival_hex = v.arrival_stage, v.arrival_hex
        g.card, g.card_stage, g.compass_left = v.card, v.card_stage, v.compass_left
        g.react_k, g.react_seat, g.react_budget = v.react_k, v.react_seat, v.react_budget
        g.turn_over = bool(v.turn_over)
        g.attack_queue = v.attack_queue
        g.wreck_seat = v.decider if v.phase == WRECK else -1
        g.upgrade_given, g.black_hex = v.upgrade_given, v.black_hex
        g.order = [int(x) for x in v.order[:n]]
        g.stock = [int(x) for x in v.stock]
        g.discovered = [int(x) for x in v.discovered[:board.num_ports]]
        g.deck = WindDeck([int(x) for x in v.deck[:v.deck_size]], [int(x) for x in v.discard])
        g.players = []
        for seat in range(n):
            p = Player(seat, int(v.ship[seat]))
            p.discs, p.spent, p.bid = int(v.discs[seat]), int(v.spent[seat]), int(v.bid[seat])
            p.vp, p.upgraded, p.docked = int(v.vp[seat]), int(v.upgraded[seat]), \
                int(v.docked[seat])
            p.attacked, p.tiles = int(v.attacked[seat]), int(v.tiles[seat])
            p.best_tile = int(v.best_tile[seat])
            p.hand = [int(x) for x in v.hand[seat]]
            p.targets = [int(x) for x in v.targets[seat]]
            p.cubes = [int(x) for x in v.cubes[seat]]
            p.wrecked = [int(x) for x in v.wrecked[seat]]
            g.players.append(p)
        _check_game(g, v)
        return g


# ----------------------------------------------------------------------------- validation


# Scalar fields that hold 0 or 1.
_BINARY_FLAGS = ("truncated", "end_triggered", "simple_deck", "black_ship", "dice_movement",
                 "rotate_order", "bid_raised", "turn_over")
# Per-seat fields, a scalar or a row for each seat; an unused seat holds zeros in all of them.
_SEAT_SCALARS = ("ship", "discs", "spent", "bid", "vp", "upgraded", "docked", "attacked",
                 "tiles", "best_tile")
_SEAT_ROWS = ("hand", "cubes", "wrecked")


def _need(ok, message: str) -> None:
    """A check of `_check_state`: ValueError with `message` when `ok` is false."""
    if not ok:
        raise ValueError(f"invalid Voyage state: {message}")


def _check_state(v: StateView, b: Board) -> None:
    """Ranges and conservation laws of a state vector; ValueError naming the field."""
    n = v.num_players
    dice = bool(v.dice_movement)
    _check_options_and_round(v, n)
    _check_turn_order(v, n)
    _check_tiles(v, n)
    _check_auction(v, n)
    _check_wind_cards(v, dice)
    _check_cubes_and_stock(v)
    _check_discovered(v, b, n)
    seen_targets = []
    for seat in range(R.MAX_PLAYERS):
        if seat >= n:
            _check_unused_seat(v, seat)
            continue
        _check_seat(v, b, seat, dice)
        seen_targets += _seat_targets(v, b, seat)
    _need(len(seen_targets) == len(set(seen_targets)), "a target card is dealt twice")
    if dice:
        _check_dice_variant(v, seen_targets)
    _check_black_ship(v, b)
    _check_own_step(v, b, n)
    _check_card_in_play(v)
    _need(0 <= v.upgrade_given < R.UPGRADE_CUBES,
          f"upgrade_given={v.upgrade_given} not in 0..{R.UPGRADE_CUBES - 1}")
    _check_reactions(v, n)
    _check_order_phase(v, n)


def _check_options_and_round(v: StateView, n: int) -> None:
    """Player count, phase, the 0/1 flags, the options and the round."""
    _need(R.MIN_PLAYERS <= n <= R.MAX_PLAYERS, f"num_players={n} not in 2..4")
    _need(0 <= v.phase <= GAME_OVER, f"phase={v.phase} not in 0..{GAME_OVER}")
    for flag in _BINARY_FLAGS:
        _need(getattr(v, flag) in (0, 1), f"{flag}={getattr(v, flag)} not 0/1")
    _need(not (v.dice_movement and v.simple_deck),
          "dice_movement and simple_deck do not combine (VA39)")
    _need(not (v.dice_movement and v.rotate_order),
          "rotate_order and dice_movement do not combine (VA42)")
    _need(v.max_rounds >= 1, f"max_rounds={v.max_rounds} < 1")
    _need(1 <= v.round <= v.max_rounds, f"round={v.round} not in 1..max_rounds")
    _need(not v.truncated or v.phase == GAME_OVER, "truncated but the game is not over")


def _check_turn_order(v: StateView, n: int) -> None:
    """The active seat, the position in the order, and the order itself."""
    _need(0 <= v.active < n, f"active={v.active} not a seat")
    _need(0 <= v.position <= n, f"position={v.position} not in 0..{n}")
    order = [int(x) for x in v.order]
    _need(sorted(order[:n]) == list(range(n)) and all(x == -1 for x in order[n:]),
          f"order={order} is not a permutation of the seats padded with -1")


def _check_tiles(v: StateView, n: int) -> None:
    """Monastery tiles: the count for n players, those taken, and the end trigger (V49)."""
    _need(v.tiles_total == R.TILES_BY_PLAYERS[n],
          f"tiles_total={v.tiles_total}, expected {R.TILES_BY_PLAYERS[n]} for {n} players")
    _need(0 <= v.tiles_taken <= v.tiles_total, f"tiles_taken={v.tiles_taken} out of range")
    _need(int(v.tiles.sum()) == v.tiles_taken, "tiles held do not add up to tiles_taken")
    _need(v.end_triggered == int(v.tiles_taken == v.tiles_total),
          "end_triggered must be 1 exactly when the last tile is taken (V49)")


def _check_auction(v: StateView, n: int) -> None:
    """The auction's scalars are in range."""
    _need(0 <= v.bid_high <= R.UPGRADED_DISCS, f"bid_high={v.bid_high} out of range")
    _need(-1 <= v.bid_leader < n, f"bid_leader={v.bid_leader} not a seat or -1")
    _need(0 <= v.bid_passes <= n and 0 <= v.bid_turn < n, "bid_passes/bid_turn out of range")


def _check_wind_cards(v: StateView, dice: bool) -> None:
    """Wind cards are conserved across deck, discard pile and hands, kind by kind."""
    _need(0 <= v.deck_size <= R.DECK_SIZE, f"deck_size={v.deck_size} out of range")
    deck = v.deck
    _need(np.all((deck[:v.deck_size] >= 0) & (deck[:v.deck_size] < NUM_KINDS))
          and np.all(deck[v.deck_size:] == 0),
          "deck entries must be card kinds below deck_size and 0 above")
    _need(np.all(v.discard >= 0) and np.all(v.hand >= 0), "negative card counts")
    total = R.DECK_SIZE - (R.SIMPLE_DECK_CALMS_REMOVED if v.simple_deck else 0)
    if dice:
        total = 0                                          # V54: no wind cards
    cards = v.deck_size + int(v.discard.sum()) + int(v.hand.sum())
    _need(cards == total, f"{cards} wind cards in deck, discard and hands, expected {total}")
    per_kind = np.bincount(deck[:v.deck_size], minlength=NUM_KINDS) + v.discard \
        + v.hand.sum(axis=0)
    expected = list(R.CARD_COUNTS) if not dice else [0] * NUM_KINDS
    if v.simple_deck:
        expected[R.CALM] -= R.SIMPLE_DECK_CALMS_REMOVED
        _need(not np.any(v.hand), "simple_deck: nobody holds wind cards (V53)")
    _need([int(x) for x in per_kind] == expected, "wind cards per kind do not match the deck")


def _check_cubes_and_stock(v: StateView) -> None:
    """Cubes are 0/1 per good and seat, and with the stock make 4 of each good."""
    _need(np.all((v.cubes == 0) | (v.cubes == 1)), "cubes must be 0/1 (V24)")
    _need(np.all(v.stock >= 0) and np.all(v.stock + v.cubes.sum(axis=0) == R.STOCK_PER_GOOD),
          "stock + carried cubes must be 4 per good (VA8)")


def _check_discovered(v: StateView, b: Board, n: int) -> None:
    """Each port of the map was discovered by a seat or nobody (-1)."""
    disc = [int(x) for x in v.discovered]
    _need(all(-1 <= x < n for x in disc[:b.num_ports])
          and all(x == -1 for x in disc[b.num_ports:]),
          "discovered must hold a seat or -1 (and -1 beyond the map's ports)")


def _check_unused_seat(v: StateView, seat: int) -> None:
    """A seat beyond the player count holds zeros (and no targets)."""
    scalars = [getattr(v, name)[seat] for name in _SEAT_SCALARS]
    rows = [getattr(v, name)[seat] for name in _SEAT_ROWS]
    _need(not any(scalars) and not any(np.any(a) for a in rows)
          and np.all(v.targets[seat] == -1),
          f"unused seat {seat} must be zero (targets -1)")


def _check_seat(v: StateView, b: Board, seat: int, dice: bool) -> None:
    """One player's ship, flags, discs, spent discs, bid, vp, tiles and fleet."""
    _need(0 <= v.ship[seat] < b.num_hexes, f"ship[{seat}]={v.ship[seat]} not a sea hex")
    _need(v.upgraded[seat] in (0, 1) and v.docked[seat] in (0, 1)
          and v.attacked[seat] in (0, 1), f"seat {seat}: flags must be 0/1")
    _check_discs(v, seat, dice)
    _need(0 <= v.spent[seat] <= v.discs[seat], f"seat {seat}: spent not in 0..discs")
    _need(0 <= v.bid[seat] <= R.UPGRADED_DISCS, f"seat {seat}: bid out of range")
    _need(v.vp[seat] >= 0, f"seat {seat}: negative vp")
    tiles, best = v.tiles[seat], v.best_tile[seat]
    _need(0 <= tiles and (best == 0) == (tiles == 0) and 0 <= best <= v.tiles_taken,
          f"seat {seat}: tiles/best_tile inconsistent")
    _check_fleet(v, seat)


def _check_discs(v: StateView, seat: int, dice: bool) -> None:
    """Discs: 9, or 12 once upgraded; in the dice variant the roll of the seat in turn."""
    if dice:   # the active seat's roll (2d6) during its turn, else 0 (VA34)
        turn = v.phase != GAME_OVER and seat == v.active
        _need(R.MOVE_DICE <= v.discs[seat] <= 6 * R.MOVE_DICE if turn else v.discs[seat] == 0,
              f"seat {seat}: discs={v.discs[seat]}: the dice variant holds the active "
              "seat's roll (2..12) and 0 for every other seat (VA34)")
    else:
        _need(v.discs[seat] == (R.UPGRADED_DISCS if v.upgraded[seat] else R.BASE_DISCS),
              f"seat {seat}: discs must be 9, or 12 once upgraded (V2, V43)")


def _check_fleet(v: StateView, seat: int) -> None:
    """Wrecked ships are in service, and cubes ride ships in service and afloat."""
    _need(np.all((v.wrecked[seat] == 0) | (v.wrecked[seat] == 1)),
          f"seat {seat}: wrecked must be 0/1")
    for k in range(R.NUM_SHIPS):
        in_service = k < R.NUM_SHIPS - 1 or v.upgraded[seat]
        _need(in_service or not v.wrecked[seat][k], f"seat {seat}: ship 4 wrecked before "
                                                    "it is in service (VA12)")
        cubes = v.cubes[seat][2 * k:2 * k + 2]
        _need(not np.any(cubes) or (in_service and not v.wrecked[seat][k]),
              f"seat {seat}: cubes on ship {k + 1}, which is wrecked or not in service")


def _seat_targets(v: StateView, b: Board, seat: int) -> list:
    """The target ports dealt to a seat; every entry is a port id or -1."""
    dealt = []
    for port in v.targets[seat]:
        _need(-1 <= port < b.num_ports, f"seat {seat}: target {port} not a port id")
        if port >= 0:
            dealt.append(int(port))
    return dealt


def _check_dice_variant(v: StateView, seen_targets: list) -> None:
    """The dice variant has no targets, auction, wind cards or blue/red spaces."""
    _need(not seen_targets, "the dice variant deals no target cards (V54)")
    _need(v.phase not in (BID, ORDER, PLAY, REACT, CARDS),
          f"phase {PHASE_NAMES[v.phase]} does not occur in the dice variant (VA34)")
    _need((v.bid_high, v.bid_leader, v.bid_passes, v.bid_turn, v.bid_raised) == (0, -1, 0, 0, 0)
          and not np.any(v.bid), "the dice variant has no auction: bid fields neutral (VA34)")
    _need(v.arrival_stage == ARRIVAL_NONE and v.card == -1,
          "the dice variant ignores blue and red spaces and plays no cards (V54)")


def _check_black_ship(v: StateView, b: Board) -> None:
    """The Black Ship sails its hemisphere (V60), and only with its option."""
    if v.black_ship:
        _need(b.melaka >= 0, "black_ship needs a port named 'Melaka' on the map")
        _need(0 <= v.black_hex < b.num_hexes
              and b.hemisphere[v.black_hex] == b.hemisphere[max(b.melaka, 0)],
              f"black_hex={v.black_hex} not a hex of the Black Ship's hemisphere (V60)")
    else:
        _need(v.black_hex == -1, "black_hex must be -1 without the black_ship option")


def _check_own_step(v: StateView, b: Board, n: int) -> None:
    """The pending attacks and the arrival being resolved."""
    _need(0 <= v.attack_queue < 1 << n, f"attack_queue={v.attack_queue} not a seat bitmask")
    _need(v.arrival_stage in (ARRIVAL_NONE, ARRIVAL_RED, ARRIVAL_BLUE),
          f"arrival_stage={v.arrival_stage} unknown")
    _need(-1 <= v.arrival_hex < b.num_hexes, f"arrival_hex={v.arrival_hex} not a sea hex or -1")
    _need(v.arrival_stage == ARRIVAL_NONE or v.arrival_hex >= 0,
          "an own step being resolved needs its arrival_hex")


def _check_card_in_play(v: StateView) -> None:
    """The card being resolved, its stage and the compass steps left."""
    _need(v.card_stage in (CARD_NONE, CARD_REACTIONS, CARD_OWN),
          f"card_stage={v.card_stage} unknown")
    _need(-1 <= v.card < NUM_KINDS, f"card={v.card} not a card kind or -1")
    _need((v.card >= 0) == (v.card_stage != CARD_NONE), "card and card_stage disagree")
    _need(0 <= v.compass_left <= R.COMPASS_STEPS and (v.compass_left == 0 or is_compass(v.card)),
          f"compass_left={v.compass_left} inconsistent with card={v.card}")


def _check_reactions(v: StateView, n: int) -> None:
    """The reaction fields, set exactly while reactions to a card run."""
    _need(0 <= v.react_k < n and -1 <= v.react_seat < n and v.react_budget >= 0,
          "react fields out of range")
    _need((v.react_k > 0) == (v.card_stage == CARD_REACTIONS),
          "react_k must be 1..n-1 exactly while reactions run")


def _check_order_phase(v: StateView, n: int) -> None:
    """Ranking, new order and order step: in range, and unused outside phase order."""
    for field in ("ranking", "new_order"):
        values = [int(x) for x in getattr(v, field)]
        _need(all(-1 <= x < n for x in values[:n]) and all(x == -1 for x in values[n:]),
              f"{field}={values} out of range")
        if v.phase != ORDER:
            _need(all(x == -1 for x in values), f"{field} must be -1 outside phase order")
    if v.phase != ORDER:
        _need(v.order_step == 0, "order_step must be 0 outside phase order")


def _check_game(g: VoyageGame, v: StateView) -> None:
    """Phase-specific consistency of a loaded game (the pending work must make sense)."""

    def need(ok, message: str) -> None:
        if not ok:
            raise ValueError(f"invalid Voyage state: {message}")

    n, ph = g.num_players, g.phase
    phase = PHASE_NAMES[ph]
    if ph in (BID, ORDER):
        need(g.position == 0, f"phase {phase}: position must be 0")
    if ph == BID:
        need(g.active == g.order[g.bid_turn], "phase bid: active must be the bidder at bid_turn")
        need(g.order[g.bid_turn] != g.bid_leader, "phase bid: the high bidder never has the go")
        need(not g.bid_raised or g.bid_leader >= 0, "phase bid: a raise without a leader")
    if ph == ORDER:
        bidders = sorted((p for p in g.players if p.bid > 0), key=lambda q: -q.bid)
        need(g.ranking == [p.seat for p in bidders],
             "phase order: ranking must list the bidders by decreasing bid")
        placed = sorted(x for x in g.new_order if x >= 0)
        need(g.order_step < len(g.ranking) and placed == sorted(g.ranking[:g.order_step])
             and g.active == g.ranking[g.order_step],
             "phase order: order_step/new_order/active inconsistent")
        need(len(g._free_positions()) > 1, "phase order: a single free position is automatic")
    if ph in PHASES_OF_ACTIVE or ph in (REACT, WRECK):
        need(g.position < n and g.active == g.order[g.position],
             f"phase {phase}: active is not order[position]")
    if ph == REACT:
        need(g.card_stage == CARD_REACTIONS and reach_of(g.card) > 0
             and g.react_seat == g.order[(g.position + g.react_k) % n]
             and g.react_budget > 0, "phase react: card/react fields inconsistent")
    elif ph != WRECK:
        need(g.react_seat == -1 and g.react_budget == 0,
             f"phase {phase}: react_seat/react_budget must be -1/0")
    if ph == WRECK:
        need(0 <= g.wreck_seat < n and len(g.players[g.wreck_seat].wreck_candidates()) > 1,
             "phase wreck: the decider must have several ships to choose from")
    if ph in (UPGRADE, MONASTERY, CARDS):
        need(g._me().ship == g.board.lisbon, f"phase {phase}: the ship must be in Lisbon")
    if ph == UPGRADE:
        p = g._me()
        need(not p.upgraded and len(p.held_goods()) >= R.UPGRADE_CUBES - g.upgrade_given,
             "phase upgrade: needs an unupgraded fleet with enough cubes")
    else:
        need(g.upgrade_given == 0, f"phase {phase}: upgrade_given must be 0")
    if ph == MONASTERY:
        need(g._me().cubes[R.PEPPER] and g.tiles_taken < g.tiles_total,
             "phase monastery: needs a pepper cube and a tile left")
    if ph == CARDS:
        need(not g.simple_deck, "phase cards does not exist with simple_deck")
    if ph == PLAY:
        need(not g.simple_deck and g.card == -1, "phase play: no card may be in resolution")
        need(g._me().can_play_any(g._me().available),
             "phase play: the active player holds no playable card (V19)")
    if ph == GAME_OVER:
        need(v.decider == -1 and g.position == n, "game over: decider -1 and position n")
    else:
        need(g.legal_actions(), f"phase {phase}: no legal action")
    need(v.decider == g.current_player(),
         f"decider is {v.decider} but the rules give {g.current_player()} in phase {phase}")
