"""A recipe's learning curve on the shipped ladder: every rated net of every stage, its
Elo (random = 0) with the 95% interval, against the core-hours the recipe had spent.

    tradewinds train --recipe hansa_3p --curve            # after (or during) the recipe
    tradewinds train ladder-curve results/train/my_run    # any AlphaZero run: RUN/ladder/

Each checkpoint is rated by `tradewinds evaluate`'s protocol (`studies.evaluate`: K games
against each ladder member, seats rotated, the ladder's ratings held fixed), by default
the raw policy (``net:<checkpoint>``) against the members that are not searches, so the
curve costs minutes, not hours; the games go to ``<out>/curve.sqlite`` (a rerun plays
only what is missing), the points to ``<out>/curve.csv`` and the plot to
``<out>/curve.png``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from tradewinds.training import checkpoints as ck
from tradewinds.training.recipe import (
    ONE_FILE,
    Recipe,
    Stage,
    continued,
    one_file,
    stage_dir,
    stage_hours,
)

COLUMNS = ["stage", "iteration", "core_hours", "agent", "elo", "low", "high", "games",
           "ladder"]
SEARCHES = ("mcts", "az", "dest")


@dataclass(frozen=True)
class Checkpoint:
    stage: str
    iteration: int
    path: Path
    core_hours: float          # the recipe's core-hours when this net was made


def checkpoints(recipe: Recipe, out: Path, every: int = 1) -> list[Checkpoint]:
    """The rated nets of the recipe's stages in order (one in `every` of each stage's, its
    last always), each with the recipe's core-hours at that point."""
    out, found, spent = Path(out), [], 0.0
    for stage in recipe.stages:
        where = stage_dir(out, stage)
        if stage.algo in ONE_FILE:
            if one_file(where, stage).is_file():
                spent += stage_hours(recipe, stage, out)
                found.append(Checkpoint(stage.name, 0, one_file(where, stage), spent))
            continue
        if not (where / "log.csv").is_file():
            break
        if stage.algo == "dagger":           # every round's net, at its running cost
            here = 0.0
            for r in ck.read_rows(where / "log.csv"):
                here += float(r["core_hours"] or 0)
                net = where / f"round_{int(r['round'])}.npz"
                if int(r["round"]) > 0 and net.is_file():
                    found.append(Checkpoint(stage.name, int(r["round"]), net, spent + here))
            spent += here                    # the stage's hours: its rounds' summed
            continue
        before = continued(recipe, stage)
        skip, offset = -1, 0.0
        if before is not None:     # its copied rows are the earlier stage's
            state = ck.read_json(stage_dir(out, before) / "state.json")
            skip, offset = state["iteration"], state["core_seconds"] / 3600
        elif str(stage.settings.get("init", "")).startswith("@"):
            skip = 0               # its iteration 0 is the earlier stage's net, rated there
        rows = {int(r["iteration"]): r for r in ck.read_rows(where / "log.csv")
                if r.get("az_vs_heuristic") or r.get("az_vs_random")}   # a repeat: the last
        rows = [r for i, r in sorted(rows.items()) if i > skip]
        kept = [r for k, r in enumerate(rows) if k % every == 0 or k == len(rows) - 1]
        for r in kept:
            net = where / "nets" / f"net_{int(r['iteration']):04d}.npz"
            if net.is_file():
                found.append(Checkpoint(stage.name, int(r["iteration"]), net,
                                        spent + float(r["core_hours"]) - offset))
        spent += stage_hours(recipe, stage, out)
    return found


def cheap_ladder(recipe: Recipe, out: Path, members: list[str] | None = None) -> Path:
    """The shipped ladder of the recipe's game and count with only `members` (default:
    those that are not searches), their ratings as fitted, written to `out`."""
    from tradewinds.studies import evaluate

    ladder = evaluate.load_ladder(recipe.game, recipe.players)
    names = [m["name"] for m in ladder["members"]]
    keep = members or [n for n in names if n.split(":")[0] not in SEARCHES]
    unknown = sorted(set(keep) - set(names))
    if unknown:
        raise ValueError(f"--curve-members: {', '.join(unknown)} not on the ladder "
                         f"{ladder['version']} ({', '.join(names)})")
    small = {**ladder, "members": [m for m in ladder["members"] if m["name"] in keep]}
    small.pop("path", None)
    path = Path(out) / "curve_ladder.json"
    path.write_text(json.dumps(small, indent=1) + "\n")
    return path


def lone_run(run: Path) -> Recipe:
    """An AlphaZero run of its own (``tradewinds train --algo alphazero --out RUN``) as a
    recipe of one stage, the run's directory (so its recipe `out` is the parent)."""
    run = Path(run)
    if not (run / "config.json").is_file() or not (run / "nets").is_dir():
        raise ValueError(f"{run} is not an AlphaZero run directory (no config.json and "
                         f"nets/ there)")
    config = ck.read_json(run / "config.json")
    stage = Stage(run.name, "alphazero", {})
    return Recipe(run.name, config["game"], int(config["players"]), (stage,), run.name)


def rate(recipe: Recipe, out: Path, agent: str = "net", games: int = 40, every: int = 1,
         members: list[str] | None = None, console=None, dest: Path | None = None) -> list[dict]:
    """Rate every checkpoint (``<agent>:<checkpoint>``) on the ladder; the curve's rows,
    also written to ``<dest>/curve.csv`` with the plot ``<dest>/curve.png`` (``dest``:
    `out` unless given)."""
    from tradewinds import output
    from tradewinds.studies import evaluate

    out = Path(out)
    dest = Path(dest) if dest is not None else out
    dest.mkdir(parents=True, exist_ok=True)
    ladder = cheap_ladder(recipe, dest, members)
    quiet = output.console()
    quiet.quiet = True                        # the checkpoints' reports print nothing
    rows = []
    for cp in checkpoints(recipe, out, every):
        config = evaluate.EvaluateConfig(
            game=recipe.game, agent=f"{agent}:{cp.path}", players=recipe.players,
            games=games, ladder=str(ladder), db=dest / "curve.sqlite", write_files=False,
            progress=False, workers=1, name=f"curve_{cp.stage}_{cp.iteration}")
        report = evaluate.run_evaluate(config, console=quiet)
        r = report["rating"]
        rows.append({"stage": cp.stage, "iteration": cp.iteration,
                     "core_hours": round(cp.core_hours, 6), "agent": agent,
                     "elo": round(r["elo"], 1), "low": round(r["ci95"][0], 1),
                     "high": round(r["ci95"][1], 1), "games": report["games"],
                     "ladder": report["ladder"]["version"]})
        if console is not None:
            console.print(f"{cp.stage} iteration {cp.iteration} ({cp.core_hours:.2f} "
                          f"core-hours): {agent} {r['elo']:+.0f} [{r['ci95'][0]:+.0f}, "
                          f"{r['ci95'][1]:+.0f}]", highlight=False)
    path = dest / "curve.csv"
    path.unlink(missing_ok=True)
    for row in rows:
        ck.append_row(path, COLUMNS, row)
    draw(rows, dest / "curve.png", f"{recipe.name}: {agent} on the {recipe.game} "
         f"{recipe.players}-player ladder")
    return rows


def draw(rows: list[dict], path: Path, title: str) -> Path:
    """Elo with its 95% interval against core-hours, one colour per stage."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    stages = list(dict.fromkeys(r["stage"] for r in rows))
    for k, stage in enumerate(stages):
        part = [r for r in rows if r["stage"] == stage]
        x = [float(r["core_hours"]) for r in part]
        ax.plot(x, [float(r["elo"]) for r in part], marker="o", color=f"C{k}", label=stage)
        ax.fill_between(x, [float(r["low"]) for r in part], [float(r["high"]) for r in part],
                        color=f"C{k}", alpha=0.2, linewidth=0)
    ax.set_xlabel("core-hours (every stage so far)")
    ax.set_ylabel("Elo on the ladder (random = 0)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main(argv=None, prog="tradewinds train ladder-curve") -> int:
    from tradewinds.cli_args import int_at_least

    ap = argparse.ArgumentParser(prog=prog, description="Rate every rated net of an "
                                 "AlphaZero run on the shipped ladder and draw its Elo "
                                 "against core-hours: RUN/ladder/curve.csv and curve.png.")
    ap.add_argument("run", type=Path, help="the run directory (tradewinds train --out)")
    ap.add_argument("--agent", default="net", choices=("net", "az"),
                    help="what is rated: the raw policy (net) or the search (az)")
    ap.add_argument("--games", type=int_at_least(1), default=40,
                    help="games against each member")
    ap.add_argument("--every", type=int_at_least(1), default=1, help="rate one rated net "
                    "in N (the last always)")
    ap.add_argument("--members", default=None, help="comma-separated ladder members "
                    "(default: those that are not searches)")
    args = ap.parse_args(argv)
    from tradewinds import output

    try:
        recipe = lone_run(args.run)
        members = args.members.split(",") if args.members else None
        rate(recipe, args.run.parent, args.agent, args.games, args.every, members,
             console=output.console(), dest=args.run / "ladder")
    except (ValueError, OSError) as e:
        ap.exit(2, f"{prog}: error: {' '.join(str(e).split())}\n")
    print(f"curve: {args.run / 'ladder' / 'curve.csv'} and {args.run / 'ladder' / 'curve.png'}")
    return 0
