"""`tradewinds bench ...` is `python -m benchmarks.throughput ...`: the arguments are handed
over untouched (the benchmark has its own parser and --help)."""

from __future__ import annotations

HELP = ("throughput benchmark beside PettingZoo and OpenSpiel peers "
        "(python -m benchmarks.throughput; --help for its options)")
HANDS_OVER = True


def run_argv(argv) -> int:
    from benchmarks.throughput import main

    return main(argv)
