"""The fpa study driver and CLI: win bookkeeping, statistics glue, SPRT stop, outputs."""

import json

import numpy as np
import pytest

from tradewinds import agents, stats
from tradewinds.cli.main import main
from tradewinds.store import Store
from tradewinds.studies import arena
from tradewinds.studies.fpa import (
    FpaConfig,
    SequentialStop,
    SprtConfig,
    markdown,
    parse_players,
    run_fpa,
    study_table,
    summarize_rows,
)


def test_parse_players():
    assert parse_players("2,3,4") == [2, 3, 4]
    assert parse_players("2-4") == [2, 3, 4]
    assert parse_players("3") == [3]
    assert parse_players(4) == [4]
    assert parse_players("3,3,2") == [3, 2]
    with pytest.raises(ValueError, match="--players"):
        parse_players("two")


def _row(i, winners, scores, agents_=("random", "random", "random")):
    return {"game_index": i, "winners": winners, "scores": scores, "agents": list(agents_),
            "steps": 10, "duration": 0.5, "truncated": i == 3, "turn_order": [0, 1, 2]}


def test_win_credit_and_summary_known_values():
    """Headline numbers use the games that ended by the rules (game 3 was truncated)."""
    rows = [_row(0, [0], [10, 5, 5]), _row(1, [1], [4, 9, 1]), _row(2, [0, 2], [7, 3, 7]),
            _row(3, [0], [8, 8, 2])]
    w = arena.wins_matrix(rows, 3)
    assert w.tolist() == [[1, 0, 0], [0, 1, 0], [0.5, 0, 0.5], [1, 0, 0]]
    study = arena.Study.create("hansa", 3, "random")
    s = summarize_rows(rows, study, n_boot=200)
    assert s["games"] == 3 and s["games_recorded"] == 4 and s["truncated"] == 1
    assert s["basis"] == "ended by the rules"
    assert [x["wins"] for x in s["seats"]] == [1.5, 1.0, 0.5]
    assert s["seats"][0]["win_rate"] == 0.5
    assert s["seats"][0]["mean_vp"] == pytest.approx(21 / 3)
    assert s["seats"][0]["ci95"] == pytest.approx(list(stats.wilson_interval(1.5, 3)))
    # seat 1 margins: 10-5, 4-9, 7-7
    assert s["margin_seat1"]["mean"] == pytest.approx(0.0)
    assert s["seats"][1]["mean_margin"] == pytest.approx((-5 + 5 - 4) / 3)
    assert s["binomial_seat1"]["successes"] == 2      # 1.5 rounds half up
    assert s["agents"]["random"] == {"seat_games": 9, "wins": 3.0, "win_rate": 1 / 3}
    assert s["seeds"] == [0, 3] and s["mean_steps"] == 10
    assert s["initial_turn_orders"] == [[0, 1, 2]]
    ended = rows[:3]
    ref = stats.summarize(arena.wins_matrix(ended, 3), arena.scores_matrix(ended, 3), 3,
                          n_boot=200, rng=0)
    for key in ("binomial_seat1", "chi_square", "sprt", "margin_seat1", "power"):
        assert s[key] == ref[key]
    b = s["balance"]
    assert b["completion"] == 0.75 and b["shared_wins"] == pytest.approx(1 / 3)
    assert b["balance"] == pytest.approx(1 - (0.5 - 1 / 6))


def test_all_truncated_falls_back_to_the_cap_scores_and_says_so():
    rows = [{**_row(i, [i % 3], [5, 5, 5]), "truncated": True} for i in range(6)]
    s = summarize_rows(rows, arena.Study.create("hansa", 3, "random"), n_boot=100)
    assert s["games"] == 6 and s["truncated"] == 6 and s["basis"].startswith("all games")
    assert s["balance"]["mostly_truncated"] and s["balance"]["completion"] == 0.0
    _, notes = study_table(s)
    assert any(n.startswith("MOST GAMES TRUNCATED") for n in notes)
    assert "(all: scored at cap)" in markdown([s])


def test_sequential_stop_matches_sprt_in_seed_order():
    rng = np.random.default_rng(3)
    winners = [[int(rng.random() < 0.7) ^ 1] for _ in range(400)]   # seat 0 wins ~70 %
    rows = [{"game_index": i, "winners": w} for i, w in enumerate(winners)]
    credits = [1.0 if w == [0] else 0.0 for w in winners]
    ref = stats.sprt(credits, 0.5, 0.05)
    stop = SequentialStop(2, 0.05, 0.05, 0.2)
    shuffled = [rows[i] for i in rng.permutation(len(rows))]
    fired = [stop(shuffled[k:k + 7]) for k in range(0, len(rows), 7)]
    assert fired[-1] and stop.sprt.result() == ref
    assert ref.decision == "accept_h1"


def test_sprt_stops_the_study_early_and_keeps_games(race, tmp_path):  # noqa: F811
    db = tmp_path / "r.sqlite"
    kw = dict(db=db, workers=1, chunk_size=10, sprt=SprtConfig(enabled=True), progress=False,
              n_boot=200, write_files=False)
    rep = run_fpa(FpaConfig("race", 2, "advance", 1000, **kw))  # seat 1 moves first: wins
    (s,) = rep["studies"]
    assert s["stopped_by_sprt"] and s["sprt"]["decision"] == "accept_h1"
    assert s["sprt"]["stopped_at"] == 30 and s["games"] == 30
    rep2 = run_fpa(FpaConfig("race", 2, "advance", 1000, **kw))  # resumed: already decided
    assert rep2["studies"][0]["played_now"] == 0 and rep2["studies"][0]["games"] == 30
    rep3 = run_fpa(FpaConfig("race", 2, "advance", 50, **{**kw, "sprt": SprtConfig()}))
    assert rep3["studies"][0]["games"] == 50 and rep3["studies"][0]["played_now"] == 20
    assert rep3["studies"][0]["seats"][0]["win_rate"] == 1.0


def test_cli_smoke_writes_json_png_and_prints_tables(tmp_path, capsys):
    db = tmp_path / "db" / "fpa.sqlite"
    argv = ["fpa", "hansa", "--players", "2,3", "--games", "200", "--db", str(db),
            "--workers", "1", "--no-progress", "--n-boot", "300"]
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "hansa, 2 players: 200 games" in out and "hansa, 3 players: 200 games" in out
    assert "95% CI (Wilson)" in out and "seat 1 exact binomial" in out
    assert "chi-square" in out and "bootstrap CI" in out and "needs about" in out
    assert "first-player (seat 1) advantage" in out
    jpath = db.parent / "fpa_hansa_random_2-3p.json"
    png = db.parent / "fpa_hansa_random_2-3p.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (db.parent / "fpa_hansa_random_2-3p.md").read_text()
    assert md.startswith("| players | games | truncated | seat 1 win rate")
    assert md.count("\n| 3 | ") == 4
    rep = json.loads(jpath.read_text())
    assert rep["players"] == [2, 3] and rep["games"] == 200
    assert [s["num_players"] for s in rep["studies"]] == [2, 3]
    s3 = rep["studies"][1]
    assert s3["games"] == 200 and len(s3["seats"]) == 3
    assert s3["study"]["path"] == "kernel" and s3["study"]["agents"] == ["random"] * 3
    assert sum(x["win_rate"] for x in s3["seats"]) == pytest.approx(1.0)
    with Store(db) as store:
        assert [r["games"] for r in store.runs()] == [200, 200]
    # rerun: nothing new is played, the same numbers come out
    assert main(argv + ["--out", str(tmp_path / "again")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "0 games played now" in out and "400 resumed" in out
    again = json.loads((tmp_path / "again" / jpath.name).read_text())
    assert again["studies"][1]["seats"] == s3["seats"]


def test_cli_errors_are_messages(tmp_path, capsys):
    base = ["fpa", "hansa", "--games", "5", "--db", str(tmp_path / "x.sqlite"), "--no-progress"]
    assert main(base + ["--agent", "nope"]) == 2
    assert "unknown agent 'nope'; known agents: " in capsys.readouterr().err
    assert main(base + ["--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
    assert main(base + ["--option", "speed=3"]) == 2
    assert "unknown hansa option" in capsys.readouterr().err
    assert main(["fpa", "chess", "--no-progress"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert "random" in agents.agent_names()


def test_demo_still_works(capsys):
    assert main(["demo", "hansa", "--players", "2", "--games", "20"]) == 0
    assert "win rate" in capsys.readouterr().out
