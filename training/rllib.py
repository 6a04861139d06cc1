"""`tradewinds train <game> --backend rllib [--address ray://...]`: self-play PPO on Ray
RLlib, for more than one machine.

RLlib's own pieces do the work: its PettingZoo wrapper (`PettingZooEnv`) drives the AEC
env (`tradewinds.make`), every seat maps to one shared policy (parameter-sharing
self-play), and the action-masking PPO module shipped with RLlib's examples
(`ActionMaskingTorchRLModule`) applies the legal mask to the logits. The only adapter
here renames the observation key: PettingZoo's classic envs say ``observation``, the
masking module reads ``observations``.

Without ``--address`` a local Ray starts (num_env_runners=0: sampling in the driver,
what the test runs); with it, env runners and learners spread over the cluster
(`env_runners` workers each). Each iteration prints the mean episode return of the
shared policy; the algorithm is saved to ``<out>/rllib`` every ``save_every`` iterations
and at the end (RLlib's checkpoint format; `Algorithm.from_checkpoint` restores it), the
settings and per-iteration budget to ``<out>/history.json``; ``--resume`` goes on from
both. ``rllib:<out>`` plays the policy as an agent (agents/rllib_agent.py).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pettingzoo.utils import BaseWrapper

from tradewinds import ray_start
from tradewinds.cli_args import int_at_least, option

POLICY = "shared"


class ObservationsKey(BaseWrapper):
    """The AEC env with its observation dict's ``observation`` key named ``observations``."""

    def observation_space(self, agent):
        from gymnasium import spaces

        space = self.env.observation_space(agent)
        return spaces.Dict({"observations": space["observation"],
                            "action_mask": space["action_mask"]})

    def observe(self, agent):
        obs = self.env.observe(agent)
        return None if obs is None else {"observations": obs["observation"],
                                         "action_mask": obs["action_mask"]}


def make_env(env_config: dict):
    """RLlib's env creator: the game's AEC env, renamed, in RLlib's PettingZoo wrapper."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from tradewinds import registry

    cfg = dict(env_config)
    game = cfg.pop("game")
    return PettingZooEnv(ObservationsKey(registry.make(game, **cfg)))


@dataclass
class RllibConfig:
    game: str = "hansa"
    players: int = 2
    iterations: int = option(10, type=int_at_least(0), help="training iterations (RLlib; "
                             "alphazero: after the warm start, 0 for the warm start only)")
    address: str | None = option(None, help="Ray cluster address (with --backend rllib "
                                 "or ray)", show="a local Ray")
    out: str | None = None                  # default results/train/<game>_<players>p_rllib
    seed: int = 0
    reward: str = "score"
    env_runners: int = 0
    train_batch_size: int = 4000
    minibatch_size: int = 500
    num_epochs: int = 4
    hidden: tuple = (128, 128)
    options: dict = field(default_factory=dict)
    save_every: int = 10                    # iterations between checkpoints
    resume: bool = False                    # continue the run saved in <out> to `iterations`

    def __post_init__(self):
        from tradewinds import registry

        g = registry.game(self.game)
        self.players = g.check_players(self.players)
        if self.out is None:
            self.out = f"results/train/{self.game}_{self.players}p_rllib"


def algorithm_config(c: RllibConfig):
    """The PPOConfig of a run (every seat plays the shared, masked policy)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    name = f"tradewinds_{c.game}"
    register_env(name, make_env)
    # "lose": RLlib's env check steps an unmasked random action (the masked policy never does)
    env_config = {"game": c.game, "num_players": c.players, "reward": c.reward,
                  "illegal_action": "lose", **c.options}
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"head_fcnet_hiddens": list(c.hidden),
                                        "head_fcnet_activation": "relu"})
    return (PPOConfig()
            .environment(name, env_config=env_config)
            .multi_agent(policies={POLICY},
                         policy_mapping_fn=lambda agent_id, *args, **kwargs: POLICY)
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
            .env_runners(num_env_runners=c.env_runners)
            .training(train_batch_size_per_learner=c.train_batch_size,
                      minibatch_size=c.minibatch_size, num_epochs=c.num_epochs)
            .debugging(seed=c.seed))


def train_rllib(c: RllibConfig, log=print) -> list[dict]:
    """Run PPO to `c.iterations` iterations; one summary dict per iteration. The algorithm
    is saved to `<out>/rllib` every `c.save_every` iterations and at the end, with the
    history so far in `<out>/history.json` (so a long run that is stopped keeps its last
    checkpoint, and the budget behind it). With `c.resume` the saved algorithm and history
    are loaded and the run goes on from its last iteration (the restored algorithm keeps
    its lifetime env-step and episode counts; seconds count on from the saved total)."""
    import ray

    out = Path(c.out).resolve()
    history = _saved_history(out, c) if c.resume else []
    started_here = not ray.is_initialized()
    if started_here:
        ray_start.start(c.address, configure_logging=False)
    try:
        algo = algorithm_config(c).build_algo()
        if c.resume:
            algo.restore_from_path(str(out / "rllib"))
        seconds_before = history[-1]["seconds"] if history else 0.0
        t0 = time.perf_counter()
        for i in range(len(history), c.iterations):
            result = algo.train()
            runners = result.get("env_runners", {})
            row = {"iteration": i + 1,
                   "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
                   "episodes": int(runners.get("num_episodes_lifetime", 0)),
                   "episode_return_mean": runners.get("episode_return_mean"),
                   "seconds": round(seconds_before + time.perf_counter() - t0, 1)}
            history.append(row)
            log(f"iteration {row['iteration']}: {row['env_steps']:,} env steps, "
                f"{row['episodes']:,} episodes, mean return {row['episode_return_mean']}, "
                f"{row['seconds']:.0f} s")
            if (i + 1) % c.save_every == 0 or i + 1 == c.iterations:
                _save(algo, out, c, history)
        algo.stop()
        log(f"saved to {out / 'rllib'}")
        return history
    finally:
        if started_here:
            ray.shutdown()


def _saved_history(out: Path, c: RllibConfig) -> list[dict]:
    """The history of the run saved in `out`, checked against `c` before anything is
    built: the same settings, fewer iterations than `c.iterations`."""
    saved = out / "history.json"
    if not saved.is_file() or not (out / "rllib").is_dir():
        raise ValueError(f"--resume: no RLlib run saved in {out} (history.json and rllib/)")
    info = json.loads(saved.read_text())
    mine = {k: v for k, v in asdict(c).items() if k not in ("address", "iterations", "resume")}
    theirs = {k: v for k, v in info["settings"].items() if k not in ("iterations", "resume")}
    differ = sorted(k for k in mine if k in theirs and json.loads(json.dumps(mine[k]))
                    != theirs[k])
    if differ:
        raise ValueError(f"--resume: the run in {out} was trained with other settings: "
                         + ", ".join(f"{k}={theirs[k]!r}" for k in differ))
    history = info["history"]
    if len(history) >= c.iterations:
        raise ValueError(f"--resume: the run in {out} already has {len(history)} iterations;"
                         f" ask for more with --iterations")
    return history


def _save(algo, out: Path, c: RllibConfig, history: list[dict]) -> None:
    """The algorithm checkpoint and the run's history (settings, budget) beside it."""
    (out / "rllib").mkdir(parents=True, exist_ok=True)
    algo.save_to_path(str(out / "rllib"))
    settings = {k: v for k, v in asdict(c).items() if k != "address"}
    info = {"settings": settings, "cores": os.cpu_count(), "history": history}
    tmp = out / "history.json.tmp"
    tmp.write_text(json.dumps(info, indent=1, default=str) + "\n")
    tmp.replace(out / "history.json")
