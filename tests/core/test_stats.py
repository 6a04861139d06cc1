"""Tests for tradewinds.stats: known values, library cross-checks and simulated studies.

Seat index 0 is the first player ("seat 1" in user-facing text).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from tradewinds import stats as st

# ---------------------------------------------------------------- synthetic games


def synthetic_wins(
    rng: np.random.Generator,
    studies: int,
    games: int,
    num_players: int,
    p_first: float,
    tie_rate: float = 0.0,
) -> np.ndarray:
    """Win matrices [studies, games, seats] of a game where seat 0 wins with p_first.

    The other seats share the rest equally. With probability ``tie_rate`` the winner
    shares the win with one uniformly chosen other seat (1/2 each), which keeps seat
    0's expected credit at p_first.
    """
    first = rng.random((studies, games)) < p_first
    other = rng.integers(1, num_players, size=(studies, games))
    winner = np.where(first, 0, other)
    w = np.zeros((studies, games, num_players))
    np.put_along_axis(w, winner[..., None], 1.0, axis=2)
    tie = rng.random((studies, games)) < tie_rate
    partner = (winner + rng.integers(1, num_players, size=(studies, games))) % num_players
    s, g = np.nonzero(tie)
    w[s, g, winner[s, g]] = 0.5
    w[s, g, partner[s, g]] = 0.5
    return w


def synthetic_scored_game(
    rng: np.random.Generator, games: int, num_players: int, first_bonus: int
) -> tuple[np.ndarray, np.ndarray]:
    """Scores (Poisson VP, seat 0 gets ``first_bonus`` extra) and the wins they imply."""
    scores = rng.poisson(20, size=(games, num_players))
    scores[:, 0] += first_bonus
    top = scores == scores.max(axis=1, keepdims=True)
    wins = top / top.sum(axis=1, keepdims=True)
    return wins, scores


# ------------------------------------------------------------------------ win rates


def test_win_rates_split_shared_wins():
    wins = np.array([[1, 0, 0], [0.5, 0.5, 0], [0, 0, 1], [1 / 3, 1 / 3, 1 / 3]])
    rates, counts = st.win_rates(wins)
    np.testing.assert_allclose(counts, [1 + 0.5 + 1 / 3, 0.5 + 1 / 3, 1 + 1 / 3])
    np.testing.assert_allclose(rates, counts / 4)
    assert rates.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "bad",
    [np.ones((3, 2)), np.array([[1.5, -0.5]]), np.ones(4), np.ones((3, 1))],
)
def test_win_rates_rejects_malformed(bad):
    with pytest.raises(ValueError):
        st.win_rates(bad)


# -------------------------------------------------------------------------- Wilson


def test_wilson_hand_value():
    lo, hi = st.wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)


def test_wilson_edges():
    assert st.wilson_interval(0, 0) == (0.0, 1.0)
    # at 0 (n) successes the bound is 0 (1) in exact arithmetic: centre and half cancel,
    # to the last bit only by luck of z's rounding; the clamp guarantees no more than [0, 1]
    lo, hi = st.wilson_interval(0, 20)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0 < hi < 0.2
    lo, hi = st.wilson_interval(20, 20)
    assert hi == pytest.approx(1.0, abs=1e-12) and 0.8 < lo < 1
    with pytest.raises(ValueError):
        st.wilson_interval(5, 4)


def test_paired_difference_hand_value():
    # differences 1, 0, 0, 1: mean 0.5, sd sqrt(1/3), t(0.975, 3 df) = 3.1824
    mean, lo, hi = st.paired_difference([1, 0, 1, 1], [0, 0, 1, 0])
    half = 3.182446 * math.sqrt(1 / 3) / 2
    assert mean == 0.5
    assert (lo, hi) == (pytest.approx(0.5 - half, abs=1e-5), pytest.approx(0.5 + half, abs=1e-5))


def test_paired_difference_edges():
    assert st.paired_difference([1, 0, 0.5], [1, 0, 0.5]) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="equal-length"):
        st.paired_difference([1], [0])


@pytest.mark.parametrize(
    "k,n,conf",
    [
        (0, 10, 0.95),
        (3, 10, 0.95),
        (10, 10, 0.95),
        (50, 100, 0.95),
        (123, 400, 0.9),
        (33.5, 100, 0.95),
        (7.25, 30, 0.99),
    ],
)
def test_wilson_matches_statsmodels(k, n, conf):
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    lo_ref, hi_ref = proportion.proportion_confint(k, n, alpha=1 - conf, method="wilson")
    lo, hi = st.wilson_interval(k, n, confidence=conf)
    assert lo == pytest.approx(lo_ref, abs=1e-12)
    assert hi == pytest.approx(hi_ref, abs=1e-12)


# ------------------------------------------------------------------------ binomial


def test_binomial_hand_value():
    # 2 players, seat 0 wins 9 of 10: P(X >= 9) = 11/1024, two-sided doubles it.
    wins = np.array([[1, 0]] * 9 + [[0, 1]])
    res = st.binomial_test_first_seat(wins, 2)
    assert res.successes == 9 and res.games == 10 and res.p_null == 0.5
    assert res.p_greater == pytest.approx(11 / 1024)
    assert res.p_two_sided == pytest.approx(22 / 1024)


def test_binomial_matches_scipy_and_rounds_split_wins():
    rng = np.random.default_rng(11)
    wins = synthetic_wins(rng, 1, 300, 4, 0.3, tie_rate=0.2)[0]
    total = wins[:, 0].sum()
    res = st.binomial_test_first_seat(wins, 4)
    assert res.successes == math.floor(total + 0.5)
    assert res.estimate == pytest.approx(total / 300)
    ref = sps.binomtest(res.successes, 300, 0.25)
    assert res.p_two_sided == pytest.approx(ref.pvalue)
    assert res.p_greater == pytest.approx(sps.binomtest(res.successes, 300, 0.25, "greater").pvalue)
    # halves round up: 2.5 wins of 5 -> 3
    half = np.array([[0.5, 0.5]] * 5)
    assert st.binomial_test_first_seat(half, 2).successes == 3


def test_binomial_checks_player_count():
    with pytest.raises(ValueError):
        st.binomial_test_first_seat(np.array([[1.0, 0, 0]]), 2)


# ---------------------------------------------------------------------- chi-square


def test_chi_square_hand_value():
    # Totals 50/30/20 over 100 games, expected 100/3 each:
    # sum((o-e)^2/e) = (2500+900+400)*3/100 - 100 = 14; df 2 -> p = exp(-14/2).
    wins = np.repeat(np.eye(3), [50, 30, 20], axis=0)
    res = st.chi_square_seats(wins)
    assert res.statistic == pytest.approx(14.0)
    assert res.df == 2
    assert res.p_value == pytest.approx(math.exp(-7))
    assert res.observed == [50.0, 30.0, 20.0]
    assert res.expected == pytest.approx(100 / 3)


def test_chi_square_matches_scipy_on_fractional_totals():
    rng = np.random.default_rng(3)
    wins = synthetic_wins(rng, 1, 200, 4, 0.25, tie_rate=0.3)[0]
    res = st.chi_square_seats(wins)
    ref = sps.chisquare(wins.sum(axis=0))
    assert res.statistic == pytest.approx(ref.statistic)
    assert res.p_value == pytest.approx(ref.pvalue)


# ----------------------------------------------------------------------------- SPRT


def test_sprt_boundaries_follow_wald():
    t = st.SPRT(p0=1 / 3, delta=0.1, alpha=0.05, beta=0.2)
    assert t.upper == pytest.approx(math.log((1 - 0.2) / 0.05))  # log A
    assert t.lower == pytest.approx(math.log(0.2 / (1 - 0.05)))  # log B
    assert t.decide() == "continue"


def test_sprt_clear_sequences():
    p0, p1 = 1 / 3, 1 / 3 + 0.1
    up, down = math.log(0.8 / 0.05), math.log(0.2 / 0.95)
    t = st.SPRT(p0, 0.1)
    decisions = [t.update(1.0) for _ in range(30)]
    n_h1 = math.ceil(up / math.log(p1 / p0))
    assert decisions[n_h1 - 2] == "continue" and decisions[n_h1 - 1] == "accept_h1"
    assert t.stopped_at == n_h1 and t.decide() == "accept_h1"
    assert t.update(0.0) == "accept_h1"  # stopped tests ignore further data
    assert t.games_seen == n_h1

    res = st.sprt(np.zeros(30), p0, 0.1)
    assert res.decision == "accept_h0"
    assert res.stopped_at == math.ceil(down / math.log((1 - p1) / (1 - p0)))

    res = st.sprt(np.ones(3), p0, 0.1)  # too short to decide
    assert res.decision == "continue" and res.stopped_at is None and res.games_seen == 3


def test_sprt_fractional_credit_at_fair_share_drifts_to_h0():
    # A seat that always gets exactly its fair share (three-way ties) is not advantaged.
    res = st.sprt(np.full(1000, 1 / 3), 1 / 3, 0.05)
    assert res.decision == "accept_h0"
    t = st.SPRT(1 / 3, 0.05)
    kl = 1 / 3 * math.log(t.p1 / t.p0) + 2 / 3 * math.log((1 - t.p1) / (1 - t.p0))
    assert t.increment(1 / 3) == pytest.approx(kl) and kl < 0


def test_sprt_run_equals_updates():
    rng = np.random.default_rng(8)
    for _ in range(20):
        xs = synthetic_wins(rng, 1, 400, 3, 0.36, tie_rate=0.2)[0, :, 0]
        loop = st.SPRT(1 / 3, 0.05)
        for x in xs:
            loop.update(float(x))
        vec = st.SPRT(1 / 3, 0.05)
        vec.run(xs[:150])
        vec.run(xs[150:])  # run can be resumed in chunks
        assert vec.result().decision == loop.decide()
        assert vec.stopped_at == loop.stopped_at
        assert vec.llr == pytest.approx(loop.llr)


def test_sprt_rejects_bad_parameters():
    for kwargs in [
        dict(p0=0.5, delta=0.6),
        dict(p0=0.5, delta=-0.1),
        dict(p0=0.5, delta=0.1, alpha=0.6, beta=0.5),
    ]:
        with pytest.raises(ValueError):
            st.SPRT(**kwargs)


# ------------------------------------------------------------------------ bootstrap


def test_margin_definition():
    scores = np.array([[10, 7, 9], [5, 5, 2], [3, 8, 1]])
    np.testing.assert_array_equal(st.margins(scores), [1, 0, -5])
    np.testing.assert_array_equal(st.margins(scores, seat=1), [-3, 0, 5])


def test_bootstrap_matches_scipy_percentile():
    rng = np.random.default_rng(21)
    scores = rng.poisson([14, 12, 12], size=(300, 3))
    res = st.bootstrap_margin(scores, n_boot=5000, rng=1)
    m = st.margins(scores)
    ref = sps.bootstrap(
        (m,), np.mean, n_resamples=5000, method="percentile", random_state=np.random.default_rng(2)
    ).confidence_interval
    assert res.mean == pytest.approx(m.mean())
    assert res.lo < res.mean < res.hi
    # different random streams: agree to well within the interval's Monte-Carlo noise
    width = res.hi - res.lo
    assert res.lo == pytest.approx(ref.low, abs=0.05 * width)
    assert res.hi == pytest.approx(ref.high, abs=0.05 * width)
    # reproducible with the same seed
    assert st.bootstrap_margin(scores, n_boot=5000, rng=1) == res


def test_bootstrap_covers_true_mean():
    # 2 players, seat 0 ~ Poisson(12), seat 1 ~ Poisson(10): true mean margin is 2.
    rng = np.random.default_rng(4)
    hits = 0
    reps = 200
    for _ in range(reps):
        scores = rng.poisson([12, 10], size=(150, 2))
        res = st.bootstrap_margin(scores, n_boot=1000, rng=rng)
        hits += res.lo <= 2.0 <= res.hi
    assert 0.9 <= hits / reps <= 0.99


# ---------------------------------------------------------------------------- power


def test_games_needed_textbook_value():
    # ((1.95996*0.5 + 0.84162*sqrt(0.55*0.45)) / 0.05)^2 = 782.5 -> 783
    assert st.games_needed(0.5, 0.05, alpha=0.05, beta=0.2, two_sided=True) == 783
    one = st.games_needed(0.5, 0.05, alpha=0.05, beta=0.2, two_sided=False)
    assert one < 783
    assert one == math.ceil(((1.644854 * 0.5 + 0.841621 * math.sqrt(0.55 * 0.45)) / 0.05) ** 2)


def test_games_needed_close_to_statsmodels():
    power = pytest.importorskip("statsmodels.stats.power")
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    # statsmodels uses Cohen's arcsine effect size, so expect agreement within ~1 %.
    h = proportion.proportion_effectsize(0.55, 0.5)
    ref = power.NormalIndPower().solve_power(h, nobs1=None, alpha=0.05, power=0.8, ratio=0)
    assert st.games_needed(0.5, 0.05) == pytest.approx(ref, rel=0.01)


def test_games_needed_delivers_the_power():
    # Studies of exactly games_needed games detect the bias about 1 - beta of the time.
    p0, delta = 1 / 3, 0.1
    n = st.games_needed(p0, delta, alpha=0.05, beta=0.2)
    rng = np.random.default_rng(13)
    wins = synthetic_wins(rng, 400, n, 3, p0 + delta)
    detected = np.mean([st.binomial_test_first_seat(w, 3).p_two_sided < 0.05 for w in wins])
    assert 0.72 <= detected <= 0.9


def test_power_line_text():
    line = st.power_line(0.5, 0.05, games_played=500)
    assert "783 games" in line and "500 were played (fewer than that)" in line
    assert "80% power" in line and "two-sided" in line
    assert "(at least that many)" in st.power_line(0.5, 0.05, games_played=783)


# -------------------------------------------------------------- simulated studies


def test_biased_game_detected():
    rng = np.random.default_rng(100)
    wins = synthetic_wins(rng, 200, 500, 3, 1 / 3 + 0.1)
    p = np.array([st.binomial_test_first_seat(w, 3).p_two_sided for w in wins])
    assert np.mean(p < 0.05) > 0.9


def test_fair_game_false_positive_rate_near_alpha():
    rng = np.random.default_rng(200)
    wins = synthetic_wins(rng, 400, 500, 3, 1 / 3)
    p = np.array([st.binomial_test_first_seat(w, 3).p_two_sided for w in wins])
    assert 0.02 <= np.mean(p < 0.05) <= 0.09
    chi = np.array([st.chi_square_seats(w).p_value for w in wins])
    assert 0.02 <= np.mean(chi < 0.05) <= 0.09


def test_fair_game_with_ties_stays_at_or_below_alpha():
    # Split credits have less variance than 0/1 outcomes: the tests become conservative.
    rng = np.random.default_rng(300)
    wins = synthetic_wins(rng, 400, 500, 3, 1 / 3, tie_rate=0.3)
    p = np.array([st.binomial_test_first_seat(w, 3).p_two_sided for w in wins])
    assert np.mean(p < 0.05) <= 0.07


def test_sprt_error_rates():
    p0, delta, alpha, beta = 1 / 3, 0.05, 0.05, 0.2
    rng = np.random.default_rng(400)
    fair = synthetic_wins(rng, 400, 3000, 3, p0)[:, :, 0]
    fair_res = [st.sprt(x, p0, delta, alpha, beta) for x in fair]
    false_h1 = np.mean([r.decision == "accept_h1" for r in fair_res])
    assert false_h1 <= alpha + 0.02  # Wald: at most about alpha / (1 - beta)
    assert np.mean([r.decision == "continue" for r in fair_res]) < 0.01

    biased = synthetic_wins(rng, 400, 3000, 3, p0 + delta)[:, :, 0]
    biased_res = [st.sprt(x, p0, delta, alpha, beta) for x in biased]
    assert np.mean([r.decision == "accept_h1" for r in biased_res]) >= 1 - beta - 0.05
    # ... and it stops well before the fixed-sample design on average
    mean_stop = np.mean([r.stopped_at or 3000 for r in biased_res])
    assert mean_stop < st.games_needed(p0, delta, alpha, beta, two_sided=False)


# ---------------------------------------------------------------------------- summary


def test_summarize_biased_scored_game():
    rng = np.random.default_rng(7)
    wins, scores = synthetic_scored_game(rng, 600, 3, first_bonus=3)
    out = st.summarize(wins, scores, 3, delta=0.05, n_boot=2000)
    json.dumps(out, allow_nan=False)  # plain JSON, no numpy types
    assert out["games"] == 600 and out["num_players"] == 3
    assert [s["seat"] for s in out["seats"]] == [1, 2, 3]
    assert sum(s["win_rate"] for s in out["seats"]) == pytest.approx(1.0)
    for s in out["seats"]:
        lo, hi = s["ci95"]
        assert lo < s["win_rate"] < hi
    assert out["binomial_seat1"]["p_two_sided"] < 1e-6
    assert out["chi_square"]["p_value"] < 1e-6
    assert out["sprt"]["decision"] == "accept_h1"
    # the fair reference for seat 1's margin is the other seats' margins, not 0
    assert out["margin_seat1"]["lo"] > max(s["mean_margin"] for s in out["seats"][1:])
    assert out["games_needed"] == st.games_needed(1 / 3, 0.05)
    assert out["power"] == st.power_line(1 / 3, 0.05, games_played=600)


def test_summarize_fair_scored_game():
    rng = np.random.default_rng(9)
    wins, scores = synthetic_scored_game(rng, 600, 4, first_bonus=0)
    out = st.summarize(wins, scores, 4, n_boot=2000)
    json.dumps(out, allow_nan=False)
    assert out["binomial_seat1"]["p_two_sided"] > 0.05
    assert out["sprt"]["decision"] != "accept_h1"
    # With 3 opponents the best of them usually beats seat 1, so the fair margin is
    # negative; the reference is the other seats' margins, which seat 1's interval covers.
    margin = out["margin_seat1"]
    assert margin["hi"] < 0
    others = [s["mean_margin"] for s in out["seats"][1:]]
    assert margin["lo"] <= np.mean(others) <= margin["hi"]
    assert out["seats"][0]["mean_margin"] == pytest.approx(margin["mean"])


def test_summarize_checks_shapes():
    wins = np.eye(3)
    with pytest.raises(ValueError):
        st.summarize(wins, np.zeros((3, 2), dtype=int), 3)
    with pytest.raises(ValueError):
        st.summarize(wins, np.zeros((3, 3), dtype=int), 2)
