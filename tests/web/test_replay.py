"""Stored games replay exactly: recorded actions, kernel playouts re-run from the seed,
agents re-played for older stores; a replay that does not give the stored result says so;
`tradewinds replay` prints the game and checks it."""

import io
import sqlite3
from argparse import Namespace

import pytest

from tradewinds.store import SCHEMA_VERSION, Store, decode_actions, encode_actions
from tradewinds.studies import arena
from tradewinds.web import cli, replay


def _store(tmp_path, game, agents, games=2, fast=True):
    path = tmp_path / "r.sqlite"
    with Store(path) as st:
        arena.run(arena.Study.create(game, 2, agents, fast=fast), st, games)
    return path


@pytest.mark.parametrize("game", ["hansa", "voyage"])
@pytest.mark.parametrize("agents", ["random", "heuristic"])
def test_kernel_games_replay_from_their_seed(tmp_path, game, agents):
    with Store(_store(tmp_path, game, agents)) as st:
        rows = st.find_games()
        assert rows and all(r["path"] == "kernel" and r["actions"] is None for r in rows)
        for r in rows:
            rep = replay.replay(st.game(r["game_id"]))
            assert rep.how == "kernel seed" and rep.matches
            assert len(rep.actions) == r["steps"]


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_python_games_record_their_actions(tmp_path, game):
    with Store(_store(tmp_path, game, "heuristic,random")) as st:
        for r in st.find_games():
            assert r["path"] == "python" and len(r["actions"]) == r["steps"]
            rep = replay.replay(st.game(r["game_id"]))
            assert rep.how == "recorded" and rep.matches


def test_older_store_replays_by_playing_the_agents_again(tmp_path):
    path = _store(tmp_path, "hansa", "heuristic,random")
    con = sqlite3.connect(path)          # as schema 2 wrote it: no actions column
    con.executescript("ALTER TABLE game DROP COLUMN actions; PRAGMA user_version=2;")
    con.close()
    with Store(path, readonly=True) as st:
        rows = st.find_games()
        assert all(r["actions"] is None for r in rows)
        for r in rows:
            rep = replay.replay(st.game(r["game_id"]))
            assert rep.how == "agents from seed" and rep.matches
    with Store(path) as st:                # upgraded in place, its games kept
        assert st.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert len(st.find_games()) == 2


def test_a_replay_that_differs_from_the_stored_result_is_caught(tmp_path):
    path = _store(tmp_path, "hansa", "heuristic,random", games=1)
    with Store(path) as st:
        st.con.execute("UPDATE game SET scores = '[1,2]'")
        row = st.game(st.find_games()[0]["game_id"])
    with pytest.raises(replay.ReplayMismatch, match="does not replay"):
        replay.replay(row)
    assert not replay.replay(row, check=False).matches


def test_actions_encoding_round_trips_and_refuses_junk():
    assert decode_actions(encode_actions([0, 5, 255])) == [0, 5, 255]
    assert decode_actions(encode_actions([300, 1])) == [300, 1]
    assert decode_actions(encode_actions([])) == []
    assert decode_actions(None) is None
    assert len(encode_actions(range(100))) == 101          # one byte per action
    with pytest.raises(ValueError, match="0..65535"):
        encode_actions([-1])
    with pytest.raises(ValueError, match="malformed"):
        decode_actions(b"\x02\x01")


def test_find_games_filters(tmp_path):
    path = _store(tmp_path, "hansa", "heuristic,random", games=6)
    with Store(path) as st:
        rows = st.find_games()
        assert len(rows) == 6
        won_by_h = st.find_games(winner="heuristic")
        assert won_by_h and all(r["agents"][w] == "heuristic" for r in won_by_h
                                for w in r["winners"][:1])
        assert len(st.find_games(agent="random")) == 6
        assert st.find_games(agent="mcts:5") == []
        assert st.find_games(game="voyage") == []
        assert len(st.find_games(truncated=False)) == 6
        assert len(st.find_games(limit=2)) == 2
        with pytest.raises(ValueError, match="no game with id 999"):
            st.game(999)


def test_replay_command_prints_the_moves_and_checks(tmp_path):
    path = _store(tmp_path, "hansa", "heuristic", games=1)
    with Store(path) as st:
        gid = st.find_games()[0]["game_id"]
        steps = st.game(gid)["steps"]
    out = io.StringIO()
    assert cli.replay(Namespace(db=str(path), game_id=gid, boards=False), out=out) == 0
    text = out.getvalue()
    assert "moves from kernel seed" in text and "the same game" in text
    assert f"{steps:4d}  player_" in text
    with Store(path) as st:
        st.con.execute("UPDATE game SET scores = '[0,0]'")
    out = io.StringIO()
    assert cli.replay(Namespace(db=str(path), game_id=gid, boards=False), out=out) == 1
    assert "NOT the stored game" in out.getvalue()
    with pytest.raises(ValueError, match="no game with id 77"):
        cli.replay(Namespace(db=str(path), game_id=77, boards=False), out=io.StringIO())
