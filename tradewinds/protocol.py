"""The kernel protocol both games implement (DESIGN.md §2), as one Python handle.

A `Game` bundles a game's numba kernels with its sizes, names and option parsing, so the
AEC env, the arena, agents and benchmarks are written once against this class. The
kernels stay plain njit functions over flat int32 states; this class only adds checks
and names around them and never sits inside a hot loop it does not have to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tradewinds.naming import ActionNames

ERROR_TEXT = {1: "out of range", 2: "the game is over", 3: "illegal"}


class IllegalActionError(ValueError):
    """An action that the current state does not allow; the state is unchanged."""


@dataclass(frozen=True)
class Game:
    name: str
    state_size: int
    num_actions: int
    obs_size: int
    min_players: int
    max_players: int
    kernels: object                     # module with init, legal_mask, step, ... (njit)
    action_names: tuple
    obs_names: tuple
    parse_options: Callable             # (**options) -> tuple of extra init args
    illegal_reason: Callable            # (state, action) -> str
    validate_state: Callable            # (state) -> None or raises ValueError
    render_ansi: Callable | None = None
    render_rgb: Callable | None = None
    option_defaults: dict = field(default_factory=dict)

    # ---------------------------------------------------------------- names
    def __post_init__(self):
        object.__setattr__(self, "_names", ActionNames(self.action_names, self.name))

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

    def new_state(self, num_players: int, seed: int, **options) -> np.ndarray:
        """A fresh game with its setup randomness drawn from `seed`."""
        n = self.check_players(num_players)
        if not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**63:
            raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
        state = np.zeros(self.state_size, dtype=np.int32)
        self.kernels.init(state, n, int(seed), *self.parse_options(**options))
        return state

    def legal_mask(self, state: np.ndarray) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        self.kernels.legal_mask(state, mask)
        return mask

    def legal_actions(self, state: np.ndarray) -> list:
        return [int(a) for a in np.flatnonzero(self.legal_mask(state))]

    def step(self, state: np.ndarray, action) -> None:
        """Apply `action` (id or name) in place; IllegalActionError names it and says why."""
        try:
            a = self.action_id(action) if isinstance(action, str) else action
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise IllegalActionError(f"{self.name}: action must be an int id or a name, got {a!r}")
        code = self.kernels.step(state, int(a)) if 0 <= a < self.num_actions else 1
        if code != 0:
            if code == 1:
                raise IllegalActionError(
                    f"{self.name}: action id {a} out of range 0..{self.num_actions - 1}")
            raise IllegalActionError(
                f"{self.action_name(a)} is illegal: {self.illegal_reason(state, int(a))}")

    def current_player(self, state) -> int:
        return int(self.kernels.current_player(state))

    def is_terminal(self, state) -> bool:
        return bool(self.kernels.is_terminal(state))

    def is_truncated(self, state) -> bool:
        return bool(self.kernels.is_truncated(state))

    def num_players(self, state) -> int:
        return int(state[0])

    def scores(self, state) -> np.ndarray:
        out = np.zeros(self.max_players, dtype=np.int64)
        self.kernels.scores(state, out)
        return out[: self.num_players(state)]

    def winners(self, state) -> list:
        out = np.zeros(self.max_players, dtype=np.int64)
        self.kernels.winners(state, out)
        return [int(p) for p in np.flatnonzero(out[: self.num_players(state)])]

    def returns(self, state) -> np.ndarray:
        out = np.zeros(self.max_players, dtype=np.float64)
        self.kernels.returns(state, out)
        return out[: self.num_players(state)]

    def observe(self, state, player: int) -> np.ndarray:
        out = np.zeros(self.obs_size, dtype=np.float32)
        self.kernels.observe(state, int(player), out)
        return out

    def replay(self, num_players: int, seed: int, actions, **options) -> np.ndarray:
        """The state reached from (seed, actions): games replay exactly."""
        state = self.new_state(num_players, seed, **options)
        for a in actions:
            self.step(state, a)
        return state
