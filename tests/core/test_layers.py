"""The floors of the project, bottom up; each imports only what is below it:

1. the ground, `tradewinds/`: protocol, envs, layout, rng, store, statistics. It knows no
   game and no agent: games are registered by name, as dotted module-name strings that
   `tradewinds.registry` imports on first use, never by an import statement;
2. the games, `hansa_env/` and `voyage_env/`: independent of each other;
3. agents and search, `agents/`;
4. studies (`studies/`: arena, fpa, ladder, match, evaluate, play) and training
   (`training/`: opponents, the VecEnv, self-play, RLlib);
5. the face: the `tradewinds` command (`tradewinds_cli/`, one module per command) and
   `benchmarks/`. The command imports the floors below the ground inside its functions,
   so that `tradewinds --help` and each command load only what they use.

Beside the floors stands `lab/` (investigations, not installed): it may import any floor,
and no floor and no test imports it.

Every import is checked, at module level and inside functions, with `ast`: ``import x``,
``from x import y`` (relative ones resolved) and ``importlib.import_module("x")`` /
``__import__("x")`` with a literal name.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGES = ("tradewinds", "hansa_env", "voyage_env", "agents", "studies", "training",
            "benchmarks", "tradewinds_cli")
FACE = "tradewinds_cli"
LAB = "lab"
ABOVE_GAMES = {"agents", "studies", "training", "benchmarks", FACE}

# package -> the first-party packages it must not import
FORBIDDEN = {
    "tradewinds": {"hansa_env", "voyage_env", LAB} | ABOVE_GAMES,
    "hansa_env": {"voyage_env", LAB} | ABOVE_GAMES,
    "voyage_env": {"hansa_env", LAB} | ABOVE_GAMES,
    "agents": {"studies", "training", "benchmarks", FACE, LAB},
    "studies": {"benchmarks", FACE, LAB},
    "training": {"benchmarks", FACE, LAB},
    "benchmarks": {FACE, LAB},
    FACE: {LAB},
    "tradewinds_web": {LAB},
    "tests": {LAB},
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(path: Path) -> str:
    """The dotted package a relative import in `path` is relative to."""
    name = _module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports(path: Path) -> list[tuple[int, str, bool]]:
    """(line, imported module, at module level) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    top = set(map(id, tree.body))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = _package_of(path).split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            # `from .. import x` above every package: the names are the modules
            for m in [module] if module else [a.name for a in node.names]:
                found.append((node.lineno, m, id(node) in top))
        elif isinstance(node, ast.Call) and node.args:
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
            arg = node.args[0]
            if (name in ("import_module", "__import__") and isinstance(arg, ast.Constant)
                    and isinstance(arg.value, str)):
                found.append((node.lineno, arg.value, False))
    return found


def files(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def offences(package: str) -> list[str]:
    bad = []
    for path in files(package):
        rel = path.relative_to(ROOT)
        for line, module, _ in imports(path):
            if module.split(".")[0] in FORBIDDEN[package]:
                bad.append(f"{rel}:{line}: imports {module}")
    return bad


@pytest.mark.parametrize("package", PACKAGES)
def test_each_floor_imports_only_what_is_below_it(package):
    bad = offences(package)
    assert not bad, (f"{package} imports from a floor it must not use "
                     f"({', '.join(sorted(FORBIDDEN[package]))}):\n" + "\n".join(bad))


def lazy_offences() -> list[str]:
    """Module-level imports of the face that reach above the ground."""
    upper = {"hansa_env", "voyage_env"} | ABOVE_GAMES - {FACE}
    return [f"{path.relative_to(ROOT)}:{line}: imports {module} at module level"
            for path in files(FACE) for line, module, top in imports(path)
            if top and module.split(".")[0] in upper]


def test_the_command_imports_the_floors_above_the_ground_lazily():
    """`tradewinds --help` and `import tradewinds_cli.main` stay light: the games, agents,
    studies, training and benchmarks are imported inside the command functions."""
    bad = lazy_offences()
    assert not bad, "\n".join(bad)


def test_the_checks_see_a_floor_importing_the_face_and_an_eager_face(tmp_path, monkeypatch):
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "studies" / "fit.py").write_text(
        "def main():\n    from tradewinds_cli.main import main\n")
    (tmp_path / "studies" / "ok.py").write_text("from tradewinds.cli_args import game_name\n")
    (tmp_path / FACE / "eager.py").write_text(
        "import studies.fpa\n\ndef run():\n    import training.trainer\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert offences("studies") == ["studies/fit.py:2: imports tradewinds_cli.main"]
    assert offences(FACE) == []
    assert lazy_offences() == [f"{FACE}/eager.py:1: imports studies.fpa at module level"]


def test_the_checker_sees_every_kind_of_import(tmp_path, monkeypatch):
    """The collector finds module-level, function-level, relative and literal
    import_module imports (so an empty list of offences means something)."""
    found = {(m, top) for _, m, top in imports(ROOT / "training" / "opponents.py")}
    assert ("agents", True) in found and ("tradewinds.protocol", True) in found
    found = {(m, top) for _, m, top in imports(ROOT / "studies" / "arena.py")}
    assert ("agents", False) in found                   # inside a function
    pkg = tmp_path / "tradewinds"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bad.py").write_text(
        "from . import rng\nfrom .. import hansa_env\n\n"
        "def f():\n    import agents.ismcts\n    from voyage_env.state import S\n"
        "    importlib.import_module('studies.arena')\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert offences("tradewinds") == [
        "tradewinds/bad.py:2: imports hansa_env",
        "tradewinds/bad.py:5: imports agents.ismcts",
        "tradewinds/bad.py:6: imports voyage_env.state",
        "tradewinds/bad.py:7: imports studies.arena",
    ]


@pytest.mark.parametrize("package", ["tradewinds_web", "tests"])
def test_neither_the_web_app_nor_a_test_imports_the_lab(package):
    """The lab is not installed and the suite does not keep it alive: what the product
    needs from an investigation moves into the product."""
    bad = offences(package)
    assert not bad, "\n".join(bad)


def test_the_lab_check_sees_an_import_of_the_lab(tmp_path, monkeypatch):
    for package in ("tests", "studies"):
        (tmp_path / package).mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "def test_x():\n    from lab.headroom import main\n")
    (tmp_path / "studies" / "s.py").write_text("import lab.teacher_noise\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert offences("tests") == ["tests/test_x.py:2: imports lab.headroom"]
    assert offences("studies") == ["studies/s.py:1: imports lab.teacher_noise"]
