"""Borrowed arrays for hot njit loops: no reference counting in the calls they go into.

numba counts references to every array a compiled function holds, with atomic increments
and decrements around each call that passes it. Its reference-count pruner removes most
of them, but since numba 0.66 (the LLVM 20 pipeline) it misses every pair in a function
whose array dies on different branches (``return s[a] == 0 and s[b] == 0``): the kernels'
helpers are full of those, so each step paid for dozens of atomic operations
(docs/benchmarking.md, "numba releases", has the reduced reproducer).

`borrow(x)` returns the same array (or a NamedTuple with its arrays so treated) without
its owner record: numba's increments and decrements skip an array that has none, so the
calls made with it cost what they cost before. The owner is whoever holds the original,
so only ever borrow a function's *arguments* (the caller holds them for the whole call),
never an array made inside the same function, and never return or store a borrowed
array where it could outlive the call.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _without_owner(context, builder, ty, value):
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        for i, member in enumerate(ty.types):
            inner = _without_owner(context, builder, member, builder.extract_value(value, i))
            value = builder.insert_value(value, inner, i)
        return value
    return value


@intrinsic
def borrow(typingctx, x):
    """`x` (an array, or a tuple/NamedTuple holding arrays) with no reference counting."""

    def codegen(context, builder, sig, args):
        return _without_owner(context, builder, sig.args[0], args[0])

    return x(x), codegen
