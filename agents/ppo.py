"""`ppo` and `ppo:<path>`: a MaskablePPO policy (sb3-contrib) playing one seat.

``make_agent("ppo", game="hansa")`` loads the checkpoint shipped in the package
(``agents/checkpoints/<game>_2p.zip``, trained by the command in its ``.json``);
``make_agent("ppo:results/train/hansa_2p/model.zip", game="hansa")`` loads any checkpoint
that `tradewinds train` (or MaskablePPO.save) wrote for that game. The policy sees only
the seat's observation and legal mask, nothing of the hidden state. ``deterministic``
(default True) plays the arg-max action; False samples from the policy with the agent's
`rng`.

Loading sets torch to one thread (``threads=1``): the arena runs one game per process,
and several torch thread pools on two cores slow every one of them down.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

CHECKPOINTS = Path(__file__).parent / "checkpoints"


def shipped(game: str) -> Path:
    """The shipped checkpoint of `game` (2 players)."""
    return CHECKPOINTS / f"{game}_2p.zip"


class PPOAgent:
    """A MaskablePPO checkpoint as an agent (`act(observation, action_mask, rng)`)."""

    name = "ppo"

    def __init__(self, game: str = "hansa", spec: str | None = None,
                 deterministic: bool = True, threads: int = 1):
        from tradewinds import registry
        from tradewinds.cli_args import require_train_extra

        require_train_extra("the ppo agent")
        import torch
        from sb3_contrib import MaskablePPO

        self.game = registry.game(game)
        path = Path(spec) if spec else shipped(game)
        if not path.is_file():
            what = f"no checkpoint at {path}" if spec else (
                f"no shipped ppo checkpoint for {game!r} (looked for {path})")
            raise ValueError(f"{what}; train one with `tradewinds train {game}` and play it "
                             f"as ppo:<path to model.zip>")
        if threads:
            torch.set_num_threads(int(threads))
        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as e:  # noqa: BLE001 - a zip that is not a checkpoint
            raise ValueError(f"{path} is not a MaskablePPO checkpoint: {e}") from None
        shape = self.model.observation_space.shape
        if shape != (self.game.obs_size,) or self.model.action_space.n != self.game.num_actions:
            raise ValueError(f"{path} was trained for observations {shape} and "
                             f"{self.model.action_space.n} actions, not {game!r} "
                             f"({self.game.obs_size} and {self.game.num_actions})")
        self.path = path
        self.deterministic = bool(deterministic)

    def act(self, observation, action_mask, rng: np.random.Generator) -> int:
        import torch

        policy = self.model.policy
        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None])
        mask = np.asarray(action_mask, dtype=bool)[None]
        with torch.no_grad():
            dist = policy.get_distribution(obs, action_masks=mask)
            if self.deterministic:
                return int(dist.mode()[0])
            probs = dist.distribution.probs[0].numpy().astype(np.float64)
        return int(rng.choice(len(probs), p=probs / probs.sum()))

    def __repr__(self) -> str:
        return f"PPOAgent(game={self.game.name!r}, path={str(self.path)!r})"
