"""Which agents a request may seat, and making them with a bounded think time.

A request names agents only by registered name (`agents.agent_names`), optionally with
a numeric parameter (``mcts:400``, ``noisy:0.2``): never a ``module:attr`` factory or a
path (``ppo:<checkpoint>``), so the server loads no code and no file a request names.
An agent whose factory takes ``time_budget`` (the search) gets `THINK_SECONDS` per
decision, so one move never holds the worker thread for long.
"""

from __future__ import annotations

import inspect
import re

import agents

THINK_SECONDS = 2.0
_PARAM = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,6})?$")


def check_name(name) -> str:
    """`name` if a request may use it, else ValueError saying why (one line)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"an agent must be named by a string, got {name!r}")
    known = agents.agent_names()
    if name in known:
        return name
    base, _, spec = name.partition(":")
    if base not in known:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(known)}")
    if not spec or not _PARAM.match(spec):
        raise ValueError(f"agent {name!r}: the part after '{base}:' must be a number "
                         f"(paths and other parameters are not accepted here)")
    return name


def make(name: str, game: str, think_seconds: float = THINK_SECONDS):
    """A new agent `name` for `game` (checked by `check_name`); ValueError (one line)
    when its factory refuses."""
    check_name(name)
    kwargs = {}
    try:
        params = inspect.signature(agents.factory(name)).parameters
    except (TypeError, ValueError, ImportError) as e:
        raise ValueError(f"agent {name!r}: {e}") from None
    if "time_budget" in params:
        kwargs["time_budget"] = float(think_seconds)
    try:
        return agents.make_agent(name, game=game, **kwargs)
    except (ValueError, TypeError, ImportError, OSError, RuntimeError) as e:
        raise ValueError(f"agent {name!r}: {str(e).splitlines()[0] if str(e) else e!r}"
                         ) from None


def listed() -> list[str]:
    """The names the page offers: every registered agent, search with its usual budgets."""
    out = []
    for name in agents.agent_names():
        if name == "mcts":
            out += ["mcts:100", "mcts:400"]
        elif name == "noisy":
            out.append("noisy:0.2")
        elif name != "rllib":          # rllib needs a checkpoint path, which is not offered
            out.append(name)
    return out
