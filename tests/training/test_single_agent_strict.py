"""SingleAgentEnv is as strict as the AEC env: arguments and actions are
checked, an ended episode must be reset, the env copies and pickles, Gymnasium's
check_env passes with every default, and both envs' observation spaces are the real
bounds of the observations."""

import copy
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tradewinds
from tradewinds.protocol import IllegalActionError
from tradewinds.training.single_agent import ENV_IDS, SingleAgentEnv


@pytest.mark.parametrize("kwargs, message", [
    ({"render_mode": "bogus"}, "render_mode must be"),
    ({"seat": 2}, "seat must be"),
    ({"seat": True}, "seat must be"),
    ({"seat": 0.0}, "seat must be"),
    ({"seat": "first"}, "seat must be"),
    ({"reward": "money"}, "reward must be"),
    ({"illegal_action": "ignore"}, "illegal_action must be"),
    ({"num_players": 5}, "played by 2 to 4"),
    ({"opponents": [object()]}, "opponents must be"),
    ({"opponents": [], "num_players": 3}, "need 2 opponents"),
    ({"opponents": 3}, "opponents must be"),
    ({"bogus": 1}, "bad option"),
    ({"max_rounds": 0}, "max_rounds"),
    ({"game": "chess"}, "unknown game"),
])
def test_bad_arguments_are_named(kwargs, message):
    kwargs = {"game": "hansa", "num_players": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**kwargs)


def test_reset_options_and_seed_are_checked():
    env = SingleAgentEnv("hansa")
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"bogus": 1})
    env.reset(options={})
    with pytest.raises(gym.error.Error):
        env.reset(seed=-1)


@pytest.mark.parametrize("action", [1.5, True, np.bool_(True), 999, -1, None, [1],
                                    np.array([1]), np.float64(1.0)])
def test_values_that_are_not_actions_raise_in_every_mode(action):
    for mode in ("lose", "raise"):
        env = SingleAgentEnv("hansa", illegal_action=mode)
        env.reset(seed=0)
        before = env.state.copy()
        with pytest.raises(ValueError, match="action must be"):
            env.step(action)
        np.testing.assert_array_equal(env.state, before)


def test_actions_may_be_ints_numpy_scalars_0d_arrays_or_names():
    env = SingleAgentEnv("hansa")
    env.reset(seed=0)
    legal = np.flatnonzero(env.action_masks())
    for action in (int(legal[0]), np.int64(legal[0]), np.array(legal[0]),
                   env.game.action_name(int(legal[0]))):
        env.reset(seed=0)
        obs, reward, term, trunc, info = env.step(action)
        assert not term and not trunc


def test_reset_needed_before_the_first_episode():
    env = SingleAgentEnv("hansa", render_mode="ansi")
    for call in (lambda: env.step(0), env.action_masks, env.render):
        with pytest.raises(gym.error.ResetNeeded, match="reset"):
            call()
    assert SingleAgentEnv("hansa").render() is None   # no render mode: nothing to draw
    env.reset(seed=0)
    assert "Copenhagen" in env.render()


def test_illegal_action_loses_and_the_episode_stays_over():
    env = SingleAgentEnv("hansa", num_players=3)
    env.reset(seed=4)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.state.copy()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == illegal and "is illegal" in info["reason"]
    np.testing.assert_array_equal(env.state, before)
    assert not env.action_masks().any()
    for action in (illegal, int(np.flatnonzero(env.game.legal_mask(env.state))[0])):
        with pytest.raises(gym.error.ResetNeeded, match="episode is over"):
            env.step(action)
    env.reset(seed=5)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_raise_mode_names_the_action_and_keeps_the_episode():
    env = SingleAgentEnv("voyage", num_players=2, illegal_action="raise")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError, match="is illegal"):
        env.step(illegal)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_a_finished_game_must_be_reset():
    env = SingleAgentEnv("hansa", num_players=2, max_rounds=2)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done = term or trunc
    assert "scores" in info
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)


def test_an_illegal_opponent_is_named():
    class Stubborn:
        def act(self, observation, action_mask, rng):
            return int(np.flatnonzero(action_mask == 0)[0])

    env = SingleAgentEnv("hansa", num_players=2, seat=1, opponents=[Stubborn()])
    with pytest.raises(IllegalActionError, match="opponent in seat 0 .Stubborn"):
        env.reset(seed=0)


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_copies_and_pickles_continue_identically(game):
    env = SingleAgentEnv(game, num_players=3, seat="random")
    env.reset(seed=11)
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    rng = np.random.default_rng(3)
    for _ in range(25):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        results = [e.step(action) for e in (env, *twins)]
        for r in results[1:]:
            np.testing.assert_array_equal(r[0], results[0][0])
            assert r[1:4] == results[0][1:4]
        if results[0][2] or results[0][3]:
            break
    assert pickle.loads(pickle.dumps(env)).game is env.game


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_check_env_passes_with_every_default_and_no_warning(game):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SingleAgentEnv(game), skip_render_check=True)
        # through gymnasium.make the env has a spec: check_env also renders every mode
        check_env(gym.make(ENV_IDS[game], num_players=3).unwrapped)


def _random_games(make_env, games, seed):
    """Observations of every seat at every step of random games (AEC env), game end too."""
    rng = np.random.default_rng(seed)
    for g in range(games):
        env = make_env(g)
        env.reset(seed=seed + g)
        space = env.observation_space(env.agents[0])
        for _ in env.agent_iter():
            for a in env.agents:
                yield space, env.observe(a)
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("game, options", [
    ("hansa", {}), ("hansa", {"build_rule": "per_stall"}),
    ("voyage", {}), ("voyage", {"simple_deck": True, "black_ship": True}),
])
def test_observations_lie_within_the_real_bounds(game, options):
    def make(g):
        return tradewinds.make(game, num_players=2 + g % 3, **options)

    count = 0
    for space, obs in _random_games(make, 9 if game == "hansa" else 6, seed=40):
        box = space["observation"]
        x = obs["observation"]
        assert np.isfinite(box.high).all() and (box.low == 0).all()
        assert box.contains(x), np.flatnonzero((x < box.low) | (x > box.high))[:5]
        assert obs in space
        count += 1
    assert count > 1000
    env = SingleAgentEnv(game, num_players=4, **options)
    aec = tradewinds.make(game, num_players=4, **options)
    assert env.observation_space == aec.observation_space("player_0")["observation"]


def test_bounds_are_the_real_maxima_of_the_scales():
    """Hand-checked entries: tokens of a type, stalls, money and score (Hansa); discs,
    hand sizes, the react budget and VP (Voyage)."""
    hansa = tradewinds.game("hansa")
    h = dict(zip(hansa.obs_names, hansa.obs_high(4), strict=True))
    assert h["p0:hand:red2"] == 1.0 and h["p0:hand:red1"] == pytest.approx(0.8)
    assert h["p1:stalls@Danzig"] == 1.0 and h["p0:stall_supply"] == 1.0
    assert h["p0:money"] == pytest.approx((3 + 3 + 14 * 3) / 10)
    assert h["p2:score"] == pytest.approx((6 * (4 * 2 + 5 * 3 + 4 * 4) + 4 * 9) / 100)
    assert h["pile1_size"] == 1.0 and h["my_seat/3"] == 1.0
    h2 = dict(zip(hansa.obs_names, hansa.obs_high(2), strict=True))
    assert h2["pile1_size"] == pytest.approx(8 / 13) and h2["my_seat/3"] == pytest.approx(1 / 3)
    voyage = tradewinds.game("voyage")
    v = dict(zip(voyage.obs_names, voyage.obs_high(4, max_rounds=10), strict=True))
    assert v["p0:discs"] == 1.0 and v["react_budget"] == 1.0
    assert v["p0:hand_size"] == pytest.approx(7 / 5) and v["my_hand:calm"] == pytest.approx(1.4)
    assert v["discard:favourable"] == 1.0 and v["discard:calm"] == pytest.approx(10 / 18)
    assert v["p3:vp"] == pytest.approx((52 + 55 * 10) / 100)
    v2 = dict(zip(voyage.obs_names, voyage.obs_high(2), strict=True))
    assert v2["p0:hand_size"] == 1.0 and v2["tiles_left"] == pytest.approx(3 / 5)
