"""The learning curve of a training run: evaluation win rates (with their Wilson 95%
intervals) against random and the heuristic at every checkpoint, and the training games'
win rate against the pool, over env steps."""

from __future__ import annotations

from pathlib import Path


def _column(rows, name):
    return [float(r[name]) if r.get(name, "") != "" else float("nan") for r in rows]


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
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return Path(path)
