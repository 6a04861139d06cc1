"""The fitted Voyage leaf judgement (agents/value_voyage.py) and its fit
(training/fit_voyage_value.py): features read from built positions, the fit recovering
known weights, and the shipped fit beating the VP-only judgement on held-out games."""

from __future__ import annotations

import numpy as np
import pytest

from agents import ismcts, value_voyage
from agents.value_voyage_fit import FIT
from training import fit_voyage_value as fit
from voyage_env import GAME, scenario
from voyage_env.state import StateView

MAP = GAME.board
F = value_voyage.FEATURES.index
CALICUT = MAP.port_name.index("Calicut")


def features(s, p):
    out = np.zeros(value_voyage.NW)
    value_voyage.features(s, GAME.aux.m, GAME.aux.routes, p, out)
    return out


def far_space():
    """A sea space far (in discs) from Lisbon."""
    return int(MAP.port_hex[CALICUT])


def test_scale_is_the_searchs():
    """The scores come in VP-like units for the search's lead-based win chance."""
    assert value_voyage.VP_PER_LOGIT == ismcts.DEFAULTS["voyage"]["scale"]


def test_features_of_a_built_position():
    s = scenario.build(2, ships={0: far_space(), 1: int(MAP.lisbon)}, cubes={0: ["pepper"]},
                       vp={0: 12, 1: 3}, tiles={1: [1]}, upgraded=[1], wrecked={0: [1]})
    f0, f1 = features(s, 0), features(s, 1)
    assert f0[F("vp")] == 12 and f1[F("vp")] == 3
    assert f0[F("tiles")] == 0 and f1[F("tiles")] == 1
    assert f0[F("pepper_aboard")] == 1 and f1[F("pepper_aboard")] == 0
    assert f0[F("pepper_home")] > 5 and f1[F("pepper_home")] == 0   # Calicut is far out
    assert f0[F("pepper_away")] == 0                 # carries one: none to fetch
    assert 5 < f1[F("pepper_away")] < 80                # Lisbon to Calicut, in discs
    assert f1[F("upgraded")] == 1 and f0[F("wrecks")] == 1
    # the progress copies: one tile of the game's taken
    progress = 1 / StateView(s).tiles_total
    assert 0 < progress < 1
    np.testing.assert_allclose(f1[value_voyage.NF:], f1[:value_voyage.NF] * progress)


def test_pepper_nearer_home_is_judged_better():
    """The shipped weights: the tile's pepper aboard is worth more the nearer Lisbon, and a
    ship near Lisbon is judged better with it than without (Calicut still to reach)."""
    w = value_voyage.WEIGHTS[2]
    lisbon = int(MAP.lisbon)
    near = scenario.build(2, ships={0: 25, 1: lisbon}, cubes={0: ["pepper"]})
    far = scenario.build(2, ships={0: far_space(), 1: lisbon}, cubes={0: ["pepper"]})
    empty = scenario.build(2, ships={0: 25, 1: lisbon})
    assert features(near, 0) @ w > features(far, 0) @ w
    assert features(near, 0) @ w > features(empty, 0) @ w
    assert features(empty, 0)[F("pepper_away")] > 10


def test_fit_recovers_known_weights():
    """Positions whose winners are drawn from a known conditional logit."""
    rng = np.random.default_rng(0)
    rows, n, d = 20000, 3, 4
    X = rng.normal(size=(rows, n, d))
    true = np.array([1.0, -0.5, 0.25, 0.0])
    P = fit._probs(X, true)
    winner = (P.cumsum(axis=1) > rng.random((rows, 1))).argmax(axis=1)
    Y = np.eye(n)[winner]
    w = fit.fit(X, Y, np.zeros(d))
    np.testing.assert_allclose(w, true, atol=0.06)
    assert fit.log_loss(X, Y, w) < fit.log_loss(X, Y, np.zeros(d))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_shipped_fit_beats_the_vp_only_judgement(n):
    """The fit's record: held-out games, per player count (training.fit_voyage_value)."""
    rec = FIT["fit"][n]
    assert rec["test_positions"] > 10000
    assert rec["test_log_loss"] < 0.9 * rec["vp_only_log_loss"]
    assert rec["test_log_loss"] < rec["uniform_log_loss"]
    assert tuple(FIT["features"]) == value_voyage.FEATURES
    np.testing.assert_allclose(value_voyage.WEIGHTS[n], FIT["weights"][n])


def test_fit_on_fresh_games_beats_vp_only():
    """A small fit from scratch, checked on games it did not see (the pipeline, end to
    end: recording, fitting, held-out loss)."""
    X, Y, G = fit.record(2, range(5000, 5120), every=11)
    train = G < 80
    w = fit.fit(X[train], Y[train], value_voyage.default_weights())
    base = value_voyage.default_weights()
    assert fit.log_loss(X[~train], Y[~train], w) < fit.log_loss(X[~train], Y[~train], base)
    assert np.isclose(Y.sum(axis=1), 1).all()


def test_scores_are_the_features_weighed():
    s = scenario.build(3, ships={0: 25}, cubes={0: ["pepper"], 2: ["cinnamon"]}, vp={1: 7})
    out = np.zeros(4)
    value_voyage.position_values(GAME.aux, s, out)
    for p in range(3):
        expected = features(s, p) @ value_voyage.WEIGHTS[3] * value_voyage.VP_PER_LOGIT
        assert out[p] == pytest.approx(expected)
    assert out[3] == 0


def test_fit_command_writes_an_importable_module(tmp_path):
    """`python -m training.fit_voyage_value` writes the weights as a module of data."""
    out = tmp_path / "fit.py"
    assert fit.main(["--games", "30", "--test-games", "10", "--players", "2", "--every",
                     "13", "--out", str(out)]) == 0
    space: dict = {}
    exec(out.read_text(), space)
    written = space["FIT"]
    assert tuple(written["features"]) == value_voyage.FEATURES
    assert set(written["weights"]) == {2} and len(written["weights"][2]) == value_voyage.NW
    assert written["fit"][2]["test_positions"] > 0
    assert "--games 30" in written["command"]
