"""The floors of the project, bottom up; each imports only what is below it:

Floors are import names (the wheel installs agents/ as `tradewinds.agents`, ...; the
folder of each is read from pyproject.toml by `tests.helpers.packages`).

1. the ground, `tradewinds`: protocol, envs, layout, rng, store, statistics. It knows no
   game and no agent: games are registered by name, as dotted module-name strings that
   `tradewinds.registry` imports on first use, never by an import statement;
2. the games, `hansa_env/` and `voyage_env/`: independent of each other;
3. agents and search, `tradewinds.agents` (agents/);
4. studies (`tradewinds.studies`: arena, fpa, sweep, match, evaluate, play) and training
   (`tradewinds.training`: opponents, the VecEnv, self-play, RLlib);
5. the face: the `tradewinds` command (`tradewinds.cli`, one module per command), the web
   app (`tradewinds.web`) and `tradewinds.benchmarks`. The command imports the floors
   above the ground inside its functions, so that `tradewinds --help` and each command
   load only what they use.

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

from tests.helpers import ROOT, packages

GROUND, AGENTS, STUDIES, TRAINING, BENCHMARKS = (
    "tradewinds", "tradewinds.agents", "tradewinds.studies", "tradewinds.training",
    "tradewinds.benchmarks")
FACE = "tradewinds.cli"
WEB = "tradewinds.web"
LAB = "lab"
PACKAGES = (GROUND, "hansa_env", "voyage_env", AGENTS, STUDIES, TRAINING, BENCHMARKS, FACE)
ABOVE_GAMES = {AGENTS, STUDIES, TRAINING, BENCHMARKS, FACE, WEB}

# floor -> the floors it must not import
FORBIDDEN = {
    GROUND: {"hansa_env", "voyage_env", LAB} | ABOVE_GAMES,
    "hansa_env": {"voyage_env", LAB} | ABOVE_GAMES,
    "voyage_env": {"hansa_env", LAB} | ABOVE_GAMES,
    AGENTS: {STUDIES, TRAINING, BENCHMARKS, FACE, WEB, LAB},
    STUDIES: {BENCHMARKS, FACE, WEB, LAB},
    TRAINING: {BENCHMARKS, FACE, WEB, LAB},
    BENCHMARKS: {FACE, WEB, LAB},
    FACE: {LAB},
    WEB: {LAB},
    "tests": {LAB},
}


def floor_folders() -> dict[str, str]:
    """Floor -> its folder, relative to the root: the installed packages (a sub-package
    belongs to its floor), the lab and the tests."""
    installed = packages.installed()
    out = {name: installed[name].relative_to(packages.ROOT).as_posix()
           for name in (*PACKAGES, WEB)}
    return {**out, LAB: LAB, "tests": "tests"}


FOLDERS = floor_folders()


def floor_of(module: str) -> str | None:
    """The floor a dotted module name belongs to (the longest floor name it starts with)."""
    names = [f for f in FOLDERS if module == f or module.startswith(f + ".")]
    return max(names, key=len, default=None)


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    floor, folder = max(((f, Path(d)) for f, d in FOLDERS.items() if Path(d) in rel.parents),
                        key=lambda fd: len(fd[1].parts))
    parts = rel.relative_to(folder).with_suffix("").parts
    return ".".join((floor, *(parts[:-1] if parts and parts[-1] == "__init__" else parts)))


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
            # `from x import y`: y may be a module of x (`from tradewinds import agents`)
            names = [f"{module}.{a.name}" if module else a.name for a in node.names]
            for m in names if any(floor_of(n) != floor_of(module) for n in names) \
                    else [module]:
                found.append((node.lineno, m, id(node) in top))
        elif isinstance(node, ast.Call) and node.args:
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
            arg = node.args[0]
            if (name in ("import_module", "__import__") and isinstance(arg, ast.Constant)
                    and isinstance(arg.value, str)):
                found.append((node.lineno, arg.value, False))
    return found


def files(floor: str) -> list[Path]:
    """The floor's .py files, its sub-packages included, the floors inside it left out."""
    own = ROOT / FOLDERS[floor]
    inner = [ROOT / d for f, d in FOLDERS.items() if f != floor and own in (ROOT / d).parents]
    return sorted(p for p in own.rglob("*.py") if "__pycache__" not in p.parts
                  and not any(i in p.parents for i in inner))


def offences(floor: str) -> list[str]:
    bad = []
    for path in files(floor):
        rel = path.relative_to(ROOT)
        for line, module, _ in sorted(imports(path)):
            if floor_of(module) in FORBIDDEN[floor]:
                bad.append(f"{rel}:{line}: imports {module}")
    return bad


@pytest.mark.parametrize("floor", PACKAGES)
def test_each_floor_imports_only_what_is_below_it(floor):
    assert files(floor), f"no files found for {floor}"
    bad = offences(floor)
    assert not bad, (f"{floor} imports from a floor it must not use "
                     f"({', '.join(sorted(FORBIDDEN[floor]))}):\n" + "\n".join(bad))


def test_every_installed_package_is_on_a_floor():
    assert {floor_of(name) for name in packages.installed()} <= set(FORBIDDEN)


def lazy_offences() -> list[str]:
    """Module-level imports of the face that reach above the ground."""
    upper = {"hansa_env", "voyage_env"} | ABOVE_GAMES - {FACE}
    return [f"{path.relative_to(ROOT).as_posix()}:{line}: imports {module} at module level"
            for path in files(FACE) for line, module, top in imports(path)
            if top and floor_of(module) in upper]


def test_the_command_imports_the_floors_above_the_ground_lazily():
    """`tradewinds --help` and `import tradewinds.cli.main` stay light: the games, agents,
    studies, training and benchmarks are imported inside the command functions."""
    bad = lazy_offences()
    assert not bad, "\n".join(bad)


def _floors_in(tmp_path, monkeypatch) -> None:
    for folder in FOLDERS.values():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)


def test_the_checks_see_a_floor_importing_the_face_and_an_eager_face(tmp_path, monkeypatch):
    _floors_in(tmp_path, monkeypatch)
    (tmp_path / "studies" / "fit.py").write_text(
        "def main():\n    from tradewinds.cli.main import main\n")
    (tmp_path / "studies" / "ok.py").write_text("from tradewinds.cli_args import game_name\n")
    (tmp_path / "tradewinds" / "cli" / "eager.py").write_text(
        "import tradewinds.studies.fpa\n\ndef run():\n    import tradewinds.training.trainer\n")
    assert offences(STUDIES) == ["studies/fit.py:2: imports tradewinds.cli.main"]
    assert offences(FACE) == []
    assert offences(GROUND) == []                 # the face's files are not the ground's
    assert lazy_offences() == [
        "tradewinds/cli/eager.py:1: imports tradewinds.studies.fpa at module level"]


def test_the_checker_sees_every_kind_of_import(tmp_path, monkeypatch):
    """The collector finds module-level, function-level, relative and literal
    import_module imports (so an empty list of offences means something)."""
    found = {(m, top) for _, m, top in imports(ROOT / "training" / "opponents.py")}
    assert any(floor_of(m) == AGENTS and top for m, top in found)
    assert ("tradewinds.protocol", True) in found
    found = {(m, top) for _, m, top in imports(ROOT / "studies" / "arena.py")}
    assert ("tradewinds.agents", False) in found         # inside a function
    _floors_in(tmp_path, monkeypatch)
    pkg = tmp_path / "tradewinds"
    (pkg / "__init__.py").write_text("")
    (pkg / "bad.py").write_text(
        "from . import rng\nfrom .. import hansa_env\n\n"
        "def f():\n    import tradewinds.agents.ismcts\n    from voyage_env.state import S\n"
        "    importlib.import_module('tradewinds.studies.arena')\n"
        "    from tradewinds import agents, registry\n    from .agents import az\n")
    assert offences(GROUND) == [
        "tradewinds/bad.py:2: imports hansa_env",
        "tradewinds/bad.py:5: imports tradewinds.agents.ismcts",
        "tradewinds/bad.py:6: imports voyage_env.state",
        "tradewinds/bad.py:7: imports tradewinds.studies.arena",
        "tradewinds/bad.py:8: imports tradewinds.agents",
        "tradewinds/bad.py:9: imports tradewinds.agents",
    ]


@pytest.mark.parametrize("package", [WEB, "tests"])
def test_neither_the_web_app_nor_a_test_imports_the_lab(package):
    """The lab is not installed and the suite does not keep it alive: what the product
    needs from an investigation moves into the product."""
    bad = offences(package)
    assert not bad, "\n".join(bad)


def test_the_lab_check_sees_an_import_of_the_lab(tmp_path, monkeypatch):
    _floors_in(tmp_path, monkeypatch)
    (tmp_path / "tests" / "test_x.py").write_text(
        "def test_x():\n    from lab.headroom import main\n")
    (tmp_path / "studies" / "s.py").write_text("import lab.teacher_noise\n")
    assert offences("tests") == ["tests/test_x.py:2: imports lab.headroom"]
    assert offences(STUDIES) == ["studies/s.py:1: imports lab.teacher_noise"]
