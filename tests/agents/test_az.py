"""The policy-value net (agents.pvnet), its torch twin and the net-guided search."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.searches import count_searches
from tradewinds import agents, registry
from tradewinds.agents import az, az_search, pvnet


def small_config(game, n=2, hidden=32, blocks=1):
    g = registry.game(game)
    return pvnet.NetConfig(game, n, g.obs_size, g.num_actions, hidden, blocks)


def test_masked_softmax_puts_nothing_on_illegal_actions():
    logits = np.array([5.0, 1.0, 9.0, -2.0], np.float32)
    mask = np.array([1, 1, 0, 1], np.int8)
    out = np.zeros(4, np.float32)
    pvnet.masked_softmax(logits, mask, out)
    assert out[2] == 0.0
    assert out.sum() == pytest.approx(1.0)
    assert out[0] > out[1] > out[3] > 0


def test_seat_values_rotate_to_absolute_seats_and_sum_to_one():
    out = np.zeros(4)
    pvnet.seat_values(np.array([2.0, 0.0, 1.0, 50.0], np.float32), 3, 2, out)
    assert out.sum() == pytest.approx(1.0)
    assert out[3] == 0.0                       # absent seat, whatever its logit
    assert out[2] > out[1] > out[0]            # observer 2 gets entry 0, seat 0 entry 1


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_numba_forward_equals_torch_forward(game):
    torch = pytest.importorskip("torch")
    from tradewinds.training.alphazero.net import PolicyValueNet

    config = small_config(game, n=3, blocks=2)
    net = PolicyValueNet(config)
    torch.nn.init.normal_(net.v.weight)       # the value head starts at zero: perturb it
    g = registry.game(game)
    obs = np.stack([g.observe(g.new_state(3, i), i % 3) for i in range(5)])
    with torch.no_grad():
        t_logits, t_values = net(torch.from_numpy(obs))
    logits, values = pvnet.run(net.to_weights(), obs)
    np.testing.assert_allclose(logits, t_logits.numpy(), atol=1e-4)
    np.testing.assert_allclose(values[:, :3], t_values.numpy()[:, :3], atol=1e-4)
    assert np.isneginf(t_values.numpy()[:, 3]).all()       # the absent fourth seat
    back = PolicyValueNet(config)
    back.load_weights(net.to_weights())
    for a, b in zip(net.parameters(), back.parameters(), strict=True):
        assert torch.equal(a, b)


def test_save_load_round_trip_and_bad_files(tmp_path):
    config = small_config("hansa")
    w = pvnet.random_weights(config, seed=1)
    path = pvnet.save(tmp_path / "n.npz", w, config, {"command": "x"})
    w2, config2, meta = pvnet.load(path)
    assert config2 == config and meta == {"command": "x"}
    for a, b in zip(w, w2, strict=True):
        np.testing.assert_array_equal(a, b)
    (tmp_path / "junk.npz").write_bytes(b"not a net")
    with pytest.raises(ValueError, match="not a tradewinds net file"):
        pvnet.load(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="no net file"):
        pvnet.load(tmp_path / "missing.npz")
    wrong = w._replace(w_pi=np.zeros((3, 3), np.float32))
    with pytest.raises(ValueError, match="w_pi"):
        pvnet.save(tmp_path / "w.npz", wrong, config)


def _policy_net(config, favourite: int) -> pvnet.Weights:
    """A stub net: flat value, policy logits +8 on `favourite`, 0 elsewhere."""
    w = pvnet.random_weights(config, seed=0, scale=0.0)
    b_pi = np.zeros(config.num_actions, np.float32)
    b_pi[favourite] = 8.0
    return w._replace(b_pi=b_pi)


def _search(game, weights, roots, sims, seed=0):
    g = registry.game(game)
    searcher = az_search.Searcher(g, weights, len(roots),
                                  az_search.SearchConfig(simulations=sims))
    players = np.array([g.current_player(r) for r in roots], np.int64)
    keys = np.arange(2 * len(roots), dtype=np.int32).reshape(-1, 2) + seed
    return searcher.run(np.stack(roots), players, keys)


def test_search_follows_a_stub_prior_and_counts_every_simulation():
    g = registry.game("hansa")
    root = g.new_state(2, 5)
    legal = np.flatnonzero(g.legal_mask(root))
    assert legal.size > 2
    config = small_config("hansa")
    visits = _search("hansa", _policy_net(config, int(legal[1])), [root], 60)[0]
    assert visits.sum() == 59                          # the root's own evaluation is one
    assert visits[np.setdiff1d(np.arange(g.num_actions), legal)].sum() == 0
    assert np.argmax(visits) == legal[1]
    # a flat net: PUCT with equal priors and equal values tries every action
    flat = _search("hansa", pvnet.random_weights(config, 0, scale=0.0), [root], 60)[0]
    assert (flat[legal] > 0).all()


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_batched_search_equals_one_game_searches(game):
    g = registry.game(game)
    config = small_config(game)
    w = pvnet.random_weights(config, seed=4)
    roots = [g.new_state(2, s) for s in (1, 2, 3)]
    together = _search(game, w, roots, 40)
    for i, r in enumerate(roots):
        alone = az_search.Searcher(g, w, 1, az_search.SearchConfig(simulations=40))
        key = (np.arange(2 * len(roots), dtype=np.int32).reshape(-1, 2))[i:i + 1].copy()
        v = alone.run(r[None].copy(), np.array([g.current_player(r)], np.int64), key)
        np.testing.assert_array_equal(v[0], together[i])


def test_net_agents_play_legal_games_and_refuse_a_wrong_net(tmp_path):
    from tradewinds.studies import arena

    config = small_config("voyage")
    path = pvnet.save(tmp_path / "v.npz", pvnet.random_weights(config, 2), config)
    study = arena.Study.create("voyage", 2, [f"az:{path}", f"net:{path}"],
                               options={"max_rounds": 6}, seating="rotate",
                               agent_kwargs={f"az:{path}": {"simulations": 8}})
    rows = arena.play_chunk(study, range(2))
    assert all(r["steps"] > 0 for r in rows)            # every move legal, or step raises
    with pytest.raises(ValueError, match="not for 'hansa'"):
        agents.make_agent(f"net:{path}", game="hansa")
    with pytest.raises(ValueError, match="for 2 players, the game has 3"):
        agent = agents.make_agent(f"net:{path}", game="voyage")
        g = registry.game("voyage")
        s = g.new_state(3, 0)
        agent.act(g.observe(s, 0), g.legal_mask(s), np.random.default_rng(0))


@pytest.mark.parametrize("path", sorted(az.NETS.glob("*.npz")), ids=lambda p: p.stem)
def test_shipped_nets_fit_their_games_and_say_how_they_were_made(path):
    """agents/nets/<game>_<n>p.npz: small, for that game and count, with the command that
    trained it and its rating (training.alphazero.ship writes them)."""
    from tradewinds import registry

    assert path.stat().st_size < 10 * 2**20
    _, config, meta = pvnet.load(path)
    g = registry.game(config.game)
    assert path.stem == f"{config.game}_{config.num_players}p"
    assert (config.obs_size, config.num_actions) == (g.obs_size, g.num_actions)
    assert "--algo alphazero" in meta["command"] and meta["rated"]["games"] >= 200


def test_az_with_a_number_searches_that_many_simulations_with_the_shipped_net():
    """`az:<N>` is `az` with N simulations (as `mcts:<N>`); with simulations= too it is
    refused, and any other spec is a net file."""
    agent = agents.make_agent("az:37", game="hansa")
    assert agent.name == "az:37" and agent.config.simulations == 37
    assert agent.nets.path is None                        # the shipped nets
    with pytest.raises(ValueError, match="names the simulations"):
        agents.make_agent("az:37", game="hansa", simulations=5)
    with pytest.raises(ValueError, match="no net file at no_such_net.npz"):
        agents.make_agent("az:no_such_net.npz", game="hansa")


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_root_values_are_the_mean_seat_values_of_the_roots_simulations(game):
    """Every simulation passes through one root child, whose value holds the root
    player's entry: so the root's value sum less its own evaluation is its children's
    sum, and each seat-value vector sums to 1, the visits in all."""
    g = registry.game(game)
    config = small_config(game)
    w = pvnet.random_weights(config, seed=6)
    roots = [g.new_state(2, s) for s in (3, 4)]
    searcher = az_search.Searcher(g, w, 2, az_search.SearchConfig(simulations=50))
    players = np.array([g.current_player(r) for r in roots], np.int64)
    searcher.run(np.stack(roots), players, np.arange(4, dtype=np.int32).reshape(2, 2))
    q = searcher.root_values(2)
    f = searcher.forest
    for i in range(2):
        n = f.visits[i, 0]
        np.testing.assert_allclose(q[i].sum(), 1.0, atol=1e-9)
        kids = f.children[i, 0][f.children[i, 0] >= 0]
        own = float(f.netval[i, 0, players[i]])
        np.testing.assert_allclose(q[i, players[i]] * n - own, f.value[i, kids].sum(), atol=1e-6)
        assert f.visits[i, kids].sum() == n - 1
        assert 0 < q[i, players[i]] < 1


@pytest.mark.parametrize("game", ["hansa", "voyage"])
@pytest.mark.parametrize("judge,depth", [(0.0, 0), (0.5, 0), (1.0, 0), (0.5, 3), (1.0, -1)])
def test_a_judged_leaf_mixes_the_nets_value_with_the_games_judgement(game, judge, depth):
    """With `judge` j a leaf's value is (1 - j) x the net's + j x `playouts.judge` of
    the leaf after `depth` heuristic decisions (-1: to the end): one simulation past the
    root, replayed by hand on the same determinization and generator."""
    from tradewinds.agents import playouts

    g = registry.game(game)
    root = g.new_state(2, 7)
    gen = np.random.default_rng(3)
    for _ in range(40):                                 # a position past the even opening
        g.step(root, int(gen.choice(np.flatnonzero(g.legal_mask(root)))))
    player = g.current_player(root)
    flat = pvnet.random_weights(small_config(game), 0, scale=0.0)   # net value: 1/2 each
    config = az_search.SearchConfig(simulations=2, judge=judge, judge_depth=depth)
    searcher = az_search.Searcher(g, flat, 1, config)
    key = np.array([[11, 12]], np.int32)
    searcher.run(root[None].copy(), np.array([player], np.int64), key.copy())
    f = searcher.forest
    kids = np.flatnonzero(f.children[0, 0] >= 0)
    assert kids.size == 1 and f.visits[0, f.children[0, 0, kids[0]]] == 1
    replay_key = key[0].copy()
    s = g.determinize(root, player, replay_key)         # the search's first determinization
    g.step(s, int(kids[0]))
    leaf = s.copy()
    if judge and depth:
        buf, words = playouts.scratch_mask(g.num_actions)
        playouts.rollout(g.aux, s, buf[:g.num_actions], words, replay_key,
                         playouts.ROLLOUTS["heuristic"], depth)
        assert not np.array_equal(s, leaf)              # the rollout moved the game on
        assert g.is_terminal(s) == (depth == -1)
    judged, scratch = np.zeros(4), np.zeros(4)
    playouts.judge(g.aux, s, judged, scratch, 5.0)
    expect = (1 - judge) * 0.5 + judge * judged[player]
    np.testing.assert_allclose(f.value[0, f.children[0, 0, kids[0]]], expect, atol=1e-6)
    if judge:
        assert abs(judged[player] - 0.5) > 1e-3        # the judgement says something else
    with pytest.raises(ValueError, match="judge_depth must be -1"):
        az_search.SearchConfig(judge_depth=-2).check()


def test_az_takes_its_judge_from_the_net_unless_given(tmp_path):
    config = small_config("hansa")
    path = pvnet.save(tmp_path / "j.npz", pvnet.random_weights(config, 1), config,
                      {"search": {"judge": 0.25}})
    g = registry.game("hansa")
    assert agents.make_agent(f"az:{path}", game="hansa")._searcher(2).config.judge == 0.25
    given = agents.make_agent(f"az:{path}", game="hansa", judge=0.0)
    assert given._searcher(2).config.judge == 0.0
    with pytest.raises(ValueError, match="judge must be in"):
        agents.make_agent(f"az:{path}", game="hansa", judge=2.0)
    assert g.num_actions == config.num_actions


def test_az_takes_simulations_and_c_from_the_net_unless_given(tmp_path):
    config = small_config("hansa")
    path = pvnet.save(tmp_path / "s.npz", pvnet.random_weights(config, 1), config,
                      {"search": {"simulations": 37, "c": 2.5}})
    searched = agents.make_agent(f"az:{path}", game="hansa")._searcher(2).config
    assert (searched.simulations, searched.c, searched.judge) == (37, 2.5, 0.0)
    given = agents.make_agent(f"az:{path}", game="hansa", simulations=5)._searcher(2).config
    assert (given.simulations, given.c) == (5, 2.5)
    bad = pvnet.save(tmp_path / "b.npz", pvnet.random_weights(config, 1), config,
                     {"search": {"simulations": 0}})
    with pytest.raises(ValueError, match="simulations must be a positive integer"):
        agents.make_agent(f"az:{bad}", game="hansa")._searcher(2)
    odd = pvnet.save(tmp_path / "o.npz", pvnet.random_weights(config, 1), config,
                     {"search": {"rollouts": 3}})
    with pytest.raises(ValueError, match=r"unknown search settings \['rollouts'\]"):
        agents.make_agent(f"az:{odd}", game="hansa")._searcher(2)


def test_search_config_is_what_the_searcher_plays_with(tmp_path):
    config = small_config("hansa")
    meta = {"search": {"simulations": 37, "c": 2.5}}
    path = pvnet.save(tmp_path / "m.npz", pvnet.random_weights(config, 1), config, meta)
    agent = agents.make_agent(f"az:{path}", game="hansa", simulations=5)
    searched = agent.search_config(meta)
    assert searched == agent._searcher(2).config
    assert (searched.simulations, searched.c) == (5, 2.5)
    assert agent.search_config({}).c == agent.config.c


def test_unsearched_families_are_played_by_the_raw_policy_and_the_rest_searched(
        tmp_path, monkeypatch):
    """With ``unsearched=("move",)`` az plays the raw policy's choice wherever it is a
    move step, with no search, and searches every other decision."""
    from tradewinds.studies.positions import decision_positions

    g = registry.game("voyage")
    found = decision_positions(g, 2, 60, seed=4)
    config = small_config("voyage")
    path = pvnet.save(tmp_path / "v.npz", pvnet.random_weights(config, 2), config)
    net = agents.make_agent(f"net:{path}", game="voyage")
    hybrid = agents.make_agent(f"az:{path}", game="voyage", simulations=8,
                               unsearched=("move",))
    searched = count_searches(monkeypatch)
    moves = others = 0
    for s in found:
        p = g.current_player(s)
        obs, mask = g.observe(s, p), g.legal_mask(s)
        raw = net.act(obs, mask, np.random.default_rng(0))
        before = len(searched)
        choice = hybrid.act(obs, mask, np.random.default_rng(0), state=s.copy())
        if g.action_name(raw).startswith("move"):
            assert choice == raw and len(searched) == before
            moves += 1
        else:
            assert len(searched) == before + 1
            others += 1
    assert moves >= 5 and others >= 5


def test_unsearched_comes_from_the_caller_or_the_nets_metadata(tmp_path):
    config = small_config("voyage")
    meta = {"search": {"unsearched": ["move"], "simulations": 9}}
    path = pvnet.save(tmp_path / "v.npz", pvnet.random_weights(config, 1), config, meta)
    agent = agents.make_agent(f"az:{path}", game="voyage")
    assert agent.unsearched(meta) == ("move",)
    assert agent.search_config(meta).simulations == 9
    mine = agents.make_agent(f"az:{path}", game="voyage", unsearched=("bid", "cards"))
    assert mine.unsearched(meta) == ("bid", "cards")
    assert agents.make_agent(f"az:{path}", game="voyage").unsearched({}) == ()
    with pytest.raises(ValueError, match="voyage has no action family sail"):
        agents.make_agent(f"az:{path}", game="voyage", unsearched=("sail",))
    with pytest.raises(ValueError, match="unsearched takes action families as a list"):
        agents.make_agent(f"az:{path}", game="voyage", unsearched="move")
