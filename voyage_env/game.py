"""Voyage as a `tradewinds.Game`: the kernels bound to a map (`bindings`), options,
reasons, checks. `Game.board` is the `VoyageMap`, `Game.aux.m` its packed form."""

from __future__ import annotations

import numpy as np

from tradewinds.compensation import check_count, parse_schedule
from tradewinds.protocol import Game, StateChecks
from voyage_env import actions as A
from voyage_env import board
from voyage_env import checks as C
from voyage_env import rules as R
from voyage_env.bindings import CAPABILITIES, VoyageKernels, aux_for
from voyage_env.observation import obs_high, obs_names
from voyage_env.state import (
    BID,
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


def _options_parser(voyage_map):
    has_melaka = "Melaka" in voyage_map.port_name

    def parse_options(simple_deck: bool = False, black_ship: bool = False,
                      max_rounds: int = R.DEFAULT_MAX_ROUNDS, dice_movement: bool = False,
                      seat_vp=(), seat_cards=(), rotate_order: bool = False):
        """simple_deck (rules §15 variant 1), black_ship (mini-expansion), max_rounds cap,
        dice_movement (§15 variant 2: 2d6 movement points per turn, VA34), seat_vp and
        seat_cards (compensation by initial position, VA40, VA41), rotate_order (the turn
        order rotates before every auction from round 2 on, VA42). Returns the init
        arguments (simple_deck, black_ship, max_rounds, dice_movement, seat_vp x4,
        seat_cards x4, rotate_order)."""
        for name, value in (("simple_deck", simple_deck), ("black_ship", black_ship),
                            ("dice_movement", dice_movement), ("rotate_order", rotate_order)):
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        if dice_movement and simple_deck:
            raise ValueError("dice_movement=True and simple_deck=True do not combine: the "
                             "dice variant uses no wind cards at all (rules §15, VA39)")
        if dice_movement and rotate_order:
            raise ValueError("rotate_order=True and dice_movement=True do not combine: the "
                             "dice variant rotates the order already and has no auction "
                             "(VA34, VA42)")
        if black_ship and not has_melaka:
            raise ValueError(f"black_ship needs a port named Melaka on map {voyage_map.name!r} "
                             "(the Black Ship starts there, V57)")
        if not isinstance(max_rounds, (int, np.integer)) or not 1 <= max_rounds <= 1000:
            raise ValueError(f"max_rounds must be an integer in 1..1000, got {max_rounds!r}")
        vp = parse_schedule("seat_vp", seat_vp, R.SEAT_VP_LIMIT)
        cards = parse_schedule("seat_cards", seat_cards, R.SEAT_CARDS_LIMIT)
        if any(cards) and (simple_deck or dice_movement):
            raise ValueError("seat_cards needs wind-card hands, which simple_deck and "
                             "dice_movement do not have (VA41)")
        return (int(simple_deck), int(black_ship), int(max_rounds), int(dice_movement),
                *vp, *cards, int(rotate_order))

    return parse_options


def check_options(num_players: int, seat_vp=(), seat_cards=(), **_):
    """The per-position options against the player count (an entry per seat, or none)."""
    check_count("seat_vp", seat_vp, num_players)
    check_count("seat_cards", seat_cards, num_players)


def _reason(state, a, m) -> str:
    """Why action `a` is not legal on map `m` (called only after the kernel refused it)."""
    v = StateView(state)
    phase, p = v.phase, v.decider
    if phase == GAME_OVER:
        return "the game is over"
    where = f"in phase {PHASE_NAMES[phase]}"
    avail = v.discs[p] - v.spent[p]
    if phase == BID:
        if A.BID <= a < A.ORDER:
            total = a - A.BID + 1
            if total <= v.bid_high:
                return f"a bid must exceed the highest bid {v.bid_high} (V10)"
            return f"raising to {total} needs {total - v.bid[p]} discs, player has {avail}"
        return f"only bid:pass or bid:<T> {where}"
    if phase == ORDER:
        return f"choose a free turn-order position 1..{v.num_players} (V11)"
    if phase == MOVE:
        if avail == 0 and a not in (A.DOCK, A.STOP):
            return "no disc left: the ship moves no further, only dock or stop (V48c, VA21)"
        if A.MOVE <= a < A.BLACK:
            d = (a - A.MOVE) % 6
            t = m.neighbors[v.ship[p], d]
            if t < 0:
                return f"no sea passage {board.DIRS[d]} of the ship (V14)"
            if a >= A.SHIELD:
                if v.dice_movement:
                    return "no wind cards, so no pirate protection, with dice_movement (VA34)"
                if v.simple_deck:
                    return "no pirate protection in the simple game (VA33)"
                if not m.pirate[t]:
                    return "shield only protects a step onto a pirate space (V34)"
                if v.hand[p, R.FAVOURABLE] == 0:
                    return "shield needs a favourable wind card in hand (V34)"
            if m.blue[t] and not v.dice_movement and not v.simple_deck:
                return "a blue space needs a playable wind card after paying (V19, V29)"
            unit = "movement points" if v.dice_movement else "discs"
            return f"the step costs more {unit} than the {avail} available (V16, V18)"
        if A.BLACK <= a < A.DOCK:
            if not v.black_ship:
                return "the Black Ship is not in this game (option black_ship)"
            if avail < 1:
                return "moving the Black Ship costs 1 disc (1 movement point with dice, V58)"
            return "the Black Ship cannot go there (land, or across the hemisphere line, V60)"
        if a == A.DOCK:
            return "docking needs the ship on the Lisbon space (V39)"
        return f"not a move action {where}"
    if phase == PLAY:
        if A.PLAY <= a < A.WRECK:
            kind = a - A.PLAY
            if v.hand[p, kind] == 0:
                return f"player {p} holds no {R.CARD_KINDS[kind]} card"
            return f"a storm -{R.storm_value(kind)} needs that many available discs (V29, E8)"
        return "play a wind card from hand (V19)"
    if phase == REACT:
        return "move a free step the card allows, or stop (V37)"
    if phase == WRECK:
        return "choose one of your working ships in service (V21, VA12)"
    if phase == UPGRADE:
        if a == A.UPGRADE_SKIP:
            return "the upgrade, once started, needs three cubes (V43)"
        return "hand in a cube you carry, or upgrade:skip (V43)"
    if phase == MONASTERY:
        return "monastery:take or monastery:sell (V41)"
    if phase == CARDS:
        return "cards:top_up or cards:new (V45)"
    return "unknown phase"


def _validator(voyage_map, get_game):
    """validate_state for a map; `get_game()` is the Game it belongs to (made later)."""
    num_hexes, num_ports = len(voyage_map.current), len(voyage_map.port_vp)
    hemisphere = np.asarray(voyage_map.hemisphere)
    melaka = ([voyage_map.port_hex[i] for i, name in enumerate(voyage_map.port_name)
               if name == "Melaka"] or [-1])[0]

    def validate_state(state) -> None:
        """Raise ValueError naming the first thing wrong with a state vector.

        Everything the reference's loader rejects (`reference.VoyageGame.from_state`) is
        rejected here too (tests/core/test_state_checks.py mutates states field by field and
        asks both), after the kernels' structural check (`voyage_env.checks`)."""
        if (not isinstance(state, np.ndarray) or state.dtype != np.int32
                or state.shape != (STATE_SIZE,) or not state.flags.c_contiguous):
            raise ValueError(f"Voyage state must be a C-contiguous int32 vector of length "
                             f"{STATE_SIZE}, got {getattr(state, 'dtype', type(state))} "
                             f"{getattr(state, 'shape', None)}")
        v = StateView(state)
        n = v.num_players
        total_cards = (0 if v.dice_movement else R.DECK_SIZE
                       - (R.SIMPLE_DECK_CALMS_REMOVED if v.simple_deck else 0))
        discs_ok = ((0, *range(2, R.UPGRADED_DISCS + 1)) if v.dice_movement
                    else (R.BASE_DISCS, R.UPGRADED_DISCS))
        checks = [  # conditions are callables: later ones assume earlier ones
            (lambda: 2 <= n <= 4, f"num_players={n} not in 2..4"),
            (lambda: 0 <= v.phase <= GAME_OVER, f"phase={v.phase} not in 0..{GAME_OVER}"),
            (lambda: v.decider == -1 if v.phase == GAME_OVER else 0 <= v.decider < n,
             f"decider={v.decider} is not a seat of a {n}-player game"),
            (lambda: ((v.ship[:n] >= 0) & (v.ship[:n] < num_hexes)).all(),
             f"ship position outside the map's {num_hexes} sea spaces"),
            (lambda: set(v.order[:n].tolist()) == set(range(n)),
             f"order={v.order[:n]} is no permutation"),
            (lambda: all(d in discs_ok for d in v.discs[:n]),
             "discs not 9 or 12 (with dice_movement: the roll 2..12, or 0)"),
            (lambda: ((v.spent[:n] >= 0) & (v.spent[:n] <= v.discs[:n])).all(),
             "spent outside 0..discs"),
            (lambda: 0 <= v.deck_size <= total_cards, "bad deck_size"),
            (lambda: ((v.deck[: v.deck_size] >= 0)
                      & (v.deck[: v.deck_size] < R.NUM_CARD_KINDS)).all(),
             "bad card in deck"),
            (lambda: v.hand.min() >= 0 and v.discard.min() >= 0, "negative card counts"),
            (lambda: v.hand.sum() + v.discard.sum() + v.deck_size == total_cards,
             f"wind cards not conserved (expected {total_cards})"),
            (lambda: ((v.stock + v.cubes.sum(axis=0)) == R.STOCK_PER_GOOD).all(),
             "cubes not conserved"),
            (lambda: ((v.cubes == 0) | (v.cubes == 1)).all(),
             "a player carries two cubes of one good"),
            (lambda: ((v.discovered[:num_ports] >= -1) & (v.discovered[:num_ports] < n)).all(),
             "bad discoverer"),
            (lambda: 0 <= v.tiles_taken <= v.tiles_total == n + 1, "bad monastery tile counts"),
            (lambda: ((v.targets[:n] >= -1) & (v.targets[:n] < num_ports)).all(),
             "bad target card"),
            (lambda: v.black_hex == -1 if not v.black_ship else 0 <= v.black_hex < num_hexes,
             "bad black_hex"),
        ]
        for ok, msg in checks:
            if not ok():
                raise ValueError(f"malformed Voyage state: {msg}")
        game = get_game()
        game.checked(state, play=True)   # the structural checks: indices, bounds, cards
        for ok, msg in _fields(v, n, num_ports, hemisphere, melaka):
            if not ok:
                raise ValueError(f"malformed Voyage state: {msg}")
        for ok, msg in _progress(v, n, voyage_map):
            if not ok:
                raise ValueError(f"malformed Voyage state: {msg}")
        if v.phase != GAME_OVER and not game.legal_mask(state).any():
            raise ValueError(f"malformed Voyage state: no legal action in phase "
                             f"{PHASE_NAMES[v.phase]}")

    return validate_state


def _fields(v, n, num_ports, hemisphere, melaka):
    """(ok, message) per rule on the fields themselves, lazily (the reference's order)."""
    yield not v.truncated or v.phase == GAME_OVER, "truncated but the game is not over"
    yield (v.order[n:] == -1).all(), f"order={v.order.tolist()} must be -1 beyond the seats"
    yield int(v.tiles.sum()) == v.tiles_taken, "tiles held do not add up to tiles_taken"
    yield (v.end_triggered == int(v.tiles_taken == v.tiles_total),
           "end_triggered must be 1 exactly when the last tile is taken (V49)")
    yield (v.deck[v.deck_size:] == 0).all(), "deck entries above deck_size must be 0"
    yield not (v.simple_deck and v.hand.any()), "simple_deck: nobody holds wind cards (V53)"
    dice = bool(v.dice_movement)
    yield not (dice and v.simple_deck), "dice_movement and simple_deck do not combine (VA39)"
    yield (v.discovered[num_ports:] == -1).all(), "discovered must be -1 beyond the map's ports"
    for p in range(n, R.MAX_PLAYERS):
        used = (v.ship[p], v.discs[p], v.spent[p], v.bid[p], v.vp[p], v.upgraded[p],
                v.docked[p], v.attacked[p], v.tiles[p], v.best_tile[p])
        yield (not any(used) and not v.hand[p].any() and not v.cubes[p].any()
               and not v.wrecked[p].any() and (v.targets[p] == -1).all()), \
            f"unused seat {p} must be zero (targets -1)"
    for p in range(n):
        up = v.upgraded[p]
        yield (up in (0, 1) and v.docked[p] in (0, 1) and v.attacked[p] in (0, 1),
               f"seat {p}: upgraded, docked, attacked must be 0/1")
        if dice:
            turn = v.phase != GAME_OVER and p == v.active
            yield (2 <= v.discs[p] <= 12 if turn else v.discs[p] == 0,
                   f"seat {p}: discs={v.discs[p]}: with dice_movement the active seat holds its "
                   "roll 2..12 and every other seat 0 (VA34)")
        else:
            yield (v.discs[p] == (R.UPGRADED_DISCS if up else R.BASE_DISCS),
                   f"seat {p}: discs={v.discs[p]} must be 9, or 12 once upgraded (V2, V43)")
        yield 0 <= v.bid[p] <= R.UPGRADED_DISCS, f"seat {p}: bid={v.bid[p]} out of range"
        yield v.vp[p] >= 0, f"seat {p}: negative vp"
        tiles, best = v.tiles[p], v.best_tile[p]
        yield (tiles >= 0 and (best == 0) == (tiles == 0) and 0 <= best <= v.tiles_taken,
               f"seat {p}: tiles={tiles}/best_tile={best} inconsistent")
        yield np.isin(v.wrecked[p], (0, 1)).all(), f"seat {p}: wrecked must be 0/1"
        for k in range(R.NUM_SHIPS):
            in_service = k < R.NUM_SHIPS - 1 or up
            yield in_service or not v.wrecked[p, k], \
                f"seat {p}: ship 4 wrecked before it is in service (VA12)"
            yield (not v.cubes[p, 2 * k: 2 * k + 2].any()
                   or (in_service and not v.wrecked[p, k])), \
                f"seat {p}: cubes on ship {k + 1}, which is wrecked or not in service"
    dealt = v.targets[:n][v.targets[:n] >= 0]
    yield len(dealt) == len(set(dealt.tolist())), "a target card is dealt twice"
    if dice:
        yield len(dealt) == 0, "dice_movement: no target cards are dealt (V54)"
        yield (v.phase not in (BID, ORDER, PLAY, REACT, CARDS),
               f"phase {PHASE_NAMES[v.phase]} does not occur with dice_movement (VA34)")
        yield ((v.bid_high, v.bid_leader, v.bid_passes, v.bid_turn, v.bid_raised)
               == (0, -1, 0, 0, 0) and not v.bid.any(),
               "dice_movement has no auction: the bid fields must be 0 (bid_leader -1, VA34)")
        yield (v.arrival_stage == 0 and v.card == -1,
               "dice_movement ignores blue and red spaces and plays no cards (V54)")
    if v.black_ship:
        yield (hemisphere[v.black_hex] == hemisphere[melaka],
               f"black_hex={v.black_hex} not a hex of the Black Ship's hemisphere (V60)")
    card = v.card
    compass = R.COMPASS <= card < R.FAVOURABLE
    yield (v.compass_left == 0 or compass,
           f"compass_left={v.compass_left} inconsistent with card={card}")
    yield v.react_k < n, f"react_k={v.react_k} must be below num_players"
    yield ((v.react_k > 0) == (v.card_stage == CARD_REACTIONS),
           "react_k must be 1..n-1 exactly while reactions run")


def _progress(v, n, vmap):
    """(ok, message) per rule on whose decision it is and what is pending (the reference's
    phase checks of a loaded game)."""
    phase, name = v.phase, PHASE_NAMES[v.phase]
    order = v.order[:n].tolist()
    active = v.active
    if phase in (BID, ORDER):
        yield v.position == 0, f"phase {name}: position must be 0"
    if phase == BID:
        yield active == order[v.bid_turn], "phase bid: active must be the bidder at bid_turn"
        yield order[v.bid_turn] != v.bid_leader, "phase bid: the high bidder never has the go"
        yield not v.bid_raised or v.bid_leader >= 0, "phase bid: a raise without a leader"
    ranking = [int(x) for x in v.ranking if x >= 0]
    if phase == ORDER:
        bidders = sorted((p for p in range(n) if v.bid[p] > 0), key=lambda p: -v.bid[p])
        yield ranking == bidders, "phase order: ranking must list the bidders by decreasing bid"
        yield active == ranking[v.order_step], "phase order: order_step/new_order/active " \
            "inconsistent"
        yield int((v.new_order[:n] < 0).sum()) > 1, \
            "phase order: a single free position is automatic"
    if phase in (MOVE, PLAY, UPGRADE, MONASTERY, CARDS, REACT, WRECK):
        yield (v.position < n and active == order[v.position],
               f"phase {name}: active is not order[position]")
    if phase == REACT:
        reach = 0 <= v.card <= R.FAVOURABLE    # storms, compass cards, favourable wind
        yield (v.card_stage == CARD_REACTIONS and reach
               and v.react_seat == order[(v.position + v.react_k) % n]
               and v.react_budget > 0), "phase react: card/react fields inconsistent"
    elif phase != WRECK:
        yield (v.react_seat == -1 and v.react_budget == 0,
               f"phase {name}: react_seat/react_budget must be -1/0")
    p = v.decider
    if phase == WRECK:
        working = [k for k in range(R.NUM_SHIPS)
                   if (k < R.NUM_SHIPS - 1 or v.upgraded[p]) and not v.wrecked[p, k]]
        yield len(working) > 1, "phase wreck: the decider must have several ships to choose from"
    if phase in (UPGRADE, MONASTERY, CARDS):
        yield v.ship[active] == vmap.lisbon, f"phase {name}: the ship must be in Lisbon"
    if phase == UPGRADE:
        yield (not v.upgraded[active]
               and v.cubes[active].sum() >= R.UPGRADE_CUBES - v.upgrade_given,
               "phase upgrade: needs an unupgraded fleet with enough cubes")
    else:
        yield v.upgrade_given == 0, f"phase {name}: upgrade_given must be 0"
    if phase == MONASTERY:
        yield (v.cubes[active, R.PEPPER] and v.tiles_taken < v.tiles_total,
               "phase monastery: needs a pepper cube and a tile left")
    if phase == CARDS:
        yield not v.simple_deck, "phase cards does not exist with simple_deck"
    if phase == PLAY:
        yield not v.simple_deck and v.card == -1, "phase play: no card may be in resolution"
        avail = v.discs[active] - v.spent[active]
        yield (any(v.hand[active, k] > 0 and R.storm_value(k) <= avail
                   for k in range(R.NUM_CARD_KINDS)),
               "phase play: the active player holds no playable card (V19)")
    if phase == GAME_OVER:
        yield v.position == n, "game over: position must be num_players"
    want = (-1 if phase == GAME_OVER else order[v.bid_turn] if phase == BID
            else ranking[v.order_step] if phase == ORDER else v.react_seat if phase == REACT
            else p if phase == WRECK else active)
    yield p == want, f"decider={p} but the rules give {want} in phase {name}"


def make_game(voyage_map=None) -> Game:
    """The Voyage `Game` on a map (the default board when None)."""
    vmap = board.load_map() if voyage_map is None else voyage_map
    aux = aux_for(vmap)
    kernels = VoyageKernels(aux)
    names = tuple(obs_names(len(vmap.current), vmap.port_name))

    def render_ansi(state):
        from voyage_env.render import render_ansi as draw
        return draw(state, vmap)

    def render_rgb(state):
        from voyage_env.render import render_rgb as draw
        return draw(state, vmap)

    game = Game(
        name="voyage",
        state_size=STATE_SIZE,
        num_actions=A.NUM_ACTIONS,
        obs_size=len(names),
        min_players=R.MIN_PLAYERS,
        max_players=R.MAX_PLAYERS,
        kernels=kernels,
        action_names=A.NAMES,
        obs_names=names,
        parse_options=_options_parser(vmap),
        illegal_reason=lambda s, a: _reason(s, a, vmap),
        validate_state=_validator(vmap, lambda: game),
        aux=aux,
        capabilities=CAPABILITIES,
        checks=StateChecks(C, aux.m, LAYOUT),
        obs_high=lambda num_players, max_rounds=R.DEFAULT_MAX_ROUNDS, seat_vp=(),
        seat_cards=(), **options: obs_high(vmap, num_players, max_rounds, seat_vp, seat_cards),
        render_ansi=render_ansi,
        render_rgb=render_rgb,
        option_defaults={"simple_deck": False, "black_ship": False,
                         "max_rounds": R.DEFAULT_MAX_ROUNDS, "dice_movement": False,
                         "seat_vp": (), "seat_cards": (), "rotate_order": False},
        option_choices={"seat_vp": ((0, 1, 2, 3),), "seat_cards": ((0, 1, 2, 3),)},
        check_options=check_options,
        board=vmap,
    )
    return game


GAME = make_game()
