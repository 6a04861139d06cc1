"""Smoke test for the peer throughput benchmark (structure only, no timing thresholds)."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("pyspiel")

from tradewinds.benchmarks import peers, timing  # noqa: E402 - after the importorskip


def _positive(x) -> bool:
    return isinstance(x, int | float) and math.isfinite(x) and x > 0


@pytest.fixture(scope="module")
def quick_rows():
    return peers.run_all(quick=True, repeats=1, min_time=0.01)


def test_measure_structure():
    calls = []

    def work():
        calls.append(1)
        return {"steps": 10, "games": 2, "chance_steps": 3}

    res = timing.measure(work, repeats=3, min_time=0.0, warmup=0.0)
    assert res["repeats"] == 3 and len(res["runs"]) == 3 and len(calls) == 3
    assert res["steps"] == 30 and res["games"] == 6 and res["chance_steps"] == 9
    assert res["steps_per_game"] == 5.0
    for key in ("steps_per_s", "games_per_s", "chance_steps_per_s", "median_s", "peak_rss_mb"):
        assert _positive(res[key]), key
    # tuple form
    res = timing.measure(lambda: (4, 1), repeats=1, min_time=0.0, warmup=0.0)
    assert res["steps"] == 4 and res["games"] == 1


def test_all_peers_quick(quick_rows):
    names = [r["name"] for r in quick_rows]
    expected = len(peers.PETTINGZOO_ENVS) + 2 * len(peers.OPENSPIEL_GAMES)
    assert len(names) == expected == len(set(names))
    for row in quick_rows:
        for key in peers.ROW_KEYS:
            assert key in row, (row["name"], key)
        if not row["available"]:
            # only PettingZoo rows may be skipped here (pyspiel is importable)
            assert row["peer"] == "pettingzoo-aec", row
            assert row["notes"].startswith("skipped"), row
            continue
        for key in ("steps_per_s", "games_per_s", "steps_per_game", "peak_rss_mb"):
            assert _positive(row[key]), (row["name"], key, row[key])
        assert row["steps_per_s_min"] <= row["steps_per_s"] <= row["steps_per_s_max"]
        assert row["chance"] and row["timing"]["runs"]
        assert row["chance_per_game"] is None or row["chance_per_game"] >= 0


def test_openspiel_rows(quick_rows):
    by_name = {r["name"]: r for r in quick_rows}
    for game in peers.OPENSPIEL_GAMES:
        py_row = by_name[f"openspiel-py/{game}"]
        cpp_row = by_name[f"openspiel-cpp/{game}"]
        assert py_row["available"] and cpp_row["available"]
        # the C++ row converts games/s with the Python loop's decisions/game
        assert cpp_row["steps_per_game"] == py_row["steps_per_game"]
        assert _positive(cpp_row["decisions_per_game_check"])
    # chance events are counted separately from decisions
    assert by_name["openspiel-py/hearts"]["chance_per_game"] > 0
    assert by_name["openspiel-py/backgammon"]["chance_per_game"] > 0
    assert by_name["openspiel-py/connect_four"]["chance_per_game"] == 0


def test_missing_peer_is_skipped_not_raised():
    row = peers.openspiel_python("no_such_game_xyz", quick=True)
    assert row["available"] is False and row["notes"].startswith("skipped")
    row = peers.pettingzoo_aec("no_such_env_v0", quick=True)
    assert row["available"] is False and row["steps_per_s"] is None
    assert "no_such_env_v0" in peers.format_table([row])


def test_main_table_and_json(tmp_path, capsys):
    out = tmp_path / "peers.json"
    rc = peers.main(
        [
            "--quick",
            "--repeats",
            "1",
            "--min-time",
            "0.01",
            "--only",
            "connect_four",
            "--json",
            str(out),
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "| name |" in text and "openspiel-cpp/connect_four" in text
    payload = json.loads(out.read_text())
    assert {"environment", "settings", "rows"} <= payload.keys()
    assert {r["name"] for r in payload["rows"]} >= {
        "openspiel-py/connect_four",
        "openspiel-cpp/connect_four",
    }
