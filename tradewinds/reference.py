"""The frame every game's plain-Python reference shares; no rule of any game.

A reference (hansa_env/reference.py, voyage_env/reference.py) is the oracle of its kernel
in the differential tests: the same rules written plainly, independently of the kernel.
What is bookkeeping in every game sits here once: action ids decoded by blocks, a decision
checked before it is applied, the legal mask from the legal actions, and the state vector
checked on the way in and built on the way out.
"""

from __future__ import annotations

import numpy as np


def is_int(x) -> bool:
    """An int or numpy integer, not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def decode_table(blocks, num_actions: int) -> tuple:
    """Action id -> (kind, argument): in a block of `blocks` ((first id, count) pairs) the
    kind is the block's first id and the argument the offset in it; else (id, None)."""
    return tuple(next(((start, a - start) for start, count in blocks
                       if start <= a < start + count), (a, None))
                 for a in range(num_actions))


class ReferenceGame:
    """Base of a game's reference. A subclass sets `STATE_SIZE`, `DECODED`
    (`decode_table`) and `action_name` (id -> name, ValueError when out of range), has
    `num_players`, and writes `_candidates`, `_illegal_reason`, `winners`, `state_values`
    and the observation in parts: `_shared_view` (what every seat sees alike),
    `_seat_blocks` and `_view_of(player, shared, blocks)`."""

    STATE_SIZE: int
    DECODED: tuple

    @staticmethod
    def action_name(action: int) -> str:
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        return [a for a in self._candidates() if self._illegal_reason(a) is None]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(len(self.DECODED), dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def returns(self) -> list[float]:
        """1 shared equally by the winners, 0 for the others."""
        won = self.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.num_players)]

    def observe(self, player: int) -> np.ndarray:
        """Seat `player`'s observation (what it may see: the game's `_view_of`)."""
        n = self.num_players
        if not is_int(player) or not 0 <= player < n:
            raise ValueError(f"player must be a seat in 0..{n - 1}, got {player!r}")
        return self._view_of(int(player), self._shared_view(), self._seat_blocks())

    def observations(self) -> list[np.ndarray]:
        """`observe(p)` of every seat p, the parts all seats see alike computed once."""
        shared, blocks = self._shared_view(), self._seat_blocks()
        return [self._view_of(p, shared, blocks) for p in range(self.num_players)]

    def _decode(self, action: int) -> tuple:
        """(kind, argument) of an action id; the kind is the id block's first id."""
        return self.DECODED[action]

    def _decided(self, action) -> tuple:
        """(kind, argument) of `action` if it is legal now; else ValueError naming it and
        why (the start of every `step`)."""
        if not is_int(action):
            raise ValueError(f"action must be an int id, got {action!r}")
        action = int(action)
        label = self.action_name(action)  # raises ValueError when out of range
        reason = self._illegal_reason(action)
        if reason is not None:
            raise ValueError(f"{label} is illegal: {reason}")
        return self._decode(action)

    def to_state(self) -> np.ndarray:
        """The kernel-layout int32 vector (the game's state.py), every field filled."""
        return np.array(self.state_values(), dtype=np.int32)

    @classmethod
    def _checked_vector(cls, state) -> None:
        """ValueError unless `state` is a 1-D int32 array of the game's length (the start of
        every `from_state`)."""
        if not isinstance(state, np.ndarray) or state.dtype != np.int32 or state.ndim != 1:
            raise ValueError(
                f"state must be a 1-D np.int32 array, got {type(state).__name__} "
                f"dtype={getattr(state, 'dtype', None)} ndim={getattr(state, 'ndim', None)}")
        if state.shape[0] != cls.STATE_SIZE:
            raise ValueError(f"state must have length {cls.STATE_SIZE}, got {state.shape[0]}")
