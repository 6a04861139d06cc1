"""The balancing-value search behind `tradewinds balance`: the value of a compensation knob
at which seat 1 (the first player of the initial turn order) wins its fair share 1/n.

A *knob* is a named one-parameter family of game options (`KNOBS`, data): value k >= 0 of
knob ``seat_vp`` is the linear per-position schedule ``seat_vp=(0, k, 2k, ..., (n-1)k)``,
one entry per seat of the n-player game (seat 1 gets nothing, each later seat k more than
the one before); ``seat_talers`` (Hansa) and ``seat_cards`` (Voyage) likewise (see
tradewinds/compensation.py and the rules pages, HA21-HA22, VA40-VA41).

The design, sequential and deterministic:

* A *probe* at integer knob value k plays games 0, 1, ... in batches (game i has seed
  base_seed + i at every probe: common random numbers, so probes are paired by seed) until
  the Wilson 95 % interval of seat 1's win share excludes the fair share 1/n or the
  per-probe cap is reached. Its verdict is ``above``, ``below`` or ``undecided``.
* Probes at ``lo`` and ``hi`` first; if seat 1 is still above fair at ``hi`` the value is
  "not reached within [lo, hi]" (likewise "already below fair at lo"). Otherwise a
  bisection over the integers between them: an undecided probe goes by its point estimate,
  so the probes close in on the crossing, where games inform the fit most. The search stops
  at adjacent integers or when the total budget is spent.
* The estimate uses every game of every probe: a logistic fit of seat 1's win credit
  against the knob, p(k) = logistic(a + b k); the balancing value is the crossing
  k* = (logit(1/n) - a) / b. Its 95 % interval is a percentile bootstrap that resamples
  seeds (all probes' games of a seed together, which keeps the pairing); it does not
  replay the adaptive stopping, and the repeated looks within a probe only steer where
  games are spent, they are not the interval.

Shared wins count 1/k to each of k winners (studies.balance). The search takes its games
from `play(k, games) -> seat 1's credit in games 0..games-1` (dependency injection):
`ArenaPlay` plays them as arena studies into the results store, so a rerun replays the
same decisions from the stored games and plays nothing new; tests pass a synthetic game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from tradewinds import stats

# knob name -> the game option it sets, per game
KNOBS: dict[str, dict[str, str]] = {
    "hansa": {"seat_vp": "seat_vp", "seat_talers": "seat_talers"},
    "voyage": {"seat_vp": "seat_vp", "seat_cards": "seat_cards"},
}

ABOVE, BELOW, UNDECIDED = "above", "below", "undecided"
FOUND = "found"
NOT_REACHED = "not reached within [lo, hi]: seat 1 still above its fair share at hi"
BELOW_AT_LO = "seat 1 already below its fair share at lo"
NO_BUDGET = "--max-games left no games for the probe at hi"

Play = Callable[[int, int], Sequence[float]]


def knob_option(game: str, knob: str) -> str:
    """The option `knob` sets in `game`; a ValueError naming the game's knobs if it has
    none of that name (and which game has it, if another does)."""
    mine = KNOBS.get(game, {})
    if knob in mine:
        return mine[knob]
    known = ", ".join(sorted(mine)) or "none"
    others = [g for g, ks in KNOBS.items() if knob in ks]
    if others:
        raise ValueError(f"{game} has no knob {knob!r} (that is a knob of "
                         f"{', '.join(others)}); {game}'s knobs: {known}")
    raise ValueError(f"unknown knob {knob!r}; {game}'s knobs: {known}")


def schedule(value: int, num_players: int) -> tuple:
    """The linear per-position schedule of knob value k: (0, k, 2k, ..., (n-1)k)."""
    return tuple(int(value) * s for s in range(num_players))


def knob_options(game: str, knob: str, value: int, num_players: int,
                 base: dict | None = None) -> dict:
    """The game options of knob value `value` on top of `base`."""
    return {**(base or {}), knob_option(game, knob): schedule(value, num_players)}


# ------------------------------------------------------------------------------ probes


@dataclass
class Probe:
    """One knob value's games: seat 1's total credit over `games` games and the verdict."""

    knob: int
    games: int
    wins: float
    fair: float
    verdict: str = UNDECIDED
    credits: list = field(default_factory=list, repr=False)

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        return stats.wilson_interval(self.wins, self.games)

    def summary(self) -> dict:
        d = asdict(self)
        d.pop("credits")
        d.update(share=self.share, ci95=list(self.ci95))
        return d


def verdict(wins: float, games: int, fair: float) -> str:
    """above / below when the Wilson 95 % interval excludes `fair`, else undecided."""
    lo, hi = stats.wilson_interval(wins, games)
    return ABOVE if lo > fair else BELOW if hi < fair else UNDECIDED


def run_probe(play: Play, k: int, fair: float, batch: int, cap: int) -> Probe:
    """Play batches of games at knob value `k` until the verdict is decided or `cap`."""
    games = 0
    credits: list = []
    while games < cap:
        games = min(cap, games + batch)
        credits = [float(x) for x in play(k, games)]
        if len(credits) != games:
            raise ValueError(f"play({k}, {games}) gave {len(credits)} results")
        v = verdict(sum(credits), games, fair)
        if v != UNDECIDED:
            break
    return Probe(k, games, float(sum(credits)), fair, v, credits)


def side(probe: Probe) -> str:
    """The probe's verdict, an undecided one by its point estimate."""
    if probe.verdict != UNDECIDED:
        return probe.verdict
    return ABOVE if probe.share > probe.fair else BELOW


# --------------------------------------------------------------------------- the fit


def fit_logistic(x, s, n, iters: int = 100) -> tuple[float, float]:
    """(a, b) maximising the binomial likelihood of s successes in n at x under
    p = logistic(a + b x); successes may be fractional. Newton's method with a tiny ridge
    (so perfectly separated data still give finite numbers)."""
    x, s, n = (np.asarray(v, dtype=float) for v in (x, s, n))
    X = np.column_stack([np.ones_like(x), x])
    beta = np.array([_logit(min(max(s.sum() / n.sum(), 1e-3), 1 - 1e-3)), 0.0])
    ridge = 1e-6 * np.eye(2)
    for _ in range(iters):
        p = _expit(X @ beta)
        grad = X.T @ (s - n * p) - ridge @ beta
        hess = (X * (n * p * (1 - p))[:, None]).T @ X + ridge
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(beta[0]), float(beta[1])


def crossing(a: float, b: float, fair: float, lo: float) -> float:
    """k with logistic(a + b k) = fair; +-inf when the curve does not decrease (on the
    side where it lies at `lo`)."""
    if b < 0:
        return (_logit(fair) - a) / b
    return math.inf if _expit(a + b * lo) > fair else -math.inf


def bootstrap_crossing(probes: Sequence[Probe], fair: float, lo: float,
                       n_boot: int = 2000, seed: int = 0) -> np.ndarray:
    """k* of `n_boot` seed-resampled data sets: seed i's games at every probe that played
    it are drawn together (the pairing is kept)."""
    m = max(p.games for p in probes)
    credit = np.zeros((len(probes), m))
    played = np.zeros((len(probes), m))
    for j, p in enumerate(probes):
        credit[j, :p.games] = p.credits
        played[j, :p.games] = 1.0
    x = np.array([p.knob for p in probes], dtype=float)
    rng = np.random.default_rng(seed)
    out = np.empty(n_boot)
    for t in range(n_boot):
        w = np.bincount(rng.integers(0, m, m), minlength=m).astype(float)
        n = played @ w
        keep = n > 0
        a, b = fit_logistic(x[keep], (credit @ w)[keep], n[keep])
        out[t] = crossing(a, b, fair, lo)
    return out


def _expit(z):
    return 1.0 / (1.0 + np.exp(-z))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


# ------------------------------------------------------------------------- the search


@dataclass
class SearchResult:
    """What the search found: the probes in the order played, the fit, the status, the
    balancing value with its 95 % interval (None when not found or unbounded)."""

    fair: float
    lo: int
    hi: int
    probes: list
    status: str
    a: float
    b: float
    value: float | None
    ci95: tuple
    games: int

    def summary(self) -> dict:
        d = asdict(self)
        d["probes"] = [p.summary() for p in sorted(self.probes, key=lambda p: p.knob)]
        d["ci95"] = list(self.ci95)
        return d


def search(play: Play, num_players: int, lo: int, hi: int, *, games_per_probe: int = 200,
           batch: int = 50, max_games: int = 4000, n_boot: int = 2000) -> SearchResult:
    """The balancing value of the knob in [lo, hi] (integers) from games of `play`; a
    deterministic function of what `play` returns."""
    if not 0 <= lo < hi:
        raise ValueError(f"need 0 <= lo < hi, got lo={lo}, hi={hi}")
    if batch < 1 or games_per_probe < batch or max_games < batch:
        raise ValueError(f"need 1 <= batch <= games_per_probe and batch <= max_games, got "
                         f"batch={batch}, games_per_probe={games_per_probe}, "
                         f"max_games={max_games}")
    fair = 1.0 / num_players
    probes: list[Probe] = []

    def probe(k: int) -> Probe | None:
        left = max_games - sum(p.games for p in probes)
        if left < batch:
            return None
        probes.append(run_probe(play, k, fair, batch, min(games_per_probe, left)))
        return probes[-1]

    low, high = probe(lo), probe(hi)
    status = FOUND
    if low is not None and low.verdict == BELOW:
        status = BELOW_AT_LO
    elif high is None:
        status = NO_BUDGET
    elif high.verdict == ABOVE:
        status = NOT_REACHED
    else:
        a_k, b_k = lo, hi
        while b_k - a_k > 1:
            mid = (a_k + b_k) // 2
            p = probe(mid)
            if p is None:
                break
            a_k, b_k = (mid, b_k) if side(p) == ABOVE else (a_k, mid)
    return _estimate(probes, fair, lo, hi, status, n_boot)


def _estimate(probes: list[Probe], fair: float, lo: int, hi: int, status: str,
              n_boot: int) -> SearchResult:
    x = [p.knob for p in probes]
    a, b = fit_logistic(x, [p.wins for p in probes], [p.games for p in probes])
    value, ci = None, (None, None)
    if status == FOUND and len(probes) >= 2:
        value = _finite(crossing(a, b, fair, lo))
        boot = bootstrap_crossing(probes, fair, lo, n_boot)
        ci = tuple(_finite(float(q)) for q in np.quantile(boot, [0.025, 0.975]))
    return SearchResult(fair, lo, hi, probes, status, a, b, value, ci,
                        sum(p.games for p in probes))


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


# ------------------------------------------------------------------ the arena's games


class ArenaPlay:
    """`play(k, games)` as arena studies: knob value k is the study of (game, players,
    agent) with the knob's options, seeds base_seed + i; games the store lacks are played
    (resuming), and seat 1's credit in games 0..games-1 is read back from the store."""

    def __init__(self, game: str, num_players: int, agent: str, knob: str, store, *,
                 options: dict | None = None, base_seed: int = 0, fast: bool = True,
                 backend=None, chunk_size: int | None = None, on_rows=None):
        self.game, self.num_players, self.agent, self.knob = game, num_players, agent, knob
        self.store, self.options, self.base_seed, self.fast = store, options, base_seed, fast
        self.backend, self.chunk_size, self.on_rows = backend, chunk_size, on_rows
        self.played = 0            # games played now (not read from the store)
        self.truncated: dict[int, int] = {}

    def study(self, k: int):
        from tradewinds.studies import arena

        opts = knob_options(self.game, self.knob, k, self.num_players, self.options)
        return arena.Study.create(self.game, self.num_players, self.agent, options=opts,
                                  base_seed=self.base_seed, fast=self.fast)

    def __call__(self, k: int, games: int) -> list[float]:
        from tradewinds.studies import arena, balance

        study = self.study(k)
        res = arena.run(study, self.store, games, backend=self.backend,
                        chunk_size=self.chunk_size,
                        on_rows=None if self.on_rows is None else
                        (lambda rows: self.on_rows(k, rows)))
        self.played += res.played
        rows = sorted(self.store.games(res.run_id, below=games), key=lambda r: r["game_index"])
        self.truncated[k] = sum(bool(r["truncated"]) for r in rows)
        return [float(c) for c in balance.position_wins(rows, self.num_players)[:, 0]]
