"""The learning curve of a training run: evaluation win rates (with their Wilson 95%
intervals) against random and the heuristic at every checkpoint, and the training games'
win rate against the pool, over env steps."""

from __future__ import annotations

from pathlib import Path


def _column(rows, name):
    return [float(r[name]) if r.get(name, "") != "" else float("nan") for r in rows]


def _save(fig, path: Path) -> Path:
    """Write the figure to `path` as PNG and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return Path(path)


def draw(rows: list[dict], path: Path, title: str = "self-play") -> Path:
    """Write the PNG of the log rows (`training.trainer.LOG_COLUMNS`) to `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [int(r["steps"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for opp, colour in (("random", "tab:blue"), ("heuristic", "tab:red")):
        rate = _column(rows, f"vs_{opp}")
        ax.plot(steps, rate, marker="o", color=colour, label=f"vs {opp} (evaluation)")
        ax.fill_between(steps, _column(rows, f"vs_{opp}_low"), _column(rows, f"vs_{opp}_high"),
                        color=colour, alpha=0.2, linewidth=0)
    ax.plot(steps, _column(rows, "train_win_rate"), color="grey", linestyle="--",
            label="training games (vs the pool)")
    ax.axhline(0.5, color="black", linewidth=0.5)
    ax.set_ylim(0, 1)
    ax.set_xlabel("env steps (learner decisions)")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    return _save(fig, path)


def draw_alphazero(rows: list[dict], path: Path, title: str = "AlphaZero",
                   mcts: str = "mcts:400") -> Path:
    """The PNG of an AlphaZero run's log rows (`training.alphazero.loop.LOG_COLUMNS`): the
    raw net's and the search's win share against the heuristic and, for a run from
    scratch, random (and the search's against mcts:400 where rated), with Wilson 95%
    intervals, against core-hours (top axis: wall-clock hours); and each rated generation's
    `az` against its predecessor's, the share that says whether the run still improves."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    opponents = [o for o in ("heuristic", "random")
                 if any(r.get(f"az_vs_{o}", "") not in ("", None) for r in rows)]
    rated = [r for r in rows if any(r.get(f"az_vs_{o}", "") not in ("", None)
                                    for o in opponents)]
    hours = [float(r["core_hours"]) for r in rated]
    fig, ax = plt.subplots(figsize=(7, 4.8))
    for opponent, style in zip(opponents, ("-", ":"), strict=False):
        tag = "" if opponent == "heuristic" else f"_{opponent}"
        for key, label, colour in (("net", "net (raw policy)", "tab:blue"),
                                   ("az", "az (net + search)", "tab:red")):
            ax.plot(hours, _column(rated, f"{key}_vs_{opponent}"), marker="o", color=colour,
                    linestyle=style, label=f"{label} vs {opponent}")
            ax.fill_between(hours, _column(rated, f"{key}{tag}_low"),
                            _column(rated, f"{key}{tag}_high"), color=colour, alpha=0.2,
                            linewidth=0)
    vs = [r for r in rated if r.get("az_vs_mcts", "") not in ("", None)]
    if vs:
        at = [float(r["core_hours"]) for r in vs]
        ax.plot(at, _column(vs, "az_vs_mcts"), marker="s", linestyle="--", color="tab:green",
                label=f"az vs {mcts}")
        ax.fill_between(at, _column(vs, "az_mcts_low"), _column(vs, "az_mcts_high"),
                        color="tab:green", alpha=0.15, linewidth=0)
    prev = [r for r in rated if r.get("az_vs_prev", "") not in ("", None)]
    if prev:
        at = [float(r["core_hours"]) for r in prev]
        ax.plot(at, _column(prev, "az_vs_prev"), marker="^", linestyle="-.",
                color="tab:purple", label="az vs its predecessor")
        ax.fill_between(at, _column(prev, "az_prev_low"), _column(prev, "az_prev_high"),
                        color="tab:purple", alpha=0.12, linewidth=0)
    ax.set_ylim(0, 1)
    ax.set_xlabel("core-hours")
    ax.set_ylabel("win share")
    ax.set_title(title)
    if rated and float(rated[-1]["core_hours"]) > 0:
        ratio = float(rated[-1]["seconds"]) / 3600 / float(rated[-1]["core_hours"])
        top = ax.secondary_xaxis("top", functions=(lambda x: x * ratio, lambda x: x / ratio))
        top.set_xlabel("wall-clock hours")
    # Below the axes: every share can reach the top of the plot, and a legend there hid some.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8)
    return _save(fig, path)
