"""SplitMix64 kept inside an int32 state vector (two words), for numba kernels.

The generator state lives in the game state so that `step` is a pure function of
(state, action) and games replay exactly from (seed, actions). The algorithm is written
out in docs/hansa_engine.md; the plain-Python references implement it independently.
"""

import numpy as np

from tradewinds.compiled import disk_cache
from tradewinds.compiled.no_runtime import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_U30, _U27, _U31, _U32, _U33 = (np.uint64(k) for k in (30, 27, 31, 32, 33))


@kernel
def load(s, at):
    """The 64-bit generator state stored at s[at] (low word), s[at + 1] (high word)."""
    lo = np.uint64(np.int64(s[at]) & 0xFFFFFFFF)
    hi = np.uint64(np.int64(s[at + 1]) & 0xFFFFFFFF)
    return lo | (hi << _U32)


@kernel
def store(s, at, x):
    lo = np.int64(x & _MASK32)
    hi = np.int64(x >> _U32)
    s[at] = lo - 4294967296 if lo >= 2147483648 else lo
    s[at + 1] = hi - 4294967296 if hi >= 2147483648 else hi


@kernel
def mix(x):
    """One SplitMix64 output for the (already advanced) state x."""
    z = x
    z = (z ^ (z >> _U30)) * _MUL1
    z = (z ^ (z >> _U27)) * _MUL2
    return z ^ (z >> _U31)


@kernel
def next_u64(s, at):
    x = load(s, at) + _GOLDEN
    store(s, at, x)
    return mix(x)


@kernel
def below(s, at, n):
    """A uniform integer in [0, n) (n small; modulo bias below 2**-26)."""
    return np.int64((next_u64(s, at) >> _U33) % np.uint64(n))


@kernel
def seed_state(s, at, seed):
    store(s, at, np.uint64(seed))


@kernel
def shuffle(s, at, a, n):
    """Fisher-Yates on a[:n] drawing from the generator at s[at]."""
    for i in range(n - 1, 0, -1):
        j = below(s, at, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@kernel
def pick_set(mask, key):
    """A uniformly chosen index i with mask[i] != 0, drawing from the generator at key[0:2]
    (random playouts); -1 if the mask is empty."""
    k = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            k += 1
    if k == 0:
        return -1
    r = below(key, 0, k)
    for a in range(mask.shape[0]):
        if mask[a]:
            if r == 0:
                return a
            r -= 1
    return -1


disk_cache.refresh(globals())
