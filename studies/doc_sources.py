"""The results files that the docs' generated tables are made from, read and formatted.

Strength reports (`tradewinds strength`'s JSON: one row per pairing), match reports
(`tradewinds match`'s markdown), ladder files, shipped nets' metadata, PPO checkpoints'
sidecars and training run logs. Every reader takes paths from the repository root and
fails with a ValueError naming the file and what it lacks.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import NamedTuple

STRENGTH_DIR = "benchmarks/results"


class Ref(NamedTuple):
    """One row of a strength report: the report (a path from the root) and the row's
    agent and opponent, with the player count where the report holds several."""

    report: str
    agent: str
    opponent: str
    players: int | None = None
    game: str | None = None


def read_json(root: Path, rel: str) -> dict:
    path = root / rel
    if not path.is_file():
        raise ValueError(f"{rel}: no such results file")
    return json.loads(path.read_text(encoding="utf-8"))


def strength_row(root: Path, ref: Ref) -> dict:
    """The one row of `ref.report` that `ref` names (ValueError: none or several)."""
    rows = [r for r in read_json(root, ref.report)["rows"]
            if r["agent"] == ref.agent and r["opponent"] == ref.opponent
            and ref.players in (None, r["players"]) and ref.game in (None, r["game"])]
    if len(rows) != 1:
        raise ValueError(f"{ref.report}: {len(rows)} rows of {ref.agent} against "
                         f"{ref.opponent} (players {ref.players}), need exactly one")
    return rows[0]


def report_name(rel: str) -> str:
    """A report's name as the docs cite it: the markdown beside the JSON, under
    benchmarks/results/ by its file name alone."""
    md = rel.removesuffix(".json") + ".md"
    return md.removeprefix(STRENGTH_DIR + "/")


def match_row(root: Path, rel: str, agent: str) -> tuple[float, float, float]:
    """(win rate, low, high) of `agent`'s row in a `tradewinds match` markdown report."""
    path = root / rel
    if not path.is_file():
        raise ValueError(f"{rel}: no such results file")
    pattern = re.compile(rf"^\| {re.escape(agent)} \| \d+ \| \d+ \| ([0-9.]+) \| "
                         rf"\[([0-9.]+), ([0-9.]+)\] \|", re.MULTILINE)
    m = pattern.search(path.read_text(encoding="utf-8"))
    if m is None:
        raise ValueError(f"{rel}: no row for {agent}")
    return float(m[1]), float(m[2]), float(m[3])


def net_info(root: Path, rel: str) -> tuple:
    """(config, metadata) of a shipped net file (`agents.pvnet.load`)."""
    from tradewinds.agents import pvnet

    if not (root / rel).is_file():
        raise ValueError(f"{rel}: no such net file")
    _, config, meta = pvnet.load(str(root / rel))
    return config, meta


def log_core_hours(root: Path, rel: str, rounds: int) -> float:
    """The summed `core_hours` of rounds 1..`rounds` of a training run's log.csv."""
    path = root / rel
    if not path.is_file():
        raise ValueError(f"{rel}: no such run log")
    with path.open(newline="") as f:
        rows = {int(r["round"]): r for r in csv.DictReader(f)}
    missing = [k for k in range(1, rounds + 1) if not rows.get(k, {}).get("core_hours")]
    if missing:
        raise ValueError(f"{rel}: no core_hours for round {missing[0]}")
    return sum(float(rows[k]["core_hours"]) for k in range(1, rounds + 1))


def ladder(root: Path, rel: str) -> dict:
    """A ladder file, its members by name."""
    data = read_json(root, rel)
    data["by_name"] = {m["name"]: m for m in data["members"]}
    return data


# ------------------------------------------------------------------------ formatting


def share(x: float) -> str:
    return f"{x:.3f}"


def interval(lo: float, hi: float) -> str:
    return f"[{lo:.3f}, {hi:.3f}]"


def signed(x: float) -> str:
    return f"{x:+.3f}"


def signed_interval(lo: float, hi: float) -> str:
    return f"[{lo:+.3f}, {hi:+.3f}]"


def elo(x: float) -> str:
    return f"{x:+.0f}"


def elo_interval(lo: float, hi: float) -> str:
    return f"[{lo:+.0f}, {hi:+.0f}]"


def hours(x: float) -> str:
    """Core-hours to two significant figures: 1.9, 0.62, 0.20."""
    return f"{x:.1f}" if x >= 1 else f"{x:.2f}"


def table(header: tuple[str, ...], rows, align: tuple[str, ...] | None = None) -> str:
    """A markdown table; `align` holds '---' or '---:' per column."""
    align = align or ("---",) * len(header)

    def line(cells) -> str:
        return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"

    return "\n".join([line(header), "|" + "|".join(align) + "|", *map(line, rows)])
