"""A ladder member's identity is its declared behaviour version (agents/behaviour.py), held
honest by its replay record (studies/replay.py): the same identity makes the same
decisions on the record's seeds, and no docstring or file location enters an identity."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest

from tradewinds import agents
from tradewinds.agents import behaviour
from tradewinds.agents.heuristic import HeuristicAgent
from tradewinds.studies import evaluate, replay

ROOT = Path(__file__).resolve().parents[2]
MAX_RECORD = 6_000        # characters of a member's record in a ladder file


@pytest.mark.parametrize("path", evaluate.shipped_ladders(), ids=lambda p: p.stem)
def test_every_shipped_member_makes_its_recorded_decisions(path):
    """Fails when a change makes a decision differently without a new behaviour version:
    bump BEHAVIOUR in the module changed, then refit or replace the member."""
    ladder = json.loads(path.read_text())
    for m in ladder["members"]:
        now = evaluate.identity(m["name"], ladder["game"], ladder["players"])
        if now != m["behaviour"]:
            continue          # a new version: stale, test_evaluate names it (refit or carry)
        where = replay.check(ladder["game"], ladder["players"], m["name"],
                             ladder["options"], m["replay"])
        assert where is None, replay.stale_message(where, ladder, m)


@pytest.mark.parametrize("path", evaluate.shipped_ladders(), ids=lambda p: p.stem)
def test_replay_records_are_small_and_whole_where_cheap(path):
    ladder = json.loads(path.read_text())
    for m in ladder["members"]:
        rec = m["replay"]
        assert len(json.dumps(rec)) <= MAX_RECORD, m["name"]
        assert rec["seed"] == replay.SEED and len(rec["actions"]) == replay.GAMES
        assert rec["decisions"] == [len(replay.decode(x)) for x in rec["actions"]]
        assert min(rec["decisions"]) >= replay.MIN_DECISIONS, m["name"]
    by_name = {m["name"]: m["replay"] for m in ladder["members"]}
    assert min(by_name["random"]["decisions"]) > 100        # cheap: whole games


def _first_legal_on(decision: int):
    """HeuristicAgent.act, except that its `decision`-th call plays the last legal action
    where the heuristic would not."""
    real, calls = HeuristicAgent.act, []

    def act(self, observation, action_mask, rng, *, state=None):
        a = real(self, observation, action_mask, rng, state=state)
        calls.append(a)
        if len(calls) - 1 == decision:
            legal = np.flatnonzero(action_mask)
            return int(legal[-1] if a != legal[-1] else legal[0])
        return a

    return act


def test_a_change_of_play_under_the_same_version_fails_and_says_bump(monkeypatch):
    ladder = evaluate.load_ladder("hansa", 2)
    member = next(m for m in ladder["members"] if m["name"] == "heuristic")
    assert replay.check("hansa", 2, "heuristic", ladder["options"], member["replay"]) is None
    monkeypatch.setattr(HeuristicAgent, "act", _first_legal_on(5))
    where = replay.check("hansa", 2, "heuristic", ladder["options"], member["replay"])
    assert where is not None and where.startswith("game 0, decision 5:")
    message = replay.stale_message(where, ladder, member)
    assert "bump BEHAVIOUR" in message and "refit" in message and "--replace" in message


def test_a_record_replays_only_its_decisions_and_names_a_shorter_game():
    rec = replay.record("hansa", 2, "heuristic", {})
    assert replay.check("hansa", 2, "heuristic", {}, rec) is None
    cut = {**rec, "actions": [rec["actions"][0] + " 0 0", rec["actions"][1]]}
    assert replay.check("hansa", 2, "heuristic", {}, cut).startswith("game 0")
    with pytest.raises(ValueError, match="action ids"):
        replay.decode("3 x 4")


def test_a_bumped_version_makes_the_member_stale(monkeypatch):
    import tradewinds.agents.heuristic_hansa as strategy

    ladder = evaluate.load_ladder("hansa", 2)
    assert evaluate.stale_members(ladder) == []
    monkeypatch.setattr(strategy, "BEHAVIOUR", strategy.BEHAVIOUR + 1)
    stale = evaluate.stale_members(ladder)
    assert set(stale) == {"noisy:0.8", "noisy:0.5", "noisy:0.2", "heuristic", "mcts:25",
                          "mcts:100", "net", "az"}       # random and ppo do not use it


def test_identity_reads_no_source_file(monkeypatch):
    """A docstring or a moved module cannot change what is never read."""
    import builtins

    real, real_open = Path.read_bytes, builtins.open
    want = {(m["name"], g, n): m["behaviour"] for g, n in (("hansa", 2), ("voyage", 3))
            for m in evaluate.load_ladder(g, n)["members"]}
    for name, g, n in want:     # the agents' modules imported first: an import reads the
        behaviour.identity(name, g, n)  # sources once for numba's cache, not the identity

    def read_bytes(self):
        assert self.suffix != ".py", f"an identity read {self}"
        return real(self)

    def open_(file, *args, **kwargs):
        assert not str(file).endswith(".py"), f"an identity opened {file}"
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(builtins, "open", open_)
    for (name, g, n), text in want.items():
        assert behaviour.identity(name, g, n) == text


def _edit_docstrings(src: str) -> str:
    """`src` with every docstring and comment changed (a line added to each)."""
    tree = ast.parse(src)
    lines = src.splitlines(keepends=True)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            row = body[0].value.lineno - 1
            quote = lines[row].lstrip()[:3]
            lines[row] = lines[row].replace(quote, quote + "Edited. ", 1)
    return "# an added comment\n" + "".join(lines)


def test_docstring_edits_change_no_identity(tmp_path):
    """Every agents/*.py with its docstrings edited, imported in a child process: the
    identities are the ladders' own."""
    copy = tmp_path / "agents"
    copy.mkdir()
    for p in (ROOT / "agents").glob("*.py"):
        (copy / p.name).write_text(_edit_docstrings(p.read_text()))
    for data in ("nets", "checkpoints"):
        os.symlink(ROOT / "agents" / data, copy / data)
    members = [("heuristic", "voyage", 2), ("mcts:25", "voyage", 3), ("az", "hansa", 2),
               ("ppo", "hansa", 2)]
    code = ("import json, sys, agents; from agents.behaviour import identity; "
            "assert agents.__file__.startswith(sys.argv[1]), agents.__file__; "
            "print(json.dumps([identity(*m) for m in json.loads(sys.argv[2])]))")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path), json.dumps(members)],
                          env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"},
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    ladders = {(g, n): {m["name"]: m["behaviour"] for m in evaluate.load_ladder(g, n)["members"]}
               for _, g, n in members}
    assert json.loads(proc.stdout.splitlines()[-1]) == [ladders[(g, n)][name]
                                                        for name, g, n in members]


def test_a_net_is_named_by_what_decides_play(tmp_path):
    """A net's identity follows its weights, shape and search settings, not its file's
    name or the rest of its metadata; each player count has its own net."""
    from tradewinds.agents import pvnet
    from tradewinds.agents.az import shipped

    assert evaluate.identity("az", "hansa", 3) != evaluate.identity("az", "hansa", 4)
    # the simulations are in the name (a ladder keys by it), the net is the same
    assert evaluate.identity("az:50", "hansa", 2) == evaluate.identity("az", "hansa", 2)
    moved = tmp_path / "moved.npz"
    shutil.copyfile(shipped("hansa", 2), moved)
    assert evaluate.identity(f"net:{moved}", "hansa", 2) == evaluate.identity("net", "hansa", 2)
    weights, config, meta = pvnet.load(moved)
    pvnet.save(moved, weights, config, {**meta, "rated": "another note"})
    same = evaluate.identity(f"net:{moved}", "hansa", 2)
    assert same == evaluate.identity("net", "hansa", 2)
    pvnet.save(moved, weights, config, {**meta, "search": {"simulations": 7}})
    assert evaluate.identity(f"net:{moved}", "hansa", 2) != same
    retrained = weights._replace(b_pi=weights.b_pi + np.float32(1e-3))
    pvnet.save(moved, retrained, config, meta)
    assert evaluate.identity(f"net:{moved}", "hansa", 2) != same


def test_an_outside_agent_declares_its_identity_or_is_named_by_its_source():
    class Declared:
        @staticmethod
        def behaviour(game, spec, players):
            return f"declared/3 {game} {spec}"

        def __init__(self, game="hansa", spec=None):
            pass

        def act(self, observation, action_mask, rng):
            return int(np.flatnonzero(action_mask)[0])

    class Bad(Declared):
        @staticmethod
        def behaviour(game, spec, players):
            return ""

    class Undeclared:
        def __init__(self, game="hansa"):
            pass

    try:
        agents.register("declared", Declared, replace=True)
        agents.register("bad-declared", Bad, replace=True)
        agents.register("undeclared", Undeclared, replace=True)
        assert behaviour.identity("declared:x", "hansa", 2) == "declared/3 hansa x"
        with pytest.raises(ValueError, match="non-empty string"):
            behaviour.identity("bad-declared", "hansa", 2)
        assert behaviour.identity("undeclared", "hansa", 2).startswith("source@")
    finally:
        for name in ("declared", "bad-declared", "undeclared"):
            agents.unregister(name)


def test_every_module_of_an_identity_declares_a_version():
    for label in behaviour.MODULES:
        assert behaviour.version(label).startswith(f"{label}/")
    with pytest.raises(ValueError, match="declares no BEHAVIOUR"):
        behaviour.MODULES["nothing"] = "tradewinds.agents.registry"
        try:
            behaviour.version("nothing")
        finally:
            del behaviour.MODULES["nothing"]


def _agents_imports(module: str) -> set[str]:
    """The `tradewinds.agents` modules `module`'s source imports, anywhere in it."""
    tree = ast.parse(Path(find_spec(module).origin).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in found if m.startswith("tradewinds.agents.")}


def _games(base: str) -> list[str]:
    """The games a shipped agent plays: not one whose parts it names another game's
    (`dest` names the Voyage planner)."""
    own = {g: {*behaviour.STRATEGIES.get(g, ()), *behaviour.JUDGEMENTS.get(g, ()),
               *behaviour.PLANNERS.get(g, ())} for g in ("hansa", "voyage")}
    return [g for g in own if not any(set(behaviour.PARTS[base]) & own[other]
                                      for other in own if other != g)]


def _unversioned_shares(versioned_by: dict[str, str]) -> list[str]:
    """Where a shipped agent plays with a shared module (imported by a module its identity
    names, or by a shared module those import) whose versioning label its identity lacks."""
    out = []
    for base in behaviour.PARTS:
        for game in _games(base):
            labels = behaviour.labels(base, game)
            todo = [behaviour.MODULES[label] for label in labels]
            seen: set[str] = set()
            while todo:
                for shared in _agents_imports(todo.pop()) & set(versioned_by) - seen:
                    seen.add(shared)
                    todo.append(shared)
                    if versioned_by[shared] not in labels:
                        out.append(f"{base} on {game}: {shared} ({versioned_by[shared]})")
    return out


def test_every_agent_playing_with_a_shared_module_names_the_label_that_versions_it():
    """A module split out to be shared (`behaviour.VERSIONED_BY`) has no version of its
    own, so every identity whose modules import it must name the label that versions it;
    the check fails for a label those identities lack."""
    assert not _unversioned_shares(behaviour.VERSIONED_BY)
    for module, label in behaviour.VERSIONED_BY.items():
        assert label in behaviour.MODULES, module
        assert not hasattr(import_module(module), "BEHAVIOUR"), (
            f"{module} is versioned by {label}: bump that module's BEHAVIOUR instead")
    wrong = {**behaviour.VERSIONED_BY, "tradewinds.agents.plan_voyage": "ismcts"}
    assert "heuristic on voyage: tradewinds.agents.plan_voyage (ismcts)" in \
        _unversioned_shares(wrong)
