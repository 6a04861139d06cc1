"""Name -> game registry: `tradewinds.make("hansa", num_players=3)` gives an AEC env.

A game is registered by name with the dotted name of its module, imported on first use.
The module holds ``GAME`` (its `tradewinds.Game`), ``env(**kwargs)`` and
``raw_env(**kwargs)`` (`tradewinds.aec`). Hansa and Voyage are registered below; a game
from elsewhere registers itself the same way (`register`, or `registered` for a block of
code, as the tests do with their tiny game, tests/helpers/pebbles_env/). docs/adding_a_game.md.

So that the `tradewinds` command and the processes it starts know a game of yours by
name, declare it once, either as an entry point of your package (group
``tradewinds.games``, e.g. ``pebbles = "mypkg.pebbles_env"`` under
``[project.entry-points."tradewinds.games"]``) or in the environment,
``TRADEWINDS_GAMES=pebbles=mypkg.pebbles_env`` (comma-separated); both are read on the
first look-up.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from importlib import import_module

_GAMES: dict = {}
ENTRY_POINTS = "tradewinds.games"
ENVIRONMENT = "TRADEWINDS_GAMES"
_declared_read = False


def _read_declared() -> None:
    """Register the games declared by entry points and by ``TRADEWINDS_GAMES`` (once; a
    name registered in code stays as it is)."""
    global _declared_read
    if _declared_read:
        return
    _declared_read = True
    from importlib.metadata import entry_points

    declared = [(ep.name, ep.value) for ep in entry_points(group=ENTRY_POINTS)]
    for item in filter(None, (x.strip() for x in os.environ.get(ENVIRONMENT, "").split(","))):
        name, sep, module = item.partition("=")
        if not sep or not name.strip() or not module.strip():
            raise ValueError(f"{ENVIRONMENT}: expected name=module, got {item!r}")
        declared.append((name.strip(), module.strip()))
    for name, module in declared:
        if name not in _GAMES:
            register(name, module)


def register(name: str, module: str, *, replace: bool = False) -> None:
    """Make game `name` known; `module` (a dotted module name) holds GAME, env, raw_env.
    A name already taken by another module raises ValueError unless `replace`."""
    if not isinstance(name, str) or not name or not name.isidentifier():
        raise ValueError(f"a game name is an identifier, got {name!r}")
    if not isinstance(module, str) or not module:
        raise ValueError(f"module must be a dotted module name, got {module!r}")
    if _GAMES.get(name, module) != module and not replace:
        raise ValueError(f"game {name!r} is already registered (module {_GAMES[name]!r})")
    _GAMES[name] = module


def unregister(name: str) -> None:
    """Forget game `name` (ValueError if it is not registered)."""
    module_name(name)
    del _GAMES[name]


@contextmanager
def registered(name: str, module: str):
    """Game `name` known inside the block only (what was registered before is restored)."""
    before = _GAMES.get(name)
    register(name, module, replace=True)
    try:
        yield
    finally:
        if before is None:
            _GAMES.pop(name, None)
        else:
            _GAMES[name] = before


def games() -> list:
    _read_declared()
    return sorted(_GAMES)


def module_name(name: str) -> str:
    """The module a game is registered with (what a fresh process imports to get it)."""
    _read_declared()
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(games())}")
    return _GAMES[name]


def _module(name: str):
    return import_module(module_name(name))


def game(name: str):
    """The `tradewinds.Game` handle (kernels, sizes, names, capabilities) of a game."""
    return _module(name).GAME


def make(name: str, *, raw: bool = False, **kwargs):
    """A PettingZoo AEC env of the named game; kwargs go to its constructor."""
    m = _module(name)
    return m.raw_env(**kwargs) if raw else m.env(**kwargs)


register("hansa", "hansa_env")
register("voyage", "voyage_env")
