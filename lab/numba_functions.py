"""Each kernel function timed on its own, on fixed states; prints JSON (ns per call).

    python -m lab.numba_functions [--games hansa,voyage] [--players 2]

Run by `lab.numba_releases --what functions` once per release and repeat, to
name the functions that change most between numba releases. The states are the
decisions of seeded random games (the same states under every release); each function is
called on every state from an njit loop, so no Python dispatch is timed. ``step`` and
``determinize`` work on a copy of the state: the copy alone is timed as ``copy`` and
subtracted. ``legal_mask`` and ``step`` are also reported per phase of the game.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np
from numba import njit

from tradewinds.agents import heuristic
from tradewinds.benchmarks.timing import ns_per_unit
from tradewinds.compiled import disk_cache, protocol

GAMES = 12          # recorded random games per game and player count
MAX_STATES = 4000


def _layout(name):
    if name == "hansa":
        from hansa_env.state import LAYOUT, PHASE_NAMES
    else:
        from voyage_env.state import LAYOUT, PHASE_NAMES
    return LAYOUT.offset("phase"), PHASE_NAMES


def record(game, n, games=GAMES, seed=12345) -> tuple:
    """States before each decision of seeded random games, the action taken there and
    the decider. A plain linear congruential pick keeps the actions independent of
    numpy's generators, so every release sees the same states."""
    states, actions, players = [], [], []
    x = seed
    for g in range(games):
        s = game.new_state(n, seed + g)
        while not game.is_terminal(s):
            legal = game.legal_actions(s)
            x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            a = legal[(x >> 33) % len(legal)]
            states.append(s.copy())
            actions.append(a)
            players.append(game.current_player(s))
            game.step(s, a)
    idx = np.linspace(0, len(states) - 1, min(MAX_STATES, len(states))).astype(np.int64)
    return (np.stack([states[i] for i in idx]), np.array([actions[i] for i in idx], np.int64),
            np.array([players[i] for i in idx], np.int64))


@njit(cache=True)
def _copy(src, dst):
    for j in range(src.shape[0]):
        dst[j] = src[j]


@njit(cache=True)
def t_copy(aux, states, buf, reps):
    acc = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            _copy(states[i], buf)
            acc += buf[i % buf.shape[0]]
    return acc


@njit(cache=True)
def t_legal_mask(aux, states, mask, reps):
    acc = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            protocol.legal_mask(aux, states[i], mask)
            acc += mask[i % mask.shape[0]]
    return acc


@njit(cache=True)
def t_step(aux, states, actions, buf, reps):
    acc = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            _copy(states[i], buf)
            acc += protocol.step(aux, buf, actions[i])
    return acc


@njit(cache=True)
def t_is_terminal(aux, states, reps):
    acc = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            acc += protocol.is_terminal(aux, states[i]) + protocol.current_player(aux, states[i])
    return acc


@njit(cache=True)
def t_observe(aux, states, players, out, reps):
    acc = 0.0
    for _ in range(reps):
        for i in range(states.shape[0]):
            protocol.observe(aux, states[i], players[i], out)
            acc += out[i % out.shape[0]]
    return acc


@njit(cache=True)
def t_determinize(aux, states, players, buf, key, reps):
    acc = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            _copy(states[i], buf)
            protocol.determinize(aux, buf, players[i], key)
            acc += buf[i % buf.shape[0]]
    return acc


@njit(cache=True)
def t_heuristic(aux, states, mask, key, reps):
    acc = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            acc += heuristic.decide(aux, states[i], mask, key)
    return acc


def _ns(fn, count, target=0.25, runs=3) -> tuple:
    """(median ns per call, first-call seconds) over `count` states a repetition."""
    return ns_per_unit(fn, count, 1, target, runs)


def functions(game, n, target) -> dict:
    """ns per call of every kernel function of `game`, and per phase for mask and step."""
    aux = game.aux
    states, actions, players = record(game, n)
    buf = np.zeros(game.state_size, np.int32)
    mask = np.zeros(game.num_actions, np.int8)
    out = np.zeros(game.obs_size, np.float32)
    key = np.array([5, 6], np.int32)
    table = {
        "copy": lambda st, ac, pl: lambda r: t_copy(aux, st, buf, r),
        "legal_mask": lambda st, ac, pl: lambda r: t_legal_mask(aux, st, mask, r),
        "step": lambda st, ac, pl: lambda r: t_step(aux, st, ac, buf, r),
        "is_terminal+current_player": lambda st, ac, pl: lambda r: t_is_terminal(aux, st, r),
        "observe": lambda st, ac, pl: lambda r: t_observe(aux, st, pl, out, r),
        "determinize": lambda st, ac, pl: lambda r: t_determinize(aux, st, pl, buf, key, r),
        "heuristic": lambda st, ac, pl: lambda r: t_heuristic(aux, st, mask, key, r),
    }
    rows = {}
    for what, make in table.items():
        ns, first = _ns(make(states, actions, players), len(states), target)
        rows[what] = {"value": ns, "first_s": first, "states": len(states)}
    for what in ("step", "determinize"):
        rows[f"{what}-copy"] = {"value": rows[what]["value"] - rows["copy"]["value"],
                                "states": len(states)}
    at, names = _layout(game.name)
    phases = states[:, at]
    for ph in np.unique(phases):
        sel = phases == ph
        if sel.sum() < 50:
            continue
        st, ac = np.ascontiguousarray(states[sel]), actions[sel]
        for what in ("legal_mask", "step"):
            ns, _ = _ns(table[what](st, ac, players[sel]), len(st), target / 2)
            rows[f"{what}[{names[ph]}]"] = {"value": ns, "states": int(sel.sum())}
    return rows


def main(argv=None) -> int:
    import llvmlite
    import numba

    from tradewinds import registry

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="hansa,voyage")
    ap.add_argument("--players", default="2")
    ap.add_argument("--min-time", type=float, default=0.25, help="seconds per timed run")
    args = ap.parse_args(argv)
    res = {"versions": {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
                        "numpy": np.__version__, "python": platform.python_version()},
           "when": time.strftime("%Y-%m-%d %H:%M:%S"), "unit": "ns/call", "rows": {}}
    for name in args.games.split(","):
        game = registry.game(name)
        for n in (int(p) for p in args.players.split(",")):
            for what, row in functions(game, n, args.min_time).items():
                res["rows"][f"{name}_{n}p {what}"] = row
    print(json.dumps(res))
    return 0


disk_cache.refresh(globals())

if __name__ == "__main__":
    raise SystemExit(main())
