"""The commands that hand their arguments over to another command line (`strength`,
`render-map`, `bench VERB`, `train STAGE`, `ratings VERB`): each has --help under the name
typed, hands over to the right main with the arguments untouched, and a tiny real call of
each kind goes through."""

from __future__ import annotations

import json
from importlib import import_module

import pytest

from tradewinds.cli import bench, ratings, render_map, strength, train
from tradewinds.cli.main import main

VERBS = ([("strength", strength.STRENGTH), ("render-map", render_map.RENDER_MAP)]
         + [(f"bench {v.name}", v) for v in bench.BENCHMARKS]
         + [(f"train {v.name}", v) for v in train.STAGES]
         + [(f"ratings {v.name}", v) for v in ratings.VERBS])


@pytest.mark.parametrize("typed,verb", VERBS, ids=[t for t, _ in VERBS])
def test_help_names_the_command_as_typed(capsys, typed, verb):
    assert main([*typed.split(), "--help"]) == 0
    out = capsys.readouterr().out
    prog = f"tradewinds {typed}"
    if "prog" in __import__("inspect").signature(_main(verb)).parameters:
        assert out.startswith(f"usage: {prog} "), out[:200]
    else:                               # a main that keeps its own name (see verbs.py)
        assert out.startswith("usage: "), out[:200]


def _main(verb):
    module, _, function = verb.target.partition(":")
    return getattr(import_module(module), function or "main")


@pytest.mark.parametrize("typed,verb", VERBS, ids=[t for t, _ in VERBS])
def test_each_verb_hands_its_arguments_over_untouched(monkeypatch, typed, verb):
    calls = []
    module = import_module(verb.target.partition(":")[0])
    monkeypatch.setattr(module, "main", lambda argv, prog=None: calls.append((argv, prog)) or 7)
    assert main([*typed.split(), "x y", "--flag", "3"]) == 7
    assert calls == [([*verb.before, "x y", "--flag", "3"], f"tradewinds {typed}")]


def test_bench_alone_is_the_throughput_benchmark(monkeypatch, capsys):
    import tradewinds.benchmarks.throughput as throughput

    calls = []
    monkeypatch.setattr(throughput, "main", lambda argv, prog=None: calls.append((argv, prog)))
    assert main(["bench", "--quick", "--games", "hansa"]) == 0
    assert calls == [(["--quick", "--games", "hansa"], "tradewinds bench")]
    calls.clear()
    assert main(["bench", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tradewinds bench [VERB]")
    assert all(f"  {v.name} " in out for v in bench.BENCHMARKS)
    assert calls == [(["--help"], "tradewinds bench")]      # and the default's options


def test_a_group_without_a_verb_is_a_one_line_error(capsys):
    assert main(["ratings"]) == 2
    assert main(["ratings", "ladder", "hansa"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "tradewinds ratings: error: name a verb; its verbs: fit, show, extend, carry "
        "(see tradewinds ratings --help)",
        "tradewinds ratings: error: unknown verb 'ladder'; its verbs: fit, show, extend, "
        "carry (see tradewinds ratings --help)"]
    assert main(["ratings", "--help"]) == 0
    out = capsys.readouterr().out
    assert "rating pool" in out and "ladder" not in out.replace("studies/ladders", "")


def test_train_stages_leave_training_a_game_alone(capsys):
    assert train.hands_over(["distill", "net.npz"]) and train.hands_over(["--recipe", "x"])
    assert not train.hands_over(["hansa", "--steps", "10"])
    assert not train.hands_over([])
    assert main(["train", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in train.STAGE_NAMES)


def test_an_interrupt_and_an_exit_with_a_text_are_reported(monkeypatch, capsys):
    import tradewinds.benchmarks.soak as soak

    def interrupted(argv, prog=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(soak, "main", interrupted)
    assert main(["bench", "soak"]) == 130
    assert capsys.readouterr().err == "tradewinds bench soak: interrupted\n"
    monkeypatch.setattr(soak, "main", lambda argv, prog=None: exec("raise SystemExit('no')"))
    assert main(["bench", "soak"]) == 1
    assert capsys.readouterr().err == "no\n"


# ------------------------------------------------------------- tiny real calls


def test_strength_plays_a_pairing_and_its_control(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["strength", "--game", "hansa", "--pairings", "heuristic-random", "--games",
                 "2", "--workers", "1", "--db", str(tmp_path / "s.sqlite"), "--out", str(out),
                 "--no-progress"]) == 0
    row = json.loads(out.read_text())["rows"][0]
    assert (row["agent"], row["opponent"], row["games"]) == ("heuristic", "random", 2)
    assert 0.0 <= row["control"] <= 1.0 and "edge" in row, row     # the same-seed control


def test_bench_verbs_run(tmp_path, capsys):
    rate = {"steps_per_s": 100.0, "steps_per_s_min": 95.0}
    result = {"rows": [{"game": "hansa", "players": 2, "kernel": rate, "aec": rate,
                        "reference": None, "batch": {"64": rate}}]}
    stored = tmp_path / "stored.json"
    stored.write_text(json.dumps(result))
    assert main(["bench", "compare", str(stored), str(stored)]) == 0
    assert "0 drop(s) beyond the noise band" in capsys.readouterr().out
    assert main(["bench", "compare", str(stored)]) == 2
    last = capsys.readouterr().err.splitlines()[-1]     # the usage block above it
    assert last.startswith("tradewinds bench compare: error: give the"), last
    assert main(["bench", "soak", "--replay", "hansa:random:0"]) == 0
    assert "steps agree" in capsys.readouterr().out
    out = tmp_path / "t.json"
    assert main(["bench", "decision-time", "--agents", "heuristic", "random", "--positions",
                 "2", "--out", str(out)]) == 0
    assert set(json.loads(out.read_text())["rows"][0]["agents"]) == {"heuristic", "random"}


def test_render_map_writes_the_picture(tmp_path, capsys):
    out = tmp_path / "map.png"
    assert main(["render-map", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {out}" in capsys.readouterr().out
    assert main(["render-map", str(out), "--map", str(tmp_path / "none.map")]) == 2
    assert capsys.readouterr().err.startswith("tradewinds render-map: error: ")


def test_training_stages_check_their_arguments(tmp_path, capsys):
    missing = tmp_path / "none.npz"
    assert main(["train", "distill", str(missing), "--out", str(tmp_path / "o.npz")]) == 2
    assert f"no file at {missing}" in capsys.readouterr().err
    assert main(["train", "dagger", str(missing), "--out", str(tmp_path / "d")]) == 2
    assert f"no net file at {missing}" in capsys.readouterr().err


def test_ratings_show_prints_a_shipped_pool(capsys):
    assert main(["ratings", "show", "hansa", "--players", "2"]) == 0
    assert capsys.readouterr().out.startswith("**Hansa, 2 players**: version ")
