"""benchmarks/destination_ranking.py: a net's ranking of the destinations beside the
playouts'."""

import numpy as np
import pytest

from benchmarks import destination_ranking as R
from tests.helpers.positions import positions
from tradewinds import registry
from voyage_env import kernel as K
from voyage_env.state import MOVE


def test_agreement_counts_best_targets_and_rank_correlation():
    rng = np.random.default_rng(0)
    clear = rng.normal(0.0, 0.01, (32, 4)) + np.array([0.5, 0.4, 0.9, 0.1])
    keep = rng.normal(0.0, 0.01, (32, 3)) + np.array([0.8, 0.2, 0.1])
    same = R.agreement([clear, keep], [np.array([0.3, 0.2, 0.7, 0.0]),
                                        np.array([0.9, 0.1, 0.0])])
    assert same["same_best"] == 1.0 and same["halves_same_best"] == 1.0
    assert same["playouts_keep_own"] == 0.5 and same["net_keeps_own"] == 0.5
    assert same["rank_correlation"] == pytest.approx(1.0)
    reversed_ = R.agreement([clear], [np.array([0.1, 0.7, 0.0, 0.9])])
    assert reversed_["same_best"] == 0.0 and reversed_["rank_correlation"] == pytest.approx(-1.0)


def test_next_decision_is_the_seats_own_after_its_turn_or_the_end():
    """Heading for each candidate, the position handed to the net is the seat's own
    decision with a choice in a later round, or the game's end."""
    from agents import destinations_voyage as D
    from agents.heuristic import rng_key
    from agents.heuristic_voyage import PARAMS, PLAN_WEIGHTS

    game = registry.game("voyage")
    checked = 0
    for i, s in enumerate(positions("voyage", 2, 30, seed=12)):
        if s[K.PHASE] != MOVE:
            continue
        p, key = int(s[K.DECIDER]), rng_key(np.random.default_rng(i))
        targets = np.full(6, -1, dtype=np.int64)
        n = D.candidates(s, game.aux.m, PLAN_WEIGHTS.copy(), game.aux.routes,
                         PARAMS.copy(), targets)
        for t in targets[:n]:
            after = R.next_decision(game, s, p, int(t), key)
            assert game.is_terminal(after) or (
                int(after[K.DECIDER]) == p and game.legal_mask(after).sum() > 1
                and int(after[K.ROUND]) > int(s[K.ROUND])), i
            checked += 1
    assert checked >= 6


def test_the_net_worth_of_a_finished_game_is_its_return():
    import agents
    from agents import az, pvnet

    game = registry.game("voyage")
    weights, config, _ = pvnet.load(az.shipped("voyage", 2))
    heuristic = agents.make_agent("heuristic", game="voyage")
    s, rng = game.new_state(2, 3), np.random.default_rng(3)
    while not game.is_terminal(s):
        p = game.current_player(s)
        game.step(s, heuristic.act(game.observe(s, p), game.legal_mask(s), rng,
                                   state=s.copy()))
    for p in (0, 1):
        assert R.net_worth(game, weights, config, s, p, np.random.default_rng(0)) == float(
            game.returns(s)[p])
