"""`tradewinds train --backend rllib` (issue 9, item 5): RLlib's PettingZoo wrapper and
action-masking PPO module train the shared self-play policy; one iteration in a local Ray."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from tradewinds import cli  # noqa: E402
from training.rllib import make_env  # noqa: E402


def test_the_rllib_env_gives_masked_observations_of_the_deciding_seat():
    env = make_env({"game": "voyage", "num_players": 3, "reward": "win"})
    obs, _ = env.reset(seed=3)
    (agent, o), = obs.items()
    assert set(o) == {"observations", "action_mask"}
    assert o["observations"].shape == env.observation_space[agent]["observations"].shape
    for _ in range(50):
        (agent, o), = obs.items()
        legal = np.flatnonzero(o["action_mask"])
        assert legal.size > 0
        obs, _, term, trunc, _ = env.step({agent: int(legal[0])})
        if term["__all__"] or trunc["__all__"]:
            break


def test_rllib_refuses_the_sb3_only_flags(capsys):
    assert cli.main(["train", "hansa", "--backend", "rllib", "--resume"]) == cli.EXIT_ERROR
    assert "--resume" in capsys.readouterr().err


def test_one_rllib_iteration_trains_and_saves(tmp_path):
    from training.rllib import RllibConfig, train_rllib

    lines = []
    history = train_rllib(RllibConfig(game="hansa", players=2, iterations=1, out=str(tmp_path),
                                      train_batch_size=256, minibatch_size=64, num_epochs=1),
                          log=lines.append)
    assert history[0]["iteration"] == 1 and history[0]["env_steps"] >= 256
    assert any(p.is_file() for p in (tmp_path / "rllib").rglob("*"))
    assert "iteration 1" in lines[0]
