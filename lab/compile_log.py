"""A pytest plugin that logs every numba compile: which function, for which argument
types, its own time (less its callees'), in which test and on which xdist worker. It
finds what the suite compiles twice.

    COMPILE_LOG=results/compiles python -m pytest -n 2 -p lab.compile_log
    python -m lab.compile_log results/compiles      # the summary

Only cache misses fire numba's "numba:compile" event, so a function loaded from the
disk cache costs nothing here. Processes the tests start (servers, arena workers, CLI
runs) are not logged by the plugin; for them, register the same listener from a
``.pth`` file of the virtual environment for one run.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

_current_test = ["(collection)"]


def _listener(out):
    from numba.core import event

    class Compiles(event.Listener):
        """One row per compile; nested compiles (callees) are subtracted from the caller's."""

        def __init__(self):
            self.stack: list[list[float]] = []

        def on_start(self, ev):
            self.stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            started, callees = self.stack.pop()
            total = time.perf_counter() - started
            if self.stack:
                self.stack[-1][1] += total
            py = ev.data["dispatcher"].py_func
            out.write(json.dumps({"kernel": f"{py.__module__}.{py.__qualname__}",
                                  "args": str(ev.data.get("args")),
                                  "self": round(total - callees, 3),
                                  "seconds": round(total, 3), "depth": len(self.stack),
                                  "test": _current_test[0]}) + "\n")
            out.flush()

    event.register("numba:compile", Compiles())


def pytest_configure(config):
    directory = os.environ.get("COMPILE_LOG")
    if not directory:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    Path(directory).mkdir(parents=True, exist_ok=True)
    _listener(open(Path(directory) / f"{worker}.jsonl", "a"))


def pytest_runtest_setup(item):
    _current_test[0] = item.nodeid


def summary(directory: str) -> None:
    """Own compile seconds per worker; each (function, argument types) compiled more than
    once, with the seconds the repeats cost; the largest compiles."""
    rows = []
    for path in sorted(Path(directory).glob("*.jsonl")):
        for line in path.read_text().splitlines():
            rows.append({**json.loads(line), "worker": path.stem})
    per_worker = defaultdict(float)
    for r in rows:
        per_worker[r["worker"]] += r["self"]
    print("own compile seconds per worker:", {w: round(s) for w, s in per_worker.items()})
    same = defaultdict(list)
    for r in rows:
        same[(r["kernel"], r["args"])].append(r)
    repeats = sorted(((sum(x["self"] for x in v) - min(x["self"] for x in v), k, v)
                      for k, v in same.items() if len(v) > 1), key=lambda t: -t[0])
    print(f"{len(repeats)} compiled more than once, {sum(t[0] for t in repeats):.0f} s in repeats")
    for extra, (kernel, _), v in repeats[:15]:
        print(f"  {extra:5.1f} s  x{len(v)} {kernel}  ({', '.join(x['worker'] for x in v)})")
    print("largest own compile times:")
    for r in sorted(rows, key=lambda r: -r["self"])[:20]:
        print(f"  {r['self']:5.1f} s {r['worker']} {r['kernel']}  <- {r['test']}")


if __name__ == "__main__":
    summary(sys.argv[1])
