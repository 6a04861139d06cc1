"""One virtual environment per numba release, built once and reused.

Each environment holds one numba release, its llvmlite, a numpy that release supports,
the few runtime dependencies the measurements import (no torch) and this repository
installed in editable mode. Each has its own ``NUMBA_CACHE_DIR``: the on-disk caches of
different releases must never mix.

Children run on a snapshot of the source (`snapshot`), not on the working tree: every
release then measures the same code for the whole run, and an edit elsewhere in the tree
(which makes `tradewinds.compiled.disk_cache` flush every cache) does not force a recompilation in
every venv between rounds. The snapshot rewrites only files whose bytes changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO / "results" / "numba_envs"
# runtime dependencies the kernels, the AEC env and the search import (pyproject's ranges)
RUNTIME = ("gymnasium>=1.0", "pettingzoo>=1.24")
# numpy per release series: the newest series a release supports, held at 2.4 where the
# release allows it, so numpy is the same for every release that can have it
NUMPY = {"0.59": "numpy>=1.26,<2.1", "0.60": "numpy>=2.0,<2.1", "0.61": "numpy>=2.2,<2.3",
         "0.62": "numpy>=2.3,<2.4"}
NUMPY_DEFAULT = "numpy>=2.4,<2.5"
MARKER = "built.json"
PACKAGES = ("tradewinds", "tradewinds.cli", "hansa_env", "voyage_env", "agents", "studies",
            "training", "benchmarks", "lab")


def numpy_spec(release: str) -> str:
    """The numpy requirement installed beside `release`."""
    return NUMPY.get(".".join(release.split(".")[:2]), NUMPY_DEFAULT)


def env_dir(root: Path, release: str) -> Path:
    return Path(root) / f"numba-{release}"


def python(root: Path, release: str) -> Path:
    return env_dir(root, release) / "bin" / "python"


def source_dir(root: Path) -> Path:
    return Path(root) / "src"


def snapshot(root: Path) -> Path:
    """Copy the project's packages to ``root/src``, writing only files that differ (an
    unchanged file keeps its modification time, so numba's caches stay valid)."""
    dst_root = source_dir(root)
    for pkg in PACKAGES:
        for src in (REPO / pkg).rglob("*"):
            rel = src.relative_to(REPO)
            if "__pycache__" in rel.parts or not src.is_file() or src.suffix == ".pyc":
                continue
            if any(part in ("results", "checkpoints") for part in rel.parts[1:]):
                continue
            dst = dst_root / rel
            data = src.read_bytes()
            if not dst.exists() or dst.read_bytes() != data:
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(data)
    return dst_root


def child_env(root: Path, release: str) -> dict:
    """Environment variables for a child process run in `release`'s venv, on the
    snapshot of the source."""
    d = env_dir(root, release)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(NUMBA_CACHE_DIR=str(d / "numba_cache"), VIRTUAL_ENV=str(d),
               PYTHONPATH=str(source_dir(root)),
               PATH=f"{d / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    return env


def versions(root: Path, release: str) -> dict:
    """numba, llvmlite, LLVM, numpy and python versions as the venv reports them."""
    code = ("import json, platform, numba, llvmlite, numpy; from llvmlite import binding; "
            "print(json.dumps({'numba': numba.__version__, 'llvmlite': llvmlite.__version__, "
            "'llvm': '.'.join(map(str, binding.llvm_version_info)), 'numpy': numpy.__version__,"
            " 'python': platform.python_version()}))")
    out = subprocess.run([str(python(root, release)), "-c", code], env=child_env(root, release),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _pip(py: Path, *args: str, log) -> None:
    subprocess.run([str(py), "-m", "pip", "install", "-q", *args], check=True, stdout=log,
                   stderr=subprocess.STDOUT)


def ensure(root: Path, release: str, base_python: str | None = None, log=None) -> dict:
    """Build `release`'s venv unless a finished one is there; return its versions."""
    d = env_dir(root, release)
    marker = d / MARKER
    if marker.exists():
        return json.loads(marker.read_text())
    d.parent.mkdir(parents=True, exist_ok=True)
    base = base_python or getattr(sys, "_base_executable", sys.executable)
    print(f"building {d} ...", file=sys.stderr, flush=True)
    subprocess.run([base, "-m", "venv", "--clear", str(d)], check=True)
    py = python(root, release)
    log = log or subprocess.DEVNULL
    _pip(py, f"numba=={release}", numpy_spec(release), *RUNTIME, log=log)
    _pip(py, "--no-deps", "-e", str(REPO), log=log)
    info = versions(root, release)
    if info["numba"] != release:
        raise RuntimeError(f"{d} has numba {info['numba']}, not {release}")
    (d / "numba_cache").mkdir(exist_ok=True)
    marker.write_text(json.dumps(info, indent=1))
    return info
