"""Win rate of a policy against one opponent, played on the batched VecEnv.

The learner's seat is random per game; every env plays the same number of games (a
quota), so long games count as often as short ones (stopping at the first N finished
games would favour the short ones). The games are fixed by `seed`: evaluations of
successive checkpoints play the same games, so the learning curve compares like with
like. A shared win counts as the learner's share of it (the env's "win" reward).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tradewinds.stats import wilson_interval
from tradewinds.training.vec_env import BatchedVecEnv

EVAL_SEED = 2**40    # far from the training seeds (0, 1, ... + steps)


@dataclass(frozen=True)
class WinRate:
    opponent: str
    games: int
    rate: float
    low: float
    high: float

    def __str__(self) -> str:
        return (f"{self.rate:.3f} [{self.low:.3f}, {self.high:.3f}] vs {self.opponent} "
                f"({self.games} games)")


def game_shares(policy, env, games: int, deterministic: bool = True,
                share=None) -> list[float]:
    """`policy`'s share in each of the first ``ceil(games / env.num_envs)`` games of every
    env of the batched `env`, so long games count as often as short ones; `share(reward,
    info)` reads a finished game's share (default: its win reward)."""
    quota = -(-games // env.num_envs)
    obs = env.reset()
    played = np.zeros(env.num_envs, dtype=np.int64)
    shares: list[float] = []
    while (played < quota).any():
        actions, _ = policy.predict(obs, action_masks=env.action_masks(),
                                    deterministic=deterministic)
        obs, reward, done, infos = env.step(actions)
        for i in np.flatnonzero(done):
            if played[i] < quota:
                played[i] += 1
                shares.append(float(reward[i]) if share is None
                              else share(reward[i], infos[i]))
    return shares


def shares_against(policy, game, num_players: int, opponent="random", games: int = 200,
                   seed: int = EVAL_SEED, num_envs: int = 64, deterministic: bool = True,
                   share=None, **options) -> list[float]:
    """`policy`'s share of each game against `opponent` in every other seat, on
    ``min(num_envs, games)`` envs (`game_shares`: at least `games` of them)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    env = BatchedVecEnv(game, num_envs=min(num_envs, games), num_players=num_players,
                        opponents=opponent, seed=seed, reward="win", **options)
    return game_shares(policy, env, games, deterministic, share=share)


def win_rate(policy, game, num_players: int, opponent="random", games: int = 200,
             seed: int = EVAL_SEED, num_envs: int = 64, deterministic: bool = True,
             **options) -> WinRate:
    """Play `games` games of `policy` (``predict(obs, action_masks=..., deterministic=...)``,
    a MaskablePPO model or its policy) against `opponent` in every other seat."""
    shares = shares_against(policy, game, num_players, opponent, games, seed, num_envs,
                            deterministic, **options)[:games]
    n = len(shares)
    wins = float(np.sum(shares))
    low, high = wilson_interval(wins, n)
    name = opponent if isinstance(opponent, str) else type(opponent).__name__
    return WinRate(name, n, wins / n, low, high)


CHECKPOINT_OPPONENTS = ("random", "heuristic")


def checkpoint_row(policy, config) -> dict:
    """A training checkpoint's evaluation, as its log row's columns: `policy`'s win rate
    and Wilson interval against each of `CHECKPOINT_OPPONENTS` in `config.eval_games`
    games of the run's game, player count and options."""
    row = {}
    for opp in CHECKPOINT_OPPONENTS:
        r = win_rate(policy, config.game, config.players, opp, config.eval_games,
                     **config.options)
        row |= {f"vs_{opp}": round(r.rate, 4), f"vs_{opp}_low": round(r.low, 4),
                f"vs_{opp}_high": round(r.high, 4)}
    return row
