"""The first-player-advantage study: `tradewinds fpa <game> --players N --agent NAME --games K`.

For each player count the arena plays games 0..K-1 (seeds base_seed + i) into the results
database (resuming whatever it already holds), then the recorded games are summarised with
`tradewinds.stats.summarize`: per-seat win rate with Wilson 95 % intervals, exact binomial
test of seat 1, chi-square over seats, SPRT, bootstrap interval of seat 1's VP margin and the
games needed for the chosen effect size. Output: a rich table per player count, an overview
table, a JSON summary, the tables as Markdown and a PNG plot (seat win rates with intervals
and the fair share; histogram of seat 1's VP margin), one panel column per player count.

Seat 1 is seat index 0, the first player of the initial turn order (see tradewinds.arena).
Wins shared by k players count 1/k each (see tradewinds.stats). Truncated games (round cap)
count with the winners the game declares; their number is reported.

With ``sprt=True`` the study stops as soon as Wald's SPRT (H0: seat 1 wins 1/n, H1: 1/n +
delta) decides on the games in seed order; the games already played are kept.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tradewinds import arena, stats
from tradewinds.store import Store

DEFAULT_DB = Path("results") / "fpa.sqlite"


def parse_players(text: str | int | Sequence[int]) -> list[int]:
    """'2,3,4' -> [2, 3, 4]; '2-4' -> [2, 3, 4]; 3 -> [3]."""
    if isinstance(text, (int, np.integer)):
        return [int(text)]
    if not isinstance(text, str):
        return [int(x) for x in text]
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                out.extend(range(lo, hi + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise ValueError(f"--players takes numbers like 3 or 2,3,4 or 2-4, got {text!r}") \
                from None
    if not out:
        raise ValueError("no player count given")
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- SPRT stop


def seat1_credit(row: dict) -> float:
    """Seat 0's share of the win in a game row."""
    w = row["winners"]
    return 1.0 / len(w) if 0 in w else 0.0


class SequentialStop:
    """Feeds games to an SPRT in game-index order (the order does not depend on outcomes)
    and reports True once it has decided. Rows may arrive out of order; a row is used when
    every lower index has been seen."""

    def __init__(self, num_players: int, delta: float, alpha: float, beta: float):
        self.sprt = stats.SPRT(1.0 / num_players, delta, alpha, beta)
        self.next = 0
        self.buffer: dict[int, float] = {}

    def __call__(self, rows: Sequence[dict]) -> bool:
        for r in rows:
            self.buffer[int(r["game_index"])] = seat1_credit(r)
        while self.next in self.buffer and self.sprt.decide() == "continue":
            self.sprt.update(self.buffer.pop(self.next))
            self.next += 1
        return self.decided

    @property
    def decided(self) -> bool:
        return self.sprt.decide() != "continue"


# --------------------------------------------------------------------------- summaries


def summarize_rows(rows: Sequence[dict], study: arena.Study, *, delta: float = 0.05,
                   alpha: float = 0.05, beta: float = 0.2, n_boot: int = 10_000) -> dict:
    """`stats.summarize` of recorded games plus per-seat mean VP, agents and bookkeeping."""
    n = study.num_players
    seat_w = arena.wins_matrix(rows, n)
    w = arena.by_position(seat_w, rows)  # the study measures initial turn-order positions
    s = arena.by_position(arena.scores_matrix(rows, n), rows)
    out = stats.summarize(w, s, n, delta=delta, alpha=alpha, beta=beta, n_boot=n_boot, rng=0)
    for i, seat in enumerate(out["seats"]):
        seat["mean_vp"] = float(s[:, i].mean())
        identity = all(r["turn_order"] == list(range(n)) for r in rows)
        seat["agent"] = (study.agents[i] if study.seating == "fixed" and identity
                         else "varies by game")
        seat["ci95_half_width"] = (seat["ci95"][1] - seat["ci95"][0]) / 2
    per_agent: dict[str, dict] = {}
    for r, wr in zip(rows, seat_w, strict=True):
        for seat, name in enumerate(r["agents"]):
            a = per_agent.setdefault(name, {"seat_games": 0, "wins": 0.0})
            a["seat_games"] += 1
            a["wins"] += float(wr[seat])
    for a in per_agent.values():
        a["win_rate"] = a["wins"] / a["seat_games"]
    steps = np.array([r["steps"] for r in rows], dtype=float)
    dur = np.array([r["duration"] for r in rows], dtype=float)
    orders = {json.dumps(r["turn_order"]) for r in rows}
    out.update({
        "game": study.game,
        "study": study.identity(),
        "seat_meaning": ("seat k = position k in the initial turn order (Hansa: player index "
                         "k-1; Voyage: the random order before the round-1 bidding, V5)"),
        "initial_turn_orders": sorted(json.loads(o) for o in orders),
        "agents": per_agent,
        "truncated": int(sum(bool(r["truncated"]) for r in rows)),
        "mean_steps": float(steps.mean()),
        "game_seconds_total": float(dur.sum()),
        "max_ci95_half_width": max(seat["ci95_half_width"] for seat in out["seats"]),
        "seeds": [study.seed(0), study.seed(max(r["game_index"] for r in rows))],
    })
    return out


def study_table(summary: dict, *, show_sprt: bool = False):
    """A rich Table (seat, agent, win rate, Wilson CI, mean VP, mean margin) and notes."""
    from rich.table import Table

    st = summary["study"]
    n = summary["num_players"]
    agents = sorted(set(st["agents"]))
    title = (f"{summary['game']}, {n} players: {summary['games']} games, "
             f"{'/'.join(agents)} agent{'s' if len(st['agents']) > 1 else ''} "
             f"({st['seating']} seating, {st['path']} path, seeds "
             f"{summary['seeds'][0]}..{summary['seeds'][1]})")
    t = Table(title=title, title_justify="left")
    for col in ("seat", "agent", "win rate", "95% CI (Wilson)", "± half", "mean VP",
                "mean margin"):
        t.add_column(col, justify="right")
    for seat in summary["seats"]:
        lo, hi = seat["ci95"]
        t.add_row(str(seat["seat"]), seat["agent"], f"{seat['win_rate']:.3f}",
                  f"[{lo:.3f}, {hi:.3f}]", f"{seat['ci95_half_width'] * 100:.1f} pt",
                  f"{seat['mean_vp']:.2f}", f"{seat['mean_margin']:+.2f}")
    b = summary["binomial_seat1"]
    c = summary["chi_square"]
    m = summary["margin_seat1"]
    notes = [
        f"fair share 1/{n} = {summary['fair_share']:.3f}",
        f"seat 1 exact binomial: {b['successes']}/{b['games']} wins, "
        f"p = {b['p_two_sided']:.3g} (two-sided), p = {b['p_greater']:.3g} (seat 1 better)",
        f"chi-square, all seats equal: X2 = {c['statistic']:.2f}, df = {c['df']}, "
        f"p = {c['p_value']:.3g}",
        f"seat 1 VP margin (own VP - best other): mean {m['mean']:+.2f}, 95% bootstrap CI "
        f"[{m['lo']:+.2f}, {m['hi']:+.2f}]",
    ]
    if show_sprt:
        s = summary["sprt"]
        where = f"at game {s['stopped_at']}" if s["stopped_at"] else \
            f"after {s['games_seen']} games"
        notes.append(f"SPRT (H0 p={s['p0']:.3f}, H1 p={s['p1']:.3f}, alpha={s['alpha']:g}, "
                     f"beta={s['beta']:g}): {s['decision']} {where}")
    notes.append(summary["power"])
    notes.append(f"truncated games: {summary['truncated']}; mean decisions per game "
                 f"{summary['mean_steps']:.1f}")
    return t, notes


def overview_table(summaries: Sequence[dict]):
    """One row per player count: seat 1's win rate, interval, tests and margin."""
    from rich.table import Table

    t = Table(title=f"{summaries[0]['game']}: first-player (seat 1) advantage",
              title_justify="left")
    for col in ("players", "games", "seat 1 wins [95% CI]", "fair", "binom p", "chi2 p",
                "seat 1 margin [95% CI]"):
        t.add_column(col, justify="right")
    for s in summaries:
        seat = s["seats"][0]
        m = s["margin_seat1"]
        t.add_row(str(s["num_players"]), str(s["games"]),
                  f"{seat['win_rate']:.3f} [{seat['ci95'][0]:.3f}, {seat['ci95'][1]:.3f}]",
                  f"{s['fair_share']:.3f}", f"{s['binomial_seat1']['p_two_sided']:.3g}",
                  f"{s['chi_square']['p_value']:.3g}",
                  f"{m['mean']:+.2f} [{m['lo']:+.2f}, {m['hi']:+.2f}]")
    return t


def markdown(summaries: Sequence[dict]) -> str:
    """The overview and per-seat tables as Markdown (for a README or a report)."""
    lines = ["| players | games | seat 1 win rate [95% CI] | fair | binomial p | chi-square p "
             "| seat 1 VP margin [95% CI] |", "|---:|---:|---|---:|---:|---:|---|"]
    for s in summaries:
        seat, m = s["seats"][0], s["margin_seat1"]
        lines.append(
            f"| {s['num_players']} | {s['games']} | {seat['win_rate']:.3f} "
            f"[{seat['ci95'][0]:.3f}, {seat['ci95'][1]:.3f}] | {s['fair_share']:.3f} | "
            f"{s['binomial_seat1']['p_two_sided']:.3g} | {s['chi_square']['p_value']:.3g} | "
            f"{m['mean']:+.2f} [{m['lo']:+.2f}, {m['hi']:+.2f}] |")
    lines += ["", "| players | seat | win rate | 95% CI (Wilson) | mean VP | mean margin |",
              "|---:|---:|---:|---|---:|---:|"]
    for s in summaries:
        for seat in s["seats"]:
            lines.append(f"| {s['num_players']} | {seat['seat']} | {seat['win_rate']:.3f} | "
                         f"[{seat['ci95'][0]:.3f}, {seat['ci95'][1]:.3f}] | "
                         f"{seat['mean_vp']:.2f} | {seat['mean_margin']:+.2f} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- plot


def plot(summaries: Sequence[dict], margins: Sequence[np.ndarray], path: str | Path) -> Path:
    """PNG: per player count, seat win rates with Wilson 95 % error bars and the fair-share
    line (top), and the histogram of seat 1's VP margin with its mean (bottom)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    k = len(summaries)
    fig, axes = plt.subplots(2, k, figsize=(4.2 * k, 7), squeeze=False)
    for j, (s, mg) in enumerate(zip(summaries, margins, strict=True)):
        n = s["num_players"]
        rates = np.array([x["win_rate"] for x in s["seats"]])
        lo = np.array([x["ci95"][0] for x in s["seats"]])
        hi = np.array([x["ci95"][1] for x in s["seats"]])
        ax = axes[0, j]
        xs = np.arange(1, n + 1)
        ax.bar(xs, rates, color="#4c72b0", alpha=0.8, width=0.6)
        ax.errorbar(xs, rates, yerr=[rates - lo, hi - rates], fmt="none", ecolor="black",
                    capsize=6, lw=1.5)
        ax.axhline(1.0 / n, color="#c44e52", ls="--", lw=1.2, label=f"fair 1/{n}")
        ax.set_xticks(xs, [f"seat {i}" for i in xs])
        top = max(hi.max(), 1.0 / n) * 1.25
        ax.set_ylim(0, min(1.0, top))
        ax.set_ylabel("win rate (95% Wilson CI)")
        ax.set_title(f"{s['game']}, {n} players, {s['games']} games\n"
                     f"binomial p(seat 1) = {s['binomial_seat1']['p_two_sided']:.3g}",
                     fontsize=10)
        ax.legend(loc="lower right", fontsize=8)
        ax = axes[1, j]
        mg = np.asarray(mg)
        if mg.size:
            width = max(1.0, float(np.ceil((mg.max() - mg.min() + 1) / 40)))
            bins = np.arange(np.floor(mg.min()) - 0.5, np.ceil(mg.max()) + width + 0.5, width)
            ax.hist(mg, bins=bins, color="#55a868", alpha=0.85)
        m = s["margin_seat1"]
        ax.axvline(0, color="grey", lw=1)
        ax.axvline(m["mean"], color="black", ls="--", lw=1.2,
                   label=f"mean {m['mean']:+.2f} [{m['lo']:+.2f}, {m['hi']:+.2f}]")
        others = [x["mean_margin"] for x in s["seats"][1:]]
        ax.axvline(float(np.mean(others)), color="#c44e52", ls=":", lw=1.2,
                   label=f"other seats' mean {np.mean(others):+.2f}")
        ax.set_xlabel("seat 1 VP margin (own VP - best other)")
        ax.set_ylabel("games")
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle(f"First-player advantage ({summaries[0]['game']}, "
                 f"{'/'.join(sorted(set(summaries[0]['study']['agents'])))} agents)")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------ driver


def _progress(console, enabled: bool):
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} games/s", style="cyan")

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    Rate(), TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                    disable=not enabled, transient=False)


def run_fpa(game: str, players: Sequence[int] | str | int, agent: str | Sequence[str] = "random",
            games: int = 2000, *, db: str | Path = DEFAULT_DB, out: str | Path | None = None,
            name: str | None = None, workers: int | None = None, backend: str = "local",
            address: str | None = None, seating: str = "fixed", base_seed: int = 0,
            options: dict | None = None, agent_kwargs: dict | None = None, fast: bool = True,
            use_sprt: bool = False, delta: float = 0.05, alpha: float = 0.05,
            beta: float = 0.2, n_boot: int = 10_000, chunk_size: int | None = None,
            progress: bool = True, console=None, write_files: bool = True,
            command: str | None = None) -> dict:
    """Run (or resume) the study for every player count; print tables; write JSON and PNG.

    Returns the report dict (also written as JSON): {"studies": [summary per player
    count], "json": path, "png": path, "db": path, ...}.
    """
    from rich.console import Console

    console = console or Console()
    players = parse_players(players)
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    studies = [arena.Study.create(game, n, agent, options=options, agent_kwargs=agent_kwargs,
                                  seating=seating, base_seed=base_seed, fast=fast)
               for n in players]
    db = Path(db)
    out = Path(out) if out is not None else db.parent
    stem = name or f"fpa_{game}_{studies[0].label()}_{'-'.join(map(str, players))}p"
    summaries, margins, timings = [], [], []
    t_all = time.perf_counter()
    with Store(db) as store, arena.make_backend(backend, workers, address) as be, \
            _progress(console, progress) as bar:
        for study in studies:
            run_id = store.run_id(study.identity(), arena.versions())
            stop = None
            if use_sprt:
                stop = SequentialStop(study.num_players, delta, alpha, beta)
                stop(store.games(run_id, below=games))
            have = store.count(run_id, below=games)
            task = bar.add_task(f"{game} {study.num_players}p", total=games, completed=have)
            if stop is not None and stop.decided:
                res = arena.RunResult(run_id, games, have, 0, 0.0, True)
            else:
                res = arena.run(study, store, games, backend=be, chunk_size=chunk_size,
                                on_rows=lambda rows, t=task: bar.advance(t, len(rows)),
                                stop=stop)
            timings.append(res)
            rows = store.games(run_id, below=games)
            summary = summarize_rows(rows, study, delta=delta, alpha=alpha, beta=beta,
                                     n_boot=n_boot)
            summary.update({"run_id": run_id, "played_now": res.played,
                            "already_stored": res.already, "elapsed_now": res.elapsed,
                            "stopped_by_sprt": bool(use_sprt and stop is not None
                                                    and stop.decided),
                            "games_per_second_now": res.played / res.elapsed
                            if res.elapsed > 0 and res.played else None})
            summaries.append(summary)
            margins.append(stats.margins(arena.scores_matrix(rows, study.num_players)))
        workers_used = be.workers
    elapsed = time.perf_counter() - t_all
    for s in summaries:
        table, notes = study_table(s, show_sprt=use_sprt)
        console.print(table)
        for line in notes:
            console.print("  " + line, highlight=False)
        console.print()
    if len(summaries) > 1:
        console.print(overview_table(summaries))
    played = sum(r.played for r in timings)
    play_time = sum(r.elapsed for r in timings)
    rate = f" ({played / play_time:,.0f} games/s)" if played and play_time > 0 else ""
    console.print(f"{played} games played now{rate}, "
                  f"{sum(r.already for r in timings)} resumed from {db}; {elapsed:.1f} s total "
                  f"with {workers_used} {backend} worker{'s' if workers_used > 1 else ''}",
                  highlight=False)
    report = {
        "command": command or " ".join(sys.argv),
        "game": game, "players": players, "games": games, "db": str(db),
        "backend": backend, "workers": workers_used, "elapsed": elapsed,
        "versions": arena.versions(), "studies": summaries,
    }
    if write_files:
        out.mkdir(parents=True, exist_ok=True)
        png = plot(summaries, margins, out / f"{stem}.png")
        jpath, mpath = out / f"{stem}.json", out / f"{stem}.md"
        report["json"], report["png"], report["markdown"] = str(jpath), str(png), str(mpath)
        jpath.write_text(json.dumps(report, indent=2) + "\n")
        mpath.write_text(markdown(summaries))
        console.print(f"wrote {jpath}, {mpath} and {png}", highlight=False)
    return report
