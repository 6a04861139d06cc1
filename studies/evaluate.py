"""Rate an agent against a fixed opponent ladder: `tradewinds evaluate <game> --agent A`.

The benchmark protocol for RL agents (docs/benchmarking.md).

The ladder
----------
A ladder is a fixed list of agents for one game and player count (e.g. random, heuristic,
mcts:25, mcts:100, ppo), each with a Bradley-Terry (Elo) rating on one scale with random
= 0, fitted once from ladder-vs-ladder games (`tradewinds.rating_fit`) and stored in the
package as ``studies/ladders/<game>_<n>p.json``: the members, their ratings with 95%
intervals, every member's behaviour identity and replay record, the line-ups, seeds and
game counts, the pairwise results, the command that made it and the versions it ran
under.

Every member has a *behaviour identity* (`agents.behaviour.identity`): the behaviour
versions declared by the modules its agent plays with (``BEHAVIOUR = <n>``, bumped by hand
in a change that makes any decision differently) and digests of the data it plays with
(for ``az`` and ``net`` the weights, shape and search settings of the game's shipped net at
the ladder's player count, or of the file named; for ``ppo`` the checkpoint's bytes). A
docstring edit, a comment or a moved file changes no identity. Each member also keeps a
*replay record* (`studies.replay`): its decisions in a few fixed-seed games, played under
that identity; tests/studies/test_replay.py replays every shipped record, so a change of
play without a new version fails there. The ladder's *version*
(``<game>-<n>p-<10 hex digits>``) is a hash of the game, player count, game options,
member names with their identities, anchor, prior and the fit's seeds and game counts:
any change of a member changes the version of the refitted ladder. A shipped ladder whose
members' identities are no longer the ones it rated is *stale*: `evaluate` says so in its
output (and tests/studies/test_evaluate.py fails until it is refitted, or until
``tradewinds ratings carry --from <revision>`` has shown that every changed member makes
each decision as before and carried its rating over, `studies.carry`).

Fitting a ladder (``tradewinds ratings fit <game> --players N``): every line-up
of the members (`studies.match.lineups`; with 2 players every pair), each an arena
study with the seats rotated and base seed ``seed + j * 10**9`` for line-up j, K games
each; then all ratings at once by maximum likelihood, anchor (random) = 0.

Evaluating an agent
-------------------
The agent plays K games against every ladder member (``--games K``): one arena study per
opponent, line-up (agent, opponent, ..., opponent) — one seat for the agent, every other
seat for that opponent — seats rotated (game i puts the agent in seat i mod N), base
seed ``seed + j * 10**9`` for the ladder's member j. The ladder's ratings stay fixed and
only the agent's rating is fitted (`rating_fit.fit_one`), with its 95% interval. An
agent that is itself a ladder member (same name) does not play itself. Games go to the
results store like every study (resumable: a rerun plays only the missing games).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tradewinds import rating_fit
from tradewinds.cli_args import int_at_least, option
from tradewinds.stats import wilson_interval
from tradewinds.store import canonical_json
from tradewinds.studies import arena
from tradewinds.studies import run_fields as rf
from tradewinds.studies.match import (
    SEED_STRIDE,
    check_writable_dir,
    jsonable,
    lineups,
    play_studies,
    safe_stem,
)

LADDER_DIR = Path(__file__).parent / "ladders"
DEFAULT_DB = Path("results") / "evaluate.sqlite"
FIT_DB = Path("results") / "ladder_fit.sqlite"
LADDER_SCHEMA = "tradewinds.ladder/2"
OLD_SCHEMA = "tradewinds.ladder/1"     # members named by file fingerprints
REPORT_SCHEMA = "tradewinds.evaluate/1"
DEFAULT_MEMBERS = {
    "hansa": ("random", "noisy:0.8", "noisy:0.5", "noisy:0.2", "heuristic", "mcts:25",
              "mcts:100", "ppo"),
    "voyage": ("random", "noisy:0.8", "noisy:0.65", "noisy:0.5", "noisy:0.35", "noisy:0.2",
               "noisy:0.1", "noisy:0.05", "heuristic", "ppo", "mcts:10", "mcts:25"),
}
PRIOR_GAMES = 1.0
MODEL = ("Bradley-Terry by maximum likelihood on the Elo scale (400 log10 odds), "
         "pairwise comparisons (winner beats loser, co-winners half each, losers not "
         "compared), one virtual drawn game per pair that met, intervals from the Fisher "
         "information (tradewinds/rating_fit.py)")


# ----------------------------------------------------------------------- identities


def identity(name: str, game: str, players: int | None = None) -> str:
    """Member `name`'s behaviour identity on `game` with `players` players (None: at any
    count, so every shipped net): `agents.behaviour.identity`."""
    from tradewinds.agents.behaviour import identity as behaviour_identity

    return behaviour_identity(name, game, players)


def ladder_version(ladder: dict) -> str:
    """``<game>-<n>p-<hash>`` of what decides the ladder's ratings (module notes)."""
    fit = ladder["fit"]
    key = {"game": ladder["game"], "players": ladder["players"],
           "options": ladder["options"], "anchor": ladder["anchor"],
           "prior_games": ladder["prior_games"],
           "members": [[m["name"], m["behaviour"]] for m in ladder["members"]],
           "base_seed": fit["base_seed"], "games_per_lineup": fit["games_per_lineup"]}
    if fit.get("extended"):                  # studies.extend: members added later
        key["extended"] = [[e["added"], e["games_per_lineup"], e["base_seed"]]
                           for e in fit["extended"]]
    digest = hashlib.sha256(canonical_json(key).encode()).hexdigest()[:10]
    return f"{ladder['game']}-{ladder['players']}p-{digest}"


# ------------------------------------------------------------------------- ladders


def ladder_path(game: str, players: int) -> Path:
    return LADDER_DIR / f"{game}_{int(players)}p.json"


def shipped_ladders() -> list[Path]:
    return sorted(LADDER_DIR.glob("*_*p.json"))


def load_ladder(game: str, players: int, path: str | Path | None = None) -> dict:
    """The ladder for (game, players): `path`, or the shipped file (ValueError naming the
    shipped ones and the fit command when there is none)."""
    if path is None:
        p = ladder_path(game, players)
        if not p.is_file():
            have = ", ".join(x.stem.replace("_", " ") for x in shipped_ladders()) or "none"
            raise ValueError(f"no ladder for {game} with {players} players (shipped: {have}); "
                             f"fit one with `tradewinds ratings fit {game} "
                             f"--players {players}` and pass it with --ladder")
    else:
        p = Path(path)
        if not p.is_file():
            raise ValueError(f"--ladder {p}: no such file")
    try:
        ladder = json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{p} is not a ladder file ({e})") from None
    if isinstance(ladder, dict) and ladder.get("schema") == OLD_SCHEMA:
        raise ValueError(f"{p} names its members by file fingerprints ({OLD_SCHEMA}): "
                         f"migrate it with `tradewinds ratings carry --from <the revision "
                         f"it was fitted at> --ladder {p}`")
    if not isinstance(ladder, dict) or ladder.get("schema") != LADDER_SCHEMA:
        raise ValueError(f"{p} is not a ladder file (schema {LADDER_SCHEMA} expected)")
    if ladder["game"] != game or int(ladder["players"]) != int(players):
        raise ValueError(f"{p} is the ladder for {ladder['game']} with {ladder['players']} "
                         f"players, not {game} with {players}")
    ladder["path"] = str(p)
    return ladder


def stale_members(ladder: dict) -> list[str]:
    """Members whose behaviour identity changed since the ladder rated them (or that cannot
    be built any more)."""
    out = []
    for m in ladder["members"]:
        try:
            now = identity(m["name"], ladder["game"], ladder["players"])
        except (ValueError, ImportError, OSError):
            now = None
        if now != m.get("behaviour"):
            out.append(m["name"])
    return out


# --------------------------------------------------------------------------- agents


def resolve_agent(name: str) -> str:
    """The agent name to play: a registered name (``ppo:<path>`` and ``mcts:<N>``
    included) as is; a ``module:attribute`` factory is imported and registered under that
    text for this run (the arena ships it to the workers). The current directory is
    tried for the module when it is not importable otherwise."""
    from tradewinds import agents

    name = name.strip()
    if not name or any(c in name for c in ", \t\n"):
        raise ValueError(f"--agent takes one agent name, got {name!r}")
    base, _ = agents.split_name(name)
    if base in agents.agent_names():
        return name
    module, sep, attr = name.partition(":")
    if not sep:
        raise ValueError(f"unknown agent {name!r}; known agents: "
                         f"{', '.join(agents.agent_names())}, or module:attribute for a "
                         f"factory of your own")
    try:
        mod = _import(module)
    except ImportError as e:
        raise ValueError(f"agent {name!r}: cannot import module {module!r} ({e})") from None
    f = getattr(mod, attr, None)
    if f is None or not callable(f):
        raise ValueError(f"agent {name!r}: module {module!r} has no callable {attr!r}")
    agents.register(name, f, replace=True)
    return name


def _import(module: str):
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        cwd = os.getcwd()
        if e.name != module.split(".")[0] or cwd in sys.path or "" in sys.path:
            raise
        sys.path.append(cwd)            # kept: spawned workers inherit sys.path
        return importlib.import_module(module)


# -------------------------------------------------------------------------- playing


def _check_count(flag: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{flag} must be an integer >= {minimum}, got {value!r}")


# ---------------------------------------------------------------------- fit a ladder


def default_members(game: str, players: int) -> tuple[str, ...]:
    """A refit keeps the shipped ladder's members; with no shipped ladder for the player
    count, the game's `DEFAULT_MEMBERS`."""
    if ladder_path(game, players).is_file():
        return tuple(m["name"] for m in load_ladder(game, players)["members"])
    return DEFAULT_MEMBERS.get(game, ())


def fit_ladder(game: str, players: int = 2, members: Sequence[str] | None = None, *,
               games: int = 100, base_seed: int = 0, anchor: str = "random",
               prior_games: float = PRIOR_GAMES, db: str | Path = FIT_DB,
               out_file: str | Path | None = None, workers: int | None = 1,
               progress: bool = True, command: str | None = None, console=None) -> dict:
    """Play every line-up of `members` `games` times (resuming from `db`), fit the ratings
    and write the ladder file (default: the shipped one for the game and player count).
    Returns the ladder."""
    from tradewinds import agents, output, registry

    console = console or output.console()
    handle = registry.game(game)
    n = handle.check_players(players)
    members = list(members or default_members(game, n))
    if len(members) < 2 or len(set(members)) != len(members):
        raise ValueError(f"a ladder needs two or more distinct members, got {members}")
    if anchor not in members:
        raise ValueError(f"the anchor {anchor!r} must be a member ({', '.join(members)})")
    _check_count("--games", games, 1)
    _check_count("--seed", base_seed, 0)
    for m in members:
        try:
            agents.make_agent(m, game=game)
        except (ValueError, TypeError, ImportError) as e:
            raise ValueError(f"member {m!r}: {e}") from None
    out_file = Path(out_file) if out_file is not None else ladder_path(game, n)
    check_writable_dir(out_file.parent, "--out-file directory")
    opts = handle.resolve_options(None)
    ups = lineups(members, n)
    studies = [arena.Study.create(game, n, up, options=opts, seating="rotate",
                                  base_seed=base_seed + j * SEED_STRIDE)
               for j, up in enumerate(ups)]
    t0 = time.perf_counter()
    res = play_studies(studies, [games] * len(studies), Path(db), workers=workers,
                       progress=progress, label=f"{game} {n}p ladder fit", console=console)
    elapsed = time.perf_counter() - t0
    rows = [r for rs in res["rows"] for r in rs]
    pairs = rating_fit.comparisons(rows)
    fitted = rating_fit.fit(pairs, members, anchor=anchor, prior_games=prior_games)
    seconds = sum(r["duration"] for r in rows)
    ladder = {
        "schema": LADDER_SCHEMA, "version": None, "game": game, "players": n,
        "options": opts, "anchor": anchor, "prior_games": prior_games, "model": MODEL,
        "members": member_entries(members, fitted, game, n, opts),
        "pairs": pair_entries(pairs),
        "fit": {"games": len(rows), "games_per_lineup": games, "base_seed": base_seed,
                "seeds": f"line-up j plays seeds base_seed + j * {SEED_STRIDE} + i, "
                         f"i = 0..games_per_lineup-1, seats rotated",
                "lineups": [{"lineup": list(s.agents), "base_seed": s.base_seed,
                             "games": games} for s in studies],
                "truncated": sum(bool(r["truncated"]) for r in rows),
                "game_seconds": seconds, "elapsed_seconds": elapsed,
                "workers": res["workers"], "iterations": fitted["iterations"],
                "command": command or " ".join(sys.argv),
                "created": time.strftime("%Y-%m-%d", time.gmtime()),
                "versions": arena.versions()},
    }
    ladder["version"] = ladder_version(ladder)
    out_file.write_text(json.dumps(jsonable(ladder), indent=2) + "\n")
    console.print(ladder_table(ladder))
    console.print(f"{res['played']} games played now, {res['already']} resumed from {db}; "
                  f"{elapsed:.1f} s; wrote {out_file} (version {ladder['version']})",
                  highlight=False)
    return ladder


def member_entries(members: Sequence[str], fitted: dict, game: str, players: int,
                   options: dict) -> list[dict]:
    """The ladder file's members: rating, interval, behaviour identity and replay record
    (`studies.replay`) of each."""
    from tradewinds.studies import replay

    out = []
    for m in members:
        rec = replay.record(game, players, m, options)
        out.append({"name": m, "elo": fitted["ratings"][m]["elo"],
                    "se": fitted["ratings"][m]["se"], "ci95": fitted["ratings"][m]["ci95"],
                    "behaviour": rec.pop("behaviour"), "replay": rec})
    return out


def pair_entries(pairs: dict) -> list[dict]:
    """The ladder file's pairwise results from ``{(a, b): (comparisons, score of a)}``."""
    return [{"a": a, "b": b, "comparisons": c, "score_a": s,
             "score_rate_a": s / c if c else None} for (a, b), (c, s) in sorted(pairs.items())]


def ladder_table(ladder: dict):
    from rich.table import Table

    t = Table(title=f"ladder {ladder['version']}: {ladder['game']}, {ladder['players']} "
              f"players, {ladder['fit']['games']} games ({ladder['anchor']} = 0)",
              title_justify="left")
    for c in ("member", "Elo", "95% CI"):
        t.add_column(c, justify="left" if c == "member" else "right")
    for m in ladder["members"]:
        t.add_row(m["name"], f"{m['elo']:+.0f}", f"[{m['ci95'][0]:+.0f}, {m['ci95'][1]:+.0f}]")
    return t


# The rating pool's commands as `tradewinds ratings` runs them; ladder files fitted before
# that front door keep the `python -m` form they were run under.
FRONT_DOOR = {f"python -m {package}studies.{module} ": f"tradewinds ratings {verb}"
              for package in ("", "tradewinds.")      # before and after the one namespace
              for module, verb in (("evaluate", ""), ("extend", "extend "), ("carry", "carry "))}


def front_door(command: str) -> str:
    """`command` in its `tradewinds ratings` form (a `python -m studies.*` form replaced; any
    other command as it is)."""
    for old, new in FRONT_DOOR.items():
        if command.startswith(old):
            return new + command[len(old):]
    return command


def ladder_markdown(ladder: dict) -> str:
    """The ladder as markdown for the docs and for citing: its version, how it was fitted,
    the members' ratings and every pair's result."""
    fit = ladder["fit"]

    def took(seconds):
        return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"

    workers = f"{fit['workers']} worker" + ("s" if fit["workers"] != 1 else "")
    lines = [f"**{ladder['game'].capitalize()}, {ladder['players']} players**: version "
             f"`{ladder['version']}`; {fit['games_per_lineup']} games per line-up, "
             f"{fit['games']} games in all ({fit['truncated']} truncated), seats rotated, "
             f"base seed {fit['base_seed']}; {took(fit['game_seconds'])} of game time, "
             f"{took(fit['elapsed_seconds'])} wall time with {workers}; fitted "
             f"{fit['created']} with `{front_door(fit['command'])}`{_extended_note(ladder)}"
             f"{_carried_note(ladder)}.", "",
             "| member | Elo | 95% CI |", "|---|---:|---:|"]
    for m in sorted(ladder["members"], key=lambda m: m["elo"]):
        ci = ("(anchor)" if m["name"] == ladder["anchor"]
              else f"[{m['ci95'][0]:+.0f}, {m['ci95'][1]:+.0f}]")
        lines.append(f"| {m['name']} | {m['elo']:+.0f} | {ci} |")
    lines += ["", "Pairwise comparisons (score of the first of the pair; a win beats each "
              "loser, shared wins count half):", "",
              "| pair | comparisons | score | rate |", "|---|---:|---:|---:|"]
    for q in ladder["pairs"]:
        rate = "-" if q["score_rate_a"] is None else f"{q['score_rate_a']:.3f}"
        lines.append(f"| {q['a']} vs {q['b']} | {q['comparisons']:g} | {q['score_a']:g} | "
                     f"{rate} |")
    return "\n".join(lines) + "\n"


def _extended_note(ladder: dict) -> str:
    """"; extended ..." for members a `tradewinds ratings extend` run added (or replaced), else
    ""."""
    return "".join(
        f"; extended {e['created']} with {', '.join(e['added'])}"
        f"{' (' + ', '.join(e['replaced']) + ' replayed)' if e.get('replaced') else ''} "
        f"({e['games_per_lineup']} "
        f"games per new line-up, {e['games']} games, `{front_door(e['command'])}`)"
        for e in ladder["fit"].get("extended", []))


def _carried_note(ladder: dict) -> str:
    """"; carried over ..." for members whose ratings `tradewinds ratings carry` kept, else ""; a
    migration from file fingerprints to behaviour identities is named as one."""
    notes = []
    for migrated in (True, False):
        carried = [(m["name"], m["carried"][-1]) for m in ladder["members"]
                   if m.get("carried") and bool(m["carried"][-1].get("migrated")) == migrated]
        if not carried:
            continue
        last = carried[-1][1]
        proof = (f"(the same decisions in {last['games']} games each as at "
                 f"{last['revision'][:10]}, `tradewinds ratings carry`)")
        if migrated and len(carried) == len(ladder["members"]):
            notes.append(f"; members named by behaviour identities since {last['created']} "
                         f"{proof}")
        else:
            names = ", ".join(name for name, _ in carried)
            notes.append(f"; {names} carried over to new code on {last['created']} {proof}")
    return "".join(notes)


def predicted_width(ladder: dict, elo: float, games: int, exclude: str | None = None) -> float:
    """The expected width of the 95% interval of an agent of rating `elo` evaluated with
    `games` games per opponent of `ladder` (2 players; the Fisher information at the
    true rating, the virtual draws included)."""
    info = 0.0
    prior = float(ladder.get("prior_games", PRIOR_GAMES))
    for m in ladder["members"]:
        if m["name"] == exclude:
            continue
        p = float(rating_fit.expected_score(elo - m["elo"]))
        info += (games + prior) * p * (1.0 - p)
    return 2.0 * rating_fit.Z95 * rating_fit.ELO_SCALE / math.sqrt(info)


# -------------------------------------------------------------------------- evaluate


@dataclass
class EvaluateConfig:
    """`tradewinds evaluate`: `agent` against every member of the ladder, `games` each."""

    game: str = rf.game()
    agent: str = option(metavar="NAME", help="the agent to rate: a registered name "
                        "(heuristic, mcts:200, ppo), ppo:<path to model.zip>, or "
                        "module:attribute naming a factory (called as factory(game=...), "
                        "returns an object with act())")
    players: int = option(2, type=int, help="player count (a ladder file must exist for it)")
    games: int = option(100, type=int_at_least(1), help="games against each ladder opponent; "
                        "the interval narrows as 1/sqrt(games)")
    base_seed: int = rf.base_seed("base seed: against ladder member j, game i uses seed + "
                                  "j * 10**9 + i")
    ladder: str | Path | None = option(None, metavar="PATH", help="a ladder file",
                                       show="the shipped one for the game and players")
    db: str | Path = rf.db(DEFAULT_DB)
    out: str | Path | None = rf.out("JSON and markdown")
    name: str | None = rf.name("evaluate_<game>_<agent>_<players>p")
    workers: int | None = rf.workers("worker processes")
    chunk_size: int | None = rf.chunk_size()
    progress: bool = rf.progress()
    write_files: bool = True
    command: str | None = None

    def __post_init__(self):
        self.db = Path(self.db)
        self.out = Path(self.out) if self.out is not None else self.db.parent

    @property
    def stem(self) -> str:
        return self.name or f"evaluate_{self.game}_{safe_stem(self.agent)}_{self.players}p"

    def validate(self) -> tuple[dict, list[tuple[int, str]], list[arena.Study]]:
        """(ladder, [(member index, opponent)], studies); ValueError with a one-line
        reason before anything is played."""
        from tradewinds import agents, registry

        handle = registry.game(self.game)
        handle.check_players(self.players)
        _check_count("--games", self.games, 1)
        _check_count("--seed", self.base_seed, 0)
        if self.workers is not None:
            _check_count("--workers", self.workers, 1)
        self.agent = resolve_agent(self.agent)
        ladder = load_ladder(self.game, self.players, self.ladder)
        try:
            agents.make_agent(self.agent, game=self.game)
        except (ValueError, TypeError, ImportError) as e:
            raise ValueError(f"agent {self.agent!r}: {e}") from None
        opponents = [(j, m["name"]) for j, m in enumerate(ladder["members"])
                     if m["name"] != self.agent]
        studies = [arena.Study.create(self.game, self.players,
                                      [self.agent] + [opp] * (self.players - 1),
                                      options=ladder["options"], seating="rotate",
                                      base_seed=self.base_seed + j * SEED_STRIDE)
                   for j, opp in opponents]
        return ladder, opponents, studies


def run_evaluate(config: EvaluateConfig, console=None) -> dict:
    """Validate, play (resuming), fit, print, write JSON and markdown; returns the report."""
    from tradewinds import output

    c = config
    console = console or output.console()
    ladder, opponents, studies = c.validate()
    if c.write_files:
        check_writable_dir(c.out, "--out")
    stale = stale_members(ladder)
    t0 = time.perf_counter()
    res = play_studies(studies, [c.games] * len(studies), c.db, workers=c.workers,
                       progress=c.progress, label=f"{c.agent} vs {ladder['version']}",
                       console=console, chunk_size=c.chunk_size)
    elapsed = time.perf_counter() - t0
    report = summarize(c, ladder, opponents, studies, res["rows"], stale)
    report.update({"command": c.command or " ".join(sys.argv), "db": str(c.db),
                   "played_now": res["played"], "already_stored": res["already"],
                   "elapsed": elapsed, "workers": res["workers"], "run_ids": res["run_ids"],
                   "versions": arena.versions()})
    for line in render(report):
        console.print(line, highlight=False)
    rate = f" ({res['played'] / elapsed:,.1f} games/s)" if res["played"] and elapsed > 0 else ""
    console.print(f"{res['played']} games played now{rate}, {res['already']} resumed from "
                  f"{c.db}; {elapsed:.1f} s with {res['workers']} worker"
                  f"{'s' if res['workers'] > 1 else ''}", highlight=False)
    if c.write_files:
        jpath, mpath = c.out / f"{c.stem}.json", c.out / f"{c.stem}.md"
        report["json"], report["markdown"] = str(jpath), str(mpath)
        jpath.write_text(json.dumps(jsonable(report), indent=2) + "\n")
        mpath.write_text(markdown(report))
        console.print(f"wrote {jpath} and {mpath}", highlight=False)
    return report


def summarize(c: EvaluateConfig, ladder: dict, opponents, studies, rows_by_study,
              stale: Sequence[str]) -> dict:
    """The report (the JSON's content, less the run's bookkeeping) from the stored rows."""
    n = c.players
    ratings = {m["name"]: m for m in ladder["members"]}
    per_opp, results = [], []
    truncated = 0
    for (_, opp), rows in zip(opponents, rows_by_study, strict=True):
        wins = 0.0
        for r in rows:
            seat = r["agents"].index(c.agent)
            if seat in r["winners"]:
                wins += 1.0 / len(r["winners"])
            truncated += bool(r["truncated"])
        pairs = rating_fit.comparisons(rows)
        comp, score = 0.0, 0.0
        for (a, _), (k, s) in pairs.items():
            comp += k
            score += s if a == c.agent else k - s
        g = len(rows)
        lo, hi = wilson_interval(wins, g) if g else (math.nan, math.nan)
        per_opp.append({"opponent": opp, "opponent_elo": ratings[opp]["elo"], "games": g,
                        "wins": wins, "win_rate": wins / g if g else math.nan,
                        "ci95": [lo, hi], "comparisons": comp, "score": score,
                        "score_rate": score / comp if comp else math.nan})
        results.append((ratings[opp]["elo"], comp, score))
    fit = rating_fit.fit_one(results, prior_games=ladder["prior_games"])
    for p in per_opp:
        p["expected_score"] = float(rating_fit.expected_score(fit["elo"] - p["opponent_elo"])) \
            if math.isfinite(fit["elo"]) else math.nan
    width = fit["ci95"][1] - fit["ci95"][0]
    notes = [f"win rate = the agent's win credit per game (shared wins split; fair share "
             f"1/{n}); the rating uses pairwise comparisons (tradewinds/rating_fit.py)",
             f"rating interval: ladder ratings held fixed (their own uncertainty is not "
             f"included); width {width:.0f} Elo with {c.games} games per opponent, about "
             f"1/sqrt(games)"]
    if c.games % n:
        notes.append(f"{c.games} games per opponent is not a multiple of {n}: the agent did "
                     f"not sit in every seat equally often")
    if c.agent in ratings:
        notes.append(f"{c.agent} is a ladder member (ladder rating "
                     f"{ratings[c.agent]['elo']:+.0f}); it did not play itself")
    if stale:
        notes.append(f"STALE LADDER: {', '.join(stale)} changed since the ladder was fitted "
                     f"(behaviour versions differ); refit it with `tradewinds ratings "
                     f"fit {c.game} --players {n}` before citing these numbers")
    if truncated:
        notes.append(f"{truncated} games reached the round cap (scored as they stood)")
    return {
        "schema": REPORT_SCHEMA, "game": c.game, "players": n, "agent": c.agent,
        "ladder": {"version": ladder["version"], "path": ladder["path"],
                   "anchor": ladder["anchor"], "games": ladder["fit"]["games"],
                   "stale_members": list(stale),
                   "members": {m["name"]: {"elo": m["elo"], "ci95": m["ci95"]}
                               for m in ladder["members"]}},
        "rating": {"elo": fit["elo"], "ci95": fit["ci95"], "se": fit["se"], "width": width,
                   "comparisons": fit["comparisons"], "score": fit["score"],
                   "model": MODEL},
        "games_per_opponent": c.games, "games": sum(p["games"] for p in per_opp),
        "base_seed": c.base_seed,
        "lineups": [{"lineup": list(s.agents), "seating": s.seating, "base_seed": s.base_seed,
                     "path": s.path} for s in studies],
        "opponents": per_opp, "truncated": truncated, "notes": notes,
    }


def _elo(x: float) -> str:
    return "-" if not math.isfinite(x) else f"{x:+.0f}"


OPP_COLUMNS = ("opponent", "ladder Elo", "games", "wins", "win rate", "95% CI (Wilson)",
               "expected")


def _opp_rows(report: dict) -> list[list[str]]:
    return [[p["opponent"], _elo(p["opponent_elo"]), str(p["games"]), f"{p['wins']:g}",
             f"{p['win_rate']:.3f}", f"[{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]",
             f"{p['expected_score']:.3f}"] for p in report["opponents"]]


def headline(report: dict) -> str:
    r = report["rating"]
    return (f"{report['agent']} on {report['game']} ({report['players']} players): "
            f"{_elo(r['elo'])} Elo, 95% CI [{_elo(r['ci95'][0])}, {_elo(r['ci95'][1])}] "
            f"(width {r['width']:.0f}), ladder {report['ladder']['version']} "
            f"({report['ladder']['anchor']} = 0)")


def render(report: dict) -> list:
    from rich.table import Table

    t = Table(title=f"{report['agent']} against ladder {report['ladder']['version']}: "
              f"{report['games']} games, seats rotated", title_justify="left")
    for col in OPP_COLUMNS:
        t.add_column(col, justify="left" if col == "opponent" else "right")
    for row in _opp_rows(report):
        t.add_row(*row)
    t.caption = "expected = the agent's expected score against that opponent at its fitted rating"
    return [t, headline(report)] + ["  " + x for x in report["notes"]]


def markdown(report: dict) -> str:
    lines = [f"**{headline(report)}**", "",
             "| " + " | ".join(OPP_COLUMNS) + " |",
             "|---" + "|---:" * (len(OPP_COLUMNS) - 1) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in _opp_rows(report)]
    lines += [""] + [f"- {x}" for x in report["notes"]]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- command line


def main(argv=None, prog=None) -> int:
    """``tradewinds ratings fit <game> --players N [...]``: (re)build a ladder file (and
    ``show``). `prog` is the name of a command that hands one sub-command over (`tradewinds
    ratings fit`): its usage and errors then name it. One-line errors with exit status 2,
    as the `tradewinds` command."""
    from tradewinds.cli_args import (
        EXIT_ERROR,
        EXIT_INTERRUPTED,
        ArgumentParser,
        game_name,
        int_at_least,
    )

    parser = ArgumentParser(prog="python -m tradewinds.studies.evaluate",
                            description="Fit (or refit) an opponent ladder for "
                            "`tradewinds evaluate`.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = {"prog": prog} if prog else {}
    p = sub.add_parser("fit", **named, help="play the ladder's line-ups and fit its ratings",
                       description="Plays every line-up of the members --games times with "
                       "the seats rotated (resuming from --db), fits Bradley-Terry ratings "
                       "(anchor = 0) and writes the ladder JSON.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--players", type=int, default=2, help="player count (default 2)")
    p.add_argument("--members", default=None, help="ladder members, comma-separated "
                   "(default: the shipped ladder's members for the game and player count; "
                   "without one: " + "; ".join(
                       f"{g}: {','.join(m)}" for g, m in DEFAULT_MEMBERS.items()) + ")")
    p.add_argument("--games", type=int_at_least(1), default=100,
                   help="games per line-up (with 2 players: per pair; default 100)")
    p.add_argument("--seed", type=int_at_least(0), default=0, help="base seed (default 0)")
    p.add_argument("--anchor", default="random", help="the member rated 0 (default random)")
    p.add_argument("--db", default=str(FIT_DB), help=f"results file (default {FIT_DB})")
    p.add_argument("--out-file", default=None, help="ladder file to write (default: the "
                   "shipped studies/ladders/<game>_<N>p.json)")
    p.add_argument("--workers", type=int_at_least(1), default=1,
                   help="worker processes (default 1)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p = sub.add_parser("show", **named, help="print a ladder as markdown (version, fit, ratings, "
                       "pairs)", description="Prints the shipped ladder for the game and "
                       "player count (or --ladder FILE) as markdown.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--players", type=int, default=2, help="player count (default 2)")
    p.add_argument("--ladder", default=None, help="a ladder file instead of the shipped one")
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    prog = prog or f"{parser.prog} {args.command}"
    try:
        if args.command == "show":
            from tradewinds import registry

            players = registry.game(args.game).check_players(args.players)
            print(ladder_markdown(load_ladder(args.game, players, args.ladder)), end="")
            return 0
        members = [m.strip() for m in args.members.split(",")] if args.members else None
        fit_ladder(args.game, args.players, members, games=args.games, base_seed=args.seed,
                   anchor=args.anchor, db=args.db, out_file=args.out_file,
                   workers=args.workers, progress=not args.no_progress,
                   command=f"tradewinds ratings {' '.join(argv)}")
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; rerun the same command to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (ValueError, OSError) as e:
        print(f"{prog}: error: {' '.join(str(e).split())}", file=sys.stderr, flush=True)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
