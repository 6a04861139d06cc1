"""Ship a rated net of a run as the game's default: ``agents/nets/<game>_<n>p.npz``.

    tradewinds train ship-net results/train/az_hansa_2p --iteration 0
    tradewinds train ship-net RUN --iteration 36 --strength benchmarks/results/X.json
    tradewinds train ship-net NET.npz --strength benchmarks/results/X.json

copies ``nets/net_<iteration>.npz`` of the run (every rated net is kept there) with its
rating row from ``log.csv`` and the run's settings added to the metadata, so the shipped
file says how it was trained and how strong it measured. `az` and `net` without a path
play the shipped nets. ``--strength`` takes the rating from a `benchmarks.agents strength`
report instead (its ``az:`` and ``net:`` rows of that net against the heuristic, e.g. 400
games where the run rated on 100). A net file that is not a run's (a distilled net,
`training.alphazero.distill`) ships the same way, rated by ``--strength`` alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tradewinds.agents import az, pvnet
from tradewinds.training import checkpoints as ck
from tradewinds.training.alphazero import loop

RATING = ("net_vs_heuristic", "net_low", "net_high", "az_vs_heuristic", "az_low", "az_high")
MCTS_RATING = ("az_vs_mcts", "az_mcts_low", "az_mcts_high")     # where the run rated it


def strength_rating(report: Path, net_file: str, players: int) -> dict:
    """The rating fields of `net_file`'s az and net rows against the heuristic in a
    strength report."""
    import json

    rows = {}
    for r in json.loads(Path(report).read_text())["rows"]:
        kind, _, path = r["agent"].partition(":")
        if (kind in ("az", "net") and path == net_file and r["opponent"] == "heuristic"
                and r["players"] == players):
            rows[kind] = r
    if set(rows) != {"az", "net"}:
        raise ValueError(f"{report} has no az and net rows of {net_file} against the "
                         f"heuristic at {players} players")
    return {"games": min(r["games"] for r in rows.values()), "source": str(report),
            **{f"{k}_vs_heuristic": rows[k]["win_rate"] for k in rows},
            **{f"{k}_low": rows[k]["wilson95"][0] for k in rows},
            **{f"{k}_high": rows[k]["wilson95"][1] for k in rows}}


def ship(run: Path, iteration: int, dest: Path | None = None,
         strength: Path | None = None) -> Path:
    """Copy the run's rated net of `iteration` to the shipped place (or `dest`), rated as
    the run rated it or as the `strength` report did."""
    run = Path(run)
    source = run / "nets" / f"net_{iteration:04d}.npz"
    if not source.is_file():
        kept = sorted(p.name for p in (run / "nets").glob("net_*.npz"))
        raise ValueError(f"{source} does not exist; rated nets of {run}: {kept or 'none'}")
    rows = [r for r in ck.read_rows(run / "log.csv") if int(r["iteration"]) == iteration]
    if not rows or not rows[-1].get("az_vs_heuristic"):
        raise ValueError(f"{run / 'log.csv'} has no rating of iteration {iteration}")
    weights, config, meta = pvnet.load(source)
    settings = ck.read_json(run / "config.json")
    command = (loop.commands_until(ck.read_json(run / "state.json"), iteration)
               or loop.command_line(loop.AlphaZeroConfig(**settings)))
    if settings.get("init") and Path(settings["init"]).is_file():   # what made its start
        before = pvnet.load(settings["init"])[2].get("command")
        command = f"{before} && {command}" if before else command
    meta = {**meta, "command": command,
            "shipped_from": f"{run.name} iteration {iteration}",
            "rated": {"opponent": "heuristic", "games": int(settings["rate_games"]),
                      "simulations": int(settings["rate_simulations"]),
                      **{k: round(float(rows[-1][k]), 4) for k in RATING},
                      **{k: round(float(rows[-1][k]), 4) for k in MCTS_RATING
                         if rows[-1].get(k)}},
            "settings": settings}
    if strength is not None:
        meta["rated"] = _rated(strength, source, config, meta)
    return _save(weights, config, meta, dest)


def ship_file(source: Path, strength: Path, dest: Path | None = None) -> Path:
    """Ship the net file `source` (not a run's: a distilled net), rated by `strength`."""
    weights, config, meta = pvnet.load(source)
    meta = {**meta, "shipped_from": str(source),
            "rated": _rated(strength, source, config, meta)}
    return _save(weights, config, meta, dest)


def _rated(strength: Path, source: Path, config: pvnet.NetConfig, meta: dict) -> dict:
    """The rating from a strength report, at the simulations `az` searched this net with
    there (its metadata's "search" settings, else the default)."""
    found = strength_rating(strength, str(source), config.num_players)
    searched = az.AlphaZeroAgent(config.game).search_config(meta)
    return {"opponent": "heuristic", "games": found.pop("games"),
            "simulations": searched.simulations, "source": found.pop("source"),
            **{k: round(float(found[k]), 4) for k in RATING}}


def _save(weights, config: pvnet.NetConfig, meta: dict, dest: Path | None) -> Path:
    dest = Path(dest) if dest else az.shipped(config.game, config.num_players)
    dest.parent.mkdir(parents=True, exist_ok=True)
    return pvnet.save(dest, weights, config, meta)


def main(argv=None, prog="python -m tradewinds.training.alphazero.ship") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="the run directory (tradewinds train --out), or a "
                    "net file rated by --strength")
    ap.add_argument("--iteration", type=int, default=None, help="which rated net of the run")
    ap.add_argument("--dest", type=Path, default=None, help="default agents/nets/<game>_<n>p.npz")
    ap.add_argument("--strength", type=Path, default=None,
                    help="rate it by this benchmarks.agents strength report")
    args = ap.parse_args(argv)
    if args.run.is_file() and args.strength is None:
        ap.exit(2, f"error: a net file ({args.run}) ships rated by --strength REPORT\n")
    if not args.run.is_file() and args.iteration is None:
        ap.exit(2, f"error: {args.run} is a run directory: say which net with --iteration\n")
    try:
        path = (ship_file(args.run, args.strength, args.dest) if args.run.is_file()
                else ship(args.run, args.iteration, args.dest, args.strength))
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    print(f"shipped {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
