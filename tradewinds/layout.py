"""Named fields inside a flat int32 state vector (docs/design.md §2).

A game declares its fields once as (name, shape) pairs; `Layout` assigns offsets and
hands out numpy views, so tests and tools read and edit a state by name while the
numba kernel works on plain integer offsets taken from the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    shape: tuple

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    def __init__(self, fields):
        self.fields = {}
        offset = 0
        for name, shape in fields:
            shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
            self.fields[name] = Field(name, offset, shape)
            offset += prod(shape)
        self.size = offset

    def offset(self, name: str) -> int:
        return self.fields[name].offset

    def view(self, state: np.ndarray, name: str) -> np.ndarray:
        f = self.fields[name]
        v = state[f.offset: f.offset + f.size]
        return v.reshape(f.shape) if len(f.shape) > 1 else v

    def table(self) -> str:
        """A markdown table of the layout, for the docs."""
        rows = ["| field | offset | shape |", "|---|---|---|"]
        rows += [f"| `{f.name}` | {f.offset} | {f.shape} |" for f in self.fields.values()]
        return "\n".join(rows)


class StateViewBase:
    """Attribute access to a state's fields; every attribute is a view (writes go through).

    Scalar fields come back as 1-element arrays' values on read and are settable:
    `view.phase = 2`.
    """

    layout: Layout
    scalars: frozenset = frozenset()

    def __init__(self, state: np.ndarray):
        if state.dtype != np.int32 or state.ndim != 1 or state.shape[0] != self.layout.size:
            raise ValueError(
                f"state must be a 1-D int32 vector of length {self.layout.size}, "
                f"got dtype={state.dtype} shape={state.shape}"
            )
        object.__setattr__(self, "state", state)

    def __getattr__(self, name):
        if name not in self.layout.fields:
            raise AttributeError(name)
        v = self.layout.view(self.state, name)
        return int(v[0]) if name in self.scalars else v

    def __setattr__(self, name, value):
        if name not in self.layout.fields:
            raise AttributeError(f"no state field {name!r}")
        self.layout.view(self.state, name)[...] = value
