"""Rating math (tradewinds.ratings): Elo from win rates, ranks, per-agent tables, openskill
on synthetic results with known strengths, intervals that shrink with more games."""

import math

import numpy as np
import pytest

from tradewinds import ratings
from tradewinds.stats import wilson_interval


def game(agents, scores, winners):
    return {"agents": list(agents), "scores": list(scores), "winners": list(winners)}


# ------------------------------------------------------------------------------- Elo


def test_elo_from_known_win_rates():
    assert ratings.elo_difference(0.5) == 0.0
    assert ratings.elo_difference(0.75) == pytest.approx(400 * math.log10(3))   # 190.85
    assert ratings.elo_difference(10 / 11) == pytest.approx(400.0)
    assert ratings.elo_difference(1 / 11) == pytest.approx(-400.0)
    assert ratings.elo_difference(0.64) == pytest.approx(99.95, abs=0.01)
    assert ratings.elo_difference(1.0) == math.inf
    assert ratings.elo_difference(0.0) == -math.inf
    for d in (-350.0, -12.5, 0.0, 100.0, 400.0):
        assert ratings.elo_difference(ratings.expected_score(d)) == pytest.approx(d)
    with pytest.raises(ValueError, match="score rate"):
        ratings.elo_difference(1.2)


def test_elo_interval_is_the_wilson_interval_mapped():
    elo, lo, hi = ratings.elo_interval(75, 100)
    wlo, whi = wilson_interval(75, 100)
    assert elo == pytest.approx(ratings.elo_difference(0.75))
    assert lo == pytest.approx(ratings.elo_difference(wlo))
    assert hi == pytest.approx(ratings.elo_difference(whi))
    assert lo < elo < hi
    # a clean sweep: infinite estimate, finite lower bound
    elo, lo, hi = ratings.elo_interval(40, 40)
    assert elo == math.inf and hi == math.inf and 300 < lo < 600
    assert ratings.elo_interval(0, 0)[1:] == (-math.inf, math.inf)


def test_intervals_shrink_with_more_games():
    widths = []
    for n in (50, 200, 800, 3200):
        _, lo, hi = ratings.elo_interval(0.6 * n, n)
        widths.append(hi - lo)
    assert all(a > b for a, b in zip(widths, widths[1:], strict=False))
    assert widths[0] / widths[-1] == pytest.approx(8.0, rel=0.15)    # ~ 1/sqrt(n)


# ---------------------------------------------------------------------- games, ranks


def test_ranks_winners_first_then_scores():
    assert ratings.ranks([10, 5, 5], [0]) == [1, 2, 2]
    assert ratings.ranks([7, 7, 3], [1]) == [2, 1, 3]         # tie-break decided seat 1
    assert ratings.ranks([7, 7, 3], [0, 1]) == [1, 1, 2]      # shared win
    assert ratings.ranks([1, 9, 4, 9], [1, 3]) == [3, 1, 2, 1]
    assert ratings.win_credit(game("ab", [7, 7], [0, 1])) == [0.5, 0.5]
    assert ratings.win_credit(game("abc", [1, 2, 3], [2])) == [0, 0, 1.0]


def test_agent_table_known_values():
    rows = [game("ab", [10, 4], [0]), game("ba", [6, 6], [0, 1]), game("ba", [3, 8], [1]),
            game("aab", [5, 9, 1], [1])]          # a holds two seats in the last game
    t = ratings.agent_table(rows, ["a", "b", "c"])
    a, b, c = t["a"], t["b"], t["c"]
    assert (a["games"], a["seat_games"], a["wins"]) == (4, 5, 3.5)
    assert a["win_rate"] == pytest.approx(0.7)
    assert a["ci95"] == pytest.approx(list(wilson_interval(3.5, 5)))
    assert a["mean_vp"] == pytest.approx((10 + 6 + 8 + 5 + 9) / 5)
    assert a["mean_rank"] == pytest.approx((1 + 1 + 1 + 2 + 1) / 5)
    assert a["game_share"] == pytest.approx(3.5 / 4) and b["game_share"] == 0.5 / 4
    assert (b["games"], b["seat_games"], b["wins"]) == (4, 4, 0.5)
    assert b["mean_vp"] == pytest.approx((4 + 6 + 3 + 1) / 4)
    assert c["seat_games"] == 0 and math.isnan(c["win_rate"])
    assert list(t) == ["a", "b", "c"]


def test_head_to_head_and_elo_table():
    rows = ([game("ab", [2, 1], [0])] * 6 + [game("ba", [2, 1], [0])] * 2
            + [game("ab", [1, 1], [0, 1])] * 2 + [game("ac", [0, 5], [1])] * 4
            + [game("abc", [1, 2, 3], [2])])          # a 3-seat game counts in no pair
    h = ratings.head_to_head(rows, "a", "b")
    assert h["games"] == 10 and h["score"] == 7.0 and h["score_rate"] == 0.7
    assert h["elo"] == pytest.approx(ratings.elo_difference(0.7))
    assert h["elo_ci95"] == pytest.approx(list(ratings.elo_interval(7, 10)[1:]))
    t = ratings.elo_table(rows, ["a", "b", "c"])
    assert t["reference"] == "a" and len(t["pairs"]) == 3
    assert t["agents"]["b"]["elo"] == pytest.approx(-h["elo"])
    assert t["agents"]["b"]["elo_ci95"] == pytest.approx([-h["elo_ci95"][1],
                                                          -h["elo_ci95"][0]])
    assert t["agents"]["c"]["elo"] == math.inf          # c won all 4 against a
    bc = t["pairs"][2]
    assert (bc["a"], bc["b"], bc["games"]) == ("b", "c", 0) and math.isnan(bc["elo"])


# ------------------------------------------------------------------------- openskill


def plackett_luce_games(strengths, players, games, rng):
    """Synthetic games: every game seats `players` random agents; the finishing order is
    drawn from the Plackett-Luce model with the given strengths; score = places from last."""
    names = list(strengths)
    rows = []
    for _ in range(games):
        seats = list(rng.choice(names, size=players, replace=False))
        left, order = list(range(players)), []
        while left:
            w = np.array([strengths[seats[s]] for s in left], dtype=float)
            pick = left[rng.choice(len(left), p=w / w.sum())]
            order.append(pick)
            left.remove(pick)
        scores = [0] * players
        for place, s in enumerate(order):
            scores[s] = players - place
        rows.append(game(seats, scores, [order[0]]))
    return rows


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openskill_orders_agents_by_their_true_strength(players):
    strengths = {"w": 1.0, "x": 2.0, "y": 4.0, "z": 8.0}
    rows = plackett_luce_games(strengths, players, 600, np.random.default_rng(players))
    r = ratings.openskill_ratings(rows, list(strengths))
    assert r["model"] == "plackett_luce"
    assert list(r["agents"]) == ["z", "y", "x", "w"]          # sorted by ordinal, best first
    mus = [r["agents"][a]["mu"] for a in "wxyz"]
    assert mus == sorted(mus)
    for a, x in r["agents"].items():
        assert x["ordinal"] == pytest.approx(x["mu"] - 3 * x["sigma"])
        assert x["ci95"] == pytest.approx([x["mu"] - 1.96 * x["sigma"],
                                           x["mu"] + 1.96 * x["sigma"]], abs=1e-3)
        assert x["games"] == sum(a in g["agents"] for g in rows)


def test_openskill_sigma_shrinks_with_more_games_and_other_models_work():
    strengths = {"a": 1.0, "b": 3.0}
    rows = plackett_luce_games(strengths, 2, 800, np.random.default_rng(7))
    few = ratings.openskill_ratings(rows[:50])["agents"]
    many = ratings.openskill_ratings(rows)["agents"]
    for a in strengths:
        assert many[a]["sigma"] < few[a]["sigma"] < 25 / 3
    assert many["b"]["mu"] > many["a"]["mu"]
    for model in ratings.MODELS:
        r = ratings.openskill_ratings(rows[:100], model=model)["agents"]
        assert list(r) == ["b", "a"], model
    with pytest.raises(ValueError, match="unknown openskill model"):
        ratings.openskill_ratings(rows, model="glicko")


def test_openskill_with_an_agent_in_several_seats():
    """Fewer agents than seats: the strong agent holds one or two of three seats and still
    ends on top; each game counts once per agent."""
    rng = np.random.default_rng(3)
    rows = []
    for i in range(300):
        seats = ["s", "s", "w"] if i % 2 else ["s", "w", "w"]
        rng.shuffle(seats)
        strong = [k for k, a in enumerate(seats) if a == "s"]
        win = int(rng.choice(strong)) if rng.random() < 0.85 else \
            int(rng.choice([k for k in range(3) if seats[k] == "w"]))
        scores = [5 if k == win else int(rng.integers(0, 5)) for k in range(3)]
        rows.append(game(seats, scores, [win]))
    r = ratings.openskill_ratings(rows)["agents"]
    assert list(r) == ["s", "w"]
    assert r["s"]["games"] == r["w"]["games"] == 300
    assert r["s"]["mu"] - r["w"]["mu"] > 5
