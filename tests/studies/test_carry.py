"""tradewinds.studies.carry: a ladder keeps its ratings over a change only when every decision of
the changed members is the same, and the ladder records the proof."""

import json
import shutil

import pytest

from tradewinds.studies import carry, evaluate, replay


def test_first_difference_names_the_game_and_decision():
    assert carry.first_difference([[1, 2], [3]], [[1, 2], [3]]) is None
    assert carry.first_difference([[1, 2], [3, 4]], [[1, 2], [3, 5]]) == (
        "game 1, decision 1: 4 before, 5 now")
    assert carry.first_difference([[1, 2]], [[1, 2, 6]]) == "game 0: 2 decisions before, 3 now"


def _stale_copy(tmp_path, monkeypatch, member="heuristic"):
    """A copy of the shipped Hansa 2p ladder in which `member` looks stale: its stored
    identity is another, which the 'old' tree (this one) reports as its own."""
    path = tmp_path / "hansa_2p.json"
    shutil.copy(evaluate.ladder_path("hansa", 2), path)
    ladder = json.loads(path.read_text())
    for m in ladder["members"]:
        if m["name"] == member:
            m["behaviour"] = "heuristic/0"
    ladder["version"] = evaluate.ladder_version(ladder)
    path.write_text(json.dumps(ladder, indent=2) + "\n")
    monkeypatch.setattr(carry, "identity_at", lambda root, name, game, players: "heuristic/0")
    return path, ladder


def test_a_member_that_plays_the_same_is_carried_with_its_evidence(tmp_path, monkeypatch):
    path, before = _stale_copy(tmp_path, monkeypatch)
    assert evaluate.stale_members(before) == ["heuristic"]
    said = []
    assert carry.carry_ladder(path, carry.ROOT, "f" * 40, 1, say=said.append)
    after = json.loads(path.read_text())
    assert evaluate.stale_members(after) == []
    assert after["version"] == evaluate.ladder_version(after) != before["version"]
    changed = {m["name"]: m for m in after["members"]}["heuristic"]
    record = changed["carried"][-1]
    assert record["from"] == "heuristic/0" and record["revision"] == "f" * 40
    assert changed["behaviour"] == evaluate.identity("heuristic", "hansa", 2)
    assert replay.check("hansa", 2, "heuristic", after["options"], changed["replay"]) is None
    assert record["games"] == 1 and record["decisions"] > 50
    assert changed["elo"] == {m["name"]: m for m in before["members"]}["heuristic"]["elo"]
    others = [m for m in after["members"] if m["name"] != "heuristic"]
    assert others == [m for m in before["members"] if m["name"] != "heuristic"]
    assert "made the same" in said[0]


def test_a_member_that_plays_differently_is_refused_and_nothing_written(tmp_path, monkeypatch):
    path, _ = _stale_copy(tmp_path, monkeypatch)
    text = path.read_text()
    real, calls = carry.play, []

    def play(root, game, players, member, games, options):
        calls.append(root)
        out = real(root, game, players, member, games, options)
        if len(calls) == 2:                 # the new tree: one decision changed
            out[0][7] += 1
        return out

    monkeypatch.setattr(carry, "play", play)
    said = []
    assert not carry.carry_ladder(path, carry.ROOT, "f" * 40, 1, say=said.append)
    assert path.read_text() == text
    assert "plays differently (game 0, decision 7" in said[0] and "refit" in said[0]


def test_a_revision_that_is_not_the_fitted_one_is_refused(tmp_path, monkeypatch):
    path, _ = _stale_copy(tmp_path, monkeypatch)
    monkeypatch.setattr(carry, "identity_at", lambda root, name, game, players: "other")
    text = path.read_text()
    said = []
    assert not carry.carry_ladder(path, carry.ROOT, "f" * 40, 1, say=said.append)
    assert path.read_text() == text and "not the heuristic the ladder rated" in said[0]


def test_bad_input_is_refused_in_one_line(capsys):
    for argv, words in ((["--from", "no-such-revision"], "not a revision"),
                        (["--from", "HEAD", "--games", "0"], "--games must be >= 1")):
        with pytest.raises(SystemExit) as e:
            carry.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err


def test_identity_at_a_root_is_the_one_at_the_ladders_count():
    """The child process asks the tree at `root` for the count's identity (tree of this
    revision here; an older tree gives its file fingerprint)."""
    assert carry.identity_at(carry.ROOT, "net", "hansa", 3) == evaluate.identity(
        "net", "hansa", 3)


def test_the_child_plays_the_replay_records_games():
    """`carry` compares the games `studies.replay` records: one function, run in a child."""
    assert carry.play(carry.ROOT, "hansa", 2, "heuristic", 1, {}) == replay.actions(
        "hansa", 2, "heuristic", 1, carry.SEED, {})


def test_an_older_ladder_is_migrated_to_behaviour_identities(tmp_path, monkeypatch):
    """A ladder of file fingerprints: every member carried, with the proof, to its identity
    and a replay record; the ratings stay."""
    path = tmp_path / "hansa_2p.json"
    ladder = json.loads(evaluate.ladder_path("hansa", 2).read_text())
    ladder["schema"] = evaluate.OLD_SCHEMA
    ladder["members"] = [{**{k: v for k, v in m.items() if k not in ("behaviour", "replay")},
                          "fingerprint": f"{i:064x}", "files": ["x.py"]}
                         for i, m in enumerate(ladder["members"])
                         if m["name"] in ("random", "heuristic")]
    path.write_text(json.dumps(ladder))
    prints = {m["name"]: m["fingerprint"] for m in ladder["members"]}
    monkeypatch.setattr(carry, "identity_at", lambda root, name, game, players: prints[name])
    monkeypatch.setattr(carry, "play", lambda root, *args: replay.actions(  # in-process
        *args[:4], carry.SEED, args[4]))
    assert carry.carry_ladder(path, carry.ROOT, "e" * 40, 1, say=lambda _: None)
    after = json.loads(path.read_text())
    assert after["schema"] == evaluate.LADDER_SCHEMA and evaluate.stale_members(after) == []
    for old, new in zip(ladder["members"], after["members"], strict=True):
        assert new["elo"] == old["elo"] and "fingerprint" not in new and "files" not in new
        assert new["carried"][-1]["from"] == old["fingerprint"]
        assert new["carried"][-1]["migrated"] is True
    assert "named by behaviour identities since" in evaluate.ladder_markdown(after)
