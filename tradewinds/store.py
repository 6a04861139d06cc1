"""The results store: every game the arena plays, one row each, in one SQLite file.

Schema (created on first use; `SCHEMA_VERSION` in ``PRAGMA user_version``)::

    run   one row per study configuration
          run_id INTEGER PRIMARY KEY, key TEXT UNIQUE (canonical JSON of the identity),
          game, num_players, options (JSON), agents (JSON list: the line-up, seat order
          of game 0), agent_kwargs (JSON), seating ('fixed'|'rotate'), base_seed,
          path ('kernel'|'python': how the games were played), created (UTC ISO time),
          versions (JSON, of the process that created the run)
    game  one row per finished game
          run_id, game_index (i: the seed is base_seed + i), seed, game, num_players,
          options (JSON), agents (JSON list by seat), turn_order (JSON list: the seats in
          the order they play at the start of the game), scores (JSON list by seat),
          winners (JSON list of seats; ties share), steps (decisions), truncated (0/1),
          duration (seconds, wall time of that game in its worker), path, versions
          (JSON: tradewinds, numba, numpy, python of the worker that played it),
          finished (UTC ISO time), rounds (the game's round counter at the end; NULL
          in games stored by schema 1), actions (BLOB: every decision's action id in
          order, `encode_actions`; NULL for games played inside numba, which replay
          from their seed, and for games stored by schemas 1 and 2); UNIQUE(run_id, seed)

A game is named by its SQLite rowid (`Store.game`, the id `tradewinds replay` takes).

A run is identified by its key — (game, num_players, options with the game's defaults
filled in, agents, agent kwargs, seating, base_seed, path) — so rerunning the same command
finds the same run and skips the seeds it already has. Rows are written with INSERT OR
IGNORE under UNIQUE(run_id, seed), in one transaction per batch, so a resume never counts a
game twice and a crash (even kill -9) loses at most the batch being written. The file is in
WAL mode: readers (a progress watcher, a notebook) never block the single writer.
Only the parent process writes; workers send their rows back to it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

SCHEMA_VERSION = 3   # 2 added game.rounds, 3 game.actions; older files are upgraded in place

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (
    run_id       INTEGER PRIMARY KEY,
    key          TEXT    NOT NULL UNIQUE,
    game         TEXT    NOT NULL,
    num_players  INTEGER NOT NULL,
    options      TEXT    NOT NULL,
    agents       TEXT    NOT NULL,
    agent_kwargs TEXT    NOT NULL,
    seating      TEXT    NOT NULL,
    base_seed    INTEGER NOT NULL,
    path         TEXT    NOT NULL,
    created      TEXT    NOT NULL,
    versions     TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS game (
    run_id      INTEGER NOT NULL REFERENCES run(run_id),
    game_index  INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    num_players INTEGER NOT NULL,
    options     TEXT    NOT NULL,
    agents      TEXT    NOT NULL,
    turn_order  TEXT    NOT NULL,
    scores      TEXT    NOT NULL,
    winners     TEXT    NOT NULL,
    steps       INTEGER NOT NULL,
    truncated   INTEGER NOT NULL,
    duration    REAL    NOT NULL,
    path        TEXT    NOT NULL,
    versions    TEXT    NOT NULL,
    finished    TEXT    NOT NULL,
    rounds      INTEGER,
    actions     BLOB,
    UNIQUE (run_id, seed)
);
CREATE INDEX IF NOT EXISTS game_run_index ON game (run_id, game_index);
"""

# columns of a game row, in table order (workers produce dicts with these keys, less run_id
# and finished, which the store adds)
GAME_COLUMNS = (
    "run_id", "game_index", "seed", "game", "num_players", "options", "agents", "turn_order",
    "scores", "winners", "steps", "truncated", "duration", "path", "versions", "finished",
    "rounds", "actions",
)
# the columns each older schema's game table ends with, and what upgrades it to the next
_UPGRADES = {1: "ALTER TABLE game ADD COLUMN rounds INTEGER",
             2: "ALTER TABLE game ADD COLUMN actions BLOB"}
_JSON_COLUMNS = ("options", "agents", "turn_order", "scores", "winners", "versions")
RUN_COLUMNS = (
    "run_id", "key", "game", "num_players", "options", "agents", "agent_kwargs", "seating",
    "base_seed", "path", "created", "versions",
)


def canonical_json(obj) -> str:
    """JSON with sorted keys and no spaces: equal objects give equal strings."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def encode_actions(actions) -> bytes:
    """A game's action ids as a BLOB: one width byte (1 or 2), then the ids as unsigned
    little-endian integers of that width (one byte each for both games' action spaces)."""
    import numpy as np

    a = np.asarray(list(actions), dtype=np.int64)
    if a.size and (a.min() < 0 or a.max() >= 2**16):
        raise ValueError(f"action ids must be in 0..65535, got {int(a.min())}..{int(a.max())}")
    width = 1 if not a.size or a.max() < 256 else 2
    return bytes([width]) + a.astype("<u1" if width == 1 else "<u2").tobytes()


def decode_actions(blob) -> list[int] | None:
    """The action ids of `encode_actions` (None for None: not recorded)."""
    import numpy as np

    if blob is None:
        return None
    blob = bytes(blob)
    if not blob or blob[0] not in (1, 2) or (len(blob) - 1) % blob[0]:
        raise ValueError("malformed actions record (not written by encode_actions)")
    return [int(x) for x in np.frombuffer(blob[1:], dtype="<u1" if blob[0] == 1 else "<u2")]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


_SQLITE_MAGIC = b"SQLite format 3\x00"


def _check_file(path: Path) -> None:
    """ValueError when `path` exists and is not an SQLite file (an empty file is fine)."""
    if path.is_dir():
        raise ValueError(f"{path} is a directory, not an SQLite results file")
    if path.exists():
        try:
            with open(path, "rb") as f:
                head = f.read(len(_SQLITE_MAGIC))
        except OSError as e:
            raise ValueError(f"{path}: cannot read it ({e.strerror or e})") from None
        if head and head != _SQLITE_MAGIC:
            raise ValueError(f"{path} is not an SQLite database (a file of another kind)")


_RUN_EXTRA = ("run.seating AS run_seating, run.agent_kwargs AS run_agent_kwargs, "
              "run.agents AS run_agents")


def _decoded(row) -> dict:
    """A game row as a dict: JSON columns decoded, `actions` as a list (or None, also
    for a file of an older schema that has no such column)."""
    d = dict(row)
    for c in (*_JSON_COLUMNS, "run_agent_kwargs", "run_agents"):
        if c in d:
            d[c] = json.loads(d[c])
    d["actions"] = decode_actions(d.get("actions"))
    return d


class Store:
    """A results database (one SQLite file); use as a context manager or call close()."""

    def __init__(self, path: str | Path, *, readonly: bool = False):
        """Open (creating if needed) the results file at `path`.

        Anything that is not a tradewinds results file — another kind of file, a directory,
        an SQLite database with other tables, an unwritable place — raises ValueError with
        a one-line reason before anything is written to it.
        """
        self.path = Path(path)
        self.con = None
        try:
            if readonly:
                self.con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)
                self._check_ours()
            else:
                _check_file(self.path)
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise ValueError(f"{self.path}: cannot create its directory "
                                     f"{self.path.parent} ({e.strerror or e})") from None
                self.con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                self._check_ours()
                self.con.execute("PRAGMA journal_mode=WAL")
                # NORMAL in WAL mode: a process crash loses nothing committed; only a power
                # cut can lose the last commits, and the file stays consistent either way.
                self.con.execute("PRAGMA synchronous=NORMAL")
                version = self.con.execute("PRAGMA user_version").fetchone()[0]
                while version in _UPGRADES:
                    self.con.execute(_UPGRADES[version])
                    version += 1
                if version not in (0, SCHEMA_VERSION):
                    raise ValueError(f"{self.path}: results schema version {version}, "
                                     f"this tradewinds writes {SCHEMA_VERSION}")
                self.con.executescript(_SCHEMA)
                self.con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (ValueError, sqlite3.Error, OSError) as e:
            if self.con is not None:
                self.con.close()
            if isinstance(e, ValueError):
                raise
            what = "read" if readonly else "write"
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise ValueError(f"{self.path}: cannot {what} a results database here "
                             f"({reason})") from None
        self.con.row_factory = sqlite3.Row

    def _check_ours(self) -> None:
        """ValueError unless the database holds nothing but our tables (or nothing)."""
        tables = {r[0]: r[1] for r in self.con.execute(
            "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite_%'")}
        foreign = sorted(set(tables) - {"run", "game"})
        if foreign:
            raise ValueError(f"{self.path} is an SQLite database of something else (tables: "
                             f"{', '.join(foreign[:5])}{', ...' if len(foreign) > 5 else ''}),"
                             f" not a tradewinds results file")
        for name, columns in (("run", RUN_COLUMNS), ("game", GAME_COLUMNS)):
            if name in tables:
                have = tuple(r[1] for r in self.con.execute(f"PRAGMA table_info({name})"))
                older = name == "game" and have in (columns[:-2], columns[:-1])
                if have != columns and not older:
                    raise ValueError(f"{self.path}: its table {name!r} has other columns "
                                     f"than a tradewinds results file")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ----------------------------------------------------------------------- runs
    def run_id(self, identity: dict, versions: dict) -> int:
        """The id of the run with this identity, created if new.

        `identity` must hold game, num_players, options, agents, agent_kwargs, seating,
        base_seed, path; its canonical JSON is the run key.
        """
        found = self.find_run(identity)
        if found is not None:
            return found
        key = canonical_json(identity)
        self.con.execute(
            "INSERT OR IGNORE INTO run (key, game, num_players, options, agents, agent_kwargs,"
            " seating, base_seed, path, created, versions) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (key, identity["game"], int(identity["num_players"]),
             canonical_json(identity["options"]), canonical_json(list(identity["agents"])),
             canonical_json(identity["agent_kwargs"]), identity["seating"],
             int(identity["base_seed"]), identity["path"], _now(), canonical_json(versions)))
        return self.find_run(identity)

    def find_run(self, identity: dict) -> int | None:
        """The id of the run with this identity, None if there is none (creates nothing)."""
        row = self.con.execute("SELECT run_id FROM run WHERE key = ?",
                               (canonical_json(identity),)).fetchone()
        return None if row is None else int(row[0])

    def runs(self) -> list[dict]:
        """Every run, with its number of recorded games, oldest first."""
        rows = self.con.execute(
            "SELECT run.*, (SELECT count(*) FROM game g WHERE g.run_id = run.run_id) AS games "
            "FROM run ORDER BY run_id").fetchall()
        out = []
        for r in rows:
            d = dict(r)
            for c in ("options", "agents", "agent_kwargs", "versions"):
                d[c] = json.loads(d[c])
            out.append(d)
        return out

    # ---------------------------------------------------------------------- games
    def add_games(self, run_id: int, rows: Iterable[dict]) -> int:
        """Insert finished games in one transaction; returns how many were new.

        A row whose (run_id, seed) is already stored is ignored, so replaying or resuming
        can never count a game twice.
        """
        finished = _now()
        shared: dict = {}    # rows of one chunk share their options and versions objects

        def enc(obj):
            key = id(obj)
            if key not in shared:
                shared[key] = (obj, canonical_json(obj))
            return shared[key][1]

        values = []
        for r in rows:
            values.append((
                run_id, int(r["game_index"]), int(r["seed"]), r["game"], int(r["num_players"]),
                enc(r["options"]),
                *(canonical_json(r[c]) for c in ("agents", "turn_order", "scores", "winners")),
                int(r["steps"]), int(bool(r["truncated"])), float(r["duration"]), r["path"],
                enc(r["versions"]), finished,
                None if r.get("rounds") is None else int(r["rounds"]),
                None if r.get("actions") is None else encode_actions(r["actions"])))
        if not values:
            return 0
        before = self.con.total_changes
        self.con.execute("BEGIN IMMEDIATE")
        try:
            self.con.executemany(
                f"INSERT OR IGNORE INTO game ({', '.join(GAME_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})", values)
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        self.con.execute("COMMIT")
        return self.con.total_changes - before

    def done_indices(self, run_id: int, lo: int = 0, hi: int | None = None) -> set[int]:
        """The game indices of the run already stored (those in [lo, hi), if given)."""
        q, args = "SELECT game_index FROM game WHERE run_id = ? AND game_index >= ?", \
            (run_id, lo)
        if hi is not None:
            q, args = q + " AND game_index < ?", args + (hi,)
        return {int(r[0]) for r in self.con.execute(q, args)}

    def count(self, run_id: int, below: int | None = None) -> int:
        """Stored games of the run (with game_index < below, if given)."""
        if below is None:
            q, args = "SELECT count(*) FROM game WHERE run_id = ?", (run_id,)
        else:
            q, args = ("SELECT count(*) FROM game WHERE run_id = ? AND game_index < ?",
                       (run_id, below))
        return int(self.con.execute(q, args).fetchone()[0])

    def games(self, run_id: int, below: int | None = None) -> list[dict]:
        """The run's games (game_index < below, if given) ordered by game_index; JSON columns
        decoded."""
        q = "SELECT * FROM game WHERE run_id = ?"
        args: tuple = (run_id,)
        if below is not None:
            q += " AND game_index < ?"
            args += (below,)
        return [_decoded(r) for r in self.con.execute(q + " ORDER BY game_index", args)]

    def game(self, game_id: int) -> dict:
        """The game row with SQLite rowid `game_id` (as `game_id`), its run's seating,
        agent kwargs and line-up beside it (`run_seating`, `run_agent_kwargs`,
        `run_agents`); ValueError naming the id when there is none."""
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise ValueError(f"game id must be an integer, got {game_id!r}")
        row = self.con.execute(
            f"SELECT game.rowid AS game_id, game.*, {_RUN_EXTRA} FROM game JOIN run "
            "USING (run_id) WHERE game.rowid = ?", (game_id,)).fetchone()
        if row is None:
            raise ValueError(f"{self.path}: no game with id {game_id}")
        return _decoded(row)

    def find_games(self, *, run_id: int | None = None, game: str | None = None,
                   agent: str | None = None, winner: str | None = None,
                   truncated: bool | None = None, limit: int = 100,
                   offset: int = 0) -> list[dict]:
        """Game rows (with `game_id`), newest first, filtered by run, game name, an agent
        that played (exact registered name), the name of an agent that won, and whether
        the round cap stopped the game."""
        where, args = [], []
        for column, value in (("game.run_id", run_id), ("game.game", game)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        for column, value in (("game.agents", agent), ("game.winners", winner)):
            if value is not None:
                where.append(f"EXISTS (SELECT 1 FROM json_each({column}) j WHERE j.value = ?)"
                             if column == "game.agents" else
                             "EXISTS (SELECT 1 FROM json_each(game.winners) w "
                             "WHERE json_extract(game.agents, '$[' || w.value || ']') = ?)")
                args.append(value)
        if truncated is not None:
            where.append("game.truncated = ?")
            args.append(int(bool(truncated)))
        q = (f"SELECT game.rowid AS game_id, game.*, {_RUN_EXTRA} FROM game JOIN run "
             f"USING (run_id){' WHERE ' + ' AND '.join(where) if where else ''} "
             "ORDER BY game.rowid DESC LIMIT ? OFFSET ?")
        return [_decoded(r) for r in self.con.execute(q, (*args, int(limit), int(offset)))]

    def integrity_check(self) -> str:
        """SQLite's own check: 'ok' for a sound file."""
        return str(self.con.execute("PRAGMA integrity_check").fetchone()[0])
