"""Matches (studies.match): line-ups and seat balance, the schedule, resuming through
the arena's store, ratings of rigged agents, parametrized agent names, outputs."""

import json
import math
from collections import Counter
from itertools import permutations

import numpy as np
import pytest

from tradewinds import agents
from tradewinds.stats import wilson_interval
from tradewinds.store import Store
from tradewinds.studies import arena
from tradewinds.studies.match import (
    MatchConfig,
    _jobs,
    check_writable_dir,
    lineups,
    match_index,
    orbit_games,
    run_match,
)


def schedule(agent_names, players, games):
    """The seatings of games 0..games-1 of a match, in match order."""
    orbits = lineups(agent_names, players)
    counts = orbit_games(len(orbits), players, games)
    out = {}
    for j, (lineup, c) in enumerate(zip(orbits, counts, strict=True)):
        for i in range(c):
            out[match_index(j, i, len(orbits), players)] = tuple(
                lineup[(s + i) % players] for s in range(players))
    assert sorted(out) == list(range(games))
    return [out[g] for g in range(games)]


CASES = [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (4, 4), (5, 4)]


@pytest.mark.parametrize("k,n", CASES)
def test_every_agent_sits_in_every_seat_equally_often(k, n):
    names = [f"agent{i}" for i in range(k)]
    orbits = lineups(names, n)
    cycle = len(orbits) * n
    games = schedule(names, n, 2 * cycle)
    for g in games:
        assert len(set(g)) == min(k, n)           # as many different agents as possible
    # after every n games every seat has seen each agent equally often
    for end in range(n, len(games) + 1, n):
        seat_counts = [Counter(g[s] for g in games[:end]) for s in range(n)]
        assert all(c == seat_counts[0] for c in seat_counts), (end, seat_counts)
    # a full cycle plays every distinct seating of every cast, each orbit equally often
    one = Counter(games[:cycle])
    casts = {tuple(sorted(g)) for g in one}
    seatings = {p for c in casts for p in permutations(c)}
    assert set(one) == seatings
    assert Counter(games[:cycle]) == Counter(games[cycle:])
    if k >= n:
        assert len(casts) == math.comb(k, n) and len(one) == len(seatings)
    else:
        assert all(set(c) == set(names) for c in casts)


def test_lineups_do_not_depend_on_the_order_given():
    assert lineups(["b", "a", "c"], 3) == lineups(["c", "b", "a"], 3) == [
        ("a", "b", "c"), ("a", "c", "b")]
    assert lineups(["x", "y"], 2) == [("x", "y")]
    assert lineups(["b", "a"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    with pytest.raises(ValueError, match="distinct"):
        lineups(["a", "a"], 2)
    assert orbit_games(3, 2, 13) == [5, 4, 4] and sum(orbit_games(7, 4, 1001)) == 1001


# ----------------------------------------------------------------- playing matches


class Nth:
    """Parametrized test agent `nth:<k>`: the k-th legal action (k + offset, cyclic)."""

    def __init__(self, game, spec="0", offset=0):
        self.k = int(spec) + int(offset)

    def act(self, observation, action_mask, rng):
        legal = np.flatnonzero(action_mask)
        return int(legal[self.k % legal.size])


@pytest.fixture
def nth():
    agents.register("nth", Nth, replace=True)
    yield
    agents.unregister("nth")


def config(tmp_path, **kw):
    base = dict(game="race", agents=("advance", "wait"), players=2, games=10,
                db=tmp_path / "m.sqlite", workers=1, progress=False)
    base.update(kw)
    return MatchConfig(**base)


def test_the_tables_print_whole_off_a_terminal(race, tmp_path, capsys):  # noqa: F811
    """Captured, as in a pipe or a file, the match's tables keep their natural width: a
    name far wider than 80 columns and the figures beside it stay whole on one line (rich
    alone cut them: ``4.22…``, ``[0.3…``)."""
    name = "advance_" + "x" * 90
    agents.register(name, "tests.helpers.race_game:Advance")
    try:
        run_match(config(tmp_path, games=4, agents=(name, "wait"), write_files=False))
    finally:
        agents.unregister(name)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(f"│ {name} "))
    assert "1.000" in row and "[0.510, 1.000]" in row and "…" not in out


def test_rigged_match_rates_the_winner_and_resumes(race, tmp_path, capsys):  # noqa: F811
    rep = run_match(config(tmp_path, games=10))
    a, w = rep["per_agent"]["advance"], rep["per_agent"]["wait"]
    assert (a["games"], a["seat_games"], a["wins"], a["win_rate"]) == (10, 10, 10.0, 1.0)
    assert w["win_rate"] == 0.0 and a["mean_vp"] == 3.0
    assert rep["seat_counts"] == {"advance": [5, 5], "wait": [5, 5]}
    assert list(rep["openskill"]["agents"]) == ["advance", "wait"]
    assert rep["elo"]["agents"]["wait"]["elo"] == -math.inf
    lo, hi = rep["elo"]["agents"]["wait"]["elo_ci95"]   # 0 of 10: Wilson [0, 0.278]
    assert lo == -math.inf
    assert hi == pytest.approx(400 * math.log10(wilson_interval(0, 10)[1] /
                                                (1 - wilson_interval(0, 10)[1])))
    assert -170 < hi < -160
    assert rep["played_now"] == 10 and rep["already_stored"] == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "race, 2 players: 10 games, advance vs wait" in out
    assert "95% CI (Wilson)" in out and "ordinal" in out and "Elo" in out
    # the JSON and the markdown next to the database
    data = json.loads((tmp_path / "match_race_advance_vs_wait_2p.json").read_text())
    assert data["per_agent"]["advance"]["win_rate"] == 1.0
    assert data["elo"]["agents"]["wait"]["elo"] == "-inf"        # JSON has no Infinity
    md = (tmp_path / "match_race_advance_vs_wait_2p.md").read_text()
    assert "| advance | 10 | 10 | 1.000 |" in md and "-inf" in md
    # rerun: nothing played; more games: only the new ones; the rows are the arena's
    assert run_match(config(tmp_path, games=10))["played_now"] == 0
    rep = run_match(config(tmp_path, games=16, agents=("wait", "advance")))
    assert (rep["played_now"], rep["already_stored"]) == (6, 10)
    with Store(tmp_path / "m.sqlite") as store:
        (run,) = store.runs()
        assert run["seating"] == "rotate" and run["agents"] == ["advance", "wait"]
        rows = store.games(run["run_id"])
    study = arena.Study.create("race", 2, ["advance", "wait"], seating="rotate")
    assert [r["agents"] for r in rows] == [list(study.seats(i)) for i in range(16)]
    assert [r["seed"] for r in rows] == list(range(16))


def test_three_agents_two_seats_round_robin(race, nth, tmp_path):  # noqa: F811
    """advance beats wait; nth:0 (the first legal action: advance too) draws level with
    advance (the first mover wins) and beats wait. Names with a colon go through the
    study, the store and the file name."""
    rep = run_match(config(tmp_path, agents=("advance", "nth:0", "wait"), games=12))
    assert [x["lineup"] for x in rep["lineups"]] == [
        ["advance", "nth:0"], ["advance", "wait"], ["nth:0", "wait"]]
    assert [x["games"] for x in rep["lineups"]] == [4, 4, 4]
    assert rep["per_agent"]["advance"]["win_rate"] == 0.75
    assert rep["per_agent"]["nth:0"]["win_rate"] == 0.75
    assert rep["per_agent"]["wait"]["win_rate"] == 0.0
    pairs = {(p["a"], p["b"]): p for p in rep["elo"]["pairs"]}
    assert pairs[("advance", "wait")]["score_rate"] == 1.0
    assert pairs[("nth:0", "wait")]["games"] == 4
    assert pairs[("advance", "nth:0")]["elo"] == 0.0       # 2-2
    assert list(rep["openskill"]["agents"])[-1] == "wait"
    md = tmp_path / "match_race_advance_vs_nth-0_vs_wait_2p.md"
    assert "Head-to-head" in md.read_text()
    with Store(tmp_path / "m.sqlite") as store:
        assert sorted(r["agents"] for r in store.runs())[1] == ["advance", "wait"]
        assert ["advance", "nth:0"] in [r["agents"] for r in store.runs()]


def test_agent_kwargs_reach_parametrized_agents(race, nth, tmp_path):  # noqa: F811
    """nth:1 with offset=1 picks legal action 2 % 2 = 0 (advance): now the first mover wins
    every game, so both agents win half."""
    plain = run_match(config(tmp_path, agents=("nth:0", "nth:1"), games=8))
    assert plain["per_agent"]["nth:0"]["win_rate"] == 1.0
    rep = run_match(config(tmp_path, agents=("nth:0", "nth:1"), games=8,
                           agent_kwargs={"nth:1": {"offset": 1}}))
    assert rep["played_now"] == 8               # another study: kwargs are in its key
    assert rep["per_agent"]["nth:0"]["win_rate"] == rep["per_agent"]["nth:1"]["win_rate"] == 0.5


def test_fewer_agents_than_seats(race, tmp_path):  # noqa: F811
    rep = run_match(config(tmp_path, players=3, games=12))
    assert [x["lineup"] for x in rep["lineups"]] == [["advance", "advance", "wait"],
                                                      ["advance", "wait", "wait"]]
    a, w = rep["per_agent"]["advance"], rep["per_agent"]["wait"]
    assert a["games"] == w["games"] == 12 and a["seat_games"] == w["seat_games"] == 18
    assert rep["seat_counts"] == {"advance": [6, 6, 6], "wait": [6, 6, 6]}
    assert w["wins"] == 0 and a["wins"] == 12
    assert a["win_rate"] == pytest.approx(12 / 18) and a["game_share"] == 1.0
    assert rep["elo"] is None and list(rep["openskill"]["agents"]) == ["advance", "wait"]
    md = (tmp_path / "match_race_advance_vs_wait_3p.md").read_text()
    assert "| games won |" in md and "| advance | 12 | 18 | 0.667 |" in md
    assert "Elo" not in md


def test_unbalanced_counts_are_reported(race, tmp_path):  # noqa: F811
    rep = run_match(config(tmp_path, agents=("advance", "wait"), players=3, games=7,
                           write_files=False))
    notes = " ".join(rep["notes"])
    assert "not a multiple of 3" in notes and "line-up cycle is 6 games" in notes
    assert rep["stored_games"] == 7


def test_settings_are_checked_before_anything_is_played(race, nth, tmp_path):  # noqa: F811
    db = tmp_path / "m.sqlite"
    bad = [
        (dict(agents=("advance",)), "at least two different agents"),
        (dict(agents=("advance", "advance")), "listed twice"),
        (dict(agents=("advance", "nope")), "unknown agent 'nope'"),
        (dict(agents=("nth:x", "wait")), "agent 'nth:x'"),          # spec fails its factory
        (dict(agent_kwargs={"other": {"a": 1}}), "not one of the agents"),
        (dict(agent_kwargs={"wait": {"speed": 1}}), "agent 'wait'"),
        (dict(players=5), "2 to 4 players"),
        (dict(games=0), "--games must be an integer >= 1"),
        (dict(chunk_size=-1), "--chunk-size"),
        (dict(options={"speed": 2}), "unknown race option 'speed'"),
        (dict(game="chess"), "unknown game 'chess'"),
        (dict(out=tmp_path / "file.txt"), "is a file, not a directory"),
        (dict(model="elo"), "unknown openskill model"),
    ]
    (tmp_path / "file.txt").write_text("x")
    for kw, message in bad:
        with pytest.raises(ValueError, match=message):
            run_match(config(tmp_path, **kw))
        assert not db.exists(), kw                       # nothing created, nothing played
    db.write_text("not a database")
    with pytest.raises(ValueError, match="not an SQLite database"):
        run_match(config(tmp_path))
    assert db.read_text() == "not a database"


def test_check_writable_dir(tmp_path):
    assert check_writable_dir(tmp_path / "a" / "b") == tmp_path / "a" / "b"
    assert (tmp_path / "a" / "b").is_dir() and not list((tmp_path / "a" / "b").iterdir())
    (tmp_path / "f").write_text("")
    with pytest.raises(ValueError, match="--out .* is a file"):
        check_writable_dir(tmp_path / "f")
    with pytest.raises(ValueError, match="not writable"):
        check_writable_dir(tmp_path / "f" / "sub")
    with pytest.raises(ValueError, match="not writable"):
        check_writable_dir("/proc/tradewinds-test")


def test_hansa_through_both_local_backends_gives_the_same_rows(tmp_path):
    """Real games on the python path, in process and in 2 worker processes: identical
    results (a second name for the random agent keeps the test independent of the
    heuristic's strength and compile time)."""
    agents.register("random2", "tradewinds.agents.random_agent:RandomAgent", replace=True)
    try:
        cfg = dict(game="hansa", agents=("random", "random2"), players=2, games=6,
                   options={"max_rounds": 3}, fast=False, progress=False, write_files=False)
        one = run_match(MatchConfig(db=tmp_path / "a.sqlite", workers=1, **cfg))
        two = run_match(MatchConfig(db=tmp_path / "b.sqlite", workers=2, chunk_size=1, **cfg))
    finally:
        agents.unregister("random2")
    assert one["per_agent"] == two["per_agent"] and one["openskill"] == two["openskill"]
    assert one["stored_games"] == 6 and one["truncated"] == 6
    assert one["lineups"][0]["path"] == "python" and two["workers"] == 2
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        strip = [{k: v for k, v in r.items() if k not in ("duration", "finished")}
                 for r in a.games(1)]
        assert strip == [{k: v for k, v in r.items() if k not in ("duration", "finished")}
                         for r in b.games(1)]


def test_jobs_cut_every_game_once_in_order_each_chunk_sized_when_due():
    """`_jobs` submits chunks in the order's sequence, covers each study's games once, and
    asks a study's sizer only when that study's next chunk is due, so a sizer that has
    seen slow games cuts the rest small."""
    todo = [[0, 1, 2, 3, 4, 5, 6, 7], [2, 5, 9], []]
    sizers = [arena.ChunkSizer(cap=3), arena.ChunkSizer(cap=5, fixed=2),
              arena.ChunkSizer(cap=3)]
    jobs = _jobs(["a", "b", "c"], [10, 11, 12], todo, sizers,
                 lambda j, number, first: (first, j))
    cut = []
    for study, chunk, run_id, sizer in jobs:
        assert run_id == {"a": 10, "b": 11}[study]
        cut.append((study, chunk))
        if study == "a" and chunk == [0]:
            sizer.observe([{"duration": 0.001}])      # fast: the next chunks are at the cap
        if study == "a" and chunk == [1, 2, 3]:
            sizer.observe([{"duration": 100.0}] * 3)  # slow: one game at a time from here
    assert cut == [("a", [0]), ("a", [1, 2, 3]), ("b", [2, 5]), ("a", [4]), ("a", [5]),
                   ("a", [6]), ("a", [7]), ("b", [9])]
