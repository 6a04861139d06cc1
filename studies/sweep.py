"""Seat advantage against playing strength: `tradewinds sweep <game> --levels ...`.

A sweep is a list of levels (agent names, e.g. random, heuristic, mcts:25, mcts:100), each
played by the same agent in every seat. Every level plays games 0..K-1 with seeds
base_seed + i — the same seeds at every level (mirrored), so the set-ups are identical and
the levels differ only in the agent. Each (level, player count) is an ordinary fpa study in
the results store (resumable; see studies.fpa.play_study), summarised with the headline
statistics and the balance metrics of studies.balance. Output: a table, JSON, markdown
and one PNG per game with seat 1's win rate, seat 1's VP margin and the balance by level.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tradewinds.cli_args import int_at_least, option
from tradewinds.store import Store
from tradewinds.studies import arena
from tradewinds.studies import run_fields as rf
from tradewinds.studies.fpa import play_study, progress_bar, settle_run_fields

DEFAULT_DB = Path("results") / "sweep.sqlite"
DEFAULT_LEVELS = ("random", "mcts:25", "mcts:100", "heuristic")


def parse_levels(text: str | Sequence[str]) -> list[str]:
    levels = [x.strip() for x in text.split(",")] if isinstance(text, str) else list(text)
    levels = [x for x in levels if x]
    if not levels:
        raise ValueError("--levels needs at least one agent name")
    if len(set(levels)) != len(levels):
        raise ValueError(f"--levels names a level twice: {','.join(levels)}")
    return levels


@dataclass
class SweepConfig:
    """A sweep: `levels` (agent names) x `players`, `games` mirrored seeds each."""

    game: str = rf.game()
    levels: Sequence[str] | str = option(DEFAULT_LEVELS, help="agents, weakest first, "
                                         "comma-separated", show=",".join(DEFAULT_LEVELS))
    players: Sequence[int] | str | int = option("2,3,4", help="player count(s): 3, 2,3,4 "
                                                "or 2-4")
    games: int = option(400, type=int_at_least(1), help="games per level and player count")
    base_seed: int = rf.base_seed()
    options: dict = rf.options()
    agent_kwargs: dict = rf.agent_kwargs()
    fast: bool = rf.fast()
    db: str | Path = rf.db(DEFAULT_DB)
    out: str | Path | None = rf.out("JSON, markdown and PNG")
    name: str | None = rf.name("sweep_<game>_<players>p")
    backend: str = rf.backend()
    workers: int | None = rf.workers()
    address: str | None = rf.address()
    chunk_size: int | None = rf.chunk_size()
    n_boot: int = option(2000, type=int_at_least(1), help="bootstrap resamples")
    progress: bool = rf.progress()
    write_files: bool = True
    command: str | None = None

    def __post_init__(self):
        self.levels = parse_levels(self.levels)
        settle_run_fields(self)

    def study(self, level: str, num_players: int) -> arena.Study:
        kwargs = {level: self.agent_kwargs[level]} if self.agent_kwargs and \
            level in self.agent_kwargs else None
        return arena.Study.create(self.game, num_players, level, options=self.options,
                                  agent_kwargs=kwargs, base_seed=self.base_seed,
                                  fast=self.fast)

    def studies(self) -> list[arena.Study]:
        """Every (level, player count) study, validated before any game is played."""
        return [self.study(level, n) for level in self.levels for n in self.players]

    def stem(self) -> str:
        return self.name or f"sweep_{self.game}_{'-'.join(map(str, self.players))}p"


def level_row(level: str, summary: dict) -> dict:
    """The sweep's numbers for one (level, player count) study."""
    seat, m, b = summary["seats"][0], summary["margin_seat1"], summary["balance"]
    return {
        "level": level, "num_players": summary["num_players"], "games": summary["games"],
        "truncated": summary["truncated"], "basis": summary["basis"],
        "seat1_win_rate": seat["win_rate"], "seat1_ci95": seat["ci95"],
        "fair_share": summary["fair_share"],
        "binomial_p": summary["binomial_seat1"]["p_two_sided"],
        "chi_square_p": summary["chi_square"]["p_value"],
        "seat1_margin": m["mean"], "seat1_margin_ci95": [m["lo"], m["hi"]],
        "balance": b["balance"], "completion": b["completion"],
        "shared_wins": b["shared_wins"], "mean_rounds": b["mean_rounds"],
        "mean_decisions": b["mean_decisions"], "run_id": summary["run_id"],
    }


def table(rows: Sequence[dict], game: str):
    from rich.table import Table

    t = Table(title=f"{game}: seat 1 advantage by playing strength (mirrored seeds)",
              title_justify="left")
    for col in ("n", "level", "games", "trunc", "seat 1 wins [95% CI]", "p",
                "seat 1 margin [95% CI]", "balance", "rounds"):
        t.add_column(col, justify="right")
    for r in rows:
        lo, hi = r["seat1_ci95"]
        mlo, mhi = r["seat1_margin_ci95"]
        t.add_row(str(r["num_players"]), r["level"], str(r["games"]), str(r["truncated"]),
                  f"{r['seat1_win_rate']:.3f} [{lo:.3f}, {hi:.3f}]", f"{r['binomial_p']:.2g}",
                  f"{r['seat1_margin']:+.2f} [{mlo:+.2f}, {mhi:+.2f}]",
                  f"{r['balance']:.3f}",
                  "n/a" if r["mean_rounds"] is None else f"{r['mean_rounds']:.1f}")
    t.caption = ("n = players; p = exact binomial test of seat 1 against the fair share; "
                 "balance = 1 - largest gap between seats' win rates")
    return t


def markdown(rows: Sequence[dict]) -> str:
    lines = ["| players | level | games | truncated | seat 1 win rate [95% CI] | fair | "
             "binomial p | seat 1 VP margin [95% CI] | balance | completion | rounds |",
             "|---:|---|---:|---:|---|---:|---:|---|---:|---:|---:|"]
    for r in rows:
        lo, hi = r["seat1_ci95"]
        mlo, mhi = r["seat1_margin_ci95"]
        rounds = "n/a" if r["mean_rounds"] is None else f"{r['mean_rounds']:.1f}"
        lines.append(
            f"| {r['num_players']} | {r['level']} | {r['games']} | {r['truncated']} | "
            f"{r['seat1_win_rate']:.3f} [{lo:.3f}, {hi:.3f}] | {r['fair_share']:.3f} | "
            f"{r['binomial_p']:.3g} | {r['seat1_margin']:+.2f} [{mlo:+.2f}, {mhi:+.2f}] | "
            f"{r['balance']:.3f} | {r['completion']:.3f} | {rounds} |")
    return "\n".join(lines) + "\n"


def _bars(mid, lo, hi):
    """Error bar lengths, never negative (a small sample's bootstrap interval can sit
    beside its mean)."""
    return [np.maximum(mid - lo, 0.0), np.maximum(hi - mid, 0.0)]


def plot(rows: Sequence[dict], levels: Sequence[str], game: str, path: str | Path) -> Path:
    """PNG: seat 1's win rate relative to the fair share (with 95% intervals), seat 1's VP
    margin (with 95% intervals) and the balance, by level, one line per player count."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    xs = np.arange(len(levels))
    for n in sorted({r["num_players"] for r in rows}):
        rs = {r["level"]: r for r in rows if r["num_players"] == n}
        x = np.array([i for i, lv in enumerate(levels) if lv in rs], dtype=float)
        sel = [rs[lv] for lv in levels if lv in rs]
        off = (n - 3) * 0.06
        fair = sel[0]["fair_share"]
        rate = np.array([r["seat1_win_rate"] for r in sel]) / fair
        lo = np.array([r["seat1_ci95"][0] for r in sel]) / fair
        hi = np.array([r["seat1_ci95"][1] for r in sel]) / fair
        axes[0].errorbar(x + off, rate, yerr=_bars(rate, lo, hi), marker="o", capsize=4,
                         label=f"{n} players")
        mg = np.array([r["seat1_margin"] for r in sel])
        mlo = np.array([r["seat1_margin_ci95"][0] for r in sel])
        mhi = np.array([r["seat1_margin_ci95"][1] for r in sel])
        axes[1].errorbar(x + off, mg, yerr=_bars(mg, mlo, mhi), marker="o", capsize=4,
                         label=f"{n} players")
        axes[2].plot(x + off, [r["balance"] for r in sel], marker="o", label=f"{n} players")
    axes[0].axhline(1.0, color="grey", ls="--", lw=1)
    axes[0].set_ylabel("seat 1 win rate / fair share (95% Wilson CI)")
    axes[1].axhline(0.0, color="grey", ls="--", lw=1)
    axes[1].set_ylabel("seat 1 VP margin (own - best other, 95% CI)")
    axes[2].set_ylabel("balance (1 - largest gap between seats' win rates)")
    axes[2].set_ylim(top=1.0)
    for ax in axes:
        ax.set_xticks(xs, levels, rotation=20)
        ax.set_xlabel("level (the agent in every seat)")
        ax.legend(fontsize=8)
    fig.suptitle(f"{game}: seat advantage against playing strength (mirrored seeds)")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def run_sweep(config: SweepConfig, console=None) -> dict:
    """Play (or resume) every level at every player count; print, write JSON/markdown/PNG."""
    from tradewinds import output

    c = config
    console = console or output.console()
    studies = c.studies()
    rows, summaries = [], []
    t0 = time.perf_counter()
    played = 0
    with Store(c.db) as store, arena.make_backend(c.backend, c.workers, c.address) as be, \
            progress_bar(console, c.progress) as bar:
        for study in studies:
            summary, res, _ = play_study(study, store, be, c.games, bar=bar,
                                         chunk_size=c.chunk_size, n_boot=c.n_boot)
            played += res.played
            summaries.append(summary)
            rows.append(level_row(study.agents[0], summary))
    rows.sort(key=lambda r: (r["num_players"], c.levels.index(r["level"])))
    elapsed = time.perf_counter() - t0
    console.print(table(rows, c.game))
    console.print(f"{played} games played now; {elapsed:.1f} s", highlight=False)
    report = {"command": c.command or " ".join(sys.argv), "game": c.game,
              "levels": c.levels, "players": c.players, "games": c.games,
              "base_seed": c.base_seed, "db": str(c.db), "elapsed": elapsed,
              "versions": arena.versions(), "rows": rows, "studies": summaries}
    if c.write_files:
        c.out.mkdir(parents=True, exist_ok=True)
        stem = c.stem()
        png = plot(rows, c.levels, c.game, c.out / f"{stem}.png")
        jpath, mpath = c.out / f"{stem}.json", c.out / f"{stem}.md"
        report["json"], report["png"], report["markdown"] = str(jpath), str(png), str(mpath)
        jpath.write_text(json.dumps(report, indent=2) + "\n")
        mpath.write_text(markdown(rows))
        console.print(f"wrote {jpath}, {mpath} and {png}", highlight=False)
    return report
