"""Keep numba's on-disk cache honest across modules.

numba checks a cached function against its own source file only. A function that calls
into another module (a generic search calling a game's `step` through
`tradewinds.compiled.protocol`, a kernel calling `tradewinds.rng`) keeps running the old
callee after that module changes.
`refresh(globals())`, at the end of a module with njit functions, drops the module's
cached functions when any first-party source file changed since they were cached: the
stamp is the size and modification time of every ``.py`` file of the project's packages
that holds numba code (`holds_numba_code`), and of every project module those import (state
layouts and constants are compiled in as literals: a changed offset must recompile its
users).
A fresh checkout has no cache, so this matters to people editing kernels, not to CI.
It also flushes an index that cannot be loaded (see `_drop_unreadable`), and keeps the
compilations for games bound with ``tradewinds.compiled.protocol.bind(..., cache=False)``
out of the disk cache (`keep_off_disk`).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from numba import types
from numba.core import caching
from numba.core.registry import CPUDispatcher

# every first-party package whose modules may hold numba code or be imported by it
PACKAGES = ("tradewinds", "hansa_env", "voyage_env", "tradewinds.agents", "tradewinds.studies",
            "tradewinds.training")


def _project_modules() -> dict[str, Path]:
    """Dotted name -> source file of every module of the project's packages."""
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        spec = find_spec(pkg)
        if spec is None or not spec.submodule_search_locations:
            continue
        for root in spec.submodule_search_locations:
            # os.walk, not rglob: __pycache__ holds numba's many index and data files
            for folder, subfolders, names in os.walk(root):
                subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
                here = Path(folder).relative_to(root).parts
                for name in sorted(n for n in names if n.endswith(".py")):
                    parts = (*here, name[:-3]) if name != "__init__.py" else here
                    out[".".join((pkg, *parts))] = Path(folder) / name
    return out


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)"
                     r"|import[ \t]+([\w., \t]+))", re.M)


def _imported(text: str, modules: dict[str, Path]) -> set[str]:
    """Project modules a module's source imports (a name imported from a package counts
    when it is a module of that package)."""
    found = set()
    for module, names, plain in _IMPORT.findall(text):
        if module:
            found.add(module)
            for name in re.findall(r"\w+", names.split("#")[0]):
                found.add(f"{module}.{name}")
        else:
            found.update(x.split()[0] for x in plain.split(",") if x.strip())
    return {m for m in found if m in modules}


# Numba code is what numba compiles: a function under one of its decorators, a call of
# njit or overload at the start of a statement (``f = njit(cache=True)(g)``, ``overload(init,
# ...)(impl)``), or a game's kernels bound with ``protocol.bind``
# (`tradewinds.compiled.protocol`). The words alone (a docstring speaking of "njit
# functions", as tradewinds/protocol.py does) are not.
_DECORATOR = re.compile(r"@[ \t]*(?:numba\.)?(?:njit|jit|kernel|overload\w*|generated_jit|vectorize"
                        r"|guvectorize|cfunc|stencil|intrinsic|register_jitable)\b")
_CALL_TAIL = re.compile(r"\w*[ \t]*\(")
_CALL_LEAD = re.compile(r"[ \t]*(?:[\w.]+[ \t]*=[ \t]*)?(?:numba\.|tradewinds\.compiled\.)?")


def holds_numba_code(text: str) -> bool:
    """Whether a module's source compiles something with numba: a decorator of numba's at
    the start of a line, or a call of njit, overload or protocol.bind that starts a statement
    (alone or assigned). Only the places that name them are looked at (str.find: a regex
    scan of every module would cost more than the rest of `fingerprint`)."""
    for m in _DECORATOR.finditer(text):
        line = text.rfind("\n", 0, m.start()) + 1
        if not text[line:m.start()].strip():
            return True
    for word in ("njit", "overload", "protocol.bind"):
        at = text.find(word)
        while at >= 0:
            line = text.rfind("\n", 0, at) + 1
            if (_CALL_TAIL.match(text, at + len(word))
                    and _CALL_LEAD.fullmatch(text, line, at)):
                return True
            at = text.find(word, at + len(word))
    return False


@cache
def fingerprint() -> str:
    """A digest of (path, size, mtime) of every project file numba code depends on: the
    files with numba code and every project module they import, transitively (state
    layouts and constants are compiled into the kernels as literals)."""
    modules = _project_modules()
    h = hashlib.sha256()
    for name in sorted(numba_dependencies(modules)):
        st = modules[name].stat()
        h.update(f"{modules[name]}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def numba_dependencies(modules: dict[str, Path]) -> set[str]:
    """The modules with numba code and every project module they import, transitively."""
    texts, todo = {}, []
    for name, path in modules.items():
        texts[name] = path.read_text(encoding="utf-8", errors="replace")
        if holds_numba_code(texts[name]):
            todo.append(name)
    needed: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo.extend(_imported(texts[name], modules) - needed)
    return needed


def refresh(module_globals: dict) -> None:
    """Flush the disk cache of the module's njit functions if the project changed since."""
    dispatchers = [v for v in module_globals.values()
                   if isinstance(v, CPUDispatcher) and v.__module__ == module_globals["__name__"]
                   and v._cache is not None and hasattr(v._cache, "_cache_path")]
    if not dispatchers:
        return
    stamp = Path(dispatchers[0]._cache._cache_path) / f"{module_globals['__name__']}.deps"
    current = fingerprint()
    try:
        if stamp.exists() and stamp.read_text() == current:
            for d in dispatchers:
                _drop_unreadable(d)
            return
        for d in dispatchers:
            d._cache.flush()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(current)
    except OSError:      # a read-only install: numba falls back to its own cache rules
        pass


def _drop_unreadable(dispatcher) -> None:
    """Flush an index numba could not load. A generic function's index holds one entry
    per game it was compiled for, and unpickling an entry imports the game's aux class:
    a game defined in a script or a test module that this process cannot import would
    make every later call fail with ModuleNotFoundError instead of recompiling. A class
    whose module is still being imported is there by the time the function is called
    (a game's bindings import the generic functions, whose index names the bindings'
    aux class), so that index is kept: flushing it cost every process a recompile."""
    try:
        dispatcher._cache._cache_file._load_index()
    except Exception as error:       # noqa: BLE001 - whatever the unpickling raised
        if not _names_a_module_being_imported(error):
            dispatcher._cache.flush()


_MISSING_ON = re.compile(r"on <module '([\w.]+)'")


def _names_a_module_being_imported(error: Exception) -> bool:
    """Whether unpickling missed a class on a module whose import has not finished."""
    found = _MISSING_ON.search(str(error)) if isinstance(error, AttributeError) else None
    spec = getattr(sys.modules.get(found.group(1)), "__spec__", None) if found else None
    return bool(getattr(spec, "_initializing", False))


_OFF_DISK: set = set()


def keep_off_disk(aux_class) -> None:
    """Never write to numba's disk cache a compilation whose arguments hold an instance of
    the NamedTuple `aux_class`. A generic function's cache index holds one entry per game;
    an entry naming a class that another process cannot import (a game defined in a script
    or a test package) makes that process drop the whole index (`_drop_unreadable`) and
    recompile every game. Such a game is compiled in each process instead."""
    _OFF_DISK.add(aux_class)
    if not getattr(caching.Cache.save_overload, "keeps_off_disk", False):
        caching.Cache.save_overload = _guarded(caching.Cache.save_overload)


def _guarded(save_overload):
    def guarded_save_overload(self, sig, data):
        if not _names_off_disk(getattr(sig, "args", sig)):
            save_overload(self, sig, data)

    guarded_save_overload.keeps_off_disk = True
    return guarded_save_overload


def _names_off_disk(argtypes) -> bool:
    for t in argtypes:
        if isinstance(t, types.BaseNamedTuple) and t.instance_class in _OFF_DISK:
            return True
        if isinstance(t, types.BaseTuple) and _names_off_disk(t.types):
            return True
    return False
