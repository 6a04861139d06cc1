"""The packages the wheel installs, read from pyproject.toml: import name -> folder.

The repository keeps agents/, training/, studies/ and benchmarks/ at its root and installs
them as tradewinds.agents, ... (setuptools' package-dir), so a folder's name is not its
import name; the structure tests ask here instead of guessing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import tomllib

from tests.helpers import ROOT


@cache
def installed() -> dict[str, Path]:
    """Import name -> folder of every package pyproject.toml installs."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = setuptools.get("package-dir", {})
    out = {}
    for name in setuptools["packages"]:
        base = max((m for m in mapped if name == m or name.startswith(m + ".")), key=len,
                   default="")
        rest = name[len(base):].lstrip(".").split(".") if name != base else []
        folder = ROOT / mapped[base] if base else ROOT
        out[name] = folder.joinpath(*[p for p in rest if p])
    return out


def top_folders() -> set[str]:
    """The repository's top-level folders that hold installed code."""
    return {folder.relative_to(ROOT).parts[0] for folder in installed().values()}


def wheel_name(rel: str) -> str | None:
    """Where the repository file `rel` (a posix path) lies in the wheel, or None when no
    installed package holds it."""
    path = (ROOT / rel).resolve()
    holders = [(n, f) for n, f in installed().items() if f in path.parents]
    if not holders:
        return None
    name, folder = max(holders, key=lambda nf: len(nf[1].parts))
    return "/".join((*name.split("."), *path.relative_to(folder).parts))
