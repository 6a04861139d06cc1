"""Self-play actors on Ray: the same `SelfPlay`, one per actor process, and the learner in
the driver.

Each iteration the driver puts the learner's weights in Ray's object store once; actor k
plays its share of the positions from its own block of game seeds (`actor_seed`), and the
records are joined in actor order, so a run with the same number of actors is the same run
on one machine or a cluster. `play_share` is what an actor does, callable without Ray (the
test compares the two).
"""

from __future__ import annotations

import math

import numpy as np

from tradewinds import ray_start
from tradewinds.training.alphazero.selfplay import SelfPlay, SelfPlayConfig, empty_records

ACTOR_STRIDE = 2**32
"""Game seeds between two actors' blocks: an actor never plays this many games in a call."""


def actor_seed(seed: int, actor: int) -> int:
    return seed + actor * ACTOR_STRIDE


def share(positions: int, actors: int) -> int:
    """Positions each actor records so that together they record at least `positions`."""
    return math.ceil(positions / actors)


class Actor:
    """One actor's self-play, kept across iterations (the search's compiled state)."""

    def __init__(self, game_name: str, num_players: int, config: SelfPlayConfig):
        self.game_name, self.num_players, self.config = game_name, num_players, config
        self.selfplay = None

    def play(self, weights, positions: int, seed: int) -> tuple[dict, int]:
        """(records, games finished) of `positions` positions from games seeded `seed`..."""
        from tradewinds import registry

        if self.selfplay is None:
            self.selfplay = SelfPlay(registry.game(self.game_name), self.num_players,
                                     weights, self.config)
        self.selfplay.set_weights(weights)
        before = self.selfplay.games_finished
        records = self.selfplay.play(positions, seed)
        return records, self.selfplay.games_finished - before


def join(results: list[tuple[dict, int]], obs_size: int, num_actions: int) -> dict:
    """The actors' records in actor order."""
    parts = [r for r, _ in results]
    if not parts:
        return empty_records(obs_size, num_actions)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def play_share(game_name, num_players, config, weights, positions, seed, actors):
    """What `RayActors.play` returns, played in this process one actor after another."""
    from tradewinds import registry

    g = registry.game(game_name)
    results = [Actor(game_name, num_players, config).play(
        weights, share(positions, actors), actor_seed(seed, k)) for k in range(actors)]
    return join(results, g.obs_size, g.num_actions), [n for _, n in results]


class RayActors:
    """`SelfPlay`'s interface (set_weights, play, games_finished) over `actors` Ray actors;
    `address` None starts a local Ray with one CPU per actor."""

    def __init__(self, game, num_players: int, weights, config: SelfPlayConfig, actors: int,
                 address: str | None = None):
        try:
            import ray
        except ImportError as e:
            raise RuntimeError("--backend ray needs Ray: pip install 'tradewinds[dist]'") from e
        if actors < 1:
            raise ValueError(f"Ray self-play needs at least one actor, got {actors}")
        self.ray, self.game, self.actors = ray, game, actors
        if not ray.is_initialized():
            ray_start.start(address, **({"num_cpus": actors} if address is None else {}))
        remote = ray.remote(num_cpus=1)(Actor)
        self.handles = [remote.remote(game.name, num_players, config) for _ in range(actors)]
        self.games_finished = 0
        self.last_played: list[int] = []
        self.set_weights(weights)

    def set_weights(self, weights) -> None:
        self.weights_ref = self.ray.put(weights)

    def play(self, positions: int, seed: int) -> dict:
        each = share(positions, self.actors)
        refs = [h.play.remote(self.weights_ref, each, actor_seed(seed, k))
                for k, h in enumerate(self.handles)]
        results = self.ray.get(refs)
        self.last_played = [n for _, n in results]
        self.games_finished += sum(self.last_played)
        return join(results, self.game.obs_size, self.game.num_actions)

    def seeds_used(self, games_side_by_side: int) -> int:
        """Seeds the next iteration must skip: the longest block any actor used."""
        return max(self.last_played) + games_side_by_side
