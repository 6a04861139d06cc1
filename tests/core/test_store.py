"""Results store: schema, run identity, insert-or-ignore, ordering, read-only access."""

import sqlite3

import pytest

from tradewinds.store import GAME_COLUMNS, SCHEMA_VERSION, Store

IDENTITY = {"game": "hansa", "num_players": 2, "options": {"build_rule": "barrels"},
            "agents": ["random", "random"], "agent_kwargs": {}, "seating": "fixed",
            "base_seed": 0, "path": "kernel"}
VERSIONS = {"tradewinds": "0", "numba": "0", "numpy": "0", "python": "3"}


def row(i, winners=(0,), scores=(10, 7)):
    return {"game_index": i, "seed": 100 + i, "game": "hansa", "num_players": 2,
            "options": {"build_rule": "barrels"}, "agents": ["random", "random"],
            "turn_order": [0, 1], "scores": list(scores), "winners": list(winners),
            "steps": 50 + i, "truncated": False, "duration": 0.001 * i, "path": "kernel",
            "versions": VERSIONS}


def test_schema_wal_and_version(tmp_path):
    path = tmp_path / "sub" / "r.sqlite"
    with Store(path) as s:
        assert path.exists()
        assert s.con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        cols = [r[1] for r in s.con.execute("PRAGMA table_info(game)")]
        assert tuple(cols) == GAME_COLUMNS
        assert s.integrity_check() == "ok"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=99")
    con.close()
    with pytest.raises(ValueError, match="schema version 99"):
        Store(path)


def test_run_identity_is_stable_and_distinct(tmp_path):
    with Store(tmp_path / "r.sqlite") as s:
        a = s.run_id(IDENTITY, VERSIONS)
        assert s.run_id(dict(reversed(list(IDENTITY.items()))), {"other": 1}) == a
        b = s.run_id({**IDENTITY, "base_seed": 1}, VERSIONS)
        c = s.run_id({**IDENTITY, "path": "python"}, VERSIONS)
        assert len({a, b, c}) == 3
    with Store(tmp_path / "r.sqlite") as s:           # reopened: same ids
        assert s.run_id(IDENTITY, VERSIONS) == a
        runs = s.runs()
        assert [r["run_id"] for r in runs] == [a, b, c]
        assert runs[0]["agents"] == ["random", "random"] and runs[0]["games"] == 0


def test_insert_or_ignore_never_double_counts(tmp_path):
    with Store(tmp_path / "r.sqlite") as s:
        rid = s.run_id(IDENTITY, VERSIONS)
        assert s.add_games(rid, [row(i) for i in range(5)]) == 5
        assert s.add_games(rid, [row(i, winners=(1,)) for i in range(3, 8)]) == 3
        assert s.count(rid) == 8
        assert s.done_indices(rid) == set(range(8))
        games = s.games(rid)
        assert [g["game_index"] for g in games] == list(range(8))
        assert games[3]["winners"] == [0]              # the first write of seed 103 is kept
        assert games[6]["winners"] == [1]
        assert s.add_games(rid, []) == 0
        other = s.run_id({**IDENTITY, "base_seed": 7}, VERSIONS)
        assert s.add_games(other, [row(0)]) == 1       # same seed, other run: its own row
        assert s.count(rid) == 8 and s.count(other) == 1


def test_rows_round_trip_and_filters(tmp_path):
    with Store(tmp_path / "r.sqlite") as s:
        rid = s.run_id(IDENTITY, VERSIONS)
        s.add_games(rid, [row(i, winners=(0, 1), scores=(9, 9)) for i in (4, 0, 2, 1, 3)])
        g = s.games(rid, below=3)
        assert [x["game_index"] for x in g] == [0, 1, 2]
        assert s.count(rid, below=3) == 3
        x = g[2]
        assert x["seed"] == 102 and x["scores"] == [9, 9] and x["winners"] == [0, 1]
        assert x["agents"] == ["random", "random"] and x["turn_order"] == [0, 1]
        assert x["options"] == {"build_rule": "barrels"} and x["versions"] == VERSIONS
        assert x["truncated"] == 0 and x["steps"] == 52 and x["path"] == "kernel"
        assert x["duration"] == pytest.approx(0.002) and x["finished"].endswith("Z")


def test_failed_batch_is_rolled_back(tmp_path):
    with Store(tmp_path / "r.sqlite") as s:
        rid = s.run_id(IDENTITY, VERSIONS)
        bad = [row(0), {**row(1), "steps": "not a number"}]
        with pytest.raises(ValueError):
            s.add_games(rid, bad)
        assert s.count(rid) == 0                       # nothing of the batch was kept
        assert s.add_games(rid, [row(0)]) == 1


def test_readonly_reader_sees_committed_rows_while_writer_is_open(tmp_path):
    path = tmp_path / "r.sqlite"
    with Store(path) as w:
        rid = w.run_id(IDENTITY, VERSIONS)
        w.add_games(rid, [row(i) for i in range(3)])
        with Store(path, readonly=True) as r:
            assert r.count(rid) == 3
            with pytest.raises(sqlite3.OperationalError):
                r.con.execute("DELETE FROM game")


def test_schema_1_file_is_upgraded_and_keeps_its_games(tmp_path):
    """A results file written before game.rounds existed opens, gains the column (NULL for
    its old games) and resumes; new games store their rounds."""
    path = tmp_path / "old.sqlite"
    with Store(path) as s:
        rid = s.run_id(IDENTITY, VERSIONS)
        s.add_games(rid, [row(0)])
    con = sqlite3.connect(path)        # rebuild the file as schema 1 wrote it
    con.executescript("ALTER TABLE game DROP COLUMN actions; ALTER TABLE game DROP COLUMN rounds;"
                      " PRAGMA user_version=1;")
    con.close()
    with Store(path, readonly=True) as s:             # readable as it is
        assert s.games(rid)[0]["steps"] == 50
    with Store(path) as s:
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert tuple(r[1] for r in s.con.execute("PRAGMA table_info(game)")) == GAME_COLUMNS
        assert s.add_games(rid, [row(0), {**row(1), "rounds": 12}]) == 1
        assert [g["rounds"] for g in s.games(rid)] == [None, 12]
