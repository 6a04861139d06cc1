"""The balance study: `tradewinds balance <game> --players N --agent NAME --knob KNOB`.

Runs the balancing-value search of studies.balance_search on arena studies stored in the
results database (one study per probed knob value, resumable: a rerun replays the same
decisions from the stored games), prints the table of probes and the balancing value with
its 95 % interval, and writes a JSON summary and a PNG plot of seat 1's win share (with
Wilson intervals) against the knob, with the fitted curve and the fair share.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tradewinds.cli_args import int_at_least, option
from tradewinds.store import Store
from tradewinds.studies import arena, fpa
from tradewinds.studies import balance_search as bs
from tradewinds.studies import run_fields as rf

DEFAULT_DB = Path("results") / "balance.sqlite"


@dataclass
class BalanceConfig:
    """Everything `tradewinds balance` needs: the games (`game`, `players`, `agent`,
    `base_seed`, `options`, `fast`), the knob and its range (`knob`, `lo`, `hi`), the
    budget (`games_per_probe`, `batch`, `max_games`, `n_boot`), where results go (`db`,
    `out`, `name`) and who plays them (`backend`, `workers`, `address`, `chunk_size`)."""

    game: str = rf.game()
    players: int = option(2, type=int, help="player count")
    agent: str = option("heuristic", help="agent name for every seat")
    knob: str = option("seat_vp", help="compensation knob: value k is the per-seat "
                       "schedule (0, k, 2k, ...); hansa: seat_vp, seat_talers; voyage: "
                       "seat_vp, seat_cards")
    lo: int = option(0, type=int_at_least(0), help="smallest knob value searched")
    hi: int = option(10, type=int_at_least(0), help="largest knob value searched")
    games_per_probe: int = option(200, type=int_at_least(1), help="most games per knob "
                                  "value")
    batch: int = option(50, type=int_at_least(1), help="games added to a probe between "
                        "looks at its interval")
    max_games: int = option(4000, type=int_at_least(1), help="most games in all")
    base_seed: int = rf.base_seed("base seed: game i of every probe uses seed + i")
    options: dict = rf.options()
    fast: bool = rf.fast()
    db: str | Path = rf.db(DEFAULT_DB)
    out: str | Path | None = rf.out("JSON and PNG")
    name: str | None = rf.name("balance_<game>_<agent>_<players>p_<knob>")
    backend: str = rf.backend()
    workers: int | None = rf.workers()
    address: str | None = rf.address()
    chunk_size: int | None = rf.chunk_size()
    n_boot: int = option(2000, type=int_at_least(1), help="bootstrap resamples")
    progress: bool = rf.progress()
    write_files: bool = True
    command: str | None = None

    def __post_init__(self):
        self.check()
        fpa.settle_paths(self)

    def check(self) -> None:
        """Every argument error before any game is played (ValueError, one line)."""
        from tradewinds import registry

        handle = registry.game(self.game)
        self.players = handle.check_players(self.players)
        bs.knob_option(self.game, self.knob)
        if not 0 <= self.lo < self.hi:
            raise ValueError(f"--lo must be below --hi, got lo={self.lo}, hi={self.hi}")
        if self.batch > self.games_per_probe:
            raise ValueError(f"--batch {self.batch} exceeds --games-per-probe "
                             f"{self.games_per_probe}")
        if self.batch > self.max_games:
            raise ValueError(f"--batch {self.batch} exceeds --max-games {self.max_games}")
        self.study(self.hi)        # the agent, the options and the knob's largest schedule

    def study(self, k: int) -> arena.Study:
        opts = bs.knob_options(self.game, self.knob, k, self.players, self.options)
        return arena.Study.create(self.game, self.players, self.agent, options=opts,
                                  base_seed=self.base_seed, fast=self.fast)

    def stem(self) -> str:
        return self.name or f"balance_{self.game}_{self.agent}_{self.players}p_{self.knob}"


# ------------------------------------------------------------------------------ output


def _cell(x) -> str:
    return "unbounded" if x is None else f"{x:.2f}"


def value_line(summary: dict) -> str:
    """The balancing value and its interval, or why there is none."""
    span = f"[{summary['lo']}, {summary['hi']}]"
    if summary["status"] != bs.FOUND:
        return f"balancing value: {summary['status'].replace('[lo, hi]', span)}"
    lo, hi = summary["ci95"]
    v = summary["value"]
    outside = v is not None and not summary["lo"] <= v <= summary["hi"]
    note = f"; outside {span}: extrapolated" if outside else ""
    return (f"balancing value {_cell(summary['value'])}, 95% CI [{_cell(lo)}, {_cell(hi)}] "
            f"(logistic fit over {summary['games']} games, seed bootstrap"
            f"{note})")


def probe_table(summary: dict, title: str):
    """A rich Table: knob value, games, seat 1's share with its Wilson interval, verdict."""
    from rich.table import Table

    t = Table(title=title, title_justify="left")
    for col in ("knob", "games", "truncated", "seat 1 share", "95% CI (Wilson)", "fair",
                "verdict"):
        t.add_column(col, justify="right")
    for p in summary["probes"]:
        t.add_row(str(p["knob"]), str(p["games"]), str(p.get("truncated", 0)),
                  f"{p['share']:.3f}", f"[{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]",
                  f"{p['fair']:.3f}", p["verdict"])
    return t


def plot(summary: dict, title: str, path: str | Path) -> Path:
    """PNG: seat 1's win share per probe with Wilson 95 % bars, the fitted logistic curve,
    the fair share and the balancing value with its interval."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    probes = summary["probes"]
    x = np.array([p["knob"] for p in probes], dtype=float)
    y = np.array([p["share"] for p in probes])
    lo = np.array([p["ci95"][0] for p in probes])
    hi = np.array([p["ci95"][1] for p in probes])
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o", color="#4c72b0", capsize=5,
                label="seat 1 win share (95% Wilson CI)")
    grid = np.linspace(summary["lo"], summary["hi"], 200)
    ax.plot(grid, 1 / (1 + np.exp(-(summary["a"] + summary["b"] * grid))), color="#55a868",
            label="logistic fit")
    ax.axhline(summary["fair"], color="#c44e52", ls="--", label=f"fair {summary['fair']:.3f}")
    if summary["value"] is not None:
        ax.axvline(summary["value"], color="black", lw=1, label=f"k* {summary['value']:.2f}")
        c0, c1 = summary["ci95"]
        ax.axvspan(summary["lo"] if c0 is None else c0, summary["hi"] if c1 is None else c1,
                   color="grey", alpha=0.2, label="95% CI of k*")
    ax.set_xlabel("knob value k (schedule 0, k, 2k, ...)")
    ax.set_ylabel("seat 1 win share")
    ax.set_ylim(0, min(1.0, max(hi.max(), summary["fair"]) * 1.15))
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------ driver


def run_balance(config: BalanceConfig, console=None) -> dict:
    """Run (or resume) the search; print the probes and the value; write JSON and PNG.

    Returns the report dict (also written as JSON)."""
    from tradewinds import output
    from tradewinds.studies.fpa import progress_bar

    c = config
    console = console or output.console()
    t0 = time.perf_counter()
    with Store(c.db) as store, arena.make_backend(c.backend, c.workers, c.address) as be, \
            progress_bar(console, c.progress) as bar:
        tasks: dict[int, int] = {}

        def on_rows(k, rows):
            if k not in tasks:
                tasks[k] = bar.add_task(f"{c.knob}={k}", total=None)
            bar.advance(tasks[k], len(rows))

        play = bs.ArenaPlay(c.game, c.players, c.agent, c.knob, store, options=c.options,
                            base_seed=c.base_seed, fast=c.fast, backend=be,
                            chunk_size=c.chunk_size, on_rows=on_rows)
        result = bs.search(play, c.players, c.lo, c.hi, games_per_probe=c.games_per_probe,
                           batch=c.batch, max_games=c.max_games, n_boot=c.n_boot)
        workers = be.workers
    summary = result.summary()
    for p in summary["probes"]:
        p["truncated"] = play.truncated.get(p["knob"], 0)
    title = (f"{c.game}, {c.players} players, {c.agent} agents: seat 1 win share\nagainst "
             f"knob {c.knob} (schedule 0, k, 2k, ...)")
    console.print(probe_table(summary, title))
    console.print("  " + value_line(summary), highlight=False, markup=False)
    elapsed = time.perf_counter() - t0
    console.print(f"{play.played} games played now, {summary['games'] - play.played} read "
                  f"from {c.db}; {elapsed:.1f} s with {workers} {c.backend} worker"
                  f"{'s' if workers > 1 else ''}", highlight=False)
    report = {
        "command": c.command or " ".join(sys.argv),
        "game": c.game, "players": c.players, "agent": c.agent, "knob": c.knob,
        "option": bs.knob_option(c.game, c.knob), "schedule": "(0, k, 2k, ...) by seat",
        "games_per_probe": c.games_per_probe, "batch": c.batch, "max_games": c.max_games,
        "base_seed": c.base_seed, "options": c.options, "db": str(c.db),
        "played_now": play.played, "elapsed": elapsed, "versions": arena.versions(),
        **summary,
    }
    if c.write_files:
        c.out.mkdir(parents=True, exist_ok=True)
        png = plot(summary, title, c.out / f"{c.stem()}.png")
        jpath = c.out / f"{c.stem()}.json"
        report["json"], report["png"] = str(jpath), str(png)
        jpath.write_text(json.dumps(report, indent=2) + "\n")
        console.print(f"wrote {jpath} and {png}", highlight=False)
    return report
