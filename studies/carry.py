"""Carry a ladder's ratings over a change that alters no decision.

    tradewinds ratings carry --from <revision> [--games 2]

A ladder member's identity is the behaviour version its agent declares
(`agents.behaviour`), so most changes (a docstring, a moved file, a faster search that a
replay record shows plays the same) leave it as it is. When an identity changes (a
version bumped, a net file rewritten), the shipped ladder is stale and asks for a refit,
hours of games for the search members. A change that makes every decision as before
cannot move a rating, and `carry` proves that for each stale member before it takes the
new identity: it plays ``--games`` games with the member in every seat, so that every
decision is its own, from the same seeds and generators (`studies.replay.actions`) under
a checkout of the revision the ladder was rated at (a git worktree) and under this tree,
each in a child process, and compares every action.

When all agree, the member gets its new identity and a new replay record, and the
evidence is kept with it (``carried``: the identity it replaced, the revision, the games
and decisions compared); the ladder's version changes with the identity. When one
differs nothing is written and the first difference is named: that change needs a refit
(``tradewinds ratings fit``) or the member replayed (``tradewinds ratings extend
--replace``). A ladder of the older schema, its members named by file fingerprints, is
migrated the same way: every member is carried to its behaviour identity.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tradewinds.studies import evaluate, replay
from tradewinds.studies.replay import SEED, first_difference

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["SEED", "carry_ladder", "first_difference", "identity_at", "play"]
_PLAYER = inspect.getsource(replay.actions) + """
import json, sys
game, n, member, games, seed, options = sys.argv[1:7]
print(json.dumps(actions(game, int(n), member, int(games), int(seed), json.loads(options))))
"""
# the identity at an older tree: its behaviour identity, or before those its fingerprint
_IDENTITY = """
import inspect, sys
import tradewinds.studies.evaluate as e
name, game, players = sys.argv[1], sys.argv[2], int(sys.argv[3])
if hasattr(e, "identity"):
    print(e.identity(name, game, players))
else:
    count = (players,) if "players" in inspect.signature(e.fingerprint).parameters else ()
    print(e.fingerprint(name, game, *count))
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


def identity_at(root: Path, member: str, game: str, players: int) -> str:
    """`member`'s identity at `players` players in the code at `root` (a child process):
    its behaviour identity, or in code from before those its file fingerprint."""
    proc = _child(root, _IDENTITY, member, game, str(players))
    if proc.returncode != 0:
        return ""
    return proc.stdout.strip().splitlines()[-1]


def rated_identity(member: dict) -> str:
    """The identity a ladder rated `member` under (an older ladder: its fingerprint)."""
    return member.get("behaviour") or member.get("fingerprint", "")


def carried(ladder: dict, name: str, rev: str, games: int, decisions: int) -> dict:
    """`ladder` with member `name` on its current identity and a new replay record, the
    evidence kept with it, and the version recomputed."""
    game, n = ladder["game"], ladder["players"]
    members = []
    for m in ladder["members"]:
        if m["name"] == name:
            record = {"from": rated_identity(m), "revision": rev, "games": games,
                      "decisions": decisions, "seeds": f"{SEED} + i",
                      "created": time.strftime("%Y-%m-%d", time.gmtime())}
            if "behaviour" not in m:               # an older ladder's file fingerprint
                record["migrated"] = True
            rec = replay.record(game, n, name, ladder["options"])
            m = {**{k: v for k, v in m.items() if k not in ("fingerprint", "files")},
                 "behaviour": rec.pop("behaviour"), "replay": rec,
                 "carried": [*m.get("carried", []), record]}
        members.append(m)
    out = {k: v for k, v in ladder.items() if k != "path"}
    out["members"] = members
    return out


def stale(ladder: dict) -> list[str]:
    """The members to carry: the stale ones; in an older ladder every member."""
    if ladder.get("schema") == evaluate.OLD_SCHEMA:
        return [m["name"] for m in ladder["members"]]
    return evaluate.stale_members(ladder)


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
    names = stale(ladder)
    if not names:
        say(f"{path.name}: no stale member")
        return True
    n, game = ladder["players"], ladder["game"]
    for name in names:
        stored = rated_identity(next(m for m in ladder["members"] if m["name"] == name))
        if identity_at(old_root, name, game, n) != stored:
            say(f"{path.name}: {name} at {rev[:10]} is not the {name} the ladder rated "
                f"(another identity there); name the revision it was rated at")
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
    ladder["schema"] = evaluate.LADDER_SCHEMA
    ladder["version"] = evaluate.ladder_version(ladder)
    path.write_text(json.dumps(ladder, indent=2) + "\n")
    say(f"{path.name}: version {ladder['version']}")
    return True


def main(argv=None, prog="python -m tradewinds.studies.carry") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
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
