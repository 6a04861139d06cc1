"""The kernel protocol inside numba: one set of generic functions, bound per game.

Code that runs inside njit and is written once for every game (playouts, batches, search,
rollout policies) calls the functions below with the game's *aux* value first:
``protocol.step(aux, s, a)``. A game binds its own kernels to these names with `bind`, keyed by
the class of its aux value (a ``NamedTuple`` holding the game's static arrays: Voyage's
packed map, nothing for Hansa). Numba resolves each call at compile time from the aux
type, so a generic function is compiled once per game, inlines the game's kernels (no
indirect calls) and is cached on disk like any other njit function.

Signatures (``s`` is a game's int32 state vector, ``mask`` an int8/uint8 action vector,
``key`` an int32[2] SplitMix64 generator state, see `tradewinds.rng`):

| name | meaning |
|---|---|
| ``init(aux, s, num_players, seed, opts)`` | a fresh game; ``opts`` = int64 option values |
| ``step(aux, s, a) -> int`` | apply one decision; 0, or an error code (state untouched) |
| ``apply(aux, s, a)`` | apply a decision known legal (taken from ``legal_mask``), unchecked |
| ``legal_mask(aux, s, mask)`` | write the legal actions |
| ``current_player(aux, s) -> int`` | who decides now; -1 when over |
| ``is_terminal(aux, s) -> bool`` | over (by the rules or the round cap) |
| ``returns(aux, s, out)`` | float64 reward per seat of a finished game |
| ``scores(aux, s, out)`` | int64 VP per seat |
| ``observe(aux, s, player, out)`` | float32 observation of ``player`` |
| ``determinize(aux, s, player, key)`` | in place: resample what ``player`` cannot see |

A caveat of numba's cache: a cached generic function is not recompiled when only a
game's kernel file changes. Clear ``__pycache__`` (or the ``NUMBA_CACHE_DIR``) after
editing a kernel by hand; a fresh checkout, as in CI, has no cache.
(`tradewinds.compiled.disk_cache` does this for the project's own packages.) A game whose
aux class other processes cannot import (one defined in a script or a test package) binds
with ``cache=False``: its compilations of the generic functions then stay in memory, out
of the shared disk cache.

The Python side of the protocol (the kernels a `tradewinds.Game` calls, and which
capabilities a game declares) is `tradewinds.protocol`.
"""

from __future__ import annotations

import inspect

from numba import types
from numba.core import errors
from numba.extending import overload

from tradewinds.compiled import disk_cache

PROTOCOL = ("init", "step", "legal_mask", "current_player", "is_terminal", "returns",
            "scores", "observe", "determinize", "apply")
# Protocol names a game may leave out, and the name bound in their place. `apply` skips
# `step`'s checks in loops that take their actions from the mask (random playouts, the
# search's descent): a game without one gets `step` there.
OPTIONAL = {"apply": "step"}
NJIT_ONLY = "tradewinds.compiled.protocol functions are called from njit code only"


def init(aux, s, num_players, seed, opts):
    raise NotImplementedError(NJIT_ONLY)


def step(aux, s, a):
    raise NotImplementedError(NJIT_ONLY)


def apply(aux, s, a):
    raise NotImplementedError(NJIT_ONLY)


def legal_mask(aux, s, mask):
    raise NotImplementedError(NJIT_ONLY)


def current_player(aux, s):
    raise NotImplementedError(NJIT_ONLY)


def is_terminal(aux, s):
    raise NotImplementedError(NJIT_ONLY)


def returns(aux, s, out):
    raise NotImplementedError(NJIT_ONLY)


def scores(aux, s, out):
    raise NotImplementedError(NJIT_ONLY)


def observe(aux, s, player, out):
    raise NotImplementedError(NJIT_ONLY)


def determinize(aux, s, player, key):
    raise NotImplementedError(NJIT_ONLY)


_BOUND: dict = {}      # aux class -> {protocol name: implementation}


def is_aux(aux_type, aux_class) -> bool:
    """True when the numba type `aux_type` is an instance of the NamedTuple `aux_class`."""
    return isinstance(aux_type, types.BaseNamedTuple) and aux_type.instance_class is aux_class


def aux_class_of(aux_type):
    """The NamedTuple class of the numba type `aux_type`, or None."""
    return aux_type.instance_class if isinstance(aux_type, types.BaseNamedTuple) else None


def overload_by_aux(fn, pick) -> None:
    """Give `fn` (a function called from njit code with an aux value first) its one numba
    overload: at typing time `pick(aux class)` returns the plain Python implementation.

    One overload per function, registered once, looking its games up when it types a
    call: binding a game later never changes `fn`'s numba type. (One overload per game
    did: a game bound during a compilation, as unpickling a cache index that names
    another game's aux class does, left the compilation holding two types of `fn` that
    numba cannot unify.)"""
    def typer(*args):
        return pick(aux_class_of(args[0]))

    typer.__signature__ = inspect.signature(fn)   # numba matches the names
    overload(fn, jit_options={})(typer)           # options compiled into each caller


def _protocol_picker(name):
    def pick(aux_class):
        impls = _BOUND.get(aux_class)
        if impls is None:
            raise errors.TypingError(
                f"tradewinds.compiled.protocol.{name}: no game is bound for aux class "
                f"{getattr(aux_class, '__name__', aux_class)}; call "
                "tradewinds.compiled.protocol.bind")
        return impls[name]
    return pick


def bind(aux_class, *, cache: bool = True, **impls) -> None:
    """Bind a game's njit kernels to the protocol names for aux values of `aux_class`.

    Every name of `PROTOCOL` must be given but those of `OPTIONAL`; each implementation
    takes the same arguments as the protocol function (aux first). Binding the same class
    twice is a no-op.
    ``cache=False``: generic functions compiled for this game are never written to numba's
    disk cache (for an aux class that other processes cannot import; see the top).
    """
    impls = {**{name: impls[instead] for name, instead in OPTIONAL.items()
                if name not in impls and instead in impls}, **impls}
    missing = sorted(set(PROTOCOL) - set(impls))
    extra = sorted(set(impls) - set(PROTOCOL))
    if missing or extra:
        raise ValueError(f"bind({aux_class.__name__}): missing {missing}, unknown {extra}")
    if not cache:
        disk_cache.keep_off_disk(aux_class)
    if aux_class in _BOUND:
        return
    # overload wants plain functions: an njit implementation is given by its Python source
    _BOUND[aux_class] = {name: getattr(impl, "py_func", impl) for name, impl in impls.items()}


def bound_games() -> list:
    """The aux classes bound so far (one per game)."""
    return list(_BOUND)


for _name in PROTOCOL:
    overload_by_aux(globals()[_name], _protocol_picker(_name))
