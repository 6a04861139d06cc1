"""Differential soak: the numba kernels against the plain-Python references, whole games.

    tradewinds bench soak --games 10000               # both games, the full soak
    tradewinds bench soak --games 300 --heuristic-games 30 --game voyage
    tradewinds bench soak --replay voyage:random:123  # one game again, in this process
    tradewinds bench soak --games 10000 --minutes 45  # as much of it as fits in 45 min

For each game (Hansa, Voyage) it plays `--games` uniformly random games and
`--heuristic-games` games of the heuristic agent in every seat (`agents.heuristic
.HeuristicAgent`: the game's njit strategy on a determinization of the real state), with
the kernel and the reference (`reference.py`) in lockstep. At **every** step
`tradewinds.differential.first_difference` compares the full state vector (named by
field), the legal masks, the current player, terminal flags, scores, winners and every
seat's observation; at the end the truncation flag and the returns. A game stops at its
first disagreement, which is reported with its seed and step.

The kernel side runs through the raw kernels (`game.kernels`, no per-call wrappers) on
the states they made: each game's first and last state pass `validate_state`, and every
compared state first equals the reference's and passes the kernels' structural check, so
no call can crash on it. The references compute what all seats share once per step
(`observations()`) and give their state as a list of ints (`state_values()`).

Game `i` of a kind has `2 + i % 3` players and the option set `option_sets(game)[(i // 3)
% len(sets)]` (every combination of the game's choice options that `parse_options`
accepts; `max_rounds` at its default), seed `seed + i` (heuristic games: `seed + HEUR + i`);
every `CAP_EVERY`-th random game is capped at a few rounds so that truncation is compared
too. Random actions come from `random.Random(seed)` over the legal actions (ascending ids),
the heuristic's from `numpy.random.default_rng(seed)`: a disagreement replays exactly.

Work is spread over processes (`--workers`, default all cores; 1 runs in this process)
in chunks of games, with a rich progress bar; the chunks of every (game, kind) are
interleaved, so a run stopped by `--minutes` (or Ctrl-C) has done the same share of each
and reports the games it finished. The summary gives games and steps compared per game,
kind and option set, and the wall time; the exit status is 1 when any game disagreed.
`tests/benchmarks/test_soak.py` runs a sample in the default suite and the full counts as a slow
test; benchmarks/results/soak.md has the last full run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import os
import random
import sys
import time
import traceback
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from functools import cache

import numpy as np

from tradewinds.differential import comparison

GAMES = ("hansa", "voyage")
KINDS = ("random", "heuristic")
CHOICES = {   # the options that change the rules (max_rounds only caps the length)
    "hansa": {"build_rule": ("barrels", "per_stall")},
    "voyage": {"simple_deck": (False, True), "black_ship": (False, True),
               "dice_movement": (False, True)},
}
COMPENSATED = {   # one more option set each: the seat-compensation variants (HA21-22, VA40-41)
    "hansa": {"seat_talers": (0, 1, 2, 3), "seat_vp": (0, 1, 2, 3)},
    "voyage": {"seat_vp": (0, 1, 2, 3), "seat_cards": (0, 1, 1, 2)},
}
VARIANTS = {   # one more option set per entry: the order variants (HA23, VA42), default rules
    "hansa": ({"setup_order": "reverse"}, {"setup_order": "snake"}),
    "voyage": ({"rotate_order": True},),
}
CAP_EVERY = 25                        # every 25th random game is capped ...
SHORT_CAP = {"hansa": 8, "voyage": 4}  # ... at this many rounds
HEUR = 1_000_000_000                  # seed offset of the heuristic games
CHUNK = 10                            # games per worker task


# ---------------------------------------------------------------------- the games


@cache
def option_sets(name: str) -> tuple:
    """Every combination of the game's choice options that its parser accepts (a refused
    one, e.g. Voyage's dice_movement with simple_deck, is left out), then the
    compensation variants on the default rules: they change set-up and scoring only; then
    each order variant (`VARIANTS`) on the default rules."""
    from tradewinds import registry

    game = registry.game(name)
    choices = CHOICES[name]
    extra = COMPENSATED.get(name, {})
    variants = VARIANTS.get(name, ())
    missing = (set(game.option_defaults) - set(choices) - set(extra) - {"max_rounds"}
               - {k for v in variants for k in v})
    if missing:
        raise RuntimeError(f"tradewinds.benchmarks.soak: {name} has options {sorted(missing)} "
                           "the soak does not vary; add them to CHOICES")
    out = []
    for values in itertools.product(*choices.values()):
        opts = dict(zip(choices, values, strict=True))
        try:
            game.parse_options(**dict(game.option_defaults, **opts))
        except ValueError:
            continue
        out.append(opts)
    if extra:
        out.append(dict(out[0], **extra))
    out += [dict(out[0], **v) for v in variants]
    return tuple(out)


def label(opts: dict) -> str:
    """A short name of an option set: flags set to True by name, other values as k=v
    (`max_rounds`, the short cap, is reported apart)."""
    parts = []
    for k, v in opts.items():
        if v is True:
            parts.append(k)
        elif v not in (False, ()) and k != "max_rounds":
            parts.append(f"{k}={v}")
    return "+".join(parts) or "defaults"


@dataclass
class Spec:
    """What game `index` of a kind is: players, options, seed."""
    name: str
    kind: str
    index: int
    num_players: int
    options: dict
    seed: int
    capped: bool

    @property
    def tag(self) -> str:
        return f"{self.name}:{self.kind}:{self.index}"


def spec(name: str, kind: str, index: int, base_seed: int = 0) -> Spec:
    sets = option_sets(name)
    opts = dict(sets[(index // 3) % len(sets)])
    capped = kind == "random" and index % CAP_EVERY == CAP_EVERY - 1
    if capped:
        opts["max_rounds"] = SHORT_CAP[name]
    seed = base_seed + index + (HEUR if kind == "heuristic" else 0)
    return Spec(name, kind, index, 2 + index % 3, opts, seed, capped)


def reference(name: str, num_players: int, seed: int, options: dict):
    """The plain-Python reference game (default board)."""
    if name == "hansa":
        from hansa_env.reference import HansaGame
        return HansaGame(num_players, seed, **options)
    from voyage_env.reference import VoyageGame
    return VoyageGame(num_players, seed, **options)


_AGENTS: dict = {}


def _heuristic(name: str):
    if name not in _AGENTS:
        from tradewinds.agents.heuristic import HeuristicAgent
        _AGENTS[name] = HeuristicAgent(name)
    return _AGENTS[name]


@dataclass
class Outcome:
    tag: str
    name: str
    kind: str
    num_players: int
    label: str
    seed: int
    steps: int = 0
    truncated: bool = False
    capped: bool = False
    difference: str | None = None
    at_step: int = -1


def play(sp: Spec, observations: bool = True) -> Outcome:
    """Game `sp` in lockstep; the steps compared and the first difference, if any."""
    from tradewinds import registry

    game = registry.game(sp.name)
    out = Outcome(sp.tag, sp.name, sp.kind, sp.num_players, label(sp.options), sp.seed,
                  capped=sp.capped)
    rnd = random.Random(sp.seed)
    arng = np.random.default_rng(sp.seed)
    agent = _heuristic(sp.name) if sp.kind == "heuristic" else None
    compare = comparison(game)
    kernel_step = game.kernels.step
    step = 0
    try:
        state = game.new_state(sp.num_players, sp.seed, **sp.options)
        ref = reference(sp.name, sp.num_players, sp.seed, sp.options)
        game.validate_state(state)           # once; then every step through the raw kernels
        while True:
            diff = compare(state, ref, observations)
            if diff is not None:
                out.difference, out.at_step = diff, step
                break
            if ref.is_terminal():
                out.truncated = bool(ref.is_truncated())
                game.validate_state(state)   # the final state too
                break
            if agent is None:                # the kernel's legal actions, as the reference's
                a = rnd.choice(compare.legal)
            else:
                a = agent.act(None, compare.mask, arng, state=state)
            code = kernel_step(state, a)
            if code != 0:
                out.difference, out.at_step = (f"kernel refused {game.action_name(a)}: "
                                               f"error code {code}"), step
                break
            ref.step(a)                      # raises ValueError for an illegal action
            step += 1
    except Exception as e:  # noqa: BLE001 - an engine raising is a disagreement too
        out.difference = f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}"
        out.at_step = step
    out.steps = step
    return out


def _play_chunk(task) -> list:
    name, kind, start, stop, base_seed = task
    return [asdict(play(spec(name, kind, i, base_seed))) for i in range(start, stop)]


# ---------------------------------------------------------------------- the run


@dataclass
class Summary:
    """Per (game, kind, option set, players): games, steps, truncated; disagreements."""
    rows: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    disagreements: list = field(default_factory=list)
    wall: float = 0.0
    planned: dict = field(default_factory=dict)   # {(game, kind): games asked for}
    stopped: str | None = None    # why the run ended before every planned game, if it did

    def add(self, o: dict) -> None:
        row = self.rows[(o["name"], o["kind"], o["label"], o["num_players"])]
        row[0] += 1
        row[1] += o["steps"]
        row[2] += o["truncated"]
        if o["difference"] is not None:
            self.disagreements.append(o)

    def totals(self) -> dict:
        """{(game, kind): [games, steps, truncated]}."""
        out = defaultdict(lambda: [0, 0, 0])
        for (name, kind, _, _), row in self.rows.items():
            for i in range(3):
                out[(name, kind)][i] += row[i]
        return dict(out)

    def to_json(self) -> dict:
        return {"wall_seconds": self.wall,
                "planned": [{"game": g, "kind": k, "games": c}
                            for (g, k), c in sorted(self.planned.items())],
                "stopped": self.stopped,
                "rows": [{"game": g, "kind": k, "options": lab, "players": n, "games": r[0],
                          "steps": r[1], "truncated": r[2]}
                         for (g, k, lab, n), r in sorted(self.rows.items())],
                "disagreements": self.disagreements}


def tasks(games: dict, base_seed: int = 0, chunk: int = CHUNK) -> list:
    """Worker tasks (name, kind, start, stop, seed) for {(game, kind): count}, interleaved
    so that every (game, kind) advances at the same pace (a run stopped early by its time
    limit has done the same share of each), the long random Voyage games first among
    equals."""
    out = []
    for (name, kind), count in games.items():
        for start in range(0, count, chunk):
            out.append((name, kind, start, min(count, start + chunk), base_seed))
    weight = {("voyage", "random"): 0, ("hansa", "random"): 1}
    counts = dict(games)
    out.sort(key=lambda t: (t[2] // chunk * chunk / counts[(t[0], t[1])],
                            weight.get((t[0], t[1]), 2), t[2]))
    return out


def soak(games: dict, workers: int = 0, base_seed: int = 0, progress: bool = False,
         chunk: int = CHUNK, minutes: float | None = None) -> Summary:
    """Play {(game, kind): count} games in lockstep over `workers` processes (0: every
    core; 1: in this process). With `minutes`, stop taking new results once that much
    time has passed (`Summary.stopped` says so; Ctrl-C stops the same way): the summary
    then holds the games finished."""
    work = tasks(games, base_seed, chunk)
    total = sum(games.values())
    summary = Summary(planned=dict(games))
    t0 = time.perf_counter()
    deadline = None if minutes is None else t0 + 60.0 * minutes
    workers = workers or os.cpu_count() or 1
    bar = None
    log_every, last_log = 60.0, [t0]           # without a terminal: a status line a minute
    if progress and not sys.stdout.isatty():
        progress = False
        print(f"soak: {total:,} games, {workers} workers", flush=True)
    else:
        log_every = 0.0
    if progress:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        bar = Progress(TextColumn("[bold]soak[/] {task.description}"), BarColumn(),
                       MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
        bar.start()
        job = bar.add_task("games", total=total)

    def collect(results):
        for o in results:
            summary.add(o)
            if bar is not None and o["difference"] is not None:
                bar.console.print(f"[red]DISAGREEMENT[/] {describe(o)}")
        steps = sum(r[1] for r in summary.rows.values())
        if bar is not None:
            bar.update(job, advance=len(results),
                       description=f"games ({steps:,} steps, "
                                   f"{len(summary.disagreements)} disagreements)")
        now = time.perf_counter()
        if log_every and now - last_log[0] >= log_every:
            last_log[0] = now
            done = sum(r[0] for r in summary.rows.values())
            rate = done / (now - t0)
            print(f"soak: {done:,}/{total:,} games, {steps:,} steps, "
                  f"{len(summary.disagreements)} disagreements, {now - t0:,.0f} s elapsed, "
                  f"~{(total - done) / max(rate, 1e-9):,.0f} s left", flush=True)
        if log_every:
            for o in results:
                if o["difference"] is not None:
                    print(f"DISAGREEMENT {describe(o)}", flush=True)

    def out_of_time() -> bool:
        if deadline is not None and time.perf_counter() >= deadline:
            summary.stopped = f"time limit of {minutes:g} minutes"
        return summary.stopped is not None

    try:
        if workers == 1:
            for t in work:
                if out_of_time():
                    break
                collect(_play_chunk(t))
        else:
            with mp.get_context("spawn").Pool(workers) as pool:   # leaving it terminates
                for results in pool.imap_unordered(_play_chunk, work):
                    collect(results)
                    if out_of_time():
                        break
    except KeyboardInterrupt:
        summary.stopped = "interrupted"
    finally:
        if bar is not None:
            bar.stop()
    summary.wall = time.perf_counter() - t0
    return summary


def describe(o: dict) -> str:
    return (f"{o['tag']} ({o['num_players']} players, {o['label']}, seed {o['seed']}) at "
            f"step {o['at_step']}: {o['difference']}")


def report(summary: Summary) -> None:
    from rich.table import Table

    from tradewinds import output

    console = output.console()
    table = Table(title="kernel vs reference, every step: state, masks, observations, scores")
    for col in ("game", "kind", "options", "players", "games", "steps", "truncated"):
        table.add_column(col, justify="right" if col in ("players", "games", "steps",
                                                         "truncated") else "left")
    for (name, kind, lab, n), (g, s, tr) in sorted(summary.rows.items()):
        table.add_row(name, kind, lab, str(n), f"{g:,}", f"{s:,}", f"{tr:,}")
    console.print(table)
    for (name, kind), (g, s, tr) in sorted(summary.totals().items()):
        console.print(f"{name} {kind}: {g:,} games, {s:,} steps compared, {tr:,} truncated")
    console.print(f"wall time {summary.wall:,.1f} s")
    if summary.stopped:
        done = {k: v[0] for k, v in summary.totals().items()}
        console.print(f"[yellow]stopped early ({summary.stopped}):[/] " + ", ".join(
            f"{g} {k} {done.get((g, k), 0):,} of {c:,}"
            for (g, k), c in sorted(summary.planned.items())))
    if summary.disagreements:
        console.print(f"[red]{len(summary.disagreements)} games disagree[/]")
        for o in summary.disagreements:
            console.print("  " + describe(o))
            console.print(f"  replay: tradewinds bench soak --replay {o['tag']}")
    else:
        console.print("[green]no disagreement[/]")


def main(argv=None, prog="python -m tradewinds.benchmarks.soak") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="random games per game")
    ap.add_argument("--heuristic-games", type=int, default=None,
                    help="heuristic games per game (default: games / 10)")
    ap.add_argument("--game", choices=(*GAMES, "both"), default="both")
    ap.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--json", help="also write the summary as JSON to this path")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop after this many minutes and report the games finished")
    ap.add_argument("--replay", help="GAME:KIND:INDEX: play that one game here and report")
    args = ap.parse_args(argv)
    if args.replay:
        name, kind, index = args.replay.split(":")
        o = play(spec(name, kind, int(index), args.seed))
        print(describe(asdict(o)) if o.difference else
              f"{o.tag}: {o.steps} steps agree ({o.num_players} players, {o.label}, seed "
              f"{o.seed})")
        return 1 if o.difference else 0
    heur = args.games // 10 if args.heuristic_games is None else args.heuristic_games
    names = GAMES if args.game == "both" else (args.game,)
    games = {(name, kind): count for name in names
             for kind, count in (("random", args.games), ("heuristic", heur)) if count > 0}
    summary = soak(games, args.workers, args.seed, progress=True, minutes=args.minutes)
    report(summary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary.to_json(), f, indent=1)
    return 1 if summary.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
