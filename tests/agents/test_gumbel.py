"""The Gumbel root (agents/gumbel.py, agents/az_search.py with root="gumbel")."""

from __future__ import annotations

import numpy as np
import pytest

from tradewinds import agents, registry
from tradewinds.agents import az_search, gumbel, pvnet


@pytest.mark.parametrize("sims,m", [(16, 4), (200, 16), (7, 16), (3, 1), (50, 3)])
def test_halving_spends_exactly_the_budget_on_halving_candidates(sims, m):
    phases = gumbel.halving(sims, m)
    ks = [k for k, _ in phases]
    assert ks[0] == m and all(b <= a for a, b in zip(ks, ks[1:], strict=False))
    assert all(k >= min(2, m) for k in ks)
    spent = 0
    for k, each in phases:
        spent += min(k * each, sims - spent)
    assert spent == sims
    assert gumbel.halving(16, 4) == [(4, 2), (2, 4)]


def test_completed_q_mixes_the_net_value_for_unvisited_actions():
    q = np.array([0.8, 0.0, 0.2])
    n = np.array([3, 0, 1])
    prior = np.array([0.5, 0.25, 0.25])
    cq = gumbel.completed_q(q, n, prior, raw_value=0.4)
    mean_q = (0.5 * 0.8 + 0.25 * 0.2) / 0.75
    assert cq[0] == 0.8 and cq[2] == 0.2
    assert cq[1] == pytest.approx((0.4 + 4 * mean_q) / 5)
    pi = gumbel.improved_policy(np.log(prior), cq, n)
    assert pi.sum() == pytest.approx(1.0) and np.argmax(pi) == 0
    assert pi[0] > prior[0]                     # the best Q gains on its prior


def _net(config, logits: dict[int, float]) -> pvnet.Weights:
    """A stub net: flat value, the given policy logits, 0 elsewhere."""
    w = pvnet.random_weights(config, seed=0, scale=0.0)
    b = np.zeros(config.num_actions, np.float32)
    for a, v in logits.items():
        b[a] = v
    return w._replace(b_pi=b)


def _searcher(g, w, games, sims, **kw):
    return az_search.Searcher(g, w, games, az_search.SearchConfig(
        simulations=sims, root="gumbel", **kw))


def test_without_draws_the_prior_top_m_get_the_halving_visits():
    """Gumbel scale 0, a flat value: the m actions with the largest logits are the
    candidates; 16 simulations over 4 give 2, 2, 6, 6 (two phases), the rest nothing."""
    g = registry.game("hansa")
    root = g.new_state(2, 5)
    legal = np.flatnonzero(g.legal_mask(root))
    assert legal.size > 4
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 16, 1)
    top = legal[[3, 0, 2, 1]]
    w = _net(config, {int(a): 4.0 - i for i, a in enumerate(top)})
    s = _searcher(g, w, 1, 17, gumbel_m=4, gumbel_scale=0.0)
    visits = s.run(root[None].copy(), np.array([g.current_player(root)]),
                   np.zeros((1, 2), np.int32))[0]
    assert visits.sum() == 16
    assert sorted(visits[top].tolist()) == [2, 2, 6, 6]
    assert visits[np.setdiff1d(legal, top)].sum() == 0
    assert s.chosen[0] in top[visits[top] == 6]
    assert s.improved[0][np.setdiff1d(np.arange(g.num_actions), legal)].sum() == 0
    assert s.improved[0].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_batched_gumbel_search_equals_one_game_searches(game):
    g = registry.game(game)
    config = pvnet.NetConfig(game, 2, g.obs_size, g.num_actions, 16, 1)
    w = pvnet.random_weights(config, seed=4)
    roots = np.stack([g.new_state(2, s) for s in (1, 2, 3)])
    players = np.array([g.current_player(r) for r in roots], np.int64)
    keys = np.arange(6, dtype=np.int32).reshape(3, 2)
    together = _searcher(g, w, 3, 33)
    visits = together.run(roots.copy(), players, keys.copy())
    for i in range(3):
        alone = _searcher(g, w, 1, 33)
        v = alone.run(roots[i:i + 1].copy(), players[i:i + 1], keys[i:i + 1].copy())
        np.testing.assert_array_equal(v[0], visits[i])
        assert alone.chosen[0] == together.chosen[i]
        # The visits and the choice are the contract: batching changes no decision. The
        # improved policy is float32 from the net, whose product over 3 rows and over 1 row
        # BLAS may sum in another order (per CPU kernel): a few float32 ulps apart
        # (7.7e-07 seen on AMD EPYC). 1e-5 admits that; another root's or another key's
        # search differs by orders more.
        np.testing.assert_allclose(alone.improved[0], together.improved[i], rtol=0, atol=1e-5)


def test_the_gumbel_az_agent_plays_its_halving_winner_and_refuses_a_time_budget(tmp_path):
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 16, 1)
    path = pvnet.save(tmp_path / "n.npz", pvnet.random_weights(config, seed=2), config)
    agent = agents.make_agent(f"az:{path}", game="hansa", simulations=24, root="gumbel")
    s = g.new_state(2, 9)
    a = agent.act(g.observe(s, 0), g.legal_mask(s), np.random.default_rng(1), state=s)
    assert a == agent._searchers[2].chosen[0] and g.legal_mask(s)[a]
    with pytest.raises(ValueError, match="time_budget needs root='puct'"):
        agents.make_agent(f"az:{path}", game="hansa", root="gumbel", time_budget=1.0)
    with pytest.raises(ValueError, match="root must be one of puct, gumbel"):
        agents.make_agent(f"az:{path}", game="hansa", root="gumble")


def test_a_net_that_asks_for_the_gumbel_root_refuses_a_time_budget_in_the_same_words(tmp_path):
    """The net's metadata names the root only when the search is built, after the agent
    took `time_budget`; the searcher refuses it before it searches, as the agent does."""
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 16, 1)
    path = pvnet.save(tmp_path / "n.npz", pvnet.random_weights(config, seed=2), config,
                      {"search": {"root": "gumbel"}})
    agent = agents.make_agent(f"az:{path}", game="hansa", time_budget=1.0)
    s = g.new_state(2, 9)
    before = s.copy()
    with pytest.raises(ValueError, match="time_budget needs root='puct'"):
        agent.act(g.observe(s, 0), g.legal_mask(s), np.random.default_rng(1), state=s)
    assert np.array_equal(s, before)
