"""Net-guided search speed: simulations per second of `agents.az_search` on one core,
one game and a batch of games side by side, for each game at 2 players; medians of
`--repeats` searches from the opening positions of seeds 0.. .

    python -m benchmarks.az_speed [--net PATH ...] [--width 256] [--sims 200] [--repeats 5]

Without --net a random net of the given width is timed (the cost of a forward pass
depends on the sizes, not the values; the tree's shape does).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import agents  # noqa: F401  (binds the games' strategies)
from agents import az_search, pvnet
from tradewinds import registry


def rate(game, weights, games: int, sims: int, repeats: int) -> float:
    searcher = az_search.Searcher(game, weights, games, az_search.SearchConfig(simulations=sims))
    roots = np.stack([game.new_state(2, i) for i in range(games)])
    players = np.array([game.current_player(r) for r in roots], np.int64)
    keys = np.arange(2 * games, dtype=np.int32).reshape(games, 2)
    searcher.run(roots, players, keys)                       # compile, warm
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        searcher.run(roots, players, keys)
        times.append(time.perf_counter() - t0)
    return games * (sims - 1) / statistics.median(times)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.az_speed", description=__doc__)
    p.add_argument("--net", action="append", default=[], help="a net file (repeatable)")
    p.add_argument("--width", type=int, default=256)
    p.add_argument("--sims", type=int, default=200)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--batch", type=int, default=32)
    args = p.parse_args(argv)
    nets = [pvnet.load(path)[:2] for path in args.net] or [
        (pvnet.random_weights(c, 0), c) for c in
        (pvnet.NetConfig(g, 2, registry.game(g).obs_size, registry.game(g).num_actions,
                         args.width, 2) for g in ("hansa", "voyage"))]
    print(f"| game | net | 1 game sims/s | {args.batch} games sims/s |")
    print("|---|---|---:|---:|")
    for weights, config in nets:
        game = registry.game(config.game)
        one = rate(game, weights, 1, args.sims, args.repeats)
        many = rate(game, weights, args.batch, args.sims, args.repeats)
        print(f"| {config.game} | {config.hidden}x{config.blocks + 1} | {one:,.0f} | "
              f"{many:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
