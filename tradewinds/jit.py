"""The kernel protocol inside numba: one set of generic functions, bound per game.

Code that runs inside njit and is written once for every game (playouts, batches, search,
rollout policies) calls the functions below with the game's *aux* value first:
``jit.step(aux, s, a)``. A game binds its own kernels to these names with `bind`, keyed by
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
| ``legal_mask(aux, s, mask)`` | write the legal actions |
| ``current_player(aux, s) -> int`` | who decides now; -1 when over |
| ``is_terminal(aux, s) -> bool`` | over (by the rules or the round cap) |
| ``returns(aux, s, out)`` | float64 reward per seat of a finished game |
| ``scores(aux, s, out)`` | int64 VP per seat |
| ``observe(aux, s, player, out)`` | float32 observation of ``player`` |
| ``determinize(aux, s, player, key)`` | in place: resample what ``player`` cannot see |

A caveat of numba's cache: a cached generic function is not recompiled when only a
game's kernel file changes. Clear ``__pycache__`` (or the ``NUMBA_CACHE_DIR``) after
editing a kernel by hand; a fresh checkout, as in CI, has no cache. (`tradewinds.jitcache`
does this for the project's own packages.) A game whose aux class other processes cannot
import (one defined in a script or a test package) binds with ``cache=False``: its
compilations of the generic functions then stay in memory, out of the shared disk cache.

The Python side of the protocol (the kernels a `tradewinds.Game` calls, and which
capabilities a game declares) is `tradewinds.protocol`.
"""

from __future__ import annotations

from numba import types
from numba.extending import overload

from tradewinds import jitcache

PROTOCOL = ("init", "step", "legal_mask", "current_player", "is_terminal", "returns",
            "scores", "observe", "determinize")


def init(aux, s, num_players, seed, opts):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def step(aux, s, a):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def legal_mask(aux, s, mask):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def current_player(aux, s):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def is_terminal(aux, s):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def returns(aux, s, out):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def scores(aux, s, out):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def observe(aux, s, player, out):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


def determinize(aux, s, player, key):
    raise NotImplementedError("tradewinds.jit functions are called from njit code only")


_BOUND: dict = {}


def is_aux(aux_type, aux_class) -> bool:
    """True when the numba type `aux_type` is an instance of the NamedTuple `aux_class`."""
    return isinstance(aux_type, types.BaseNamedTuple) and aux_type.instance_class is aux_class


def bind(aux_class, *, cache: bool = True, **impls) -> None:
    """Bind a game's njit kernels to the protocol names for aux values of `aux_class`.

    Every name of `PROTOCOL` must be given; each implementation takes the same arguments
    as the protocol function (aux first). Binding the same class twice is a no-op.
    ``cache=False``: generic functions compiled for this game are never written to numba's
    disk cache (for an aux class that other processes cannot import; see the top).
    """
    missing = sorted(set(PROTOCOL) - set(impls))
    extra = sorted(set(impls) - set(PROTOCOL))
    if missing or extra:
        raise ValueError(f"bind({aux_class.__name__}): missing {missing}, unknown {extra}")
    if not cache:
        jitcache.keep_off_disk(aux_class)
    if aux_class in _BOUND:
        return
    _BOUND[aux_class] = impls
    chosen = {name: _chooser(aux_class, impl) for name, impl in impls.items()}
    # One typer per protocol function, with the protocol's own argument names (numba
    # matches typer and implementation signatures by name).
    opts = {}   # compiled into (and cached with) each caller
    overload(init, jit_options=opts)(
        lambda aux, s, num_players, seed, opts: chosen["init"](aux))
    overload(step, jit_options=opts)(lambda aux, s, a: chosen["step"](aux))
    overload(legal_mask, jit_options=opts)(lambda aux, s, mask: chosen["legal_mask"](aux))
    overload(current_player, jit_options=opts)(lambda aux, s: chosen["current_player"](aux))
    overload(is_terminal, jit_options=opts)(lambda aux, s: chosen["is_terminal"](aux))
    overload(returns, jit_options=opts)(lambda aux, s, out: chosen["returns"](aux))
    overload(scores, jit_options=opts)(lambda aux, s, out: chosen["scores"](aux))
    overload(observe, jit_options=opts)(
        lambda aux, s, player, out: chosen["observe"](aux))
    overload(determinize, jit_options=opts)(
        lambda aux, s, player, key: chosen["determinize"](aux))


def _chooser(aux_class, impl):
    """aux type -> the implementation for `aux_class`, else None (numba tries the next).
    overload wants plain functions: an njit implementation is given by its Python source."""
    impl = getattr(impl, "py_func", impl)
    return lambda aux: impl if is_aux(aux, aux_class) else None


def bound_games() -> list:
    """The aux classes bound so far (one per game)."""
    return list(_BOUND)
