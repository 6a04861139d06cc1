"""benchmarks/search_where.py: the heuristic with the search at the chosen decisions."""

import numpy as np
import pytest

from benchmarks import search_where


def test_skipping_every_family_is_the_heuristic_itself():
    """Nothing searched: the hybrid is the heuristic, so its share is the heuristic's own
    in the same seats of the same seeds."""
    import agents
    from tradewinds import registry

    game = registry.game("voyage")
    families = tuple(sorted({game.action_name(a).split(":")[0]
                             for a in range(game.num_actions)}))
    found = search_where.hybrid_games("voyage", 2, 3, 5, families, seed=40)
    assert found["searched_per_game"] == 0
    heuristic = agents.make_agent("heuristic", game="voyage")
    wins = 0.0
    for g in range(3):
        s = game.new_state(2, seed=40 + g)
        rng = np.random.default_rng(g)
        while not game.is_terminal(s):
            mask = game.legal_mask(s)
            game.step(s, heuristic.act(game.observe(s, game.current_player(s)), mask, rng,
                                       state=s.copy()))
        wins += float(game.returns(s)[g % 2])
    assert found["win_rate"] == pytest.approx(wins / 3)


def test_the_search_decides_off_the_skipped_families():
    found = search_where.hybrid_games("voyage", 2, 1, 5, ("move",), seed=40)
    assert found["searched_per_game"] > 5
    low, high = found["wilson95"]
    assert low <= found["win_rate"] <= high


def test_an_unknown_family_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        search_where.main(["voyage", "--skip", "sail"])
    assert e.value.code == 2
    assert "voyage has no action family sail" in capsys.readouterr().err
