"""The first-player-advantage study: `tradewinds fpa <game> --players N --agent NAME --games K`.

For each player count the arena plays games 0..K-1 (seeds base_seed + i) into the results
database (resuming whatever it already holds), then the recorded games are summarised with
`tradewinds.stats.summarize`: per-seat win rate with Wilson 95 % intervals, exact binomial
test of seat 1, chi-square over seats, SPRT, bootstrap interval of seat 1's VP margin and the
games needed for the chosen effect size. Output: a rich table per player count, an overview
table, a JSON summary, the tables as Markdown and a PNG plot (seat win rates with intervals
and the fair share; histogram of seat 1's VP margin), one panel column per player count.

Seat 1 is seat index 0, the first player of the initial turn order (see studies.arena).
Wins shared by k players count 1/k each (see tradewinds.stats). The headline numbers use
the games that ended by the rules; games stopped at the round cap are counted beside them,
and a study where most games were stopped says so (see `summarize_rows`). Each study also
gets the balance metrics of studies.balance (balance, completion, shared wins, length).

With ``sprt=True`` the study stops as soon as Wald's SPRT (H0: seat 1 wins 1/n, H1: 1/n +
delta) decides on the games in seed order; the games already played are kept.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tradewinds import stats
from tradewinds.cli_args import int_at_least, open_unit, option
from tradewinds.store import Store
from tradewinds.studies import arena, balance
from tradewinds.studies import run_fields as rf

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
    """`stats.summarize` of recorded games plus per-seat mean VP, balance metrics, agents and
    bookkeeping.

    The headline statistics (win rates, tests, margins) use the games that ended by the
    rules; games stopped at the round cap are counted beside them (``truncated``) and in the
    balance metrics' completion. Only when no game ended by the rules do the headline
    numbers fall back to all games, scored as they stand at the cap (``basis`` says which).
    """
    n = study.num_players
    used, basis = balance.headline_rows(rows)
    seat_w = arena.wins_matrix(used, n)
    w = arena.by_position(seat_w, used)  # the study measures initial turn-order positions
    s = arena.by_position(arena.scores_matrix(used, n), used)
    out = stats.summarize(w, s, n, delta=delta, alpha=alpha, beta=beta, n_boot=n_boot, rng=0)
    identity = all(r["turn_order"] == list(range(n)) for r in used)
    for i, seat in enumerate(out["seats"]):
        seat["mean_vp"] = float(s[:, i].mean())
        seat["agent"] = (study.agents[i] if study.seating == "fixed" and identity
                         else "varies by game")
        seat["ci95_half_width"] = (seat["ci95"][1] - seat["ci95"][0]) / 2
    per_agent: dict[str, dict] = {}
    for r, wr in zip(used, seat_w, strict=True):
        for seat, name in enumerate(r["agents"]):
            a = per_agent.setdefault(name, {"seat_games": 0, "wins": 0.0})
            a["seat_games"] += 1
            a["wins"] += float(wr[seat])
    for a in per_agent.values():
        a["win_rate"] = a["wins"] / a["seat_games"]
    steps = np.array([r["steps"] for r in rows], dtype=float)
    dur = np.array([r["duration"] for r in rows], dtype=float)
    orders = {json.dumps(r["turn_order"]) for r in rows}
    metrics = balance.metrics(rows, n)
    out.update({
        "game": study.game,
        "study": study.identity(),
        "seat_meaning": ("seat k = position k in the initial turn order (Hansa: player index "
                         "k-1; Voyage: the random order before the round-1 bidding, V5)"),
        "initial_turn_orders": sorted(json.loads(o) for o in orders),
        "agents": per_agent,
        "basis": basis,
        "games_recorded": len(rows),
        "truncated": metrics["truncated"],
        "balance": metrics,
        "length_distribution": balance.length_distribution(rows),
        "mean_steps": float(steps.mean()),
        "game_seconds_total": float(dur.sum()),
        "max_ci95_half_width": max(seat["ci95_half_width"] for seat in out["seats"]),
        "seeds": [study.seed(min(r["game_index"] for r in rows)),
                  study.seed(max(r["game_index"] for r in rows))],
    })
    return out


def _truncation_note(summary: dict) -> str:
    b = summary["balance"]
    note = (f"{b['ended_by_rules']} of {b['games']} games ended by the rules, "
            f"{b['truncated']} stopped at the round cap; headline numbers: {summary['basis']}")
    if b["mostly_truncated"]:
        note = "MOST GAMES TRUNCATED: " + note
    return note


def _balance_note(summary: dict) -> str:
    b = summary["balance"]
    rounds = "n/a" if b["mean_rounds"] is None else f"{b['mean_rounds']:.1f}"
    return (f"balance {b['balance']:.3f} (1 - largest gap between seats' win rates), "
            f"completion {b['completion']:.3f}, shared wins {b['shared_wins']:.3f}, "
            f"mean length {rounds} rounds / {b['mean_decisions']:.1f} decisions")


def study_table(summary: dict, *, show_sprt: bool = False):
    """A rich Table (seat, agent, win rate, Wilson CI, mean VP, mean margin) and notes."""
    from rich.table import Table

    st = summary["study"]
    n = summary["num_players"]
    agents = sorted(set(st["agents"]))
    ended = (f"{summary['games']} games" if summary["truncated"] == 0 else
             f"{summary['games_recorded']} games ({summary['truncated']} truncated)")
    title = (f"{summary['game']}, {n} players: {ended}, "
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
    notes.append(_truncation_note(summary))
    notes.append(_balance_note(summary))
    return t, notes


def overview_table(summaries: Sequence[dict]):
    """One row per player count: seat 1's win rate, interval, tests and margin."""
    from rich.table import Table

    t = Table(title=f"{summaries[0]['game']}: first-player (seat 1) advantage",
              title_justify="left")
    for col in ("players", "games", "truncated", "seat 1 wins [95% CI]", "fair", "binom p",
                "chi2 p", "seat 1 margin [95% CI]", "balance", "rounds"):
        t.add_column(col, justify="right")
    for s in summaries:
        seat = s["seats"][0]
        m = s["margin_seat1"]
        b = s["balance"]
        t.add_row(str(s["num_players"]), str(s["games"]), _truncated_cell(s),
                  f"{seat['win_rate']:.3f} [{seat['ci95'][0]:.3f}, {seat['ci95'][1]:.3f}]",
                  f"{s['fair_share']:.3f}", f"{s['binomial_seat1']['p_two_sided']:.3g}",
                  f"{s['chi_square']['p_value']:.3g}",
                  f"{m['mean']:+.2f} [{m['lo']:+.2f}, {m['hi']:+.2f}]",
                  f"{b['balance']:.3f}", _rounds_cell(b))
    return t


def _truncated_cell(summary: dict) -> str:
    """Truncated games beside the headline; '(all, at cap)' when the headline had to use
    them."""
    k = summary["truncated"]
    if summary["basis"] == balance.AT_CAP:
        return f"{k} (all: scored at cap)"
    return f"{k} (most!)" if summary["balance"]["mostly_truncated"] else str(k)


def _rounds_cell(b: dict) -> str:
    return "n/a" if b["mean_rounds"] is None else f"{b['mean_rounds']:.1f}"


def markdown(summaries: Sequence[dict]) -> str:
    """The overview and per-seat tables as Markdown (for a README or a report)."""
    lines = ["| players | games | truncated | seat 1 win rate [95% CI] | fair | binomial p "
             "| chi-square p | seat 1 VP margin [95% CI] | balance | shared wins | rounds |",
             "|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|"]
    for s in summaries:
        seat, m, b = s["seats"][0], s["margin_seat1"], s["balance"]
        lines.append(
            f"| {s['num_players']} | {s['games']} | {_truncated_cell(s)} | "
            f"{seat['win_rate']:.3f} [{seat['ci95'][0]:.3f}, {seat['ci95'][1]:.3f}] | "
            f"{s['fair_share']:.3f} | {s['binomial_seat1']['p_two_sided']:.3g} | "
            f"{s['chi_square']['p_value']:.3g} | {m['mean']:+.2f} [{m['lo']:+.2f}, "
            f"{m['hi']:+.2f}] | {b['balance']:.3f} | {b['shared_wins']:.3f} | "
            f"{_rounds_cell(b)} |")
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


def progress_bar(console, enabled: bool, unit: str = "games"):
    """The studies' rich progress bar (one task per study, `unit`/s, time left)."""
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
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s", style="cyan")

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    Rate(), TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                    disable=not enabled, transient=False)


@dataclass
class SprtConfig:
    """Wald's SPRT stop and the power figure: H0 seat 1 wins 1/n, H1 1/n + delta."""

    enabled: bool = option(False, flag="--sprt", help="stop early when the SPRT decides")
    delta: float = option(0.05, type=open_unit, help="effect size for SPRT and power: seat 1 "
                          "wins 1/n + delta")
    alpha: float = option(0.05, type=open_unit, help="SPRT and power: false-positive rate")
    beta: float = option(0.2, type=open_unit, help="SPRT and power: false-negative rate")


def settle_run_fields(config) -> None:
    """The fields a study config shares with the sweep's: player counts parsed, the game
    count checked, `db` a Path and `out` defaulting to the database's directory."""
    config.players = parse_players(config.players)
    if not isinstance(config.games, (int, np.integer)) or config.games < 1:
        raise ValueError(f"--games must be at least 1, got {config.games}")
    settle_paths(config)


def settle_paths(config) -> None:
    """`db` a Path and `out` defaulting to the database's directory."""
    config.db = Path(config.db)
    config.out = Path(config.out) if config.out is not None else config.db.parent


@dataclass
class FpaConfig:
    """Everything `tradewinds fpa` needs: which games (`game`, `players`, `agent`, `games`,
    `base_seed`, `options`, `agent_kwargs`, `seating`, `fast`), where they go (`db`, `out`,
    `name`), who plays them (`backend`, `workers`, `address`, `chunk_size`) and how they are
    tested (`sprt`, `n_boot`)."""

    game: str = rf.game()
    players: Sequence[int] | str | int = option("2,3,4", help="player count(s): 3, 2,3,4 "
                                                "or 2-4")
    agent: str | Sequence[str] = option("random", help="agent name for every seat, or one "
                                        "per seat comma-separated in seat order")
    games: int = option(2000, type=int_at_least(1), help="games per player count")
    base_seed: int = rf.base_seed()
    options: dict = rf.options()
    agent_kwargs: dict = rf.agent_kwargs()
    seating: str = option("fixed", choices=("fixed", "rotate"), help="fixed: agents in seat "
                          "order; rotate: game i rotates them by i")
    fast: bool = rf.fast()
    db: str | Path = rf.db(DEFAULT_DB)
    out: str | Path | None = rf.out("JSON, markdown and PNG")
    name: str | None = rf.name("fpa_<game>_<agent>_<players>p")
    backend: str = rf.backend()
    workers: int | None = rf.workers()
    address: str | None = rf.address()
    chunk_size: int | None = rf.chunk_size()
    sprt: SprtConfig = option(default_factory=SprtConfig, nested=SprtConfig, help="")
    n_boot: int = option(10_000, type=int_at_least(1), help="bootstrap resamples")
    progress: bool = rf.progress()
    write_files: bool = True
    command: str | None = None

    def __post_init__(self):
        settle_run_fields(self)

    def studies(self) -> list[arena.Study]:
        return [arena.Study.create(self.game, n, self.agent, options=self.options,
                                   agent_kwargs=self.agent_kwargs, seating=self.seating,
                                   base_seed=self.base_seed, fast=self.fast)
                for n in self.players]

    def stem(self, studies: Sequence[arena.Study]) -> str:
        return self.name or (f"fpa_{self.game}_{studies[0].label()}_"
                             f"{'-'.join(map(str, self.players))}p")


def play_study(study: arena.Study, store: Store, backend, games: int, *, bar=None,
               chunk_size: int | None = None, sprt: SprtConfig | None = None,
               n_boot: int = 10_000) -> tuple[dict, arena.RunResult, list[dict]]:
    """Play (or resume) games 0..games-1 of `study` into `store` and summarise them.

    Returns (summary, run result, the stored rows)."""
    sprt = sprt or SprtConfig()
    run_id = store.run_id(study.identity(), arena.versions())
    stop = None
    if sprt.enabled:
        stop = SequentialStop(study.num_players, sprt.delta, sprt.alpha, sprt.beta)
        stop(store.games(run_id, below=games))
    have = store.count(run_id, below=games)
    task = None
    if bar is not None:
        task = bar.add_task(f"{study.game} {study.num_players}p {study.label()}",
                            total=games, completed=have)
    if stop is not None and stop.decided:
        res = arena.RunResult(run_id, games, have, 0, 0.0, True)
    else:
        res = arena.run(study, store, games, backend=backend, chunk_size=chunk_size,
                        on_rows=None if bar is None else
                        (lambda rows: bar.advance(task, len(rows))), stop=stop)
    rows = store.games(run_id, below=games)
    summary = summarize_rows(rows, study, delta=sprt.delta, alpha=sprt.alpha, beta=sprt.beta,
                             n_boot=n_boot)
    summary.update({"run_id": run_id, "played_now": res.played,
                    "already_stored": res.already, "elapsed_now": res.elapsed,
                    "stopped_by_sprt": bool(stop is not None and stop.decided),
                    "games_per_second_now": res.played / res.elapsed
                    if res.elapsed > 0 and res.played else None})
    return summary, res, rows


def run_fpa(config: FpaConfig, console=None) -> dict:
    """Run (or resume) the study for every player count; print tables; write JSON and PNG.

    Returns the report dict (also written as JSON): {"studies": [summary per player
    count], "json": path, "png": path, "db": path, ...}.
    """
    from tradewinds import output

    c = config
    console = console or output.console()
    studies = c.studies()
    summaries, margins, timings = [], [], []
    t_all = time.perf_counter()
    with Store(c.db) as store, arena.make_backend(c.backend, c.workers, c.address) as be, \
            progress_bar(console, c.progress) as bar:
        for study in studies:
            summary, res, rows = play_study(study, store, be, c.games, bar=bar,
                                            chunk_size=c.chunk_size, sprt=c.sprt,
                                            n_boot=c.n_boot)
            timings.append(res)
            summaries.append(summary)
            used, _ = balance.headline_rows(rows)
            margins.append(stats.margins(arena.scores_matrix(used, study.num_players)))
        workers_used = be.workers
    elapsed = time.perf_counter() - t_all
    for s in summaries:
        table, notes = study_table(s, show_sprt=c.sprt.enabled)
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
                  f"{sum(r.already for r in timings)} resumed from {c.db}; {elapsed:.1f} s "
                  f"total with {workers_used} {c.backend} worker"
                  f"{'s' if workers_used > 1 else ''}", highlight=False)
    report = {
        "command": c.command or " ".join(sys.argv),
        "game": c.game, "players": c.players, "games": c.games, "db": str(c.db),
        "backend": c.backend, "workers": workers_used, "elapsed": elapsed,
        "versions": arena.versions(), "studies": summaries,
    }
    if c.write_files:
        stem = c.stem(studies)
        c.out.mkdir(parents=True, exist_ok=True)
        png = plot(summaries, margins, c.out / f"{stem}.png")
        jpath, mpath = c.out / f"{stem}.json", c.out / f"{stem}.md"
        report["json"], report["png"], report["markdown"] = str(jpath), str(png), str(mpath)
        jpath.write_text(json.dumps(report, indent=2) + "\n")
        mpath.write_text(markdown(summaries))
        console.print(f"wrote {jpath}, {mpath} and {png}", highlight=False)
    return report
