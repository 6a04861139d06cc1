"""The hot paths under several numba releases, side by side, on one machine in one run.

    python -m lab.numba_releases                      # suite, 5 rounds
    python -m lab.numba_releases --releases 0.61.2 0.65.1 0.68.1 --quick
    python -m lab.numba_releases --what functions     # per kernel function
    python -m lab.numba_releases --what repro         # the small reproducers

Builds (or reuses) one venv per release under ``--envs`` (`lab.numba_envs`), then
runs a measuring child in each: ``suite`` = `lab.numba_probe` (kernel playouts,
batched step, IS-MCTS decisions, AEC env), ``functions`` = `lab.numba_functions`,
``repro`` = `lab.numba_repro`. Rounds are interleaved (round 1 in every venv, then
round 2, ...), so a change in the machine's load hits every release alike; the table
gives the median per release over the rounds and the median of the same-round ratios of
each release to the last one listed (the newest). Before the timed rounds every venv runs
a short child untimed, all in parallel (compiles into that venv's own numba cache; the
children run on a snapshot of the source, `numba_envs.snapshot`). Results go to
``lab/results/numba_<what>.json`` and ``.md`` (``numba_releases`` for the suite).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lab import numba_envs

RESULTS = Path(__file__).parent / "results"
RELEASES = ("0.61.2", "0.65.1", "0.66.0", "0.68.1")
CHILD = {"suite": "lab.numba_probe", "functions": "lab.numba_functions",
         "repro": "lab.numba_repro"}
# per child: (figure to read from a row, unit, higher is better)
METRIC = {"suite": ("steps_per_s", "/s", True), "functions": ("value", "ns/call", False),
          "repro": ("value", "ns/iter", False)}
STEM = {"suite": "numba_releases", "functions": "numba_functions", "repro": "numba_repro"}


def child(root, release, what, args) -> dict:
    cmd = [str(numba_envs.python(root, release)), "-m", CHILD[what], *args]
    out = subprocess.run(cmd, env=numba_envs.child_env(root, release), capture_output=True,
                         text=True, cwd=numba_envs.source_dir(root))
    if out.returncode:
        raise RuntimeError(f"{release}: {' '.join(cmd)} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _warm(root, release, what) -> float:
    """An untimed short child: compiles into (or loads) this venv's numba cache. The venvs
    warm in parallel; the seconds it took are a rough compile time only."""
    t0 = time.perf_counter()
    child(root, release, what, child_args(what, True))
    print(f"warmed {release} in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return time.perf_counter() - t0


def child_args(what, quick) -> list:
    if what == "suite":
        return ["--min-time", "0.1"] if quick else ["--min-time", "1.0"]
    return ["--min-time", "0.05"] if quick else []


def run(releases, what, rounds, quick, root, reuse_source=False) -> dict:
    info = {r: {**numba_envs.ensure(root, r), **numba_envs.versions(root, r)} for r in releases}
    if not (reuse_source and numba_envs.source_dir(root).exists()):
        numba_envs.snapshot(root)
    args = child_args(what, quick)
    warm = dict(zip(releases, ThreadPoolExecutor(len(releases)).map(
        lambda r: _warm(root, r, what), releases), strict=True))
    runs = {r: [] for r in releases}
    for k in range(rounds):
        for r in releases:
            runs[r].append(child(root, r, what, args)["rows"])
        print(f"round {k + 1}/{rounds} done", file=sys.stderr, flush=True)
    return {"what": what, "when": time.strftime("%Y-%m-%d %H:%M:%S"), "rounds": rounds,
            "quick": quick, "child_args": args, "releases": list(releases),
            "versions": info, "warm_process_s": warm, "runs": runs,
            "summary": summarise(runs, METRIC[what][0])}


def summarise(runs, key) -> dict:
    """Per row: the median per release, and the median same-round ratio to the newest."""
    releases = list(runs)
    newest = releases[-1]
    rows = {}
    for name in runs[newest][0]:
        row = {}
        for r in releases:
            vals = [rnd[name][key] for rnd in runs[r] if name in rnd]
            ref = [rnd[name][key] for rnd in runs[newest] if name in rnd]
            ratios = [v / n for v, n in zip(vals, ref, strict=False) if n]
            row[r] = {"median": statistics.median(vals) if vals else float("nan"),
                      "min": min(vals, default=float("nan")),
                      "max": max(vals, default=float("nan")),
                      "ratio": statistics.median(ratios) if ratios else float("nan")}
        rows[name] = row
    return rows


def _fmt(v) -> str:
    if v != v:
        return "-"
    if abs(v) >= 1e5:
        return f"{v / 1e6:.2f} M"
    if abs(v) >= 1e3:
        return f"{v:,.0f}"
    return f"{v:.1f}"


def markdown(result) -> str:
    rel = result["releases"]
    _, unit, higher = METRIC[result["what"]]
    head = [f"numba {r} (LLVM {result['versions'][r].get('llvm', '?')}, numpy "
            f"{result['versions'][r]['numpy']})" for r in rel]
    lines = [f"| {result['what']} ({unit}) | " + " | ".join(head) + " | "
             + " | ".join(f"{r} / {rel[-1]}" for r in rel[:-1]) + " |",
             "|---|" + "---:|" * (2 * len(rel) - 1)]
    for name, row in result["summary"].items():
        lines.append(f"| {name} | " + " | ".join(_fmt(row[r]["median"]) for r in rel) + " | "
                     + " | ".join(f"{row[r]['ratio']:.2f}" for r in rel[:-1]) + " |")
    better = "higher" if higher else "lower"
    py = result["versions"][rel[-1]]["python"]
    lines += ["", f"Medians of {result['rounds']} interleaved rounds; ratios are medians of "
              f"same-round ratios to numba {rel[-1]} ({better} is faster). Python {py}, "
              f"{result['when']}; child arguments {' '.join(result['child_args']) or '-'}."]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--releases", nargs="+", default=list(RELEASES),
                    help="numba releases, oldest first; ratios are to the last one")
    ap.add_argument("--what", choices=sorted(CHILD), default="suite")
    ap.add_argument("--rounds", type=int, default=None, help="interleaved repeats")
    ap.add_argument("--quick", action="store_true", help="short runs, for smoke tests")
    ap.add_argument("--envs", type=Path, default=numba_envs.DEFAULT_ROOT,
                    help="where the venvs live (outside git)")
    ap.add_argument("--reuse-source", action="store_true",
                    help="measure the snapshot of the source taken by an earlier run")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 5)
    result = run(args.releases, args.what, rounds, args.quick, args.envs, args.reuse_source)
    table = markdown(result)
    stem = ("quick_" if args.quick else "") + STEM[args.what]   # quick* is gitignored
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=1))
    (args.out / f"{stem}.md").write_text(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
