"""tradewinds.studies.extend: new members join a ladder by playing only the line-ups that seat them;
the stored comparisons are kept and every rating is fitted again."""

import json

import pytest

from tradewinds import rating_fit
from tradewinds.studies import evaluate, extend


@pytest.fixture
def small_ladder(tmp_path):
    path = tmp_path / "hansa_2p.json"
    evaluate.fit_ladder("hansa", 2, ["random", "noisy:0.5"], games=6, db=tmp_path / "fit.db",
                        out_file=path, progress=False, command="fit")
    return path


def test_new_lineups_seat_a_new_member_and_only_those():
    ladder = {"players": 3, "members": [{"name": n} for n in ("a", "b", "c", "d")]}
    ups = extend.new_lineups(ladder, ["e"])
    everyone = extend.lineups(["a", "b", "c", "d", "e"], 3)
    old = extend.lineups(["a", "b", "c", "d"], 3)
    assert all("e" in up for up in ups)
    assert len(ups) == len(everyone) - len(old) == 12


def test_fewer_games_than_seats_still_seat_new_members_everywhere():
    """4 seats, 2 games a line-up: the member that opens every orbit must not sit in
    seats 0 and 1 only; each new member's seats even out within a game or two."""
    ladder = {"players": 4, "members": [{"name": n} for n in "bcdefg"]}
    ups = extend.new_lineups(ladder, ["a", "h"])
    assert all(up[0] == "a" for up in ups if "a" in up)          # why it is needed
    turned = extend.balanced_lineups(ups, ["a", "h"], 2)
    assert [sorted(t) for t in turned] == [sorted(up) for up in ups]
    assert all(t in {up[i:] + up[:i] for i in range(4)} for t, up in zip(turned, ups, strict=True))
    counts = {"a": [0] * 4, "h": [0] * 4}
    for t in turned:
        extend.seat_counts(t, 2, counts)
    for member, seats in counts.items():
        assert max(seats) - min(seats) <= 2, (member, seats)
    assert sum(counts["a"]) == 2 * sum("a" in up for up in ups)


def test_whole_rotations_keep_the_line_ups():
    ladder = {"players": 3, "members": [{"name": n} for n in "bcd"]}
    ups = extend.new_lineups(ladder, ["a"])
    assert extend.balanced_lineups(ups, ["a"], 3) == ups
    assert extend.balanced_lineups(ups, ["a"], 6) == ups


def test_merged_pairs_add_new_comparisons_to_the_stored_ones():
    ladder = {"pairs": [{"a": "a", "b": "b", "comparisons": 10.0, "score_a": 7.0}]}
    rows = [{"agents": ["b", "a"], "winners": [0]}, {"agents": ["a", "c"], "winners": [0, 1]}]
    assert extend.merged_pairs(ladder, rows) == {("a", "b"): [11.0, 7.0],
                                                  ("a", "c"): [1.0, 0.5]}


def test_extension_keeps_the_old_games_and_refits_all(small_ladder, tmp_path):
    before = json.loads(small_ladder.read_text())
    proof = [{"revision": "f" * 40, "created": "2026-12-05", "games": 2}]   # studies.carry's
    before["members"][1]["carried"] = proof
    small_ladder.write_text(json.dumps(before))
    out = tmp_path / "extended.json"
    ladder = extend.extend_ladder("hansa", 2, ["heuristic"], games=4, db=tmp_path / "x.db",
                                  ladder_file=small_ladder, out_file=out, progress=False,
                                  command="extend")
    stored = json.loads(out.read_text())
    assert stored["version"] == ladder["version"] != before["version"]
    assert [m["name"] for m in stored["members"]] == ["random", "noisy:0.5", "heuristic"]
    assert stored["members"][1]["carried"] == proof
    pairs = {(q["a"], q["b"]): q for q in stored["pairs"]}
    old = before["pairs"][0]
    assert pairs[(old["a"], old["b"])]["comparisons"] == old["comparisons"]
    assert sum(q["comparisons"] for q in stored["pairs"]) == 6 + 2 * 4
    fit = stored["fit"]
    assert fit["games"] == 6 + 8 and len(fit["lineups"]) == 3
    assert min(u["base_seed"] for u in fit["lineups"][1:]) > fit["lineups"][0]["base_seed"]
    assert fit["extended"][0]["added"] == ["heuristic"]
    refit = rating_fit.fit({k: (q["comparisons"], q["score_a"]) for k, q in pairs.items()},
                           ["random", "noisy:0.5", "heuristic"], anchor="random",
                           prior_games=stored["prior_games"])
    for m in stored["members"]:
        assert m["elo"] == pytest.approx(refit["ratings"][m["name"]]["elo"])
    assert "extended" in evaluate.ladder_markdown(stored).splitlines()[0]
    assert evaluate.stale_members(stored) == []


def test_refusals_are_one_line_and_write_nothing(small_ladder, tmp_path, capsys):
    text = small_ladder.read_text()
    argv = ["hansa", "--ladder", str(small_ladder), "--db", str(tmp_path / "x.db"),
            "--games", "2", "--no-progress", "--add"]
    assert extend.main(argv + ["random"]) == 2
    assert "already on the ladder: random" in capsys.readouterr().err
    assert extend.main(argv + ["heuristic,heuristic"]) == 2
    assert "distinct" in capsys.readouterr().err
    stale = json.loads(text)
    stale["members"][0]["behaviour"] = "random/0"
    small_ladder.write_text(json.dumps(stale))
    assert extend.main(argv + ["heuristic"]) == 2
    err = capsys.readouterr().err
    assert "stale (random changed)" in err and len(err.strip().splitlines()) == 1
    assert json.loads(small_ladder.read_text()) == stale


def test_replace_plays_a_changed_member_again_without_its_old_games(small_ladder, tmp_path):
    """A member whose play changed (its identity stale) is taken off with its
    comparisons and rated on new games only; another stale member is still refused."""
    stale = json.loads(small_ladder.read_text())
    stale["members"][1]["behaviour"] = "noisy/0"                 # noisy:0.5 changed
    small_ladder.write_text(json.dumps(stale))
    with pytest.raises(ValueError, match="stale"):
        extend.extend_ladder("hansa", 2, ["heuristic"], games=2, db=tmp_path / "r.db",
                             ladder_file=small_ladder, progress=False)
    out = tmp_path / "replaced.json"
    extend.extend_ladder("hansa", 2, ["heuristic"], replace=["noisy:0.5"], games=4,
                         db=tmp_path / "r.db", ladder_file=small_ladder, out_file=out,
                         progress=False, command="replace")
    stored = json.loads(out.read_text())
    assert [m["name"] for m in stored["members"]] == ["random", "noisy:0.5", "heuristic"]
    pairs = {(q["a"], q["b"]): q["comparisons"] for q in stored["pairs"]}
    assert all(c == 4 for c in pairs.values()) and len(pairs) == 3     # the 6 old games gone
    assert evaluate.stale_members(stored) == []
    assert stored["fit"]["extended"][0]["replaced"] == ["noisy:0.5"]
    replayed = stored["members"][1]                # a new identity and a new record
    assert replayed["behaviour"] == evaluate.identity("noisy:0.5", "hansa", 2)
    assert replayed["replay"]["actions"] and "carried" not in replayed
    assert "noisy:0.5 replayed" in evaluate.ladder_markdown(stored).splitlines()[0]


def test_replace_refuses_a_member_not_on_the_ladder(small_ladder, tmp_path, capsys):
    argv = ["hansa", "--ladder", str(small_ladder), "--db", str(tmp_path / "x.db"),
            "--games", "2", "--no-progress", "--replace", "heuristic"]
    assert extend.main(argv) == 2
    assert "not on the ladder, nothing to replace: heuristic" in capsys.readouterr().err
