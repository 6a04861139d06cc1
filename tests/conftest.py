"""Fixtures several test folders share.

The suite is a package (`tests/__init__.py` and one in each folder), so pytest puts the
repository's root on `sys.path` and names test modules by their folder
(`tests.hansa.test_hansa_env`): two files of the same name in two folders do not collide,
and the helpers are imported as `tests.helpers.<module>`. The test games are imported
inside the fixtures, so a run that needs neither does not build them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tests check behaviour, not speed: numba compiles the kernels at LLVM's -O1 (the same
# results, about a fifth less time from a cold cache; -O0 runs slower) into a cache of the
# suite's own, so that a benchmark never loads code compiled at -O1. Set either variable to
# override; benchmarks and users keep numba's defaults (-O3, the source's __pycache__).
# Set here because numba reads both once, at import, which comes after this file.
os.environ.setdefault("NUMBA_OPT", "1")
os.environ.setdefault("NUMBA_CACHE_DIR",
                      str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "numba"))


def pytest_configure(config):
    """Under `-n N`, xdist's default deals tests out one by one; a file's tests share their
    kernels, so deal whole files (`--dist loadfile`) and one worker compiles them, not two.
    An explicit `--dist` is kept."""
    explicit = any(a.startswith("--dist") for a in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "loadfile"


@pytest.fixture
def pebbles():
    """The tiny test game Pebbles, registered for one test (other tests see the registry
    as a user does)."""
    from tests.helpers import pebbles_env

    with pebbles_env.registered():
        yield pebbles_env.GAME


@pytest.fixture
def race():
    """The rigged race game and its advance/wait agents, registered for one test."""
    from tests.helpers import race_game
    from tradewinds import agents, registry

    with registry.registered("race", race_game.__name__):
        agents.register("advance", race_game.Advance, replace=True)
        agents.register("wait", race_game.Wait, replace=True)
        yield
        agents.unregister("advance")
        agents.unregister("wait")


@pytest.fixture(autouse=True)
def _no_inherited_columns(monkeypatch):
    """pytest-xdist's workers inherit COLUMNS=80, which rich (and `tradewinds.output`)
    obey; a test then sees other widths under `-n 2` than alone. Tests that are about
    COLUMNS set it themselves."""
    monkeypatch.delenv("COLUMNS", raising=False)
