"""The arena's kernel path for all-heuristic games (agents.heuristic.playout)."""

import pytest

from tradewinds import registry
from tradewinds.agents import kernel_policy
from tradewinds.studies import arena


def test_kernel_policy_names():
    assert kernel_policy("random") == "random"
    assert kernel_policy("heuristic") == "heuristic"
    assert kernel_policy("mcts:10") is None and kernel_policy("nope") is None


@pytest.mark.parametrize("game", registry.games())
def test_all_heuristic_studies_play_in_the_kernel(game):
    assert arena.Study.create(game, 3, "heuristic").path == "kernel"
    assert arena.Study.create(game, 3, "heuristic", fast=False).path == "python"
    assert arena.Study.create(game, 2, "heuristic,random").path == "python"
    kw = {"mcts:5": {"c": 1.0}}
    assert arena.Study.create(game, 2, "mcts:5", agent_kwargs=kw).path == "python"


@pytest.mark.parametrize("game", registry.games())
@pytest.mark.parametrize("n", [2, 4])
def test_heuristic_playout_is_seeded_legal_and_ends_by_the_rules(game, n):
    study = arena.Study.create(game, n, "heuristic")
    rows = [arena.play_game(study, i) for i in range(4)]
    again = arena.play_game(study, 2)
    for key in ("scores", "winners", "steps", "rounds"):
        assert again[key] == rows[2][key]
    assert not any(r["truncated"] for r in rows)
    assert all(r["steps"] > 20 and r["winners"] for r in rows)
    assert len({tuple(r["scores"]) for r in rows}) > 1
