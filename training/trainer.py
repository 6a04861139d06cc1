"""`tradewinds train`: MaskablePPO (sb3-contrib) self-play on the batched VecEnv.

    from tradewinds.training.trainer import TrainConfig, train
    train(TrainConfig(game="hansa", players=2, steps=2_000_000, out="results/train/hansa_2p"))

The learner plays `num_envs` games at once (`training.vec_env.BatchedVecEnv`), in a
random seat per game, against opponents drawn per game from the pool (`training.pool`:
snapshots of itself, the heuristic, random). Every `checkpoint_every` env steps it

1. adds a snapshot of itself to the pool,
2. plays `eval_games` evaluation games (deterministic policy, fixed seeds, random seats)
   against random and against the heuristic (`training.evaluate`),
3. writes model, snapshot and state atomically, appends a row to ``log.csv`` and redraws
   ``curve.png`` (`training.checkpoints`, `training.curve`).

``resume=True`` continues from the last checkpoint in `out` (steps, optimizer, pool, log);
`steps` is the total to reach. A run is reproducible up to torch's thread scheduling:
seeds fix the games, the learner's sampling and the pool's draws.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

from tradewinds.cli_args import (
    check_positive_ints,
    game_name,
    int_at_least,
    int_tuple,
    option,
    steps_at_least,
)
from tradewinds.studies import run_fields as rf
from tradewinds.training import checkpoints as ck
from tradewinds.training.pool import DEFAULT_WEIGHTS, OpponentPool, Snapshot, parse_weights

LOG_COLUMNS = ["steps", "seconds", "episodes", "train_win_rate", "train_reward",
               "vs_random", "vs_random_low", "vs_random_high",
               "vs_heuristic", "vs_heuristic_low", "vs_heuristic_high", "pool"]


@dataclass
class PoolRunFields:
    """The settings every learner on the batched VecEnv against the opponent pool shares
    (MaskablePPO here, Deep Monte-Carlo in `training.dmc`): the game, the budget, the
    envs, the reward, the checkpoints and the pool."""

    game: str = option("hansa", help="game name: hansa or voyage", positional=True,
                       required=True, type=game_name)
    players: int = option(2, type=int, help="player count, 2-4")
    steps: int = option(1_000_000, type=steps_at_least(1), help="total env steps (learner "
                        "decisions) to reach")
    out: str | None = option(None, help="run directory", show="results/train/<game>_<players>p")
    resume: bool = option(False, help="continue the run in --out")
    num_envs: int = option(64, type=int_at_least(1), help="games played at once")
    seed: int = option(0, type=int_at_least(0), help="seed")
    reward: str = option("score", choices=("win", "zero_sum", "score"), help="reward mode "
                         "(tradewinds/rewards.py; score: the change of the VP margin at every "
                         "step)")
    checkpoint_every: int = option(100_000, type=steps_at_least(1), help="env steps between "
                                   "checkpoints, snapshots and evaluations")
    eval_games: int = option(200, type=int_at_least(1), help="evaluation games per opponent "
                             "at each checkpoint")
    weights: dict = option(default_factory=lambda: dict(DEFAULT_WEIGHTS), flag="--pool",
                           type=parse_weights, metavar="KIND=W[,...]", help="opponent weights",
                           show=",".join(f"{k}={v}" for k, v in DEFAULT_WEIGHTS.items()))
    max_snapshots: int = 8
    options: dict = rf.options("max_rounds=60")
    progress: bool = rf.progress()

    def settings(self) -> dict:
        """What must match when a run is resumed."""
        keep = ("game", "players", "num_envs", "reward", "net_arch", "options")
        return {k: (list(v) if isinstance(v, tuple) else v)
                for k, v in asdict(self).items() if k in keep}


@dataclass
class TrainConfig(PoolRunFields):
    """Everything a run depends on (written to ``config.json``)."""

    n_steps: int = option(128, type=int_at_least(1), help="PPO rollout length per env")
    batch_size: int = option(1024, type=int_at_least(1), help="PPO minibatch size")
    n_epochs: int = option(4, type=int_at_least(1), help="PPO epochs per rollout")
    learning_rate: float = option(3e-4, type=float, help="PPO learning rate (Adam)")
    gamma: float = option(0.995, type=float, help="discount")
    ent_coef: float = option(0.01, type=float, help="entropy coefficient")
    net_arch: tuple = option((128, 128), type=int_tuple, show="128,128", help="hidden layer "
                             "sizes of the policy and value MLPs")
    threads: int = 1

    def __post_init__(self):
        from tradewinds import registry, rewards

        g = registry.game(self.game)
        self.players = g.check_players(self.players)
        rewards.mode_code(self.reward)
        check_positive_ints(self, ("steps", "num_envs", "checkpoint_every", "eval_games",
                                   "n_steps", "batch_size", "n_epochs", "threads"))
        if not (self.learning_rate > 0 and 0 < self.gamma <= 1 and self.ent_coef >= 0):
            raise ValueError(f"need learning_rate > 0, 0 < gamma <= 1 and ent_coef >= 0, got "
                             f"{self.learning_rate!r}, {self.gamma!r}, {self.ent_coef!r}")
        self.options = g.resolve_options(self.options, self.players)
        self.net_arch = tuple(int(x) for x in self.net_arch)
        if self.out is None:
            self.out = f"results/train/{self.game}_{self.players}p"
        self.out = str(self.out)



class Run:
    """One training run: the model, the env, the pool and the run's files."""

    def __init__(self, config: TrainConfig):
        import torch
        from sb3_contrib import MaskablePPO

        from tradewinds.training.vec_env import BatchedVecEnv

        self.config = c = config
        self.out = Path(c.out)
        torch.set_num_threads(c.threads)
        self.pool = OpponentPool(c.players, dict(c.weights), c.max_snapshots)
        model_file = self.out / "model.zip"
        if c.resume and model_file.exists():
            ck.check_resumable(c.settings(), self.out / "config.json")
            self.model = MaskablePPO.load(model_file, device="cpu")
            done = self.model.num_timesteps
        else:
            if model_file.exists():
                raise FileExistsError(f"{model_file} exists: pass --resume to continue that "
                                      f"run, or choose another --out")
            self.model, done = None, 0
        self.env = BatchedVecEnv(c.game, num_envs=c.num_envs, num_players=c.players,
                                 seed=c.seed + done, reward=c.reward,
                                 opponent_sampler=self.pool.sample, **c.options)
        if self.model is None:
            self.model = MaskablePPO(
                "MlpPolicy", self.env, n_steps=c.n_steps, batch_size=c.batch_size,
                n_epochs=c.n_epochs, learning_rate=c.learning_rate, gamma=c.gamma,
                ent_coef=c.ent_coef, seed=c.seed, device="cpu", verbose=0,
                policy_kwargs={"net_arch": list(c.net_arch)})
            ck.write_json(self.out / "config.json", asdict(c) | {"net_arch": list(c.net_arch)})
        else:
            self.model.set_env(self.env)
            self._restore_pool(done)
        self.started = time.perf_counter()
        self.seconds_before = ck.seconds_before(self.out, done)

    def _restore_pool(self, done: int) -> None:
        state = ck.read_json(self.out / "state.json")
        for item in state.get("snapshots", []):
            snap = Snapshot(self.model.policy, item["step"])
            snap.policy.load_state_dict(ck.load_snapshot(self.out / item["file"]))
            self.pool.add(snap)
        ck.keep_rows_through(self.out / "log.csv", LOG_COLUMNS, done)

    @property
    def steps(self) -> int:
        return int(self.model.num_timesteps)

    def snapshot(self) -> None:
        snap = Snapshot(self.model.policy, self.steps)
        ck.save_snapshot(snap.state_dict(), self.out / ck.snapshot_file(self.steps))
        self.pool.add(snap)

    def evaluate(self) -> dict:
        from tradewinds.training.evaluate import checkpoint_row

        return checkpoint_row(self.model, self.config)

    def checkpoint(self, stats: dict) -> dict:
        """Snapshot, evaluate, save; the log row."""
        self.snapshot()
        row = {"steps": self.steps,
               "seconds": round(self.seconds_before + time.perf_counter() - self.started, 1),
               **stats, **self.evaluate(), "pool": self.pool.describe()}
        ck.save_model(self.model, self.out / "model.zip")
        ck.record(self.out, self.steps, self.pool.snapshots, row, LOG_COLUMNS,
                  f"{self.config.game} {self.config.players}p self-play")
        return row


def _callback(run: Run, progress, task, on_checkpoint=None):
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlay(BaseCallback):
        """Counts the training games, checkpoints every `checkpoint_every` steps."""

        def _on_training_start(self):
            every = run.config.checkpoint_every
            self.next_at = (run.steps // every + 1) * every
            self._reset_stats()

        def _reset_stats(self):
            self.episodes, self.won, self.reward = 0, 0.0, 0.0

        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
                if done and "won" in info:
                    self.episodes += 1
                    self.won += info["won"][info["seat"]] / sum(info["won"])
                    self.reward += info["episode"]["r"]
                elif done:      # lost by an illegal action
                    self.episodes += 1
            progress.update(task, completed=min(run.steps, run.config.steps))
            if run.steps >= self.next_at:
                self.checkpoint()
                self.next_at += run.config.checkpoint_every
            return True

        def checkpoint(self):
            n = max(self.episodes, 1)
            row = run.checkpoint({"episodes": self.episodes,
                                  "train_win_rate": round(self.won / n, 4),
                                  "train_reward": round(self.reward / n, 4)})
            progress.console.print(
                f"{row['steps']:>10,} steps  {row['seconds']:>7.0f} s  "
                f"vs random {row['vs_random']:.3f}  vs heuristic {row['vs_heuristic']:.3f}  "
                f"train {row['train_win_rate']:.3f} ({row['episodes']} games)  "
                f"pool: {row['pool']}")
            self._reset_stats()
            if on_checkpoint is not None:
                on_checkpoint(run, row)

    return SelfPlay()


def train(config: TrainConfig, on_checkpoint=None) -> Run:
    """Run (or resume) training to `config.steps` env steps; the finished Run.
    `on_checkpoint(run, row)` is called at each checkpoint with its log row (a tuner's
    hook: an exception it raises stops the run there)."""
    from tradewinds import output
    from tradewinds.studies.fpa import progress_bar

    run = Run(config)
    c = config
    console = output.console(stderr=True)
    if run.steps >= c.steps:
        console.print(f"{c.out}: already at {run.steps:,} steps (asked {c.steps:,})")
        return run
    if not run.pool.snapshots:
        run.snapshot()      # the untrained policy: the pool's first member
    console.print(f"training {c.game} {c.players}p to {c.steps:,} steps in {c.out} "
                  f"(from {run.steps:,}; {c.num_envs} envs, reward {c.reward})")
    with progress_bar(console, c.progress, unit="steps") as progress:
        task = progress.add_task("train", total=c.steps, completed=run.steps)
        callback = _callback(run, progress, task, on_checkpoint)
        run.model.learn(total_timesteps=c.steps - run.steps, callback=callback,
                        reset_num_timesteps=False)
        rows = ck.read_rows(run.out / "log.csv")
        if not rows or int(rows[-1]["steps"]) < run.steps:
            callback.checkpoint()
    return run
