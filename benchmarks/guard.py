"""The speed guard: same-run ratios that do not depend on the machine's speed, measured in
half a minute and compared with the stored ones (`tradewinds bench compare --guard`).

Absolute rates move with the machine and its load; these ratios move only when the code
(or numba) changes how fast it is relative to something it does not touch:

- ``<game> kernel / reference``: whole random games inside njit against the plain-Python
  reference on the same seeds' kind of games, one core each;
- ``<game> kernel / plain loop``: the same against `plain_loop`, a fixed njit loop of array
  reads, writes and branches with no project code and no calls (a kernel that starts
  paying per-call costs, as under numba 0.66's reference counts, loses here first);
- ``<game> batch 8192 all threads / 1 thread``: the batched step's scaling over the
  machine's cores (only when there are at least two).

A ratio *drops* when the fresh value is below the stored one by more than `DROP` (a third):
noise and machine-to-machine spread stay well inside that, a change that costs a third of
the speed does not. The stored ratios live in ``benchmarks/results/guard.json``, written by
``--write`` on the machine kind CI runs on.
"""

from __future__ import annotations

import os
import platform
import time

import numpy as np
from numba import njit

from tradewinds import registry
from tradewinds.benchmarks import throughput
from tradewinds.benchmarks.timing import measure as timed

GAMES = ("hansa", "voyage")
PLAYERS = 2
DROP = 1 / 3
SETTINGS = {"repeats": 3, "min_time": 0.5}


@njit(cache=True)
def plain_loop(a, iters):
    """A fixed amount of kernel-like work: a generator walks an int32 vector, reading,
    branching and writing; returns a checksum so nothing is optimised away."""
    x = np.uint64(12345)
    acc = 0
    n = a.shape[0]
    for _ in range(iters):
        x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        i = int(x >> np.uint64(40)) % n
        v = a[i]
        if v & 1:
            a[i] = v + 3
        elif v > 1000:
            a[i] = v // 2
        else:
            a[(i + 7) % n] += 1
        acc += a[i]
    return acc


def plain_rate(cfg) -> dict:
    a = np.arange(340, dtype=np.int32)
    per_call = 200_000
    plain_loop(a, 10)

    def work():
        plain_loop(a, per_call)
        return per_call, 0

    return timed(work, **cfg)


def measure(cfg=SETTINGS) -> dict:
    """The guard's ratios, measured now, with the rates they come from."""
    rates = {"plain loop": plain_rate(cfg)["steps_per_s"]}
    ratios = {}
    for name in GAMES:
        game = registry.game(name)
        kernel = throughput.kernel_playouts(game, PLAYERS, cfg)["steps_per_s"]
        rates[f"{name} kernel"] = kernel
        ref = throughput.reference(name, PLAYERS, cfg)
        if ref is not None:
            rates[f"{name} reference"] = ref["steps_per_s"]
            ratios[f"{name} kernel / reference"] = kernel / ref["steps_per_s"]
        ratios[f"{name} kernel / plain loop"] = kernel / rates["plain loop"]
        if (os.cpu_count() or 1) >= 2:
            big = throughput.BATCH_SIZES[-1]
            many = throughput.batched(game, PLAYERS, big, cfg)["steps_per_s"]
            one = throughput.batched(game, PLAYERS, big, cfg, threads=1)["steps_per_s"]
            ratios[f"{name} batch {big} all threads / 1 thread"] = many / one
    import numba

    return {"when": time.strftime("%Y-%m-%d %H:%M:%S"),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "numba": numba.__version__, "numpy": np.__version__},
            "ratios": ratios, "rates": rates}


def drops(stored: dict, fresh: dict, drop: float = DROP) -> list:
    """Rows (ratio, stored, fresh, fresh/stored, dropped) for ratios in both runs."""
    rows = []
    for name in sorted(stored["ratios"].keys() & fresh["ratios"].keys()):
        old, new = stored["ratios"][name], fresh["ratios"][name]
        rows.append((name, old, new, new / old, new < old * (1 - drop)))
    return rows
