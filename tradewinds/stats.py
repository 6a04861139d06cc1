"""Statistics for the first-player-advantage study.

Every function here is pure (no global state; randomness only through an explicit
``rng``) and takes plain numpy arrays, so the study script, notebooks and tests all
share one tested implementation.

Inputs
------
``wins``
    float array ``[games, seats]``; each row sums to 1. A win shared between k
    players gives each of them 1/k, so a seat's column sum is its (possibly
    fractional) number of wins and the column mean is its win rate.
``scores``
    int array ``[games, seats]`` of final victory points.

Seat index 0 in code is the first player, called "seat 1" in every user-facing
text (the ``summarize`` dict numbers seats from 1 as well).

Statistical choices (read these before quoting a p-value)
---------------------------------------------------------
* **Wilson intervals with split wins** use the fractional win count directly in the
  Wilson formula (slightly conservative, see below).
* **Exact binomial test of seat 1** rounds seat 0's fractional win total to the
  nearest integer (halves round up) and tests it against p = 1/n with
  ``scipy.stats.binomtest``. Counting only outright wins was rejected: with ties,
  the chance of an outright win is below 1/n even in a fair game, which would
  bias the test against seat 1. Both the two-sided p-value (the headline) and the
  one-sided "greater" p-value (the question "does seat 1 have an *advantage*?")
  are reported.
* **Chi-square goodness of fit** compares the per-seat (fractional) win totals
  with the uniform expectation games/n, df = n - 1. It answers "is any seat
  different?", not "is seat 1 better?".
* **Shared wins make the tests conservative.** Split credit varies less than a 0/1
  outcome while the tests assume 0/1 variance. Simulated 3-player fair games with
  30 % two-way ties reject at about 2 % (binomial) and 1.5 % (chi-square) at a
  nominal 5 %; without ties both sit at about 5 %. Power drops accordingly.
* **SPRT** (Wald) tests H0: p = p0 = 1/n against H1: p = p0 + delta on the sequence
  "seat 0's win credit" game by game, with boundaries log A = log((1-beta)/alpha)
  and log B = log(beta/(1-alpha)). A split credit x in [0, 1] contributes
  ``x*log(p1/p0) + (1-x)*log((1-p1)/(1-p0))``, the Bernoulli log-likelihood ratio
  interpolated linearly; its drift under H0 equals the Bernoulli one and its
  variance is smaller. The test stops at the first boundary crossing; a run that
  never crosses reports "continue". Run over recorded games it is valid only if
  the recorded order does not depend on the outcomes (e.g. the order played).
  Wald's boundaries are approximations: the real error rates are at most about
  alpha/(1-beta) and beta/(1-alpha).
* **VP margin** of seat 1 in a game is ``score[0] - max(score[1:])``: positive when
  seat 1 beat everyone, 0 when tied for the top, negative otherwise. With 3+
  players its fair-game mean is below 0 (one seat against the best of the rest), so
  read it against the other seats' mean margins (in ``summarize``). The interval
  for its mean is a percentile bootstrap over games (default 10 000 resamples,
  default seed 0 so the summary is reproducible).
* **Games needed** is the normal-approximation sample size for a one-sample
  proportion test: n = ((z_a*sqrt(p0*q0) + z_b*sqrt(p1*q1)) / delta)^2, rounded
  up, z_a = z(1-alpha/2) two-sided or z(1-alpha) one-sided, z_b = z(1-beta). It is
  planning arithmetic for the fixed-sample binomial test, not for the SPRT (which
  usually stops sooner on average).
* No correction for multiple testing is applied across the binomial test, the
  chi-square test and the SPRT; they answer different questions. Pick one as the
  headline before the games are played (the two-sided binomial test of seat 1 is
  the natural choice).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np
from scipy import stats as sps

Decision = Literal["accept_h0", "accept_h1", "continue"]

__all__ = [
    "BinomialResult",
    "ChiSquareResult",
    "Decision",
    "MarginResult",
    "SPRT",
    "SPRTResult",
    "binomial_test_first_seat",
    "bootstrap_margin",
    "chi_square_seats",
    "games_needed",
    "margins",
    "power_line",
    "sprt",
    "summarize",
    "wilson_interval",
    "win_rates",
]


# --------------------------------------------------------------------------- inputs


def _check_wins(wins: np.ndarray) -> np.ndarray:
    """Validate a wins matrix: 2-D, >= 2 seats, entries in [0, 1], rows summing to 1."""
    w = np.asarray(wins, dtype=float)
    if w.ndim != 2 or w.shape[1] < 2:
        raise ValueError(f"wins must be [games, seats] with >= 2 seats, got shape {w.shape}")
    if w.size and (np.any(w < 0) or np.any(w > 1)):
        raise ValueError("wins entries must lie in [0, 1]")
    if w.size and not np.allclose(w.sum(axis=1), 1.0, atol=1e-9):
        raise ValueError("each row of wins must sum to 1 (split shared wins as 1/k)")
    return w


def _check_scores(scores: np.ndarray) -> np.ndarray:
    s = np.asarray(scores)
    if s.ndim != 2 or s.shape[1] < 2:
        raise ValueError(f"scores must be [games, seats] with >= 2 seats, got shape {s.shape}")
    return s


def _check_prob(name: str, x: float) -> None:
    if not 0.0 < x < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {x}")


# ------------------------------------------------------------------ rates and intervals


def win_rates(wins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat win rate and (fractional) win count.

    Returns ``(rates, counts)`` with ``counts = wins.sum(0)`` and
    ``rates = counts / games``; shared wins are already split in ``wins``, so the
    rates sum to 1 across seats. With no games the rates are NaN.
    """
    w = _check_wins(wins)
    counts = w.sum(axis=0)
    games = w.shape[0]
    rates = counts / games if games else np.full(w.shape[1], np.nan)
    return rates, counts


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Chosen over the Wald interval because it keeps near-nominal coverage for small n
    and rates near 0 or 1 and never leaves [0, 1]. ``successes`` may be fractional
    (split wins): it is used as is in the formula. With ``n == 0`` the
    uninformative interval (0, 1) is returned.
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    _check_prob("confidence", confidence)
    if n == 0:
        return 0.0, 1.0
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    p = successes / n
    z2n = z * z / n
    denom = 1.0 + z2n
    centre = (p + z2n / 2) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference(x, y, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``x - y`` over paired games, with a Student t interval: (mean, lo, hi).

    For an agent's win credit beside a control's on the same seeds and seats (the
    opponent's policy in the agent's seat): games where the two play alike cancel, so the
    interval is far narrower than two independent Wilson intervals would give. With
    every difference 0 (identical play) the interval is (0, 0).
    """
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    if d.ndim != 1 or d.size < 2:
        raise ValueError(f"need two equal-length 1-d samples of 2+ games, got shape {d.shape}")
    _check_prob("confidence", confidence)
    mean = float(d.mean())
    half = float(sps.t.ppf(0.5 + confidence / 2, d.size - 1) * d.std(ddof=1)
                 / math.sqrt(d.size))
    return mean, mean - half, mean + half


# ----------------------------------------------------------------------------- tests


@dataclass(frozen=True)
class BinomialResult:
    """Exact binomial test of seat 1 (index 0) against p = 1/num_players."""

    successes: int  # seat 0's win total, rounded to the nearest integer
    games: int
    p_null: float
    estimate: float  # unrounded fractional win rate of seat 0
    p_two_sided: float
    p_greater: float


def binomial_test_first_seat(wins: np.ndarray, num_players: int) -> BinomialResult:
    """Exact binomial test of the first seat's wins against the fair share 1/n.

    Seat 0's fractional win total is rounded to the nearest integer (halves up),
    because ``scipy.stats.binomtest`` needs an integer count; counting only outright
    wins would bias the test against seat 0 whenever ties occur.
    """
    w = _check_wins(wins)
    if num_players != w.shape[1]:
        raise ValueError(f"num_players={num_players} but wins has {w.shape[1]} seats")
    games = w.shape[0]
    if games == 0:
        raise ValueError("need at least one game")
    total = float(w[:, 0].sum())
    k = int(math.floor(total + 0.5))
    p0 = 1.0 / num_players
    return BinomialResult(
        successes=k,
        games=games,
        p_null=p0,
        estimate=total / games,
        p_two_sided=float(sps.binomtest(k, games, p0, alternative="two-sided").pvalue),
        p_greater=float(sps.binomtest(k, games, p0, alternative="greater").pvalue),
    )


@dataclass(frozen=True)
class ChiSquareResult:
    """Goodness of fit of per-seat win totals to the uniform distribution."""

    statistic: float
    df: int
    p_value: float
    observed: list[float]
    expected: float  # games / seats, the same for every seat


def chi_square_seats(wins: np.ndarray) -> ChiSquareResult:
    """Pearson chi-square test that every seat wins equally often.

    Uses ``scipy.stats.chisquare`` on the per-seat (fractional) win totals against
    games/n each, df = n - 1. It detects a bias at any seat, so it complements
    the first-seat binomial test rather than replacing it.
    """
    w = _check_wins(wins)
    if w.shape[0] == 0:
        raise ValueError("need at least one game")
    observed = w.sum(axis=0)
    res = sps.chisquare(observed)
    return ChiSquareResult(
        statistic=float(res.statistic),
        df=w.shape[1] - 1,
        p_value=float(res.pvalue),
        observed=[float(x) for x in observed],
        expected=float(w.shape[0] / w.shape[1]),
    )


# ------------------------------------------------------------------------------ SPRT


@dataclass(frozen=True)
class SPRTResult:
    decision: Decision
    stopped_at: int | None  # number of games seen when a boundary was crossed
    games_seen: int
    llr: float  # log-likelihood ratio when stopped (or after the last game)
    lower: float  # log B
    upper: float  # log A
    p0: float
    p1: float
    alpha: float
    beta: float


class SPRT:
    """Wald's sequential probability ratio test for "seat 0 wins" observations.

    H0: p = p0 (fair share, 1/n) against H1: p = p0 + delta, with type I error
    ``alpha`` and type II error ``beta``. Lets a study stop as soon as the evidence
    is decisive instead of playing a fixed, pessimistic number of games.

    Observations are win credits x in [0, 1]; a split win contributes
    ``x*log(p1/p0) + (1-x)*log((1-p1)/(1-p0))``. The test stops at the first
    boundary crossing; later ``update`` calls are ignored.
    """

    def __init__(self, p0: float, delta: float, alpha: float = 0.05, beta: float = 0.2):
        p1 = p0 + delta
        _check_prob("p0", p0)
        _check_prob("p0 + delta", p1)
        _check_prob("alpha", alpha)
        _check_prob("beta", beta)
        if delta <= 0:
            raise ValueError(f"delta must be positive, got {delta}")
        if alpha + beta >= 1:
            raise ValueError("alpha + beta must be below 1")
        self.p0, self.p1, self.alpha, self.beta = p0, p1, alpha, beta
        self.upper = math.log((1 - beta) / alpha)  # log A: cross it -> accept H1
        self.lower = math.log(beta / (1 - alpha))  # log B: cross it -> accept H0
        self._win = math.log(p1 / p0)
        self._loss = math.log((1 - p1) / (1 - p0))
        self.llr = 0.0
        self.games_seen = 0
        self.stopped_at: int | None = None
        self._decision: Decision = "continue"

    def increment(self, x: float | np.ndarray) -> float | np.ndarray:
        """Log-likelihood-ratio contribution of win credit(s) x."""
        return x * self._win + (1 - x) * self._loss

    def update(self, x: float) -> Decision:
        """Add one game's win credit for seat 0 and return the current decision."""
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"win credit must lie in [0, 1], got {x}")
        if self._decision != "continue":
            return self._decision
        self.games_seen += 1
        self.llr += float(self.increment(x))
        if self.llr >= self.upper:
            self._decision = "accept_h1"
        elif self.llr <= self.lower:
            self._decision = "accept_h0"
        if self._decision != "continue":
            self.stopped_at = self.games_seen
        return self._decision

    def decide(self) -> Decision:
        """'accept_h0', 'accept_h1' or 'continue' (no boundary crossed yet)."""
        return self._decision

    def run(self, xs: np.ndarray) -> SPRTResult:
        """Feed a whole sequence at once (vectorised) and return the result.

        Equivalent to calling ``update`` for each element in order.
        """
        xs = np.asarray(xs, dtype=float).ravel()
        if xs.size and (xs.min() < 0 or xs.max() > 1):
            raise ValueError("win credits must lie in [0, 1]")
        if self._decision == "continue" and xs.size:
            path = self.llr + np.cumsum(self.increment(xs))
            crossed = np.flatnonzero((path >= self.upper) | (path <= self.lower))
            if crossed.size:
                i = int(crossed[0])
                self.llr = float(path[i])
                self.games_seen += i + 1
                self._decision = "accept_h1" if path[i] >= self.upper else "accept_h0"
                self.stopped_at = self.games_seen
            else:
                self.llr = float(path[-1])
                self.games_seen += xs.size
        return self.result()

    def result(self) -> SPRTResult:
        return SPRTResult(
            decision=self._decision,
            stopped_at=self.stopped_at,
            games_seen=self.games_seen,
            llr=self.llr,
            lower=self.lower,
            upper=self.upper,
            p0=self.p0,
            p1=self.p1,
            alpha=self.alpha,
            beta=self.beta,
        )


def sprt(
    xs: np.ndarray, p0: float, delta: float, alpha: float = 0.05, beta: float = 0.2
) -> SPRTResult:
    """Run a fresh :class:`SPRT` over the win credits ``xs`` in order."""
    return SPRT(p0, delta, alpha, beta).run(xs)


# ---------------------------------------------------------------------------- margin


@dataclass(frozen=True)
class MarginResult:
    mean: float
    lo: float
    hi: float
    confidence: float
    n_boot: int
    games: int


def margins(scores: np.ndarray, seat: int = 0) -> np.ndarray:
    """A seat's VP margin per game: its score minus the best opponent score.

    For the default seat 0 this is ``score[0] - max(score[1:])``: positive when seat
    0 beat every opponent, 0 when tied for the top, negative when someone beat it.
    Measures *how much* the first seat wins or loses by, which the win rate alone
    hides. With 3+ players the fair-game mean is negative (one seat against the
    best of several), so compare seat 0 with the other seats' margins, not with 0.
    """
    s = _check_scores(scores).astype(float)
    if not 0 <= seat < s.shape[1]:
        raise ValueError(f"seat {seat} out of range for {s.shape[1]} seats")
    return s[:, seat] - np.delete(s, seat, axis=1).max(axis=1)


def bootstrap_margin(
    scores: np.ndarray,
    n_boot: int = 10_000,
    rng: np.random.Generator | int | None = 0,
    confidence: float = 0.95,
    seat: int = 0,
) -> MarginResult:
    """Mean VP margin of seat 0 (or ``seat``) with a percentile bootstrap interval.

    Resamples games with replacement ``n_boot`` times. Bootstrap rather than a t
    interval because margins are discrete and often skewed. ``rng`` is a Generator
    or a seed (default 0, so repeated summaries agree).
    """
    m = margins(scores, seat)
    if m.size == 0:
        raise ValueError("need at least one game")
    if n_boot < 1:
        raise ValueError("n_boot must be positive")
    _check_prob("confidence", confidence)
    gen = np.random.default_rng(rng)
    n = m.size
    means = np.empty(n_boot)
    chunk = max(1, 2_000_000 // n)  # bound memory at ~16 MB of indices
    for start in range(0, n_boot, chunk):
        stop = min(n_boot, start + chunk)
        idx = gen.integers(0, n, size=(stop - start, n))
        means[start:stop] = m[idx].mean(axis=1)
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return MarginResult(
        mean=float(m.mean()),
        lo=float(lo),
        hi=float(hi),
        confidence=confidence,
        n_boot=n_boot,
        games=int(n),
    )


# ----------------------------------------------------------------------------- power


def games_needed(
    p0: float, delta: float, alpha: float = 0.05, beta: float = 0.2, two_sided: bool = True
) -> int:
    """Games needed for a one-sample proportion test to detect p0 + delta.

    Normal approximation with the null variance under the critical value and the
    alternative variance under the power term:
    n = ((z_a*sqrt(p0*(1-p0)) + z_b*sqrt(p1*(1-p1))) / delta)^2, rounded up.
    Tells the study how many games to schedule before it starts.
    """
    p1 = p0 + delta
    _check_prob("p0", p0)
    _check_prob("p0 + delta", p1)
    _check_prob("alpha", alpha)
    _check_prob("beta", beta)
    if delta == 0:
        raise ValueError("delta must be non-zero")
    z_a = float(sps.norm.ppf(1 - alpha / 2 if two_sided else 1 - alpha))
    z_b = float(sps.norm.ppf(1 - beta))
    n = ((z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))) / delta) ** 2
    return int(math.ceil(n - 1e-9))


def power_line(
    p0: float,
    delta: float,
    alpha: float = 0.05,
    beta: float = 0.2,
    two_sided: bool = True,
    games_played: int | None = None,
) -> str:
    """One sentence stating the games needed, for reports and CLI output."""
    n = games_needed(p0, delta, alpha, beta, two_sided)
    sided = "two-sided" if two_sided else "one-sided"
    line = (
        f"Detecting a seat-1 win rate of {p0 + delta:.3f} against the fair {p0:.3f} "
        f"(delta={delta:g}) at alpha={alpha:g} ({sided}) with {1 - beta:.0%} power "
        f"needs about {n} games"
    )
    if games_played is not None:
        verdict = "at least that many" if games_played >= n else "fewer than that"
        line += f"; {games_played} were played ({verdict})"
    return line + "."


# ---------------------------------------------------------------------------- summary


def _jsonable(obj: Any) -> Any:
    """Turn dataclasses / numpy scalars / tuples into plain JSON types."""
    if hasattr(obj, "__dataclass_fields__"):
        return _jsonable(asdict(obj))
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    return obj


def summarize(
    wins: np.ndarray,
    scores: np.ndarray,
    num_players: int,
    delta: float = 0.05,
    alpha: float = 0.05,
    beta: float = 0.2,
    n_boot: int = 10_000,
    rng: np.random.Generator | int | None = 0,
) -> dict[str, Any]:
    """Every statistic of the study in one JSON-serialisable dict.

    Seats are numbered from 1 here (seat 1 = index 0, the first player). The SPRT
    is run sequentially over the games in the given order (H1: seat 1 wins
    1/n + delta). ``games_needed`` is for the two-sided binomial test at
    ``alpha`` with power ``1 - beta``. Wilson intervals are always 95 %. Each seat
    also gets its mean VP margin, the fair-game reference for seat 1's margin.
    """
    w = _check_wins(wins)
    s = _check_scores(scores)
    if w.shape != s.shape:
        raise ValueError(f"wins {w.shape} and scores {s.shape} differ in shape")
    if num_players != w.shape[1]:
        raise ValueError(f"num_players={num_players} but wins has {w.shape[1]} seats")
    games = w.shape[0]
    if games == 0:
        raise ValueError("need at least one game")
    p0 = 1.0 / num_players
    rates, counts = win_rates(w)
    seats = []
    for i in range(num_players):
        lo, hi = wilson_interval(float(counts[i]), games)
        seats.append(
            {
                "seat": i + 1,
                "wins": float(counts[i]),
                "win_rate": float(rates[i]),
                "ci95": [lo, hi],
                "mean_margin": float(margins(s, i).mean()),
            }
        )
    return _jsonable(
        {
            "games": games,
            "num_players": num_players,
            "fair_share": p0,
            "seats": seats,
            "binomial_seat1": binomial_test_first_seat(w, num_players),
            "chi_square": chi_square_seats(w),
            "sprt": sprt(w[:, 0], p0, delta, alpha, beta),
            "margin_seat1": bootstrap_margin(s, n_boot=n_boot, rng=rng),
            "games_needed": games_needed(p0, delta, alpha, beta, two_sided=True),
            "power": power_line(p0, delta, alpha, beta, two_sided=True, games_played=games),
        }
    )
