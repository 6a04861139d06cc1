"""`tradewinds bench [BENCHMARK] ...`: the benchmarks a user runs, each handed its arguments
untouched (every benchmark has its own parser and --help; `tradewinds.cli.verbs`). With no
benchmark named, the throughput benchmark takes every argument, as `tradewinds bench` always
has."""

from __future__ import annotations

from tradewinds.cli.verbs import Verb, run_group

HELP = ("benchmarks: throughput (the default), compare, soak, agents-speed, decision-time, "
        "az-speed, training (--help for each)")
HANDS_OVER = True
ABOUT = ("The benchmarks a user runs (docs/benchmarking.md). Each writes its result files "
         "and prints a markdown table.")
BENCHMARKS = (
    Verb("throughput", "tradewinds.benchmarks.throughput:main",
         "kernels, envs and references beside PettingZoo and OpenSpiel peers, in one run"),
    Verb("compare", "tradewinds.benchmarks.compare:main",
         "a fresh throughput result against a stored "
         "one, drops beyond the noise band flagged; --guard: the speed guard CI runs"),
    Verb("soak", "tradewinds.benchmarks.soak:main",
         "the numba kernels against the plain-Python references over many whole games"),
    Verb("agents-speed", "tradewinds.benchmarks.agents:main",
         "IS-MCTS simulations/s beside OpenSpiel's "
         "ISMCTSBot, the heuristic's decisions/s", before=("speed",)),
    Verb("decision-time", "tradewinds.benchmarks.agents:main",
         "seconds per decision of named agents on "
         "the same positions (or over whole games)", before=("decision-time",)),
    Verb("az-speed", "tradewinds.benchmarks.az_speed:main",
         "the net-guided search's simulations per second, one game and a batch"),
    Verb("training", "tradewinds.benchmarks.training:main",
         "the batched VecEnv's steps per second beside SB3's DummyVecEnv"),
)


def run_argv(argv) -> int:
    return run_group("tradewinds bench", ABOUT, BENCHMARKS, list(argv), default="throughput")
