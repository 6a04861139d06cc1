"""Strength, game length and speed of the Voyage heuristic (agents/heuristic_voyage.py).

    python -m lab.heuristic_voyage_strength                 # arena, 400 games per count
    python -m lab.heuristic_voyage_strength --games 1000 --fast
    python -m lab.heuristic_voyage_strength --fast --options black_ship=1
    python -m lab.heuristic_voyage_strength --fast --options dice_movement=1

* win rate (default: the arena): `studies.arena` studies "heuristic" against "random"
  with seats rotated, for 2, 3 and 4 players (the heuristic holds one seat); its win share
  (shared wins count fractionally) with a 95% Wilson interval, and how many games hit the
  40-round cap. `--fast`: the same match-up inside numba (`fast_match`), every heuristic
  decision taken on a fresh determinization of the real state, as the agent does.
* game length: all-heuristic games (determinized decisions, inside numba): how many end by
  the rules (the last monastery tile, V49) rather than at the round cap, and the
  distribution of their length in rounds.
* decisions per second of the bound policy (`agents.policies.heuristic_action` with the
  game's aux value) in all-heuristic games on one core, per wall-clock and per CPU second
  (the one to read on a loaded machine); and of the same strategy reading precomputed
  route tables (`voyage_env.routes.plan_tables`), as it does when the aux value has them.
* `fast_duel(n, seed, games, pa, pb)` plays parameters `pa` in one seat (rotated) against
  `pb` in the others: how `DEFAULT_PARAMS` were chosen.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.agents import heuristic_voyage as HV
from tradewinds.agents import plan_voyage as PV
from tradewinds.agents import policies
from tradewinds.compiled import disk_cache
from tradewinds.stats import wilson_interval
from voyage_env import GAME
from voyage_env import kernel as K
from voyage_env import routes as RT
from voyage_env.determinize import determinize


@njit(cache=True)
def fast_match(m, wts, routes, prms, num_players, first_seed, games, heur_seats, opts):
    """Games first_seed.. with seat p played by the heuristic with parameters
    prms[heur_seats[g % rows, p] - 1] when that entry is > 0, uniformly random when 0.
    Heuristic decisions see a fresh determinization. Returns per game: win share of every
    seat (columns 0..3), the last round, 1 if truncated."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    seen = np.zeros(K.STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    out = np.zeros((games, 6), dtype=np.float64)
    ret = np.zeros(4, dtype=np.float64)
    rows = heur_seats.shape[0]
    for g in range(games):
        K.init(s, m, num_players, first_seed + g, opts[0], opts[1], opts[2], opts[3])
        key[0] = first_seed + g
        key[1] = 0x5EA
        while not K.is_terminal(s):
            p = K.current_player(s)
            who = heur_seats[g % rows, p]
            if who > 0:
                seen[:] = s
                determinize(seen, m, p, key)
                a = HV.decide(seen, m, wts, routes, mask, key, prms[who - 1])
            else:
                K.legal_mask(s, m, mask)
                a = rng.pick_set(mask, key)
            if K.step(s, m, a) != 0:
                return out[:0]
        K.returns(s, m, ret)
        for p in range(4):
            out[g, p] = ret[p]
        out[g, 4] = s[K.ROUND]
        out[g, 5] = s[K.TRUNC]
    return out


@njit(cache=True)
def bound_self_play(aux, num_players, first_seed, games):
    """All seats play the bound policy (no determinization): decisions, for timing."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    total = 0
    for g in range(games):
        K.init(s, aux.m, num_players, first_seed + g, 0, 0, 40)
        key[0] = first_seed + g
        while not K.is_terminal(s):
            K.step(s, aux.m, policies.heuristic_action(aux, s, mask, key))
            total += 1
    return total


@njit(cache=True)
def tables_self_play(m, wts, routes, prm, num_players, first_seed, games):
    """As `bound_self_play`, the strategy reading precomputed route tables."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    total = 0
    for g in range(games):
        K.init(s, m, num_players, first_seed + g, 0, 0, 40)
        key[0] = first_seed + g
        while not K.is_terminal(s):
            K.step(s, m, HV.decide(s, m, wts, routes, mask, key, prm))
            total += 1
    return total


_TABLES = {}


def _tables():
    if "default" not in _TABLES:
        _TABLES["default"] = RT.plan_tables(GAME)
    return _TABLES["default"]


def _opts(options: dict) -> np.ndarray:
    return np.array([int(options.get("simple_deck", 0)), int(options.get("black_ship", 0)),
                     int(options.get("max_rounds", 40)), int(options.get("dice_movement", 0))],
                    dtype=np.int64)


def fast_duel(n, first_seed, games, pa, pb=None, options=None):
    """Parameters pa in seat g % n of game g, pb elsewhere: (win share of pa, its CI)."""
    pb = PV.default_params() if pb is None else np.asarray(pb, dtype=np.float64)
    prms = np.array([pa, pb], dtype=np.float64)
    seats = np.full((n, 4), 2, dtype=np.int64)
    for g in range(n):
        seats[g, g] = 1
    rows = fast_match(GAME.aux.m, PV.plan_weights(), _tables(), prms, n, first_seed,
                      games, seats, _opts(options or {}))
    wins = float(rows[np.arange(games), np.arange(games) % n].sum())
    return wins / games, wilson_interval(wins, games)


def fast_rate(n: int, games: int, options: dict, first_seed: int = 0):
    """Heuristic in seat g % n of game g, random elsewhere: (wins, games, truncated)."""
    seats = np.eye(n, 4, dtype=np.int64)
    prms = PV.default_params()[None, :]
    rows = fast_match(GAME.aux.m, PV.plan_weights(), _tables(), prms, n, first_seed,
                      games, seats, _opts(options))
    wins = float(rows[np.arange(games), np.arange(games) % n].sum())
    return wins, games, int(rows[:, 5].sum())


def arena_rate(n: int, games: int, options: dict):
    from tradewinds import agents  # noqa: F401
    from tradewinds.studies import arena

    lineup = ",".join(["heuristic"] + ["random"] * (n - 1))
    st = arena.Study.create("voyage", n, lineup, seating="rotate", options=options or None)
    wins, truncated = 0.0, 0
    for i in range(games):
        row = arena.play_game(st, i)
        seat = row["agents"].index("heuristic")
        if seat in row["winners"]:
            wins += 1.0 / len(row["winners"])
        truncated += bool(row["truncated"])
    return wins, games, truncated


def game_lengths(n: int, games: int, options: dict, first_seed: int = 100_000):
    """All-heuristic games: (rounds per game, truncated per game, win share per seat)."""
    seats = np.ones((1, 4), dtype=np.int64)
    rows = fast_match(GAME.aux.m, PV.plan_weights(), _tables(),
                      PV.default_params()[None, :], n, first_seed, games, seats,
                      _opts(options))
    return rows[:, 4].astype(int), rows[:, 5].astype(int), rows[:, :n].mean(axis=0)


def decisions_per_second(n: int, games: int = 50) -> dict:
    """Self-play decisions per wall-clock and per CPU second: the bound policy as the
    agents call it, and the strategy reading precomputed tables."""
    out = {}
    aux = GAME.aux
    tabs, wts, prm = _tables(), PV.plan_weights(), PV.default_params()
    for name, run in (("bound", lambda g, f: bound_self_play(aux, n, f, g)),
                      ("tables", lambda g, f: tables_self_play(GAME.aux.m, wts, tabs,
                                                               prm, n, f, g))):
        run(1, 10_000)                      # compile / load
        t0, c0 = time.perf_counter(), time.process_time()
        d = run(games, 0)
        out[name] = (d / (time.perf_counter() - t0), d / (time.process_time() - c0))
    return out


def _parse_options(items) -> dict:
    out = {}
    for item in items or ():
        k, v = item.split("=", 1)
        out[k] = int(v)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per player count (win rate)")
    ap.add_argument("--self-play", type=int, default=1000,
                    help="all-heuristic games per player count (game length)")
    ap.add_argument("--fast", action="store_true", help="numba match loop instead of the arena")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--options", nargs="*", help="game options, e.g. black_ship=1")
    args = ap.parse_args(argv)
    options = _parse_options(args.options)
    counts = [int(x) for x in args.players.split(",")]
    for n in counts:
        t0 = time.perf_counter()
        wins, games, trunc = (fast_rate if args.fast else arena_rate)(n, args.games, options)
        lo, hi = wilson_interval(wins, games)
        print(f"{n} players vs random: heuristic wins {wins / games:.3f} of {games} "
              f"(95% CI {lo:.3f}-{hi:.3f}; fair share {1 / n:.3f}), {trunc} at the round cap "
              f"[{time.perf_counter() - t0:.1f} s]", flush=True)
    for n in counts:
        rounds, trunc, seats = game_lengths(n, args.self_play, options)
        ended = len(rounds) - int(trunc.sum())
        lo, hi = wilson_interval(ended, len(rounds))
        hist = sorted(Counter(rounds.tolist()).items())
        print(f"{n} players self-play: {ended}/{len(rounds)} end by the rules "
              f"({ended / len(rounds):.4f}, 95% CI {lo:.4f}-{hi:.4f}); rounds mean "
              f"{rounds.mean():.2f}, median {np.median(rounds):.0f}, min {rounds.min()}, max "
              f"{rounds.max()}; win share by seat {np.round(seats, 3).tolist()}", flush=True)
        print("   rounds: " + ", ".join(f"{r}:{k}" for r, k in hist), flush=True)
    for n in counts:
        rates = decisions_per_second(n)
        print(f"{n} players: " + "; ".join(
            f"{name} {wall:,.0f} decisions/s ({cpu:,.0f} per CPU s)"
            for name, (wall, cpu) in rates.items()) + " (one core, self-play)", flush=True)


disk_cache.refresh(globals())


if __name__ == "__main__":
    main()
