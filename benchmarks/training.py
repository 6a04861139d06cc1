"""Training throughput: the batched VecEnv (`training.vec_env.BatchedVecEnv`) beside
SB3's `DummyVecEnv` over `SingleAgentEnv`s, measured in one run.

    tradewinds bench training            # both games, 2 players (~10 min on 2 busy cores)
    tradewinds bench training --quick    # smoke run
    tradewinds bench training --games hansa --repeats 3

(a) env steps/s at 64 envs with random learner actions chosen among the legal ones (one
njit pick per row, the same chooser for both). Each env is asked for its masks the way
MaskablePPO asks (`sb3_contrib...get_action_masks(env)`: ``np.stack(env_method(
"action_masks"))``); the batched env is also timed through its own `action_masks()`.
Opponents: uniform random ("random", inside numba in both envs). A third row drives the
DummyVecEnv baseline with Python opponents (`single_agent.UniformRandom`, numpy draws),
as the single env played before opponents moved into numba.
(b) MaskablePPO end to end (`learn`, rollouts and updates) with the same hyperparameters
on both: n_steps=128 per env, batch_size=256, n_epochs=10, MLP [64, 64], CPU, one torch
thread ("target"); and once more with cheap updates (n_epochs=1, batch_size=2048,
"light"), to show how much of `learn` the env can still move. The rollout phase
(`collect_rollouts`: env steps, masks and policy forward passes) is also timed alone.

Figures are medians over repeats; ratios are between medians of this run. The machine
(2 cores) is shared with other jobs, so absolute figures move from run to run; the
ratios, taken minutes apart in the same process, are the figures to compare.
Results: benchmarks/results/training.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.benchmarks.timing import measure
from tradewinds.compiled import disk_cache

RESULTS = Path(__file__).parent / "results"
NUM_ENVS = 64
PPO = {"target": {"n_steps": 128, "batch_size": 256, "n_epochs": 10, "net_arch": [64, 64]},
       "light": {"n_steps": 128, "batch_size": 2048, "n_epochs": 1, "net_arch": [64, 64]}}


@njit(cache=True)
def choose(masks, key, out):
    """A uniformly random legal action per row of `masks`, from the generator at key."""
    for i in range(masks.shape[0]):
        out[i] = rng.pick_set(masks[i], key)


def _batched(game, n, seed=0, **kw):
    from tradewinds.training.vec_env import BatchedVecEnv

    return BatchedVecEnv(game, num_envs=NUM_ENVS, num_players=n, seed=seed, **kw)


def _dummy(game, n, seed=0, python_opponents=False):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tradewinds.training.single_agent import SingleAgentEnv, UniformRandom

    opp = UniformRandom() if python_opponents else "random"
    env = DummyVecEnv([lambda: SingleAgentEnv(game, num_players=n, seat="random",
                                              opponents=opp)
                       for _ in range(NUM_ENVS)])
    env.seed(seed)
    return env


def env_steps(make, masks_via: str, cfg) -> dict:
    """Env steps/s of random legal learner actions (masks via "sb3" or "direct")."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = make()
    env.reset()
    key = np.array([12345, 678], dtype=np.int32)
    actions = np.zeros(env.num_envs, dtype=np.int64)
    get = env.action_masks if masks_via == "direct" else (lambda: get_action_masks(env))

    def work():
        choose(get(), key, actions)
        env.step(actions)
        return env.num_envs, 0

    out = measure(work, **cfg)
    env.close()
    return out


def ppo_steps(make, hp: dict, repeats: int, rollouts: int) -> dict:
    """MaskablePPO `learn` on the env: median env steps/s over repeats (a fresh model
    each), end to end and for the rollout phase alone (env steps and policy forward
    passes, `collect_rollouts`)."""
    from sb3_contrib import MaskablePPO

    rates, rollout_rates = [], []
    for r in range(repeats + 1):         # the first one warms torch up and is not counted
        env = make()
        model = MaskablePPO("MlpPolicy", env, n_steps=hp["n_steps"],
                            batch_size=hp["batch_size"], n_epochs=hp["n_epochs"],
                            policy_kwargs={"net_arch": hp["net_arch"]}, seed=r,
                            device="cpu", verbose=0)
        collect, spent = model.collect_rollouts, [0.0]

        def timed(*args, collect=collect, spent=spent, **kwargs):
            t = time.perf_counter()
            out = collect(*args, **kwargs)
            spent[0] += time.perf_counter() - t
            return out

        model.collect_rollouts = timed
        steps = NUM_ENVS * hp["n_steps"] * (1 if r == 0 else rollouts)
        t0 = time.perf_counter()
        model.learn(total_timesteps=steps)
        dt = time.perf_counter() - t0
        if r:
            rates.append(model.num_timesteps / dt)
            rollout_rates.append(model.num_timesteps / spent[0])
        env.close()
    return {"steps_per_s": float(statistics.median(rates)), "runs": rates,
            "rollout_steps_per_s": float(statistics.median(rollout_rates)),
            "rollout_runs": rollout_rates,
            "steps_per_run": NUM_ENVS * hp["n_steps"] * rollouts}


def run(games, players, cfg, repeats: int, rollouts: int, with_ppo: bool = True) -> dict:
    import torch

    torch.set_num_threads(1)   # two torch threads on two busy cores run ~15x slower here
    result = {"machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                          "torch_threads": torch.get_num_threads()},
              "num_envs": NUM_ENVS, "ppo": PPO, "env_cfg": cfg, "ppo_repeats": repeats,
              "ppo_rollouts": rollouts, "rows": []}
    n = players
    for game in games:
        rows = {
            "batched": env_steps(lambda game=game: _batched(game, n), "sb3", cfg),
            "batched_direct_masks": env_steps(lambda game=game: _batched(game, n), "direct", cfg),
            "dummy": env_steps(lambda game=game: _dummy(game, n), "sb3", cfg),
            "dummy_python_opponents": env_steps(
                lambda game=game: _dummy(game, n, python_opponents=True), "sb3", cfg),
        }
        entry = {"game": game, "players": n,
                 "env_steps_per_s": {k: v["steps_per_s"] for k, v in rows.items()},
                 "env_runs": {k: [r["steps"] / r["seconds"] for r in v["runs"]]
                              for k, v in rows.items()}}
        e = entry["env_steps_per_s"]
        entry["env_ratio"] = e["batched"] / e["dummy"]
        entry["env_ratio_direct_masks"] = e["batched_direct_masks"] / e["dummy"]
        entry["env_ratio_vs_python_opponents"] = e["batched"] / e["dummy_python_opponents"]
        if with_ppo:
            entry["ppo"] = {}
            for name, hp in PPO.items():
                b = ppo_steps(lambda game=game: _batched(game, n), hp, repeats, rollouts)
                d = ppo_steps(lambda game=game: _dummy(game, n), hp, repeats, rollouts)
                entry["ppo"][name] = {
                    "steps_per_s": {"batched": b["steps_per_s"], "dummy": d["steps_per_s"]},
                    "runs": {"batched": b["runs"], "dummy": d["runs"]},
                    "ratio": b["steps_per_s"] / d["steps_per_s"],
                    "rollout_steps_per_s": {"batched": b["rollout_steps_per_s"],
                                            "dummy": d["rollout_steps_per_s"]},
                    "rollout_runs": {"batched": b["rollout_runs"], "dummy": d["rollout_runs"]},
                    "rollout_ratio": b["rollout_steps_per_s"] / d["rollout_steps_per_s"]}
        result["rows"].append(entry)
        print(markdown(result), flush=True)
    return result


def markdown(result) -> str:
    lines = [
        f"(a) Env steps/s at {result['num_envs']} envs, random legal learner actions, random "
        "opponents (medians; masks as MaskablePPO asks for them, and through the batched "
        "env's own `action_masks()`).",
        "",
        "| game | BatchedVecEnv | DummyVecEnv x SingleAgentEnv | ratio (target 20x) | "
        "BatchedVecEnv, own masks | ratio | DummyVecEnv, Python opponents | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        e = r["env_steps_per_s"]
        lines.append(
            f"| {r['game']} {r['players']}p | {e['batched']:,.0f} | {e['dummy']:,.0f} | "
            f"{r['env_ratio']:.1f}x | {e['batched_direct_masks']:,.0f} | "
            f"{r['env_ratio_direct_masks']:.1f}x | {e['dummy_python_opponents']:,.0f} | "
            f"{r['env_ratio_vs_python_opponents']:.1f}x |")
    if any("ppo" in r for r in result["rows"]):
        lines += [
            "",
            "(b) MaskablePPO env steps/s, end to end (`learn`) and in the rollout phase alone "
            f"(MLP, CPU, one torch thread; median of {result['ppo_repeats']} runs of "
            f"{result['ppo_rollouts']} rollouts of {result['num_envs']} envs x n_steps).",
            "",
            "| game | hyperparameters | end to end: batched | DummyVecEnv | ratio (target 2x) "
            "| rollouts: batched | DummyVecEnv | ratio |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in result["rows"]:
            for name, x in r.get("ppo", {}).items():
                hp = result["ppo"][name]
                p, q = x["steps_per_s"], x["rollout_steps_per_s"]
                lines.append(
                    f"| {r['game']} {r['players']}p | {name}: n_steps={hp['n_steps']}, "
                    f"batch_size={hp['batch_size']}, n_epochs={hp['n_epochs']}, "
                    f"MLP {hp['net_arch']} | {p['batched']:,.0f} | {p['dummy']:,.0f} | "
                    f"{x['ratio']:.2f}x | {q['batched']:,.0f} | {q['dummy']:,.0f} | "
                    f"{x['rollout_ratio']:.1f}x |")
    return "\n".join(lines)


def main(argv=None, prog="python -m tradewinds.benchmarks.training") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="hansa,voyage")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=None, help="repeats per measurement")
    ap.add_argument("--quick", action="store_true", help="tiny repeats, for smoke tests")
    ap.add_argument("--no-ppo", action="store_true")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    cfg = {"repeats": repeats, "min_time": 0.2 if args.quick else 2.0,
           "warmup": 0.1 if args.quick else 0.5}
    result = run(args.games.split(","), args.players, cfg,
                 repeats=1 if args.quick else max(3, repeats // 2 + 1),
                 rollouts=1 if args.quick else 2, with_ppo=not args.no_ppo)
    table = markdown(result)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "training_quick" if args.quick else "training"
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=1))
    (args.out / f"{stem}.md").write_text(table + "\n")
    print(table)
    return 0


disk_cache.refresh(globals())

if __name__ == "__main__":
    raise SystemExit(main())
