"""Small timing helpers shared by the throughput benchmarks.

The unit of work is a callable ``fn()`` that does some amount of work (one game, one
batch, ...) and reports what it did, either as a tuple ``(steps, games)`` or as a
mapping of named counters, e.g. ``{"steps": 42, "games": 1, "chance_steps": 5}``.

:func:`measure` calls ``fn`` back to back until at least ``min_time`` seconds have
elapsed (one *repeat*), does that ``repeats`` times, and reports the median rate of
every counter across repeats. Medians are per-repeat rates (counter / wall time of
that repeat), so a single slow repeat (GC, another process) does not move them.
"""

from __future__ import annotations

import gc
import resource
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

Counts = tuple[int, ...] | Mapping[str, int]

__all__ = ["Counts", "as_counts", "measure", "peak_rss_mb", "time_call"]


def as_counts(result: Counts | None) -> dict[str, int]:
    """Normalise what a work callable returned into a counter dict.

    A tuple is read as ``(steps, games)`` (a bare int or 1-tuple means steps only);
    a mapping is copied as is. ``None`` counts as nothing done.
    """
    if result is None:
        return {}
    if isinstance(result, Mapping):
        return {str(k): int(v) for k, v in result.items()}
    if isinstance(result, int):
        return {"steps": int(result)}
    names = ("steps", "games")
    if len(result) > len(names):
        raise ValueError(f"tuple counts may hold at most {names}, got {len(result)} values")
    return {name: int(v) for name, v in zip(names, result, strict=False)}


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (``getrusage``).

    ``ru_maxrss`` is in KiB on Linux and in bytes on macOS. It is a high-water mark
    over the whole process lifetime, so it never goes down between measurements.
    """
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if sys.platform == "darwin":
        return rss / (1024 * 1024)
    return rss / 1024


def time_call(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Run ``fn()`` once; return ``(seconds, result)``."""
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def measure(
    fn: Callable[[], Counts | None],
    repeats: int = 5,
    min_time: float = 1.0,
    warmup: float = 0.2,
    max_calls: int | None = None,
    disable_gc: bool = False,
) -> dict[str, Any]:
    """Time ``fn`` repeatedly and report median throughput.

    Args:
        fn: work callable; returns ``(steps, games)`` or a mapping of counters.
        repeats: number of timed repeats (the median is taken over these).
        min_time: each repeat calls ``fn`` until at least this many seconds passed.
        warmup: untimed seconds of calls before the first repeat (JIT, caches);
            ``0`` disables it (one call is still made if ``warmup > 0``).
        max_calls: optional cap on calls per repeat (a repeat ends at whichever
            of ``min_time`` / ``max_calls`` comes first).
        disable_gc: switch the cyclic GC off during timed repeats.

    Returns a dict with:
        ``median_s``: median wall time of one repeat;
        ``repeats``, ``min_time``, ``calls_median``: the run shape;
        ``runs``: list of per-repeat dicts (``seconds``, ``calls`` and the raw counters);
        for every counter ``c`` reported by ``fn``: ``c`` (total over all repeats),
        ``c_per_s`` (median of per-repeat rates), ``c_per_s_min`` / ``c_per_s_max``;
        ``steps_per_game`` if both ``steps`` and ``games`` were counted
        (totals ratio); ``peak_rss_mb`` after the run.
    Missing ``steps`` / ``games`` counters are reported as 0 so the
    ``steps_per_s`` / ``games_per_s`` keys are always present.
    """
    if repeats < 1:
        raise ValueError("repeats must be >= 1")
    _warm_up(fn, warmup)
    runs = _timed_runs(fn, repeats, min_time, max_calls, disable_gc)
    return _summary(runs, repeats, min_time)


def _warm_up(fn: Callable[[], Counts | None], warmup: float) -> None:
    """Untimed calls of ``fn`` for ``warmup`` seconds (at least one if ``warmup > 0``)."""
    if warmup > 0:
        t_end = time.perf_counter() + warmup
        while True:
            fn()
            if time.perf_counter() >= t_end:
                break


def _timed_runs(fn: Callable[[], Counts | None], repeats: int, min_time: float,
                max_calls: int | None, disable_gc: bool) -> list[dict[str, Any]]:
    """``repeats`` timed repeats, the cyclic GC off during them if ``disable_gc``."""
    gc_was_enabled = gc.isenabled()
    try:
        if disable_gc:
            gc.disable()
        return [_timed_repeat(fn, min_time, max_calls) for _ in range(repeats)]
    finally:
        if disable_gc and gc_was_enabled:
            gc.enable()


def _timed_repeat(fn: Callable[[], Counts | None], min_time: float,
                  max_calls: int | None) -> dict[str, Any]:
    """One repeat: calls until ``min_time`` passed or ``max_calls`` were made; its
    ``seconds``, ``calls`` and the counters summed over the calls."""
    totals: dict[str, int] = {}
    calls = 0
    t0 = time.perf_counter()
    t_end = t0 + min_time
    while True:
        for key, val in as_counts(fn()).items():
            totals[key] = totals.get(key, 0) + val
        calls += 1
        now = time.perf_counter()
        if now >= t_end or (max_calls is not None and calls >= max_calls):
            break
    return {"seconds": now - t0, "calls": calls, **totals}


def _summary(runs: list[dict[str, Any]], repeats: int, min_time: float) -> dict[str, Any]:
    """`measure`'s report of the timed ``runs`` (see there)."""
    counters = sorted({k for r in runs for k in r if k not in ("seconds", "calls")})
    for required in ("steps", "games"):
        if required not in counters:
            counters.append(required)

    out: dict[str, Any] = {
        "median_s": _median([r["seconds"] for r in runs]),
        "repeats": repeats,
        "min_time": min_time,
        "calls_median": _median([r["calls"] for r in runs]),
        "runs": runs,
    }
    for key in counters:
        rates = [r.get(key, 0) / r["seconds"] for r in runs]
        out[key] = int(sum(r.get(key, 0) for r in runs))
        out[f"{key}_per_s"] = _median(rates)
        out[f"{key}_per_s_min"] = min(rates)
        out[f"{key}_per_s_max"] = max(rates)
    out["steps_per_game"] = out["steps"] / out["games"] if out["games"] else float("nan")
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def ns_per_unit(fn: Callable[[int], Any], units_per_rep: int = 1, start: int = 1,
                target: float = 0.25, runs: int = 3) -> tuple[float, float]:
    """(median ns per unit, seconds of the first call) of `fn(reps)`, a compiled loop of
    `reps` repetitions of `units_per_rep` units each: the first call (compile or cache
    load) is timed apart, then reps grow from `start` until a run takes about `target`
    seconds, and `runs` runs of that size are timed."""
    t0 = time.perf_counter()
    fn(start)
    first = time.perf_counter() - t0
    reps = start
    while True:
        t0 = time.perf_counter()
        fn(reps)
        dt = time.perf_counter() - t0
        if dt >= target / 4:
            break
        reps *= 4
    reps = max(1, int(reps * target / dt))
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(reps)
        out.append((time.perf_counter() - t0) / (reps * units_per_rep) * 1e9)
    return statistics.median(out), first
