"""Carry a ladder's ratings over a change that alters no decision.

    python -m studies.carry --from <revision> [--games 2]

A ladder member's fingerprint is the bytes of the files that decide how it plays
(`studies.evaluate`); when they change, the shipped ladder is stale and asks for a refit,
hours of games for the search members. A change that makes every decision as before (a
faster search, a function split in two) cannot move a rating, and `carry` proves that
for each stale member before it takes the new fingerprint: it plays ``--games`` games
with the member in every seat, so that every decision is its own, from the same seeds
and generators under a checkout of the revision the ladder was fitted at (a git
worktree) and under this tree, each in a child process, and compares every action.

When all agree, the member's fingerprint and files are updated and the evidence is kept
with it (``carried``: the fingerprint it replaced, the revision, the games and decisions
compared); the ladder's version changes with the fingerprint. When one differs nothing
is written and the first difference is named: that change needs a refit
(``python -m studies.evaluate fit``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from studies import evaluate

ROOT = Path(__file__).resolve().parent.parent
SEED = 9_000_000_000            # game i of a check plays seed SEED + i
_PLAYER = r"""
import json, sys
import numpy as np
from agents import make_agent
from studies.arena import agent_action
from tradewinds import registry
game_name, n, member, games, seed, options = sys.argv[1:7]
g = registry.game(game_name)
agent = make_agent(member, game=game_name)
out = []
for i in range(int(games)):
    s = g.new_state(int(n), int(seed) + i, **json.loads(options))
    played = []
    while not g.is_terminal(s):
        p = g.current_player(s)
        a = int(agent_action(agent, g, s, p, np.random.default_rng([int(seed) + i, len(played)])))
        played.append(a)
        g.step(s, a)
    out.append(played)
print(json.dumps(out))
"""


def _child(root: Path, code: str, *args: str) -> subprocess.CompletedProcess:
    """`code` run by Python with the code at `root` on its path (its own imports and
    numba cache)."""
    return subprocess.run([sys.executable, "-c", code, *args], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True,
                          text=True)


def play(root: Path, game: str, players: int, member: str, games: int,
         options: dict) -> list[list[int]]:
    """The actions of `games` games of `member` in every seat, played by the code at
    `root` in a child process."""
    proc = _child(root, _PLAYER, game, str(players), member, str(games), str(SEED),
                  json.dumps(options))
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{member} at {root}: the games failed ({tail})")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def fingerprint_at(root: Path, member: str, game: str, players: int) -> str:
    """`member`'s fingerprint at `players` players in the code at `root` (a child process;
    code from before fingerprints knew the player count gives the any-count one)."""
    code = ("import inspect, sys; from studies.evaluate import fingerprint; "
            "count = ((int(sys.argv[3]),) if 'players' in "
            "inspect.signature(fingerprint).parameters else ()); "
            "print(fingerprint(sys.argv[1], sys.argv[2], *count))")
    proc = _child(root, code, member, game, str(players))
    if proc.returncode != 0:
        return ""
    return proc.stdout.strip().splitlines()[-1]


def first_difference(before: list[list[int]], after: list[list[int]]) -> str | None:
    """Where two records of the same games first part ("game i, decision j"), or None."""
    for i, (a, b) in enumerate(zip(before, after, strict=True)):
        for j, (x, y) in enumerate(zip(a, b, strict=False)):   # lengths: below
            if x != y:
                return f"game {i}, decision {j}: {x} before, {y} now"
        if len(a) != len(b):
            return f"game {i}: {len(a)} decisions before, {len(b)} now"
    return None


def carried(ladder: dict, name: str, rev: str, games: int, decisions: int) -> dict:
    """`ladder` with member `name` on its current fingerprint and files, the evidence kept
    with it, and the version recomputed."""
    game = ladder["game"]
    members = []
    for m in ladder["members"]:
        if m["name"] == name:
            record = {"from": m["fingerprint"], "revision": rev, "games": games,
                      "decisions": decisions, "seeds": f"{SEED} + i",
                      "created": time.strftime("%Y-%m-%d", time.gmtime())}
            n = ladder["players"]
            m = {**m, "fingerprint": evaluate.fingerprint(name, game, n),
                 "files": [p.name for p in evaluate.member_files(name, game, n)],
                 "carried": [*m.get("carried", []), record]}
        members.append(m)
    out = {k: v for k, v in ladder.items() if k != "path"}
    out["members"] = members
    out["version"] = evaluate.ladder_version(out)
    return out


def resolve(rev: str) -> str:
    proc = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise ValueError(f"--from {rev}: not a revision of this repository")
    return proc.stdout.strip()


def carry_ladder(path: Path, old_root: Path, rev: str, games: int, say=print) -> bool:
    """Carry every stale member of the ladder at `path` (rewriting the file); False, and
    nothing written, when one of them plays differently."""
    ladder = json.loads(path.read_text())
    stale = evaluate.stale_members(ladder)
    if not stale:
        say(f"{path.name}: no stale member")
        return True
    n, game = ladder["players"], ladder["game"]
    for name in stale:
        stored = next(m["fingerprint"] for m in ladder["members"] if m["name"] == name)
        if fingerprint_at(old_root, name, game, n) != stored:
            say(f"{path.name}: {name} at {rev[:10]} is not the {name} the ladder rated "
                f"(another fingerprint there); name the revision it was fitted with")
            return False
        before = play(old_root, game, n, name, games, ladder["options"])
        now = play(ROOT, game, n, name, games, ladder["options"])
        where = first_difference(before, now)
        if where is not None:
            say(f"{path.name}: {name} plays differently ({where}); refit the ladder")
            return False
        decisions = sum(len(x) for x in now)
        say(f"{path.name}: {name} made the same {decisions} decisions in {games} games")
        ladder = carried(ladder, name, rev, games, decisions)
    path.write_text(json.dumps(ladder, indent=2) + "\n")
    say(f"{path.name}: version {ladder['version']}")
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m studies.carry", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from", dest="rev", required=True,
                    help="the revision whose code the ladders were fitted with")
    ap.add_argument("--games", type=int, default=2, help="games per stale member")
    ap.add_argument("--ladder", type=Path, nargs="*", default=None,
                    help="ladder files (default: every shipped one)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.exit(2, f"error: --games must be >= 1, got {args.games}\n")
    try:
        rev = resolve(args.rev)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    paths = args.ladder or evaluate.shipped_ladders()
    with tempfile.TemporaryDirectory(prefix="carry-") as tmp:
        old_root = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", str(old_root), rev], cwd=ROOT,
                       check=True, capture_output=True)
        try:
            ok = all([carry_ladder(Path(p), old_root, rev, args.games) for p in paths])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_root)], cwd=ROOT,
                           capture_output=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
