"""The self-play opponent pool: who the learner plays in each training game.

Members: frozen snapshots of the learner (added every checkpoint), the game's heuristic
(`agents/heuristic_*`) and uniform random play. The rule, drawn once per game and per
opponent seat from the env's generator (`training.vec_env.BatchedVecEnv`'s
``opponent_sampler``), so an opponent plays a whole game:

1. with probability ``weights["snapshot"]`` a snapshot: the newest with probability
   ``latest_share``, otherwise one of the older ones kept, uniformly;
2. else with probability ``weights["heuristic"]`` the heuristic;
3. else random.

The weights are renormalized over the members present (before the first snapshot, the
snapshot weight is shared by the other two in proportion). The pool keeps the newest
``max_snapshots`` snapshots; older ones are dropped (their files stay on disk). Snapshots
sample their actions (``deterministic=False``): a stochastic opponent shows the learner
more of the game than the arg-max of one policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

DEFAULT_WEIGHTS = {"snapshot": 0.6, "heuristic": 0.3, "random": 0.1}


def parse_weights(text: str) -> dict:
    """'snapshot=0.6,heuristic=0.3,random=0.1' -> the pool weights (`--pool`)."""
    import argparse

    out = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep:
            raise argparse.ArgumentTypeError(
                f"takes KIND=WEIGHT[,KIND=WEIGHT], got {text!r}")
    return out


class Snapshot:
    """A frozen copy of a MaskablePPO policy, playing as an opponent predictor."""

    def __init__(self, policy, step: int, deterministic: bool = False):
        # a new policy of the same construction with the weights copied (deepcopy fails
        # on tensors that autograd still tracks)
        self.policy = type(policy)(**policy._get_constructor_parameters())
        self.policy.load_state_dict(policy.state_dict())
        self.policy.optimizer = None
        self.policy.set_training_mode(False)
        for p in self.policy.parameters():
            p.requires_grad_(False)
        self.step = int(step)
        self.deterministic = deterministic

    def predict(self, observations, action_masks=None):
        actions, _ = self.policy.predict(observations, action_masks=action_masks,
                                         deterministic=self.deterministic)
        return actions

    def state_dict(self) -> dict:
        return self.policy.state_dict()

    def __repr__(self) -> str:
        return f"Snapshot(step={self.step})"


@dataclass
class OpponentPool:
    """Snapshots, heuristic and random, sampled per game and opponent seat (module doc)."""

    num_players: int
    weights: dict = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    max_snapshots: int = 8
    latest_share: float = 0.5
    snapshots: list = field(default_factory=list)

    def __post_init__(self):
        unknown = set(self.weights) - set(DEFAULT_WEIGHTS)
        if unknown or any(w < 0 for w in self.weights.values()) or not any(
                self.weights.values()):
            raise ValueError(f"pool weights must be non-negative, not all zero, over "
                             f"{sorted(DEFAULT_WEIGHTS)}; got {self.weights!r}")
        if not 0.0 <= self.latest_share <= 1.0:
            raise ValueError(f"latest_share must be in [0, 1], got {self.latest_share!r}")
        if self.max_snapshots < 1:
            raise ValueError(f"max_snapshots must be at least 1, got {self.max_snapshots!r}")

    def add(self, snapshot: Snapshot) -> None:
        """Add the newest snapshot; drop the oldest beyond ``max_snapshots``."""
        self.snapshots.append(snapshot)
        del self.snapshots[: -self.max_snapshots]

    def probabilities(self) -> dict:
        """The chance of each kind of opponent now (snapshot weight 0 before the first)."""
        w = {k: float(self.weights.get(k, 0.0)) for k in DEFAULT_WEIGHTS}
        if not self.snapshots:
            w["snapshot"] = 0.0
        total = sum(w.values())
        if total <= 0:      # only snapshots were weighted and there are none yet
            return {"snapshot": 0.0, "heuristic": 0.0, "random": 1.0}
        return {k: v / total for k, v in w.items()}

    def sample_one(self, gen: np.random.Generator):
        prob = self.probabilities()
        u = gen.random()
        if u < prob["snapshot"]:
            if len(self.snapshots) == 1 or gen.random() < self.latest_share:
                return self.snapshots[-1]
            return self.snapshots[int(gen.integers(len(self.snapshots) - 1))]
        if u < prob["snapshot"] + prob["heuristic"]:
            return "heuristic"
        return "random"

    def sample(self, gen: np.random.Generator) -> list:
        """One game's opponents, one per opponent seat."""
        return [self.sample_one(gen) for _ in range(self.num_players - 1)]

    def describe(self) -> str:
        prob = self.probabilities()
        return (f"snapshots {prob['snapshot']:.0%} ({len(self.snapshots)} kept), "
                f"heuristic {prob['heuristic']:.0%}, random {prob['random']:.0%}")
