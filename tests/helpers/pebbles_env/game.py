"""Pebbles as a `tradewinds.Game`: options, names, reasons and state checks around the
kernels (compare hansa_env/game.py, the full version)."""

from __future__ import annotations

import numpy as np

from tradewinds.protocol import Game

from . import actions as A
from . import kernel as K
from .bindings import AUX, CAPABILITIES, KERNELS
from .state import (
    DEFAULT_PILE,
    MAX_PLAYERS,
    MAX_TAKE,
    MIN_PLAYERS,
    NUM_CARDS,
    STATE_SIZE,
    StateView,
)

MAX_PILE = 10_000


def parse_options(pile: int = DEFAULT_PILE, open_cards: bool = False) -> tuple:
    """Options -> the extra arguments of `kernel.init`: (pile, open_cards)."""
    if (not isinstance(pile, (int, np.integer)) or isinstance(pile, bool)
            or not MAX_TAKE + 1 <= pile <= MAX_PILE):
        raise ValueError(f"pile must be an integer in {MAX_TAKE + 1}..{MAX_PILE}, got {pile!r}")
    if not isinstance(open_cards, (bool, np.bool_)):
        raise ValueError(f"open_cards must be True or False, got {open_cards!r}")
    return int(pile), int(open_cards)


OBS_NAMES = ("pile", *(f"taken:{q}" for q in range(MAX_PLAYERS)),
             *(f"me:{q}" for q in range(MAX_PLAYERS)),
             *(f"to_move:{q}" for q in range(MAX_PLAYERS)),
             *(f"forbidden:{k}" for k in range(1, MAX_TAKE + 1)), "my_card",
             *(f"card:{q}" for q in range(MAX_PLAYERS)))
assert len(OBS_NAMES) == K.OBS_SIZE


def obs_high(num_players: int, pile: int = DEFAULT_PILE, open_cards: bool = False):
    """The largest value of each observation entry (all are >= 0)."""
    high = np.ones(K.OBS_SIZE, dtype=np.float32)
    high[: 1 + MAX_PLAYERS] = pile
    high[-1 - MAX_PLAYERS:] = NUM_CARDS
    return high


def illegal_reason(state, a: int) -> str:
    """Why action `a` is not legal (called only after the kernel refused it)."""
    v = StateView(state)
    if v.decider < 0:
        return "the game is over"
    k = A.pebbles(a)
    if k > v.pile:
        return f"only {v.pile} pebbles are left"
    return f"the previous take was {k} pebbles, and a take may not repeat it"


def validate_state(state) -> None:
    """Raise ValueError naming the first thing wrong with a state vector."""
    if (not isinstance(state, np.ndarray) or state.dtype != np.int32
            or state.shape != (STATE_SIZE,) or not state.flags.c_contiguous):
        raise ValueError(f"Pebbles state must be a C-contiguous int32 vector of length "
                         f"{STATE_SIZE}, got {type(state).__name__} "
                         f"{getattr(state, 'dtype', None)} {getattr(state, 'shape', None)}")
    v = StateView(state)
    n = v.num_players
    checks = [      # callables: later ones assume earlier ones
        (lambda: MIN_PLAYERS <= n <= MAX_PLAYERS, f"num_players={n} not in 2..4"),
        (lambda: MAX_TAKE < v.pile_size <= MAX_PILE, f"pile_size={v.pile_size} out of range"),
        (lambda: v.open_cards in (0, 1), f"open_cards={v.open_cards} not 0 or 1"),
        (lambda: (v.taken >= 0).all() and 0 <= v.pile, "negative pebble counts"),
        (lambda: v.pile + v.taken.sum() == v.pile_size, "pebbles not conserved"),
        (lambda: not v.taken[n:].any() and not v.card[n:].any(), "unused seats must be zero"),
        (lambda: sorted(set(v.card[:n].tolist())) == sorted(v.card[:n].tolist())
         and ((v.card[:n] >= 1) & (v.card[:n] <= NUM_CARDS)).all(),
         f"cards={v.card[:n].tolist()} are not distinct cards 1..{NUM_CARDS}"),
        (lambda: 1 <= v.forbidden <= MAX_TAKE, f"forbidden={v.forbidden} not in 1..3"),
        (lambda: v.turns >= 0, f"turns={v.turns} is negative"),
        (lambda: v.decider == (-1 if v.pile == 0 else v.turns % n),
         f"decider={v.decider} but seat {v.turns % n} moves after {v.turns} turns"),
    ]
    for ok, message in checks:
        if not ok():
            raise ValueError(f"malformed Pebbles state: {message}")


def render_ansi(state) -> str:
    v = StateView(state)
    n, over = v.num_players, v.decider < 0
    seats = "  ".join(f"p{q}:{v.taken[q]}" + (f"+{v.card[q]}" if over or v.open_cards else "")
                      for q in range(n))
    head = "game over" if over else f"player_{v.decider} to move, not take:{v.forbidden}"
    return f"pebbles left {v.pile}/{v.pile_size} | {seats} | {head}"


GAME = Game(
    name="pebbles",
    state_size=STATE_SIZE,
    num_actions=A.NUM_ACTIONS,
    obs_size=K.OBS_SIZE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    kernels=KERNELS,
    action_names=A.NAMES,
    obs_names=OBS_NAMES,
    parse_options=parse_options,
    illegal_reason=illegal_reason,
    validate_state=validate_state,
    aux=AUX,
    capabilities=CAPABILITIES,
    obs_high=obs_high,
    render_ansi=render_ansi,
    option_defaults={"pile": DEFAULT_PILE, "open_cards": False},
)
