"""The fitted Voyage leaf judgement (agents/value_voyage.py) and its fit
(training/fit_voyage_value.py): features read from built positions, the fit recovering
known weights, and the shipped fit beating the VP-only judgement on held-out games."""

from __future__ import annotations

import numpy as np
import pytest

from tradewinds.agents import ismcts, value_voyage
from tradewinds.agents.value_voyage_fit import FIT
from tradewinds.training import fit_voyage_value as fit
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
    """`python -m tradewinds.training.fit_voyage_value` writes the weights as a module of data."""
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


def heuristic_returns(s):
    """Every seat plays the heuristic on the full state to the end; the win shares."""
    from tradewinds.agents.heuristic_voyage import heuristic_action

    t, mask, key = s.copy(), np.zeros(GAME.num_actions, dtype=np.int8), np.zeros(2, np.int32)
    while not GAME.is_terminal(t):
        GAME.step(t, int(heuristic_action(GAME.aux, t, mask, key)))
    return GAME.returns(t)


def test_an_endgame_position_is_played_out():
    """With at most ENDGAME_TILES monastery tiles left the judgement is the outcome of the
    heuristic's playout (the winner DECIDED VP ahead); with more left it is the fit's."""
    left = value_voyage.ENDGAME_TILES
    taken = [1, 2, 3][:3 - left]
    s = scenario.build(2, ships={0: 25}, cubes={0: ["pepper"]}, tiles={1: taken},
                       vp={0: 5, 1: 10 * len(taken)})
    assert StateView(s).tiles_total - len(taken) == left
    out = np.zeros(4)
    value_voyage.position_values(GAME.aux, s, out)
    np.testing.assert_allclose(out[:2], value_voyage.DECIDED * np.asarray(heuristic_returns(s)))
    assert sorted(out[:2]) == [0, value_voyage.DECIDED]     # one winner, decided
    earlier = scenario.build(2, ships={0: 25}, cubes={0: ["pepper"]}, tiles={1: taken[1:]},
                             vp={0: 5, 1: 10 * len(taken[1:])})
    value_voyage.position_values(GAME.aux, earlier, out)
    assert out[0] == pytest.approx(features(earlier, 0) @ value_voyage.WEIGHTS[2] * 5.0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_does_not_take_the_tile_that_ends_a_lost_game(seed):
    """V41, V49: seat 0 docks with pepper while seat 1 holds tiles 1 and 2, 35 VP to 24.
    Taking the last tile (+10) ends the game this round with seat 0 behind; selling the
    pepper (+5) keeps it going. The fitted features alone judged the tile a gain (the
    search took it, 0 wins in its playouts); judged by playouts, it sells."""
    s = scenario.build(2, round=10, phase="monastery", active=0,
                       ships={0: "Lisbon", 1: "Lisbon"}, cubes={0: ["pepper"]},
                       tiles={1: [1, 2]}, vp={0: 24, 1: 35})
    a, _ = ismcts.search(GAME, s, 0, np.array([seed, 77], dtype=np.int32), 400,
                         **ismcts.DEFAULTS["voyage"])
    assert GAME.action_name(a) == "monastery:sell"
