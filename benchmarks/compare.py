"""Regression guards: compare a fresh throughput run with a stored one, flag real drops.

    tradewinds bench compare benchmarks/results/latest.json fresh.json [--tolerance 0.15]
    tradewinds bench compare --guard [--write]    # same-run ratios, half a minute (CI)

``--guard`` measures the ratios of `benchmarks.guard` (kernel against the reference and
against a fixed plain numba loop, batch scaling) and fails on a drop of more than a third
against ``benchmarks/results/guard.json``; ``--write`` stores a fresh baseline instead.

A figure counts as a drop when the fresh median is below the stored run's slowest repeat
by more than the tolerance (default 15%): the spread of the stored repeats is the noise
band, the tolerance covers machine-to-machine and load variation. Exits 1 on any drop,
so CI or a pre-release script can call it; it is never run as a timed test.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def figures(result: dict) -> dict:
    """name -> (median, slowest repeat) for every rate in a throughput result."""
    out = {}
    for r in result["rows"]:
        tag = f"{r['game']} {r['players']}p"
        parts = [("kernel", r["kernel"]), ("aec", r["aec"]), ("reference", r.get("reference")),
                 ("batch 1 thread", r.get("batch_1thread"))]
        parts += [(f"batch {b}", v) for b, v in r["batch"].items()]
        for what, m in parts:
            if m:
                out[f"{tag} {what} steps/s"] = (m["steps_per_s"],
                                                m.get("steps_per_s_min", m["steps_per_s"]))
    return out


def compare(stored: dict, fresh: dict, tolerance: float = 0.15) -> list:
    """Rows (name, stored median, fresh median, ratio, flag) for figures in both runs."""
    old, new = figures(stored), figures(fresh)
    rows = []
    for name in sorted(old.keys() & new.keys()):
        (old_med, old_min), (new_med, _) = old[name], new[name]
        flag = new_med < old_min * (1 - tolerance)
        rows.append((name, old_med, new_med, new_med / old_med, flag))
    return rows


GUARD_FILE = Path(__file__).parent / "results" / "guard.json"


def guard(stored_path: Path, write: bool) -> int:
    from tradewinds.benchmarks import guard as g

    fresh = g.measure()
    if write:
        stored_path.write_text(json.dumps(fresh, indent=1) + "\n")
        print(f"wrote {stored_path}")
        return 0
    if not stored_path.exists():
        print(f"no stored ratios at {stored_path}: run with --write first", file=sys.stderr)
        return 2
    rows = g.drops(json.loads(stored_path.read_text()), fresh)
    print("| ratio | stored | fresh | fresh / stored | |\n|---|---:|---:|---:|---|")
    for name, old, new, ratio, dropped in rows:
        print(f"| {name} | {old:,.2f} | {new:,.2f} | {ratio:.2f} | {'DROP' if dropped else ''} |")
    bad = [r for r in rows if r[4]]
    print(f"\n{len(bad)} of {len(rows)} ratios dropped by more than {g.DROP:.0%}")
    return 1 if bad or not rows else 0


def main(argv=None, prog="python -m tradewinds.benchmarks.compare") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stored", type=Path, nargs="?")
    ap.add_argument("fresh", type=Path, nargs="?")
    ap.add_argument("--tolerance", type=float, default=0.15)
    ap.add_argument("--guard", action="store_true",
                    help="measure the same-run ratios now and compare with the stored ones")
    ap.add_argument("--write", action="store_true", help="with --guard: store the ratios")
    args = ap.parse_args(argv)
    if args.guard:
        return guard(args.stored or GUARD_FILE, args.write)
    if args.stored is None or args.fresh is None:
        ap.error("give the stored and the fresh result files, or --guard")
    rows = compare(json.loads(args.stored.read_text()), json.loads(args.fresh.read_text()),
                   args.tolerance)
    if not rows:
        print("no figures in common", file=sys.stderr)
        return 2
    print("| figure | stored | fresh | ratio | |\n|---|---|---|---|---|")
    for name, old, new, ratio, flag in rows:
        print(f"| {name} | {old:,.0f} | {new:,.0f} | {ratio:.2f} | {'DROP' if flag else ''} |")
    drops = [r for r in rows if r[4]]
    print(f"\n{len(drops)} drop(s) beyond the noise band of {len(rows)} figures")
    return 1 if drops else 0


if __name__ == "__main__":
    raise SystemExit(main())
