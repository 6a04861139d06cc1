"""The rewards of every env, in one place: the AEC env (`tradewinds.aec`), the single-agent
env (`training.single_agent`) and the batched VecEnv (`training.vec_env`) all pay what
`pay` computes, so the three agree with each other and with the studies.

A game that is over is scored as it stands, whether the rules ended it or the round cap
did (`Game.is_truncated`): the same `scores` and `winners` the arena records
(`studies.arena.play_game`). Modes:

- ``win`` — at the end, 1 shared equally among the winners (`Game.winners`), 0 for the
  others (the game's `returns`; the winners are the seats with a positive share).
- ``zero_sum`` — at the end, the winners share +1 and the others share -1 (each winner
  gets 1/k, each other seat -1/(n-k)); when every seat wins (a full tie) everybody gets 0,
  so the rewards always sum to 0.
- ``score`` — dense: after every step, the change of the seat's **VP margin** since the
  previous payment. The VP margin of seat p is ``(VP[p] - max(VP[q] for q != p)) / 100``
  (own VP minus the best other seat's VP, the margin the studies report, `tradewinds.stats`,
  scaled by `SCORE_SCALE`): positive exactly when p leads alone on VP. The first payment
  of an episode counts from the margin of the state the episode started from (a fresh game:
  every VP is 0, margin 0), so the payments of an episode sum to its final margin (minus
  that starting margin).

Every function takes the game's `aux` value first (`tradewinds.compiled.protocol`), so it
compiles once per game and is cached; `start` and `payments` are the Python entry points.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tradewinds.compiled import disk_cache, protocol

MODES = ("win", "zero_sum", "score")
WIN, ZERO_SUM, SCORE = 0, 1, 2
SCORE_SCALE = 100.0


def mode_code(mode: str) -> int:
    """The int code of a reward mode name; ValueError naming the modes otherwise."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"reward must be one of {MODES}, got {mode!r}")
    return MODES.index(mode)


@njit(cache=True)
def margins(aux, s, out):
    """out[p] = VP margin of seat p: (own VP - best other seat's VP) / SCORE_SCALE."""
    n = s[0]
    vp = np.zeros(n, dtype=np.int64)
    protocol.scores(aux, s, vp)
    for p in range(n):
        best = -(2 ** 62)
        for q in range(n):
            if q != p and vp[q] > best:
                best = vp[q]
        out[p] = (vp[p] - best) / SCORE_SCALE


@njit(cache=True)
def outcome(aux, s, mode, out):
    """The final value of each seat of a finished game (truncated or not): win shares
    (`returns`), zero-sum shares, or the VP margin (score)."""
    n = s[0]
    if mode == SCORE:
        margins(aux, s, out)
        return
    w = np.zeros(n, dtype=np.float64)
    protocol.returns(aux, s, w)
    if mode == WIN:
        for p in range(n):
            out[p] = w[p]
        return
    k = 0
    for p in range(n):
        if w[p] > 0:
            k += 1
    for p in range(n):
        if k == n:
            out[p] = 0.0
        elif w[p] > 0:
            out[p] = 1.0 / k
        else:
            out[p] = -1.0 / (n - k)


@njit(cache=True)
def pay(aux, s, mode, last, out):
    """The reward of each seat for reaching `s` since the previous payment, into `out`.

    score: margin(s) - last (then `last` = margin(s)); win and zero_sum: the outcome when
    `s` is over, else 0. `last` holds each seat's margin at the previous payment (set it
    with `margins` on the state the episode starts from)."""
    n = s[0]
    if mode == SCORE:
        margins(aux, s, out)
        for p in range(n):
            d = out[p] - last[p]
            last[p] = out[p]
            out[p] = d
    elif protocol.is_terminal(aux, s):
        outcome(aux, s, mode, out)
    else:
        for p in range(n):
            out[p] = 0.0


# ---------------------------------------------------------------- Python entry points

def start(game, state: np.ndarray) -> np.ndarray:
    """The margins (float64[num_players]) an episode starting at `state` pays from."""
    last = np.zeros(int(state[0]), dtype=np.float64)
    margins(game.aux, state, last)
    return last


def end_info(game, state: np.ndarray) -> dict:
    """What every env's info holds when a game ends: each seat's VP (``scores``) and a
    ``won`` flag per seat (1 for every winner, shared wins included). One entry per seat
    in both, whoever won: trainers that stack infos into fixed-shape buffers (Tianshou's
    `Collector`) can store them."""
    return {"scores": [int(x) for x in game.scores(state)],
            "won": [int(r > 0) for r in game.returns(state)]}


def payments(game, state: np.ndarray, mode: int, last: np.ndarray) -> np.ndarray:
    """Each seat's reward (float64[num_players]) for reaching `state`; `last` (from `start`)
    is advanced in score mode."""
    out = np.zeros(int(state[0]), dtype=np.float64)
    pay(game.aux, state, mode, last, out)
    return out


disk_cache.refresh(globals())
