"""agents/net_input.py and nets that read the heuristic's choice (NetConfig.hint)."""

import numpy as np
import pytest

from tests.helpers.positions import positions
from tradewinds import agents, registry
from tradewinds.agents import az_search, net_input, pvnet
from tradewinds.agents.heuristic import HeuristicAgent
from tradewinds.training.alphazero import warmstart


def copy_net(game, n: int) -> pvnet.Weights:
    """A hinted net that plays the hint: one hidden unit per action, lit only by it."""
    config = pvnet.NetConfig(game.name, n, game.obs_size, game.num_actions,
                             game.num_actions, 0, "heuristic")
    w = pvnet.random_weights(config, scale=0.0)
    for a in range(game.num_actions):
        w.w_in[game.obs_size + a, a] = 10.0
        w.w_pi[a, a] = 1.0
    return w


def copy_net_agent(tmp_path, game):
    """`net:<path>` with the net that plays the hint, at 2 players."""
    config = pvnet.NetConfig(game.name, 2, game.obs_size, game.num_actions,
                             game.num_actions, 0, "heuristic")
    path = pvnet.save(tmp_path / "copy.npz", copy_net(game, 2), config)
    return agents.make_agent(f"net:{path}", game=game.name)


@pytest.mark.parametrize("game_name", ["hansa", "voyage"])
def test_the_hint_is_the_heuristic_agents_choice_with_the_same_generator(game_name):
    game = registry.game(game_name)
    heuristic = HeuristicAgent(game_name)
    for i, s in enumerate(positions(game.name, 2, 12, seed=40)):
        p = game.current_player(s)
        obs, mask = game.observe(s, p), game.legal_mask(s)
        x = net_input.hinted(game, s.copy(), obs, np.random.default_rng(i))
        assert x.shape == (game.obs_size + game.num_actions,)
        np.testing.assert_array_equal(x[:game.obs_size], obs)
        tail = x[game.obs_size:]
        assert tail.sum() == 1.0
        want = heuristic.act(obs, mask, np.random.default_rng(i), state=s.copy())
        assert int(tail.argmax()) == want and mask[want]


def test_a_net_that_copies_the_hint_plays_the_heuristics_game(tmp_path):
    game = registry.game("voyage")
    net = copy_net_agent(tmp_path, game)
    heuristic = HeuristicAgent("voyage")
    s = game.new_state(2, 5)
    steps = 0
    while not game.is_terminal(s) and steps < 400:
        p = game.current_player(s)
        obs, mask = game.observe(s, p), game.legal_mask(s)
        a = net.act(obs, mask, np.random.default_rng(steps), state=s.copy())
        assert a == heuristic.act(obs, mask, np.random.default_rng(steps), state=s.copy())
        game.step(s, a)
        steps += 1
    assert steps == 400


def test_the_search_reads_the_hint_at_its_root():
    """With one simulation after the root, PUCT visits the action of the highest prior:
    the hint's, for the net that copies it."""
    game = registry.game("voyage")
    searcher = az_search.Searcher(game, copy_net(game, 2), 1,
                                  az_search.SearchConfig(simulations=2))
    heuristic = HeuristicAgent("voyage")
    for i, s in enumerate(positions(game.name, 2, 6, seed=70)):
        p = game.current_player(s)
        mask = game.legal_mask(s)
        if mask.sum() < 2:
            continue
        visits = searcher.run(s[None].copy(), np.array([p]), np.array([[i, 7]], np.int32))
        want = heuristic.act(game.observe(s, p), mask, np.random.default_rng(i), state=s.copy())
        assert int(visits[0].argmax()) == want


def test_a_net_widened_for_the_hint_plays_as_before_and_saves_its_hint(tmp_path):
    game = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, game.obs_size, game.num_actions, 16, 1)
    w = pvnet.random_weights(config, seed=2)
    wide, wide_config = pvnet.with_hint(w, config, "heuristic")
    assert wide_config.hint == "heuristic"
    assert wide.w_in.shape == (game.obs_size + game.num_actions, 16)
    obs = np.stack([game.observe(s, game.current_player(s))
                    for s in positions(game.name, 2, 5, seed=3)])
    x = np.concatenate([obs, np.eye(game.num_actions, dtype=np.float32)[:len(obs)]], 1)
    # bitwise: the input layer adds weight rows one input at a time, in order, so the zero
    # rows add exact zeros; the rest of the net sees the same hidden units in the same shapes
    np.testing.assert_array_equal(pvnet.run(w, obs)[0], pvnet.run(wide, x)[0])
    _, loaded, _ = pvnet.load(pvnet.save(tmp_path / "wide.npz", wide, wide_config))
    assert loaded == wide_config
    assert pvnet.load("agents/nets/hansa_2p.npz")[1].hint == ""     # files from before
    with pytest.raises(ValueError, match="already reads the hint"):
        pvnet.with_hint(wide, wide_config, "heuristic")
    with pytest.raises(ValueError, match="NetConfig.hint must be one of"):
        pvnet.NetConfig("hansa", 2, game.obs_size, game.num_actions, 16, 1, "oracle").check()


def test_a_hinted_net_wants_state_and_the_search_a_net_of_the_games_width(tmp_path):
    game = registry.game("voyage")
    net = copy_net_agent(tmp_path, game)
    s = game.new_state(2, 1)
    with pytest.raises(ValueError, match="needs state="):
        net.act(game.observe(s, 0), game.legal_mask(s), np.random.default_rng(0))
    hansa = registry.game("hansa")
    with pytest.raises(ValueError, match="cannot read voyage positions"):
        az_search.Searcher(game, pvnet.random_weights(
            pvnet.NetConfig("hansa", 2, hansa.obs_size, hansa.num_actions, 8, 0)), 1)


def test_hinted_records_hold_the_heuristics_label_as_their_hint():
    game = registry.game("voyage")
    plain = warmstart.heuristic_records(game, 2, 2, seed=8, every=4)
    hinted = warmstart.heuristic_records(game, 2, 2, seed=8, every=4, hint=True)
    assert hinted["obs"].shape[1] == game.obs_size + game.num_actions
    np.testing.assert_array_equal(hinted["obs"][:, :game.obs_size], plain["obs"])
    np.testing.assert_array_equal(hinted["obs"][:, game.obs_size:], plain["policy"])
    # where the net plays, its positions are recorded with the same hint and label
    played = warmstart.heuristic_records(game, 2, 2, seed=8, every=4, hint=True,
                                         net=copy_net(game, 2), beta=0.0)
    np.testing.assert_array_equal(played["obs"][:, game.obs_size:], played["policy"])
    with pytest.raises(ValueError, match="inputs for records of"):
        warmstart.heuristic_records(game, 2, 1, net=copy_net(game, 2), beta=0.0)
