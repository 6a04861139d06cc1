"""Voyage as a `tradewinds.Game`: the kernels bound to a map, options, reasons, checks."""

from __future__ import annotations

import numpy as np

from tradewinds.protocol import Game
from voyage_env import actions as A
from voyage_env import board
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.observation import obs_names
from voyage_env.state import (
    BID,
    CARDS,
    GAME_OVER,
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


class BoundKernels:
    """The njit kernels with the packed map filled in, so callers use the common protocol
    signatures (`step(state, action)`, ...). Hot loops call `K.*` with `self.m` directly."""

    def __init__(self, voyage_map):
        self.map = voyage_map
        self.m = K.pack_map(voyage_map)

    def init(self, s, n, seed, simple_deck, black_ship, max_rounds):
        K.init(s, self.m, n, seed, simple_deck, black_ship, max_rounds)

    def step(self, s, a):
        return K.step(s, self.m, a)

    def legal_mask(self, s, mask):
        K.legal_mask(s, self.m, mask)

    def is_legal(self, s, a):
        return K.is_legal(s, self.m, a)

    def observe(self, s, p, out):
        K.observe(s, self.m, p, out)

    def scores(self, s, out):
        K.scores(s, self.m, out)

    def winners(self, s, out):
        K.winners(s, self.m, out)

    def returns(self, s, out):
        K.returns(s, self.m, out)

    @staticmethod
    def turn_order(s, out):
        """Seats by turn-order position (at game start: the random order of V5)."""
        n = s[K.NP]
        out[:n] = s[K.ORDER_: K.ORDER_ + n]

    current_player = staticmethod(K.current_player)
    is_terminal = staticmethod(K.is_terminal)
    is_truncated = staticmethod(K.is_truncated)

    def random_playout(self, s, key):
        return K.random_playout(s, self.m, key)

    def random_games(self, n, first_seed, games, *opts):
        return K.random_games(self.m, n, first_seed, games, *opts)

    def init_batch(self, states, n, seeds, *opts):
        K.init_batch(states, self.m, n, seeds, *opts)

    def step_batch(self, states, acts, errors):
        K.step_batch(states, self.m, acts, errors)

    def random_step_batch(self, states, masks, keys, seeds, auto_reset, n, *opts):
        return K.random_step_batch(states, self.m, masks, keys, seeds, auto_reset, n, *opts)

    def random_playout_batch(self, states, keys):
        return K.random_playout_batch(states, self.m, keys)


def _options_parser(voyage_map):
    has_melaka = "Melaka" in voyage_map.port_name

    def parse_options(simple_deck: bool = False, black_ship: bool = False,
                      max_rounds: int = R.DEFAULT_MAX_ROUNDS, dice_movement: bool = False):
        """simple_deck (rules §15 variant 1), black_ship (mini-expansion), max_rounds cap."""
        for name, value in (("simple_deck", simple_deck), ("black_ship", black_ship),
                            ("dice_movement", dice_movement)):
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        if dice_movement:
            raise ValueError("dice_movement (rules §15 variant 2, VA34) is not implemented yet; "
                             "use simple_deck=True for the simple game")
        if black_ship and not has_melaka:
            raise ValueError(f"black_ship needs a port named Melaka on map {voyage_map.name!r} "
                             "(the Black Ship starts there, V57)")
        if not isinstance(max_rounds, (int, np.integer)) or not 1 <= max_rounds <= 1000:
            raise ValueError(f"max_rounds must be an integer in 1..1000, got {max_rounds!r}")
        return int(simple_deck), int(black_ship), int(max_rounds)

    return parse_options


def _reason(state, a, kernels) -> str:
    """Why action `a` is not legal (called only after the kernel refused it)."""
    v, m = StateView(state), kernels.map
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
                if v.simple_deck:
                    return "no pirate protection in the simple game (VA33)"
                if not m.pirate[t]:
                    return "shield only protects a step onto a pirate space (V34)"
                if v.hand[p, R.FAVOURABLE] == 0:
                    return "shield needs a favourable wind card in hand (V34)"
            if m.blue[t]:
                return "a blue space needs a playable wind card after paying (V19, V29)"
            return f"the step costs more discs than the {avail} available (V16, V18)"
        if A.BLACK <= a < A.DOCK:
            if not v.black_ship:
                return "the Black Ship is not in this game (option black_ship)"
            if avail < 1:
                return "moving the Black Ship costs 1 disc (V58)"
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


def _validator(voyage_map):
    num_hexes, num_ports = len(voyage_map.current), len(voyage_map.port_vp)

    def validate_state(state) -> None:
        """Raise ValueError naming the first thing wrong with a state vector."""
        if (not isinstance(state, np.ndarray) or state.dtype != np.int32
                or state.shape != (STATE_SIZE,)):
            raise ValueError(f"Voyage state must be an int32 vector of length {STATE_SIZE}, "
                             f"got {getattr(state, 'dtype', type(state))} "
                             f"{getattr(state, 'shape', None)}")
        v = StateView(state)
        n = v.num_players
        total_cards = R.DECK_SIZE - (R.SIMPLE_DECK_CALMS_REMOVED if v.simple_deck else 0)
        checks = [
            (2 <= n <= 4, f"num_players={n} not in 2..4"),
            (0 <= v.phase <= GAME_OVER, f"phase={v.phase} not in 0..{GAME_OVER}"),
            (v.decider == -1 if v.phase == GAME_OVER else 0 <= v.decider < n,
             f"decider={v.decider} is not a seat of a {n}-player game"),
            (((v.ship[:n] >= 0) & (v.ship[:n] < num_hexes)).all(),
             f"ship position outside the map's {num_hexes} sea spaces"),
            (set(v.order[:n].tolist()) == set(range(n)), f"order={v.order[:n]} is no permutation"),
            (all(d in (R.BASE_DISCS, R.UPGRADED_DISCS) for d in v.discs[:n]), "discs not 9 or 12"),
            (((v.spent[:n] >= 0) & (v.spent[:n] <= v.discs[:n])).all(), "spent outside 0..discs"),
            (0 <= v.deck_size <= total_cards, "bad deck_size"),
            (((v.deck[: v.deck_size] >= 0) & (v.deck[: v.deck_size] < R.NUM_CARD_KINDS)).all(),
             "bad card in deck"),
            (v.hand.min() >= 0 and v.discard.min() >= 0, "negative card counts"),
            (v.hand.sum() + v.discard.sum() + v.deck_size == total_cards,
             f"wind cards not conserved (expected {total_cards})"),
            (((v.stock + v.cubes.sum(axis=0)) == R.STOCK_PER_GOOD).all(), "cubes not conserved"),
            (((v.cubes == 0) | (v.cubes == 1)).all(), "a player carries two cubes of one good"),
            (((v.discovered[:num_ports] >= -1) & (v.discovered[:num_ports] < n)).all(),
             "bad discoverer"),
            (0 <= v.tiles_taken <= v.tiles_total == n + 1, "bad monastery tile counts"),
            (((v.targets[:n] >= -1) & (v.targets[:n] < num_ports)).all(), "bad target card"),
            (v.black_hex == -1 if not v.black_ship else 0 <= v.black_hex < num_hexes,
             "bad black_hex"),
        ]
        for ok, msg in checks:
            if not ok:
                raise ValueError(f"malformed Voyage state: {msg}")

    return validate_state


def make_game(voyage_map=None) -> Game:
    """The Voyage `Game` on a map (the default board when None)."""
    vmap = board.load_map() if voyage_map is None else voyage_map
    kernels = BoundKernels(vmap)
    names = tuple(obs_names(len(vmap.current), vmap.port_name))

    def render_ansi(state):
        from voyage_env.render import render_ansi as draw
        return draw(state, vmap)

    def render_rgb(state):
        from voyage_env.render import render_rgb as draw
        return draw(state, vmap)

    return Game(
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
        illegal_reason=lambda s, a: _reason(s, a, kernels),
        validate_state=_validator(vmap),
        render_ansi=render_ansi,
        render_rgb=render_rgb,
        option_defaults={"simple_deck": False, "black_ship": False,
                         "max_rounds": R.DEFAULT_MAX_ROUNDS},
    )


GAME = make_game()
