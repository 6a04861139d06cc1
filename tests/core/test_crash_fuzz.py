"""No public entry point crashes or hangs the interpreter on a corrupted state.

Child processes (so a crash is observed, not suffered) take real states of both games
(2-4 players, several options, random points of random games, finished ones included),
overwrite entries with random and extreme int32 values (anywhere, and in the fields the
kernels use as indices or loop bounds), and call every public entry point: the `Game`
methods, `validate_state`, the AEC env's `set_state` then its own steps. Each call must
return or raise ValueError. A state that passes the checks is then played on, by
`Game.step` and `Game.random_playout`: every state reached must still pass the
structural check (the kernels keep it). The parent asserts: no signal, no hang
(a per-case watchdog in the child, a timeout in the parent), no other exception.

Run one child by hand: ``python -m tests.core.test_crash_fuzz hansa 7 500`` (from the root).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.helpers import ROOT

EXTREMES = (-2**31, 2**31 - 1, -1, 0, 1, 2, 3, 4, 5, 7, 9, 12, 13, 14, 15, 63, 64, 86, 255,
            1000, 10_000, 65_535, 10**6, -2, -1000, -10**6)
WATCHDOG = 60           # seconds one case may take in the child before it counts as a hang


# ================================================================ the child


def _real_states(game, rng, count):
    """Snapshots of random games: 2-4 players, the game's options, finished games too."""
    options = {"hansa": [{}, {"build_rule": "per_stall"}, {"max_rounds": 4}],
               "voyage": [{}, {"simple_deck": True}, {"black_ship": True}, {"max_rounds": 2},
                          {"dice_movement": True}]}
    out = []
    g = 0
    while len(out) < count:
        n = 2 + g % 3
        s = game.new_state(n, int(rng.integers(2**31)), **options[game.name][g % len(
            options[game.name])])
        stops = set(rng.integers(0, 300, size=4).tolist())
        k = 0
        while not game.is_terminal(s):
            if k in stops:
                out.append(s.copy())
            game.step(s, int(rng.choice(game.legal_actions(s))))
            k += 1
        out.append(s.copy())
        g += 1
    return out


def _index_entries(game):
    """Offsets of every entry of the fields the structural check guards."""
    layout = game.checks.layout
    names = {rule[0] for rule in game.checks.rules if rule[0] in layout.fields}
    return np.array([f.offset + i for f in layout.fields.values() if f.name in names
                     for i in range(f.size)])


def _corrupt(state, rng, index_entries):
    s = state.copy()
    edits = []
    for _ in range(int(rng.integers(1, 5))):
        at = int(rng.choice(index_entries) if rng.random() < 0.6 else rng.integers(len(s)))
        r = rng.random()
        if r < 0.4:
            value = int(rng.choice(EXTREMES))
        elif r < 0.7:
            value = int(rng.integers(-2**31, 2**31))
        else:
            value = int(s[at]) + int(rng.integers(-3, 4))
            value = max(-2**31, min(2**31 - 1, value))
        s[at] = value
        edits.append((at, value))
    return s, edits


def _bad_arrays(game, state):
    """Things that are not state vectors at all."""
    n = game.state_size
    read_only = state.copy()
    read_only.flags.writeable = False
    return [state.astype(np.int16), state.astype(np.int64), state.astype(np.float64),
            state[:-1].copy(), np.concatenate([state, state]), state.reshape(1, -1),
            np.zeros((n, 2), np.int32)[:, 0], read_only, state.tolist(), None, 3, "state",
            np.zeros(0, np.int32)]


class Calls:
    """Runs entry points; ValueError is an answer, anything else is recorded."""

    def __init__(self):
        self.unexpected = []
        self.calls = 0
        self.value_errors = 0

    def __call__(self, name, fn):
        self.calls += 1
        try:
            return True, fn()
        except ValueError:
            self.value_errors += 1
            return False, None
        except Exception as e:  # noqa: BLE001 - the point is to see every other kind
            self.unexpected.append(f"{name}: {type(e).__name__}: {e}"[:300])
            return False, None


def _exercise(game, s, rng, call, env, edits=()):
    c = s.copy
    for name, fn in [
        ("legal_mask", lambda: game.legal_mask(c())),
        ("legal_actions", lambda: game.legal_actions(c())),
        ("current_player", lambda: game.current_player(c())),
        ("is_terminal", lambda: game.is_terminal(c())),
        ("is_truncated", lambda: game.is_truncated(c())),
        ("num_players", lambda: game.num_players(c())),
        ("scores", lambda: game.scores(c())),
        ("winners", lambda: game.winners(c())),
        ("returns", lambda: game.returns(c())),
        ("validate_state", lambda: game.validate_state(c())),
        ("random_playout", lambda: game.random_playout(c(), int(rng.integers(1000)))),
    ]:
        call(name, fn)
    for p in (0, 1, 2, 3, -1, 4, 2**40):
        call(f"observe({p})", lambda p=p: game.observe(c(), p))
        call(f"determinize({p})", lambda p=p: game.determinize(c(), p, 5))
    for a in rng.integers(0, game.num_actions, size=4).tolist() + [-1, game.num_actions]:
        call(f"step({a})", lambda a=a: game.step(c(), a))
    ok, _ = call("set_state", lambda: env[int(s[0])].set_state(c())
                 if 2 <= s[0] <= 4 else game.validate_state(c()))
    if ok:   # a state validate_state accepts: the AEC env plays on from it
        e = env[int(s[0])]
        for _ in range(30):
            if all(e.terminations.values()) or all(e.truncations.values()):
                break
            mask = e.observe(e.agent_selection)["action_mask"]
            call("env.step", lambda mask=mask: e.step(int(rng.choice(np.flatnonzero(mask)))))
    checks = game.checks
    levels = [f for f in (checks.check, checks.check_play) if f(s, checks.m) == 0]
    if levels:   # a check passed: every kernel step must keep it passing
        t = c()
        for _ in range(60):
            if game.is_terminal(t):
                break
            legal = np.flatnonzero(game.legal_mask(t))
            if len(legal) == 0:
                break
            game.step(t, int(rng.choice(legal)))
            codes = [f(t, checks.m) for f in levels]
            if any(codes):
                call.unexpected.append("a step left the structural checks: " + checks.message(
                    game.name, t, max(codes)) + f" (edits {edits})")
                break


def child(game_name: str, seed: int, cases: int) -> None:
    import faulthandler

    import tradewinds

    game = tradewinds.game(game_name)
    rng = np.random.default_rng(seed)
    states = _real_states(game, rng, 40)
    entries = _index_entries(game)
    env = {n: tradewinds.make(game_name, raw=True, num_players=n) for n in (2, 3, 4)}
    call = Calls()
    for bad in _bad_arrays(game, states[0]):
        print(json.dumps({"case": "bad array", "type": type(bad).__name__}), flush=True)
        _exercise_array(game, bad, call)
    for case in range(cases):
        base = states[int(rng.integers(len(states)))]
        s, edits = _corrupt(base, rng, entries)
        print(json.dumps({"case": case, "edits": edits, "state": base.tolist()}), flush=True)
        faulthandler.dump_traceback_later(WATCHDOG, exit=True)
        _exercise(game, s, rng, call, env, edits)
        faulthandler.cancel_dump_traceback_later()
    print("SUMMARY " + json.dumps({"calls": call.calls, "value_errors": call.value_errors,
                                   "unexpected": call.unexpected[:20]}), flush=True)


def _exercise_array(game, bad, call):
    for name in ("legal_mask", "legal_actions", "current_player", "is_terminal", "is_truncated",
                 "num_players", "scores", "winners", "returns", "validate_state"):
        call(name, lambda name=name: getattr(game, name)(bad))
    call("observe", lambda: game.observe(bad, 0))
    call("step", lambda: game.step(bad, 0))
    call("determinize", lambda: game.determinize(bad, 0, 1))
    call("random_playout", lambda: game.random_playout(bad, 1))


# ================================================================ the parent


def _warm_up():
    """Compile every entry point once here, so the children load them from numba's cache."""
    import tradewinds

    for name in tradewinds.games():
        game = tradewinds.game(name)
        s = game.new_state(2, 0)
        game.legal_mask(s)
        game.observe(s, 0)
        game.scores(s)
        game.determinize(s, 0, 1)
        game.validate_state(s)
        game.random_playout(s.copy(), 1)
        game.step(s, game.legal_actions(s)[0])


def _run_children(jobs, timeout):
    _warm_up()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    procs = [(job, subprocess.Popen([sys.executable, __file__, *map(str, job)], cwd=ROOT,
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)) for job in jobs]
    failures = []
    for job, proc in procs:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            failures.append(f"{job}: HANG (no end after {timeout} s); last case: "
                            f"{_last_case(out)}")
            continue
        if proc.returncode < 0:
            failures.append(f"{job}: killed by signal {-proc.returncode}; last case: "
                            f"{_last_case(out)}\n{err[-2000:]}")
        elif proc.returncode != 0:
            failures.append(f"{job}: exit {proc.returncode}; last case: {_last_case(out)}\n"
                            f"{err[-3000:]}")
        else:
            summary = json.loads(out.rsplit("SUMMARY ", 1)[1])
            assert summary["calls"] > 0 and summary["value_errors"] > 0
            if summary["unexpected"]:
                failures.append(f"{job}: " + "\n".join(summary["unexpected"]))
    assert not failures, "\n\n".join(failures)


def _last_case(out: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return lines[-1][:3000] if lines else "(none)"


def test_corrupted_states_never_crash_or_hang():
    _run_children([("hansa", 1, 700), ("voyage", 2, 450)], timeout=240)


@pytest.mark.slow
def test_corrupted_states_never_crash_or_hang_long():
    _run_children([(name, seed, 3000) for name in ("hansa", "voyage") for seed in (11, 12)],
                  timeout=3600)


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
