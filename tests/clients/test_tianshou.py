"""Tianshou 2.0 drives the AEC envs through its own wrapper, unchanged: `PettingZooEnv`
over four envs in a `DummyVectorEnv`, masked random policies, a `Collector` storing
whole episodes in a `VectorReplayBuffer`. Its buffers are fixed-shape arrays, so every
info key must keep one shape across steps and seeds (a winners list that grew with a
shared win crashed it: "value array of shape (4,2) could not be broadcast ... (4,1)").
"""

from __future__ import annotations

from importlib.util import find_spec

import numpy as np
import pytest

import tradewinds

# Tianshou is imported in the test, not at collection: every xdist worker collects this
# file and only one runs it (the import takes seconds).
pytestmark = pytest.mark.skipif(find_spec("tianshou") is None, reason="needs tianshou")

ENVS = 4


def _episodes(buffer):
    """Each sub-buffer's steps in order, cut into episodes at their ends."""
    for sub in buffer.buffers:
        steps = sub[np.arange(len(sub))]
        start = 0
        for i in np.flatnonzero(steps.done):
            yield steps[start:i + 1]
            start = i + 1


@pytest.mark.parametrize("game,n", [("hansa", 2), ("hansa", 4), ("voyage", 2), ("voyage", 4)])
def test_the_collector_plays_whole_episodes_of_legal_moves(game, n):
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make():
        return PettingZooEnv(tradewinds.make(game, num_players=n, illegal_action="raise"))

    probe = make()
    random = MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(probe.action_space)
    policy = MultiAgentPolicy({agent: random for agent in probe.agents})
    envs = DummyVectorEnv([make] * ENVS)
    envs.seed([10 * n + i for i in range(ENVS)])
    buffer = VectorReplayBuffer(20_000 * ENVS, ENVS)
    np.random.seed(n)                  # the random policy draws from numpy's global generator
    stats = Collector(policy, envs, buffer).collect(n_episode=ENVS, reset_before_collect=True)
    assert stats.n_collected_episodes == ENVS

    episodes = list(_episodes(buffer))
    assert len(episodes) >= ENVS
    for ep in episodes:
        mask = np.asarray(ep.obs.mask, bool)
        assert mask[np.arange(len(ep)), ep.act].all()            # every action legal
        assert not ep.done[:-1].any() and ep.done[-1]
        won = np.asarray(ep.info.won[-1])
        scores = np.asarray(ep.info.scores[-1])
        assert won.shape == scores.shape == (n,) and won.sum() >= 1
        assert (scores[won == 1] == scores.max()).all()           # winners have the most VP
        # the rewards of the episode are the game's returns: the winners share 1
        np.testing.assert_allclose(np.asarray(ep.rew).sum(0), won / won.sum(), atol=1e-9)
