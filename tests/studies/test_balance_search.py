"""The balancing-value search (studies/balance_search.py) on a synthetic game whose answer
is known, its arena-backed resume, and `tradewinds balance`'s errors and outputs."""

import json
import math

import numpy as np
import pytest

from tradewinds.cli.main import main
from tradewinds.store import Store
from tradewinds.studies import balance_search as bs


def synthetic(a: float, b: float, seed: int = 1):
    """play(k, games): seat 1 wins game i when u_i < logistic(a - b k), u_i drawn from
    the seed (the same u_i at every k: common random numbers, as the arena's seeds)."""
    def play(k, games):
        u = np.random.default_rng(seed).random(games)
        return (u < 1 / (1 + math.exp(-(a - b * k)))).astype(float)
    return play


def known_crossing(a: float, b: float, n: int) -> float:
    return (a - math.log(1 / (n - 1))) / b


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_interval_covers_the_known_value_and_is_narrow(seed):
    a, b, n = 1.0, 0.4, 4
    r = bs.search(synthetic(a, b, seed), n, 0, 10, games_per_probe=400, batch=50,
                  max_games=4000, n_boot=500)
    k = known_crossing(a, b, n)
    assert r.status == bs.FOUND and r.value is not None
    lo, hi = r.ci95
    assert lo <= k <= hi and hi - lo < 2.0, (k, r.ci95)
    assert abs(r.value - k) < 1.0
    assert r.games <= 4000 and sorted({p.knob for p in r.probes})[:1] == [0]


def test_the_interval_covers_the_known_value_at_about_its_level():
    a, b, n = 2.0, 0.5, 2
    k = known_crossing(a, b, n)
    hits = []
    for seed in range(20):
        r = bs.search(synthetic(a, b, seed), n, 0, 10, games_per_probe=300, batch=50,
                      max_games=3000, n_boot=300)
        hits.append(r.ci95[0] <= k <= r.ci95[1])
    assert sum(hits) >= 16, hits


def test_the_search_is_a_deterministic_function_of_the_games():
    one = bs.search(synthetic(1.0, 0.4), 4, 0, 10, n_boot=200).summary()
    two = bs.search(synthetic(1.0, 0.4), 4, 0, 10, n_boot=200).summary()
    assert one == two


def test_not_reached_within_the_range():
    r = bs.search(synthetic(3.0, 0.1), 4, 0, 10, games_per_probe=200, n_boot=100)
    assert r.status == bs.NOT_REACHED and r.value is None
    assert [p.knob for p in r.probes] == [0, 10] and r.probes[1].verdict == bs.ABOVE


def test_the_value_line_names_the_range():
    from tradewinds.studies.balance_study import value_line

    r = bs.search(synthetic(3.0, 0.1), 4, 0, 10, games_per_probe=200, n_boot=100)
    assert value_line(r.summary()) == ("balancing value: not reached within [0, 10]: seat 1 "
                                       "still above its fair share at hi")
    r = bs.search(synthetic(1.0, 0.4), 4, 0, 5, games_per_probe=100, n_boot=100)
    assert r.status == bs.FOUND and r.value > 5
    assert "outside [0, 5]: extrapolated" in value_line(r.summary())


def test_already_below_at_lo():
    r = bs.search(synthetic(-3.0, 0.1), 2, 0, 10, n_boot=100)
    assert r.status == bs.BELOW_AT_LO and r.value is None


def test_the_budget_is_kept():
    r = bs.search(synthetic(1.0, 0.4), 4, 0, 10, games_per_probe=400, batch=50,
                  max_games=300, n_boot=100)
    assert r.games <= 300
    r = bs.search(synthetic(1.0, 0.4), 4, 0, 10, games_per_probe=50, batch=50,
                  max_games=60, n_boot=100)
    assert r.status == bs.NO_BUDGET and r.value is None and r.games == 50


def test_knobs_and_schedules():
    assert bs.schedule(3, 4) == (0, 3, 6, 9) and bs.schedule(0, 2) == (0, 0)
    assert bs.knob_options("voyage", "seat_cards", 2, 3, {"x": 1}) == {
        "x": 1, "seat_cards": (0, 2, 4)}
    with pytest.raises(ValueError, match="hansa has no knob 'seat_cards'"):
        bs.knob_option("hansa", "seat_cards")
    with pytest.raises(ValueError, match="unknown knob 'speed'; voyage's knobs: seat_cards"):
        bs.knob_option("voyage", "speed")
    with pytest.raises(ValueError, match="lo < hi"):
        bs.search(synthetic(1, 1), 2, 3, 3)


def test_arena_search_resumes_from_the_store(tmp_path):
    db = tmp_path / "b.sqlite"
    kw = dict(games_per_probe=40, batch=20, max_games=120, n_boot=100)
    with Store(db) as store:
        play = bs.ArenaPlay("hansa", 2, "random", "seat_vp", store)
        first = bs.search(play, 2, 0, 4, **kw).summary()
        assert play.played == first["games"] > 0
    with Store(db) as store:
        again = bs.ArenaPlay("hansa", 2, "random", "seat_vp", store)
        second = bs.search(again, 2, 0, 4, **kw).summary()
        assert again.played == 0
        runs = store.runs()
    assert second == first
    assert {tuple(r["options"]["seat_vp"]) for r in runs} == {
        bs.schedule(p["knob"], 2) for p in first["probes"]}


def test_cli_end_to_end_and_resume(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    db = tmp_path / "balance.sqlite"
    argv = ["balance", "hansa", "--players", "2", "--agent", "random", "--hi", "4",
            "--games-per-probe", "40", "--batch", "20", "--max-games", "120",
            "--db", str(db), "--workers", "1", "--no-progress", "--n-boot", "100"]
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "seat 1 share" in out and "95% CI (Wilson)" in out and "balancing value" in out
    stem = tmp_path / "balance_hansa_random_2p_seat_vp"
    assert stem.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rep = json.loads(stem.with_suffix(".json").read_text())
    assert rep["knob"] == "seat_vp" and rep["fair"] == 0.5 and rep["games"] <= 120
    assert rep["played_now"] == rep["games"]
    assert main(argv + ["--out", str(tmp_path / "again")]) == 0
    assert "0 games played now" in capsys.readouterr().out
    again = json.loads((tmp_path / "again" / stem.with_suffix(".json").name).read_text())
    assert again["probes"] == rep["probes"] and again["value"] == rep["value"]
    assert again["ci95"] == rep["ci95"]


@pytest.mark.parametrize("extra, needle", [
    (["--knob", "speed"], "unknown knob 'speed'; hansa's knobs: seat_talers, seat_vp"),
    (["--knob", "seat_cards"], "hansa has no knob 'seat_cards'"),
    (["--lo", "5", "--hi", "5"], "--lo must be below --hi, got lo=5, hi=5"),
    (["--players", "5"], "2 to 4 players"),
    (["--players", "4", "--hi", "400"], "seat_vp[3]=1200 must be in 0..1000"),
    (["--batch", "300"], "--batch 300 exceeds --games-per-probe 200"),
])
def test_cli_errors_are_one_line(tmp_path, capsys, extra, needle):
    argv = ["balance", "hansa", "--db", str(tmp_path / "x.sqlite"), "--no-progress", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tradewinds balance: error: "), err
    assert needle in err, err
    assert not (tmp_path / "x.sqlite").exists()
