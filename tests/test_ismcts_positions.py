"""IS-MCTS finds the winning move in constructed positions (scenario builders).

Each position has one decision that wins and others that lose; the search must find it
with random rollouts (no help from the heuristic) and with heuristic rollouts, for several
keys. Positions are built with the public scenario builders (hansa_env.scenario,
voyage_env.scenario), so they are not positions random play would reach often.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import ismcts
from hansa_env import GAME as HANSA
from hansa_env import scenario as hansa_scenario

C2 = ["red", "orange", "yellow", "blue"]


def decide_turn(game, state, simulations, rollout, seed, **options):
    """The searcher's decisions for the rest of its turn; the names played."""
    seat, names = game.current_player(state), []
    key = np.array([seed, 77], dtype=np.int32)
    while not game.is_terminal(state) and game.current_player(state) == seat:
        a, _ = ismcts.search(game, state, seat, key, simulations, rollout=rollout, **options)
        names.append(game.action_name(a))
        game.step(state, a)
    return names


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hansa_sells_on_the_last_turn_to_win(rollout, seed):
    """The end was triggered and seat 1 plays the last turn, 6 VP against 8: selling the
    two reds in Danzig (a stall there) wins; ending the turn, or sailing on, loses."""
    s = hansa_scenario.build(2, ship="Danzig", active=1, end_triggered=True, round=9,
                             colours=C2, stalls={"Danzig": {1: 2}, "Riga": {0: 2}},
                             hands={1: ["red2", "red3"]}, sold={0: ["blue3"]})
    assert list(HANSA.scores(s)) == [8, 6]
    names = decide_turn(HANSA, s, 200, rollout, seed)
    assert names[0].startswith("sell:add:red"), names
    assert HANSA.is_terminal(s) and HANSA.winners(s) == [1], names


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hansa_puct_with_position_values_sells_to_win(seed):
    """The same last-turn position with the Hansa defaults (PUCT, heuristic prior, leaves
    judged by position values, no rollout): the turn it plays sells the reds and wins
    (it may buy and sail first, when that still ends in the sale)."""
    s = hansa_scenario.build(2, ship="Danzig", active=1, end_triggered=True, round=9,
                             colours=C2, stalls={"Danzig": {1: 2}, "Riga": {0: 2}},
                             hands={1: ["red2", "red3"]}, sold={0: ["blue3"]})
    options = {k: v for k, v in ismcts.DEFAULTS["hansa"].items() if k != "rollout"}
    names = decide_turn(HANSA, s, 200, ismcts.DEFAULTS["hansa"]["rollout"], seed, **options)
    assert any(n.startswith("sell:add:red") for n in names), names
    assert HANSA.is_terminal(s) and HANSA.winners(s) == [1], names
