"""tradewinds: RL environments for Hansa and the Voyage game, on one kernel protocol."""

from tradewinds.protocol import Game, IllegalActionError
from tradewinds.registry import game, games, make

__all__ = ["Game", "IllegalActionError", "game", "games", "make"]
__version__ = "0.1.0"
