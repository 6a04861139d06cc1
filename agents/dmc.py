"""`dmc` and `dmc:<path>`: a Deep Monte-Carlo Q-network (`training.dmc`) playing one seat.

``make_agent("dmc:results/train/dmc_hansa_2p/model.pt", game="hansa")`` loads a checkpoint
that `tradewinds train GAME --algo dmc` wrote; plain ``dmc`` loads the one shipped in the
package (``agents/checkpoints/<game>_2p_dmc.pt``) where there is one. The net maps the
seat's observation to one value per action id (the learner's expected return after
taking it); the agent plays the legal action of highest value, so it never plays an
illegal one whatever values the net gives the others.

The net (`build`), its greedy choice (`greedy`) and the batched predictor (`QPolicy`) live
here, beside the agent, so that a checkpoint plays without the trainer's module.
Loading sets torch to one thread (``threads=1``), as the `ppo` agent does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

CHECKPOINTS = Path(__file__).parent / "checkpoints"


def shipped(game: str) -> Path:
    """Where the shipped checkpoint of `game` (2 players) would be."""
    return CHECKPOINTS / f"{game}_2p_dmc.pt"


def build(obs_size: int, num_actions: int, net_arch):
    """The Q-network: an MLP (ReLU) from the observation to one value per action id."""
    import torch
    from stable_baselines3.common.torch_layers import create_mlp

    return torch.nn.Sequential(*create_mlp(int(obs_size), int(num_actions),
                                           [int(x) for x in net_arch]))


def greedy(q, masks):
    """The legal action of highest value in each row (a tensor of action ids): illegal
    actions are set to -inf first, so they are never chosen while a legal one exists."""
    import torch

    masks = torch.as_tensor(np.asarray(masks, dtype=bool))
    return q.masked_fill(~masks, -torch.inf).argmax(dim=1)


class QPolicy:
    """A Q-network as a batched predictor: greedy over the legal actions. It answers both
    the VecEnv's opponents (``predict(obs, action_masks=...)``, `training.pool`'s snapshots)
    and the evaluation (``predict(..., deterministic=True)``, `training.evaluate`)."""

    def __init__(self, net, step: int = 0):
        self.net = net
        self.step = int(step)

    def predict(self, observations, action_masks=None, deterministic: bool = True):
        import torch

        if action_masks is None:
            raise ValueError("a DMC policy needs action_masks: it picks among legal actions")
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
        with torch.no_grad():
            actions = greedy(self.net(obs), action_masks)
        return actions.numpy().astype(np.int64), None

    def state_dict(self) -> dict:
        return self.net.state_dict()

    def __repr__(self) -> str:
        return f"QPolicy(step={self.step})"


def load(path: Path) -> tuple:
    """(net, checkpoint dict) of a checkpoint written by `training.dmc`; ValueError naming
    the file when it is not one."""
    import torch

    try:
        saved = torch.load(path, map_location="cpu", weights_only=True)
        net = build(saved["obs_size"], saved["num_actions"], saved["net_arch"])
        net.load_state_dict(saved["net"])
    except Exception as e:  # noqa: BLE001 - any file that is not a DMC checkpoint
        raise ValueError(f"{path} is not a DMC checkpoint: {' '.join(str(e).split())}") from None
    net.eval()
    for p in net.parameters():
        p.requires_grad_(False)
    return net, saved


class DMCAgent:
    """A DMC checkpoint as an agent (`act(observation, action_mask, rng)`), greedy."""

    name = "dmc"

    def __init__(self, game: str = "hansa", spec: str | None = None, threads: int = 1):
        from tradewinds import registry
        from tradewinds.cli_args import require_train_extra

        require_train_extra("the dmc agent")
        import torch

        self.game = registry.game(game)
        path = Path(spec) if spec else shipped(game)
        if not path.is_file():
            what = f"no checkpoint at {path}" if spec else (
                f"no shipped dmc checkpoint for {game!r}")
            raise ValueError(f"{what}; train one with `tradewinds train {game} --algo dmc` "
                             f"and play it as dmc:<path to model.pt>")
        if threads:
            torch.set_num_threads(int(threads))
        net, saved = load(path)
        shape = (int(saved["obs_size"]), int(saved["num_actions"]))
        if shape != (self.game.obs_size, self.game.num_actions):
            raise ValueError(f"{path} was trained for {shape[0]} observations and {shape[1]} "
                             f"actions, not {game!r} ({self.game.obs_size} and "
                             f"{self.game.num_actions})")
        self.policy = QPolicy(net, saved.get("steps", 0))
        self.path = path

    def act(self, observation, action_mask, rng: np.random.Generator) -> int:
        mask = np.asarray(action_mask, dtype=bool)[None]
        actions, _ = self.policy.predict(np.asarray(observation, dtype=np.float32)[None], mask)
        return int(actions[0])

    def __repr__(self) -> str:
        return f"DMCAgent(game={self.game.name!r}, path={str(self.path)!r})"
