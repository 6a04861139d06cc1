"""The wheel carries every data file the product opens at run time.

The wheel is built here (`pip wheel --no-deps --no-build-isolation`, from a copy of the
tracked files, so the checkout gets no build/ folder) and its file list read. Two checks:
every tracked file that is not Python, under a folder the wheel installs, is in it unless
`LEFT_OUT` names its folder with the reason; and the files the code itself names (the
shipped nets and policies, the Voyage map, the web page, the recipes) are in it, by the
paths the code computes. `.ci/wheel_check.sh` installs such a wheel and plays with it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers import ROOT, packages

# tracked files under installed folders that the wheel leaves out, and why
LEFT_OUT = {
    "benchmarks/results/": "a benchmark's records and stores, read only in a clone",
}


def _tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout (the tracked files)")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                         capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]


def _build_requirement() -> str:
    """The least setuptools version pyproject.toml's [build-system] asks for."""
    import re

    text = (ROOT / "pyproject.toml").read_text()
    found = re.search(r'requires\s*=\s*\[[^]]*"setuptools>=([0-9.]+)"', text)
    return found.group(1) if found else "0"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", text)[:3])


BUILD_SETUPTOOLS = _build_requirement()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[set[str], list[str]]:
    """(the wheel's file names, the tracked files) of this checkout."""
    # --no-build-isolation builds with the venv's own setuptools: it must meet
    # pyproject.toml's [build-system] requirement (a bare venv's bundled one may not)
    setuptools = pytest.importorskip("setuptools")
    if _version(setuptools.__version__) < _version(BUILD_SETUPTOOLS):
        pytest.skip(f"needs setuptools >= {BUILD_SETUPTOOLS} (has {setuptools.__version__})")
    tracked = _tracked()
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for rel in tracked:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "-q", "-w", str(tmp / "dist"), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = (tmp / "dist").glob("*.whl")
    with zipfile.ZipFile(path) as z:
        return set(z.namelist()), tracked


def test_every_tracked_data_file_of_an_installed_folder_is_in_the_wheel(wheel):
    names, tracked = wheel
    data = [p for p in tracked if packages.wheel_name(p) and not p.endswith((".py", ".md"))
            and not p.startswith(tuple(LEFT_OUT))]
    assert any(p.startswith("agents/nets/") for p in data)      # the scan sees the nets
    missing = [p for p in data if packages.wheel_name(p) not in names]
    assert not missing, ("tracked data files the wheel leaves out (add them to "
                         f"[tool.setuptools.package-data] or to LEFT_OUT): {missing}")


def test_every_package_folder_is_installed():
    """A folder with an __init__.py under an installed package that pyproject.toml's
    explicit package list forgets would be left out of the wheel."""
    folders = set(packages.installed().values())
    found = {p.parent for f in folders for p in f.rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert found <= folders, sorted(str(f) for f in found - folders)


def test_the_files_the_code_opens_are_in_the_wheel(wheel):
    from tradewinds.agents import az, ppo, rllib_agent
    from tradewinds.training import recipe
    from tradewinds.web import app
    from voyage_env import board

    names, _ = wheel
    opened = [az.shipped(g, n) for g in ("hansa", "voyage") for n in (2, 3, 4)]
    opened += [p for g in ("hansa", "voyage")
               for p in (ppo.shipped(g), rllib_agent.shipped(g))]
    for folder in (board.MAPS_DIR, app.STATIC, recipe.RECIPES, rllib_agent.shipped("hansa")):
        opened += sorted(p for p in Path(folder).iterdir() if p.is_file())
    assert len(opened) >= 15
    root = ROOT.resolve()
    wanted = [packages.wheel_name(Path(p).resolve().relative_to(root).as_posix())
              for p in opened if not Path(p).is_dir()]
    missing = [p for p in wanted if p not in names]
    assert not missing, f"files the code opens that the wheel leaves out: {missing}"


def test_the_left_out_folders_hold_nothing_the_code_opens(wheel):
    """What LEFT_OUT names stays out of the wheel: a listed folder with a file in the wheel
    would mean the list no longer says what ships."""
    names, _ = wheel
    left_out = tuple(packages.wheel_name(f) for f in LEFT_OUT)
    assert all(left_out), LEFT_OUT
    shipped = sorted(n for n in names if n.startswith(left_out))
    assert not shipped, f"LEFT_OUT names folders the wheel ships from: {shipped}"
