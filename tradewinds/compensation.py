"""Per-seat compensation schedules: the project's seat-balance variants of both games.

A schedule gives one non-negative integer per *initial* turn-order position, the first
player first (Hansa: seat 0 is the start player, HA7; the Voyage game: the random order of
V5). `()` is no compensation, the default; a non-empty schedule needs an entry for every
seat, and entries past the last seat are not used (so one schedule serves every player
count: `(0, 1, 2, 3)` gives seat 2 one, seat 3 two, seat 4 three). The rules pages define
the variants (docs/rules/hansa.md HA21-HA22, docs/rules/voyage.md VA40-VA41).

`parse_schedule` checks what `parse_options` can see (type, sign, bounds) and pads to
`MAX_SEATS` kernel arguments; `check_count` checks the length against the player count,
which `parse_options` cannot see (`Game.check_options` runs it in `Game.new_state`).
"""

from __future__ import annotations

import numpy as np

MAX_SEATS = 4


def parse_schedule(name: str, value, limit: int) -> tuple:
    """`value` (list or tuple of integers in 0..limit, seat 1 first) -> `MAX_SEATS`
    kernel arguments, zero-padded; a ValueError naming `name` and what is wrong."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{name} must be a list of integers, one per initial turn-order "
                         f"position (seat 1 first), or () for none; got {value!r}")
    if len(value) > MAX_SEATS:
        raise ValueError(f"{name} has {len(value)} entries; at most {MAX_SEATS}, one per "
                         "seat")
    for k, x in enumerate(value):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            raise ValueError(f"{name}[{k}]={x!r} is not a whole number (scores and "
                             "counts are integers)")
        if not 0 <= x <= limit:
            raise ValueError(f"{name}[{k}]={x} must be in 0..{limit}")
    return tuple(int(x) for x in value) + (0,) * (MAX_SEATS - len(value))


def check_count(name: str, value, num_players: int) -> None:
    """A non-empty schedule needs an entry for every seat (ValueError naming `name`)."""
    if 0 < len(value) < num_players:
        raise ValueError(f"{name} has {len(value)} entries for a {num_players}-player "
                         f"game; give one per initial turn-order position, or () for none")
