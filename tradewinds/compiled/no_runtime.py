"""`@kernel`: numba's njit for code that creates no arrays, compiled without reference
counting.

Numba wraps the array arguments of every compiled call in reference-count increments
and decrements, and relies on an LLVM pass to remove them once the calls are inlined.
Under numba 0.66 and later (LLVM 22) that pass leaves most of them in place, and the
atomic counts inside the kernels' per-action loops slowed Voyage's `legal_mask` and `step`
against numba 0.65 (the figures: docs/numba.md, "Reference counts"). A function
compiled without numba's runtime (its ``_nrt=False`` option) emits none.

Such a function cannot create an array (``np.zeros``, ``.copy()``) and cannot call a
function that does: a callee without its own setting is compiled without the runtime too,
and numba refuses it with "Only accept returning of array passed into the function as
argument". Functions that allocate keep plain ``njit``; a `kernel` called from them keeps
its setting.

    @kernel
    def step(s, a): ...

    @kernel(inline="always")
    def total(s, at, count): ...
"""

from __future__ import annotations

from numba import njit


def kernel(fn=None, **options):
    """``njit(cache=True, _nrt=False, **options)``, bare or with options."""
    jit = njit(cache=True, _nrt=False, **options)
    return jit if fn is None else jit(fn)
