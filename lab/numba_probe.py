"""One repeat of the hot paths under whatever numba this interpreter has; prints JSON.

    python -m lab.numba_probe [--games hansa,voyage] [--players 2] [--min-time 1]

Run by `lab.numba_releases` once per release and repeat, so the releases take
turns on a loaded machine. Measures, with the functions of `benchmarks.throughput` and
`benchmarks.timing`: whole random games inside njit (`kernel_playouts`), the batched
random step (`batched`, one thread, so the figure is the kernels' and not the
scheduler's), IS-MCTS decisions (`mcts:<N>` as the agent plays them) and random steps
through the AEC env. Every section is warmed before it is timed; the wall time of its
first call (compilation, or loading numba's cache) is reported apart as ``first_s``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

import numpy as np

BATCH = 1024


def _timed_first(fn, *args):
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def mcts_decisions(name, n, simulations, cfg) -> dict:
    """Decisions/s of the `mcts:<simulations>` agent on mid-game positions of random play
    (positions with one legal action are skipped: the agent does not search there)."""
    from tradewinds import registry
    from tradewinds.agents.ismcts import ISMCTSAgent
    from tradewinds.studies.positions import random_positions

    game = registry.game(name)
    agent = ISMCTSAgent(name, spec=str(simulations))
    states = [s for s in random_positions(game, n, 24) if len(game.legal_actions(s)) > 1][:16]
    masks = [game.legal_mask(s) for s in states]
    rng = np.random.default_rng(0)
    it = iter(range(1 << 62))

    def work():
        i = next(it) % len(states)
        agent.act(None, masks[i], rng, state=states[i])
        return {"steps": 1}

    first = _timed_first(lambda: agent.act(None, masks[0], rng, state=states[0]))
    res = measure_cfg(work, cfg)
    res["first_s"] = first
    return res


def measure_cfg(work, cfg):
    from tradewinds.benchmarks.timing import measure
    return measure(work, **cfg)


def run(games, players, cfg, simulations) -> dict:
    import llvmlite
    import numba

    from tradewinds import registry
    from tradewinds.benchmarks import throughput as T

    numba.set_num_threads(1)
    out = {"versions": {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
                        "numpy": np.__version__, "python": platform.python_version()},
           "when": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": {}}
    for name in games:
        game = registry.game(name)
        opts = T._options(game)
        for n in players:
            tag = f"{name}_{n}p"
            first = _timed_first(game.kernels.random_games, n, 0, 2, *opts)
            out["rows"][f"{tag}_kernel"] = {**_slim(T.kernel_playouts(game, n, cfg)),
                                            "first_s": first}
            out["rows"][f"{tag}_batch{BATCH}"] = _slim(T.batched(game, n, BATCH, cfg, threads=1))
            out["rows"][f"{tag}_mcts{simulations}"] = _slim(
                mcts_decisions(name, n, simulations, cfg))
            t0 = time.perf_counter()
            env = registry.make(name, num_players=n)
            env.reset(seed=0)
            for _ in range(3):
                env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
            first = time.perf_counter() - t0
            out["rows"][f"{tag}_aec"] = {**_slim(T.aec_env(name, n, cfg)), "first_s": first}
            print(f"  {numba.__version__}: {tag}", file=sys.stderr, flush=True)
    return out


def _slim(res: dict) -> dict:
    keep = ("steps_per_s", "steps_per_s_min", "steps_per_s_max", "games_per_s",
            "steps_per_game", "first_s")
    return {k: res[k] for k in keep if k in res}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="hansa,voyage")
    ap.add_argument("--players", default="2")
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args(argv)
    cfg = {"repeats": args.repeats, "min_time": args.min_time, "warmup": 0.2}
    res = run(args.games.split(","), [int(p) for p in args.players.split(",")], cfg,
              args.simulations)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
