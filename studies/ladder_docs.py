"""Rewrite the shipped ladders' block of docs/benchmarking.md from the ladder files.

    python -m tradewinds.studies.ladder_docs [--check]

The block between ``<!-- ladders:begin -->`` and ``<!-- ladders:end -->`` holds, for every
shipped ladder, how it was fitted and its members (`studies.evaluate.ladder_markdown`
without the pairwise table, which ``tradewinds ratings show`` prints). Run it after
a fit, an extension or a carry; ``--check`` only says whether the guide is current
(tests/studies/test_evaluate.py holds the guide to it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tradewinds.studies import evaluate

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "benchmarking.md"
BEGIN, END = "<!-- ladders:begin -->", "<!-- ladders:end -->"


def ladders_block() -> str:
    """The block's text for the shipped ladders, in file order."""
    parts = []
    for path in evaluate.shipped_ladders():
        md = evaluate.ladder_markdown(json.loads(path.read_text()))
        parts.append(md.split("\nPairwise comparisons")[0].rstrip("\n"))
    return "\n\n".join(parts)


def rewritten(guide: str) -> str:
    """`guide` with its ladders block replaced (ValueError when it has none)."""
    start, stop = guide.find(BEGIN), guide.find(END)
    if start < 0 or stop < start:
        raise ValueError(f"{GUIDE.name} has no {BEGIN} ... {END} block")
    return guide[:start + len(BEGIN)] + "\n" + ladders_block() + "\n" + guide[stop:]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tradewinds.studies.ladder_docs",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    args = ap.parse_args(argv)
    text = GUIDE.read_text()
    try:
        new = rewritten(text)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    if args.check:
        print(f"{GUIDE.name}: ladders block " + ("current" if new == text else "stale"))
        return 0 if new == text else 1
    GUIDE.write_text(new)
    print(f"{GUIDE.name}: ladders block {'unchanged' if new == text else 'rewritten'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
