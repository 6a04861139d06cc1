"""Throughput of our kernels, envs and references beside peers, measured in one run.

    tradewinds bench                  # full run (~4 min), writes results/
    tradewinds bench --quick          # smoke run, seconds
    tradewinds bench --games hansa --players 3 --no-peers

Every registered game with the ``batch`` capability can be measured (`tradewinds.protocol`);
a game without a plain-Python reference gets no reference row.

Steps count decisions only; chance inside our `step` is not a step. For OpenSpiel the
C++ loop's steps/s counts decisions (chance outcomes are reported separately by peers.py).
Every figure is the median over repeats; ratios are taken between medians of this run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tradewinds import registry
from tradewinds.benchmarks import peers
from tradewinds.benchmarks.timing import measure, peak_rss_mb

RESULTS = Path(__file__).parent / "results"
BATCH_SIZES = (1, 64, 1024, 8192)
# Targets of the same-run ratios: kernel decisions against OpenSpiel's C++ hearts per game
# (a game not named here: 1x), and the batch's scaling over a 2-core machine.
HEARTS_TARGET = {"hansa": 4, "voyage": 3}
BATCH_SCALING_TARGET = 1.8


def _hansa_reference(n, seed):
    from hansa_env.reference import HansaGame
    return HansaGame(n, seed)


def _voyage_reference(n, seed):
    from voyage_env import GAME
    from voyage_env.reference import VoyageGame
    return VoyageGame(n, seed, voyage_map=GAME.board)


REFERENCES = {"hansa": _hansa_reference, "voyage": _voyage_reference}


def _options(game) -> tuple:
    return game.parse_options(**game.option_defaults)


def kernel_playouts(game, n, cfg) -> dict:
    """Whole random games inside njit on one core (the loop never leaves numba)."""
    opts = _options(game)
    game.kernels.random_games(n, 0, 2, *opts)  # compile / load cache
    first = [1_000]
    per_call = 50

    def work():
        steps = game.kernels.random_games(n, first[0], per_call, *opts)
        first[0] += per_call
        return steps, per_call

    return measure(work, **cfg)


def batched(game, n, batch, cfg, threads=None) -> dict:
    """One random decision per row per call, rows auto-reset: a vectorised env's loop."""
    import numba

    k = game.kernels
    opts = _options(game)
    states = np.zeros((batch, game.state_size), dtype=np.int32)
    seeds = np.arange(batch, dtype=np.int64) * 1_000_003
    k.init_batch(states, n, seeds, *opts)
    masks = np.zeros((batch, game.num_actions), dtype=np.int8)   # the envs own dtype: one compile
    keys = np.stack([seeds, seeds + 7], axis=1).astype(np.int32)
    calls = max(1, 20_000 // batch)
    before = numba.get_num_threads()
    if threads:
        numba.set_num_threads(threads)
    try:
        k.random_step_batch(states, masks, keys, seeds, True, n, *opts)

        def work():
            games = 0
            for _ in range(calls):
                games += k.random_step_batch(states, masks, keys, seeds, True, n, *opts)
            return batch * calls, games

        res = measure(work, **cfg)
    finally:
        numba.set_num_threads(before)
    res["rss_mb"] = peak_rss_mb()
    return res


def aec_env(name, n, cfg) -> dict:
    """Random legal actions through the PettingZoo AEC API (default wrappers)."""
    env = registry.make(name, num_players=n)
    rng = np.random.default_rng(0)
    seed = [0]

    def work():
        env.reset(seed=seed[0])
        seed[0] += 1
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps, 1

    return measure(work, **cfg)


def reference(name, n, cfg) -> dict | None:
    if name not in REFERENCES:
        return None
    make = REFERENCES[name]
    rng = np.random.default_rng(0)
    seed = [0]

    def work():
        g = make(n, seed[0])
        seed[0] += 1
        steps = 0
        while not g.is_terminal():
            g.step(int(rng.choice(g.legal_actions())))
            steps += 1
        return steps, 1

    return measure(work, **cfg)


def compile_times(name) -> dict:
    """Import + first step in a fresh process: with an empty numba cache, then warm. The
    process imports the game's registered module (a game registered at run time too; the
    module is found on this process's path)."""
    game = registry.game(name)
    code = (
        "import time; t=time.perf_counter(); import importlib; "
        f"g=importlib.import_module({registry.module_name(name)!r}).GAME; "
        f"s=g.new_state({game.min_players}, 1); g.step(s, g.legal_actions(s)[0]); "
        "g.observe(s, 0); print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        path = os.pathsep.join(p for p in sys.path if p)
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=path)
        # a warm start has Python's bytecode cached too: without this, every run compiles
        # numba's and numpy's sources again (2-3 s here when the variable is set)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        out = {}
        for label in ("cold_s", "warm_s"):
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                               text=True, check=True)
            out[label] = float(r.stdout.strip().splitlines()[-1])
            out[label.replace("_s", "_process_s")] = time.perf_counter() - t0
    return out


def run(games, players, cfg, with_peers=True, quick=False) -> dict:
    import numba

    rows = []
    for name in games:
        game = registry.game(name)
        game.require("batch", "tradewinds.benchmarks.throughput")
        comp = compile_times(name)
        for n in players:
            row = {"game": name, "players": n, "state_bytes": game.state_size * 4}
            row["kernel"] = kernel_playouts(game, n, cfg)
            row["batch"] = {}
            for b in BATCH_SIZES:
                row["batch"][str(b)] = batched(game, n, b, cfg)
            row["batch_1thread"] = batched(game, n, BATCH_SIZES[-1], cfg, threads=1)
            row["aec"] = aec_env(name, n, cfg)
            row["reference"] = reference(name, n, cfg)
            row["compile"] = comp
            rows.append(row)
            print(f"  measured {name} {n}p", file=sys.stderr)
    peer_rows = []
    if with_peers:
        peer_rows = peers.run_all(quick=quick, repeats=cfg["repeats"], min_time=cfg["min_time"])
    return {
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "numba_threads": numba.get_num_threads(), "numba": numba.__version__,
                    "numpy": np.__version__, "platform": platform.platform()},
        "settings": cfg,
        "rows": rows,
        "peers": peer_rows,
    }


def _peer(result, name):
    for r in result["peers"]:
        if r["name"] == name and r.get("available"):
            return r
    return None


def ratios(result) -> list:
    """(what, ours, peer, ratio, target) for every row; None where a peer is missing."""
    out = []
    c4 = _peer(result, "pettingzoo/connect_four_v3")
    hearts = _peer(result, "openspiel-cpp/hearts")
    for r in result["rows"]:
        tag = f"{r['game']} {r['players']}p"
        k = r["kernel"]["steps_per_s"]
        if r["reference"]:
            ref = r["reference"]["steps_per_s"]
            out.append((f"{tag}: kernel / reference", k, ref, k / ref, 100))
        if c4:
            a = r["aec"]["steps_per_s"]
            out.append((f"{tag}: AEC / PettingZoo connect_four_v3", a, c4["steps_per_s"],
                        a / c4["steps_per_s"], 3))
        if hearts:
            out.append((f"{tag}: kernel / OpenSpiel C++ hearts (decisions)", k,
                        hearts["steps_per_s"], k / hearts["steps_per_s"],
                        HEARTS_TARGET.get(r["game"], 1)))
            out.append((f"{tag}: kernel / OpenSpiel C++ hearts (decisions+chance)", k,
                        hearts["actions_per_s"], k / hearts["actions_per_s"], 1))
        big = r["batch"][str(BATCH_SIZES[-1])]["steps_per_s"]
        one = r["batch_1thread"]["steps_per_s"]
        out.append((f"{tag}: batch {BATCH_SIZES[-1]} all cores / 1 thread", big, one,
                    big / one, BATCH_SCALING_TARGET))
    return out


def markdown(result) -> str:
    lines = ["| game | players | kernel steps/s (1 core) | games/s | "
             + " | ".join(f"batch {b} steps/s" for b in BATCH_SIZES)
             + " | AEC steps/s | reference steps/s | bytes/state | warm import+step s | "
             "cold compile s |",
             "|" + "---|" * (10 + len(BATCH_SIZES))]
    for r in result["rows"]:
        ref = r["reference"]["steps_per_s"] if r["reference"] else float("nan")
        lines.append(
            f"| {r['game']} | {r['players']} | {r['kernel']['steps_per_s']:,.0f} | "
            f"{r['kernel']['games_per_s']:,.0f} | "
            + " | ".join(f"{r['batch'][str(b)]['steps_per_s']:,.0f}" for b in BATCH_SIZES)
            + f" | {r['aec']['steps_per_s']:,.0f} | {ref:,.0f} | {r['state_bytes']} | "
            f"{r['compile']['warm_s']:.2f} | {r['compile']['cold_s']:.1f} |")
    lines += ["", "| peer (same run) | steps/s | games/s | steps/game | chance counted |",
              "|---|---|---|---|---|"]
    for p in result["peers"]:
        if p.get("available"):
            lines.append(f"| {p['name']} | {p['steps_per_s']:,.0f} | {p['games_per_s']:,.0f} | "
                         f"{p['steps_per_game']:.1f} | {p['chance']} |")
    lines += ["", "| ratio | ours | peer | ratio | target | met |", "|---|---|---|---|---|---|"]
    for what, ours, peer, ratio, target in ratios(result):
        lines.append(f"| {what} | {ours:,.0f} | {peer:,.0f} | {ratio:.2f}x | >= {target}x | "
                     f"{'yes' if ratio >= target else 'NO'} |")
    rss = max(r["batch"][str(BATCH_SIZES[-1])]["rss_mb"] for r in result["rows"])
    lines += ["", f"Peak RSS after the largest batch: {rss:.0f} MiB. "
              f"Machine: {result['machine']['cpus']} cores, Python "
              f"{result['machine']['python']}, numba {result['machine']['numba']}."]
    return "\n".join(lines)


def plot(result, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in result["rows"]:
        ys = [r["batch"][str(b)]["steps_per_s"] for b in BATCH_SIZES]
        ax.plot(BATCH_SIZES, ys, "o-", label=f"{r['game']} {r['players']}p batched")
        ax.axhline(r["kernel"]["steps_per_s"], ls=":", lw=1, color=ax.lines[-1].get_color())
    hearts = _peer(result, "openspiel-cpp/hearts")
    if hearts:
        ax.axhline(hearts["steps_per_s"], color="k", ls="--", lw=1,
                   label="OpenSpiel C++ hearts (decisions)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("batch size (rows stepped per call)")
    ax.set_ylabel("decisions per second")
    ax.set_title("Batch scaling (dotted: whole playouts inside njit, one core)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _jsonable(obj):
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def main(argv=None, prog="python -m tradewinds.benchmarks.throughput") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(registry.games()))
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--quick", action="store_true", help="tiny repeats, for smoke tests")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--min-time", type=float, default=None)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    cfg = peers.settings(args.quick, args.repeats, args.min_time)
    result = run(args.games.split(","), [int(p) for p in args.players.split(",")], cfg,
                 with_peers=not args.no_peers, quick=args.quick)
    result = _jsonable(result)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "quick" if args.quick else "latest"
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=1))
    table = markdown(result)
    (args.out / f"{stem}.md").write_text(table + "\n")
    plot(result, args.out / f"{stem}_batch_scaling.png")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
