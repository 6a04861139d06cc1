"""benchmarks/agents.py strength reports: a run of some pairings updates the report."""

import json

from benchmarks import agents as bench


def _row(game, n, a, b, rate):
    return {"game": game, "players": n, "agent": a, "opponent": b, "win_rate": rate}


def test_merge_rows_replaces_the_same_pairing_and_keeps_the_rest():
    old = [_row("hansa", 2, "mcts:400", "heuristic", 0.7),
           _row("hansa", 3, "mcts:400", "heuristic", 0.4)]
    new = [_row("hansa", 3, "mcts:400", "heuristic", 0.5),
           _row("voyage", 2, "mcts:400", "heuristic", 0.6)]
    out = bench.merge_rows(old, new)
    assert [r["win_rate"] for r in out] == [0.7, 0.5, 0.6]
    assert old[1]["win_rate"] == 0.4                      # the old list is left alone


def test_strength_run_adds_its_row_to_an_existing_report(tmp_path):
    out = tmp_path / "strength.json"
    kept = _row("voyage", 2, "mcts:400", "heuristic", 0.6) | {
        "games": 400, "wilson95": [0.55, 0.65], "fair_share": 0.5, "truncated": 0}
    out.write_text(json.dumps({"rows": [kept]}))
    assert bench.main(["strength", "--game", "hansa", "--pairings", "heuristic-random",
                       "--games", "2", "--workers", "1", "--db", str(tmp_path / "s.sqlite"),
                       "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert rows[0] == kept
    assert (rows[1]["game"], rows[1]["agent"], rows[1]["games"]) == ("hansa", "heuristic", 2)
    assert rows[1]["seconds_per_game"] > 0
    assert "| voyage | 2 | mcts:400 |" in out.with_suffix(".md").read_text()
