"""The rigged toy game "race" and its two agents, for the study tests (arena, fpa, match)
and the CLI's capability check: a game small enough that who wins is known in advance.

Players move in turn; action 0 advances the mover one step, action 1 waits; the first to
reach 3 wins. Option reverse=1 makes the turn order n-1, ..., 0 (so the first player is
the last seat), and the kernel reports it through turn_order(). Registered only where a
test asks (the `race` fixture of tests/conftest.py).
"""

from types import SimpleNamespace

import numpy as np

from tradewinds.protocol import Game

RACE_N, RACE_CUR, RACE_POS, RACE_OVER, RACE_REV = 0, 1, 2, 6, 7


def _race_init(s, n, seed, reverse):
    s[:] = 0
    s[RACE_N], s[RACE_REV] = n, reverse
    s[RACE_CUR] = n - 1 if reverse else 0


def _race_mask(s, mask):
    mask[:] = 0
    if not s[RACE_OVER]:
        mask[:] = 1


def _race_step(s, a):
    if s[RACE_OVER]:
        return 2
    p, n = s[RACE_CUR], s[RACE_N]
    if a == 0:
        s[RACE_POS + p] += 1
        if s[RACE_POS + p] >= 3:
            s[RACE_OVER] = 1
            return 0
    s[RACE_CUR] = (p - 1) % n if s[RACE_REV] else (p + 1) % n
    return 0


def _race_scores(s, out):
    out[:] = 0
    out[: s[RACE_N]] = s[RACE_POS: RACE_POS + s[RACE_N]]


def _race_winners(s, out):
    out[:] = 0
    pos = s[RACE_POS: RACE_POS + s[RACE_N]]
    out[: s[RACE_N]] = pos == pos.max()


def _race_returns(s, out):
    w = np.zeros(4, dtype=np.int64)
    _race_winners(s, w)
    out[:] = w[: out.shape[0]] / w.sum()


def _race_observe(s, p, out):
    out[:] = 0
    out[0] = p
    out[1: 1 + s[RACE_N]] = s[RACE_POS: RACE_POS + s[RACE_N]]


def _race_order(s, out):
    n = s[RACE_N]
    out[:n] = np.arange(n)[::-1] if s[RACE_REV] else np.arange(n)


RACE_KERNELS = SimpleNamespace(
    init=_race_init, legal_mask=_race_mask, step=_race_step,
    current_player=lambda s: s[RACE_CUR], is_terminal=lambda s: bool(s[RACE_OVER]),
    is_truncated=lambda s: False, scores=_race_scores, winners=_race_winners,
    returns=_race_returns, observe=_race_observe, turn_order=_race_order)

GAME = Game(name="race", state_size=8, num_actions=2, obs_size=5, min_players=2,
            max_players=4, kernels=RACE_KERNELS, action_names=("advance", "wait"),
            obs_names=("seat", "p0", "p1", "p2", "p3"),
            parse_options=lambda reverse=0: (int(reverse),),
            illegal_reason=lambda s, a: "the race is over", validate_state=lambda s: None,
            option_defaults={"reverse": 0}, capabilities={"turn_order"})


class Advance:
    """Always moves (the rigged winner)."""

    def __init__(self, game):
        pass

    def act(self, observation, action_mask, rng):
        return 0


class Wait:
    """Always waits (never wins while someone advances)."""

    def __init__(self, game):
        pass

    def act(self, observation, action_mask, rng):
        return 1
