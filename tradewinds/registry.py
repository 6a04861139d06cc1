"""Name -> game registry: `tradewinds.make("hansa", num_players=3)` gives an AEC env."""

from importlib import import_module

_GAMES = {"hansa": "hansa_env", "voyage": "voyage_env"}


def games() -> list:
    return sorted(_GAMES)


def _module(name: str):
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(games())}")
    return import_module(_GAMES[name])


def game(name: str):
    """The `tradewinds.Game` handle (kernels, sizes, names) of a game."""
    return _module(name).GAME


def make(name: str, *, raw: bool = False, **kwargs):
    """A PettingZoo AEC env of the named game; kwargs go to its constructor."""
    m = _module(name)
    return m.raw_env(**kwargs) if raw else m.env(**kwargs)
