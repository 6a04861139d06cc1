"""Bradley-Terry (Elo) ratings fitted by maximum likelihood: the rating model of
`tradewinds evaluate` and of its opponent ladders. Pure functions, no I/O.

The model
---------
Agent i has a rating r_i on the Elo scale. In a comparison of i with j, i scores 1 (win),
0 (loss) or 1/2 (shared win) and its expected score is

    P(i beats j) = 1 / (1 + 10 ** (-(r_i - r_j) / 400)),

so 400 points are odds of 10 to 1 and 100 points an expected score of 0.64.

Comparisons from games (`comparisons`). A game of 2 players is one comparison. A game of
3-4 players is broken into pairwise comparisons between seats held by *different* agents:
a winner against a loser is a win for the winner; two co-winners (a shared win) are half a
win each; two losers are not compared (the games record winners, not a full order). So
one 3-player game gives one agent up to two comparisons; they are not independent, so
with 3-4 players the intervals below are somewhat too narrow (the usual price of the
pairwise decomposition).

The fit (`fit`, `fit_one`). The maximum-likelihood estimate does not exist when an agent
won all its comparisons or lost all of them (a clean sweep: its rating runs off to
infinity). Each pair of agents that met is therefore given ``prior_games`` virtual games
(default 1) that ended in a draw: a weak pull of the two ratings towards each other, the
"virtual draw" of BayesElo. It moves a rating noticeably only when a pair's record is close
to a sweep. The estimates are the maximum of this penalised likelihood (Newton's method);
one agent, the anchor, is fixed at 0. The standard errors come from the observed Fisher
information (the negative Hessian of the penalised log-likelihood at the estimate, the
anchor removed), and the 95% interval is estimate +- 1.96 standard errors.

`fit_one` rates one new agent against opponents whose ratings are held fixed (a ladder):
the one-parameter version of the same fit; its interval does not include the
uncertainty of the opponents' ratings (it is the same for every agent rated on that
ladder, so agents rated on one ladder version compare on an equal footing).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

__all__ = [
    "ELO_SCALE",
    "Z95",
    "comparisons",
    "expected_score",
    "fit",
    "fit_one",
    "simulate",
]

ELO_SCALE = 400.0 / math.log(10.0)    # Elo points per unit of log-odds
Z95 = 1.959963984540054


def expected_score(diff: float | np.ndarray) -> float | np.ndarray:
    """Expected score of the side `diff` Elo points stronger."""
    return 1.0 / (1.0 + np.power(10.0, -np.asarray(diff, dtype=float) / 400.0))


def comparisons(rows: Iterable[dict]) -> dict[tuple[str, str], list[float]]:
    """Pairwise comparisons of the agents in game rows (``agents`` by seat, ``winners``):
    ``{(a, b): [comparisons, score of a]}`` with a < b (see the module notes)."""
    out: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        names = list(r["agents"])
        won = set(r["winners"])
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                a, b = names[i], names[j]
                if a == b or (i not in won and j not in won):
                    continue
                s = 0.5 if (i in won and j in won) else (1.0 if i in won else 0.0)
                if a > b:
                    a, b, s = b, a, 1.0 - s
                acc = out.setdefault((a, b), [0.0, 0.0])
                acc[0] += 1.0
                acc[1] += s
    return out


def _check_prior(prior_games: float) -> float:
    p = float(prior_games)
    if not math.isfinite(p) or p < 0:
        raise ValueError(f"prior_games must be a number >= 0, got {prior_games!r}")
    return p


def fit(pairs: Mapping[tuple[str, str], Sequence[float]], agents: Sequence[str] | None = None,
        *, anchor: str = "random", prior_games: float = 1.0, max_iter: int = 200,
        tol: float = 1e-9) -> dict:
    """Ratings of every agent from pairwise results ``{(a, b): (n, score of a)}``.

    Returns ``{"anchor", "prior_games", "iterations", "ratings": {name: {"elo", "se",
    "ci95"}}, "covariance": [[...]] (free agents, in `agents` order less the anchor),
    "log_likelihood"}``. Raises ValueError when the anchor is unknown, a score is out of
    range, or some agent is not connected to the anchor by games (its rating would be
    undetermined)."""
    prior = _check_prior(prior_games)
    names = _agent_names(pairs, agents, anchor)
    data = _Pairs.of(pairs, {a: i for i, a in enumerate(names)}, prior)
    _check_connected(names, data.ia, data.ib, anchor)
    free = np.array([i for i in range(len(names)) if names[i] != anchor], dtype=np.int64)
    r, ll, it = _newton(data, len(names), free, max_iter, tol)
    cov = _covariance(data, r, free)
    return {"anchor": anchor, "prior_games": prior, "iterations": it,
            "ratings": _elo_ratings(names, r, cov, free),
            "covariance": (cov * ELO_SCALE ** 2).tolist(), "log_likelihood": ll}


def _agent_names(pairs, agents, anchor) -> list[str]:
    """The agents of the fit: `agents` (distinct, the anchor among them) or those in `pairs`."""
    names = list(agents) if agents is not None else sorted({x for p in pairs for x in p})
    if len(set(names)) != len(names):
        raise ValueError("agents must be distinct")
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} is not one of the agents ({', '.join(names)})")
    return names


class _Pairs(NamedTuple):
    """The pairs that met, as arrays: agent indices `ia`, `ib`, comparisons `n` and score
    `s` of `ia`, each with the virtual draws of the prior added."""

    ia: np.ndarray
    ib: np.ndarray
    n: np.ndarray
    s: np.ndarray

    @classmethod
    def of(cls, pairs, index: dict[str, int], prior: float) -> _Pairs:
        ia, ib, n, s = [], [], [], []
        for (a, b), (games, score) in pairs.items():
            if a not in index or b not in index:
                raise ValueError(f"results for {a!r} vs {b!r}, not among the agents")
            games, score = float(games), float(score)
            if a == b or games <= 0:
                continue
            if not 0.0 <= score <= games:
                raise ValueError(f"score {score} of {a!r} vs {b!r} is outside [0, {games}]")
            ia.append(index[a])
            ib.append(index[b])
            n.append(games + prior)
            s.append(score + prior / 2.0)
        return cls(np.array(ia, dtype=np.int64), np.array(ib, dtype=np.int64),
                   np.array(n), np.array(s))

    def loglik(self, r: np.ndarray) -> float:
        """The penalised log-likelihood of ratings `r` (log-odds units)."""
        d = r[self.ia] - r[self.ib]
        return float(np.sum(self.s * -np.logaddexp(0.0, -d)
                            + (self.n - self.s) * -np.logaddexp(0.0, d)))

    def grad_info(self, r: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The gradient of `loglik` at `r` and the information matrix (positive)."""
        ia, ib = self.ia, self.ib
        d = r[ia] - r[ib]
        p = 1.0 / (1.0 + np.exp(-d))
        g_pair = self.s - self.n * p
        w = self.n * p * (1.0 - p)
        g = np.zeros(k)
        np.add.at(g, ia, g_pair)
        np.add.at(g, ib, -g_pair)
        h = np.zeros((k, k))
        np.add.at(h, (ia, ib), w)
        np.add.at(h, (ib, ia), w)
        h = -h
        h[np.diag_indices(k)] = 0.0
        h[np.diag_indices(k)] = -h.sum(axis=1)        # information matrix (positive)
        return g, h


def _newton(data: _Pairs, k: int, free: np.ndarray, max_iter: int,
            tol: float) -> tuple[np.ndarray, float, int]:
    """Newton's method with step halving from all ratings 0, the `free` ones moving:
    the ratings (log-odds units), their log-likelihood and the iterations taken."""
    r = np.zeros(k)            # log-odds units
    ll = data.loglik(r)
    it = 0
    while it < max_iter:
        it += 1
        g, info = data.grad_info(r, k)
        gf, hf = g[free], info[np.ix_(free, free)]
        step = np.linalg.solve(hf, gf) if len(free) else gf
        t = 1.0
        while True:
            cand = r.copy()
            cand[free] += t * step
            new = data.loglik(cand)
            if new >= ll - 1e-12 or t < 1e-8:
                break
            t /= 2.0
        r, converged = cand, abs(new - ll) < tol and np.max(np.abs(t * step), initial=0) < 1e-7
        ll = new
        if converged:
            break
    return r, ll, it


def _covariance(data: _Pairs, r: np.ndarray, free: np.ndarray) -> np.ndarray:
    """The covariance of the free ratings at `r`: the inverse of their information."""
    _, info = data.grad_info(r, len(r))
    hf = info[np.ix_(free, free)]
    return np.linalg.inv(hf) if len(free) else np.zeros((0, 0))


def _elo_ratings(names, r, cov, free) -> dict:
    """``{name: {"elo", "se", "ci95"}}`` on the Elo scale (the anchor's se is 0)."""
    se = np.zeros(len(names))
    se[free] = np.sqrt(np.diag(cov))
    ratings = {}
    for i, a in enumerate(names):
        elo, e = float(r[i] * ELO_SCALE), float(se[i] * ELO_SCALE)
        ratings[a] = {"elo": elo, "se": e, "ci95": [elo - Z95 * e, elo + Z95 * e]}
    return ratings


def _check_connected(names, ia, ib, anchor) -> None:
    adj: dict[int, set] = {i: set() for i in range(len(names))}
    for a, b in zip(ia.tolist(), ib.tolist(), strict=True):
        adj[a].add(b)
        adj[b].add(a)
    seen, todo = {names.index(anchor)}, [names.index(anchor)]
    while todo:
        for j in adj[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    lost = [names[i] for i in range(len(names)) if i not in seen]
    if lost:
        raise ValueError(f"no games connect {', '.join(lost)} to the anchor {anchor!r}; "
                         "their ratings are undetermined")


def fit_one(results: Iterable[Sequence[float]], *, prior_games: float = 1.0,
            max_iter: int = 100, tol: float = 1e-10) -> dict:
    """The rating of one agent from its results against opponents of fixed ratings:
    `results` are ``(opponent Elo, comparisons, score)`` triples. Returns ``{"elo", "se",
    "ci95", "comparisons", "score"}``; no comparisons gives elo NaN and an infinite
    interval."""
    prior = _check_prior(prior_games)
    opp, n, s = [], [], []
    for rating, games, score in results:
        games, score = float(games), float(score)
        if games <= 0:
            continue
        if not 0.0 <= score <= games:
            raise ValueError(f"score {score} outside [0, {games}]")
        opp.append(float(rating) / ELO_SCALE)
        n.append(games + prior)
        s.append(score + prior / 2.0)
    total, points = float(sum(n) - prior * len(n)), float(sum(s) - prior / 2.0 * len(s))
    if not opp:
        return {"elo": math.nan, "se": math.inf, "ci95": [-math.inf, math.inf],
                "comparisons": 0.0, "score": 0.0}
    opp, n, s = np.array(opp), np.array(n), np.array(s)
    x = float(np.sum(n * opp) / np.sum(n))       # start: the opponents' mean
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-(x - opp)))
        g = float(np.sum(s - n * p))
        info = float(np.sum(n * p * (1.0 - p)))
        step = g / info
        step = max(-2.0, min(2.0, step))        # at most ~350 Elo per step: no overshoot
        x += step
        if abs(step) < tol:
            break
    p = 1.0 / (1.0 + np.exp(-(x - opp)))
    se = 1.0 / math.sqrt(float(np.sum(n * p * (1.0 - p))))
    elo, e = x * ELO_SCALE, se * ELO_SCALE
    return {"elo": elo, "se": e, "ci95": [elo - Z95 * e, elo + Z95 * e],
            "comparisons": total, "score": points}


def simulate(ratings: Mapping[str, float], games_per_pair: int, seed: int = 0,
             draw_rate: float = 0.0) -> dict[tuple[str, str], list[float]]:
    """Synthetic pairwise results from known Elo ratings (for tests and for sizing a
    ladder): every pair plays `games_per_pair` games. A game is a shared win with
    probability ``draw_rate * 2 min(p, 1 - p)`` (p the model's expected score: lopsided
    pairs share fewer wins), else a win or loss drawn so that the expected score is p."""
    rng = np.random.default_rng(seed)
    names = sorted(ratings)
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = float(expected_score(ratings[a] - ratings[b]))
            d = float(draw_rate) * 2.0 * min(p, 1.0 - p)
            draws = rng.binomial(games_per_pair, d)
            q = (p - 0.5 * d) / (1.0 - d) if d < 1 else 0.5
            wins = rng.binomial(games_per_pair - draws, min(1.0, max(0.0, q)))
            out[(a, b)] = [float(games_per_pair), wins + 0.5 * draws]
    return out
