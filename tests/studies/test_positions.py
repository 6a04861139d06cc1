"""tradewinds.studies.positions: the states benchmarks and agent tests measure on."""

import numpy as np

from tradewinds import registry
from tradewinds.studies.positions import decision_positions, random_positions


def test_decision_positions_are_choices_of_heuristic_play():
    """Every position is a live decision with more than one legal action, a copy of its
    own, and the same arguments give the same states."""
    game = registry.game("hansa")
    states = decision_positions(game, 2, 12, every=2)
    assert len(states) == 12
    assert all(not game.is_terminal(s) and game.legal_mask(s).sum() > 1 for s in states)
    assert len({s.tobytes() for s in states}) == 12       # copies, not one state advanced
    again = decision_positions(game, 2, 12, every=2)
    assert all(np.array_equal(a, b) for a, b in zip(states, again, strict=True))
    assert decision_positions(game, 2, 3, seed=1)[0].tobytes() != states[0].tobytes()


def test_random_positions_are_live_states_of_separate_games():
    game = registry.game("voyage")
    states = random_positions(game, 3, 5, seed=2)
    assert len(states) == 5 and all(int(s[0]) == 3 for s in states)
    assert not any(game.is_terminal(s) for s in states)
    assert len({s.tobytes() for s in states}) == 5
    assert all(np.array_equal(a, b)
               for a, b in zip(states, random_positions(game, 3, 5, seed=2), strict=True))
