"""No function of the packages runs over 80 lines, so that each can be read on one screen.

A function's length is ``end_lineno - lineno + 1`` of its ``def`` (its decorators aside,
its docstring and nested functions included), measured with `ast` on every .py file of the
packages pyproject.toml installs; the tests are not measured. A long function is split into
small ones with one job each; a long table of data becomes a module-level table. A failure
names ``file:function:lines`` for each function over the limit.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import ROOT, packages

MAX_LINES = 80
# the folders of the installed packages (tradewinds/ holds the cli and the web app)
PACKAGES = ("hansa_env", "voyage_env", "tradewinds", "agents", "studies", "training",
            "benchmarks")
# "file:function" -> why it may run long. Only for a function that is a table of data
# and reads best as one; empty: every such table is module-level data.
ALLOWED: dict[str, str] = {}


def long_functions(root: Path, packages=PACKAGES, limit: int = MAX_LINES) -> list[str]:
    """``file:function:lines`` for every function over `limit` lines in `packages`
    (folders under `root`), sorted; methods are named ``Class.method``."""
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            rel = path.relative_to(root).as_posix()
            found += [f"{rel}:{name}:{lines}" for name, lines in _lengths(tree)
                      if lines > limit]
    return sorted(found)


def _lengths(tree: ast.AST, prefix: str = ""):
    """(qualified name, lines) of every function in `tree`, nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node.end_lineno - node.lineno + 1
            yield from _lengths(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _lengths(node, f"{prefix}{node.name}.")
        else:
            yield from _lengths(node, prefix)


def test_no_function_over_the_limit():
    over = [f for f in long_functions(ROOT) if f.rsplit(":", 1)[0] not in ALLOWED]
    assert not over, (f"functions over {MAX_LINES} lines (split them, or make a table "
                      "module-level data):\n" + "\n".join(over))


def test_the_allow_list_is_current():
    """Every allowed function still exists and is still long (else drop its entry)."""
    long = {f.rsplit(":", 1)[0] for f in long_functions(ROOT)}
    stale = sorted(set(ALLOWED) - long)
    assert not stale, f"allowed but not over {MAX_LINES} lines (any more): {stale}"


def test_every_installed_package_is_measured():
    """The folders measured are the ones pyproject.toml installs."""
    assert packages.top_folders() == set(PACKAGES)


def _body(lines: int, indent: str = "    ") -> str:
    return "".join(f"{indent}x{i} = {i}\n" for i in range(lines))


def test_the_check_has_teeth(tmp_path):
    """A synthetic package with a long function, method and nested function, and one that
    is exactly at the limit; a long test is not measured."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        f"def long():\n{_body(MAX_LINES)}\n\n"                   # 81 lines
        f"def at_limit():\n{_body(MAX_LINES - 1)}\n\n"           # 80 lines
        f"class Board:\n    async def draw(self):\n{_body(MAX_LINES, ' ' * 8)}\n\n"
        f"def outer():\n    def inner():\n{_body(MAX_LINES, ' ' * 8)}    return inner\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_long.py").write_text(f"def test_long():\n{_body(MAX_LINES)}")
    assert long_functions(tmp_path, packages=("pkg",)) == [
        "pkg/mod.py:Board.draw:81",
        "pkg/mod.py:long:81",
        "pkg/mod.py:outer.inner:81",
        "pkg/mod.py:outer:83",
    ]
