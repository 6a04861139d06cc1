"""The differential soak (`benchmarks/soak.py`): kernel and reference agree at every step
(state, legal masks, observations, scores) over whole games of both games, every option
set, 2-4 players, random and heuristic play.

The default suite plays a short sample (every option set once, short games, one heuristic
game per game) and checks that a planted disagreement is caught and reported with its seed
and step; the slow test runs the full counts (`python -m tradewinds.benchmarks.soak --games 10000`:
10,000 random and 1,000 heuristic games per game).
"""

from dataclasses import asdict

import numpy as np
import pytest

from tradewinds.benchmarks import soak


def sample_specs():
    """Every option set of both games once (players 2, 3, 4 in turn), games capped at a
    few rounds, plus one whole heuristic game per game."""
    out = []
    for name, cap in (("hansa", 12), ("voyage", 5)):
        for k, opts in enumerate(soak.option_sets(name)):
            out.append(soak.Spec(name, "random", k, 2 + k % 3, dict(opts, max_rounds=cap),
                                 seed=500 + k, capped=True))
        out.append(soak.spec(name, "heuristic", 1))
    return out


def test_a_sample_of_the_soak_agrees():
    specs = sample_specs()
    labels = {(s.name, soak.label(s.options)) for s in specs}
    assert ("voyage", "dice_movement") in labels and ("voyage", "black_ship+dice_movement") \
        in labels
    assert ("hansa", "build_rule=barrels+seat_talers=(0, 1, 2, 3)+seat_vp=(0, 1, 2, 3)") \
        in labels
    assert ("hansa", "build_rule=barrels+setup_order=reverse") in labels \
        and ("voyage", "rotate_order") in labels
    assert len([s for s in specs if s.name == "voyage"]) == 6 + 1 + 1 + 1, \
        "dice+simple is refused"
    steps = 0
    for sp in specs:
        o = soak.play(sp)
        assert o.difference is None, soak.describe(asdict(o))
        steps += o.steps
    assert steps > 1500


def test_the_schedule_spreads_players_and_option_sets():
    seen = {(soak.spec("voyage", "random", i).num_players,
             soak.label(soak.spec("voyage", "random", i).options)) for i in range(21)}
    assert len(seen) == 21                       # 3 player counts x 7 option sets
    capped = [i for i in range(100) if soak.spec("hansa", "random", i).capped]
    assert capped == [24, 49, 74, 99]
    assert soak.spec("voyage", "heuristic", 3).seed != soak.spec("voyage", "random", 3).seed
    a, b = soak.play(soak.spec("voyage", "random", 24)), soak.play(soak.spec("voyage",
                                                                             "random", 24))
    assert (a.steps, a.truncated) == (b.steps, b.truncated), "a game replays exactly"


@pytest.mark.parametrize("name", soak.GAMES)
def test_the_references_shortcuts_equal_their_plain_answers(name):
    """What the soak asks the references for (every seat's observation at once, the state
    as a list) equals observe(p) per seat and to_state()."""
    import random

    rnd = random.Random(3)
    ref = soak.reference(name, 3, 3, {})
    for _ in range(150):
        assert ref.state_values() == ref.to_state().tolist()
        together = ref.observations()
        assert len(together) == 3
        for p in range(3):
            assert together[p].dtype == np.float32
            assert together[p].tobytes() == ref.observe(p).tobytes()
        if ref.is_terminal():
            break
        ref.step(rnd.choice(ref.legal_actions()))


def test_a_planted_disagreement_is_reported_with_seed_and_step(monkeypatch, capsys):
    real = soak.reference

    def buggy(name, n, seed, options):        # the reference scores one VP too many ...
        ref = real(name, n, seed, options)
        plain = ref.step
        done = []

        def step(a):
            plain(a)
            done.append(a)
            if len(done) == 5:                # ... after its fifth step
                ref.players[0].vp += 1
        ref.step = step
        return ref

    monkeypatch.setattr(soak, "reference", buggy)
    code = soak.main(["--games", "1", "--heuristic-games", "0", "--game", "voyage",
                      "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "voyage:random:0" in out and "seed 0" in out and "step 5" in out and "'vp'" in out
    assert "--replay voyage:random:0" in out


def test_the_summary_counts_games_and_steps():
    summary = soak.soak({("hansa", "random"): 2, ("voyage", "heuristic"): 1}, workers=1)
    totals = summary.totals()
    assert totals[("hansa", "random")][0] == 2 and totals[("voyage", "heuristic")][0] == 1
    assert all(t[1] > 50 for t in totals.values()) and not summary.disagreements
    rows = summary.to_json()["rows"]
    assert sum(r["games"] for r in rows) == 3 and np.isfinite(summary.wall)


def test_a_time_limit_stops_the_run_and_says_so(capsys):
    games = {("hansa", "random"): 30, ("voyage", "heuristic"): 3}
    work = soak.tasks(games)
    assert {t[:2] for t in work[:2]} == {("hansa", "random"), ("voyage", "heuristic")}, \
        "every (game, kind) starts at once"
    summary = soak.soak(games, workers=1, minutes=0)
    assert summary.stopped == "time limit of 0 minutes" and not summary.totals()
    assert summary.to_json()["planned"] == [{"game": "hansa", "kind": "random", "games": 30},
                                            {"game": "voyage", "kind": "heuristic",
                                             "games": 3}]
    soak.report(summary)
    assert "stopped early (time limit of 0 minutes): hansa random 0 of 30" in \
        capsys.readouterr().out


@pytest.mark.slow
def test_the_full_soak_agrees():
    """10,000 random and 1,000 heuristic games per game, every step compared (about 15
    minutes on two free cores; benchmarks/results/soak.md has the last run)."""
    games = {(name, kind): count for name in soak.GAMES
             for kind, count in (("random", 10_000), ("heuristic", 1_000))}
    summary = soak.soak(games)
    assert not summary.disagreements, [soak.describe(o) for o in summary.disagreements[:5]]
    totals = summary.totals()
    for name in soak.GAMES:
        assert totals[(name, "random")][0] == 10_000
        assert totals[(name, "heuristic")][0] == 1_000
