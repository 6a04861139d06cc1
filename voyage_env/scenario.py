"""Voyage positions from readable fields, and back: `build(...)` and `describe(state)`.

For tests, search experiments ("one move to win") and bug reports::

    from voyage_env import scenario
    s = scenario.build(2, round=12, ships={0: "Lisbon"}, cubes={0: ["pepper", "chili"]},
                       tiles={1: [1, 2]}, active=0)

`build` starts from a real game (`Game.new_state(n, seed, options)`; the round-1 auction is
played with passes, so the round-1 deal has happened, unless a round-1 auction is asked
for), then sets the fields given and keeps every invariant: wind cards are conserved (a
card put in a hand or on the discard pile is taken from the deck, or from the hand of a
seat whose hand was not given, which is topped up again from the deck), cubes come from
the stock, target cards are dealt without duplicates, and so on. Anything inconsistent
raises ValueError naming the field and the value. The result passes
`Game.validate_state`, and the phase checks make sure the decider has a legal action.

Names: seats are 0..n-1; spaces (hexes) are sea-space indices, port names
(`board` port names), "Lisbon", or (col, row) cells; card kinds as in
`rules.CARD_KINDS` (storm2, compass_NE, favourable, ...); goods as in `board.GOODS`;
monastery tiles by number 1..n+1; ships by number 1..4; phases by `state.PHASE_NAMES`.

Fields not given keep their value in the started game: the seed's hands and target
cards, ships on Lisbon, no cubes, VP 0, ... . The default turn order is 0..n-1 (the
round-1 hands follow their positions: 4, 5, 6, 7 cards) and the default active seat is
the first in that order; seats before the active one in the order have had their turn.

With `dice_movement=True` (variant 2, VA34) there is no auction, no wind card and no target
card: `hands`, `discard`, `deck`, `deck_top`, `targets` and `bids` must be left out (or
empty), the phases "bid", "play" and "cards" do not exist, and `discs` gives the active
seat's movement points for this turn (2..12; default: the first roll of the started game;
every other seat holds 0).

`describe(state)` gives the fields back (every seat listed) in the same vocabulary, so
`build(**describe(state))` rebuilds a built state exactly (the generator word included).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from voyage_env import rules as R
from voyage_env.board import GOODS
from voyage_env.state import (
    BID,
    CARDS,
    GAME_OVER,
    MONASTERY,
    MOVE,
    PHASE_NAMES,
    PLAY,
    UPGRADE,
    StateView,
)

BUILDABLE = ("bid", "move", "play", "upgrade", "monastery", "cards")
_PHASE_ID = {"bid": BID, "move": MOVE, "play": PLAY, "upgrade": UPGRADE,
             "monastery": MONASTERY, "cards": CARDS}
_KIND = {k: i for i, k in enumerate(R.CARD_KINDS)}
_GOOD = {g: i for i, g in enumerate(GOODS)}
_M32 = (1 << 32) - 1


def _game(game):
    if game is None:
        from voyage_env import GAME
        return GAME
    return game


def _int(value, field, lo=None, hi=None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{field}: expected an integer, got {value!r}")
    if hi is None and lo is not None and value < lo:
        raise ValueError(f"{field}: {value!r} must be >= {lo}")
    if hi is not None and not lo <= value <= hi:
        raise ValueError(f"{field}: {value!r} not in {lo}..{hi}")
    return int(value)


class _Builder:
    """The map's vocabulary, for parsing and naming."""

    def __init__(self, game, n):
        self.game = game
        self.map = game.board
        self.n = n

    # ------------------------------------------------------------ parsing
    def seat(self, value, field) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not 0 <= value < self.n:
            raise ValueError(f"{field}: bad seat {value!r} for a {self.n}-player game "
                             f"(seats 0..{self.n - 1})")
        return int(value)

    def per_seat(self, mapping, field) -> dict:
        if mapping is None:
            return {}
        if not isinstance(mapping, dict):
            raise ValueError(f"{field}: expected a dict {{seat: value}}, got {mapping!r}")
        return {self.seat(p, field): x for p, x in mapping.items()}

    def seats(self, value, field) -> set:
        """A collection of seats (list, set, or dict seat -> bool)."""
        if value is None:
            return set()
        if isinstance(value, dict):
            return {self.seat(p, field) for p, on in value.items() if on}
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise ValueError(f"{field}: expected a list of seats, got {value!r}")
        return {self.seat(p, field) for p in value}

    def hex(self, value, field) -> int:
        m = self.map
        if isinstance(value, str):
            if value == "Lisbon":
                return int(m.lisbon)
            if value in m.port_name:
                return int(m.port_hex[m.port_name.index(value)])
            raise ValueError(f"{field}: unknown port or space {value!r} (a port name of map "
                             f"{m.name!r}, 'Lisbon', a sea-space index or (col, row))")
        if isinstance(value, (tuple, list)) and len(value) == 2:
            c, r = (_int(x, field) for x in value)
            h = m.hex_at(c, r)
            if h < 0:
                raise ValueError(f"{field}: {tuple(value)!r} is land or off the board, "
                                 "not a sea space")
            return h
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{field}: a space is a port name, 'Lisbon', a sea-space index "
                             f"or (col, row), got {value!r}")
        if not 0 <= value < m.num_hexes:
            raise ValueError(f"{field}: sea-space index {value!r} not in 0..{m.num_hexes - 1}")
        return int(value)

    def port(self, value, field) -> int:
        if not isinstance(value, str) or value not in self.map.port_name:
            raise ValueError(f"{field}: unknown port {value!r} on map {self.map.name!r}")
        return self.map.port_name.index(value)

    @staticmethod
    def kind(value, field) -> int:
        if value not in _KIND:
            raise ValueError(f"{field}: unknown card kind {value!r} "
                             f"(one of {', '.join(R.CARD_KINDS)})")
        return _KIND[value]

    @staticmethod
    def good(value, field) -> int:
        if value not in _GOOD:
            raise ValueError(f"{field}: unknown good {value!r} (one of {', '.join(GOODS)})")
        return _GOOD[value]

    def cards(self, value, field) -> np.ndarray:
        """Counts per kind from {kind: count} or a list of kind names."""
        out = np.zeros(R.NUM_CARD_KINDS, dtype=np.int64)
        if isinstance(value, dict):
            for k, c in value.items():
                out[self.kind(k, field)] += _int(c, f"{field}: {k}", 0)
        elif isinstance(value, (list, tuple)):
            for k in value:
                out[self.kind(k, field)] += 1
        else:
            raise ValueError(f"{field}: expected {{kind: count}} or a list of kinds, "
                             f"got {value!r}")
        return out

    # ------------------------------------------------------------ naming
    def hex_name(self, h):
        m = self.map
        if h == m.lisbon:
            return "Lisbon"
        port = int(m.port[h])
        return m.port_name[port] if port >= 0 else int(h)


def _hand_counts(spec, b, field):
    return {p: b.cards(x, f"{field}: seat {p}") for p, x in b.per_seat(spec, field).items()}


def _deal_cards(v, b, hands, discard, deck, deck_top):
    """Wind cards: given hands and discard pile, the rest in the deck; conserved."""
    n = b.n
    total = np.array(R.CARD_COUNTS, dtype=np.int64)
    if v.simple_deck:
        total[R.CALM] -= R.SIMPLE_DECK_CALMS_REMOVED
    given = hands
    hands = _hand_counts(hands, b, "hands")
    if v.simple_deck and any(h.sum() for h in hands.values()):
        raise ValueError(f"hands: nobody holds wind cards in the simple game (V53), got {given}")
    if v.round == 1 and v.phase == BID and any(h.sum() for h in hands.values()):
        raise ValueError("hands: in round 1 the wind cards are dealt after the bidding (V13), "
                         f"got {given}")
    disc = None if discard is None else b.cards(discard, "discard")
    if deck is not None and deck_top is not None:
        raise ValueError("deck: give the whole deck or its top (deck_top), not both")
    top_field = "deck" if deck is not None else "deck_top"
    top_list = deck if deck is not None else (deck_top or [])
    if not isinstance(top_list, (list, tuple)):
        raise ValueError(f"{top_field}: expected a list of card kinds, top first, got {top_list!r}")
    top = [b.kind(k, top_field) for k in top_list]
    need = sum(hands.values(), np.zeros(R.NUM_CARD_KINDS, dtype=np.int64)).copy()
    if disc is not None:
        need += disc
    need += np.bincount(np.array(top, dtype=np.int64), minlength=R.NUM_CARD_KINDS)
    for k in range(R.NUM_CARD_KINDS):
        if need[k] > total[k]:
            field = ("hands" if any(h[k] for h in hands.values())
                     else "discard" if disc is not None and disc[k] else top_field)
            raise ValueError(f"{field}: not enough {R.CARD_KINDS[k]} cards: {int(need[k])} "
                             f"wanted in hands, discard and deck, {int(total[k])} in the game")
    free = total - need
    old_hand = v.hand[:n].astype(np.int64).copy()
    new_hand = np.zeros_like(old_hand)
    for p, h in hands.items():
        new_hand[p] = h
    keep = [p for p in range(n) if p not in hands]
    for p in keep:            # seats not given keep what they can of their own cards
        new_hand[p] = np.minimum(old_hand[p], free)
        free -= new_hand[p]
    if disc is None:
        disc = np.minimum(v.discard.astype(np.int64), free)
        free -= disc
    old_deck = [int(x) for x in v.deck[: v.deck_size]]   # bottom .. top
    for p in keep:            # ... topped up to their size from the deck's top down
        missing = int(old_hand[p].sum() - new_hand[p].sum())
        for k in old_deck[::-1] + list(range(R.NUM_CARD_KINDS)):
            if missing == 0:
                break
            if free[k] > 0:
                free[k] -= 1
                new_hand[p, k] += 1
                missing -= 1
        if missing:
            raise ValueError(f"hands: not enough cards left to keep seat {p}'s hand of "
                             f"{int(old_hand[p].sum())} cards (give seat {p}'s hand too)")
    if deck is not None:
        if free.sum():
            extra = {R.CARD_KINDS[k]: int(free[k]) for k in np.flatnonzero(free)}
            raise ValueError(f"deck: {len(top)} cards listed, but {extra} are neither in a "
                             "hand nor on the discard pile nor in the list")
        rest = []
    else:
        quota = free.copy()
        rest = []
        for k in old_deck:    # the old deck order where it can be kept
            if quota[k] > 0:
                quota[k] -= 1
                rest.append(k)
        rest = [k for k in range(R.NUM_CARD_KINDS) for _ in range(int(quota[k]))] + rest
    cards = rest + top[::-1]
    v.hand[:] = 0
    v.hand[:n] = new_hand
    v.discard[:] = disc
    v.deck[:] = 0
    v.deck[: len(cards)] = cards
    v.deck_size = len(cards)


def _deal_targets(v, b, targets):
    """Target cards: the given seats get theirs (k west and k east, V3); other seats keep
    theirs, a card taken from them replaced by the lowest free port of that deck."""
    spec = b.per_seat(targets, "targets")
    if not spec:
        return
    m = b.map
    n = b.n
    side_ports = [[p for p in range(m.num_ports) if m.port_deck[p] == side] for side in (0, 1)]
    k = [min(R.TARGETS_PER_DECK, len(side_ports[side]) // n) for side in (0, 1)]
    wanted = {}
    owner = {}
    for p, names in spec.items():
        if isinstance(names, str) or not isinstance(names, (list, tuple, set)):
            raise ValueError(f"targets: seat {p}: expected a list of port names, got {names!r}")
        ports = [b.port(x, f"targets: seat {p}") for x in names]
        for port in ports:
            if port in owner:
                raise ValueError(f"targets: port {m.port_name[port]!r} given to seat "
                                 f"{owner[port]} and seat {p}")
            owner[port] = p
        for side, deck in enumerate(("west", "east")):
            got = [x for x in ports if m.port_deck[x] == side]
            if len(got) != k[side]:
                raise ValueError(f"targets: seat {p} needs {k[side]} {deck} and {k[1 - side]} "
                                 f"{('west', 'east')[1 - side]} ports (V3), got {len(got)} {deck}: "
                                 f"{sorted(names)}")
        wanted[p] = ports
    old = {p: [int(x) for x in v.targets[p] if x >= 0] for p in range(n)}
    for side in (0, 1):
        used = {x for p in wanted for x in wanted[p] if m.port_deck[x] == side}
        kept = {p: [x for x in old[p] if m.port_deck[x] == side and x not in used]
                for p in range(n) if p not in wanted}
        used |= {x for xs in kept.values() for x in xs}
        free = [x for x in side_ports[side] if x not in used]
        for p, xs in kept.items():
            while len(xs) < k[side]:
                xs.append(free.pop(0))
            v.targets[p, side * R.TARGETS_PER_DECK: (side + 1) * R.TARGETS_PER_DECK] = (
                xs + [-1] * (R.TARGETS_PER_DECK - len(xs)))
        for p, ports in wanted.items():
            xs = [x for x in ports if m.port_deck[x] == side]
            v.targets[p, side * R.TARGETS_PER_DECK: (side + 1) * R.TARGETS_PER_DECK] = (
                xs + [-1] * (R.TARGETS_PER_DECK - len(xs)))


def _set_tiles(v, b, tiles):
    spec = b.per_seat(tiles, "tiles")
    if not spec:
        return
    held = {}
    for p, nums in spec.items():
        if isinstance(nums, str) or not isinstance(nums, (list, tuple, set)):
            raise ValueError(f"tiles: seat {p}: expected a list of tile numbers, got {nums!r}")
        held[p] = [_int(x, f"tiles: seat {p}", 1, v.tiles_total) for x in nums]
    every = sorted(x for xs in held.values() for x in xs)
    if every != list(range(1, len(every) + 1)):
        raise ValueError(f"tiles: the tiles held must be 1..k, each once (taken in ascending "
                         f"order, V4), got {every}")
    for p in range(b.n):
        xs = held.get(p, [])
        v.tiles[p] = len(xs)
        v.best_tile[p] = min(xs) if xs else 0
    v.tiles_taken = len(every)
    v.end_triggered = 1 if v.tiles_taken == v.tiles_total else 0


def build(num_players: int, *, seed: int = 0, phase: str = "move", active=None, order=None,
          round: int = 1, max_rounds: int = R.DEFAULT_MAX_ROUNDS, simple_deck: bool = False,
          black_ship: bool = False, dice_movement: bool = False, rotate_order: bool = False,
          ships=None, hands=None,
          discard=None, deck=None, deck_top=None, cubes=None, wrecked=None, upgraded=None,
          discs=None, spent=None, bids=None, vp=None, tiles=None, targets=None,
          discovered=None, docked=None, attacked=None, black_hex=None, rng=None,
          game=None) -> np.ndarray:
    """A valid Voyage state from readable fields (module docstring).

    phase: one of BUILDABLE: "move" (the start of a decision in `active`'s turn), "bid"
    (the start of the round's auction; `active` is then the first in `order`), "play"
    (`active` on a blue space must play a card), "upgrade" / "monastery" / "cards"
    (`active` docking in Lisbon). ships {seat: space}; hands {seat: {kind: count} or
    [kinds]}; discard {kind: count}; deck [kinds, top first] (the whole deck) or deck_top
    (the next cards drawn, the rest kept); cubes {seat: [goods]}; wrecked {seat: [ship
    1..4]}; upgraded [seats] (12 discs); discs {seat: 9|12}; spent, bids, vp {seat: int};
    tiles {seat: [tile numbers]} (every holder; all tiles taken ends the game after the
    round, V49); targets {seat: [port names]} (k west + k east); discovered {port: seat};
    dice_movement: variant 2 (module docstring: discs = the active seat's roll);
    rotate_order: the project variant VA42 (the order rotates before every later auction);
    docked, attacked [seats]; black_hex (a space); rng (the 64-bit generator word);
    game: another `Game` (map) than the default board.
    """
    game = _game(game)
    n = game.check_players(num_players)
    _check_buildable(phase)
    max_rounds = _int(max_rounds, "max_rounds", 1, 1000)
    round = _int(round, "round", 1, max_rounds)
    s = game.new_state(n, seed, simple_deck=simple_deck, black_ship=black_ship,
                       max_rounds=max_rounds, dice_movement=dice_movement,
                       rotate_order=rotate_order)
    v = StateView(s)
    b = _Builder(game, n)
    bidding = phase == "bid"
    dice = bool(dice_movement)
    first_roll = None
    if dice:
        _no_cards_with_dice(phase, hands=hands, discard=discard, deck=deck, deck_top=deck_top,
                            targets=targets, bids=bids)
        first_roll = int(v.discs[v.active])
    if not (bidding and round == 1):
        _pass_the_auction(game, s, v)
    order, active = _set_turn(v, b, order, round, active, bidding)
    pos_active = order.index(active)
    _place_fleets(v, b, active, first_roll, upgraded=upgraded, discs=discs, wrecked=wrecked,
                  cubes=cubes, ships=ships)
    _set_auction(v, b, bids, spent, order, pos_active, bidding, dice)
    _set_scores(v, b, vp, tiles)
    if not dice:
        _deal_targets(v, b, targets)
    _set_discovered(v, b, discovered)
    _set_docked_and_attacked(v, b, docked, attacked, order, pos_active, bidding, black_ship)
    _set_black_hex(v, b, black_hex, black_ship)
    if not dice:
        _deal_cards(v, b, hands, discard, deck, deck_top)
    _set_rng(v, rng)
    _set_decision(v, phase, active, pos_active, bidding)
    _check_phase(v, b, phase, active)
    game.validate_state(s)
    return s


def _check_buildable(phase) -> None:
    """`phase` is one of BUILDABLE (the other phases need pending work)."""
    if not isinstance(phase, str) or phase not in _PHASE_ID:
        known = ", ".join(BUILDABLE)
        if phase in PHASE_NAMES:
            raise ValueError(f"phase: {phase!r} cannot be built directly (it needs pending "
                             f"work); build one of {known} and step there")
        raise ValueError(f"phase: unknown phase {phase!r} (buildable: {known})")


def _pass_the_auction(game, s, v) -> None:
    """Everybody passes: the deal by the seed's order (V13)."""
    while v.phase == BID:
        game.step(s, "bid:pass")


# ------------------------------------------------------------ turn order


def _set_turn(v, b, order, round, active, bidding) -> tuple[list, int]:
    """The turn order, the round and the active seat; returns the order and the seat."""
    order = _set_order(v, b.n, order)
    v.round = round
    return order, _read_active(b, active, order, bidding)


def _set_order(v, n, order) -> list:
    """The turn order (default 0..n-1); the round-1 hands follow the positions."""
    if order is None:
        order = list(range(n))
    if (isinstance(order, (str, bytes)) or not hasattr(order, "__iter__")
            or sorted(_int(x, "order") for x in order) != list(range(n))):
        raise ValueError(f"order: {order!r} is not a permutation of the seats 0..{n - 1}")
    order = [int(x) for x in order]
    old_order = [int(x) for x in v.order[:n]]
    dealt = v.hand[:n].copy()
    for pos in range(n):        # the round-1 hands follow the positions
        v.hand[order[pos]] = dealt[old_order[pos]]
    v.order[:n] = order
    return order


def _read_active(b, active, order, bidding) -> int:
    """The active seat: by default the first in the order, always so in an auction."""
    if active is None:
        active = order[0]
    active = b.seat(active, "active")
    if bidding and active != order[0]:
        raise ValueError(f"active: an auction starts with the first in the order, seat "
                         f"{order[0]}, got {active!r}")
    return active


# ------------------------------------------------------------ fleets


def _place_fleets(v, b, active, first_roll, *, upgraded, discs, wrecked, cubes, ships) -> None:
    """The fleets: upgrades and discs, wrecked ships, the cubes carried, the ships' spaces.
    `first_roll` is the started game's roll with dice_movement, else None."""
    _set_discs(v, b, upgraded, discs, active, first_roll)
    _set_wrecked(v, b, wrecked)
    _set_cubes(v, b, cubes)
    _check_cubes_on_ships(v, b.n)
    for p, h in b.per_seat(ships, "ships").items():
        v.ship[p] = b.hex(h, f"ships: seat {p}")


def _set_discs(v, b, upgraded, discs, active, first_roll) -> None:
    """Upgrades and discs: 9 discs, or 12 once upgraded (given as either); with
    dice_movement `discs` is the active seat's roll instead."""
    dice = first_roll is not None
    up = b.seats(upgraded, "upgraded")
    if dice:
        up = _dice_discs(v, b, discs, active, up, first_roll)
    for p, d in ({} if dice else b.per_seat(discs, "discs")).items():
        d = _int(d, f"discs: seat {p}")
        if d not in (R.BASE_DISCS, R.UPGRADED_DISCS):
            raise ValueError(f"discs: seat {p}: {d} discs, a fleet has 9 or 12 (V2, V43)")
        if d == R.BASE_DISCS and p in up:
            raise ValueError(f"discs: seat {p} is upgraded and has 12 discs, got {d}")
        if d == R.UPGRADED_DISCS:
            up.add(p)
    for p in range(b.n):
        v.upgraded[p] = 1 if p in up else 0
        if not dice:
            v.discs[p] = R.UPGRADED_DISCS if p in up else R.BASE_DISCS


def _set_wrecked(v, b, wrecked) -> None:
    """The wrecked ships (1..4) of the seats given; ship 4 only once upgraded."""
    for p, ships_ in b.per_seat(wrecked, "wrecked").items():
        v.wrecked[p] = 0
        for k in ships_:
            k = _int(k, f"wrecked: seat {p}", 1, 4)
            if k == 4 and not v.upgraded[p]:
                raise ValueError(f"wrecked: seat {p}: ship 4 is not in service before the "
                                 "upgrade (VA12)")
            v.wrecked[p, k - 1] = 1


def _set_cubes(v, b, cubes) -> None:
    """The goods the seats given carry, one cube per good (V24), taken from the stock."""
    for p, goods in b.per_seat(cubes, "cubes").items():
        if isinstance(goods, str) or not isinstance(goods, (list, tuple, set)):
            raise ValueError(f"cubes: seat {p}: expected a list of goods, got {goods!r}")
        gs = [b.good(g, f"cubes: seat {p}") for g in goods]
        twice = [GOODS[g] for g, c in Counter(gs).items() if c > 1]
        if twice:
            raise ValueError(f"cubes: seat {p} lists {twice[0]} twice (one cube per good, V24)")
        v.stock[:] += v.cubes[p]
        v.cubes[p] = 0
        for g in gs:
            v.cubes[p, g] = 1
            v.stock[g] -= 1


def _check_cubes_on_ships(v, n) -> None:
    """Every cube rides its good's ship, in service and not wrecked."""
    for p in range(n):
        for g in np.flatnonzero(v.cubes[p]):
            ship = R.ship_of(int(g))
            if ship == 3 and not v.upgraded[p]:
                raise ValueError(f"cubes: seat {p} carries {GOODS[g]}, but ship 4 is not in "
                                 "service before the upgrade (V24, E14)")
            if v.wrecked[p, ship]:
                raise ValueError(f"cubes: seat {p} carries {GOODS[g]}, but ship {ship + 1} is "
                                 "wrecked (its goods are lost, V21)")


# ------------------------------------------------------------ auction, spent discs, scores


def _set_auction(v, b, bids, spent, order, pos_active, bidding, dice) -> None:
    """The bids of the round's auction, and what each seat has spent since."""
    _set_bids(v, b, bids, bidding)
    _set_spent(v, b, spent, order, pos_active, bidding, dice)


def _set_bids(v, b, bids, bidding) -> None:
    """The bids made; the highest positive bid leads a raised auction."""
    bid_of = {p: _int(x, f"bids: seat {p}", 0, R.UPGRADED_DISCS)
              for p, x in b.per_seat(bids, "bids").items()}
    positive = [x for x in bid_of.values() if x > 0]
    if len(set(positive)) != len(positive):
        raise ValueError(f"bids: {bid_of}: every raise exceeds the high bid, so bids differ (V10)")
    if bidding and positive:
        raise ValueError(f"bids: {bid_of}: an auction starts with no bids")
    for p, x in bid_of.items():
        v.bid[p] = x
    if positive:
        v.bid_high = max(positive)
        v.bid_leader = next(p for p, x in bid_of.items() if x == v.bid_high)
        v.bid_raised = 1
        v.bid_passes = b.n - 1


def _set_spent(v, b, spent, order, pos_active, bidding, dice) -> None:
    """What each seat has spent this round: by default its bid once its turn has begun."""
    spent_of = {p: _int(x, f"spent: seat {p}") for p, x in b.per_seat(spent, "spent").items()}
    for pos, p in enumerate(order):   # default: bids are spent until one's turn is over
        x = spent_of.get(p, v.bid[p] if pos >= pos_active and not bidding else 0)
        if not 0 <= x <= v.discs[p]:
            unit = "movement points this turn" if dice else "discs"
            raise ValueError(f"spent: seat {p}: {x} not in 0..{v.discs[p]} (its {unit})")
        v.spent[p] = x
    if bidding and v.spent[:b.n].any():
        raise ValueError(f"spent: {spent_of}: nothing is spent when an auction starts (V48)")


def _set_scores(v, b, vp, tiles) -> None:
    """The victory points and monastery tiles of the seats given."""
    for p, x in b.per_seat(vp, "vp").items():
        v.vp[p] = _int(x, f"vp: seat {p}", 0)
    _set_tiles(v, b, tiles)


# ------------------------------------------------------------ map state


def _set_discovered(v, b, discovered) -> None:
    """{port: seat or None}: who discovered the ports given."""
    if discovered is None:
        return
    if not isinstance(discovered, dict):
        raise ValueError(f"discovered: expected a dict {{port: seat}}, got {discovered!r}")
    for name, p in discovered.items():
        port = b.port(name, "discovered")
        v.discovered[port] = -1 if p is None else b.seat(p, f"discovered: {name}")


def _set_docked_and_attacked(v, b, docked, attacked, order, pos_active, bidding,
                             black_ship) -> None:
    """The seats docked in Lisbon this round, and those the Black Ship attacked."""
    docked_ = _read_docked(v, b, docked, order, pos_active, bidding)
    attacked_ = _read_attacked(b, attacked, bidding, black_ship)
    for p in range(b.n):
        v.docked[p] = 1 if p in docked_ else 0
        v.attacked[p] = 1 if p in attacked_ else 0


def _read_docked(v, b, docked, order, pos_active, bidding) -> set:
    """Docked seats: in Lisbon, their turn over this round (V47)."""
    docked_ = b.seats(docked, "docked")
    for p in docked_:
        if v.ship[p] != b.map.lisbon:
            raise ValueError(f"docked: seat {p} is docked but its ship is at "
                             f"{b.hex_name(int(v.ship[p]))!r}, not Lisbon (V47)")
        if bidding or order.index(p) >= pos_active:
            raise ValueError(f"docked: seat {p} cannot have docked yet this round (a docked "
                             "ship's turn is over, V47)")
    return docked_


def _read_attacked(b, attacked, bidding, black_ship) -> set:
    """Attacked seats: only with the Black Ship, and not when a round starts (V62)."""
    attacked_ = b.seats(attacked, "attacked")
    if attacked_ and not black_ship:
        raise ValueError(f"attacked: {sorted(attacked_)}: only the Black Ship attacks "
                         "(black_ship=True)")
    if bidding and attacked_:
        raise ValueError(f"attacked: {sorted(attacked_)}: the attacks are reset when a "
                         "round starts (V62)")
    return attacked_


def _set_black_hex(v, b, black_hex, black_ship) -> None:
    """The Black Ship's space, on Melaka's side of the hemisphere line (V60)."""
    if black_hex is None:
        return
    if not black_ship:
        raise ValueError(f"black_hex: {black_hex!r} without the Black Ship "
                         "(black_ship=True)")
    h = b.hex(black_hex, "black_hex")
    m = b.map
    start = m.port_hex[m.port_name.index("Melaka")]
    if m.hemisphere[h] != m.hemisphere[start]:
        raise ValueError(f"black_hex: {black_hex!r} is across the hemisphere line from "
                         "Melaka; the Black Ship never crosses it (V60)")
    v.black_hex = h


# ------------------------------------------------------------ generator and decision


def _set_rng(v, rng) -> None:
    """The 64-bit generator word, stored as two signed 32-bit halves (low first)."""
    if rng is None:
        return
    x = _int(rng, "rng", 0, (1 << 64) - 1)
    lo, hi = x & _M32, x >> 32
    v.rng[0] = lo - (1 << 32) if lo >= 1 << 31 else lo
    v.rng[1] = hi - (1 << 32) if hi >= 1 << 31 else hi


def _set_decision(v, phase, active, pos_active, bidding) -> None:
    """The phase and its decider; an auction starts from scratch at position 0."""
    v.phase = _PHASE_ID[phase]
    v.active = active
    v.decider = active
    v.position = 0 if bidding else pos_active
    if bidding:
        v.bid_high, v.bid_leader, v.bid_passes, v.bid_turn, v.bid_raised = 0, -1, 0, 0, 0
        v.bid[:] = 0


def _no_cards_with_dice(phase, **fields):
    """dice_movement (V54, VA34): no auction, no wind cards, no target cards."""
    if phase in ("bid", "play", "cards"):
        raise ValueError(f"phase: {phase!r} does not happen with dice_movement (no auction "
                         "and no wind cards, VA34)")
    for field, value in fields.items():
        if value is None:
            continue
        empty = (not any(value.values()) if isinstance(value, dict)
                 else isinstance(value, (list, tuple)) and not value)
        if not empty:
            what = {"targets": "target cards", "bids": "bids"}.get(field, "wind cards")
            raise ValueError(f"{field}: there are no {what} with dice_movement (V54, VA34), "
                             f"got {value!r}")


def _dice_discs(v, b, discs, active, up, first_roll):
    """With dice_movement `discs` holds the active seat's roll (2..12), others 0."""
    active = b.seat(active, "active")
    roll = first_roll
    for p, d in b.per_seat(discs, "discs").items():
        d = _int(d, f"discs: seat {p}")
        if p == active:
            if not 2 <= d <= 12:
                raise ValueError(f"discs: seat {p}: {d} movement points, two dice give 2..12 "
                                 "(V54, VA34)")
            roll = d
        elif d != 0:
            raise ValueError(f"discs: seat {p}: {d}, but with dice_movement only the active "
                             f"seat {active} holds movement points (others 0)")
    v.discs[:] = 0
    v.discs[active] = roll
    return up


def _check_phase(v, b, phase, p):
    m = b.map
    at = int(v.ship[p])
    avail = int(v.discs[p] - v.spent[p])
    where = b.hex_name(at)
    if phase == "move" and avail == 0 and at != m.lisbon:
        raise ValueError(f"spent: active seat {p} has no disc left at {where!r}; such a turn "
                         "ends at once (V48c, VA21)")
    if phase == "play":
        if v.simple_deck:
            raise ValueError("phase: 'play' does not happen in the simple game (V53: the top "
                             "card is revealed)")
        if not m.blue[at]:
            raise ValueError(f"phase: 'play' needs seat {p}'s ship on a blue space, it is at "
                             f"{where!r}")
        if not any(v.hand[p, k] and R.storm_value(k) <= avail for k in range(R.NUM_CARD_KINDS)):
            raise ValueError(f"hands: seat {p} holds no card playable with {avail} discs on "
                             "the blue space (V19, V29)")
        v.arrival_hex = at
    if phase in ("upgrade", "monastery", "cards"):
        if at != m.lisbon:
            raise ValueError(f"phase: {phase!r} is part of docking, seat {p}'s ship is at "
                             f"{where!r}, not Lisbon")
        held = int(v.cubes[p].sum())
        if phase == "upgrade" and (v.upgraded[p] or held < 3):
            raise ValueError(f"phase: 'upgrade' needs a seat not yet upgraded with 3 cubes "
                             f"(V43); seat {p}: upgraded={bool(v.upgraded[p])}, {held} cubes")
        if phase == "monastery" and (not v.cubes[p, R.PEPPER]
                                     or v.tiles_taken >= v.tiles_total):
            raise ValueError(f"phase: 'monastery' needs a pepper cube and a tile left (V41); "
                             f"seat {p}: pepper={int(v.cubes[p, R.PEPPER])}, "
                             f"tiles left {v.tiles_total - v.tiles_taken}")
        if phase == "cards":
            if v.simple_deck:
                raise ValueError("phase: 'cards' does not happen in the simple game (V53)")
            if held:
                raise ValueError(f"cubes: seat {p} still carries {held} cubes; at the card "
                                 "choice every cube has been sold (V44)")


def describe(state: np.ndarray, game=None) -> dict:
    """The state's fields in `build`'s vocabulary (every seat listed)."""
    game = _game(game)
    v = StateView(state)
    n = v.num_players
    b = _Builder(game, n)
    m = b.map
    seats = range(n)
    deck = [R.CARD_KINDS[int(k)] for k in v.deck[: v.deck_size][::-1]]
    held = {}   # a tile assignment consistent with the counts and lowest numbers
    rest = sorted(set(range(1, v.tiles_taken + 1)) - {int(x) for x in v.best_tile[:n] if x},
                  reverse=True)
    for p in sorted(seats, key=lambda q: -int(v.best_tile[q])):
        xs = [int(v.best_tile[p])] if v.tiles[p] else []
        for _ in range(int(v.tiles[p]) - len(xs)):
            xs.append(rest.pop(0))
        held[p] = sorted(xs)
    word = (int(v.rng[0]) & _M32) | ((int(v.rng[1]) & _M32) << 32)
    return {
        "num_players": n,
        "phase": PHASE_NAMES[v.phase],
        "active": int(v.active) if v.phase != GAME_OVER else None,
        "order": [int(x) for x in v.order[:n]],
        "round": int(v.round),
        "max_rounds": int(v.max_rounds),
        "simple_deck": bool(v.simple_deck),
        "black_ship": bool(v.black_ship),
        "dice_movement": bool(v.dice_movement),
        "rotate_order": bool(v.rotate_order),
        "ships": {p: b.hex_name(int(v.ship[p])) for p in seats},
        "hands": {p: {R.CARD_KINDS[k]: int(v.hand[p, k])
                      for k in range(R.NUM_CARD_KINDS) if v.hand[p, k]} for p in seats},
        "discard": {R.CARD_KINDS[k]: int(v.discard[k])
                    for k in range(R.NUM_CARD_KINDS) if v.discard[k]},
        "deck": deck,
        "cubes": {p: [GOODS[g] for g in np.flatnonzero(v.cubes[p])] for p in seats},
        "wrecked": {p: [int(k) + 1 for k in np.flatnonzero(v.wrecked[p])] for p in seats},
        "upgraded": [p for p in seats if v.upgraded[p]],
        "discs": {p: int(v.discs[p]) for p in seats},
        "spent": {p: int(v.spent[p]) for p in seats},
        "bids": {p: int(v.bid[p]) for p in seats},
        "vp": {p: int(v.vp[p]) for p in seats},
        "tiles": {p: held[p] for p in seats},
        "targets": {p: [m.port_name[x] for x in v.targets[p] if x >= 0] for p in seats},
        "discovered": {m.port_name[x]: int(v.discovered[x])
                       for x in range(m.num_ports) if v.discovered[x] >= 0},
        "docked": [p for p in seats if v.docked[p]],
        "attacked": [p for p in seats if v.attacked[p]],
        "black_hex": b.hex_name(int(v.black_hex)) if v.black_hex >= 0 else None,
        "rng": word,
    }
