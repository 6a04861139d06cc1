"""What an agent is, for a rating: the behaviour versions it declares, not its files' bytes.

Every module whose code decides how a shipped agent plays declares ``BEHAVIOUR = <n>``,
bumped by hand in the change that makes any decision differently; a docstring, a comment,
a rename or a moved file leaves it as it is. `identity(name, game, players)` joins the
versions of the modules an agent plays with (`PARTS`) and digests of the data it plays
with (a net's weights, shape and search settings; a checkpoint's bytes; the fitted leaf
judgement's weights) into one string, for example
``ismcts/1 heuristic/1 policies/1 heuristic_voyage/1 value_voyage/1@1a2b3c4d5e6f``.
A module split out of a labelled one so that two agents can share it (`VERSIONED_BY`:
the searches' rollouts and leaf judgement, the Voyage heuristic's plan) declares no
version of its own: the label of the module it came from versions it, and every agent
that plays with it names that label. A change there that makes a decision differently
bumps the ``BEHAVIOUR`` of the module it came from; moving code between the two changes
no identity.
The rated ladders (`studies.evaluate`) keep it per member, with a replay record
(`studies.replay`) that holds the declaration honest: the same identity must make the
same decisions on the record's seeds (tests/studies/test_replay.py).

An agent registered from outside declares its identity with a ``behaviour(game, spec,
players)`` attribute of its factory returning a string; without one its identity is the
digest of its factory's source file (``source@<digest>``): bytes are all there is to go by.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from importlib import import_module
from pathlib import Path

DIGEST = 12                  # hex digits of a data digest in an identity

# label -> module: the label is what an identity says, so a module that moves keeps it
MODULES = {label: f"tradewinds.agents.{module}" for label, module in {
    "random": "random_agent", "heuristic": "heuristic", "policies": "policies",
    "heuristic_hansa": "heuristic_hansa", "heuristic_voyage": "heuristic_voyage",
    "value_voyage": "value_voyage", "noisy": "noisy", "ismcts": "ismcts", "ppo": "ppo",
    "dmc": "dmc", "rllib": "rllib_agent", "az": "az", "az_search": "az_search", "gumbel": "gumbel",
    "pvnet": "pvnet", "net_input": "net_input", "destinations_voyage": "destinations_voyage",
    "respond": "respond",
}.items()}
STRATEGIES = {"hansa": ("heuristic_hansa",), "voyage": ("heuristic_voyage",)}
JUDGEMENTS = {"voyage": ("value_voyage",)}   # Hansa's leaves: the heuristic's evaluation
PLANNERS = {"voyage": ("destinations_voyage",)}
# the modules each shipped agent plays with, beside the game's heuristic where it has one
PARTS = {
    "random": ("random",),
    "heuristic": ("heuristic", "policies"),
    "noisy": ("noisy", "heuristic", "policies"),
    "mcts": ("ismcts", "heuristic", "policies"),
    "ppo": ("ppo",),
    "dmc": ("dmc",),
    "rllib": ("rllib",),
    "net": ("az", "pvnet", "net_input", "heuristic", "policies"),
    "az": ("az", "az_search", "gumbel", "ismcts", "pvnet", "net_input", "heuristic",
           "policies"),
    "dest": ("destinations_voyage", "heuristic", "policies"),
    "br": ("respond", "ismcts", "noisy", "heuristic", "policies"),
}
USES_STRATEGY = {"heuristic", "noisy", "mcts", "net", "az", "dest", "br"}
USES_JUDGEMENT = {"mcts", "az", "dest", "br"}
# shared module -> the label that versions it: the label of the module it was split from,
# named by every identity whose modules import it (tests/studies/test_replay.py)
VERSIONED_BY = {
    "tradewinds.agents.playouts": "ismcts",
    "tradewinds.agents.plan_voyage": "heuristic_voyage",
}


def version(label: str) -> str:
    """``label/<n>``: the declared ``BEHAVIOUR`` of the module `label` names."""
    module = import_module(MODULES[label])
    n = getattr(module, "BEHAVIOUR", None)
    if isinstance(n, bool) or not isinstance(n, int):
        raise ValueError(f"{module.__name__} declares no BEHAVIOUR version (an int)")
    return f"{label}/{n}"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:DIGEST]


def file_digest(path: str | Path) -> str:
    """A digest of a data file's bytes (not its name: a moved file keeps it)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no file at {path}")
    return _digest(path.read_bytes())


def tree_digest(path: str | Path) -> str:
    """A digest of the files under a directory, by their relative paths and bytes."""
    root = Path(path)
    h = hashlib.sha256()
    for p in sorted(q for q in root.rglob("*") if q.is_file()):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:DIGEST]


def net_digest(path: str | Path) -> str:
    """A digest of what of a net file decides play: its shape (config), its weights and the
    search settings of its metadata; the rest of the metadata (how it was trained, what it
    was rated) is not behaviour."""
    from tradewinds.agents import pvnet

    weights, config, meta = pvnet.load(path)
    h = hashlib.sha256(json.dumps({"config": config.__dict__,
                                   "search": meta.get("search", {})},
                                  sort_keys=True).encode())
    for name in weights._fields:
        h.update(name.encode() + getattr(weights, name).tobytes())
    return h.hexdigest()[:DIGEST]


def judgement_digest() -> str:
    """A digest of the Voyage leaf judgement's fitted weights (data, not code)."""
    from tradewinds.agents import value_voyage

    return _digest(value_voyage.WEIGHTS.tobytes())


def _data(base: str, spec: str | None, game: str, players: int | None) -> list[str]:
    """The data tokens of a shipped agent: ``net@...``, ``checkpoint@...``."""
    if base == "ppo":
        from tradewinds.agents.ppo import shipped

        return [f"checkpoint@{file_digest(spec or shipped(game))}"]
    if base == "dmc":
        from tradewinds.agents.dmc import shipped

        return [f"checkpoint@{file_digest(spec or shipped(game))}"]
    if base == "rllib":
        from tradewinds.agents.rllib_agent import module_path, shipped

        return [f"module@{tree_digest(module_path(spec or shipped(game)))}"]
    if base in ("az", "net"):
        from tradewinds.agents.az import shipped

        if spec and not spec.isdigit():
            return [f"net@{net_digest(spec)}"]
        if players is not None:
            return [f"net@{net_digest(shipped(game, int(players)))}"]
        return [f"net{n}p@{net_digest(shipped(game, n))}" for n in (2, 3, 4)
                if shipped(game, n).is_file()]
    return []


def labels(base: str, game: str) -> list[str]:
    """The labels a shipped agent's identity names on `game`: its `PARTS` and its game's."""
    out = list(PARTS[base])
    if base in USES_STRATEGY:
        out += STRATEGIES.get(game, ())
    if base in USES_JUDGEMENT:
        out += JUDGEMENTS.get(game, ())
    if base == "az":
        out += PLANNERS.get(game, ())
    return list(dict.fromkeys(out))


def shipped_identity(base: str, spec: str | None, game: str, players: int | None) -> str:
    """The identity of a shipped agent (`PARTS`), its game's parts and its data."""
    tokens = []
    for label in labels(base, game):
        token = version(label)
        if label == "value_voyage":
            token += f"@{judgement_digest()}"
        tokens.append(token)
    return " ".join(tokens + _data(base, spec, game, players))


def identity(name: str, game: str, players: int | None = None) -> str:
    """The behaviour identity of agent `name` on `game` with `players` players (None: at
    any count, so every shipped net): see the module notes."""
    from tradewinds.agents import registry

    base, spec = registry.split_name(name)
    factory = registry.factory(name)
    declared = getattr(factory, "behaviour", None)
    if callable(declared):
        text = declared(game=game, spec=spec, players=players)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"agent {name!r}: behaviour() must return a non-empty string, "
                             f"got {text!r}")
        return text
    if base in PARTS and getattr(factory, "__module__", None) == MODULES[PARTS[base][0]]:
        return shipped_identity(base, spec, game, players)
    source = inspect.getsourcefile(inspect.getmodule(factory) or factory)
    if not source:
        raise ValueError(f"agent {name!r} declares no behaviour() and has no source file")
    return f"source@{file_digest(source)}"
