"""`tradewinds train GAME --algo dmc`: Deep Monte-Carlo (DouZero, Zha et al. 2021) on the
batched VecEnv, a second learned baseline beside MaskablePPO (`training.trainer`).

    from tradewinds.training.dmc import DMCConfig, train
    train(DMCConfig(game="hansa", players=2, steps=2_000_000))

The learner is a Q-network (`agents.dmc.build`: observation -> one value per action id).
It plays `num_envs` games at once exactly as the PPO learner does: a random seat per game,
the same rewards, opponents drawn per game from the same pool (`training.pool`: snapshots
of itself, the heuristic, random). Each decision is the legal action of highest value,
or with probability `epsilon` a uniformly random legal one. When a game ends, each of the
learner's decisions in it gets its Monte-Carlo return, the sum of the learner's rewards
from that decision to the end (undiscounted, as DouZero), and the (observation, action,
return) rows join a buffer of the newest `buffer` rows. After every `train_every` env
steps the net takes one Adam step on the mean squared error between Q(obs)[action] and
the return over a minibatch drawn from the buffer. Every `checkpoint_every` env steps
it adds a greedy snapshot of itself to the pool, evaluates against random and the
heuristic (`training.evaluate`, greedy play), writes ``model.pt`` (net, optimizer and
the shape to rebuild it; `agents.dmc` plays it) and ``state.json`` atomically, appends a
row to ``log.csv`` (the PPO log's columns) and redraws ``curve.png``.

``resume=True`` continues from the last checkpoint in `out` (steps, net, optimizer, pool,
log) with an empty buffer: it refills from the games played after the restart.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from tradewinds.cli_args import (
    check_positive_ints,
    int_at_least,
    int_tuple,
    option,
    steps_at_least,
)
from tradewinds.training import checkpoints as ck
from tradewinds.training.pool import OpponentPool
from tradewinds.training.trainer import LOG_COLUMNS, PoolRunFields


@dataclass
class DMCConfig(PoolRunFields):
    """Everything a DMC run depends on (written to ``config.json``)."""

    out: str | None = option(None, help="run directory",
                             show="results/train/dmc_<game>_<players>p")
    net_arch: tuple = option((256, 256), type=int_tuple, show="256,256", help="hidden layer "
                             "sizes of the Q-network")
    learning_rate: float = option(1e-4, type=float, help="learning rate (Adam)")
    batch_size: int = option(1024, type=int_at_least(1), help="minibatch size")
    epsilon: float = option(0.05, type=float, help="exploration: the share of decisions "
                            "played uniformly at random among the legal actions")
    train_every: int = option(256, type=steps_at_least(1), help="env steps (learner "
                              "decisions of all envs together) between two learner updates")
    buffer: int = option(100_000, type=steps_at_least(1), help="rows kept for training: the "
                         "newest (observation, action, return) of finished games")
    threads: int = option(1, type=int_at_least(1), help="torch threads")

    def __post_init__(self):
        from tradewinds import registry, rewards

        g = registry.game(self.game)
        self.players = g.check_players(self.players)
        rewards.mode_code(self.reward)
        check_positive_ints(self, ("steps", "num_envs", "checkpoint_every", "eval_games",
                                   "max_snapshots", "batch_size", "train_every", "buffer",
                                   "threads"))
        if not (self.learning_rate > 0 and 0 <= self.epsilon <= 1):
            raise ValueError(f"need learning_rate > 0 and 0 <= epsilon <= 1, got "
                             f"{self.learning_rate!r} and {self.epsilon!r}")
        self.options = g.resolve_options(self.options, self.players)
        self.net_arch = tuple(int(x) for x in self.net_arch)
        if self.out is None:
            self.out = f"results/train/dmc_{self.game}_{self.players}p"
        self.out = str(self.out)


def monte_carlo_returns(rewards) -> np.ndarray:
    """Each decision's return: the sum of the rewards from it to the episode's end."""
    r = np.asarray(rewards, dtype=np.float64)
    return np.cumsum(r[::-1])[::-1].astype(np.float32)


class Replay:
    """The newest `capacity` (observation, action, return) rows, sampled uniformly."""

    def __init__(self, capacity: int, obs_size: int):
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.ret = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.size, self.head = capacity, 0, 0

    def add(self, obs, actions, returns) -> None:
        n = min(len(actions), self.capacity)
        idx = (self.head + np.arange(n)) % self.capacity
        self.obs[idx], self.action[idx], self.ret[idx] = obs[-n:], actions[-n:], returns[-n:]
        self.head = (self.head + n) % self.capacity
        self.size = min(self.capacity, self.size + n)

    def sample(self, n: int, gen: np.random.Generator) -> tuple:
        idx = gen.integers(0, self.size, size=n)
        return self.obs[idx], self.action[idx], self.ret[idx]


def explore(actions: np.ndarray, masks: np.ndarray, epsilon: float,
            gen: np.random.Generator) -> np.ndarray:
    """`actions` with each row replaced, with probability `epsilon`, by a uniformly random
    legal action (the arg-max of uniform noise over the legal ones)."""
    rows = np.flatnonzero(gen.random(len(actions)) < epsilon)
    if len(rows):
        noise = np.where(masks[rows], gen.random(masks[rows].shape), -1.0)
        actions = actions.copy()
        actions[rows] = noise.argmax(axis=1)
    return actions


class Run:
    """One DMC run: the Q-network, its optimizer, the env, the pool, the buffer and the
    run's files."""

    def __init__(self, config: DMCConfig):
        import torch

        from tradewinds import registry
        from tradewinds.agents import dmc
        from tradewinds.training.vec_env import BatchedVecEnv

        self.config = c = config
        self.out = Path(c.out)
        torch.set_num_threads(c.threads)
        g = registry.game(c.game)
        self.shape = (g.obs_size, g.num_actions, list(c.net_arch))
        self.pool = OpponentPool(c.players, dict(c.weights), c.max_snapshots)
        model_file = self.out / "model.pt"
        saved = None
        if c.resume and model_file.exists():
            ck.check_resumable(c.settings(), self.out / "config.json")
            saved = torch.load(model_file, map_location="cpu", weights_only=True)
        elif model_file.exists():
            raise FileExistsError(f"{model_file} exists: pass --resume to continue that "
                                  f"run, or choose another --out")
        self.steps = int(saved["steps"]) if saved else 0
        torch.manual_seed(c.seed + self.steps)
        self.net = dmc.build(*self.shape)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=c.learning_rate)
        if saved:
            self.net.load_state_dict(saved["net"])
            self.optimizer.load_state_dict(saved["optimizer"])
            self._restore_pool()
        else:
            ck.write_json(self.out / "config.json", asdict(c) | {"net_arch": list(c.net_arch)})
        self.gen = np.random.default_rng([c.seed, self.steps])
        self.replay = Replay(c.buffer, g.obs_size)
        self.env = BatchedVecEnv(c.game, num_envs=c.num_envs, num_players=c.players,
                                 seed=c.seed + self.steps, reward=c.reward,
                                 opponent_sampler=self.pool.sample, **c.options)
        self.obs = self.env.reset()
        self.pending = [([], [], []) for _ in range(c.num_envs)]   # obs, actions, rewards
        self.due = 0          # env steps since the last learner update
        self.reset_stats()
        self.started = time.perf_counter()
        self.seconds_before = ck.seconds_before(self.out, self.steps)

    def reset_stats(self) -> None:
        self.episodes, self.won, self.reward, self.loss = 0, 0.0, 0.0, float("nan")

    def frozen(self, state_dict: dict, step: int):
        """A greedy copy of the net with `state_dict`'s weights (a pool snapshot)."""
        from tradewinds.agents import dmc

        net = dmc.build(*self.shape)
        net.load_state_dict(state_dict)
        net.eval()
        for p in net.parameters():
            p.requires_grad_(False)
        return dmc.QPolicy(net, step)

    def _restore_pool(self) -> None:
        state = ck.read_json(self.out / "state.json")
        for item in state.get("snapshots", []):
            self.pool.add(self.frozen(ck.load_snapshot(self.out / item["file"]), item["step"]))
        ck.keep_rows_through(self.out / "log.csv", LOG_COLUMNS, self.steps)

    def policy(self):
        """The net as a greedy predictor (evaluation)."""
        from tradewinds.agents.dmc import QPolicy

        return QPolicy(self.net, self.steps)

    # ------------------------------------------------------------------ playing, learning
    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = self.policy().predict(obs, action_masks=masks)
        return explore(actions, masks, self.config.epsilon, self.gen)

    def collect(self) -> None:
        """One step of every env; the rows of the games that ended go to the buffer; a
        learner update for every `train_every` env steps."""
        masks = self.env.action_masks()
        actions = self.act(self.obs, masks)
        obs, rewards, dones, infos = self.env.step(actions)
        for i, rows in enumerate(self.pending):
            rows[0].append(self.obs[i])
            rows[1].append(actions[i])
            rows[2].append(rewards[i])
        for i in np.flatnonzero(dones):
            seen, acts, rews = self.pending[i]
            self.replay.add(np.stack(seen), np.asarray(acts), monte_carlo_returns(rews))
            self.pending[i] = ([], [], [])
            self._count(infos[i])
        self.obs = obs
        self.steps += len(actions)
        self.due += len(actions)
        while self.due >= self.config.train_every:
            self.due -= self.config.train_every
            if self.replay.size >= self.config.batch_size:
                self.update()

    def _count(self, info: dict) -> None:
        self.episodes += 1
        if "won" in info:         # else lost by an illegal action
            self.won += info["won"][info["seat"]] / sum(info["won"])
            self.reward += info["episode"]["r"]

    def update(self) -> None:
        """One Adam step on the squared error of Q(obs)[action] against the return."""
        import torch

        obs, actions, returns = self.replay.sample(self.config.batch_size, self.gen)
        q = self.net(torch.as_tensor(obs)).gather(1, torch.as_tensor(actions)[:, None])
        loss = torch.nn.functional.mse_loss(q[:, 0], torch.as_tensor(returns))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.loss = loss.item()

    # ------------------------------------------------------------------ checkpoints
    def snapshot(self) -> None:
        snap = self.frozen(self.net.state_dict(), self.steps)
        ck.save_snapshot(snap.state_dict(), self.out / ck.snapshot_file(self.steps))
        self.pool.add(snap)

    def evaluate(self) -> dict:
        from tradewinds.training.evaluate import checkpoint_row

        return checkpoint_row(self.policy(), self.config)

    def save(self) -> None:
        import torch

        obs_size, num_actions, net_arch = self.shape
        saved = {"net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                 "obs_size": obs_size, "num_actions": num_actions, "net_arch": net_arch,
                 "game": self.config.game, "players": self.config.players,
                 "steps": self.steps}
        ck.atomic_write(self.out / "model.pt", lambda tmp: torch.save(saved, tmp))

    def checkpoint(self) -> dict:
        """Snapshot, evaluate, save; the log row (the training games since the last one)."""
        self.snapshot()
        n = max(self.episodes, 1)
        row = {"steps": self.steps,
               "seconds": round(self.seconds_before + time.perf_counter() - self.started, 1),
               "episodes": self.episodes, "train_win_rate": round(self.won / n, 4),
               "train_reward": round(self.reward / n, 4), **self.evaluate(),
               "pool": self.pool.describe()}
        self.save()
        ck.record(self.out, self.steps, self.pool.snapshots, row, LOG_COLUMNS,
                  f"{self.config.game} {self.config.players}p DMC self-play")
        self.reset_stats()
        return row


def train(config: DMCConfig, on_checkpoint=None) -> Run:
    """Run (or resume) DMC training to `config.steps` env steps; the finished Run.
    `on_checkpoint(run, row)` is called at each checkpoint with its log row."""
    from tradewinds import output
    from tradewinds.studies.fpa import progress_bar

    run = Run(config)
    c = config
    console = output.console(stderr=True)
    if run.steps >= c.steps:
        console.print(f"{c.out}: already at {run.steps:,} steps (asked {c.steps:,})")
        return run
    if not run.pool.snapshots:
        run.snapshot()      # the untrained net: the pool's first member
    console.print(f"training {c.game} {c.players}p with DMC to {c.steps:,} steps in {c.out} "
                  f"(from {run.steps:,}; {c.num_envs} envs, reward {c.reward}, epsilon "
                  f"{c.epsilon})")

    def checkpoint():
        loss = run.loss
        row = run.checkpoint()
        console.print(
            f"{row['steps']:>10,} steps  {row['seconds']:>7.0f} s  "
            f"vs random {row['vs_random']:.3f}  vs heuristic {row['vs_heuristic']:.3f}  "
            f"train {row['train_win_rate']:.3f} ({row['episodes']} games)  loss {loss:.4f}  "
            f"pool: {row['pool']}")
        if on_checkpoint is not None:
            on_checkpoint(run, row)

    with progress_bar(console, c.progress, unit="steps") as progress:
        task = progress.add_task("train", total=c.steps, completed=run.steps)
        every = c.checkpoint_every
        next_at = (run.steps // every + 1) * every
        while run.steps < c.steps:
            run.collect()
            progress.update(task, completed=min(run.steps, c.steps))
            if run.steps >= next_at:
                checkpoint()
                next_at += every
        rows = ck.read_rows(run.out / "log.csv")
        if not rows or int(rows[-1]["steps"]) < run.steps:
            checkpoint()
    return run

