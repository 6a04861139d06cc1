"""The entry points of a game's structural state checks, written once for every game (njit).

Kernels trust their state: a field used as an array index or a loop bound that is out of
range makes them read or write outside the vector (a crash) or loop for ever. A game's
checks module (hansa_env/checks.py, voyage_env/checks.py) writes two njit functions of
``(s, m)``, where ``m`` is the game's static data (Voyage's packed map; a placeholder int
for Hansa):

- ``check``: 0, or ``1000 * rule + index`` for the first field that could make a kernel
  crash or hang, where ``RULES[rule - 1]`` names the field and what it must be and
  ``index`` is the entry within an array field (`rule_codes`). Tens of nanoseconds.
- ``check_play``: `check` and what a whole played-out game needs to end (counts).

Every kernel step keeps both passing (tests/core/test_crash_fuzz.py plays on from corrupted
states that pass). `entry_points` makes the game's kernel calls guarded by the check,
which `tradewinds.protocol.StateChecks` calls from `tradewinds.Game` (turning a code into a
ValueError): `legal_mask`, `step` (0, the kernel's action codes, or a state code >= 1000),
`observe`, `query`, `scores`, `winners`, `returns`, `random_playout` (decisions made, or
minus a code) and `check_batch`.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from tradewinds.compiled import disk_cache


def rule_codes(rules) -> tuple:
    """The code of each rule: 1000 per rule, so the entry of an array field fits below."""
    return tuple(1000 * (i + 1) for i in range(len(rules)))


@njit(cache=True, inline="always")
def first_out(s, at, count, lo, hi):
    """The first i < count with s[at + i] outside lo..hi, or -1. A branch-free scan first
    (integer ops only, so it vectorises: (x - lo) | (hi - x) < 0 iff x is out of range),
    the search only when something is out of range."""
    bad = 0
    for i in range(at, at + count):
        x = np.int64(s[i])
        bad |= (x - lo) | (hi - x)
    if bad < 0:
        for i in range(count):
            if s[at + i] < lo or s[at + i] > hi:
                return i
    return -1


def with_map(kernel, s, m, *args):
    """``kernel(s, m, *args)``; ``kernel(s, *args)`` for a game without static data, whose
    `m` is a placeholder int (Hansa). Chosen by m's type when numba compiles the caller."""
    raise NotImplementedError("tradewinds.state_checks.with_map is called from njit code only")


@overload(with_map, jit_options={})
def _with_map(kernel, s, m, *args):
    if isinstance(m, types.Integer):
        return lambda kernel, s, m, *args: kernel(s, *args)
    return lambda kernel, s, m, *args: kernel(s, m, *args)


@njit(cache=True, inline="always")
def guarded(check, kernel, s, m, out):
    """``check(s, m)``, then ``kernel`` into `out` if it passed; the check's code."""
    code = check(s, m)
    if code == 0:
        with_map(kernel, s, m, out)
    return code


def entry_points(checks, kernel, *, returns_need_play: bool) -> tuple:
    """The guarded entry points of one game, in the order listed at the top, as njit
    functions of its own; the game's kernels are called through `with_map`.

    `checks`: the game's checks module (``check``, ``check_play``, ``R_PLAYER``,
    ``R_NO_LEGAL``); `kernel`: its kernel module. `returns_need_play`: `returns` runs
    `check_play` (a win share divides by the winners: Hansa's need sane token counts).

    Each game gets its own dispatchers because `StateChecks` compiles a game's
    `signatures` and then turns compilation off. The closures hold modules and a flag
    only, which numba's cache keys by value (a dispatcher in a closure would never hit the
    cache). They are named after the game's checks module: a cache file of their own per
    game, flushed by that module's `tradewinds.compiled.disk_cache.refresh` when a source
    changed."""
    made = (*_state_entry_points(checks, kernel),
            *_result_entry_points(checks, kernel, returns_need_play),
            *_loop_entry_points(checks, kernel))
    return tuple(_cached_njit(checks, f) for f in made)


def _cached_njit(checks, f):
    """`f` compiled with the cache, named after the game's checks module (its cache file)."""
    f.__module__ = checks.__name__
    f.__qualname__ = f"{checks.__name__}.{f.__name__}"
    return njit(cache=True)(f)


def _state_entry_points(C, K) -> tuple:
    """`legal_mask`, `step`, `observe` and `query`, each behind `check`."""

    def legal_mask(s, m, mask):
        return guarded(C.check, K.legal_mask, s, m, mask)

    def step(s, m, a):
        code = C.check(s, m)
        return code if code != 0 else with_map(K.step, s, m, a)

    def observe(s, m, player, out):
        code = C.check(s, m)
        if code != 0:
            return code
        if player < 0 or player >= s[K.NP]:
            return C.R_PLAYER
        with_map(K.observe, s, m, player, out)
        return 0

    def query(s, m, what):
        """what = 0: current_player, 1: is_terminal, 2: is_truncated (0/1); or the check's
        code (>= 1000: no answer is ever that large)."""
        code = C.check(s, m)
        if code != 0:
            return code
        if what == 0:
            return K.current_player(s)
        if what == 1:
            return 1 if K.is_terminal(s) else 0
        return 1 if K.is_truncated(s) else 0

    return legal_mask, step, observe, query


def _result_entry_points(C, K, returns_need_play: bool) -> tuple:
    """`scores`, `winners` and `returns` (behind `check_play` if `returns_need_play`)."""

    def scores(s, m, out):
        return guarded(C.check, K.scores, s, m, out)

    def winners(s, m, out):
        return guarded(C.check, K.winners, s, m, out)

    def returns(s, m, out):
        if returns_need_play:
            return guarded(C.check_play, K.returns, s, m, out)
        return guarded(C.check, K.returns, s, m, out)

    return scores, winners, returns


def _loop_entry_points(C, K) -> tuple:
    """`random_playout` and `check_batch`: the entry points that loop."""

    def random_playout(s, m, key):
        """The kernel's random_playout (same choices, same result) after `check_play`;
        minus a code when the state is malformed or a live state has no legal action."""
        code = C.check_play(s, m)
        if code != 0:
            return -code
        mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        steps = 0
        while not K.is_terminal(s):
            a = with_map(K.random_action, s, m, mask, key)
            if a < 0:
                return -C.R_NO_LEGAL
            with_map(K.step, s, m, a)
            steps += 1
        return steps

    def check_batch(states, m):
        """The first row of a [B, STATE_SIZE] batch that fails `check`, or -1."""
        for i in range(states.shape[0]):
            if C.check(states[i], m) != 0:
                return i
        return -1

    return random_playout, check_batch


def signatures(m_type) -> dict:
    """The only argument types the entry points take, `m` being of numba type `m_type`:
    `StateChecks` compiles these and turns off further compilation, so a state of another
    dtype or layout is refused (TypeError from numba, a ValueError from Game) instead of
    compiling a new specialisation."""
    s, i = types.Array(types.int32, 1, "C"), types.int64
    return {
        "check": (i(s, m_type),),
        "check_play": (i(s, m_type),),
        "legal_mask": (i(s, m_type, types.Array(types.int8, 1, "C")),),
        "step": (i(s, m_type, i),),
        "observe": (i(s, m_type, i, types.Array(types.float32, 1, "C")),),
        "query": (i(s, m_type, i),),
        "scores": (i(s, m_type, types.Array(types.int64, 1, "C")),),
        "winners": (i(s, m_type, types.Array(types.int64, 1, "C")),),
        "returns": (i(s, m_type, types.Array(types.float64, 1, "C")),),
        "random_playout": (i(s, m_type, s),),
        "check_batch": (i(types.Array(types.int32, 2, "C"), m_type),),
    }


disk_cache.refresh(globals())
