"""Hansa (Michael Schacht, 2004) as a numba kernel, a plain-Python reference and an AEC env."""

from hansa_env.env import env, raw_env
from hansa_env.game import GAME

__all__ = ["GAME", "env", "raw_env"]
