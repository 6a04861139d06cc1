"""Hansa through the PettingZoo AEC API and the Game handle: what is particular to Hansa.
What every game must do (PettingZoo api/seed tests, illegal actions, set_state, batches,
replay, bad input) is tests/core/test_conformance.py."""

import numpy as np
import pytest

import hansa_env
from hansa_env import GAME
from hansa_env import kernel as K
from hansa_env.state import StateView


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
    winners = [p for p, won in enumerate(info["won"]) if won]
    values = np.array([totals[a] for a in env.possible_agents])
    if mode == "win":
        assert values.sum() == pytest.approx(1.0)
        assert all(values[w] == pytest.approx(1 / len(winners)) for w in winners)
    elif mode == "zero_sum":
        assert values.sum() == pytest.approx(0.0)
        assert all(values[w] > 0 for w in winners)
    else:
        vp = np.array(info["scores"], dtype=float)    # score: own VP - best other VP, / 100
        best_other = np.array([np.delete(vp, p).max() for p in range(len(vp))])
        np.testing.assert_allclose(values, (vp - best_other) / 100)


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


@pytest.mark.parametrize("kwargs, message", [
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
        (lambda s: _set(s, "num_players", 7), "num_players=7"),
        (lambda s: _set(s, "ship", 12), "ship=12"),
        (lambda s: _edit(s, lambda v: v.money.__setitem__(0, -2)), "negative money"),
        (lambda s: _edit(s, lambda v: v.removed.__setitem__((0, 0), 9)), "not conserved"),
        (lambda s: _edit(s, lambda v: v.stall_supply.__setitem__(1, 3)), "stalls not conserved"),
    ]
    for corrupt, message in cases:
        with pytest.raises(ValueError, match=message):
            GAME.validate_state(corrupt(good.copy()))


def _set(s, name, value):
    setattr(StateView(s), name, value)
    return s


def _edit(s, fn):
    fn(StateView(s))
    return s


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
