"""Name -> agent factory registry: `agents.make_agent("random", game="hansa")`.

An agent is any object with ``act(observation, action_mask, rng) -> int``:

* ``observation`` — the deciding seat's view, ``game.observe(state, seat)`` (float32);
* ``action_mask`` — ``game.legal_mask(state)``, nonzero at the legal action ids;
* ``rng`` — a ``numpy.random.Generator``; an agent draws all its randomness from it, so a
  game is fully determined by its seed (the arena derives one generator per seat from it).

Optionally an agent may define ``reset()``; the arena calls it before every game, so an
agent built once per batch of games starts each game from the same internal state.

The registry is open: ``register(name, factory)`` adds an agent. A factory is called as
``factory(game=<game name>, **kwargs)`` and returns an agent; it may also be given as a
``"module:attribute"`` string, imported on first use (so heavy agents — torch policies —
load nothing until asked for). Agents talk to a game only through the kernel protocol
(``tradewinds.game(name)``: observations, masks, names); they never import kernel internals.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

_FACTORIES: dict[str, Callable | str] = {}


def register(name: str, factory: Callable | str, *, replace: bool = False) -> None:
    """Register `factory` under `name` (a callable or a "module:attribute" string).

    Registering an existing name raises ValueError unless ``replace=True``.
    """
    if not isinstance(name, str) or not name or any(c in name for c in ", \t\n"):
        raise ValueError(f"agent name must be a non-empty string without commas or spaces, "
                         f"got {name!r}")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError(f"factory for {name!r} must be callable or a 'module:attribute' string")
    if name in _FACTORIES and not replace:
        raise ValueError(f"agent {name!r} is already registered (pass replace=True)")
    _FACTORIES[name] = factory


def unregister(name: str) -> None:
    """Remove a registered agent (mainly for tests)."""
    _FACTORIES.pop(name, None)


def agent_names() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_FACTORIES)


def split_name(name: str) -> tuple[str, str | None]:
    """'mcts:400' -> ('mcts', '400') when only 'mcts' is registered; a registered name
    (colons and all) -> (name, None). Parametrized agents get the part after the first
    colon as their factory's ``spec`` keyword."""
    if name in _FACTORIES or ":" not in name:
        return name, None
    base, _, spec = name.partition(":")
    return base, spec


def factory(name: str) -> Callable:
    """The factory registered under `name`, or under its base for a parametrized name like
    'mcts:400' (a lazy "module:attribute" is imported now)."""
    name, _ = split_name(name)
    if name not in _FACTORIES:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    f = _FACTORIES[name]
    if isinstance(f, str):
        module, _, attr = f.partition(":")
        f = getattr(import_module(module), attr)
        _FACTORIES[name] = f
    return f


def make_agent(name: str, game: str = "hansa", **kwargs):
    """A new agent `name` for `game`; kwargs go to its factory (``mcts:400`` passes
    ``spec="400"`` to the factory registered as ``mcts``).

    Unknown agent or game names raise ValueError listing the known ones.
    """
    from tradewinds import registry as games

    if game not in games.games():
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(games.games())}")
    _, spec = split_name(name)
    if spec is not None:
        kwargs = {"spec": spec, **kwargs}
    agent = factory(name)(game=game, **kwargs)
    if not callable(getattr(agent, "act", None)):
        raise TypeError(f"agent factory {name!r} returned {agent!r}, which has no act() method")
    return agent


def builtin_names() -> frozenset:
    """Agents every process knows by importing `agents` (the arena ships only the others)."""
    return BUILTIN


BUILTIN = frozenset({"random", "heuristic", "noisy", "mcts", "ppo", "dmc", "rllib", "az",
                     "net", "dest", "br"})


def kernel_policy(name: str) -> str | None:
    """"random" or "heuristic" when `name`'s factory plays a policy the kernels can play
    on their own (class attribute ``kernel_policy``, or ``uniform_random = True``), else
    None. The arena plays a game whose every seat has the same kernel policy (and no
    factory keywords) inside numba: the same policy, a different random stream."""
    try:
        f = factory(name)
    except ValueError:
        return None
    if getattr(f, "uniform_random", False):
        return "random"
    return getattr(f, "kernel_policy", None)


def is_uniform_random(name: str) -> bool:
    """True when `name` is registered to a factory that plays uniformly random legal actions.

    Such factories carry the class attribute ``uniform_random = True``. The arena may then
    play the whole game inside the kernel (``kernels.random_playout``) instead of asking the
    agent for every decision: the same distribution of play, a different random stream.
    """
    return kernel_policy(name) == "random"
