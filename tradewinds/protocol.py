"""The kernel protocol every game implements (docs/design.md §3), as code and as one handle.

A game is two things to the rest of the project:

- its **kernels**: numba functions over a flat int32 state vector, reached through an
  object with the methods of `GameKernels` (required) and of the optional capability
  protocols below (`PlayoutKernels`, `TurnOrderKernels`, `BatchKernels`). Every game
  binds them the same way: its ``bindings.py`` makes that object (``KERNELS`` in Hansa,
  a `VoyageKernels` per map in Voyage) with the game's static data already filled in, so
  callers use one signature per kernel. The same kernels are also bound inside numba to
  the generic ``tradewinds.compiled.protocol`` names under the game's ``aux`` value (the capability
  ``"jit"``: determinize, IS-MCTS, the envs' rewards, the batched VecEnv).
- a `Game`: the kernels with the game's sizes, names, option parsing, state checks and
  the capabilities it declares (`Game.capabilities`, checked against the kernels when the
  `Game` is made). Callers ask `Game.supports(...)` instead of probing the kernels.

| kernel | capability | meaning |
|---|---|---|
| ``init(s, num_players, seed, *opts)`` | required | a fresh game; ``opts`` = `parse_options` |
| ``legal_mask(s, mask)`` | required | writes the legal actions; never all-false in a live game |
| ``step(s, a) -> int`` | required | one decision, then everything automatic; 0 or an error code |
| ``current_player(s) -> int`` | required | who decides now; -1 once over |
| ``is_terminal(s)``, ``is_truncated(s)`` | required | over (rules or cap); stopped by the cap |
| ``scores(s, out)``, ``winners(s, out)`` | required | int64 VP per seat; 1 per winning seat |
| ``returns(s, out)`` | required | float64 win share per seat (1 split among the winners) |
| ``observe(s, player, out)`` | required | float32 view of ``player``; nothing hidden leaks |
| ``random_playout(s, key) -> int`` | ``random_playout`` | random legal play to the end |
| ``turn_order(s, out)`` | ``turn_order`` | seats in playing order at the start of a game |
| ``init_batch``, ``step_batch``, ... (`BatchKernels`) | ``batch`` | over ``[B, STATE_SIZE]`` |
| (``aux`` bound by ``protocol.bind``) | ``jit`` | tradewinds/compiled/protocol.py |

docs/adding_a_game.md walks through all of it on a tiny third game (tests/helpers/pebbles_env/).

Two layers, by where a state comes from:
- the `Game` methods take states from anywhere. Each checks its state first with the
  game's `checks` (`StateChecks`: dtype int32, shape, C order, and every field a kernel
  uses as an index or a loop bound, in one njit call fused with the kernel call) and
  raises ValueError naming the first bad field, so nothing a caller passes can crash or
  hang the interpreter. A game without `checks` gets the dtype, shape and seat checks
  only (its kernels must not trust the fields). `validate_state` is the full consistency
  check.
- `kernels` is the raw protocol, for code that holds states the kernels made or that
  passed a check (the AEC env, the arena, agents, batch loops): no checks, full speed.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from tradewinds.naming import ActionNames
from tradewinds.pyrng import SplitMix64

KEY_SALT = 0xD1B54A32D192ED03   # keys for agents and playouts differ from the game's own stream


def as_key(key) -> np.ndarray:
    """An int32[2] SplitMix64 generator state (tradewinds.rng) from an int seed, or `key`
    itself when it already is one (then calls advance it in place).

    From a seed the state is SplitMix64's first output for ``seed ^ KEY_SALT``, so agent
    and playout streams never coincide with a game's own chance stream (seeded by seed)."""
    if isinstance(key, np.ndarray):
        if key.dtype != np.int32 or key.shape != (2,) or not key.flags.c_contiguous:
            raise ValueError(f"key must be an int32[2] array, got {key.dtype} {key.shape}")
        return key
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise ValueError(f"key must be an int seed or an int32[2] array, got {key!r}")
    state = SplitMix64(SplitMix64(int(key) ^ KEY_SALT).next())
    return np.array(state.words(), dtype=np.int32)


class IllegalActionError(ValueError):
    """An action that the current state does not allow; the state is unchanged."""


class UnknownOptionError(ValueError, TypeError):
    """An option name the game does not have. A ValueError like every other bad argument;
    also a TypeError, which is what a game's `parse_options` raised for it before."""


# ------------------------------------------------------------------ the kernel protocol
# `s` is a game's int32 state vector (C order), `mask` an int8/uint8 [NUM_ACTIONS] vector,
# `out` a per-seat vector of at least num_players entries (int64 scores and winners,
# float64 returns) or a float32 [OBS_SIZE] observation, `key` an int32[2] SplitMix64
# generator state (`tradewinds.rng`), advanced in place. Batch kernels take [B, ...] arrays.


class GameKernels(Protocol):
    """The kernels every game has (docs/design.md §3)."""

    def init(self, s: np.ndarray, num_players: int, seed: int, *opts: int) -> None:
        """A fresh game from `seed`; `opts` are the values `Game.parse_options` returns."""

    def legal_mask(self, s: np.ndarray, mask: np.ndarray) -> None:
        """Write 1 for every legal action, 0 elsewhere (never all 0 in a live game)."""

    def step(self, s: np.ndarray, a: int) -> int:
        """Apply decision `a` and everything automatic after it: 0, or an error code with
        the state untouched (1 out of range, 2 the game is over, 3 illegal)."""

    def current_player(self, s: np.ndarray) -> int:
        """The seat that decides now (not always the active player); -1 once over."""

    def is_terminal(self, s: np.ndarray) -> bool:
        """Over, by the rules or by the game's round cap."""

    def is_truncated(self, s: np.ndarray) -> bool:
        """Over because the round cap stopped it (False for a game without a cap)."""

    def scores(self, s: np.ndarray, out: np.ndarray) -> None:
        """int64 VP of each seat as the state stands."""

    def winners(self, s: np.ndarray, out: np.ndarray) -> None:
        """1 for each seat that wins (shares the win) as the state stands, else 0."""

    def returns(self, s: np.ndarray, out: np.ndarray) -> None:
        """float64 share of the win of each seat: 1 split equally among the winners."""

    def observe(self, s: np.ndarray, player: int, out: np.ndarray) -> None:
        """float32 view of `player`: every entry written, nothing that player may not see."""


class PlayoutKernels(Protocol):
    """Capability ``random_playout``: whole random games inside numba (the arena's fast
    path for random agents, `Game.random_playout`)."""

    def random_playout(self, s: np.ndarray, key: np.ndarray) -> int:
        """Uniformly random legal actions (`tradewinds.rng.pick_set` on the legal mask,
        drawing from `key`) to the end; the number of decisions."""


class TurnOrderKernels(Protocol):
    """Capability ``turn_order``: a game whose playing order is not seat order."""

    def turn_order(self, s: np.ndarray, out: np.ndarray) -> None:
        """The seats in playing order at the start of the game (the arena records it)."""


class BatchKernels(Protocol):
    """Capability ``batch``: the kernels over ``[B, STATE_SIZE]`` batches, rows in
    parallel (prange) from `PARALLEL_MIN` rows up; each row equals the single kernel."""

    PARALLEL_MIN: int

    def init_batch(self, states: np.ndarray, num_players: int, seeds: np.ndarray,
                   *opts: int) -> None: ...

    def step_batch(self, states: np.ndarray, actions: np.ndarray,
                   errors: np.ndarray) -> None: ...

    def legal_mask_batch(self, states: np.ndarray, masks: np.ndarray) -> None: ...

    def observe_batch(self, states: np.ndarray, players: np.ndarray,
                      out: np.ndarray) -> None: ...

    def random_step_batch(self, states: np.ndarray, masks: np.ndarray, keys: np.ndarray,
                          seeds: np.ndarray, auto_reset: bool, num_players: int,
                          *opts: int) -> int:
        """One random decision per row; with `auto_reset` a finished row restarts with
        its seed + 1. The number of games finished."""

    def random_playout_batch(self, states: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """`random_playout` on every row; the decisions per row."""

    def random_games(self, num_players: int, first_seed: int, games: int, *opts: int) -> int:
        """`games` random games with seeds first_seed.. on one core; total decisions."""


def _members(protocol) -> tuple:
    names = [n for n in vars(protocol) if not n.startswith("_")]
    return tuple(n for n in (*getattr(protocol, "__annotations__", {}), *names)
                 if not n.startswith("_"))


REQUIRED_KERNELS = _members(GameKernels)
# capability -> the kernels it needs (``jit`` needs `Game.aux` bound in
# tradewinds.compiled.protocol)
CAPABILITIES = {
    "random_playout": _members(PlayoutKernels),
    "turn_order": _members(TurnOrderKernels),
    "batch": _members(BatchKernels),
    "jit": (),
}


def _named_options(game: str, parse: Callable, defaults: dict) -> Callable:
    """`parse` (a game's parse_options) refusing unknown option names with an
    UnknownOptionError that names the option and lists the known ones, on every path that
    parses options (`Game.new_state`, `resolve_options`, the envs)."""
    try:
        params = inspect.signature(parse).parameters.values()
    except (TypeError, ValueError):      # no signature to read: leave it as it is
        return parse
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return parse
    known = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}

    @functools.wraps(parse)
    def parse_options(**options):
        unknown = sorted(set(options) - known)
        if unknown:
            raise UnknownOptionError(
                f"unknown {game} option {unknown[0]!r}; known options: "
                f"{', '.join(sorted(known | set(defaults))) or 'none'}")
        return parse(**options)

    return parse_options


class StateChecks:
    """A game's structural state checks (a module like `hansa_env.checks`) bound to its
    map `m`. Its njit entry points are compiled for their `SIGNATURES` only, on first use,
    then compilation is turned off: a state of another dtype or memory layout makes numba
    raise TypeError instead of compiling a specialisation for it."""

    def __init__(self, module, m: np.ndarray, layout):
        self.module = module
        self.m = m
        self.rules = module.RULES
        self.layout = layout
        for name, signatures in module.SIGNATURES.items():
            setattr(self, name, self._first_call(name, getattr(module, name), signatures))

    def _first_call(self, name, dispatcher, signatures):
        def compile_then_call(*args):
            if dispatcher._can_compile:
                for sig in signatures:
                    dispatcher.compile(sig)
                dispatcher.disable_compile()
            setattr(self, name, dispatcher)
            return dispatcher(*args)
        return compile_then_call

    def message(self, game: str, state: np.ndarray, code: int) -> str:
        """The ValueError text of a check code: the field, its value, what it must be."""
        rule, index = divmod(int(code), 1000)
        field, must, *label = self.rules[rule - 1]
        if field == "<length>":
            return (f"{game} state must be a C-contiguous np.int32 vector of length "
                    f"{self.layout.size}, got length {len(state)}")
        if field not in self.layout.fields:     # a relation between fields
            at = f" ({label[0]} {index})" if label else ""
            return f"malformed {game} state: {field.strip('<>')} must be {must}{at}"
        f = self.layout.fields[field]
        label = field if f.size == 1 else f"{field}[{index}]"
        value = int(state[f.offset + index])
        return (f"malformed {game} state: {label}={value}, must be {must} "
                f"(validate_state(state) names every inconsistency)")


@dataclass(frozen=True)
class Game:
    name: str
    state_size: int
    num_actions: int
    obs_size: int
    min_players: int
    max_players: int
    kernels: GameKernels                # the raw kernels (GameKernels + capabilities)
    action_names: tuple
    obs_names: tuple
    parse_options: Callable             # (**options) -> tuple of extra init args
    illegal_reason: Callable            # (state, action) -> str
    validate_state: Callable            # (state) -> None or raises ValueError
    aux: tuple = ()                     # the game's value for tradewinds.compiled.protocol
    # the optional capabilities the game has (keys of CAPABILITIES), checked when made
    capabilities: frozenset = frozenset()
    checks: StateChecks | None = None   # structural checks of states from outside (see top)
    obs_high: Callable | None = None    # (num_players, **options) -> float32 upper bound of
                                        # each observation entry (all entries are >= 0)
    render_ansi: Callable | None = None
    render_rgb: Callable | None = None
    option_defaults: dict = field(default_factory=dict)
    # option -> the values besides its default worth playing, e.g. {"build_rule":
    # ("per_stall",)}: tests and tools enumerate option sets from them (a bool needs none)
    option_choices: dict = field(default_factory=dict)
    # (num_players, **options) -> None: ValueError when an option does not fit the player
    # count, which `parse_options` cannot see (a per-seat schedule of the wrong length)
    check_options: Callable | None = None
    # the static data the kernels were made for, for tools and tests that speak of places
    # (Voyage: its `VoyageMap`; Hansa: the `hansa_env.board` module)
    board: object = None

    # ---------------------------------------------------------------- names
    def __post_init__(self):
        object.__setattr__(self, "_names", ActionNames(self.action_names, self.name))
        object.__setattr__(self, "parse_options",
                           _named_options(self.name, self.parse_options, self.option_defaults))
        object.__setattr__(self, "capabilities", self._checked_capabilities(self.capabilities))

    def _checked_capabilities(self, declared: Iterable[str]) -> frozenset:
        """The declared capabilities, after checking that the kernels have every required
        kernel and every kernel of each declared capability (ValueError naming them)."""
        if isinstance(declared, str):
            raise ValueError(f"{self.name}: capabilities must be a set of names, got {declared!r}")
        declared = frozenset(declared)
        unknown = sorted(declared - set(CAPABILITIES))
        if unknown:
            raise ValueError(f"{self.name}: unknown capabilities {unknown}; known: "
                             f"{', '.join(sorted(CAPABILITIES))}")
        k = self.kernels
        missing = [n for n in REQUIRED_KERNELS if not callable(getattr(k, n, None))]
        for cap in sorted(declared):
            missing += [f"{n} ({cap})" for n in CAPABILITIES[cap] if getattr(k, n, None) is None]
        if missing:
            raise ValueError(f"{self.name}: the kernels lack {', '.join(missing)}")
        if "jit" in declared:
            from tradewinds.compiled import protocol

            if type(self.aux) not in protocol.bound_games():
                raise ValueError(f"{self.name}: capability 'jit' needs aux bound with "
                                 "tradewinds.compiled.protocol.bind, got "
                                 f"{type(self.aux).__name__}")
        return declared

    def supports(self, capability: str) -> bool:
        """Whether the game declared an optional capability (`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {capability!r}; known: "
                             f"{', '.join(sorted(CAPABILITIES))}")
        return capability in self.capabilities

    def require(self, capability: str, what: str) -> None:
        """ValueError unless the game has `capability`; `what` names the caller's need."""
        if not self.supports(capability):
            raise ValueError(f"{what} needs the {capability!r} capability, which {self.name} "
                             f"does not have (it has: "
                             f"{', '.join(sorted(self.capabilities)) or 'none'})")

    def action_name(self, action: int) -> str:
        return self._names.name(action)

    def action_id(self, name: str) -> int:
        return self._names.id(name)

    def action_table(self) -> str:
        """Every action id with its name, as a markdown table (docs/actions.md)."""
        rows = [f"| {i} | `{n}` |" for i, n in enumerate(self.action_names)]
        return "\n".join([f"### {self.name} ({self.num_actions} actions)", "",
                          "| id | name |", "|---:|---|", *rows])

    # ---------------------------------------------------------------- states
    def check_players(self, num_players) -> int:
        if (not isinstance(num_players, (int, np.integer)) or isinstance(num_players, bool)
                or not self.min_players <= num_players <= self.max_players):
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"got num_players={num_players!r}")
        return int(num_players)

    def resolve_options(self, options: dict | None = None,
                        num_players: int | None = None) -> dict:
        """The game's option defaults updated with `options`, checked: an unknown name or
        a bad value raises ValueError naming it (and, given `num_players`, an option that
        does not fit that player count)."""
        opts = dict(self.option_defaults)
        for k, v in (options or {}).items():
            if k not in self.option_defaults:
                raise UnknownOptionError(f"unknown {self.name} option {k!r}; known options: "
                                 f"{', '.join(sorted(self.option_defaults)) or 'none'}")
            opts[k] = v
        self.parse_options(**opts)
        if num_players is not None and self.check_options is not None:
            self.check_options(num_players, **opts)
        return opts

    def new_state(self, num_players: int, seed: int, **options) -> np.ndarray:
        """A fresh game with its setup randomness drawn from `seed`."""
        n = self.check_players(num_players)
        if not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**63:
            raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
        opts = self.parse_options(**options)
        if self.check_options is not None:
            self.check_options(n, **options)
        state = np.zeros(self.state_size, dtype=np.int32)
        self.kernels.init(state, n, int(seed), *opts)
        return state

    # ---------------------------------------------------------------- checks
    def _array_error(self, state, write: bool) -> ValueError:
        """Why numba refused `state` (it takes C-contiguous int32 vectors only)."""
        if not isinstance(state, np.ndarray):
            got = type(state).__name__
        elif state.dtype != np.int32 or state.ndim != 1:
            got = f"{state.dtype} array of shape {state.shape}"
        elif state.shape[0] != self.state_size:
            got = f"length {state.shape[0]}"
        elif not state.flags.c_contiguous:
            got = "a non-contiguous view"
        elif write and not state.flags.writeable:
            got = "a read-only array (this call changes the state)"
        else:
            got = f"{type(state).__name__} {state.dtype} {state.shape}"
        return ValueError(f"{self.name} state must be a C-contiguous np.int32 vector of length "
                          f"{self.state_size}, got {got}")

    def _readable(self, state) -> np.ndarray:
        """A state numba refused that a read-only call can still use (a read-only array or an
        ndarray subclass: a plain copy), else the ValueError."""
        if (isinstance(state, np.ndarray) and state.dtype == np.int32
                and state.shape == (self.state_size,) and state.flags.c_contiguous):
            return np.array(state, dtype=np.int32)
        raise self._array_error(state, write=False)

    def _plain(self, state, write: bool = False) -> np.ndarray:
        """For a game without `checks`: `state` when numba may take it as it is (a
        C-contiguous int32 vector of the game's length; writeable for a call that changes
        it), a plain copy of a read-only one for a call that does not, else the ValueError.
        """
        if (type(state) is np.ndarray and state.dtype == np.int32
                and state.shape == (self.state_size,) and state.flags.c_contiguous
                and state.flags.writeable):
            return state
        if write:
            raise self._array_error(state, write=True)
        return self._readable(state)

    def _state_error(self, state, code: int) -> ValueError:
        return ValueError(self.checks.message(self.name, state, code))

    def checked(self, state, play: bool = False) -> np.ndarray:
        """`state` if it passes the structural check (a plain copy of a read-only one);
        else ValueError naming the first field a kernel could not survive. `play`: the
        stricter check a whole played-out game needs (`checks.check_play`)."""
        c = self.checks
        if c is None:
            return self._plain(state)
        f = c.check_play if play else c.check
        try:
            code = f(state, c.m)
        except TypeError:
            state = self._readable(state)
            code = f(state, c.m)
        if code:
            raise self._state_error(state, code)
        return state

    # ---------------------------------------------------------------- queries and steps
    def legal_mask(self, state: np.ndarray) -> np.ndarray:
        c = self.checks
        if c is None:
            mask = np.zeros(self.num_actions, dtype=np.int8)
            self.kernels.legal_mask(self._plain(state), mask)
            return mask
        mask = np.empty(self.num_actions, dtype=np.int8)   # the kernel writes every entry
        try:
            code = c.legal_mask(state, c.m, mask)
        except TypeError:
            state = self._readable(state)
            code = c.legal_mask(state, c.m, mask)
        if code:
            raise self._state_error(state, code)
        return mask

    def legal_actions(self, state: np.ndarray) -> list:
        return [int(a) for a in np.flatnonzero(self.legal_mask(state))]

    def step(self, state: np.ndarray, action) -> None:
        """Apply `action` (id or name) in place; IllegalActionError names it and says why.
        A malformed state raises a plain ValueError (the action is not to blame)."""
        try:
            a = self.action_id(action) if isinstance(action, str) else action
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise IllegalActionError(f"{self.name}: action must be an int id or a name, got {a!r}")
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(
                f"{self.name}: action id {a} out of range 0..{self.num_actions - 1}")
        c = self.checks
        if c is None:
            code = self.kernels.step(self._plain(state, write=True), int(a))
        else:
            try:
                code = c.step(state, c.m, int(a))
            except TypeError:
                raise self._array_error(state, write=True) from None
        if code != 0:
            if code >= 1000:
                raise self._state_error(state, code)
            raise IllegalActionError(
                f"{self.action_name(a)} is illegal: {self.illegal_reason(state, int(a))}")

    def _query(self, state, what: int) -> int:
        """current_player (0), is_terminal (1), is_truncated (2) in one checked call."""
        c = self.checks
        if c is None:
            k = self.kernels
            return int((k.current_player, k.is_terminal, k.is_truncated)[what](
                self._plain(state)))
        try:
            r = c.query(state, c.m, what)
        except TypeError:
            state = self._readable(state)
            r = c.query(state, c.m, what)
        if r >= 1000:
            raise self._state_error(state, r)
        return r

    def current_player(self, state) -> int:
        return self._query(state, 0)

    def is_terminal(self, state) -> bool:
        return self._query(state, 1) == 1

    def is_truncated(self, state) -> bool:
        return self._query(state, 2) == 1

    def num_players(self, state) -> int:
        return int(self.checked(state)[0])

    def round(self, state) -> int | None:
        """The game's round counter (the state layout's `round` field; after a game, the
        number of rounds it lasted), or None for a game whose layout has no rounds."""
        layout = self.checks.layout if self.checks is not None else None
        if layout is None or "round" not in layout.fields:
            return None
        return int(self.checked(state)[layout.offset("round")])

    def _per_seat(self, name: str, state, dtype) -> np.ndarray:
        """scores / winners / returns of every seat of the game, in one checked call."""
        out = np.zeros(self.max_players, dtype=dtype)
        c = self.checks
        if c is None:
            state = self._plain(state)
            getattr(self.kernels, name)(state, out)    # a required kernel (GameKernels)
            return out[: int(state[0])]
        f = getattr(c, name)
        try:
            code = f(state, c.m, out)
        except TypeError:
            state = self._readable(state)
            code = f(state, c.m, out)
        if code:
            raise self._state_error(state, code)
        return out[: int(state[0])]

    def scores(self, state) -> np.ndarray:
        return self._per_seat("scores", state, np.int64)

    def winners(self, state) -> list:
        return [int(p) for p in np.flatnonzero(self._per_seat("winners", state, np.int64))]

    def returns(self, state) -> np.ndarray:
        return self._per_seat("returns", state, np.float64)

    def observe(self, state, player: int) -> np.ndarray:
        if not isinstance(player, (int, np.integer)) or isinstance(player, bool):
            raise ValueError(f"{self.name}: player must be an int seat, got {player!r}")
        c = self.checks
        if c is None:
            state = self._plain(state)
            n = int(state[0])
            n = n if self.min_players <= n <= self.max_players else self.max_players
            if not 0 <= player < n:
                raise ValueError(f"{self.name}: player must be a seat 0..{n - 1}, "
                                 f"got {player!r}")
            out = np.zeros(self.obs_size, dtype=np.float32)
            self.kernels.observe(state, int(player), out)
            return out
        if not 0 <= player < self.max_players:
            raise ValueError(f"{self.name}: player must be a seat 0..num_players-1, "
                             f"got {player!r}")
        out = np.empty(self.obs_size, dtype=np.float32)   # the kernel writes every entry
        try:
            code = c.observe(state, c.m, int(player), out)
        except TypeError:
            state = self._readable(state)
            code = c.observe(state, c.m, int(player), out)
        if code:
            if c.rules[code // 1000 - 1][0] == "<player>":  # the seat, not the state
                n = int(state[0])
                raise ValueError(f"{self.name}: player must be a seat 0..{n - 1}, got {player!r}")
            raise self._state_error(state, code)
        return out

    def random_playout(self, state: np.ndarray, key) -> int:
        """Uniformly random legal actions from `state` (changed in place) to the end of the
        game; the number of decisions. `key`: an int seed or an int32[2] generator state
        (advanced). The same choices as the kernel's own `random_playout`."""
        self.require("random_playout", "random_playout")
        key = as_key(key)
        c = self.checks
        if c is None:
            return int(self.kernels.random_playout(self._plain(state, write=True), key))
        try:
            r = c.random_playout(state, c.m, key)
        except TypeError:
            if (isinstance(state, np.ndarray) and state.dtype == np.int32
                    and state.shape == (self.state_size,) and state.flags.c_contiguous
                    and state.flags.writeable):
                raise ValueError("key must be a writeable int32[2] array (it is advanced)"
                                 ) from None
            raise self._array_error(state, write=True) from None
        if r < 0:
            raise self._state_error(state, -r)
        return int(r)

    def determinize(self, state: np.ndarray, player: int, key) -> np.ndarray:
        """A new state that `player` cannot tell apart from `state`: everything hidden from
        him resampled uniformly among what his observation allows, from `key` (an int seed,
        or an int32[2] generator state that is advanced). `state` is not changed."""
        self.require("jit", "determinize")
        from tradewinds.compiled.generic import determinize

        state = self.checked(state, play=True)
        self.check_seat(state, player)
        return determinize(self.aux, state, int(player), as_key(key))

    def turn_order(self, state) -> list:
        """The seats in playing order at the start of the game of `state`: the game's
        `turn_order` kernel where it has one (capability ``turn_order``), else seat order."""
        n = self.num_players(state)
        if not self.supports("turn_order"):
            return list(range(n))
        out = np.zeros(self.max_players, dtype=np.int64)
        self.kernels.turn_order(self.checked(state), out)
        return [int(x) for x in out[:n]]

    def check_seat(self, state, player) -> int:
        n = self.num_players(state)
        if (not isinstance(player, (int, np.integer)) or isinstance(player, bool)
                or not 0 <= player < n):
            raise ValueError(f"{self.name}: player must be a seat 0..{n - 1}, got {player!r}")
        return int(player)

    def replay(self, num_players: int, seed: int, actions, **options) -> np.ndarray:
        """The state reached from (seed, actions): games replay exactly."""
        state = self.new_state(num_players, seed, **options)
        for a in actions:
            self.step(state, a)
        return state
