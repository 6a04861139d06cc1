"""Head-to-head matches: `tradewinds match <game> --agents A,B[,...] --players N --games K`.

A match plays K games between named agents with the seats rotated, through the arena and
the results store of the FPA study (same rows, resumable: a rerun skips stored games), then
rates the agents (`tradewinds.ratings`): win rate with a Wilson 95% interval, mean VP,
openskill (Plackett-Luce) and, with 2 players, Elo with a 95% interval.

Line-ups (who sits where)
-------------------------
With k distinct agents and N seats, the *casts* are

* k >= N: every set of N different agents (one seat each);
* k <  N: every way to fill the N seats with all k agents taking part (e.g. 2 agents in
  3 seats: A,A,B and A,B,B).

Every distinct seating of a cast belongs to one *rotation orbit* (the seatings that
rotate into each other). An orbit is one arena study with ``seating="rotate"`` and its
lexicographically first seating as the line-up: its game i seats the line-up rotated by
i, so every N consecutive games of an orbit put each of its agents in each seat equally
often. Orbits take turns in blocks of N games, casts interleaved (the first orbit of
every cast, then the second of every cast, ...): game g of the match is game
``(g // N // O) * N + g % N`` of orbit ``(g // N) % O`` (O orbits). So

* every agent sits in every seat equally often whenever K is a multiple of N
  (each agent of a cast gets the same number of games per seat of each block);
* every orbit (so every cast and every seating) is played equally often when K is a
  multiple of N * O, the *cycle*; otherwise the first orbits play one block more, and
  the match says so.

For 2 agents and 2 players there is one orbit: the same games (the same stored run) as
``tradewinds fpa <game> --players 2 --agent A,B --seating rotate`` with A before B in
sorted order. Agents are listed in
sorted order for the line-ups, so the order given on the command line does not change
the games. Seeds: orbit j (0-based) is a study with base seed ``seed + j * 10**9``, so
all games have different seeds (up to 10**9 games per orbit) and the games of an orbit
do not change when agents are added or K grows.
"""

from __future__ import annotations

import heapq
import json
import math
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations
from pathlib import Path

from tradewinds import ratings
from tradewinds.cli_args import int_at_least, option
from tradewinds.store import Store
from tradewinds.studies import arena
from tradewinds.studies import run_fields as rf

DEFAULT_DB = Path("results") / "match.sqlite"
SEED_STRIDE = 10**9


# ---------------------------------------------------------------------------- line-ups


def rotations(t: tuple) -> list[tuple]:
    """Every rotation of the seat order `t`, starting with `t` itself."""
    return [t[i:] + t[:i] for i in range(len(t))]


def lineups(agents: Sequence[str], players: int) -> list[tuple]:
    """The line-up (seat order of game 0) of every rotation orbit, in play order (see the
    module notes). `agents` must be distinct; they are sorted first."""
    names = sorted(agents)
    if len(set(names)) != len(names):
        raise ValueError(f"agents must be distinct, got {', '.join(agents)}")
    k, n = len(names), int(players)
    if k < 1 or n < 1:
        raise ValueError("need at least one agent and one seat")
    if k >= n:
        casts = list(combinations(range(k), n))
    else:
        casts = [c for c in combinations_with_replacement(range(k), n) if len(set(c)) == k]
    per_cast = []
    for cast in casts:
        reps = sorted({min(rotations(p)) for p in set(permutations(cast))})
        per_cast.append(reps)
    out = []
    for t in range(max(len(r) for r in per_cast)):
        for reps in per_cast:
            if t < len(reps):
                out.append(tuple(names[i] for i in reps[t]))
    return out


def orbit_games(num_orbits: int, players: int, games: int) -> list[int]:
    """How many of the match's `games` games each orbit plays."""
    block = num_orbits * players
    full, rem = divmod(int(games), block)
    return [full * players + min(players, max(0, rem - j * players))
            for j in range(num_orbits)]


def match_index(orbit: int, index: int, num_orbits: int, players: int) -> int:
    """The match's game number g of game `index` of orbit `orbit` (inverse of the
    schedule in the module notes)."""
    return ((index // players) * num_orbits + orbit) * players + index % players


def safe_stem(text: str) -> str:
    """A file-name-safe version of agent names (mcts:200 -> mcts-200)."""
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", text).strip("-") or "match"


# ------------------------------------------------------------------------------ config


@dataclass(frozen=True)
class MatchConfig:
    """Everything a match needs; `validate` checks it before anything is played."""

    game: str = rf.game()
    agents: tuple = option(metavar="A,B[,...]", help="two or more different agents, "
                           "comma-separated, e.g. heuristic,mcts:200")   # order: display only
    players: int = option(2, type=int, help="player count, 2-4")
    games: int = option(100, type=int_at_least(1), help="number of games; a multiple of the "
                        "player count balances the seats")
    base_seed: int = rf.base_seed()
    options: dict = rf.options()
    agent_kwargs: dict = rf.agent_kwargs()             # agent name -> kwargs
    db: Path = rf.db(DEFAULT_DB)
    out: Path | None = rf.out("JSON and markdown")
    name: str | None = rf.name("match_<game>_<agents>_<players>p")
    workers: int | None = rf.workers()
    backend: str = rf.backend()
    address: str | None = rf.address()
    chunk_size: int | None = rf.chunk_size()
    fast: bool = rf.fast()
    progress: bool = rf.progress()
    write_files: bool = True
    model: str = option("plackett_luce", choices=tuple(sorted(ratings.MODELS)),
                        help="openskill model")
    command: str | None = None

    def __post_init__(self):
        agents = self.agents
        if isinstance(agents, str):
            agents = [a.strip() for a in agents.split(",")]
        object.__setattr__(self, "agents", tuple(agents))
        object.__setattr__(self, "db", Path(self.db))
        if self.out is not None:
            object.__setattr__(self, "out", Path(self.out))

    @property
    def out_dir(self) -> Path:
        return self.out if self.out is not None else self.db.parent

    @property
    def stem(self) -> str:
        return self.name or (f"match_{self.game}_"
                             f"{'_vs_'.join(safe_stem(a) for a in self.agents)}"
                             f"_{self.players}p")

    def validate(self) -> list[arena.Study]:
        """Check every setting (ValueError with a one-line reason) and return the studies,
        one per orbit, without playing or writing anything."""
        from tradewinds import registry
        from tradewinds.agents import make_agent

        handle = registry.game(self.game)
        handle.check_players(self.players)
        if not self.agents or any(not a for a in self.agents):
            raise ValueError(f"--agents needs agent names separated by commas, got "
                             f"{','.join(self.agents)!r}")
        if len(self.agents) < 2:
            raise ValueError(f"a match needs at least two different agents, got "
                             f"{self.agents[0]!r}")
        dup = sorted({a for a in self.agents if self.agents.count(a) > 1})
        if dup:
            raise ValueError(f"agent {dup[0]!r} is listed twice; every agent once (with "
                             f"fewer agents than seats an agent takes several seats)")
        _check_count("--games", self.games, 1)
        _check_count("--seed", self.base_seed, 0)
        if self.workers is not None:
            _check_count("--workers", self.workers, 1)
        if self.chunk_size is not None:
            _check_count("--chunk-size", self.chunk_size, 1)
        if self.backend not in arena.BACKENDS:
            raise ValueError(f"backend must be one of {arena.BACKENDS}, got {self.backend!r}")
        if self.model not in ratings.MODELS:
            raise ValueError(f"unknown openskill model {self.model!r}; known: "
                             f"{', '.join(ratings.MODELS)}")
        for k in self.agent_kwargs:
            if k not in self.agents:
                raise ValueError(f"--agent-kwargs for {k!r}, which is not one of the agents "
                                 f"({', '.join(self.agents)})")
        for a in self.agents:         # builds each agent once: bad names, specs, kwargs
            try:
                make_agent(a, game=self.game, **self.agent_kwargs.get(a, {}))
            except (ValueError, TypeError, ImportError) as e:
                raise ValueError(f"agent {a!r}: {e}") from None
        studies = []
        for j, lineup in enumerate(lineups(self.agents, self.players)):
            kwargs = {a: v for a, v in self.agent_kwargs.items() if a in lineup}
            studies.append(arena.Study.create(
                self.game, self.players, lineup, options=self.options, agent_kwargs=kwargs,
                seating="rotate", base_seed=self.base_seed + j * SEED_STRIDE, fast=self.fast))
        return studies


def _check_count(flag: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{flag} must be an integer >= {minimum}, got {value!r}")


def check_writable_dir(path: str | Path, flag: str = "--out") -> Path:
    """Create `path` if needed and prove a file can be written in it (ValueError if not),
    so that outputs cannot fail after the games were played."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{flag} {path} is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".tradewinds-probe-"):
            pass
    except OSError as e:
        raise ValueError(f"{flag} {path} is not writable ({e.strerror or e})") from None
    return path


# ------------------------------------------------------------------------------ running


def _play(backend, store, jobs, on_rows) -> int:
    """Play `jobs` ((study, indices, run_id, sizer), in order; a lazy iterator may size its
    chunks from what the sizers have seen) on `backend`; store each chunk's rows as it
    finishes. Returns the number of new rows."""
    played = 0
    with closing(arena.iter_jobs(backend, jobs)) as finished:
        for (_, _, run_id, sizer), rows in finished:
            sizer.observe(rows)
            played += store.add_games(run_id, rows)
            on_rows(rows)
    return played


def _jobs(studies, run_ids, todo, sizers, order) -> Iterator[tuple]:
    """(study, chunk, run_id, sizer) across the studies in the order of
    ``order(j, chunk_number, first_index)``; each chunk is cut when it is due, as large as
    its study's sizer then says."""
    made = [0] * len(todo)
    start = [0] * len(todo)
    heap = [(order(j, 0, t[0]), j) for j, t in enumerate(todo) if t]
    heapq.heapify(heap)
    while heap:
        _, j = heapq.heappop(heap)
        chunk = todo[j][start[j]:start[j] + sizers[j].size()]
        start[j] += len(chunk)
        made[j] += 1
        yield studies[j], chunk, run_ids[j], sizers[j]
        if start[j] < len(todo[j]):
            heapq.heappush(heap, (order(j, made[j], todo[j][start[j]]), j))


def play_studies(studies: Sequence[arena.Study], counts: Sequence[int], db, *,
                 label: str, console, progress: bool = True, backend: str = "local",
                 workers: int | None = None, address: str | None = None,
                 chunk_size: int | None = None, order=None) -> dict:
    """Play games 0..counts[j]-1 of every study into the store at `db` (stored ones are
    skipped) under one progress bar. Chunks are submitted in the order of
    ``order(j, chunk_number, first_index)`` (default: chunk by chunk across the studies)
    and sized by `arena.ChunkSizer`. Returns ``{"rows": [stored rows of study j],
    "played", "already", "workers", "run_ids"}``."""
    from tradewinds.studies.fpa import progress_bar

    order = order or (lambda j, number, first: (number, j))
    total = int(sum(counts))
    with Store(db) as store:
        run_ids = [store.run_id(s.identity(), arena.versions()) for s in studies]
        todo = []
        for rid, c in zip(run_ids, counts, strict=True):
            done = store.done_indices(rid)
            todo.append([i for i in range(c) if i not in done])
        total_todo = sum(len(t) for t in todo)
        try:
            be = arena.make_backend(backend, workers, address)
        except RuntimeError as e:           # e.g. --backend ray without Ray installed
            raise ValueError(str(e)) from None
        with be, progress_bar(console, progress) as bar:
            sizers = [arena.ChunkSizer(arena.default_chunk_size(s, total_todo, be.workers),
                                       chunk_size) for s in studies]
            task = bar.add_task(label, total=total, completed=total - total_todo)
            played = _play(be, store, _jobs(studies, run_ids, todo, sizers, order),
                           lambda rows: bar.advance(task, len(rows)))
            workers_used = be.workers
        rows = [store.games(rid, below=c) for rid, c in zip(run_ids, counts, strict=True)]
    return {"rows": rows, "played": played, "already": total - total_todo,
            "workers": workers_used, "run_ids": run_ids}


def run_match(config: MatchConfig, console=None) -> dict:
    """Validate, play (resuming), rate, print, and write JSON and markdown; returns the
    report (also the JSON's content)."""
    from tradewinds import output

    console = console or output.console()
    studies = config.validate()
    if config.write_files:
        check_writable_dir(config.out_dir, "--out" if config.out is not None
                           else "--db directory")
    n, num_orbits = config.players, len(studies)
    counts = orbit_games(num_orbits, n, config.games)
    t0 = time.perf_counter()
    res = play_studies(studies, counts, config.db, label=f"{config.game} {n}p match",
                       console=console, progress=config.progress, backend=config.backend,
                       workers=config.workers, address=config.address,
                       chunk_size=config.chunk_size,
                       order=lambda j, number, first: match_index(j, first, num_orbits, n))
    played, workers_used, run_ids = res["played"], res["workers"], res["run_ids"]
    rows = []
    for j, study_rows in enumerate(res["rows"]):
        for r in study_rows:
            r["match_index"] = match_index(j, r["game_index"], num_orbits, n)
            rows.append(r)
    rows.sort(key=lambda r: r["match_index"])
    elapsed = time.perf_counter() - t0
    report = summarize(config, studies, counts, rows)
    report.update({
        "command": config.command or " ".join(sys.argv), "db": str(config.db),
        "played_now": played, "already_stored": res["already"],
        "elapsed": elapsed, "backend": config.backend, "workers": workers_used,
        "run_ids": run_ids, "versions": arena.versions(),
    })
    for line in render(report, console):
        console.print(line, highlight=False)
    rate = f" ({played / elapsed:,.1f} games/s)" if played and elapsed > 0 else ""
    console.print(f"{played} games played now{rate}, {report['already_stored']} resumed from "
                  f"{config.db}; {elapsed:.1f} s with {workers_used} {config.backend} "
                  f"worker{'s' if workers_used > 1 else ''}", highlight=False)
    if config.write_files:
        out = config.out_dir
        jpath, mpath = out / f"{config.stem}.json", out / f"{config.stem}.md"
        report["json"], report["markdown"] = str(jpath), str(mpath)
        jpath.write_text(json.dumps(jsonable(report), indent=2) + "\n")
        mpath.write_text(markdown(report))
        console.print(f"wrote {jpath} and {mpath}", highlight=False)
    return report


# ----------------------------------------------------------------------------- summary


def summarize(config: MatchConfig, studies: Sequence[arena.Study], counts: Sequence[int],
              rows: Sequence[dict]) -> dict:
    """The match's numbers from its stored rows (in match order)."""
    n = config.players
    agents = list(config.agents)
    cycle = len(studies) * n
    notes = ["shared wins count 1/k for each of the k winners; win rate = win credit per "
             f"seat played (fair share 1/{n})"]
    if config.games % n:
        notes.append(f"{config.games} games is not a multiple of {n}: seats are not exactly "
                     f"balanced (use a multiple of {n})")
    if len(studies) > 1 and config.games % cycle:
        notes.append(f"the line-up cycle is {cycle} games ({len(studies)} rotation orbit"
                     f"{'s' if len(studies) > 1 else ''} x {n}); {config.games} is not a "
                     f"multiple, so some line-ups were played one block more than others")
    if len(agents) < n:
        notes.append("with fewer agents than seats an agent holds several seats of a game: "
                      "'win rate' is per seat, 'games won' the share of its games that one "
                      "of its seats won")
    truncated = sum(bool(r["truncated"]) for r in rows)
    if truncated:
        notes.append(f"{truncated} of {len(rows)} games reached the round cap (scored as they "
                     "stood)")
    seat_counts = {a: [0] * n for a in agents}
    for r in rows:
        for s, a in enumerate(r["agents"]):
            seat_counts[a][s] += 1
    report = {
        "game": config.game, "players": n, "agents": agents, "games": config.games,
        "stored_games": len(rows), "base_seed": config.base_seed,
        "options": studies[0].options,
        "agent_kwargs": {k: dict(v) for k, v in config.agent_kwargs.items()},
        "lineups": [{"lineup": list(s.agents), "seating": s.seating,
                     "base_seed": s.base_seed, "games": c, "path": s.path}
                    for s, c in zip(studies, counts, strict=True)],
        "cycle": cycle,
        "seat_counts": seat_counts,
        "per_agent": ratings.agent_table(rows, agents),
        "openskill": ratings.openskill_ratings(rows, agents, model=config.model),
        "elo": ratings.elo_table(rows, agents) if n == 2 else None,
        "truncated": truncated,
        "mean_steps": float(sum(r["steps"] for r in rows) / len(rows)) if rows else math.nan,
        "game_seconds_total": float(sum(r["duration"] for r in rows)),
        "notes": notes,
    }
    return report


def _fmt_elo(x: float) -> str:
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def _several_seats(report: dict) -> bool:
    return any(s["seat_games"] != s["games"] for s in report["per_agent"].values())


def _agent_columns(report: dict) -> tuple:
    cols = ("agent", "games", "seats", "win rate", "95% CI (Wilson)", "mean VP", "mean rank")
    return cols + ("games won",) if _several_seats(report) else cols


def _rows_agents(report: dict) -> list[list[str]]:
    out = []
    for a, s in report["per_agent"].items():
        lo, hi = s["ci95"]
        row = [a, str(s["games"]), str(s["seat_games"]), f"{s['win_rate']:.3f}",
               f"[{lo:.3f}, {hi:.3f}]", f"{s['mean_vp']:.2f}", f"{s['mean_rank']:.2f}"]
        if _several_seats(report):
            row.append(f"{s['game_share']:.3f}")
        out.append(row)
    return out


def _rows_ratings(report: dict) -> tuple[list[str], list[list[str]]]:
    cols = ["agent", "mu", "sigma", "ordinal"]
    elo = report["elo"]
    if elo is not None:
        cols += ["Elo", "Elo 95% CI"]
    out = []
    for a, r in report["openskill"]["agents"].items():
        row = [a, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"]
        if elo is not None:
            e = elo["agents"].get(a)
            if e is None or e["games_vs_reference"] == 0:
                row += ["-", "-"]
            elif a == elo["reference"]:
                row += ["0", "(reference)"]
            else:
                row += [_fmt_elo(e["elo"]), f"[{_fmt_elo(e['elo_ci95'][0])}, "
                        f"{_fmt_elo(e['elo_ci95'][1])}]"]
        out.append(row)
    return cols, out


PAIR_COLUMNS = ("pair", "games", "score of first", "95% CI (Wilson)", "Elo difference",
                "Elo 95% CI")


def _rows_pairs(report: dict) -> list[list[str]]:
    out = []
    for p in report["elo"]["pairs"]:
        if not p["games"]:
            out.append([f"{p['a']} vs {p['b']}", "0", "-", "-", "-", "-"])
            continue
        out.append([f"{p['a']} vs {p['b']}", str(p["games"]), f"{p['score_rate']:.3f}",
                    f"[{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]", _fmt_elo(p["elo"]),
                    f"[{_fmt_elo(p['elo_ci95'][0])}, {_fmt_elo(p['elo_ci95'][1])}]"])
    return out


def _title(report: dict) -> str:
    return (f"{report['game']}, {report['players']} players: {report['stored_games']} games, "
            f"{' vs '.join(report['agents'])} (seats rotated, {len(report['lineups'])} "
            f"line-up orbit{'s' if len(report['lineups']) > 1 else ''})")


def _ratings_title(report: dict) -> str:
    text = (f"ratings: openskill {report['openskill']['model'].replace('_', '-')} "
            f"(ordinal = mu - 3 sigma)")
    if report["elo"] is not None:
        text += (f"; Elo relative to {report['elo']['reference']} from head-to-head games "
                 f"(Wilson interval mapped)")
    return text


def render(report: dict, console=None) -> list:
    """Rich renderables: the agent table, the rating table, the pair table (2 players)
    and the notes."""
    from rich.table import Table

    t = Table(title=_title(report), title_justify="left")
    for c in _agent_columns(report):
        t.add_column(c, justify="left" if c == "agent" else "right")
    for row in _rows_agents(report):
        t.add_row(*row)
    cols, rows = _rows_ratings(report)
    r = Table(title=_ratings_title(report), title_justify="left")
    for c in cols:
        r.add_column(c, justify="left" if c == "agent" else "right")
    for row in rows:
        r.add_row(*row)
    out = [t, r]
    if report["elo"] is not None and len(report["agents"]) > 2:
        p = Table(title="head-to-head (2 players)", title_justify="left")
        for c in PAIR_COLUMNS:
            p.add_column(c, justify="left" if c == "pair" else "right")
        for row in _rows_pairs(report):
            p.add_row(*row)
        out.append(p)
    out += ["  " + note for note in report["notes"]]
    return out


def _md_table(cols, rows) -> list[str]:
    lines = ["| " + " | ".join(cols) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(cols))) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def markdown(report: dict) -> str:
    """The match tables as Markdown."""
    lines = [f"**{_title(report)}**", ""]
    lines += _md_table(_agent_columns(report), _rows_agents(report))
    cols, rows = _rows_ratings(report)
    lines += ["", _ratings_title(report) + ":", ""]
    lines += _md_table(cols, rows)
    if report["elo"] is not None and len(report["agents"]) > 2:
        lines += ["", "Head-to-head:", ""] + _md_table(PAIR_COLUMNS, _rows_pairs(report))
    lines += [""] + [f"- {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"


def jsonable(obj):
    """JSON without NaN/Infinity: non-finite floats become strings ("inf", "nan")."""
    if isinstance(obj, dict):
        return {k: jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, float) and not math.isfinite(obj):
        return "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    return obj


__all__ = ["DEFAULT_DB", "MatchConfig", "check_writable_dir", "lineups", "markdown",
           "match_index", "orbit_games", "render", "run_match", "summarize"]
