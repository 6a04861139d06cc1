"""The strength sweep (studies.sweep): mirrored seeds, resume, outputs, CLI, and the
deprecated `tradewinds ladder` alias."""

import json

import pytest

from tradewinds.cli.main import main
from tradewinds.store import Store
from tradewinds.studies.sweep import SweepConfig, parse_levels, run_sweep


def test_parse_levels():
    assert parse_levels("random, heuristic") == ["random", "heuristic"]
    with pytest.raises(ValueError, match="twice"):
        parse_levels("random,random")
    with pytest.raises(ValueError, match="at least one"):
        parse_levels(" , ")


def test_tiny_sweep_end_to_end_mirrors_seeds_and_resumes(tmp_path):
    cfg = dict(game="hansa", levels="random,heuristic", players="2,3", games=6,
               db=tmp_path / "l.sqlite", workers=1, progress=False, n_boot=100)
    rep = run_sweep(SweepConfig(**cfg))
    assert [(r["num_players"], r["level"]) for r in rep["rows"]] == [
        (2, "random"), (2, "heuristic"), (3, "random"), (3, "heuristic")]
    assert all(r["games"] == 6 and 0 <= r["balance"] <= 1 for r in rep["rows"])
    with Store(tmp_path / "l.sqlite") as store:
        runs = store.runs()
        assert len(runs) == 4
        for n in (2, 3):
            seeds = [[g["seed"] for g in store.games(r["run_id"])]
                     for r in runs if r["num_players"] == n]
            assert seeds[0] == seeds[1] == list(range(6))     # mirrored across levels
            setups = {json.dumps(g["turn_order"]) for r in runs if r["num_players"] == n
                      for g in store.games(r["run_id"])[:1]}
            assert len(setups) == 1
    # resumed with more games: only the new ones are played, the first six are kept
    again = run_sweep(SweepConfig(**{**cfg, "games": 8}))
    assert sum(s["played_now"] for s in again["studies"]) == 4 * 2
    assert all(s["already_stored"] == 6 for s in again["studies"])
    assert (tmp_path / "sweep_hansa_2-3p.png").read_bytes()[:4] == b"\x89PNG"
    md = (tmp_path / "sweep_hansa_2-3p.md").read_text()
    assert md.count("| heuristic |") == 2


def test_cli_sweep_and_its_errors(tmp_path, capsys):
    base = ["sweep", "hansa", "--db", str(tmp_path / "x.sqlite"), "--no-progress",
            "--workers", "1", "--n-boot", "50"]
    assert main(base + ["--levels", "random,nope"]) == 2
    assert "unknown agent 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite").exists()
    assert main(base + ["--levels", "random", "--players", "2", "--games", "4"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "seat 1 advantage by playing strength" in out and "4 games played now" in out


def test_the_deprecated_ladder_alias_notes_the_new_name_and_runs_the_sweep(tmp_path, capsys):
    from tradewinds.cli.ladder import NOTE

    assert main(["ladder", "--help"]) == 0
    assert "Deprecated" in " ".join(capsys.readouterr().out.split())
    db = tmp_path / "x.sqlite"
    args = ["hansa", "--db", str(db), "--no-progress", "--workers", "1", "--n-boot", "50",
            "--levels", "random", "--players", "2", "--games", "2", "--out", str(tmp_path)]
    assert main(["ladder", *args]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [NOTE] and "tradewinds sweep" in NOTE
    assert "2 games played now" in " ".join(captured.out.split())
    assert (tmp_path / "sweep_hansa_2p.json").exists()
    assert main(["sweep", *args]) == 0                 # the same study: resumed, not replayed
    captured = capsys.readouterr()
    assert captured.err == "" and "0 games played now" in " ".join(captured.out.split())
