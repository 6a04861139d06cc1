"""`noisy:<eps>`: the heuristic, except that with probability `eps` a decision is a
uniformly random legal action.

A ladder needs rungs between random play and the heuristic: against random every other
member wins (almost) every game, so the gap between them is only a lower bound. Mixing in
random moves gives a dial of strengths made from parts that are already tested; the
randomness comes from the agent's `rng`, and the heuristic part sees the state only
through `determinize`, like the heuristic itself.
"""

from __future__ import annotations

import numpy as np

from tradewinds.agents.heuristic import HeuristicAgent

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)


def parse_eps(spec) -> float:
    """'0.5' -> 0.5, refusing anything outside [0, 1]."""
    try:
        eps = float(spec)
    except (TypeError, ValueError):
        raise ValueError(f"noisy agent: eps must be a number in [0, 1], as in noisy:0.5; "
                         f"got {spec!r}") from None
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"noisy agent: eps must be in [0, 1], got {eps}")
    return eps


class NoisyAgent:
    """`noisy:<eps>`: heuristic moves, each replaced by a random legal one with chance eps."""

    needs_state = True

    def __init__(self, game: str = "hansa", spec: str | None = None, eps: float | None = None):
        if eps is None:
            eps = 0.5 if spec is None else spec
        self.eps = parse_eps(eps)
        self.heuristic = HeuristicAgent(game)
        self.name = f"noisy:{spec if spec is not None else self.eps}"

    def act(self, observation, action_mask, rng: np.random.Generator, *, state=None) -> int:
        if rng.random() < self.eps:
            return int(rng.choice(np.flatnonzero(np.asarray(action_mask))))
        return self.heuristic.act(observation, action_mask, rng, state=state)

    def __repr__(self) -> str:
        return f"NoisyAgent(eps={self.eps}, game={self.heuristic.game.name!r})"
