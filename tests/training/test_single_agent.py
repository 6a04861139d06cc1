"""The single-agent Gymnasium wrapper: env_checker, seat handling, MaskablePPO smoke run."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tradewinds.training.single_agent import SingleAgentEnv


def test_gymnasium_env_checker_passes():
    """check_env steps unmasked random actions, so illegal ones end the episode (the
    default, illegal_action="lose"); "raise" names the action instead."""
    check_env(SingleAgentEnv("hansa", num_players=3), skip_render_check=True)
    env = SingleAgentEnv("hansa", num_players=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="is illegal"):
        env.step(env.game.action_id("end_actions"))


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_learner_only_sees_its_own_decisions(seat):
    env = SingleAgentEnv("hansa", num_players=3, seat=seat)
    obs, info = env.reset(seed=seat)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        assert env.game.current_player(env.state) == seat
        mask = env.action_masks()
        assert mask.any()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = term or trunc
    assert reward == pytest.approx(info["won"][seat] / sum(info["won"]))


def test_opponent_pool_and_bad_arguments():
    picked = []

    class Fixed:
        def act(self, observation, action_mask, rng):
            picked.append(1)
            return int(np.flatnonzero(action_mask)[0])

    env = SingleAgentEnv("hansa", num_players=2, opponents=lambda rng: Fixed())
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert picked
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv("hansa", num_players=2, seat=2)
    with pytest.raises(ValueError, match="need 2 opponents"):
        SingleAgentEnv("hansa", num_players=3, opponents=[Fixed()]).reset(seed=0)


def test_maskable_ppo_learns_on_it_without_errors():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = SingleAgentEnv("hansa", num_players=2, seat="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0,
                                    verbose=0)
    model.learn(total_timesteps=512)
    obs, _ = env.reset(seed=3)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_heuristic_opponents_inside_numba_or_as_agents(game):
    """opponents="heuristic" (kernel side), the heuristic agent object (needs_state: it is
    given the state, as in the arena) and a predictor all play whole episodes."""
    from tradewinds import agents

    class Lowest:
        def predict(self, observations, action_masks=None):
            return np.argmax(action_masks, axis=1), None

    for opponents in ("heuristic", agents.make_agent("heuristic", game=game), Lowest(),
                      lambda rng: "random"):
        env = SingleAgentEnv(game, num_players=3, seat="random", opponents=opponents,
                             max_rounds=3)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            assert env.game.current_player(env.state) == env.seat
            _, _, term, trunc, info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = term or trunc
        assert len(info["won"]) == env.num_players and len(info["scores"]) == env.num_players
