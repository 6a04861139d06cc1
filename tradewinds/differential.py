"""The differential comparison: a kernel state against the game's plain-Python reference.

`first_difference` says what differs first between a state the kernels made and a
reference game (`tradewinds.reference.ReferenceGame`) played in lockstep with it: the
state vector by field, the legal mask by action name, the current player, the terminal
flag, scores, winners, every seat's observation, and for a finished game the truncation
flag and the returns (docs/design.md §5). The differential tests of both games call it at
every step; `benchmarks.soak` runs it over thousands of games. It knows no game: it reads
both sides through the protocol (`tradewinds.Game`) and the reference's methods.
"""

from __future__ import annotations

import numpy as np


def differing_fields(layout, a: np.ndarray, b: np.ndarray) -> dict:
    """{field: (a's values, b's values)} for every layout field where two states differ."""
    return {name: (layout.view(a, name).tolist(), layout.view(b, name).tolist())
            for name in layout.fields
            if not np.array_equal(layout.view(a, name), layout.view(b, name))}


class Comparison:
    """`first_difference` for one game, with its buffers: the raw kernels
    (`game.kernels`) write into arrays made once (refilled with a value no kernel writes,
    so an entry left unwritten differs), and the two sides are compared as lists or bytes
    first; only a mismatch is looked at value by value (so 0.0 and -0.0 stay equal, as
    `np.array_equal` has them) and named. After a call that reached the legal mask,
    `mask` holds the kernel's legal mask of the state compared and `legal` its legal
    action ids (ascending)."""

    def __init__(self, game):
        self.game = game
        self.kernels = game.kernels
        self.mask = np.zeros(game.num_actions, dtype=np.int8)
        self.legal: list = []
        self.obs = np.zeros(game.obs_size, dtype=np.float32)
        self.seats = np.zeros(game.max_players, dtype=np.int64)

    def __call__(self, state: np.ndarray, ref, observations: bool = True) -> str | None:
        game, k = self.game, self.kernels
        if hasattr(ref, "state_values"):      # the reference's state as a list of ints
            same = state.tolist() == ref.state_values()
        else:
            same = state.tobytes() == ref.to_state().tobytes()
        if not same:
            other = ref.to_state()
            if not np.array_equal(state, other):
                layout = game.checks.layout
                return f"state: {differing_fields(layout, state, other)} (kernel, reference)"
        game.checked(state, play=True)  # the kernels' structural check: raw calls are safe
        n = int(state[0])
        mask = self.mask
        mask.fill(2)                          # an entry the kernel leaves unwritten shows
        k.legal_mask(state, mask)
        self.legal = np.flatnonzero(mask).tolist()
        if not (hasattr(ref, "legal_actions") and self.legal == ref.legal_actions()):
            km, rm = mask.astype(bool), np.asarray(ref.legal_mask(), dtype=bool)
            if not np.array_equal(km, rm):
                only_k = [game.action_name(a) for a in np.flatnonzero(km & ~rm)]
                only_r = [game.action_name(a) for a in np.flatnonzero(rm & ~km)]
                return f"legal mask: kernel only {only_k}, reference only {only_r}"
        kp, rp = int(k.current_player(state)), ref.current_player()
        if kp != rp:
            return f"current player: kernel {kp}, reference {rp}"
        over = bool(k.is_terminal(state))
        if over != ref.is_terminal():
            return f"terminal: kernel {over}, reference {ref.is_terminal()}"
        seats = self.seats
        seats[:] = 0
        k.scores(state, seats)
        ks, rs = seats[:n].tolist(), [int(x) for x in ref.scores()]
        if ks != rs:
            return f"scores: kernel {ks}, reference {rs}"
        seats[:] = 0
        k.winners(state, seats)
        kw, rw = np.flatnonzero(seats[:n]).tolist(), list(ref.winners())
        if kw != rw:
            return f"winners: kernel {kw}, reference {rw}"
        if observations:
            seen = (ref.observations() if hasattr(ref, "observations")
                    else [ref.observe(p) for p in range(n)])
            ko = self.obs
            for p in range(n):
                ko.fill(np.nan)               # an entry left unwritten differs
                k.observe(state, p, ko)
                ro = np.asarray(seen[p], dtype=np.float32)
                if ko.tobytes() != ro.tobytes() and not np.array_equal(ko, ro):
                    bad = np.flatnonzero(ko != ro)[:8]
                    return f"observation of seat {p}: " + ", ".join(
                        f"{game.obs_names[i]} kernel {ko[i]} reference {ro[i]}" for i in bad)
        if over:
            kt = bool(k.is_truncated(state))
            if kt != ref.is_truncated():
                return f"truncated: kernel {kt}, reference {ref.is_truncated()}"
            kr = np.zeros(game.max_players, dtype=np.float64)
            k.returns(state, kr)
            kr, rr = kr[:n], np.asarray(ref.returns(), dtype=np.float64)
            if kr.shape != rr.shape or not np.allclose(kr, rr):
                return f"returns: kernel {kr.tolist()}, reference {rr.tolist()}"
        return None


_COMPARISONS: dict = {}


def comparison(game) -> Comparison:
    """The `Comparison` of `game` (made once per game object)."""
    c = _COMPARISONS.get(id(game))
    if c is None or c.game is not game:
        c = _COMPARISONS[id(game)] = Comparison(game)
    return c


def first_difference(game, state: np.ndarray, ref, observations: bool = True) -> str | None:
    """None when the kernel state `state` of `game` and the reference game `ref` agree on
    everything the players and the protocol can see; else what differs first: the state
    vector (by field), the legal mask (by action name), the current player, the terminal
    flag, scores, winners, the observation of a seat (by entry name; `observations=False`
    skips them), and for a finished game the truncation flag and the returns.

    The kernel side is asked through the raw kernels (`game.kernels`) once the state has
    equalled the reference's and passed the game's structural check (`Game.checked`), so
    no query can crash on it; a state from anywhere is fine."""
    if not (type(state) is np.ndarray and state.dtype == np.int32
            and state.shape == (game.state_size,) and state.flags.c_contiguous
            and state.flags.writeable):
        state = game.checked(state, play=True)   # ValueError, or a plain copy
    return comparison(game)(state, ref, observations)
