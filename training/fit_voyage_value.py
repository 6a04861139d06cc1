"""Fit the Voyage leaf judgement (`agents.value_voyage`) to heuristic self-play games.

Every seat plays the heuristic (on its own determinization, as the heuristic agent does);
every `--every`-th decision the features of every seat are recorded with the game's final
win shares. Per player count, a conditional logit (win chance = softmax over seats of
w . features) is fitted by Newton's method with a small ridge, on games with seeds from
`--seed`; the next `--test-games` games measure it against the VP-only judgement. The
result is written as the module `agents/value_voyage_fit.py` (data, with the command that
made it and the held-out log losses).

    tradewinds train voyage-value --games 3000 --test-games 1000
"""

from __future__ import annotations

import pprint
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from tradewinds import registry
from tradewinds.agents import policies, value_voyage
from tradewinds.agents.plan_voyage import aux_routes
from tradewinds.cli_args import ArgumentParser, int_at_least
from tradewinds.compiled import protocol

OUT = Path(value_voyage.__file__).parent / "value_voyage_fit.py"
RIDGE = 1e-3


@njit(cache=True)
def _record_game(aux, s, key, every, num_actions, feats, shares):
    """Play `s` to the end with the heuristic in every seat, writing every seat's features
    at every `every`-th decision into feats[row, seat]; returns the rows written (the
    win shares, known at the end, go to shares[:rows]), or -1 when `feats` is too short."""
    mask = np.zeros(num_actions, dtype=np.int8)
    n = s[0]
    rows, steps = 0, 0
    f = np.empty(value_voyage.NW, dtype=np.float64)
    while not protocol.is_terminal(aux, s):
        if steps % every == 0:
            if rows == feats.shape[0]:
                return -1
            for p in range(n):
                value_voyage.features(s, aux.m, aux_routes(aux), p, f)
                feats[rows, p, :] = f
            rows += 1
        p = protocol.current_player(aux, s)
        seen = s.copy()
        protocol.determinize(aux, seen, p, key)
        protocol.step(aux, s, policies.heuristic_action(aux, seen, mask, key))
        steps += 1
    ret = np.zeros(4, dtype=np.float64)
    protocol.returns(aux, s, ret)
    for r in range(rows):
        shares[r, :n] = ret[:n]
    return rows


def record(num_players: int, seeds, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (rows, n, NW), win shares (rows, n) and game index per row."""
    game = registry.game("voyage")
    X, Y, G = [], [], []
    size = 400
    for i, seed in enumerate(seeds):
        rows = -1
        while rows < 0:                         # a longer game: replay it with more room
            feats = np.zeros((size, num_players, value_voyage.NW), dtype=np.float64)
            shares = np.zeros((size, 4), dtype=np.float64)
            s = game.new_state(num_players, seed=int(seed))
            key = np.array([int(seed) & 0x7FFFFFFF, 12345], dtype=np.int32)
            rows = _record_game(game.aux, s, key, every, game.num_actions, feats, shares)
            size = size if rows >= 0 else 2 * size
        X.append(feats[:rows].copy())
        Y.append(shares[:rows, :num_players].copy())
        G.append(np.full(rows, i))
    return np.concatenate(X), np.concatenate(Y), np.concatenate(G)


def _probs(X, w):
    u = X @ w
    u -= u.max(axis=1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=1, keepdims=True)


def log_loss(X, Y, w) -> float:
    """Mean cross-entropy of the win shares under softmax(X w), per position."""
    return float(-(Y * np.log(np.clip(_probs(X, w), 1e-12, None))).sum(axis=1).mean())


def fit(X, Y, w0, iterations: int = 30) -> np.ndarray:
    """Conditional-logit weights by Newton's method (ridge RIDGE on the mean loss)."""
    w = w0.copy()
    rows, n, d = X.shape
    for _ in range(iterations):
        P = _probs(X, w)
        grad = -np.einsum("rn,rnd->d", Y - P, X) / rows + RIDGE * w
        xbar = np.einsum("rn,rnd->rd", P, X)
        hess = (np.einsum("rn,rnd,rne->de", P, X, X)
                - np.einsum("rd,re->de", xbar, xbar)) / rows + RIDGE * np.eye(d)
        step = np.linalg.solve(hess, grad)
        loss = _objective(X, Y, w)
        t = 1.0
        while t > 1e-6 and _objective(X, Y, w - t * step) > loss:
            t /= 2                              # damped: a full step may overshoot
        w -= t * step
        if np.abs(t * step).max() < 1e-9:
            break
    return w


def _objective(X, Y, w) -> float:
    return log_loss(X, Y, w) + RIDGE / 2 * float(w @ w)


def main(argv=None, prog="python -m tradewinds.training.fit_voyage_value") -> int:
    ap = ArgumentParser(prog=prog,
                        description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int_at_least(1), default=3000,
                    help="fit games per player count")
    ap.add_argument("--test-games", type=int_at_least(1), default=1000,
                    help="held-out games per count")
    ap.add_argument("--every", type=int_at_least(1), default=7,
                    help="record every k-th decision")
    ap.add_argument("--seed", type=int_at_least(0), default=10**9,
                    help="first seed (apart from the studies' seeds)")
    ap.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=[2, 3, 4])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    counts = args.players
    weights, record_ = {}, {}
    base = value_voyage.default_weights()
    for n in counts:
        t = time.perf_counter()
        seeds = np.arange(args.seed, args.seed + args.games + args.test_games)
        X, Y, G = record(n, seeds, args.every)
        train = G < args.games
        w = fit(X[train], Y[train], base)
        test = ~train
        loss_fit, loss_vp = log_loss(X[test], Y[test], w), log_loss(X[test], Y[test], base)
        weights[n] = [round(float(v), 6) for v in w]
        record_[n] = {"positions": int(train.sum()), "test_positions": int(test.sum()),
                      "test_log_loss": round(loss_fit, 4), "vp_only_log_loss": round(loss_vp, 4),
                      "uniform_log_loss": round(float(np.log(n)), 4)}
        print(f"{n} players: {train.sum()} positions, held-out log loss {loss_fit:.4f} "
              f"(VP only {loss_vp:.4f}, uniform {np.log(n):.4f}), "
              f"{time.perf_counter() - t:.0f} s", file=sys.stderr)
    fit_ = {"features": list(value_voyage.FEATURES), "weights": weights, "fit": record_,
            "command": f"{prog} " + " ".join(
                argv if argv is not None else sys.argv[1:]),
            "games": args.games, "test_games": args.test_games, "every": args.every}
    args.out.write_text(
        f'"""Generated by `{prog}` (training/fit_voyage_value.py): the fitted weights of the\n'
        'Voyage leaf judgement (`agents.value_voyage`), per player count, and the fit\'s record.\n'
        'Data; refit instead of editing."""\n\n'
        f"FIT = {pprint.pformat(fit_, width=96, compact=True, sort_dicts=False)}\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
