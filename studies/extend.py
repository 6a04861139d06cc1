"""Add members to a shipped ladder without replaying the games it was fitted on.

    tradewinds ratings extend <game> --players N --add net,az --games K

A full refit (``tradewinds ratings fit``) plays every line-up again: hours for the
Voyage ladders, most of them in line-ups that do not change. A pairwise result of two
members whose behaviour identities still match is as good today as when it was played, so an
extension plays only the line-ups with at least one new member (K games each, seats
rotated, base seeds after the ladder's last line-up), adds their pairwise comparisons to
the ladder's stored ones and fits every rating again at once, anchor and prior as before.
The new line-ups may play fewer games than the old (a dear search member): the fit
weighs each pair by its comparisons. A stale ladder is refused (carry or refit it first),
and the extension is recorded in the ladder (``fit.extended``: members, games, seeds,
command), so its version changes and its markdown names it.

``--replace az,net`` takes members whose play changed (a new shipped net: their
identities are stale, the others' must not be) off the ladder, their comparisons with
them, and adds them again as new members: only their line-ups are replayed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tradewinds import rating_fit
from tradewinds.studies import arena, evaluate
from tradewinds.studies.match import (
    SEED_STRIDE,
    check_writable_dir,
    jsonable,
    lineups,
    play_studies,
    rotations,
)

EXTEND_DB = Path("results") / "ladder_extend.sqlite"


def new_lineups(ladder: dict, add: Sequence[str]) -> list[tuple]:
    """The line-ups of the old and new members together that seat a new member."""
    names = [m["name"] for m in ladder["members"]] + list(add)
    return [up for up in lineups(names, ladder["players"]) if set(up) & set(add)]


def seat_counts(up: Sequence[str], games: int, counts: dict[str, list[int]]) -> None:
    """Add to `counts` (member -> games per seat) the seats of `games` rotated games of
    line-up `up` (game i seats its rotation by i, as `studies.arena`'s ``rotate``)."""
    turns = rotations(tuple(up))
    for i in range(games):
        for seat, name in enumerate(turns[i % len(turns)]):
            if name in counts:
                counts[name][seat] += 1


def balanced_lineups(ups: Sequence[tuple], add: Sequence[str], games: int) -> list[tuple]:
    """Each line-up rotated within its orbit so that the new members' seats even out over
    all of them. With fewer games than seats a line-up's games use only some seats, and
    `lineups` opens every orbit with the same member (the first in sorted order): without
    this, that member would never sit in the last seats. Greedy, in play order; with a
    multiple of the seats as games every rotation is as good and the line-ups stay as
    they are."""
    counts = {m: [0] * len(ups[0]) for m in add} if ups else {}
    out = []
    for up in ups:
        best = None
        for turned in rotations(tuple(up)):
            trial = {m: c[:] for m, c in counts.items()}
            seat_counts(turned, games, trial)
            cost = sum(x * x for c in trial.values() for x in c)
            if best is None or cost < best[0]:
                best = (cost, turned, trial)
        out.append(best[1])
        counts = best[2]
    return out


def merged_pairs(ladder: dict, rows) -> dict:
    """The ladder's stored comparisons plus those of the game rows, per pair (a < b)."""
    pairs = {(q["a"], q["b"]): [q["comparisons"], q["score_a"]] for q in ladder["pairs"]}
    for key, (c, s) in rating_fit.comparisons(rows).items():
        acc = pairs.setdefault(key, [0.0, 0.0])
        acc[0] += c
        acc[1] += s
    return pairs


def drop_members(ladder: dict, names: Sequence[str]) -> None:
    """Take `names` off `ladder` in place: their entries and every pair with one of them
    (the line-ups they played stay in ``fit.lineups``, the record of what was played)."""
    gone = set(names)
    ladder["members"] = [m for m in ladder["members"] if m["name"] not in gone]
    ladder["pairs"] = [q for q in ladder["pairs"] if not {q["a"], q["b"]} & gone]


def _check(ladder: dict, add: Sequence[str], replace: Sequence[str] = ()) -> None:
    from tradewinds import agents

    old = [m["name"] for m in ladder["members"]]
    new = list(replace) + list(add)
    if not new or len(set(new)) != len(new):
        raise ValueError(f"--add/--replace need one or more distinct members, got {new}")
    if set(add) & set(old):
        raise ValueError(f"already on the ladder: {', '.join(sorted(set(add) & set(old)))}")
    if set(replace) - set(old):
        raise ValueError(f"not on the ladder, nothing to replace: "
                         f"{', '.join(sorted(set(replace) - set(old)))}")
    stale = [m for m in evaluate.stale_members(ladder) if m not in replace]
    if stale:
        raise ValueError(f"the ladder is stale ({', '.join(stale)} changed): carry it "
                         f"(tradewinds ratings carry) or refit it first")
    for m in add:
        try:
            agents.make_agent(m, game=ladder["game"])
        except (ValueError, TypeError, ImportError) as e:
            raise ValueError(f"member {m!r}: {e}") from None


def extend_ladder(game: str, players: int, add: Sequence[str], *, games: int,
                  replace: Sequence[str] = (),
                  db: str | Path = EXTEND_DB, ladder_file: str | Path | None = None,
                  out_file: str | Path | None = None, workers: int | None = 1,
                  progress: bool = True, command: str | None = None, console=None) -> dict:
    """Play the line-ups that seat a member of `add` `games` times (resuming from `db`),
    refit all ratings with the ladder's stored comparisons and write the ladder (default:
    over the file it came from); the members of `replace` are taken off first and join
    again as new. Returns the ladder."""
    from tradewinds import output

    console = console or output.console()
    ladder = evaluate.load_ladder(game, players, ladder_file)
    source = Path(ladder.pop("path"))
    _check(ladder, add, replace)
    drop_members(ladder, replace)
    add = list(replace) + list(add)
    out_file = Path(out_file) if out_file is not None else source
    check_writable_dir(out_file.parent, "--out-file directory")
    fit = ladder["fit"]
    seed0 = max(u["base_seed"] for u in fit["lineups"]) + SEED_STRIDE
    studies = [arena.Study.create(game, ladder["players"], up, options=ladder["options"],
                                  seating="rotate", base_seed=seed0 + j * SEED_STRIDE)
               for j, up in enumerate(balanced_lineups(new_lineups(ladder, add), add, games))]
    t0 = time.perf_counter()
    res = play_studies(studies, [games] * len(studies), Path(db), workers=workers,
                       progress=progress, label=f"{game} {players}p ladder extension",
                       console=console)
    elapsed = time.perf_counter() - t0
    rows = [r for rs in res["rows"] for r in rs]
    members = [m["name"] for m in ladder["members"]] + add
    pairs = merged_pairs(ladder, rows)
    fitted = rating_fit.fit(pairs, members, anchor=ladder["anchor"],
                            prior_games=ladder["prior_games"])
    for m in ladder["members"]:             # identities checked above; `carried` kept
        rating = fitted["ratings"][m["name"]]
        m.update(elo=rating["elo"], se=rating["se"], ci95=rating["ci95"])
    ladder["members"] += evaluate.member_entries(add, fitted, game, ladder["players"],
                                                 ladder["options"])
    ladder["pairs"] = evaluate.pair_entries(pairs)
    fit["games"] += len(rows)
    fit["truncated"] += sum(bool(r["truncated"]) for r in rows)
    fit["game_seconds"] += sum(r["duration"] for r in rows)
    fit["elapsed_seconds"] += elapsed
    fit["lineups"] += [{"lineup": list(s.agents), "base_seed": s.base_seed, "games": games}
                       for s in studies]
    fit.setdefault("extended", []).append({
        "added": add, "replaced": list(replace), "games_per_lineup": games,
        "lineups": len(studies), "games": len(rows),
        "base_seed": seed0, "command": command or " ".join(sys.argv),
        "created": time.strftime("%Y-%m-%d", time.gmtime()), "versions": arena.versions()})
    ladder["version"] = evaluate.ladder_version(ladder)
    out_file.write_text(json.dumps(jsonable(ladder), indent=2) + "\n")
    console.print(evaluate.ladder_table(ladder))
    console.print(f"{res['played']} games played now, {res['already']} resumed from {db}; "
                  f"{elapsed:.1f} s; wrote {out_file} (version {ladder['version']})",
                  highlight=False)
    return ladder


def _names(text: str) -> list[str]:
    return [m.strip() for m in text.split(",") if m.strip()]


def main(argv=None, prog="python -m tradewinds.studies.extend") -> int:
    """The command line under the name `prog` (`tradewinds ratings extend` hands it over);
    one-line errors with exit status 2, as the `tradewinds` command."""
    from tradewinds.cli_args import (
        EXIT_ERROR,
        EXIT_INTERRUPTED,
        ArgumentParser,
        game_name,
        int_at_least,
    )

    parser = ArgumentParser(prog=prog, description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("game", type=game_name, help="game name: hansa or voyage")
    parser.add_argument("--players", type=int, default=2, help="player count (default 2)")
    parser.add_argument("--add", default="", help="new members, comma-separated")
    parser.add_argument("--replace", default="", help="members to take off and play again "
                        "(their play changed), comma-separated")
    parser.add_argument("--games", type=int_at_least(1), required=True,
                        help="games per new line-up (with 2 players: per pair)")
    parser.add_argument("--ladder", default=None, help="a ladder file instead of the "
                        "shipped one (written over unless --out-file)")
    parser.add_argument("--out-file", default=None, help="ladder file to write")
    parser.add_argument("--db", default=str(EXTEND_DB), help=f"results file (default "
                        f"{EXTEND_DB})")
    parser.add_argument("--workers", type=int_at_least(1), default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    try:
        from tradewinds import registry

        players = registry.game(args.game).check_players(args.players)
        extend_ladder(args.game, players, _names(args.add), replace=_names(args.replace),
                      games=args.games, db=args.db, ladder_file=args.ladder,
                      out_file=args.out_file, workers=args.workers,
                      progress=not args.no_progress,
                      command=f"tradewinds ratings extend {' '.join(argv)}")
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted; rerun the same command to resume",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    except (ValueError, OSError) as e:
        print(f"{parser.prog}: error: {' '.join(str(e).split())}", file=sys.stderr,
              flush=True)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
