"""TorchRL 0.14 drives the AEC envs through its own wrapper, unchanged: `PettingZooWrapper`
with `use_mask=True` (compulsory for AEC envs), one group per player, and `env.rollout`
with a masked random policy that reads only what TorchRL exposes: the acting player is
the group whose `"mask"` is set, its legal moves the group's `"action_mask"`. TorchRL
builds its specs from the reset infos and ends the rollout when every player is done, so
a whole game is one rollout; its rewards are summed per player and checked against the
returns the game reports in its final infos.
"""

from __future__ import annotations

import warnings
from importlib.util import find_spec

import numpy as np
import pytest

import tradewinds

# TorchRL is imported in the tests, not at collection: every xdist worker collects this
# file and only one runs it (the import takes seconds).
pytestmark = pytest.mark.skipif(find_spec("torchrl") is None, reason="needs torchrl")

EPISODES = 2
MAX_STEPS = 20_000


def _masked_random(env, raw, gen, taken):
    """Uniform over the legal moves of the acting group; the others' actions are ignored."""
    import torch

    def policy(td):
        acting = [g for g in env.group_map if td[g, "mask"].any()]
        assert len(acting) == 1                                  # AEC: one player at a time
        group = acting[0]
        legal = td[group, "action_mask"][0]
        # the mask TorchRL exposes is our env's own mask for the player to move
        assert env.group_map[group] == [raw.agent_selection]
        ours = np.asarray(raw.observe(raw.agent_selection)["action_mask"], bool)
        np.testing.assert_array_equal(legal.numpy(), ours)
        for g in env.group_map:
            td[g, "action"] = torch.zeros_like(env.full_action_spec[g, "action"].zero())
        choices = legal.nonzero().flatten()
        action = choices[torch.randint(len(choices), (1,), generator=gen)]
        td[group, "action"] = action.reshape(td[group, "action"].shape)
        taken.append((ours, int(action)))
        return td
    return policy


@pytest.mark.parametrize("game,n", [("hansa", 2), ("hansa", 4), ("voyage", 2), ("voyage", 4)])
def test_rollouts_play_whole_episodes_of_legal_moves(game, n):
    import torch
    from torchrl.envs import PettingZooWrapper

    raw = tradewinds.make(game, num_players=n, illegal_action="raise")
    with warnings.catch_warnings():        # "tested using PettingZoo == 1.24.3"
        warnings.simplefilter("ignore", UserWarning)
        env = PettingZooWrapper(raw, use_mask=True, seed=10 * n)
    assert list(env.group_map) == raw.possible_agents           # one group per player
    gen = torch.Generator().manual_seed(n)

    for _ in range(EPISODES):              # each rollout resets the env first
        taken = []
        rollout = env.rollout(MAX_STEPS, policy=_masked_random(env, raw, gen, taken),
                              break_when_any_done=True)
        steps = rollout.batch_size[0]
        assert 0 < steps < MAX_STEPS and len(taken) == steps
        for mask, action in taken:                               # every action legal
            assert mask[action]
        done = rollout["next", "done"].flatten()
        assert not done[:-1].any() and done[-1]                  # the episode ended, once
        for g in env.group_map:
            assert rollout["next", g, "done"][-1].all()
        # the acting player recorded by TorchRL took legal moves in its own data too
        for g in env.group_map:
            acted = rollout[g, "mask"].flatten()
            act = rollout[g, "action"].flatten()[acted]
            assert rollout[g, "action_mask"][:, 0][acted, act].all()

        won = np.asarray(raw.infos[raw.possible_agents[0]]["won"])
        scores = np.asarray(raw.infos[raw.possible_agents[0]]["scores"])
        assert won.shape == scores.shape == (n,) and won.sum() >= 1
        assert (scores[won == 1] == scores.max()).all()          # winners have the most VP
        # the rewards of the episode are the game's returns: the winners share 1
        returns = np.array([rollout["next", g, "reward"].sum().item() for g in env.group_map])
        np.testing.assert_allclose(returns, won / won.sum(), atol=1e-6)
