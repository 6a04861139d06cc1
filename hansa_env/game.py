"""Hansa as a `tradewinds.Game`: options, error reasons and state checks around the kernel."""

from __future__ import annotations

import numpy as np

from hansa_env import actions as A
from hansa_env import board as B
from hansa_env import checks as C
from hansa_env import kernel as K
from hansa_env.bindings import AUX, CAPABILITIES, KERNELS
from hansa_env.observation import obs_high, obs_names
from hansa_env.state import (
    ACTIONS,
    GAME_OVER,
    LAYOUT,
    LOSS,
    PHASE_NAMES,
    REFILL,
    SELLING,
    SETUP,
    STATE_SIZE,
    TAX,
    StateView,
)
from tradewinds.compensation import check_count, parse_schedule
from tradewinds.protocol import Game, StateChecks

BUILD_RULES = {"barrels": 0, "per_stall": 1}


def parse_options(build_rule: str = "barrels", max_rounds: int = B.DEFAULT_MAX_ROUNDS,
                  seat_talers=(), seat_vp=(), setup_order: str = "forward"):
    """Options -> extra init arguments: build_rule ("barrels" | "per_stall"), max_rounds,
    then seat_talers and seat_vp (HA21, HA22) as four per-seat integers each, then
    setup_order ("forward" | "reverse" | "snake", HA23) as its index in B.SETUP_ORDERS."""
    if build_rule not in BUILD_RULES:
        raise ValueError(f"build_rule must be one of {sorted(BUILD_RULES)}, got {build_rule!r}")
    if not isinstance(max_rounds, (int, np.integer)) or not 1 <= max_rounds <= 10_000:
        raise ValueError(f"max_rounds must be an integer in 1..10000, got {max_rounds!r}")
    return (BUILD_RULES[build_rule], int(max_rounds),
            *parse_schedule("seat_talers", seat_talers, B.SEAT_TALERS_LIMIT),
            *parse_schedule("seat_vp", seat_vp, B.SEAT_VP_LIMIT),
            setup_order_index(setup_order))


def setup_order_index(setup_order) -> int:
    """The index of option setup_order (HA23) in B.SETUP_ORDERS, or a ValueError naming
    the option."""
    if not isinstance(setup_order, str) or setup_order not in B.SETUP_ORDERS:
        raise ValueError(f"setup_order must be one of {', '.join(B.SETUP_ORDERS)} (HA23), "
                         f"got {setup_order!r}")
    return B.SETUP_ORDERS.index(setup_order)


def check_options(num_players: int, seat_talers=(), seat_vp=(), **_):
    """The per-seat options against the player count (one entry per seat, or none)."""
    check_count("seat_talers", seat_talers, num_players)
    check_count("seat_vp", seat_vp, num_players)


def _city(c):
    return B.CITIES[c]


def illegal_reason(state: np.ndarray, a: int) -> str:
    """Why action `a` is not legal in `state` (called only after the kernel refused it)."""
    v = StateView(state)
    phase, p = v.phase, v.decider
    if phase == GAME_OVER:
        return "the game is over"
    where = f"in phase {PHASE_NAMES[phase]}"
    if phase == SETUP:
        if a >= A.REFILL:
            return f"only setup:<City> placements are allowed {where}"
        if a == B.COPENHAGEN:
            return "no setup placement in Copenhagen (H8)"
        return f"player {p} already placed in {_city(a)} (three different cities, H8)"
    if phase == REFILL:
        return f"choose refill or skip_refill {where}"
    if phase == ACTIONS:
        ship = v.ship
        if A.SAIL <= a < A.BUY:
            if not K.ROUTE[ship, a - A.SAIL]:
                return f"no route from {_city(ship)} to {_city(a - A.SAIL)} (H15)"
            return "sailing costs 1 taler and player has none (H15)"
        building = A.BUILD <= a < A.SELL_ADD and 0 < v.build_count < K.MAX_STALLS_PER_BUILD
        if A.BUY <= a < A.SELL_DONE and v.acted_here and not building:
            if A.BUILD <= a < A.SELL_ADD and v.build_count:
                return (f"a build places at most {K.MAX_STALLS_PER_BUILD} stalls "
                        "(per_stall, H20)")
            return f"already acted during this visit to {_city(ship)} (H18)"
        if A.BUY <= a < A.BUILD:
            w = a - A.BUY
            if K.WH_CITY[w] != ship:
                return f"the ship is in {_city(ship)}, not {_city(K.WH_CITY[w])} (H17)"
            if v.warehouse[w] < 0:
                return "that warehouse is empty (H19)"
            return "the price is 1 taler and player has none (H19)"
        if A.BUILD <= a < A.SELL_ADD:
            if v.hand.reshape(-1, B.NUM_TOKEN_TYPES)[p][a - A.BUILD] == 0:
                return f"player {p} holds no {B.TOKEN_NAMES[a - A.BUILD]} token (H20)"
            return "no stalls left in supply (H20, HA11)"
        if A.SELL_ADD <= a < A.SELL_DONE:
            t = a - A.SELL_ADD
            if v.stalls[ship, p] == 0:
                return f"selling needs a stall in {_city(ship)} (H21)"
            if v.hand.reshape(-1, B.NUM_TOKEN_TYPES)[p][t] == 0:
                return f"player {p} holds no {B.TOKEN_NAMES[t]} token"
            return f"selling {B.COLOURS[t // 3]} needs at least two such tokens (H21)"
        return f"not an action {where}"
    if phase == SELLING:
        if a == A.SELL_DONE:
            return "every colour sold needs at least two tokens (H21)"
        if A.SELL_ADD <= a < A.SELL_DONE:
            t = a - A.SELL_ADD
            if v.hand.reshape(-1, B.NUM_TOKEN_TYPES)[p].reshape(-1, 3)[t // 3].sum() < 2:
                return f"selling {B.COLOURS[t // 3]} needs at least two such tokens (H21)"
            return f"no unselected {B.TOKEN_NAMES[t]} token left to add"
        return "finish the sale first (sell:add:<token> or sell:done)"
    if phase == LOSS:
        c = B.COLOURS[v.loss_colour]
        return f"player {p} must discard one {c} token he holds (H23)"
    if phase == TAX:
        return f"player {p} must discard held tokens down to three (H24)"
    return "unknown phase"


def validate_state(state) -> None:
    """Raise ValueError naming the first thing wrong with a state vector.

    Everything the reference's loader rejects (`reference.HansaGame.from_state`) is
    rejected here too (tests/core/test_state_checks.py mutates states field by field and asks
    both), after the kernels' structural check (`hansa_env.checks`)."""
    if (not isinstance(state, np.ndarray) or state.dtype != np.int32
            or state.shape != (STATE_SIZE,) or not state.flags.c_contiguous):
        raise ValueError(
            f"Hansa state must be a C-contiguous int32 vector of length {STATE_SIZE}, got "
            f"{type(state).__name__} {getattr(state, 'dtype', None)} "
            f"{getattr(state, 'shape', None)}")
    v = StateView(state)
    n = v.num_players
    checks = [  # conditions are callables: later ones assume earlier ones
        (lambda: 2 <= n <= 4, f"num_players={n} not in 2..4"),
        (lambda: 0 <= v.phase <= GAME_OVER, f"phase={v.phase} not in 0..{GAME_OVER}"),
        (lambda: 0 <= v.ship < len(B.CITIES), f"ship={v.ship} is not a city index"),
        (lambda: v.decider == -1 if v.phase == GAME_OVER else 0 <= v.decider < n,
         f"decider={v.decider} is not a seat of a {n}-player game"),
        (lambda: 0 <= v.active < n, f"active={v.active} is not a seat"),
        (lambda: v.build_rule in (0, 1), f"build_rule={v.build_rule} not 0 or 1"),
        (lambda: 0 <= v.setup_order < len(B.SETUP_ORDERS),
         f"setup_order={v.setup_order} not in 0..{len(B.SETUP_ORDERS) - 1}"),
        (lambda: v.max_rounds >= 1, f"max_rounds={v.max_rounds} < 1"),
        (lambda: (v.money >= 0).all(), "negative money"),
        (lambda: (v.seat_vp >= 0).all(), "negative seat_vp"),
        (lambda: (v.hand >= 0).all() and (v.sold >= 0).all(), "negative token counts"),
        (lambda: (v.stalls >= 0).all() and (v.stall_supply >= 0).all(), "negative stall counts"),
        (lambda: ((v.warehouse >= -1) & (v.warehouse < B.NUM_TOKEN_TYPES)).all(),
         "bad warehouse token"),
        (lambda: 0 <= v.supply_drawn <= v.pile_end[4] <= len(v.supply), "bad supply counters"),
        (lambda: 0 <= v.loss_colour < len(B.COLOURS), "bad loss_colour"),
        (lambda: v.acted_here in (0, 1) and v.end_triggered in (0, 1), "flags must be 0 or 1"),
        (lambda: v.phase == SELLING or not v.sale.any(), "a sale selection outside phase selling"),
        (lambda: v.phase == LOSS or v.loss_colours == v.loss_seat == v.loss_pending == v.loss_next
         == v.loss_colour == 0, "loss bookkeeping outside phase loss"),
    ]
    for ok, msg in checks:
        if not ok():
            raise ValueError(f"malformed Hansa state: {msg}")
    out = v.colour_in_play == 0
    if (v.hand[:, out].any() or v.sold[:, out].any()
            or any(w >= 0 and not v.colour_in_play[w // 3] for w in v.warehouse)):
        raise ValueError("malformed Hansa state: tokens of a set-aside colour are in play")
    seats = np.arange(4) >= n
    if (v.money[seats].any() or v.stalls[:, seats].any() or v.hand[seats].any()
            or v.stall_supply[seats].any() or v.sold[seats].any() or v.seat_vp[seats].any()):
        raise ValueError("malformed Hansa state: unused seats must be zero")
    placed = v.stalls.sum(axis=0) + v.stall_supply
    if (placed[:n] != B.STALLS_PER_PLAYER).any():
        raise ValueError(f"malformed Hansa state: stalls not conserved (board+supply={placed[:n]})")
    if v.phase in (REFILL, ACTIONS, SELLING, TAX) and v.decider != v.active:
        raise ValueError("malformed Hansa state: the active player must decide in this phase")
    if v.phase == LOSS and v.decider == v.active:
        raise ValueError("malformed Hansa state: the seller cannot decide his own loss")
    held = np.zeros(B.NUM_TOKEN_TYPES, dtype=np.int64)
    for w in v.warehouse:
        if w >= 0:
            held[w] += 1
    for t in v.supply[v.supply_drawn: v.pile_end[4]]:
        if not 0 <= t < B.NUM_TOKEN_TYPES:
            raise ValueError("malformed Hansa state: bad token in supply piles")
        held[t] += 1
    held += v.hand.reshape(4, -1).sum(0) + v.sold.reshape(4, -1).sum(0) + v.removed.reshape(-1)
    expected = np.tile(B.TOKENS_PER_BARREL, len(B.COLOURS))
    if (held != expected).any():
        bad = int(np.flatnonzero(held != expected)[0])
        raise ValueError(
            f"malformed Hansa state: {B.TOKEN_NAMES[bad]} tokens not conserved "
            f"({held[bad]} instead of {expected[bad]})")
    GAME.checked(state, play=True)   # the structural checks: indices, loop bounds, counts
    _check_progress(v, n)


def _check_progress(v: StateView, n: int) -> None:
    """The turn, setup, supply, loss and build bookkeeping (as the reference checks it)."""
    steps = B.SETUP_PLACEMENTS * n
    end = int(v.pile_end[4])
    loss_ok = (1 <= v.loss_next < n and v.loss_seat == (v.active + v.loss_next) % n
               and (v.loss_colours >> v.loss_colour) & 1 and v.loss_pending & ~v.loss_colours == 0)
    out = v.colour_in_play == 0
    checks = [
        (v.turns >= 0, f"turns={v.turns} is negative"),
        (v.truncated in (0, 1) and (not v.truncated or v.phase == GAME_OVER),
         f"truncated={v.truncated} but phase={PHASE_NAMES[v.phase]}"),
        ((v.phase == SETUP) == (v.setup_step < steps),
         f"setup_step={v.setup_step} in phase {PHASE_NAMES[v.phase]} (setup lasts {steps} steps)"),
        (v.phase != SETUP or v.active == K.setup_seat(n, v.setup_step, v.setup_order),
         f"active={v.active} but setup placement {v.setup_step} belongs to another seat"),
        (v.decider == (-1 if v.phase == GAME_OVER else v.loss_seat if v.phase == LOSS
                       else v.active),
         f"decider={v.decider} is not the seat the rules ask in phase {PHASE_NAMES[v.phase]}"),
        ((v.removed >= 0).all(), "negative removed token counts"),
        (np.isin(v.colour_in_play, (0, 1)).all()
         and int(v.colour_in_play.sum()) == len(B.COLOURS) - B.COLOURS_REMOVED[n],
         f"colour_in_play={v.colour_in_play.tolist()} for {n} players"),
        ((v.removed[out] == B.TOKENS_PER_BARREL).all(),
         "every token of a set-aside colour must be removed"),
        (((v.supply[:end] >= 0) & (v.supply[:end] < B.NUM_TOKEN_TYPES)).all()
         and (v.supply[end:] == -1).all(),
         f"supply entries must be token types below pile_end[4]={end} and -1 beyond"),
        (v.phase != LOSS or loss_ok, "loss bookkeeping inconsistent in phase loss"),
        (v.build_count == 0 or (v.build_rule == 1 and v.acted_here and v.phase == ACTIONS),
         f"build_count={v.build_count} outside a per_stall build in phase actions"),
    ]
    for ok, msg in checks:
        if not ok:
            raise ValueError(f"malformed Hansa state: {msg}")


def _render_ansi(state):
    from hansa_env.render import render_ansi
    return render_ansi(state)


def _render_rgb(state):
    from hansa_env.render import render_rgb
    return render_rgb(state)


GAME = Game(
    name="hansa",
    state_size=STATE_SIZE,
    num_actions=A.NUM_ACTIONS,
    obs_size=K.OBS_SIZE,
    min_players=B.MIN_PLAYERS,
    max_players=B.MAX_PLAYERS,
    kernels=KERNELS,
    action_names=A.NAMES,
    obs_names=tuple(obs_names()),
    parse_options=parse_options,
    illegal_reason=illegal_reason,
    validate_state=validate_state,
    aux=AUX,
    capabilities=CAPABILITIES,
    checks=StateChecks(C, C.M, LAYOUT),
    obs_high=lambda num_players, seat_talers=(), seat_vp=(), **options: obs_high(
        num_players, seat_talers, seat_vp),
    render_ansi=_render_ansi,
    render_rgb=_render_rgb,
    option_defaults={"build_rule": "barrels", "max_rounds": B.DEFAULT_MAX_ROUNDS,
                     "seat_talers": (), "seat_vp": (), "setup_order": "forward"},
    option_choices={"seat_talers": ((0, 1, 2, 3),), "seat_vp": ((0, 1, 2, 3),),
                    "setup_order": ("reverse", "snake")},
    check_options=check_options,
    board=B,
)
