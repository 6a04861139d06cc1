"""Ratings of agents from recorded games: win rates, openskill, Elo (`tradewinds match`).

Every function here is pure: it takes game rows (dicts with ``agents`` by seat, ``scores``
by seat and ``winners``, the columns of `tradewinds.store`) or plain numbers and returns
plain numbers and dicts.

Choices (read these before quoting a number)
--------------------------------------------
* **Win credit.** A win shared by k players gives each of them 1/k (as in the FPA study,
  `tradewinds.stats`). An agent's *win rate* is its win credit per seat it played
  ("seat-games"); when an agent holds several seats of one game (fewer agents than seats)
  each seat counts, so the fair share of every agent is 1/players. The Wilson 95%
  interval uses the fractional credit as the success count (slightly conservative with
  shared wins) and treats seat-games as independent (an agent's seats in one game are
  not: read its interval as approximate in that case).
* **Ranks.** A game ranks its seats by (winner first, then score, higher first); seats
  that tie on both share a rank. Winners come first even when a tie-break (not the score)
  decided the game, so ranks agree with the game's own winners.
* **openskill.** ``openskill.py``'s Weng-Lin models (Plackett-Luce by default) updated
  game by game in the given order, every seat its own team of one, with ``tau = 0`` (the
  agents do not change during a match, so no skill drift is added). When an agent holds
  several seats of a game, each seat is rated from a copy of the agent's rating and the
  agent takes the mean of the seats' new mu and sigma (an approximation; exact with one
  seat per agent, the usual case). Reported: mu, sigma, the 95% band mu +- 1.96 sigma
  and the ordinal mu - 3 sigma (openskill's conservative rank score; the table is sorted
  by it). Online updates depend on the order of the games; the match feeds them in its
  schedule order, which does not depend on outcomes.
* **Elo (2 players).** From the head-to-head games of two agents, agent a's score rate
  s (wins + half the shared games) gives the Elo difference ``400 log10(s / (1 - s))``,
  the maximum-likelihood estimate of the Elo (logistic) model for one pair. Its 95%
  interval is the Wilson interval of s mapped through the same monotone function, so it
  is asymmetric and exactly as trustworthy as the win-rate interval. s = 1 (or 0) gives
  an infinite estimate with a finite lower (upper) bound: all that a clean sweep says.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from tradewinds.stats import wilson_interval

__all__ = [
    "MODELS",
    "agent_table",
    "elo_difference",
    "elo_interval",
    "elo_table",
    "expected_score",
    "head_to_head",
    "openskill_ratings",
    "ranks",
    "win_credit",
]

MODELS = {
    "plackett_luce": "PlackettLuce",
    "bradley_terry_full": "BradleyTerryFull",
    "bradley_terry_part": "BradleyTerryPart",
    "thurstone_mosteller_full": "ThurstoneMostellerFull",
    "thurstone_mosteller_part": "ThurstoneMostellerPart",
}

Z95 = 1.959963984540054


# ----------------------------------------------------------------------------- games


def win_credit(row: dict) -> list[float]:
    """Win credit by seat: 1 split equally among the winners (no winner: all 0)."""
    n = len(row["scores"])
    out = [0.0] * n
    w = row["winners"]
    for s in w:
        out[s] = 1.0 / len(w)
    return out


def ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Rank by seat (1 = best): winners first, then by score, higher first; equal
    (winner, score) pairs share a rank, and ranks are dense (1, 1, 2, ...)."""
    keys = [(0 if s in winners else 1, -float(x)) for s, x in enumerate(scores)]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def agent_table(rows: Iterable[dict], agents: Sequence[str] | None = None) -> dict:
    """Per agent: games it took part in, seat-games, win credit, win rate per seat-game
    with its Wilson 95% interval, mean VP per seat, mean rank per seat, and
    ``game_share``: its win credit over all its seats per game it took part in (equal to
    the win rate when it holds one seat per game; with several seats, the share of the
    games "the agent" won).

    `agents` fixes the order and lists agents that may have no games (their rates are
    NaN); by default the agents of the rows in order of appearance."""
    acc: dict[str, dict] = {a: {"games": 0, "seats": 0, "wins": 0.0, "vp": 0.0, "rank": 0.0}
                            for a in (agents or ())}
    for r in rows:
        credit = win_credit(r)
        rk = ranks(r["scores"], r["winners"])
        for name in dict.fromkeys(r["agents"]):
            acc.setdefault(name, {"games": 0, "seats": 0, "wins": 0.0, "vp": 0.0,
                                  "rank": 0.0})["games"] += 1
        for seat, name in enumerate(r["agents"]):
            a = acc[name]
            a["seats"] += 1
            a["wins"] += credit[seat]
            a["vp"] += float(r["scores"][seat])
            a["rank"] += rk[seat]
    out = {}
    for name, a in acc.items():
        n = a["seats"]
        lo, hi = wilson_interval(a["wins"], n) if n else (math.nan, math.nan)
        out[name] = {
            "games": a["games"], "seat_games": n, "wins": a["wins"],
            "win_rate": a["wins"] / n if n else math.nan, "ci95": [lo, hi],
            "mean_vp": a["vp"] / n if n else math.nan,
            "mean_rank": a["rank"] / n if n else math.nan,
            "game_share": a["wins"] / a["games"] if a["games"] else math.nan,
        }
    return out


# ------------------------------------------------------------------------------- Elo


def elo_difference(score_rate: float) -> float:
    """Elo difference for an expected score in [0, 1]: 400 log10(s / (1 - s)); +-inf at
    1 and 0."""
    s = float(score_rate)
    if not 0.0 <= s <= 1.0 or math.isnan(s):
        raise ValueError(f"score rate must lie in [0, 1], got {score_rate}")
    if s == 1.0:
        return math.inf
    if s == 0.0:
        return -math.inf
    return 400.0 * math.log10(s / (1.0 - s))


def expected_score(elo_diff: float) -> float:
    """The inverse: the expected score of the side `elo_diff` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-float(elo_diff) / 400.0))


def elo_interval(score: float, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """(Elo difference, lower, upper) from `score` points (wins + half the draws) in `n`
    games: the point estimate of `elo_difference` and the Wilson interval mapped through
    it. n = 0 gives (nan, -inf, inf)."""
    if n == 0:
        return math.nan, -math.inf, math.inf
    lo, hi = wilson_interval(score, n, confidence)
    # the Wilson bounds of a clean sweep are 0 or 1 exactly (not 1 - 1e-16: +6000 Elo)
    lo = 0.0 if score <= 0 else lo
    hi = 1.0 if score >= n else hi
    return elo_difference(score / n), elo_difference(lo), elo_difference(hi)


def head_to_head(rows: Iterable[dict], a: str, b: str) -> dict:
    """Two-seat games of `a` against `b` (either seating): a's score (wins + half the
    shared wins), its rate with the Wilson 95% interval, and a's Elo advantage over b with
    its interval (see the module notes)."""
    games, score = 0, 0.0
    for r in rows:
        if len(r["agents"]) != 2 or sorted(r["agents"]) != sorted((a, b)) or a == b:
            continue
        games += 1
        score += win_credit(r)[r["agents"].index(a)]
    rate = score / games if games else math.nan
    lo, hi = wilson_interval(score, games) if games else (math.nan, math.nan)
    elo, elo_lo, elo_hi = elo_interval(score, games)
    return {"a": a, "b": b, "games": games, "score": score, "score_rate": rate,
            "ci95": [lo, hi], "elo": elo, "elo_ci95": [elo_lo, elo_hi]}


def elo_table(rows: Sequence[dict], agents: Sequence[str]) -> dict:
    """For 2-player games: every pair's head-to-head (in `agents` order), and each agent's
    Elo relative to the first agent (0 by definition) from their head-to-head games."""
    pairs = [head_to_head(rows, agents[i], agents[j])
             for i in range(len(agents)) for j in range(i + 1, len(agents))]
    ref = agents[0]
    per_agent = {ref: {"elo": 0.0, "elo_ci95": [0.0, 0.0], "games_vs_reference": None}}
    for p in pairs:
        if p["a"] == ref:
            per_agent[p["b"]] = {"elo": -p["elo"], "elo_ci95": [-p["elo_ci95"][1],
                                                                 -p["elo_ci95"][0]],
                                 "games_vs_reference": p["games"]}
    return {"reference": ref, "pairs": pairs, "agents": per_agent}


# ------------------------------------------------------------------------- openskill


def _model(model: str, **kwargs):
    try:
        import openskill.models as om
    except ImportError as e:     # a core dependency; only a broken install gets here
        raise RuntimeError("ratings need openskill: pip install openskill") from e
    if model not in MODELS:
        raise ValueError(f"unknown openskill model {model!r}; known: {', '.join(MODELS)}")
    return getattr(om, MODELS[model])(**{"tau": 0.0, **kwargs})


def openskill_ratings(rows: Iterable[dict], agents: Sequence[str] | None = None, *,
                      model: str = "plackett_luce", **model_kwargs) -> dict:
    """openskill ratings of the agents after the games `rows`, in the order given.

    Returns {"model", "agents": {name: {mu, sigma, ordinal, ci95, games}}}, agents
    sorted by ordinal, best first (see the module notes for the update rule)."""
    m = _model(model, **model_kwargs)
    rating = {a: m.rating(name=a) for a in (agents or ())}
    games = dict.fromkeys(rating, 0)
    for r in rows:
        names = list(r["agents"])
        for a in names:
            if a not in rating:
                rating[a], games[a] = m.rating(name=a), 0
        rk = ranks(r["scores"], r["winners"])
        teams = [[m.create_rating([rating[a].mu, rating[a].sigma], name=a)] for a in names]
        new = m.rate(teams, ranks=rk)
        for a in dict.fromkeys(names):
            seats = [i for i, x in enumerate(names) if x == a]
            mu = float(np.mean([new[i][0].mu for i in seats]))
            sigma = float(np.mean([new[i][0].sigma for i in seats]))
            rating[a] = m.create_rating([mu, sigma], name=a)
            games[a] += 1
    out = {}
    for a, r in rating.items():
        out[a] = {"mu": float(r.mu), "sigma": float(r.sigma), "ordinal": float(r.ordinal()),
                  "ci95": [float(r.mu - Z95 * r.sigma), float(r.mu + Z95 * r.sigma)],
                  "games": games[a]}
    ordered = dict(sorted(out.items(), key=lambda kv: -kv[1]["ordinal"]))
    return {"model": model, "agents": ordered}
