"""The njit kernel protocol (tradewinds/compiled/protocol.py) and the cross-module cache guard.

tests/helpers/count_game.py binds a tiny counting game, so the generic functions are shown to
work on a game the library has never seen: count up from 0; each decision adds 1 or 2;
whoever reaches 10 or more wins; its only hidden part is the generator.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import types
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from tests.helpers import ROOT
from tradewinds.compiled import disk_cache, protocol

COUNT_GAME = ROOT / "tests" / "helpers" / "count_game.py"
LATE_BIND = ROOT / "tests" / "helpers" / "late_bind.py"


def _run_child(script, tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=600)


def test_generic_functions_run_a_newly_bound_game(tmp_path):
    """tests/helpers/count_game.py binds a game the library has never seen and checks the generic
    playout and determinize on it (in a child with a private numba cache)."""
    proc = _run_child(COUNT_GAME, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "count game ok" in proc.stdout


def test_a_game_bound_during_a_compilation_does_not_break_it(tmp_path):
    """tests/helpers/late_bind.py binds a game while an njit function that calls
    protocol.is_terminal twice is being typed (as unpickling a cache index does)."""
    proc = _run_child(LATE_BIND, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "late bind ok" in proc.stdout


def test_an_unloadable_cache_index_is_dropped_not_fatal(tmp_path, monkeypatch):
    """An index entry whose aux class cannot be imported (a game from a script) is flushed
    by disk_cache instead of failing every later call."""
    (tmp_path / "cached_mod2.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(disk_cache, "fingerprint", lambda: "same")
    mod = importlib.import_module("cached_mod2")
    assert mod.f(1) == 2
    index = mod.f._cache._cache_file
    monkeypatch.setattr(type(index), "_load_index",
                        lambda self: (_ for _ in ()).throw(ModuleNotFoundError("gone")))
    flushed = []
    monkeypatch.setattr(type(mod.f._cache), "flush", lambda self: flushed.append(self))
    disk_cache.refresh(vars(mod))
    assert flushed == [mod.f._cache]
    sys.modules.pop("cached_mod2")


@pytest.mark.parametrize("still_importing", [True, False])
def test_an_index_naming_a_module_still_being_imported_is_kept(
        tmp_path, monkeypatch, still_importing):
    """A game's bindings import the generic functions while the bindings themselves are
    being imported: the aux class their index names is missing only for that moment, so
    the index is kept; the same miss on a module that finished importing flushes it."""
    (tmp_path / "cached_mod3.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(disk_cache, "fingerprint", lambda: "same")
    mod = importlib.import_module("cached_mod3")
    half = types.ModuleType("half_imported")
    half.__spec__ = ModuleSpec("half_imported", None)
    half.__spec__._initializing = still_importing
    monkeypatch.setitem(sys.modules, "half_imported", half)
    missing = AttributeError("Can't get attribute 'Aux' on <module 'half_imported' from 'h.py'>")
    index = mod.f._cache._cache_file
    monkeypatch.setattr(type(index), "_load_index", lambda self: (_ for _ in ()).throw(missing))
    flushed = []
    monkeypatch.setattr(type(mod.f._cache), "flush", lambda self: flushed.append(self))
    disk_cache.refresh(vars(mod))
    assert flushed == ([] if still_importing else [mod.f._cache])
    sys.modules.pop("cached_mod3")


GENERIC = '''
from numba import njit
from tradewinds.compiled import disk_cache

@njit(cache=True)
def total(aux):
    return aux.x.sum()

disk_cache.refresh(globals())
'''

BINDING = '''
from typing import NamedTuple
import numpy as np
import generic_mod                    # as a game's bindings import tradewinds.batch

class Aux(NamedTuple):
    x: np.ndarray
'''


def test_a_new_process_keeps_what_a_generic_function_compiled_for_a_game(tmp_path):
    """A game's bindings import the generic functions before they define the aux class
    that the functions' cache index names: a second process keeps that entry (in
    children with a private numba cache: the first compiles, the second imports)."""
    (tmp_path / "generic_mod.py").write_text(GENERIC)
    (tmp_path / "binding_mod.py").write_text(BINDING)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}

    def child(code):
        proc = subprocess.run([sys.executable, "-c", "import binding_mod as b; " + code],
                              capture_output=True, text=True, env=env, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return int(proc.stdout.split()[-1])

    assert child("import numpy as np; print(b.generic_mod.total(b.Aux(np.arange(4))))") == 6
    assert child("print(len(b.generic_mod.total._cache._cache_file._load_index()))") == 1


def test_bind_names_what_is_missing_or_unknown():
    class Other(NamedTuple):
        x: np.ndarray

    with pytest.raises(ValueError, match=r"missing \['determinize'.*unknown \['stepp'\]"):
        protocol.bind(Other, stepp=None, **{k: None for k in protocol.PROTOCOL
                                      if k not in ("determinize", "step", "init")},
                 step=None, init=None)
    assert Other not in protocol.bound_games()


def test_both_games_are_bound():
    import hansa_env.bindings as hb
    import voyage_env.bindings as vb

    assert {hb.HansaAux, vb.VoyageAux} <= set(protocol.bound_games())


MODULE = '''
from numba import njit
from tradewinds.compiled import disk_cache

@njit(cache=True)
def f(x):
    return x + 1

disk_cache.refresh(globals())
'''


def test_cache_is_dropped_when_a_numba_source_changes(tmp_path, monkeypatch):
    """A changed fingerprint flushes the module's cache index; an unchanged one keeps it."""
    (tmp_path / "cached_mod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(disk_cache, "fingerprint", lambda: "first")
    mod = importlib.import_module("cached_mod")
    assert mod.f(1) == 2
    stamp = Path(mod.f._cache._cache_path) / "cached_mod.deps"   # beside numba's cache
    assert stamp.read_text() == "first"
    assert mod.f._cache._cache_file._load_index()          # the compiled f is indexed

    sys.modules.pop("cached_mod")
    mod = importlib.import_module("cached_mod")            # same fingerprint: kept
    assert mod.f._cache._cache_file._load_index()

    sys.modules.pop("cached_mod")
    monkeypatch.setattr(disk_cache, "fingerprint", lambda: "second")
    mod = importlib.import_module("cached_mod")            # changed: flushed
    assert stamp.read_text() == "second"
    assert not mod.f._cache._cache_file._load_index()
    assert mod.f(2) == 3
    sys.modules.pop("cached_mod")


def test_cache_stamp_covers_the_modules_kernels_compile_in():
    """State layouts and constants are compiled into the kernels as literals, so the
    stamp that flushes stale caches must cover them, not only files with numba code
    (a changed offset with a stale cache crashed the Voyage heuristic)."""
    modules = disk_cache._project_modules()
    needed = disk_cache.numba_dependencies(modules)
    for name in ("hansa_env.state", "voyage_env.state", "voyage_env.rules", "hansa_env.board",
                 "hansa_env.kernel", "tradewinds.agents.ismcts", "tradewinds.rng"):
        assert name in needed, name
    assert "tradewinds.store" not in needed and "tradewinds.studies.fpa" not in needed
    text = "from voyage_env import state as S, rules\nimport hansa_env.board\n"
    assert disk_cache._imported(text, modules) == {"voyage_env", "voyage_env.state",
                                                 "voyage_env.rules", "hansa_env.board"}


def test_numba_code_is_what_numba_compiles_not_the_word():
    """A module holds numba code when it decorates or compiles with numba or binds a game's
    kernels; a docstring that speaks of njit functions (tradewinds/protocol.py) does not
    make it one (it is still in the stamp when numba code imports it)."""
    modules = disk_cache._project_modules()
    holds = {n for n, p in modules.items() if disk_cache.holds_numba_code(p.read_text())}
    for name in ("tradewinds.compiled.generic", "tradewinds.rng", "tradewinds.compiled.protocol",
                 "tradewinds.agents.policies",
                 "hansa_env.bindings", "voyage_env.kernel", "tradewinds.training.opponents",
                 "tradewinds.training.vec_env"):
        assert name in holds, name
    for name in ("tradewinds.protocol", "tradewinds.compiled.disk_cache",
                 "tradewinds.studies.arena", "tradewinds.cli_args"):
        assert name not in holds, name
    assert "tradewinds.training.vec_env" in disk_cache.numba_dependencies(modules)
    for text in ("@njit(cache=True)\ndef f(x):\n    return x\n",
                 "import numba\n\n@numba.njit\ndef f(x):\n    return x\n",
                 "@kernel\ndef f(s):\n    return s[0]\n",
                 '@kernel(inline="always")\ndef f(s):\n    return s[0]\n',
                 "g = njit(cache=True)(f)\n",
                 "    overload(step, jit_options=opts)(impl)\n",
                 "protocol.bind(\n    Aux,\n)\n"):
        assert disk_cache.holds_numba_code(text), text
    for text in ('"""Generic njit functions; see protocol.bind and overload."""\n',
                 "# an njit call fused with the kernel call\nx = 1\n",
                 "import numba\nversion = numba.__version__\n",
                 "caching.Cache.save_overload = _guarded(caching.Cache.save_overload)\n"):
        assert not disk_cache.holds_numba_code(text), text


def test_openmp_threads_wait_passively_after_a_short_spin():
    """tradewinds sets both waits unless the environment chose (docs/benchmarking.md)."""
    code = ("import os, tradewinds; "
            "print(os.environ['OMP_WAIT_POLICY'], os.environ['GOMP_SPINCOUNT'])")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["passive", "20000"]
    env["GOMP_SPINCOUNT"] = "7"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["passive", "7"]
