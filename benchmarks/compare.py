"""Regression guard: compare a fresh throughput run with a stored one, flag real drops.

    python -m benchmarks.compare benchmarks/results/latest.json fresh.json [--tolerance 0.15]

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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stored", type=Path)
    ap.add_argument("fresh", type=Path)
    ap.add_argument("--tolerance", type=float, default=0.15)
    args = ap.parse_args(argv)
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
