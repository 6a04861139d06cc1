"""The tests are laid out as the code is, and stay importable that way: every folder under
tests/ that holds Python files is a package (so pytest names each module by its folder and
two files of the same name in two folders do not collide), no test file sits at the top,
and no test module imports another (what several share lives in tests/helpers/ or in a
conftest.py)."""

from __future__ import annotations

import ast

from tests.helpers import ROOT

TESTS = ROOT / "tests"


def _python_dirs():
    return sorted({p.parent for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts})


def test_every_test_folder_is_a_package():
    missing = [d.relative_to(ROOT).as_posix() for d in _python_dirs()
               if not (d / "__init__.py").exists()]
    assert not missing, f"folders without __init__.py: {missing}"


def test_no_test_file_sits_at_the_top():
    loose = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert not loose, f"move these into the folder of the code they test: {loose}"


def test_no_test_module_imports_another():
    bad = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.relative_to(ROOT)}:{node.lineno}: imports {n}" for n in names
                    if n.rpartition(".")[2].startswith("test_")]
    assert not bad, "share through tests/helpers/ or conftest.py:\n" + "\n".join(bad)
