"""Strength and speed of the Hansa heuristic (agents/heuristic_hansa.py).

    python -m lab.heuristic_hansa_strength                 # arena, 400 games per count
    python -m lab.heuristic_hansa_strength --games 200 --fast

* arena (default): `studies.arena` studies "heuristic" against "random" with seats
  rotated, for 2, 3 and 4 players (the heuristic holds one seat, random the others); the
  heuristic's win share (shared wins count fractionally) with a 95% Wilson interval.
* `--fast`: the same match-up played entirely inside numba (`fast_match`), each heuristic
  decision on a fresh determinization. `fast_duel(n, seed, games, wa, wb)` plays weights
  `wa` in one seat (rotated) against `wb` in the others: how `WEIGHTS` were tuned.
* decisions per second of the heuristic in all-heuristic games on one core, per wall-clock
  second and per CPU second of the process (the one to read on a loaded machine).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from hansa_env import kernel as K
from hansa_env.determinize import determinize
from hansa_env.state import STATE_SIZE
from tradewinds import rng
from tradewinds.agents import heuristic_hansa as H
from tradewinds.compiled import disk_cache
from tradewinds.stats import wilson_interval


@njit(cache=True)
def fast_match(num_players, first_seed, games, heur_seats, w):
    """Games first_seed.. with seat s played by the heuristic iff heur_seats[g % n, s];
    returns a [games, 4] float array of win shares per seat."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    seen = np.zeros(STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    out = np.zeros((games, 4), dtype=np.float64)
    ret = np.zeros(4, dtype=np.float64)
    rows = heur_seats.shape[0]
    for g in range(games):
        K.init(s, num_players, first_seed + g, 0, 200)
        key[0] = first_seed + g
        key[1] = 0x1234
        while not K.is_terminal(s):
            p = K.current_player(s)
            if heur_seats[g % rows, p]:
                seen[:] = s
                determinize(seen, p, key)
                a = H.decide(seen, mask, key, w)
            else:
                K.legal_mask(s, mask)
                a = rng.pick_set(mask, key)
            if K.step(s, a) != 0:
                return out[:0]
        K.returns(s, ret)
        for p in range(4):
            out[g, p] = ret[p]
    return out


@njit(cache=True)
def fast_duel(num_players, first_seed, games, wa, wb):
    """Weights wa in seat g % n of game g, wb in the other seats (determinized decisions);
    the win share of the wa seat per game."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    seen = np.zeros(STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    out = np.zeros(games, dtype=np.float64)
    ret = np.zeros(4, dtype=np.float64)
    for g in range(games):
        K.init(s, num_players, first_seed + g, 0, 200)
        key[0] = first_seed + g
        key[1] = 0x4321
        a_seat = g % num_players
        while not K.is_terminal(s):
            p = K.current_player(s)
            seen[:] = s
            determinize(seen, p, key)
            a = H.decide(seen, mask, key, wa if p == a_seat else wb)
            if K.step(s, a) != 0:
                return out[:0]
        K.returns(s, ret)
        out[g] = ret[a_seat]
    return out


@njit(cache=True)
def self_play_decisions(num_players, first_seed, games, w):
    """All seats heuristic, no determinization: (decisions, games) for timing."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    total = 0
    for g in range(games):
        K.init(s, num_players, first_seed + g, 0, 200)
        key[0] = first_seed + g
        while not K.is_terminal(s):
            K.step(s, H.decide(s, mask, key, w))
            total += 1
    return total


def rotation(n: int) -> np.ndarray:
    """Heuristic in seat g % n of game g, random elsewhere."""
    return np.eye(n, 4, dtype=np.int64)


def fast_rate(n: int, games: int, weights=None, first_seed: int = 0):
    w = H.WEIGHTS if weights is None else np.asarray(weights, dtype=np.float64)
    rows = fast_match(n, first_seed, games, rotation(n), w)
    seats = np.arange(games) % n
    wins = float(rows[np.arange(games), seats].sum())
    return wins, games


def arena_rate(n: int, games: int):
    from tradewinds import agents  # noqa: F401
    from tradewinds.studies import arena

    lineup = ",".join(["heuristic"] + ["random"] * (n - 1))
    st = arena.Study.create("hansa", n, lineup, seating="rotate")
    wins = 0.0
    for i in range(games):
        row = arena.play_game(st, i)
        seats = [s for s, a in enumerate(row["agents"]) if a == "heuristic"]
        if seats[0] in row["winners"]:
            wins += 1.0 / len(row["winners"])
    return wins, games


def decisions_per_second(n: int, games: int = 50) -> tuple:
    """(per wall-clock second, per CPU second of this process): the second is the one to
    read on a loaded machine."""
    self_play_decisions(n, 10_000, 1, H.WEIGHTS)     # compile / load
    t0, c0 = time.perf_counter(), time.process_time()
    d = self_play_decisions(n, 0, games, H.WEIGHTS)
    return d / (time.perf_counter() - t0), d / (time.process_time() - c0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--fast", action="store_true", help="numba match loop instead of the arena")
    ap.add_argument("--players", default="2,3,4")
    args = ap.parse_args(argv)
    for n in (int(x) for x in args.players.split(",")):
        t0 = time.perf_counter()
        wins, games = (fast_rate if args.fast else arena_rate)(n, args.games)
        lo, hi = wilson_interval(wins, games)
        print(f"{n} players: heuristic wins {wins / games:.3f} of {games} "
              f"(95% CI {lo:.3f}-{hi:.3f}; fair share {1 / n:.3f}) "
              f"[{time.perf_counter() - t0:.1f} s]", flush=True)
    for n in (int(x) for x in args.players.split(",")):
        wall, cpu = decisions_per_second(n)
        print(f"{n} players: {wall:,.0f} heuristic decisions per second, {cpu:,.0f} per CPU "
              f"second (one core, self-play)", flush=True)


disk_cache.refresh(globals())


if __name__ == "__main__":
    main()
