"""`rllib` and `rllib:<path>`: a policy trained with RLlib (`tradewinds train --backend
rllib`) playing one seat.

``rllib`` loads the policy shipped in the package for each game (2 players:
``agents/checkpoints/<game>_2p_rllib/``, made by the command in the ``.json`` beside it).
For ``rllib:<path>`` the path is the run's algorithm checkpoint (``<out>/rllib``, as
`train_rllib` saves it) or the RLModule directory inside it. The module is RLlib's
action-masking PPO module, so the logits of illegal actions come back as the lowest float;
the agent plays the arg-max (or, with ``deterministic=False``, samples the masked softmax
with its own `rng`). It sees only the seat's observation and legal mask.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

POLICY = "shared"                  # the one policy every seat plays (training/rllib.py)
CHECKPOINTS = Path(__file__).parent / "checkpoints"
MODULE_DIR = Path("learner_group") / "learner" / "rl_module" / POLICY


def shipped(game: str) -> Path:
    """The shipped RLlib policy of `game` (2 players)."""
    return CHECKPOINTS / f"{game}_2p_rllib"


def module_path(path: str | Path) -> Path:
    """The RLModule directory of an algorithm checkpoint (or `path` itself if it is one)."""
    path = Path(path)
    for candidate in (path / "rllib" / MODULE_DIR, path / MODULE_DIR, path):
        if (candidate / "module_state.pkl").is_file() or \
                (candidate / "module_state.pt").is_file():
            return candidate
    raise ValueError(f"no RLlib policy under {path}: expected an algorithm checkpoint "
                     f"(<out>/rllib from `tradewinds train --backend rllib`) or its "
                     f"{MODULE_DIR} directory")


class RllibAgent:
    """An RLlib RLModule checkpoint as an agent (`act(observation, action_mask, rng)`)."""

    name = "rllib"

    def __init__(self, game: str = "hansa", spec: str | None = None,
                 deterministic: bool = True, threads: int = 1):
        import importlib.util

        from tradewinds import registry

        if not spec and not shipped(game).is_dir():
            raise ValueError(f"no shipped rllib policy for {game!r}: train one with "
                             f"`tradewinds train {game} --backend rllib` and play it as "
                             f"rllib:<its --out directory>")
        if importlib.util.find_spec("ray") is None:
            raise ValueError("the rllib agent needs the dist extra: "
                             "pip install 'tradewinds[dist]'")
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule

        if threads:
            torch.set_num_threads(int(threads))
        self.game = registry.game(game)
        self.path = module_path(spec or shipped(game))
        self.module = RLModule.from_checkpoint(str(self.path.resolve()))  # pyarrow: absolute
        n = getattr(self.module.action_space, "n", None)
        if n != self.game.num_actions:
            raise ValueError(f"{spec} was trained for {n} actions, not {game!r} "
                             f"({self.game.num_actions})")
        self.deterministic = bool(deterministic)

    def act(self, observation, action_mask, rng: np.random.Generator) -> int:
        import torch

        mask = np.asarray(action_mask, dtype=np.float32)
        batch = {"obs": {
            "observations": torch.as_tensor(np.asarray(observation, np.float32)[None]),
            "action_mask": torch.as_tensor(mask[None])}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"][0]
        logits = logits.numpy().astype(np.float64)
        logits[mask == 0] = -np.inf                 # the module masks; be sure of it
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        return int(rng.choice(len(p), p=p / p.sum()))

    def __repr__(self) -> str:
        return f"RllibAgent(game={self.game.name!r}, path={str(self.path)!r})"
