"""Pebbles' actions: stable ids and names (`take:1`, `take:2`, `take:3`)."""

from .state import MAX_TAKE

NAMES = tuple(f"take:{k}" for k in range(1, MAX_TAKE + 1))
NUM_ACTIONS = len(NAMES)


def pebbles(action: int) -> int:
    """How many pebbles action `action` takes."""
    return action + 1
