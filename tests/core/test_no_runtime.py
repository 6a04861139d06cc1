"""`tradewinds.compiled.no_runtime.kernel`: the kernels are compiled without reference counting,
and the decorator refuses what it cannot compile (docs/numba.md, "Reference counts")."""

from importlib import import_module

import numpy as np
import pytest
from numba.core.errors import TypingError
from numba.core.registry import CPUDispatcher

from tradewinds.compiled.no_runtime import kernel

# The functions of these modules that create arrays, and so keep numba's runtime. The
# modules are looked up by name (import_module), not as attributes of their packages: a
# package's attribute can be missing in a worker whose numba cache is being rebuilt while
# the module itself is imported, and a failed import then shows its own error.
ALLOCATING = {
    import_module("voyage_env.kernel"): {"init", "init_opts", "deal_cards_at_setup",
                                         "returns", "winners", "random_playout"},
    import_module("hansa_env.kernel"): {"init", "init_opts", "observe", "returns", "winners",
                                        "random_playout"},
    import_module("voyage_env.determinize"): {"deal_targets", "deal_cards", "determinize"},
    import_module("tradewinds.rng"): set(),
}


def _dispatchers(module):
    return {name: f for name, f in vars(module).items()
            if isinstance(f, CPUDispatcher) and f.__module__ == module.__name__}


@pytest.mark.parametrize("module", list(ALLOCATING), ids=lambda m: m.__name__)
def test_every_kernel_that_allocates_nothing_runs_without_reference_counts(module):
    found = _dispatchers(module)
    assert found, module
    for name, f in found.items():
        nrt = f.targetoptions.get("_nrt", True)
        if name in ALLOCATING[module]:
            assert nrt, f"{module.__name__}.{name} allocates and needs numba's runtime"
        else:
            assert nrt is False, f"{module.__name__}.{name}: decorate it with @kernel"


def test_kernel_refuses_a_function_that_creates_an_array():
    @kernel
    def fresh(n):
        return np.zeros(n, dtype=np.int64)

    with pytest.raises(TypingError, match="Only accept returning of array passed"):
        fresh(3)


def test_kernel_takes_options_and_runs():
    @kernel(inline="always")
    def total(s, at, count):
        t = 0
        for i in range(at, at + count):
            t += s[i]
        return t

    @kernel
    def twice(s):
        return 2 * total(s, 1, 3)

    assert twice(np.arange(6, dtype=np.int32)) == 2 * (1 + 2 + 3)
    assert twice.targetoptions["_nrt"] is False
