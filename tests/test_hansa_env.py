"""Hansa through the PettingZoo AEC API and the Game handle: API conformance, seeding,
reward modes, illegal actions, rendering, batches and bad input."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import hansa_env
import tradewinds
from hansa_env import GAME
from hansa_env import kernel as K
from hansa_env.state import StateView


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_api_and_seed(n):
    api_test(hansa_env.env(num_players=n), num_cycles=2000)
    seed_test(lambda: hansa_env.env(num_players=n), num_cycles=500)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_api_test_over_many_games(n):
    """api_test plays one game; loop so that ends of games are covered many times."""
    for seed in range(5):
        env = hansa_env.env(num_players=n, seed=seed)
        api_test(env, num_cycles=5000)


def test_registry_makes_both_raw_and_wrapped():
    assert "hansa" in tradewinds.games()
    raw = tradewinds.make("hansa", raw=True, num_players=4)
    assert isinstance(raw, hansa_env.raw_env)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        tradewinds.make("chess")


@pytest.mark.parametrize("mode", ["win", "zero_sum", "score"])
def test_reward_modes_at_the_end(mode):
    env = hansa_env.env(num_players=3, reward=mode)
    env.reset(seed=11)
    totals = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winners = info["winners"]
    values = np.array([totals[a] for a in env.possible_agents])
    if mode == "win":
        assert values.sum() == pytest.approx(1.0)
        assert all(values[w] == pytest.approx(1 / len(winners)) for w in winners)
    elif mode == "zero_sum":
        assert values.sum() == pytest.approx(0.0)
        assert all(values[w] > 0 for w in winners)
    else:
        vp = np.array(info["scores"], dtype=float)
        expected = (vp - (vp.sum() - vp) / 2) / 100
        np.testing.assert_allclose(values, expected)


def test_agent_selection_follows_the_kernel_and_opponents_act_mid_turn():
    """Multi-action turns; a LOSS decision goes to the opponent (H23)."""
    env = hansa_env.raw_env(num_players=3)
    rng = np.random.default_rng(3)
    saw_repeat = saw_opponent = False
    for seed in range(30):
        env.reset(seed=seed)
        last = None
        while not any(env.terminations.values()) and not any(env.truncations.values()):
            state = env.kernel_state
            assert env.agent_selection == f"player_{GAME.current_player(state)}"
            v = StateView(state)
            saw_repeat |= env.agent_selection == last
            saw_opponent |= v.phase == 4 and v.decider != v.active
            last = env.agent_selection
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        if saw_repeat and saw_opponent:
            break
    assert saw_repeat and saw_opponent


def test_only_the_deciding_agent_sees_a_mask():
    env = hansa_env.raw_env(num_players=3)
    env.reset(seed=0)
    for a in env.possible_agents:
        mask = env.observe(a)["action_mask"]
        assert mask.any() == (a == env.agent_selection)


def test_illegal_action_raises_with_name_and_reason_and_changes_nothing():
    env = hansa_env.env(num_players=3)
    env.reset(seed=2)
    before = env.unwrapped.state()
    with pytest.raises(ValueError, match=r"setup:Copenhagen is illegal: .*Copenhagen"):
        env.step(GAME.action_id("setup:Copenhagen"))
    with pytest.raises(ValueError, match="out of range"):
        env.step(999)
    np.testing.assert_array_equal(before, env.unwrapped.state())


def test_illegal_action_lose_mode_penalises_the_offender():
    env = hansa_env.env(num_players=2, illegal_action="lose")
    env.reset(seed=2)
    offender = env.agent_selection
    env.step(GAME.action_id("end_actions"))
    assert env.terminations[offender]
    _, reward, term, _, info = env.last()
    assert term and reward == -1.0 and info["illegal_action"] == offender


@pytest.mark.parametrize("kwargs, message", [
    ({"num_players": 5}, "2 to 4 players"),
    ({"num_players": 1}, "2 to 4 players"),
    ({"num_players": "3"}, "2 to 4 players"),
    ({"reward": "money"}, "reward must be one of"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
    ({"render_mode": "bogus"}, "render_mode must be"),
    ({"build_rule": "free"}, "build_rule must be one of"),
    ({"max_rounds": 0}, "max_rounds must be"),
])
def test_bad_constructor_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        hansa_env.env(**kwargs)


def test_malformed_states_are_rejected_by_name():
    good = GAME.new_state(3, 4)
    GAME.validate_state(good)
    cases = [
        (lambda s: s.astype(np.int64), "int32 vector"),
        (lambda s: s[:-1], "int32 vector"),
        (lambda s: _set(s, "num_players", 7), "num_players=7"),
        (lambda s: _set(s, "ship", 12), "ship=12"),
        (lambda s: _edit(s, lambda v: v.money.__setitem__(0, -2)), "negative money"),
        (lambda s: _edit(s, lambda v: v.removed.__setitem__((0, 0), 9)), "not conserved"),
        (lambda s: _edit(s, lambda v: v.stall_supply.__setitem__(1, 3)), "stalls not conserved"),
    ]
    for corrupt, message in cases:
        with pytest.raises(ValueError, match=message):
            GAME.validate_state(corrupt(good.copy()))
    env = hansa_env.raw_env(num_players=3)
    with pytest.raises(ValueError, match="num_players=7"):
        env.set_state(_set(good.copy(), "num_players", 7))
    with pytest.raises(ValueError, match="for 2 players"):
        env.set_state(GAME.new_state(2, 1))


def _set(s, name, value):
    setattr(StateView(s), name, value)
    return s


def _edit(s, fn):
    fn(StateView(s))
    return s


def test_set_state_continues_from_a_given_state():
    s = GAME.new_state(2, 9)
    for a in ["setup:Riga", "setup:Reval", "setup:Danzig"]:
        GAME.step(s, a)
    env = hansa_env.raw_env(num_players=2)
    env.set_state(s)
    assert env.agent_selection == f"player_{GAME.current_player(s)}"
    np.testing.assert_array_equal(env.state(), s)


def test_same_seed_and_actions_give_the_identical_game():
    rng = np.random.default_rng(5)
    s = GAME.new_state(4, 77)
    actions = []
    while not GAME.is_terminal(s):
        a = int(rng.choice(GAME.legal_actions(s)))
        actions.append(GAME.action_name(a))
        GAME.step(s, a)
    np.testing.assert_array_equal(GAME.replay(4, 77, actions), s)
    assert not np.array_equal(GAME.new_state(4, 78), GAME.new_state(4, 77))


@pytest.mark.parametrize("batch", [64, K.PARALLEL_MIN + 88])  # serial and prange paths
def test_batched_step_equals_sequential_steps(batch):
    n = 3
    steps = 400 if batch < K.PARALLEL_MIN else 40
    seeds = np.arange(batch, dtype=np.int64) + 500
    states = np.zeros((batch, K.STATE_SIZE), dtype=np.int32)
    K.init_batch(states, n, seeds, 0, 200)
    singles = [GAME.new_state(n, int(sd)) for sd in seeds]
    np.testing.assert_array_equal(states, np.array(singles))
    rng = np.random.default_rng(1)
    masks = np.zeros((batch, K.NUM_ACTIONS), dtype=np.uint8)
    errors = np.zeros(batch, dtype=np.int64)
    for _ in range(steps):
        K.legal_mask_batch(states, masks)
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        K.step_batch(states, acts, errors)
        for i, s in enumerate(singles):
            code = K.step(s, acts[i])
            assert code == errors[i]
        np.testing.assert_array_equal(states, np.array(singles))
    obs = np.zeros((batch, K.OBS_SIZE), dtype=np.float32)
    players = np.arange(batch, dtype=np.int64) % n
    K.observe_batch(states, players, obs)
    for i in range(batch):
        np.testing.assert_array_equal(obs[i], GAME.observe(singles[i], players[i]))


@pytest.mark.parametrize("batch", [16, K.PARALLEL_MIN + 3])  # serial and prange paths
def test_random_playout_batch_matches_single_playouts(batch):
    seeds = np.arange(batch, dtype=np.int64)
    states = np.zeros((batch, K.STATE_SIZE), dtype=np.int32)
    K.init_batch(states, 4, seeds, 0, 200)
    keys = np.stack([seeds, seeds + 1], axis=1).astype(np.int32)
    steps = K.random_playout_batch(states, keys.copy())
    for i in range(batch):
        s = GAME.new_state(4, int(seeds[i]))
        assert K.random_playout(s, keys[i].copy()) == steps[i]
        np.testing.assert_array_equal(s, states[i])


def test_observation_names_and_scale():
    names = GAME.obs_names
    assert len(names) == GAME.obs_size == len(set(names))
    s = GAME.new_state(3, 1)
    K.random_playout(s, np.array([3, 4], dtype=np.int32))
    for p in range(3):
        o = GAME.observe(s, p)
        assert o.dtype == np.float32 and o.min() >= 0 and o.max() <= 2.0
        assert o[names.index("p0:present")] == 1 and o[names.index("p3:present")] == 0


def test_render_modes():
    env = hansa_env.env(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Copenhagen" in text and "player_2" in text
    env = hansa_env.env(num_players=4, render_mode="rgb_array")
    env.reset(seed=1)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
    assert image.std() > 10  # a picture, not a blank canvas


@pytest.mark.parametrize("batch", [8, K.PARALLEL_MIN + 1])
def test_random_step_batch_auto_resets_finished_rows(batch):
    seeds = np.arange(batch, dtype=np.int64) * 7
    states = np.zeros((batch, K.STATE_SIZE), dtype=np.int32)
    K.init_batch(states, 2, seeds, 0, 200)
    masks = np.zeros((batch, K.NUM_ACTIONS), dtype=np.uint8)
    keys = np.stack([seeds, seeds + 5], axis=1).astype(np.int32)
    finished = sum(K.random_step_batch(states, masks, keys, seeds, True, 2, 0, 200)
                   for _ in range(600))
    assert finished >= batch  # every game lasts < 600 decisions
    assert (seeds != np.arange(batch) * 7).all() and not any(K.is_terminal(s) for s in states)
    for s in states:
        GAME.validate_state(s)


def test_wrapper_keeps_order_enforcement():
    """The faster last() still refuses to run before reset, like PettingZoo's wrapper."""
    env = hansa_env.env(num_players=2)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.last()
    assert obs["action_mask"].any() and reward == 0 and not (term or trunc)
