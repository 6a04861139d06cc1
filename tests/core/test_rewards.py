"""Rewards that agree with the study: a game stopped by the round cap is
scored as it stands (the arena's `game.scores` / `game.winners`), pays its final rewards
and ends with truncation set; reward="score" pays the change of the VP margin (own VP
minus the best other seat's, / 100) at every step, summing to the final margin. The same
module (`tradewinds.rewards`) serves the AEC env and SingleAgentEnv."""

import numpy as np
import pytest

import tradewinds
from tradewinds import rewards
from tradewinds.training.single_agent import SingleAgentEnv

GAMES = ["hansa", "voyage"]
CAP = {"hansa": 3, "voyage": 2}      # max_rounds that stop random games early


def _margin(vp, p) -> float:
    return (vp[p] - max(v for q, v in enumerate(vp) if q != p)) / 100


def _expected(mode, winners, n, vp):
    """The final reward of every seat, from the study's scores and winners."""
    k = len(winners)
    if mode == "win":
        return [1 / k if p in winners else 0.0 for p in range(n)]
    if mode == "zero_sum":
        if k == n:
            return [0.0] * n
        return [1 / k if p in winners else -1 / (n - k) for p in range(n)]
    return [_margin(vp, p) for p in range(n)]


def _play_aec(game, n, mode, seed, **options):
    """A random AEC game: every agent's summed rewards, the last infos, flags, the final
    state and whether any reward came before the end."""
    env = tradewinds.make(game, num_players=n, reward=mode, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    mid_game = False
    flags = None
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            flags = flags or (dict(env.unwrapped.terminations), dict(env.unwrapped.truncations))
            final = env.unwrapped.state()
            env.step(None)
            continue
        mid_game |= reward != 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return [totals[a] for a in env.possible_agents], info, flags, final, mid_game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["win", "zero_sum", "score"])
def test_truncated_aec_games_pay_the_study_winners(game, mode):
    g = tradewinds.game(game)
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        totals, info, (terms, truncs), final, _ = _play_aec(game, n, mode, seed,
                                                             max_rounds=CAP[game])
        assert g.is_truncated(final)
        assert all(truncs.values()) and not any(terms.values())
        winners, vp = g.winners(final), g.scores(final).tolist()
        assert info == {"scores": vp, "won": [int(p in winners) for p in range(n)]}
        np.testing.assert_allclose(totals, _expected(mode, winners, n, vp), atol=1e-9)
        if mode == "win":
            assert [p for p in range(n) if totals[p] > 0] == winners


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["win", "zero_sum", "score"])
def test_truncated_single_agent_episodes_pay_and_set_truncated(game, mode):
    g = tradewinds.game(game)
    for n in (2, 3):
        env = SingleAgentEnv(game, num_players=n, seat="random", reward=mode,
                             max_rounds=CAP[game])
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        for _episode in range(3):
            total, done = 0.0, False
            while not done:
                action = int(rng.choice(np.flatnonzero(env.action_masks())))
                _, reward, term, trunc, info = env.step(action)
                total += reward
                done = term or trunc
            assert trunc and not term and g.is_truncated(env.state)
            winners, vp = g.winners(env.state), g.scores(env.state).tolist()
            assert info == {"scores": vp, "won": [int(p in winners) for p in range(n)]}
            assert total == pytest.approx(_expected(mode, winners, n, vp)[env.seat], abs=1e-9)
            env.reset()


def test_voyage_random_games_no_longer_pay_zero():
    """Before: every random Voyage game hit round 40 and every mode paid 0."""
    truncated = 0
    for seed in range(4):
        totals, _, (terms, truncs), final, _ = _play_aec("voyage", 2, "win", seed)
        assert sum(totals) == pytest.approx(1.0) and max(totals) > 0
        truncated += all(truncs.values())
    assert truncated > 0


@pytest.mark.parametrize("game", GAMES)
def test_score_pays_every_step_and_sums_to_the_final_margin(game):
    g = tradewinds.game(game)
    for n, seed, cap in ((2, 5, None), (3, 6, CAP[game]), (4, 7, None)):
        options = {} if cap is None else {"max_rounds": cap}
        totals, info, _, final, mid_game = _play_aec(game, n, "score", seed, **options)
        vp = g.scores(final).tolist()
        np.testing.assert_allclose(totals, [_margin(vp, p) for p in range(n)], atol=1e-9)
        assert mid_game or cap is not None     # dense: rewards come before the end
    # SingleAgentEnv: the learner's rewards sum to its final margin, paid along the way
    env = SingleAgentEnv(game, num_players=3, seat="random", reward="score")
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        paid, done = [], False
        while not done:
            _, reward, term, trunc, info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks()))))
            paid.append(reward)
            done = term or trunc
        assert sum(paid) == pytest.approx(_margin(info["scores"], env.seat), abs=1e-9)
        assert sum(r != 0 for r in paid[:-1]) > 0


@pytest.mark.parametrize("game", GAMES)
def test_margin_definition_and_fresh_games_start_at_zero(game):
    g = tradewinds.game(game)
    for n in (2, 3, 4):
        s = g.new_state(n, 9)
        np.testing.assert_array_equal(rewards.start(g, s), np.zeros(n))
        g.random_playout(s, 9)
        vp = g.scores(s).tolist()
        np.testing.assert_allclose(rewards.start(g, s), [_margin(vp, p) for p in range(n)])
        last = np.zeros(n)
        for mode in rewards.MODES:
            pay = rewards.payments(g, s, rewards.mode_code(mode), last.copy())
            np.testing.assert_allclose(pay, _expected(mode, g.winners(s), n, vp), atol=1e-12)


def test_zero_sum_full_tie_pays_nothing_and_win_splits():
    """A capped Voyage game where nobody scored: every seat wins (VA31)."""
    g = tradewinds.game("voyage")
    for seed in range(40):
        s = g.new_state(3, seed, max_rounds=1)
        g.random_playout(s, seed)
        if len(g.winners(s)) == 3:
            break
    else:
        pytest.skip("no full tie in 40 capped games")
    last = np.zeros(3)
    np.testing.assert_allclose(rewards.payments(g, s, rewards.ZERO_SUM, last), [0, 0, 0])
    np.testing.assert_allclose(rewards.payments(g, s, rewards.WIN, last), [1 / 3] * 3)


def test_bad_reward_modes_are_named():
    with pytest.raises(ValueError, match="reward must be one of"):
        rewards.mode_code("money")
    with pytest.raises(ValueError, match="reward must be one of"):
        tradewinds.make("hansa", reward="margin")
    with pytest.raises(ValueError, match="reward must be one of"):
        SingleAgentEnv("voyage", reward="margin")
