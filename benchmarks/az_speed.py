"""Net-guided search speed: simulations per second of `agents.az_search` on one core,
one game and a batch of games side by side, for each game at 2 players; medians of
`--repeats` searches from the opening positions of seeds 0.. .

    tradewinds bench az-speed [--net PATH ...] [--random --width 256] [--sims 200]
    tradewinds bench az-speed --as-played [--positions 100]  # + as `az` plays them
    tradewinds bench az-speed --selfplay [--actors 2]        # + recorded positions/s

Without --net the shipped 2-player nets are timed; --random times a random net of the
given width instead (the cost of a forward pass depends on the sizes, not the values; the
tree's shape does). The forward pass's share of the search time is estimated as one pass
over the batch per simulation wave, timed alone on the same observations.

``--as-played`` also times each shipped 2-player net as `az` plays it: with the search
settings in its metadata (the Voyage net mixes in the game's own judgement, which plays
the endgame out) from positions of heuristic games where the seat has a choice, one
search at a time; the median and the time-weighted mean (all simulations over all
seconds) of its simulations per second, since a few endgame positions take most of the
time.

``--selfplay`` also times `training.alphazero.selfplay` as training runs it (its default
settings: 32 games side by side, playout-cap randomisation), recorded positions per
second in this process (one core) and over ``--actors`` Ray actors (one core each), after
one untimed call that compiles and starts the actors.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from tradewinds import (
    agents,  # noqa: F401  (binds the games' strategies)
    registry,
)
from tradewinds.agents import az, az_search, pvnet


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


def forward_seconds(game, weights, games: int, repeats: int) -> float:
    """Median time of one forward pass over `games` rows of opening observations."""
    obs = np.stack([game.observe(game.new_state(2, i), 0) for i in range(games)]
                   ).astype(np.float32)
    logits = np.zeros((games, game.num_actions), np.float32)
    values = np.zeros((games, pvnet.MAX_SEATS), np.float32)
    pvnet.forward(weights, obs, logits, values)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(50):
            pvnet.forward(weights, obs, logits, values)
        times.append((time.perf_counter() - t0) / 50)
    return statistics.median(times)


def as_played(game, weights, meta, sims: int, count: int) -> tuple[float, float]:
    """Median and time-weighted mean simulations per second of one-game searches with the
    net's own search settings on `count` positions of heuristic games (the first search,
    which compiles, untimed)."""
    from tradewinds.agents.az import AlphaZeroAgent
    from tradewinds.studies.positions import decision_positions

    config = AlphaZeroAgent(game.name, simulations=sims).search_config(meta)
    searcher = az_search.Searcher(game, weights, 1, config)
    states = decision_positions(game, 2, count)
    seconds = []
    for i, state in enumerate([states[0], *states]):
        player = np.array([game.current_player(state)], np.int64)
        keys = np.array([[i, 1]], np.int32)
        t0 = time.perf_counter()
        searcher.run(np.ascontiguousarray(state[None]), player, keys)
        seconds.append(time.perf_counter() - t0)
    seconds = np.array(seconds[1:])
    return float(np.median((sims - 1) / seconds)), float(len(seconds) * (sims - 1) / seconds.sum())


def selfplay_rate(game, weights, positions: int, actors: int) -> float:
    """Recorded self-play positions per second: in this process (actors 0) or on Ray."""
    from tradewinds.training.alphazero.selfplay import SelfPlay, SelfPlayConfig

    config = SelfPlayConfig()
    if actors:
        from tradewinds.training.alphazero.actors import RayActors

        sp = RayActors(game, 2, weights, config, actors)
    else:
        sp = SelfPlay(game, 2, weights, config)
    sp.play(max(1, positions // 10), seed=10**6)          # compile, start the actors
    t0 = time.perf_counter()
    records = sp.play(positions, seed=0)
    return len(records["obs"]) / (time.perf_counter() - t0)


def _nets(args) -> list:
    """(weights, config, metadata) of every net timed."""
    if args.net:
        return [pvnet.load(path) for path in args.net]
    configs = [pvnet.NetConfig(g, 2, registry.game(g).obs_size, registry.game(g).num_actions,
                               args.width, 2) for g in ("hansa", "voyage")]
    if args.random:
        return [(pvnet.random_weights(c, 0), c, {}) for c in configs]
    return [pvnet.load(az.shipped(c.game, 2)) for c in configs]


def main(argv=None, prog="python -m tradewinds.benchmarks.az_speed") -> int:
    p = argparse.ArgumentParser(prog=prog, description=__doc__)
    p.add_argument("--net", action="append", default=[], help="a net file (repeatable)")
    p.add_argument("--random", action="store_true", help="random nets, not the shipped ones")
    p.add_argument("--width", type=int, default=256, help="width of the --random nets")
    p.add_argument("--sims", type=int, default=200)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--as-played", action="store_true",
                   help="also time the nets with their own search settings, mid-game")
    p.add_argument("--selfplay", action="store_true", help="also time self-play")
    p.add_argument("--positions", type=int, default=None,
                   help="recorded positions timed (default 2000); --as-played: positions (100)")
    p.add_argument("--actors", type=int, default=2, help="Ray actors of the self-play row")
    args = p.parse_args(argv)
    b = args.batch
    print(f"| game | net | 1 game sims/s | forward share | {b} games sims/s | forward share |")
    print("|---|---|---:|---:|---:|---:|")
    for weights, config, _ in _nets(args):
        game = registry.game(config.game)
        cells = []
        for games in (1, b):
            sims_per_s = rate(game, weights, games, args.sims, args.repeats)
            waves_per_s = sims_per_s / games
            share = waves_per_s * forward_seconds(game, weights, games, args.repeats)
            cells += [f"{sims_per_s:,.0f}", f"{share:.0%}"]
        print(f"| {config.game} | {config.hidden}x{config.blocks + 1} | " + " | ".join(cells)
              + " |")
    if args.as_played:
        if args.random:
            raise SystemExit("--as-played times trained nets with their settings, not --random")
        print(f"\n| game | net | search settings | positions | {args.sims} sims: median "
              "sims/s | time-weighted mean |")
        print("|---|---|---|---:|---:|---:|")
        for weights, config, meta in _nets(args):
            game = registry.game(config.game)
            count = args.positions or 100
            median, mean = as_played(game, weights, meta, args.sims, count)
            print(f"| {config.game} | {config.hidden}x{config.blocks + 1} | "
                  f"{meta.get('search', {})} | {count} | {median:,.0f} | {mean:,.0f} |")
    if args.selfplay:
        print(f"\n| game | net | self-play positions/s, 1 process | {args.actors} Ray actors |")
        print("|---|---|---:|---:|")
        for weights, config, _ in _nets(args):
            game = registry.game(config.game)
            one = selfplay_rate(game, weights, args.positions or 2000, 0)
            many = selfplay_rate(game, weights, args.positions or 2000, args.actors)
            print(f"| {config.game} | {config.hidden}x{config.blocks + 1} | {one:,.1f} | "
                  f"{many:,.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
