"""The Voyage game (Caravelas, Gil d'Orey 2010): map data, numba kernel, reference, AEC env."""

from voyage_env.env import env, raw_env
from voyage_env.game import GAME, make_game

__all__ = ["GAME", "env", "make_game", "raw_env"]
