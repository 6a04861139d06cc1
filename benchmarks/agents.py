"""Agents, measured: search speed beside OpenSpiel's IS-MCTS, and strength head to head.

    tradewinds bench agents-speed                          # simulations/s, decisions/s
    tradewinds strength --games 400                        # win rates, seats rotated
    tradewinds bench decision-time --agents az mcts:400    # seconds per decision
    python -m tradewinds.benchmarks.agents departures      # how often search leaves the heuristic

*Speed* (one core, same run): our SO-ISMCTS with random rollouts searching every decision
of whole Hansa 2-player games, the peer's protocol (the ratio's numerator); on early
positions with random and heuristic rollouts (medians of timed repeats); against
OpenSpiel's C++ ``ISMCTSBot`` on
hearts with random rollouts (``RandomRolloutEvaluator(1)``, 400 simulations, played by
``evaluate_bots`` in a child process, so a crash of the peer is recorded instead of ending
the run); the heuristic's decisions/s for both games.

*Strength*: pairings (``a-b``) played through the arena into SQLite (resumable, one
progress bar for a pairing and its control) with the line-up rotated over the seats; with
more seats than agents the first agent of a pair takes one seat and the second the rest
(``a`` against a table of ``b``). Win rates count shared wins fractionally, with Wilson
95% intervals. Beside each, the *control*: the same seeds and seats played by ``b`` alone,
i.e. ``a``'s share had it played as ``b``, and ``a``'s edge over it with a paired 95%
interval. Results go to ``benchmarks/results/agents_*.json`` and ``.md``.

*Departures*: along games the heuristic plays against itself, at every decision of seat 0
with a choice, the search's action beside the heuristic's, counted by kind of action (the
action name before ``:``). A search that seldom departs can only play like the heuristic,
whatever its budget.

*Decision time*: the seconds each named agent takes per decision on the same positions
(decisions with a choice along heuristic self-play), median and mean, one core: what
"at an equal time per decision" compares when two searches meet in *strength*. With
``--games N`` the named agents play N whole games against each other instead (seats
rotated) and every decision with a choice is timed: the measure for an agent whose
cost depends on its earlier decisions (a destination search keeps its target for the
turn, so timed alone at a position it would search at every step).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from tradewinds import cli_args
from tradewinds.benchmarks.timing import measure
from tradewinds.studies.positions import decision_positions, random_positions

RESULTS = Path(__file__).parent / "results"
PAIRINGS = ("heuristic-random", "mcts:400-heuristic")
ISMCTS_TARGET = 2     # our random-rollout simulations/s over OpenSpiel's ISMCTSBot's


# ------------------------------------------------------------------------------ speed


def ismcts_speed(game_name, n, rollout, simulations=400, cfg=None):
    from tradewinds import registry
    from tradewinds.agents import ismcts

    game = registry.game(game_name)
    states = random_positions(game, n, 16)
    key = np.array([1, 2], dtype=np.int32)
    ismcts.search(game, states[0], game.current_player(states[0]), key, 8, rollout=rollout)
    it = iter(range(1 << 62))

    def work():
        s = states[next(it) % len(states)]
        ismcts.search(game, s, game.current_player(s), key, simulations, rollout=rollout)
        return {"steps": simulations}

    res = measure(work, **(cfg or {"repeats": 5, "min_time": 1.0, "warmup": 0.2}))
    return {"name": f"ours/{game_name}{n}p/rollout={rollout}", "sims_per_s": res["steps_per_s"],
            "min": res["steps_per_s_min"], "max": res["steps_per_s_max"]}


def ismcts_selfplay_speed(game_name, n, simulations=400, games=3, seed=0):
    """Our SO-ISMCTS (random rollouts to the end, UCB with c = 2.0 as the peer's bot) in
    every seat of whole games, every search timed: the peer's protocol (its bots play
    whole hearts games and each search is timed), where the playouts shorten as a game
    goes on. `ismcts_speed` times early positions instead (longer playouts)."""
    from tradewinds import registry
    from tradewinds.agents import ismcts

    game = registry.game(game_name)
    key = np.array([1, 2], dtype=np.int32)
    warm = game.new_state(n, seed)
    ismcts.search(game, warm, game.current_player(warm), key, 8, c=2.0, rollout="random")
    decisions, seconds = 0, 0.0
    for g in range(games):
        s = game.new_state(n, seed + g)
        while not game.is_terminal(s):
            t0 = time.perf_counter()
            a, _ = ismcts.search(game, s, game.current_player(s), key, simulations, c=2.0,
                                 rollout="random")
            seconds += time.perf_counter() - t0
            decisions += 1
            game.step(s, a)
    return {"name": f"ours/{game_name}{n}p/rollout=random, whole games (peer's protocol)",
            "sims_per_s": decisions * simulations / seconds, "searches": decisions,
            "notes": f"{decisions} searches timed in {games} games, every seat searching"}


def heuristic_speed(game_name, n, cfg=None):
    from tradewinds import registry
    from tradewinds.agents import heuristic

    game = registry.game(game_name)
    states = random_positions(game, n, 64, seed=1)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    key = np.array([3, 4], dtype=np.int32)
    heuristic.decide(game.aux, states[0], mask, key)

    def work():
        for s in states:
            heuristic.decide(game.aux, s, mask, key)
        return {"steps": len(states)}

    res = measure(work, **(cfg or {"repeats": 5, "min_time": 1.0, "warmup": 0.2}))
    return {"name": f"heuristic/{game_name}{n}p", "decisions_per_s": res["steps_per_s"]}


_OPENSPIEL_CHILD = r"""
import json, random, sys, time
import pyspiel
sims, games, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
game = pyspiel.load_game("hearts")
evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
bots = [pyspiel.ISMCTSBot(seed + p, evaluator, 2.0, sims) for p in range(game.num_players())]
chance = random.Random(seed)
for g in range(games):
    state = game.new_initial_state()
    decisions, searching = 0, 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(chance.choices(actions, probs)[0])
            continue
        t0 = time.perf_counter()
        action = bots[state.current_player()].step(state)
        searching += time.perf_counter() - t0
        decisions += 1
        state.apply_action(action)
        if True:   # after every search: the figures survive a crash later in the game
            print(json.dumps({"game": g, "decisions": decisions, "seconds": searching}),
                  flush=True)
    print(json.dumps({"game": g, "decisions": decisions, "seconds": searching, "end": 1}),
          flush=True)
"""


def openspiel_ismcts_speed(simulations=400, searches=200, seed=0, max_runs=20):
    """OpenSpiel C++ ISMCTSBot on hearts (random rollouts), in child processes.

    The bot crashes (SIGSEGV) at some hearts decisions, so a child plays until it ends or
    crashes, and a new child (next seed) continues until `searches` were timed; crashes
    are counted and reported. Only the search calls (``bot.step``) are timed."""
    decisions, seconds, crashes, finished, runs = 0, 0.0, 0, 0, 0
    while decisions < searches and runs < max_runs:
        try:
            proc = subprocess.run([sys.executable, "-c", _OPENSPIEL_CHILD, str(simulations),
                                   "3", str(seed + runs)], capture_output=True, text=True,
                                  timeout=600)
        except subprocess.TimeoutExpired:
            break
        runs += 1
        last = {}
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                rec = json.loads(line)
                last[rec["game"]] = rec
                finished += bool(rec.get("end"))
        decisions += sum(r["decisions"] for r in last.values())
        seconds += sum(r["seconds"] for r in last.values())
        crashes += proc.returncode < 0
    notes = (f"{decisions} searches timed in {runs} child processes; {finished} games "
             f"finished, {crashes} crashes (segmentation faults)")
    return {"name": "openspiel-cpp/hearts ISMCTSBot", "sims_per_s":
            decisions * simulations / seconds if seconds else None, "searches": decisions,
            "crashes": crashes, "notes": notes}


def speed(args) -> dict:
    cfg = {"repeats": 3, "min_time": 0.3, "warmup": 0.0} if args.quick else None
    rows = [ismcts_selfplay_speed("hansa", 2, games=1 if args.quick else 3),
            ismcts_speed("hansa", 2, "random", cfg=cfg),
            ismcts_speed("hansa", 2, "heuristic", cfg=cfg),
            ismcts_speed("voyage", 2, "heuristic", cfg=cfg),
            heuristic_speed("hansa", 2, cfg), heuristic_speed("voyage", 2, cfg)]
    peer = openspiel_ismcts_speed(searches=30 if args.quick else 400)
    rows.append(peer)
    ours = rows[0]["sims_per_s"]
    ratio = ours / peer["sims_per_s"] if peer.get("sims_per_s") else None
    return {"rows": rows, "ratio_hansa_random_vs_openspiel": ratio}


# --------------------------------------------------------------------------- strength


def lineups(a: str, b: str, n: int) -> list:
    """One agent `a` against n-1 seats of `b` (or a-b for 2 players)."""
    return [a] + [b] * (n - 1)


def _studies(game_name, n, a, b, base_seed) -> tuple:
    """The study of `a` against `b` with the line-up rotated over the seats, and its control:
    the same seeds with `b` in every seat, seats fixed."""
    from tradewinds.studies import arena

    def study(lineup, seating):
        return arena.Study.create(game_name, n, lineup, seating=seating, base_seed=base_seed,
                                  fast=False)

    return study(lineups(a, b, n), "rotate"), study([b] * n, "fixed")


def _credit(row, seat) -> float:
    """The win credit of `seat` in a stored game (shared wins split)."""
    return 1 / len(row["winners"]) if seat in row["winners"] else 0.0


def strength_row(game_name, pairing, n, games, db, workers, base_seed=0, *,
                 progress=False, chunk_size=None) -> dict:
    """Agent a against b in `game_name` with n players: a's win share, Wilson 95%; and the
    *control*: the same seeds and seat generators with b in a's seat too, a's edge over it
    with a paired t interval (`tradewinds.stats.paired_difference`). The control is the
    share a would have had by playing exactly as b, so it takes out the luck of the seeds
    and seats, which is large at 3-4 players."""
    from tradewinds import stats
    from tradewinds.studies.match import play_studies

    a, b = pairing.split("-")
    study, control_study = _studies(game_name, n, a, b, base_seed)
    # by seed, so a stopped row holds its games and their control for the same seeds (a
    # store copied from another row with the same b already has some of the control)
    played = play_studies([study, control_study], [games, games], db,
                          label=f"{game_name} {n}p {pairing} (and control)", console=None,
                          progress=progress, workers=workers, chunk_size=chunk_size,
                          order=lambda j, number, first: (first, j))
    rows, control = played["rows"]
    mine = [sum(_credit(r, s) for s, name in enumerate(r["agents"]) if name == a)
            for r in rows]
    theirs = [_credit(r, study.seats(r["game_index"]).index(a)) for r in control]
    lo, hi = stats.wilson_interval(sum(mine), len(rows))
    edge = stats.paired_difference(mine, theirs)
    return {"game": game_name, "players": n, "agent": a, "opponent": b, "games": len(rows),
            "seed": base_seed,
            "win_rate": float(np.mean(mine)), "wilson95": [lo, hi], "fair_share": 1 / n,
            "control": float(np.mean(theirs)), "edge": edge[0], "edge95": list(edge[1:]),
            "truncated": sum(bool(r["truncated"]) for r in rows),
            "mean_steps": float(np.mean([r["steps"] for r in rows])),
            "seconds_per_game": float(np.mean([r["duration"] for r in rows]))}


def merge_rows(old: list[dict], new: list[dict]) -> list[dict]:
    """`old` with each row of `new` in place of the row for the same game, player count
    and pairing (appended when there is none): a run of some pairings updates the report
    instead of replacing the others."""
    def key(r):
        return r["game"], r["players"], r["agent"], r["opponent"]

    out = list(old)
    at = {key(r): i for i, r in enumerate(out)}
    for r in new:
        if key(r) in at:
            out[at[key(r)]] = r
        else:
            out.append(r)
    return out


def stored_prefix(game_name, pairing, n, db, base_seed=0) -> int:
    """How many games, from game 0 on with none missing, the store at `db` holds of both
    the pairing's study and its control: a row of that many games plays nothing. For a
    row longer than a session, reported as it stands."""
    from tradewinds.store import Store

    a, b = pairing.split("-")
    with Store(db, readonly=True) as store:
        ids = [store.find_run(s.identity()) for s in _studies(game_name, n, a, b, base_seed)]
        done = [set() if i is None else store.done_indices(i) for i in ids]
    k = 0
    while all(k in d for d in done):
        k += 1
    if k < 2:
        raise ValueError(f"{db} holds {k} game(s) of {game_name} {n}p {pairing} with its "
                         "control from game 0; a row needs 2")
    return k


def strength(args) -> dict:
    out = []
    for pairing in args.pairings:
        for n in args.players:
            for game_name in args.game:
                games = (stored_prefix(game_name, pairing, n, args.db, args.seed)
                         if args.stored else args.games)
                out.append(strength_row(game_name, pairing, n, games, args.db,
                                        args.workers, args.seed,
                                        progress=not args.no_progress,
                                        chunk_size=args.chunk_size))
                print(json.dumps(out[-1]), flush=True)
    return {"rows": out}


# ------------------------------------------------------------------------- departures


def departures_row(game_name, n, simulations, games, seed=0) -> dict:
    """How often `mcts:<simulations>` in seat 0 picks another action than the heuristic
    would, on the positions of heuristic self-play, by kind of action; beside it, how often
    the heuristic departs from itself with another random draw (its own randomness: bids,
    ties), the floor under the first count."""
    from tradewinds import registry
    from tradewinds.agents import make_agent
    from tradewinds.studies.arena import agent_action

    game = registry.game(game_name)
    heuristic = make_agent("heuristic", game=game_name)
    search = make_agent(f"mcts:{simulations}", game=game_name)
    kinds: dict[str, list[int]] = {}
    t0 = time.perf_counter()
    for g in range(games):
        state = game.new_state(n, seed + g)
        rng = np.random.default_rng([seed, g])
        other = np.random.default_rng([seed, g, 1])
        while not (game.is_terminal(state) or game.is_truncated(state)):
            p = game.current_player(state)
            a = agent_action(heuristic, game, state, p, rng)
            if p == 0 and game.legal_mask(state).sum() > 1:
                b = agent_action(search, game, state, p, rng)
                c = agent_action(heuristic, game, state, p, other)
                counts = kinds.setdefault(game.action_name(a).split(":")[0], [0, 0, 0])
                counts[0] += 1
                counts[1] += a != b
                counts[2] += a != c
            game.step(state, a)
    decisions = sum(c[0] for c in kinds.values())
    departed = sum(c[1] for c in kinds.values())
    return {"game": game_name, "players": n, "agent": search.name, "games": games,
            "decisions": decisions, "departures": departed,
            "share": departed / max(decisions, 1),
            "heuristic_self_share": sum(c[2] for c in kinds.values()) / max(decisions, 1),
            "by_kind": {k: {"decisions": c[0], "departures": c[1], "heuristic_self": c[2]}
                        for k, c in sorted(kinds.items(), key=lambda kv: -kv[1][0])},
            "seconds": time.perf_counter() - t0}


def departures(args) -> dict:
    rows = []
    for game_name in args.game:
        for n in args.players:
            rows.append(departures_row(game_name, n, args.simulations, args.games))
            print(json.dumps(rows[-1]), flush=True)
    return {"rows": rows}


# ---------------------------------------------------------------------- decision time


def decision_time_row(game_name: str, n: int, names: list, count: int) -> dict:
    """Seconds per decision of each agent in `names` on the same `count` positions (after
    one untimed decision, which compiles and loads what the agent needs)."""
    from tradewinds import registry
    from tradewinds.agents import make_agent
    from tradewinds.studies.arena import agent_action

    game = registry.game(game_name)
    states = decision_positions(game, n, count)
    agents = {}
    for name in names:
        agent = make_agent(name, game=game_name)
        agent_action(agent, game, states[0], game.current_player(states[0]),
                     np.random.default_rng(0))
        seconds = []
        for i, s in enumerate(states):
            t0 = time.perf_counter()
            agent_action(agent, game, s, game.current_player(s), np.random.default_rng(i))
            seconds.append(time.perf_counter() - t0)
        agents[name] = _seconds_summary(seconds)
    return {"game": game_name, "players": n, "positions": len(states), "agents": agents}


def _seconds_summary(seconds: list) -> dict:
    return {"median_s": float(np.median(seconds)), "mean_s": float(np.mean(seconds)),
            "p90_s": float(np.quantile(seconds, 0.9))}


def decision_time_in_games(game_name: str, n: int, names: list, games: int,
                           seed: int = 777_000) -> dict:
    """Seconds per decision of each agent in `names` over `games` whole games against
    each other (one seat each, the line-up rotated game by game; the first decision of
    each agent untimed)."""
    from tradewinds import registry
    from tradewinds.agents import make_agent
    from tradewinds.studies.arena import agent_action

    if len(names) != n:
        raise ValueError(f"--games plays the agents against each other: name {n} agents "
                         f"for {n} players, got {len(names)}")
    game = registry.game(game_name)
    players = {name: make_agent(name, game=game_name) for name in names}
    seconds = {name: [] for name in names}
    for i in range(games):
        lineup = names[i % n:] + names[:i % n]
        for agent in players.values():
            getattr(agent, "reset", lambda: None)()
        s, rng = game.new_state(n, seed + i), np.random.default_rng([seed, i])
        while not (game.is_terminal(s) or game.is_truncated(s)):
            p = game.current_player(s)
            t0 = time.perf_counter()
            a = agent_action(players[lineup[p]], game, s, p, rng)
            if game.legal_mask(s).sum() > 1:
                seconds[lineup[p]].append(time.perf_counter() - t0)
            game.step(s, a)
    agents = {name: {**_seconds_summary(t[1:]), "decisions": len(t) - 1}
              for name, t in seconds.items()}
    return {"game": game_name, "players": n, "games": games, "agents": agents}


def decision_time(args) -> dict:
    rows = []
    for game_name in args.game:
        for n in args.players:
            if args.games:
                rows.append(decision_time_in_games(game_name, n, args.agents, args.games))
            else:
                rows.append(decision_time_row(game_name, n, args.agents, args.positions))
            print(json.dumps(rows[-1]), flush=True)
    return {"rows": rows}


def markdown(result: dict, kind: str) -> str:
    if kind == "decision-time":
        lines = ["| game | players | agent | positions | median s/decision | mean | 90% |",
                 "|---|---:|---|---:|---:|---:|---:|"]
        for r in result["rows"]:
            for name, t in r["agents"].items():
                where = (f"{t['decisions']} in {r['games']} games" if "games" in r
                         else r["positions"])
                lines.append(f"| {r['game']} | {r['players']} | {name} | {where} | "
                             f"{t['median_s']:.4f} | {t['mean_s']:.4f} | {t['p90_s']:.4f} |")
        return "\n".join(lines)
    if kind == "departures":
        lines = ["| game | players | agent | games | decisions | departures | share | "
                 "heuristic vs itself | by kind (departed/decisions, heuristic vs itself) |",
                 "|---|---:|---|---:|---:|---:|---:|---:|---|"]
        for r in result["rows"]:
            kinds = ", ".join(f"{k} {c['departures']}/{c['decisions']} ({c['heuristic_self']})"
                              for k, c in r["by_kind"].items())
            lines.append(f"| {r['game']} | {r['players']} | {r['agent']} | {r['games']} | "
                         f"{r['decisions']} | {r['departures']} | {r['share']:.3f} | "
                         f"{r['heuristic_self_share']:.3f} | {kinds} |")
        return "\n".join(lines)
    if kind == "speed":
        lines = ["| measurement | per second | notes |", "|---|---:|---|"]
        for r in result["rows"]:
            v = r.get("sims_per_s") or r.get("decisions_per_s")
            lines.append(f"| {r['name']} | {v:,.0f} | {r.get('notes', '')} |" if v else
                         f"| {r['name']} | – | {r.get('notes', '')} |")
        if result.get("ratio_hansa_random_vs_openspiel"):
            ratio = result["ratio_hansa_random_vs_openspiel"]
            lines.append(f"\nours (Hansa 2p, random rollouts, whole games) / OpenSpiel "
                         f"ISMCTSBot (hearts, whole games): "
                         f"{ratio:.2f}x (target >= {ISMCTS_TARGET}x: "
                         f"{'met' if ratio >= ISMCTS_TARGET else 'NOT met'})")
        return "\n".join(lines)
    lines = ["| game | players | agent | vs | games | win rate [95% CI] | fair | control "
             "| edge [95% CI] | truncated | s/game |",
             "|---|---:|---|---|---:|---|---:|---:|---|---:|---:|"]
    for r in result["rows"]:
        lo, hi = r["wilson95"]
        per_game = r.get("seconds_per_game")
        control = f"{r['control']:.3f}" if "control" in r else "–"
        edge = (f"{r['edge']:+.3f} [{r['edge95'][0]:+.3f}, {r['edge95'][1]:+.3f}]"
                if "edge" in r else "–")
        lines.append(f"| {r['game']} | {r['players']} | {r['agent']} | {r['opponent']} | "
                     f"{r['games']} | {r['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] | "
                     f"{r['fair_share']:.3f} | {control} | {edge} | {r['truncated']} | "
                     f"{'–' if per_game is None else f'{per_game:.1f}'} |")
    return "\n".join(lines)


def _paragraph(start: str) -> str:
    """The paragraph of the module's docstring that begins with `start` (a kind's help)."""
    return next(p for p in __doc__.split("\n\n") if p.startswith(start)).replace("\n", " ")


def main(argv=None, prog=None) -> int:
    """The command line; `prog` is the name of a command that hands one kind over (`tradewinds
    strength`), its usage and errors then name it instead of the kind's."""
    parser = argparse.ArgumentParser(prog=prog or "python -m tradewinds.benchmarks.agents",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="kind", required=True)
    named = {"prog": prog} if prog else {}
    p = sub.add_parser("speed", **named, description=_paragraph("*Speed*"),
                       help="IS-MCTS simulations/s beside OpenSpiel, heuristic "
                       "decisions/s")
    p.add_argument("--quick", action="store_true", help="short timings (smoke runs)")
    p = sub.add_parser("strength", **named, help="head-to-head win rates, seats rotated",
                       description=_paragraph("*Strength*"))
    p.add_argument("--pairings", nargs="+", default=list(PAIRINGS),
                   help="agent-opponent pairs (default: %(default)s)")
    p.add_argument("--players", nargs="+", type=int, default=[2])
    p.add_argument("--game", nargs="+", type=cli_args.game_name, default=["hansa", "voyage"])
    p.add_argument("--games", type=int, default=400, help="games per pairing and count")
    p.add_argument("--seed", type=cli_args.int_at_least(0), default=0,
                   help="base seed: game i uses seed + i (another seed: an independent "
                        "replication; default 0)")
    p.add_argument("--workers", type=int, default=None, help="worker processes "
                   "(default: all cores)")
    p.add_argument("--db", default=str(RESULTS / "agents.sqlite"), help="SQLite store")
    p.add_argument("--chunk-size", type=cli_args.int_at_least(1), default=None,
                   help="games per work unit (default: the arena's; smaller loses less "
                   "when a long run is stopped)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--stored", action="store_true", help="play nothing: report the games "
                   "the --db holds so far (from game 0, with their control)")
    p = sub.add_parser("departures", **named, description=_paragraph("*Departures*"),
                       help="how often IS-MCTS picks another action than "
                       "the heuristic, by kind of action")
    p.add_argument("--simulations", type=int, default=400)
    p.add_argument("--players", nargs="+", type=int, default=[2])
    p.add_argument("--game", nargs="+", type=cli_args.game_name, default=["hansa", "voyage"])
    p.add_argument("--games", type=int, default=4, help="heuristic self-play games per "
                   "game and player count")
    p = sub.add_parser("decision-time", **named, description=_paragraph("*Decision time*"),
                       help="seconds per decision of named agents on the "
                       "same positions")
    p.add_argument("--agents", nargs="+", default=["az", "mcts:400"])
    p.add_argument("--players", nargs="+", type=int, default=[2])
    p.add_argument("--game", nargs="+", type=cli_args.game_name, default=["hansa"])
    p.add_argument("--positions", type=cli_args.int_at_least(1), default=200,
                   help="decisions timed per agent")
    p.add_argument("--games", type=cli_args.int_at_least(1), default=None,
                   help="time every decision of this many whole games of the agents "
                        "against each other instead")
    for q in sub.choices.values():
        q.add_argument("--out", default=None, help="JSON output (default "
                       "benchmarks/results/agents_<kind>.json)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        result = {"speed": speed, "strength": strength, "departures": departures,
                  "decision-time": decision_time}[args.kind](args)
    except ValueError as e:     # bad input named by the measurement: one line, no trace
        parser.error(f"{args.kind}: {e}")
    result["seconds"] = time.perf_counter() - t0
    out = Path(args.out or RESULTS / f"agents_{args.kind.replace('-', '_')}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    if args.kind == "strength" and out.exists():
        result["rows"] = merge_rows(json.loads(out.read_text()).get("rows", []),
                                    result["rows"])
    out.write_text(json.dumps(result, indent=2))
    md = markdown(result, args.kind)
    out.with_suffix(".md").write_text(md + "\n")
    print(md)
    return 0


if __name__ == "__main__":
    mp.freeze_support()
    raise SystemExit(main())
