"""Small standalone reproducers of code patterns of the kernels; prints JSON (ns/iter).

    python -m lab.numba_repro
    python -m lab.numba_releases --what repro     # under every release

Each pattern comes as written in the kernels (``*_slice``, ``*_copy``, ...) and as the
plain loop that could replace it (``*_loop``); the sizes are the games' (an action mask
of 65 or 90 int8 entries, a state of about 340 int32). Run by
`lab.numba_releases` once per release and repeat; docs/numba.md lists the
figures and which patterns regress under the newer LLVM.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np
from numba import njit

from tradewinds.benchmarks.timing import ns_per_unit

MASK, STATE = 90, 340
TABLE = (np.arange(30 * 30, dtype=np.int64).reshape(30, 30) * 7919) % 31   # a global


@njit(cache=True)
def fill_slice(mask, iters):
    """`mask[:] = 0`, as legal_mask starts (both games)."""
    acc = 0
    for i in range(iters):
        mask[:] = 0
        mask[i % mask.shape[0]] = 1
        acc += mask[(i * 7) % mask.shape[0]]
    return acc


@njit(cache=True)
def fill_loop(mask, iters):
    acc = 0
    for i in range(iters):
        for j in range(mask.shape[0]):
            mask[j] = 0
        mask[i % mask.shape[0]] = 1
        acc += mask[(i * 7) % mask.shape[0]]
    return acc


@njit(cache=True)
def fill_float_slice(out, iters):
    """`out[:] = 0.0` on a float32 vector, as observe starts."""
    acc = 0.0
    for i in range(iters):
        out[:] = 0.0
        out[i % out.shape[0]] = 1.0
        acc += out[(i * 7) % out.shape[0]]
    return acc


@njit(cache=True)
def fill_float_loop(out, iters):
    acc = 0.0
    for i in range(iters):
        for j in range(out.shape[0]):
            out[j] = 0.0
        out[i % out.shape[0]] = 1.0
        acc += out[(i * 7) % out.shape[0]]
    return acc


@njit(cache=True)
def copy_slice(dst, src, iters):
    """`dst[:] = src` on int32 state vectors."""
    acc = 0
    for i in range(iters):
        src[i % src.shape[0]] += 1
        dst[:] = src
        acc += dst[(i * 7) % dst.shape[0]]
    return acc


@njit(cache=True)
def copy_loop(dst, src, iters):
    acc = 0
    for i in range(iters):
        src[i % src.shape[0]] += 1
        for j in range(src.shape[0]):
            dst[j] = src[j]
        acc += dst[(i * 7) % dst.shape[0]]
    return acc


@njit(cache=True)
def copy_method(src, iters):
    """`s.copy()` (a new array each time), as the generic determinize does."""
    acc = 0
    for i in range(iters):
        src[i % src.shape[0]] += 1
        d = src.copy()
        acc += d[(i * 7) % d.shape[0]]
    return acc


@njit(cache=True)
def row_assign(a, b, iters):
    """`a[k] = b[k]` row by row: the reproducer of numba's report 10643."""
    for _ in range(iters):
        for k in range(a.shape[0]):
            a[k] = b[k]
    return a[0, 0]


@njit(cache=True)
def row_loop(a, b, iters):
    for _ in range(iters):
        for k in range(a.shape[0]):
            for j in range(a.shape[1]):
                a[k, j] = b[k, j]
    return a[0, 0]


@njit(cache=True)
def zeros_small(iters):
    """`np.zeros(4)` per call (winners, returns, determinize): a heap allocation each."""
    acc = 0
    for i in range(iters):
        v = np.zeros(4, dtype=np.int64)
        v[i % 4] = i
        acc += v[(i * 3) % 4]
    return acc


@njit(cache=True)
def sum_slice(s, iters):
    """`s[a:b].sum()` over a few entries."""
    acc = 0
    for i in range(iters):
        at = i % (s.shape[0] - 8)
        acc += s[at:at + 8].sum()
    return acc


@njit(cache=True)
def sum_loop(s, iters):
    acc = 0
    for i in range(iters):
        at = i % (s.shape[0] - 8)
        for j in range(at, at + 8):
            acc += s[j]
    return acc


@njit(cache=True)
def global_table(s, iters):
    """Lookups in a module-level 2-D array (compiled in as a constant), as Hansa's ROUTE,
    OUT_TO and SLOTS tables."""
    acc = 0
    for i in range(iters):
        c = s[i % s.shape[0]] % 30
        for k in range(8):
            acc += TABLE[c, (c + k) % 30]
    return acc


@njit(cache=True)
def argument_table(s, table, iters):
    acc = 0
    for i in range(iters):
        c = s[i % s.shape[0]] % 30
        for k in range(8):
            acc += table[c, (c + k) % 30]
    return acc


@njit(cache=True)
def _legal(s, a):
    """A per-action legality test that branches on the phase first, as both games'
    `is_legal` do."""
    phase = s[0]
    p = s[1]
    if phase == 0:
        return a < s[2] and s[10 + a] == 0
    if phase == 1:
        return a - 20 + 1 > s[3] and a - 20 + 1 - s[4 + p] <= s[6 + p]
    if phase == 2:
        k = a - 40
        return 0 <= k < s[2] and s[50 + k] < 0
    if phase == 3:
        return s[60 + p * 8 + (a % 8)] > 0 and (a % 5) <= s[6 + p]
    if phase == 4:
        return a == 70 or s[80 + (a % 6)] >= 0
    return False


@njit(cache=True)
def phase_loop(s, mask, iters):
    """`for a in range(lo, hi): mask[a] = is_legal(s, a)`: the phase test inside the call,
    once per action (Voyage's legal_mask outside MOVE, Hansa's `_mark`)."""
    acc = 0
    for i in range(iters):
        s[0] = i % 5
        for j in range(mask.shape[0]):
            mask[j] = 0
        for a in range(mask.shape[0]):
            if _legal(s, a):
                mask[a] = 1
        acc += mask[i % mask.shape[0]]
    return acc


@njit(cache=True, _nrt=False)
def _legal_nrt_free(s, a):
    """`_legal` compiled without reference counting."""
    phase = s[0]
    p = s[1]
    if phase == 0:
        return a < s[2] and s[10 + a] == 0
    if phase == 1:
        return a - 20 + 1 > s[3] and a - 20 + 1 - s[4 + p] <= s[6 + p]
    if phase == 2:
        k = a - 40
        return 0 <= k < s[2] and s[50 + k] < 0
    if phase == 3:
        return s[60 + p * 8 + (a % 8)] > 0 and (a % 5) <= s[6 + p]
    if phase == 4:
        return a == 70 or s[80 + (a % 6)] >= 0
    return False


@njit(cache=True, _nrt=False)
def phase_loop_nrt_free(s, mask, iters):
    """`phase_loop` with both functions compiled without numba's runtime (``_nrt=False``,
    as `tradewinds.compiled.no_runtime.kernel` compiles the kernels): no reference counts are
    emitted, so none are left in the loop for the LLVM pass to miss."""
    acc = 0
    for i in range(iters):
        s[0] = i % 5
        for j in range(mask.shape[0]):
            mask[j] = 0
        for a in range(mask.shape[0]):
            if _legal_nrt_free(s, a):
                mask[a] = 1
        acc += mask[i % mask.shape[0]]
    return acc


@njit(cache=True)
def phase_hoisted(s, mask, iters):
    """The same mask with the phase read once and the per-phase test written inline."""
    acc = 0
    for i in range(iters):
        s[0] = i % 5
        for j in range(mask.shape[0]):
            mask[j] = 0
        phase, p = s[0], s[1]
        for a in range(mask.shape[0]):
            if phase == 0:
                ok = a < s[2] and s[10 + a] == 0
            elif phase == 1:
                ok = a - 20 + 1 > s[3] and a - 20 + 1 - s[4 + p] <= s[6 + p]
            elif phase == 2:
                ok = 0 <= a - 40 < s[2] and s[50 + a - 40] < 0
            elif phase == 3:
                ok = s[60 + p * 8 + (a % 8)] > 0 and (a % 5) <= s[6 + p]
            else:
                ok = a == 70 or s[80 + (a % 6)] >= 0
            if ok:
                mask[a] = 1
        acc += mask[i % mask.shape[0]]
    return acc


def cases() -> dict:
    """name -> callable(iters): every reproducer on its inputs."""
    mask = np.zeros(MASK, np.int8)
    out = np.zeros(400, np.float32)
    src, dst = np.arange(STATE, dtype=np.int32), np.zeros(STATE, np.int32)
    a, b = np.zeros((200, 2), np.int32), np.ones((200, 2), np.int32)
    phase_s = ((np.arange(STATE, dtype=np.int32) * 37) % 11 - 3).astype(np.int32)
    phase_s[1], phase_s[2], phase_s[3] = 1, 4, 2
    mask65 = np.zeros(65, np.int8)
    return {
        "fill_slice": lambda n: fill_slice(mask, n),
        "fill_loop": lambda n: fill_loop(mask, n),
        "fill_float_slice": lambda n: fill_float_slice(out, n),
        "fill_float_loop": lambda n: fill_float_loop(out, n),
        "copy_slice": lambda n: copy_slice(dst, src, n),
        "copy_loop": lambda n: copy_loop(dst, src, n),
        "copy_method": lambda n: copy_method(src, n),
        "row_assign": lambda n: row_assign(a, b, n),
        "row_loop": lambda n: row_loop(a, b, n),
        "zeros_small": lambda n: zeros_small(n),
        "sum_slice": lambda n: sum_slice(src, n),
        "sum_loop": lambda n: sum_loop(src, n),
        "phase_loop": lambda n: phase_loop(phase_s, mask65, n),
        "phase_hoisted": lambda n: phase_hoisted(phase_s, mask65, n),
        "phase_loop_nrt_free": lambda n: phase_loop_nrt_free(phase_s, mask65, n),
        "global_table": lambda n: global_table(src, n),
        "argument_table": lambda n: argument_table(src, TABLE.copy(), n),
    }


def ns_per_iter(fn, target=0.2, runs=3) -> float:
    return ns_per_unit(fn, 1, 1000, target, runs)[0]


def main(argv=None) -> int:
    import llvmlite
    import numba

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per timed run")
    args = ap.parse_args(argv)
    rows = {name: {"value": ns_per_iter(fn, args.min_time)} for name, fn in cases().items()}
    print(json.dumps({"versions": {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
                                   "numpy": np.__version__, "python": platform.python_version()},
                      "when": time.strftime("%Y-%m-%d %H:%M:%S"), "unit": "ns/iter",
                      "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
