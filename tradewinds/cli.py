"""The `tradewinds` command line: `tradewinds demo`, `tradewinds fpa`."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np


def demo(args) -> int:
    """Random-play demo: many games through the numba kernel, per-seat results in a table."""
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from tradewinds import registry

    game = registry.game(args.game)
    console = Console()
    wins = np.zeros(args.players)
    scores = []
    steps = 0
    key = np.zeros(2, dtype=np.int32)
    t0 = time.perf_counter()
    for seed in track(range(args.games), description=f"{args.game}, {args.players} players"):
        state = game.new_state(args.players, seed)
        key[:] = (seed, 12345)
        steps += game.kernels.random_playout(state, key)
        wins += game.returns(state)
        scores.append(game.scores(state))
    elapsed = time.perf_counter() - t0
    scores = np.array(scores)
    table = Table(title=f"{args.game}: {args.games} random games, {args.players} players")
    for col in ("seat", "win rate", "mean VP"):
        table.add_column(col, justify="right")
    for p in range(args.players):
        table.add_row(f"player_{p}", f"{wins[p] / args.games:.3f}", f"{scores[:, p].mean():.1f}")
    console.print(table)
    console.print(f"{steps} decisions in {elapsed:.2f} s (incl. numba start-up)")
    return 0


def fpa(args) -> int:
    """First-player-advantage study: arena games into SQLite, statistics, JSON and PNG."""
    from tradewinds import arena
    from tradewinds.fpa import run_fpa

    try:
        options = arena.parse_options(args.option or [])
        agent_kwargs = {}
        for text in args.agent_kwargs or []:
            name, sep, spec = text.partition(":")
            if not sep:
                raise ValueError(f"--agent-kwargs takes NAME:key=value[,key=value], got {text!r}")
            agent_kwargs.setdefault(name, {}).update(arena.parse_options(spec.split(",")))
        run_fpa(args.game, args.players, args.agent, args.games, db=args.db, out=args.out,
                name=args.name, workers=args.workers, backend=args.backend,
                address=args.address, seating=args.seating, base_seed=args.seed,
                options=options, agent_kwargs=agent_kwargs, fast=not args.no_fast,
                use_sprt=args.sprt, delta=args.delta, alpha=args.alpha, beta=args.beta,
                n_boot=args.n_boot, chunk_size=args.chunk_size,
                progress=not args.no_progress,
                command="tradewinds " + " ".join(args.argv))
    except ValueError as e:
        print(f"tradewinds fpa: error: {e}", file=sys.stderr)
        return 2
    return 0


def bench_main(argv) -> int:
    """`tradewinds bench ...` = `python -m benchmarks.throughput ...`."""
    from benchmarks.throughput import main as throughput

    return throughput(argv)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tradewinds", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", help="play random games and print per-seat results")
    p.add_argument("game", nargs="?", default="hansa")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=2000)
    p.set_defaults(func=demo)

    p = sub.add_parser(
        "fpa", help="first-player-advantage study: play, record, test, tabulate, plot",
        description="Plays games 0..K-1 (seed = --seed + i) for every player count into the "
        "results database (resuming: stored seeds are skipped), then prints per-seat win "
        "rates with Wilson 95%% intervals, the exact binomial test of seat 1, chi-square, "
        "bootstrap VP margin and power, and writes a JSON summary and a PNG plot. Seat 1 is "
        "the first player of the initial turn order.")
    p.add_argument("game", help="game name (tradewinds.games())")
    p.add_argument("--players", default="2,3,4", help="player count(s): 3, 2,3,4 or 2-4 "
                   "(default 2,3,4)")
    p.add_argument("--agent", default="random", help="agent name for every seat, or one per "
                   "seat comma-separated in seat order (default random)")
    p.add_argument("--agent-kwargs", action="append", metavar="NAME:K=V[,K=V]",
                   help="keyword arguments for an agent's factory (repeatable)")
    p.add_argument("--games", type=int, default=2000, help="games per player count "
                   "(default 2000)")
    p.add_argument("--db", default=str(Path("results") / "fpa.sqlite"),
                   help="SQLite results file (default results/fpa.sqlite)")
    p.add_argument("--out", default=None, help="directory for the JSON and PNG (default: the "
                   "db's directory)")
    p.add_argument("--name", default=None, help="file stem of the JSON and PNG (default "
                   "fpa_<game>_<agent>_<players>p)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: "
                   "all cores); with --backend ray, CPUs of a local Ray")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--address", default=None, help="Ray cluster address (with --backend ray; "
                   "default: start a local Ray)")
    p.add_argument("--seating", choices=("fixed", "rotate"), default="fixed",
                   help="fixed: agents in seat order; rotate: game i rotates them by i")
    p.add_argument("--seed", type=int, default=0, help="base seed: game i uses seed + i")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="game option, e.g. max_rounds=100 (repeatable)")
    p.add_argument("--no-fast", action="store_true", help="never play inside the kernel: "
                   "drive every decision through the Python agents")
    p.add_argument("--sprt", action="store_true", help="stop early when the SPRT decides")
    p.add_argument("--delta", type=float, default=0.05, help="effect size for SPRT and power: "
                   "seat 1 wins 1/n + delta (default 0.05)")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.2)
    p.add_argument("--n-boot", type=int, default=10_000, help="bootstrap resamples")
    p.add_argument("--chunk-size", type=int, default=None, help="games per worker task")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=fpa)

    # listed for `tradewinds --help`; `tradewinds bench ...` is handed over below
    sub.add_parser("bench", add_help=False,
                   help="throughput benchmark beside PettingZoo and OpenSpiel peers "
                   "(python -m benchmarks.throughput; --help for its options)")

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:
        return bench_main(argv[1:])
    args = parser.parse_args(argv)
    args.argv = argv
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
