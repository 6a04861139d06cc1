"""The `tradewinds` command line: `tradewinds demo`, more subcommands as they land."""

from __future__ import annotations

import argparse
import time

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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tradewinds", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", help="play random games and print per-seat results")
    p.add_argument("game", nargs="?", default="hansa")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=2000)
    p.set_defaults(func=demo)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
