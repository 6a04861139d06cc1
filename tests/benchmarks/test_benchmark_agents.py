"""benchmarks/agents.py strength reports: a run of some pairings updates the report."""

import json

import pytest

from tradewinds.benchmarks import agents as bench


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


def test_the_control_replays_the_games_with_the_opponent_in_the_agents_seat(tmp_path):
    """An agent that plays exactly as its opponent has an edge of exactly 0 over the
    control: the control reproduces every game (same seeds, seats and seat generators),
    so the paired interval is (0, 0) whatever the luck of the seeds. A control that
    played other games would leave nonzero differences."""
    from tradewinds import agents
    from tradewinds.agents.heuristic import HeuristicAgent

    agents.register("twin", lambda game="hansa", **kw: HeuristicAgent(game), replace=True)
    try:
        row = bench.strength_row("voyage", "twin-heuristic", 3, 6,
                                 str(tmp_path / "s.sqlite"), workers=1)
    finally:
        agents.unregister("twin")
    assert row["games"] == 6 and row["win_rate"] == row["control"]
    assert (row["edge"], *row["edge95"]) == (0.0, 0.0, 0.0)
    assert "| voyage | 3 | twin | heuristic | 6 |" in bench.markdown({"rows": [row]},
                                                                    "strength")


def test_the_edge_is_the_agents_credit_minus_the_controls_game_by_game(tmp_path):
    """random against the heuristic: the control is the heuristic's own share in random's
    seats, and the edge is their difference, negative for the weaker agent."""
    row = bench.strength_row("hansa", "random-heuristic", 2, 4,
                             str(tmp_path / "s.sqlite"), workers=1)
    assert row["win_rate"] == 0.0 and row["control"] > 0
    # exact: 0 - c is -c, and rounding is symmetric in sign, so the mean of -c is -mean(c)
    assert row["edge"] == -row["control"] and row["edge95"][0] < row["edge"]


def test_stored_reports_the_games_held_so_far_and_plays_none(tmp_path):
    """--stored: a row of the games stored from game 0 in both the study and its
    control; a gap ends the prefix, and a store holding too few is refused by name."""
    from tradewinds.store import Store

    db = str(tmp_path / "s.sqlite")
    with pytest.raises(ValueError, match="cannot read a results database"):
        bench.stored_prefix("hansa", "random-heuristic", 2, db)      # no file
    Store(db).close()
    with pytest.raises(ValueError, match="holds 0 game"):
        bench.stored_prefix("hansa", "random-heuristic", 2, db)
    bench.strength_row("hansa", "random-heuristic", 2, 5, db, workers=1)
    with Store(db) as store:
        control = store.find_run(bench._studies("hansa", 2, "random", "heuristic", 0)[1]
                                 .identity())
        store.con.execute("DELETE FROM game WHERE run_id = ? AND game_index = 3", (control,))
    assert bench.stored_prefix("hansa", "random-heuristic", 2, db) == 3
    out = tmp_path / "r.json"
    assert bench.main(["strength", "--game", "hansa", "--pairings", "random-heuristic",
                       "--db", db, "--stored", "--no-progress", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["rows"][0]["games"] == 3
    with Store(db) as store:
        assert store.count(control) == 4                  # game 3 was not played again


def test_decision_time_times_every_agent_on_the_same_positions(tmp_path):
    """Each named agent gets a row (the report compares searches at an equal time per
    decision)."""
    out = tmp_path / "t.json"
    assert bench.main(["decision-time", "--agents", "heuristic", "mcts:8", "--positions",
                       "3", "--out", str(out)]) == 0
    row = json.loads(out.read_text())["rows"][0]
    assert set(row["agents"]) == {"heuristic", "mcts:8"} and row["positions"] == 3
    assert all(t["median_s"] > 0 for t in row["agents"].values())
    assert "| hansa | 2 | mcts:8 | 3 |" in out.with_suffix(".md").read_text()


def test_decision_time_in_games_times_each_agents_own_decisions_seats_rotated(monkeypatch):
    """--games: every decision with a choice in whole games, credited to the agent in the
    deciding seat (the first of each untimed); the agents swap seats game by game."""
    import tradewinds.studies.arena as arena

    asked = []
    act = arena.agent_action

    def recording(agent, game, state, player, rng):
        asked.append((agent.name, player, bool(game.legal_mask(state).sum() > 1)))
        return act(agent, game, state, player, rng)

    monkeypatch.setattr(arena, "agent_action", recording)
    row = bench.decision_time_in_games("hansa", 2, ["heuristic", "random"], 1)
    assert {(who, p) for who, p, _ in asked} == {("heuristic", 0), ("random", 1)}
    for name in ("heuristic", "random"):
        choices = sum(1 for who, _, choice in asked if who == name and choice)
        assert row["agents"][name]["decisions"] == choices - 1 > 10
    decisions = row["agents"]["random"]["decisions"]
    assert f"| hansa | 2 | random | {decisions} in 1 games |" in bench.markdown(
        {"rows": [row]}, "decision-time")
    asked.clear()
    assert bench.decision_time_in_games("hansa", 2, ["heuristic", "random"], 2)["games"] == 2
    assert {(who, p) for who, p, _ in asked} == {(a, p) for a in ("heuristic", "random")
                                                  for p in (0, 1)}
    with pytest.raises(ValueError, match="name 2 agents for 2 players, got 3"):
        bench.decision_time_in_games("hansa", 2, ["heuristic", "random", "mcts:4"], 1)


def test_bad_input_is_one_line_naming_it(capsys):
    with pytest.raises(SystemExit):
        bench.main(["decision-time", "--agents", "heuristic", "--games", "1"])
    err = capsys.readouterr().err
    assert "error: decision-time: --games plays the agents against each other" in err
    assert "Traceback" not in err



def test_selfplay_speed_times_every_search_of_whole_games(monkeypatch):
    """The peer's protocol: one timed search per decision until each game ends."""
    from tradewinds.agents import ismcts
    from tradewinds.benchmarks.agents import ismcts_selfplay_speed

    calls, real = [], ismcts.search
    monkeypatch.setattr(ismcts, "search", lambda game, s, *a, **k: (
        calls.append(game.is_terminal(s)), real(game, s, *a, **k))[1])
    row = ismcts_selfplay_speed("hansa", 2, simulations=2, games=2, seed=3)
    assert row["searches"] == len(calls) - 1 > 100       # the first call warms up
    assert not any(calls) and row["sims_per_s"] > 0


def test_a_row_plays_its_games_and_their_control_seed_by_seed(tmp_path, monkeypatch):
    """A row stopped part-way holds the games of the same seeds in both studies: with the
    control of seeds 0-1 already stored (another row against the same opponent), the
    agent's seeds 0-1 come first, then each seed's game and its control."""
    import tradewinds.studies.match as match

    db = str(tmp_path / "s.sqlite")
    bench.strength_row("hansa", "random-heuristic", 2, 2, db, workers=1)
    submitted = []
    play = match._play

    def recording(be, store, jobs, advance):
        def seen():
            for job in jobs:
                submitted.append(job[1][0])
                yield job
        return play(be, store, seen(), advance)

    monkeypatch.setattr(match, "_play", recording)
    row = bench.strength_row("hansa", "noisy:0.5-heuristic", 2, 4, db, workers=1,
                             chunk_size=1)
    assert submitted == [0, 1, 2, 2, 3, 3] and row["games"] == 4


def test_another_seed_plays_other_games_and_says_so(tmp_path):
    """--seed: game i of the pairing and of its control uses seed + i (a replication
    with a seed past the earlier games shares none of them), and the row names it."""
    study, control = bench._studies("hansa", 2, "heuristic", "random", 1000)
    assert (study.seed(0), control.seed(5)) == (1000, 1005)
    row = bench.strength_row("hansa", "heuristic-random", 2, 2, str(tmp_path / "s.sqlite"),
                             workers=1, base_seed=1000)
    assert row["seed"] == 1000 and row["games"] == 2
    assert bench.main(["strength", "--game", "hansa", "--pairings", "heuristic-random",
                       "--games", "2", "--seed", "1000", "--workers", "1", "--db",
                       str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "o.json")]) == 0
    assert json.loads((tmp_path / "o.json").read_text())["rows"][0]["seed"] == 1000
