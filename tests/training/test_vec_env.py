"""The batched VecEnv: the same games as SingleAgentEnv for the same
seeds and learner actions, masks of the learner's seat, auto-reset with
terminal_observation, rewards at the end, predictor opponents by batched forward passes,
SB3's VecEnv interface and a MaskablePPO run on it."""

import numpy as np
import pytest

import tradewinds
from tradewinds.protocol import IllegalActionError, as_key
from tradewinds.training import opponents as ops
from tradewinds.training.single_agent import SingleAgentEnv

pytest.importorskip("stable_baselines3")
from tradewinds.training.vec_env import BatchedVecEnv  # noqa: E402


class FirstLegal:
    """A deterministic predictor: the lowest legal action; counts its forward passes."""

    def __init__(self):
        self.batches = []

    def predict(self, observations, action_masks=None):
        self.batches.append(len(observations))
        return np.argmax(action_masks, axis=1), None


def _compare(game, n, steps, seed, reward="win", opponents="random", **options):
    """BatchedVecEnv(num_envs=1) beside SingleAgentEnv, stepping the same random legal
    actions: identical observations, rewards, dones, terminal observations and seats."""
    vec = BatchedVecEnv(game, num_envs=1, num_players=n, seed=seed, reward=reward,
                        opponents=opponents, **options)
    one = SingleAgentEnv(game, num_players=n, seat="random", reward=reward,
                         opponents=opponents, **options)
    obs = vec.reset()
    o1, info1 = one.reset(seed=seed)
    np.testing.assert_array_equal(obs[0], o1)
    assert vec.reset_infos[0] == info1
    rng = np.random.default_rng(seed)
    episodes = 0
    for _ in range(steps):
        mask = vec.action_masks()[0]
        np.testing.assert_array_equal(mask, one.action_masks())
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, rew, done, infos = vec.step(np.array([a]))
        o1, r1, term, trunc, info1 = one.step(a)
        assert rew[0] == np.float32(r1) and done[0] == (term or trunc)
        if done[0]:
            episodes += 1
            np.testing.assert_array_equal(infos[0]["terminal_observation"], o1)
            assert infos[0]["truncated"] == trunc
            assert infos[0]["scores"] == info1["scores"]
            assert infos[0]["won"] == info1["won"]
            o1, info1 = one.reset()
            assert vec.reset_infos[0] == info1
        np.testing.assert_array_equal(obs[0], o1)
        assert int(vec.seats[0]) == one.seat
    return episodes


@pytest.mark.parametrize("game", ["hansa", "voyage"])
@pytest.mark.parametrize("n", [2, 3])
def test_same_trajectories_as_the_single_agent_env(game, n):
    cap = {"hansa": 8, "voyage": 3}[game]    # short games: many episodes and auto-resets
    assert _compare(game, n, 400, seed=10 + n, reward="score", max_rounds=cap) >= 3
    assert _compare(game, n, 150, seed=20 + n, opponents="heuristic") >= 0


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_same_trajectories_with_a_predictor_opponent(game):
    assert _compare(game, 3, 150, seed=4, opponents=FirstLegal(), max_rounds=3) >= 1
    assert _compare(game, 3, 100, seed=5, opponents=["heuristic", FirstLegal()]) >= 0


def test_seeds_follow_the_documented_sequence():
    """Env i: np_random(seed + i) draws each episode's game seed, then its seat; the
    opponent key is as_key(game seed)."""
    from gymnasium.utils import seeding

    vec = BatchedVecEnv("hansa", num_envs=3, num_players=3, seed=100)
    vec.reset()
    for i in range(3):
        gen = seeding.np_random(100 + i)[0]
        game_seed = int(gen.integers(0, 2**63 - 1))
        assert vec.game_seeds[i] == game_seed and vec.seats[i] == gen.integers(3)
        key = np.zeros(2, dtype=np.int32)
        ops.seed_key(game_seed, key)
        np.testing.assert_array_equal(key, as_key(game_seed))


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_masks_and_observations_are_the_learners(game):
    g = tradewinds.game(game)
    vec = BatchedVecEnv(game, num_envs=8, num_players=3, seed=1, opponents="heuristic")
    obs = vec.reset()
    rng = np.random.default_rng(1)
    for _ in range(30):
        masks = vec.action_masks()
        for i in range(8):
            s, seat = vec.states[i], int(vec.seats[i])
            assert g.current_player(s) == seat
            np.testing.assert_array_equal(masks[i], g.legal_mask(s).astype(bool))
            np.testing.assert_array_equal(obs[i], g.observe(s, seat))
        np.testing.assert_array_equal(np.stack(vec.env_method("action_masks")), masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, _, _ = vec.step(actions)
    assert obs.dtype == np.float32 and vec.observation_space.contains(obs[0])


def test_auto_reset_terminal_observation_and_rewards_at_the_end():
    g = tradewinds.game("hansa")
    vec = BatchedVecEnv("hansa", num_envs=4, num_players=2, seed=3, max_rounds=4)
    vec.reset()
    rng = np.random.default_rng(3)
    returns, ends = np.zeros(4), 0
    while ends < 8:
        seats = vec.seats.copy()
        seeds = vec.game_seeds.copy()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        obs, rew, done, infos = vec.step(actions)
        returns += rew
        for i in range(4):
            if not done[i]:
                assert rew[i] == 0 and infos[i] == {}      # win mode: rewards at the end
                continue
            ends += 1
            info = infos[i]
            expected = info["won"][seats[i]] / sum(info["won"])
            assert rew[i] == pytest.approx(expected)
            assert info["episode"]["r"] == pytest.approx(returns[i])
            assert info["truncated"] and not info["TimeLimit.truncated"]
            term = info["terminal_observation"]
            assert term.shape == obs[i].shape and not np.array_equal(term, obs[i])
            assert vec.game_seeds[i] != seeds[i]                 # a new game began
            assert vec.reset_infos[i] == {"seat": int(vec.seats[i])}
            assert g.current_player(vec.states[i]) == vec.seats[i]
            returns[i] = 0


def test_predictor_opponents_decide_in_batches():
    pred = FirstLegal()
    vec = BatchedVecEnv("hansa", num_envs=16, num_players=3, seed=2, opponents=pred)
    vec.reset()
    rng = np.random.default_rng(2)
    for _ in range(20):
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()]))
    assert max(pred.batches) > 1 and sum(pred.batches) > len(pred.batches)
    # per env and per seat; set_opponents changes them
    vec.set_opponents([["random", pred]] * 8 + ["heuristic"] * 8)
    assert vec.get_opponents([0])[0] == ["random", pred]
    assert vec.get_opponents([15])[0] == ["heuristic", "heuristic"]
    vec.set_opponents("random", indices=[0, 1])
    assert vec.get_opponents([0, 2]) == [["random", "random"], ["random", pred]]
    vec.step(np.array([np.flatnonzero(m)[0] for m in vec.action_masks()]))


def test_a_frozen_maskable_ppo_model_plays_opponent_seats():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    vec = BatchedVecEnv("hansa", num_envs=4, num_players=2, seed=0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", vec, n_steps=16, batch_size=32, seed=0,
                                    verbose=0)
    for opponent in (model, ops.Frozen(model)):
        env = BatchedVecEnv("hansa", num_envs=4, num_players=2, seed=1, opponents=opponent)
        env.reset()
        for _ in range(10):
            env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))


def test_illegal_actions_lose_or_raise_and_bad_ids_raise():
    vec = BatchedVecEnv("hansa", num_envs=2, num_players=2, seed=0)
    vec.reset()
    illegal = int(np.flatnonzero(~vec.action_masks()[0])[0])
    legal = int(np.flatnonzero(vec.action_masks()[1])[0])
    seed0 = vec.game_seeds[0]
    obs, rew, done, infos = vec.step(np.array([illegal, legal]))
    assert rew[0] == -1 and done[0] and infos[0]["illegal_action"] == illegal
    assert vec.game_seeds[0] != seed0 and not done[1]
    strict = BatchedVecEnv("hansa", num_envs=2, num_players=2, seed=0, illegal_action="raise")
    strict.reset()
    before = strict.states.copy()
    with pytest.raises(IllegalActionError, match="env 0: .* is illegal"):
        strict.step(np.array([illegal, legal]))
    np.testing.assert_array_equal(strict.states, before)
    with pytest.raises(ValueError, match="action ids must be in"):
        strict.step(np.array([legal, 999]))
    with pytest.raises(ValueError, match="2 integer action ids"):
        strict.step(np.array([0.5, 1.0]))


def test_an_illegal_predictor_is_named():
    class Stubborn:
        def predict(self, observations, action_masks=None):
            return np.argmin(action_masks, axis=1)

    vec = BatchedVecEnv("hansa", num_envs=2, num_players=2, seat=1, opponents=Stubborn())
    with pytest.raises(IllegalActionError, match="opponent in seat 0 .*Stubborn"):
        vec.reset()


@pytest.mark.parametrize("kwargs, message", [
    ({"num_envs": 0}, "num_envs must be"),
    ({"num_players": 5}, "played by 2 to 4"),
    ({"seat": 2}, "seat must be"),
    ({"reward": "money"}, "reward must be"),
    ({"illegal_action": "ignore"}, "illegal_action must be"),
    ({"opponents": "bogus"}, "an opponent must be"),
    ({"opponents": ["random", "random"]}, "need 1 opponents"),
    ({"seed": -1}, "seed must be"),
    ({"bogus": 1}, "unknown hansa option"),
])
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BatchedVecEnv(**{"game": "hansa", "num_envs": 3, "num_players": 2, **kwargs})


def test_sb3_vec_env_interface():
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor

    vec = BatchedVecEnv("voyage", num_envs=3, num_players=2, seed=5)
    assert isinstance(vec, VecEnv) and vec.num_envs == 3
    first = vec.reset()
    assert first.shape == (3, vec.observation_space.shape[0])
    rng = np.random.default_rng(0)
    actions = [np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])]
    vec.step_async(actions[0])
    obs, rew, done, infos = vec.step_wait()
    assert obs.shape == first.shape and rew.dtype == np.float32 and done.dtype == bool
    assert len(infos) == 3 and all(isinstance(i, dict) for i in infos)
    # seed() then reset() replays the same episodes
    assert vec.seed(5) == [5, 6, 7]
    np.testing.assert_array_equal(vec.reset(), first)
    np.testing.assert_array_equal(vec.step(actions[0])[0], obs)
    assert vec.get_attr("seat") == vec.seats.tolist()
    assert vec.get_attr("num_players", indices=[0, 2]) == [2, 2]
    assert vec.get_attr("render_mode") == [None] * 3
    with pytest.raises(AttributeError):
        vec.get_attr("no_such_thing")
    assert vec.has_attr("action_masks") and not vec.has_attr("no_such_thing")
    rows = vec.env_method("action_masks", indices=[1, 2])
    assert len(rows) == 2 and rows[0].dtype == bool
    np.testing.assert_array_equal(np.stack(rows), vec.action_masks()[1:])
    rows.reverse()                                    # an edited list stacks as edited
    np.testing.assert_array_equal(np.stack(rows), vec.action_masks()[[2, 1]])
    assert vec.env_method("set_opponents", "heuristic", indices=[0]) == [None]
    assert vec.get_opponents([0, 1]) == [["heuristic"], ["random"]]
    vec.set_attr("tag", 7)
    assert vec.get_attr("tag") == [7] * 3
    assert vec.env_is_wrapped(VecMonitor) == [False] * 3
    monitored = VecMonitor(vec)
    monitored.reset()
    assert len(monitored.env_method("action_masks")) == 3
    vec.close()


def test_maskable_ppo_learns_on_it():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    for game in ("hansa", "voyage"):
        vec = BatchedVecEnv(game, num_envs=8, num_players=2, seed=0, reward="score")
        assert is_masking_supported(vec)
        model = sb3_contrib.MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=64,
                                        seed=0, verbose=0)
        model.learn(total_timesteps=512)
        assert model.num_timesteps >= 512
        obs = vec.reset()
        actions, _ = model.predict(obs, action_masks=get_action_masks(vec),
                                   deterministic=True)
        assert vec.action_masks()[np.arange(8), actions].all()


def test_a_seat_schedule_too_short_for_the_player_count_is_refused():
    with pytest.raises(ValueError, match="seat_vp has 2 entries for a 3-player game"):
        BatchedVecEnv("hansa", num_envs=2, num_players=3, seat_vp=(0, 1))
