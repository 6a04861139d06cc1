"""Pebbles: a tiny third game that proves the kernel protocol (docs/adding_a_game.md).

2-4 players take 1-3 pebbles in turn (never as many as the previous take) until the pile
is empty; each also holds a secret card that counts at the end (`kernel` has the rules).
It has the shape of hansa_env and voyage_env in miniature: `state` (layout), `actions`
(names), `kernel` (numba rules), `bindings` (the kernel protocol), `game` (the
`tradewinds.Game`), `env` (PettingZoo), `reference` (plain-Python rules, the oracle).

It lives in the tests, so it is registered only where a test asks (`registered`), and
other tests see the registry as a user does.
"""

from tradewinds import registry

from .env import env, raw_env
from .game import GAME

NAME = "pebbles"


def registered():
    """Inside a ``with`` block, ``tradewinds.game("pebbles")`` and friends know the game."""
    return registry.registered(NAME, __name__)


__all__ = ["GAME", "NAME", "env", "raw_env", "registered"]
