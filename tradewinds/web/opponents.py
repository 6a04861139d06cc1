"""Which agents a request may seat, with what parameter, and how the page lists them.

A request names an opponent by one of the names the page offers (`OFFERED`), optionally
with a numeric parameter inside that agent's bounds (`BOUNDS`: ``mcts:<simulations>``,
``noisy:<eps>``, ...). Nothing else: no ``module:attr`` factory, no parameter that names a
file (``ppo:<path>``, ``net:<path>``), no agent the page does not offer (``rllib``). A
checkpoint of one's own is offered only when the server was started with
``--agent NAME=SPEC`` (`Offers.extra`): the request then names NAME, never the file.

Hansa and Voyage (`SHIPPED`) offer every agent above; any other registered game (one a
user declared) only the agents that play any game (`ANY_GAME`: random and the search)
and the server's own ``--agent`` names (a net trained for that game, say).

The page lists the offers of a game and player count by strength: the Elo rating of the
shipped ladder (`studies/ladders/<game>_<n>p.json`) beside each rated name, unrated ones
after them.
"""

from __future__ import annotations

import functools
import json
import re

THINK_SECONDS = 2.0

# the agents the page offers (the base name of a parametrized one)
OFFERED = ("random", "noisy", "heuristic", "mcts", "dest", "ppo", "net", "az")
# name -> (type, least, most) of its numeric parameter; agents not named take none
BOUNDS = {"noisy": (float, 0.0, 1.0), "mcts": (int, 1, 1000), "dest": (int, 2, 32),
          "az": (int, 1, 800)}
# offered beside the ladder's members (each game's own), unrated
UNRATED = {"hansa": ("mcts:400",), "voyage": ("dest", "mcts:100")}
ONLY_FOR = {"dest": "voyage"}
SHIPPED = ("hansa", "voyage")           # the games with a heuristic, nets and a ladder
ANY_GAME = ("random", "mcts")           # what plays a game the project does not ship
UNRATED_ANY = ("random", "mcts:100", "mcts:400")
_NUMBER = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,6})?$")
_LABEL = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,39}$")


class Offers:
    """The offered agents of one server: the built-in ones and its `extra` ones
    (label -> the agent name it plays, e.g. ``{"mine": "az:runs/az.npz"}``)."""

    def __init__(self, extra: dict | None = None):
        self.extra = dict(extra or {})
        for label, spec in self.extra.items():
            if not _LABEL.match(label) or label.partition(":")[0] in OFFERED:
                raise ValueError(f"--agent {label}=...: the name must be a letter then up to "
                                 f"39 letters, digits, '_', '.', '-', and no built-in agent")
            if not isinstance(spec, str) or ":" not in spec:
                raise ValueError(f"--agent {label}={spec}: give an agent and its file, "
                                 f"as in {label}=az:path/to/net.npz")

    def check(self, name, game: str | None = None) -> str:
        """The agent name to play for the requested `name` (ValueError, one line, when a
        request may not seat it; `game` checks agents of one game only)."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"an agent must be named by a string, got {_short(name)}")
        if name in self.extra:
            return self.extra[name]
        base, colon, spec = name.partition(":")
        if base not in OFFERED:
            raise ValueError(f"unknown agent {_short(name)}; agents: "
                             f"{', '.join([*OFFERED, *self.extra])}")
        if game is not None and ONLY_FOR.get(base, game) != game:
            raise ValueError(f"agent {base!r} plays {ONLY_FOR[base]} only, not {game}")
        if game is not None and game not in SHIPPED and base not in ANY_GAME:
            raise ValueError(f"agent {base!r} plays {' and '.join(SHIPPED)} only; {game} is "
                             f"played by {', '.join(ANY_GAME)} and this server's --agent "
                             f"names")
        if not colon:
            return name
        if base not in BOUNDS:
            raise ValueError(f"agent {base!r} takes no parameter here (paths and other "
                             f"parameters are not accepted), got {_short(name)}")
        kind, lo, hi = BOUNDS[base]
        what = "a whole number" if kind is int else "a number"
        if not _NUMBER.match(spec) or (kind is int and "." in spec) or not lo <= kind(spec) <= hi:
            raise ValueError(f"agent {base!r}: the part after '{base}:' must be {what} "
                             f"{lo}..{hi}, got {_short(spec)}")
        return name

    def listed(self, game: str, players: int) -> list[dict]:
        """[{name, elo}] the page offers for (`game`, `players`), strongest rated first,
        then the unrated ones; elo None when the ladder does not rate it."""
        rated = ratings(game, players)
        names = [n for n in rated if self._playable(n, game)]
        names.sort(key=lambda n: -rated[n])
        unrated = UNRATED.get(game, ()) if game in SHIPPED else UNRATED_ANY
        names += [n for n in (*unrated, *self.extra) if n not in rated]
        return [{"name": n, "elo": None if n not in rated else round(rated[n])}
                for n in names]

    def _playable(self, name: str, game: str) -> bool:
        try:
            self.check(name, game)
        except ValueError:
            return False
        return True


@functools.cache
def ratings(game: str, players: int) -> dict:
    """{agent name: Elo} of the shipped ladder of (`game`, `players`); {} without one."""
    from tradewinds.studies.evaluate import ladder_path

    path = ladder_path(game, players)
    try:
        members = json.loads(path.read_text())["members"]
    except (OSError, ValueError, KeyError):
        return {}
    return {m["name"]: float(m["elo"]) for m in members}


def agent_kwargs(name: str, think_seconds: float) -> dict:
    """The keywords `name`'s factory gets here: a search's time budget per decision."""
    import inspect

    from tradewinds import agents

    params = inspect.signature(agents.factory(name)).parameters
    return {"time_budget": float(think_seconds)} if "time_budget" in params else {}


def _short(x) -> str:
    text = repr(x)
    return text if len(text) <= 42 else text[:40] + "..."
