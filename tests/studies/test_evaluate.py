"""`tradewinds evaluate`, its rating fit and its ladders (docs/benchmarking.md)."""

from __future__ import annotations

import json
import math
import sys
import textwrap

import numpy as np
import pytest

import tradewinds.cli.main as cli
from tradewinds import agents, rating_fit
from tradewinds.studies import evaluate

# ------------------------------------------------------------------------ the rating fit


TRUE = {"random": 0.0, "weak": 150.0, "mid": 400.0, "strong": 800.0}


@pytest.mark.parametrize("seed", [0, 1])
def test_fit_recovers_order_and_scale(seed):
    pairs = rating_fit.simulate(TRUE, 2000, seed=seed, draw_rate=0.2)
    fit = rating_fit.fit(pairs, list(TRUE), anchor="random")
    r = fit["ratings"]
    assert r["random"]["elo"] == 0.0 and r["random"]["se"] == 0.0       # anchored
    assert sorted(TRUE, key=lambda a: r[a]["elo"]) == ["random", "weak", "mid", "strong"]
    for a, true in TRUE.items():
        if a != "random":
            assert abs(r[a]["elo"] - true) < max(40.0, 4 * r[a]["se"]), (a, r[a])
            lo, hi = r[a]["ci95"]
            assert lo < r[a]["elo"] < hi
    # scale: differences, not just the order, come back (400 points = odds of 10 to 1)
    assert abs((r["strong"]["elo"] - r["mid"]["elo"]) - 400.0) < 60.0


def test_fit_interval_coverage_is_roughly_nominal():
    hits = 0
    for seed in range(40):
        pairs = rating_fit.simulate({"random": 0.0, "b": 200.0}, 200, seed=100 + seed)
        lo, hi = rating_fit.fit(pairs, ["random", "b"])["ratings"]["b"]["ci95"]
        hits += lo <= 200.0 <= hi
    assert hits >= 34              # 95% nominal; 40 draws


def test_fit_anchor_shift_and_sweeps():
    pairs = rating_fit.simulate(TRUE, 500, seed=3)
    a = rating_fit.fit(pairs, list(TRUE), anchor="random")["ratings"]
    b = rating_fit.fit(pairs, list(TRUE), anchor="mid")["ratings"]
    assert b["mid"]["elo"] == 0.0
    for k in TRUE:                 # another anchor only shifts the scale
        assert math.isclose(a[k]["elo"] - a["mid"]["elo"], b[k]["elo"], abs_tol=1e-6)
    # a clean sweep stays finite thanks to the virtual draw, and larger with more games
    s1 = rating_fit.fit({("a", "random"): [50, 50]}, ["random", "a"])["ratings"]["a"]
    s2 = rating_fit.fit({("a", "random"): [500, 500]}, ["random", "a"])["ratings"]["a"]
    assert math.isfinite(s1["elo"]) and s2["elo"] > s1["elo"] > 400
    with pytest.raises(ValueError, match="undetermined"):
        rating_fit.fit({("a", "b"): [10, 5]}, ["random", "a", "b"])
    with pytest.raises(ValueError, match="anchor"):
        rating_fit.fit({("a", "b"): [10, 5]}, ["a", "b"])


def test_fit_one_matches_the_joint_fit_direction():
    ladder = {"random": 0.0, "mid": 400.0}
    rng = np.random.default_rng(5)
    true = 250.0
    results = []
    for r in ladder.values():
        p = float(rating_fit.expected_score(true - r))
        results.append((r, 4000, float(rng.binomial(4000, p))))
    one = rating_fit.fit_one(results)
    assert abs(one["elo"] - true) < 3 * one["se"] + 5
    assert one["ci95"][0] < one["elo"] < one["ci95"][1]
    assert one["comparisons"] == 8000
    empty = rating_fit.fit_one([])
    assert math.isnan(empty["elo"]) and empty["ci95"] == [-math.inf, math.inf]


def test_comparisons_from_multiplayer_games():
    rows = [
        {"agents": ["x", "y", "y"], "winners": [0]},      # x beats both y seats
        {"agents": ["y", "x", "y"], "winners": [0, 1]},   # shared: half; y loser vs x: win
        {"agents": ["y", "y", "x"], "winners": [1]},      # y beats x; two y seats: nothing
    ]
    pairs = rating_fit.comparisons(rows)
    assert list(pairs) == [("x", "y")]
    n, s = pairs[("x", "y")]
    assert n == 2 + 2 + 1 and s == 2 + 1.5 + 0


# ------------------------------------------------------------------- ladders shipped


@pytest.mark.parametrize("path", evaluate.shipped_ladders(), ids=lambda p: p.stem)
def test_shipped_ladder_is_current(path):
    """Fails when a member's behaviour identity changed (a version bumped, a net or a
    checkpoint replaced) since the ladder rated it: refit with `tradewinds ratings fit <game>
    --players N`, replay the member with `tradewinds ratings extend --replace`, or prove its
    play unchanged with `tradewinds ratings carry --from <revision>`."""
    ladder = json.loads(path.read_text())
    assert ladder["schema"] == evaluate.LADDER_SCHEMA
    assert ladder["version"] == evaluate.ladder_version(ladder)
    assert ladder["anchor"] == "random"
    by_name = {m["name"]: m for m in ladder["members"]}
    assert by_name["random"]["elo"] == 0.0
    for m in ladder["members"]:
        assert m["behaviour"] == evaluate.identity(m["name"], ladder["game"],
                                                   ladder["players"]), (
            f"{m['name']} is not the {m['name']} {path.name} rated (behaviour "
            f"{m['behaviour']!r}): refit, replace or carry it")
        assert m["ci95"][0] <= m["elo"] <= m["ci95"][1]
    assert ladder["fit"]["games"] == sum(u["games"] for u in ladder["fit"]["lineups"])
    assert all(u["games"] == ladder["fit"]["games_per_lineup"]
               for u in ladder["fit"]["lineups"]) or ladder["fit"].get("extended")


def test_shipped_ladders_cover_both_games_at_two_to_four_players():
    names = {p.stem for p in evaluate.shipped_ladders()}
    assert names == {f"{g}_{n}p" for g in ("hansa", "voyage") for n in (2, 3, 4)}


def test_the_guide_lists_the_shipped_ladders_as_they_are():
    """docs/benchmarking.md's ladders block is what the ladder files say (a refit, an
    extension or a carry without updating the guide fails here): run `tradewinds docs`."""
    from tradewinds.studies import ladder_docs

    guide = ladder_docs.GUIDE.read_text()
    assert ladder_docs.rewritten(guide) == guide, "run tradewinds docs"
    for path in evaluate.shipped_ladders():
        assert f"`{json.loads(path.read_text())['version']}`" in guide


def test_version_changes_with_a_member():
    ladder = {"game": "g", "players": 2, "options": {}, "anchor": "random",
              "prior_games": 1.0, "fit": {"base_seed": 0, "games_per_lineup": 10},
              "members": [{"name": "random", "behaviour": "random/1"},
                          {"name": "heuristic", "behaviour": "heuristic/1"}]}
    v = evaluate.ladder_version(ladder)
    ladder["members"][1]["behaviour"] = "heuristic/2"
    assert evaluate.ladder_version(ladder) != v
    assert v.startswith("g-2p-")


# ------------------------------------------------------------- end to end, tiny ladder


class FirstLegal:
    """Plays the first legal action: a cheap deterministic ladder member."""

    def __init__(self, game="hansa", **kw):
        pass

    def act(self, observation, action_mask, rng):
        return int(np.flatnonzero(action_mask)[0])


AGENT_MODULE = """
import numpy as np

class LastLegal:
    def __init__(self, game="hansa", **kw):
        pass

    def act(self, observation, action_mask, rng):
        return int(np.flatnonzero(action_mask)[-1])
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A ladder of random and a first-legal agent on Hansa, 4 games per pair."""
    tmp = tmp_path_factory.mktemp("ladder")
    agents.register("first-legal", FirstLegal, replace=True)
    path = tmp / "hansa_2p.json"
    try:
        ladder = evaluate.fit_ladder("hansa", 2, ["random", "first-legal"], games=4,
                                     db=tmp / "fit.sqlite", out_file=path, workers=1,
                                     progress=False, command="test")
        yield tmp, path, ladder
    finally:
        agents.unregister("first-legal")


def test_fit_ladder_writes_a_versioned_file(tiny):
    _, path, ladder = tiny
    data = json.loads(path.read_text())
    assert data["version"] == ladder["version"] == evaluate.ladder_version(data)
    assert [m["name"] for m in data["members"]] == ["random", "first-legal"]
    assert data["fit"]["games"] == 4 and data["fit"]["lineups"][0]["games"] == 4
    assert data["pairs"][0]["comparisons"] + 0 <= 4
    from tradewinds.studies import replay

    random, first = data["members"]
    assert random["behaviour"] == evaluate.identity("random", "hansa", 2)
    assert first["behaviour"].startswith("source@")      # first-legal declares none
    for m in data["members"]:               # each with the record that proves it
        assert replay.check("hansa", 2, m["name"], data["options"], m["replay"]) is None
        assert m["replay"]["decisions"][0] > 50


def test_a_refit_keeps_the_shipped_members(tmp_path, monkeypatch):
    shipped = json.loads(evaluate.ladder_path("hansa", 2).read_text())
    assert evaluate.default_members("hansa", 2) == tuple(m["name"] for m in shipped["members"])
    monkeypatch.setattr(evaluate, "LADDER_DIR", tmp_path)       # no shipped ladder
    assert evaluate.default_members("hansa", 2) == evaluate.DEFAULT_MEMBERS["hansa"]


def test_show_prints_the_ladder_to_cite(tiny, capsys):
    """`tradewinds ratings show`: the version, the fit command, every member with
    its rating (lowest first) and every pair's result, from the ladder file."""
    _, path, ladder = tiny
    assert evaluate.main(["show", "hansa", "--ladder", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"version `{ladder['version']}`" in out and "`test`" in out
    members_part = out.split("Pairwise")[0]
    rows = [line for line in members_part.splitlines() if line.startswith("| random")
            or line.startswith("| first-legal")]
    by_elo = sorted(ladder["members"], key=lambda m: m["elo"])
    assert [r.split("|")[1].strip() for r in rows] == [m["name"] for m in by_elo]
    pair = ladder["pairs"][0]
    assert f"| {pair['a']} vs {pair['b']} | {pair['comparisons']:g} |" in out


def test_show_names_a_missing_ladder(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(evaluate, "LADDER_DIR", tmp_path)        # nothing shipped
    assert evaluate.main(["show", "hansa", "--players", "3"]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "no ladder for hansa with 3 players" in err and "\n" not in err.strip()


def test_show_refuses_a_player_count_the_game_does_not_have(capsys):
    assert evaluate.main(["show", "voyage", "--players", "7"]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "no ladder" not in err and "7" in err and "\n" not in err.strip()


REPORT_KEYS = {"schema", "game", "players", "agent", "ladder", "rating", "games_per_opponent",
               "games", "base_seed", "lineups", "opponents", "truncated", "notes", "command",
               "db", "played_now", "already_stored", "elapsed", "workers", "run_ids",
               "versions", "json", "markdown"}


def test_evaluate_end_to_end_resumes_and_writes_stable_json(tiny, tmp_path, monkeypatch,
                                                           capsys):
    _, ladder_file, ladder = tiny
    agents.register("first-legal", FirstLegal, replace=True)
    (tmp_path / "tw_eval_agent.py").write_text(textwrap.dedent(AGENT_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    name = "tw_eval_agent:LastLegal"
    argv = ["evaluate", "hansa", "--agent", name, "--ladder", str(ladder_file), "--games",
            "4", "--workers", "1", "--db", str(tmp_path / "e.sqlite"), "--out",
            str(tmp_path / "out"), "--no-progress"]
    try:
        assert cli.main(argv) == 0
        first = json.loads((tmp_path / "out" / "evaluate_hansa_tw_eval_agent-LastLegal_2p"
                            ".json").read_text())
        assert cli.main(argv) == 0           # resumed: nothing new to play
        second = json.loads((tmp_path / "out" / "evaluate_hansa_tw_eval_agent-LastLegal_2p"
                             ".json").read_text())
    finally:
        agents.unregister(name)
        agents.unregister("first-legal")
        sys.modules.pop("tw_eval_agent", None)
    assert first["played_now"] == 8 and second["played_now"] == 0
    assert second["already_stored"] == 8
    assert set(first) == REPORT_KEYS
    assert first["schema"] == evaluate.REPORT_SCHEMA
    assert first["ladder"]["version"] == ladder["version"]
    assert set(first["ladder"]) == {"version", "path", "anchor", "games", "stale_members",
                                    "members"}
    assert set(first["rating"]) == {"elo", "ci95", "se", "width", "comparisons", "score",
                                    "model"}
    assert [o["opponent"] for o in first["opponents"]] == ["random", "first-legal"]
    assert set(first["opponents"][0]) == {"opponent", "opponent_elo", "games", "wins",
                                          "win_rate", "ci95", "comparisons", "score",
                                          "score_rate", "expected_score"}
    assert all(o["games"] == 4 for o in first["opponents"])
    for key in ("rating", "opponents", "games", "lineups"):
        assert first[key] == second[key]
    # seats rotated: the agent sat in both seats against each opponent
    assert [up["lineup"] for up in first["lineups"]] == [[name, "random"],
                                                         [name, "first-legal"]]
    out = capsys.readouterr().out
    assert ladder["version"] in out and "Elo" in out


def test_evaluating_a_member_skips_itself(tiny, tmp_path):
    _, ladder_file, _ = tiny
    agents.register("first-legal", FirstLegal, replace=True)
    try:
        cfg = evaluate.EvaluateConfig("hansa", "first-legal", games=2, ladder=ladder_file,
                                      db=tmp_path / "e.sqlite", write_files=False,
                                      progress=False, workers=1)
        _, opponents, studies = cfg.validate()
    finally:
        agents.unregister("first-legal")
    assert opponents == [(0, "random")] and len(studies) == 1


# ------------------------------------------------------------------------ bad input


@pytest.mark.parametrize("argv, text", [
    (["evaluate", "hansa", "--agent", "nosuch"], "unknown agent 'nosuch'"),
    (["evaluate", "hansa", "--agent", "no_such_module_x:Agent"], "cannot import module"),
    (["evaluate", "hansa", "--agent", "random", "--ladder", "/nonexistent/l.json"],
     "no such file"),
    (["evaluate", "hansa", "--agent", "random", "--games", "0"], "--games"),
    (["evaluate", "chess", "--agent", "random"], "unknown game"),
])
def test_bad_input_is_a_one_line_error(argv, text, tmp_path, capsys):
    argv = argv + ["--db", str(tmp_path / "e.sqlite"), "--no-progress"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1, err
    assert not (tmp_path / "e.sqlite").exists()


def test_a_missing_ladder_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(evaluate, "LADDER_DIR", tmp_path / "none")     # nothing shipped
    argv = ["evaluate", "voyage", "--agent", "random", "--players", "4", "--db",
            str(tmp_path / "e.sqlite"), "--no-progress"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "no ladder for voyage with 4 players" in err and err.count("\n") == 1, err
    assert not (tmp_path / "e.sqlite").exists()


def test_ladder_for_another_game_is_refused(tiny, tmp_path, capsys):
    _, ladder_file, _ = tiny
    argv = ["evaluate", "voyage", "--agent", "random", "--ladder", str(ladder_file),
            "--db", str(tmp_path / "e.sqlite")]
    assert cli.main(argv) == 2
    assert "not voyage with 2" in capsys.readouterr().err


def test_fit_command_errors_are_one_line(tmp_path, capsys):
    code = evaluate.main(["fit", "hansa", "--members", "random", "--db",
                          str(tmp_path / "f.sqlite"), "--out-file", str(tmp_path / "l.json")])
    assert code == 2
    err = capsys.readouterr().err
    assert "two or more distinct members" in err and err.count("\n") == 1


def test_fit_records_and_names_the_front_door(tmp_path, monkeypatch, capsys):
    """A fit run through `tradewinds ratings fit` is recorded in that form and its errors
    name it; `python -m studies.evaluate` records the same front-door command."""
    seen = []
    monkeypatch.setattr(evaluate, "fit_ladder", lambda *a, **k: seen.append(k["command"]))
    argv = ["fit", "hansa", "--games", "3"]
    assert evaluate.main(argv, prog="tradewinds ratings fit") == 0
    assert evaluate.main(argv) == 0
    assert seen == ["tradewinds ratings fit hansa --games 3"] * 2
    assert evaluate.main(["fit", "hansa", "--games", "0"], prog="tradewinds ratings fit") == 2
    assert capsys.readouterr().err.startswith("tradewinds ratings fit: error: argument --games")


def test_ladder_markdown_shows_commands_in_their_front_door_form(tiny):
    """Ladder files fitted, extended or carried under `python -m studies.*` show the
    `tradewinds ratings` command that does the same now; other commands stay as they are."""
    _, _, ladder = tiny
    old = json.loads(json.dumps(ladder))
    old["fit"]["command"] = "python -m studies.evaluate fit hansa --games 4"
    old["fit"]["extended"] = [{"created": "2026-12-01", "added": ["first-legal"],
                               "games_per_lineup": 2, "games": 2,
                               "command": "python -m studies.extend hansa --add x --games 2"}]
    head = evaluate.ladder_markdown(old).splitlines()[0]
    assert "`tradewinds ratings fit hansa --games 4`" in head
    assert "`tradewinds ratings extend hansa --add x --games 2`" in head
    assert "python -m" not in head
    assert evaluate.front_door("python -m studies.carry --from abc") == \
        "tradewinds ratings carry --from abc"
    assert evaluate.front_door("test") == "test"


def test_an_older_ladder_file_is_refused_with_the_way_to_migrate_it(tmp_path):
    old = json.loads(evaluate.ladder_path("hansa", 2).read_text())
    old["schema"] = evaluate.OLD_SCHEMA
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    with pytest.raises(ValueError, match="file fingerprints.*tradewinds ratings carry --from"):
        evaluate.load_ladder("hansa", 2, path)
