"""benchmarks/search_where.py: the heuristic with another agent at the chosen decisions."""

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
    found = search_where.hybrid_games("voyage", 2, 3, "mcts:5", families, seed=40)
    assert found["decided_per_game"] == 0
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
    found = search_where.hybrid_games("voyage", 2, 1, "mcts:5", ("move",), seed=40)
    assert found["decided_per_game"] > 5
    low, high = found["wilson95"]
    assert low <= found["win_rate"] <= high


class _Probe:
    """Plays the first legal action and keeps the legal masks it was asked at."""

    needs_state = True

    def __init__(self):
        self.masks = []

    def act(self, observation, action_mask, rng, state=None):
        self.masks.append(np.asarray(action_mask).copy())
        return int(np.flatnonzero(action_mask)[0])


def _probed(monkeypatch, **kw):
    import agents

    probe, real = _Probe(), agents.make_agent
    monkeypatch.setattr(agents, "make_agent",
                        lambda name, **k: probe if name == "probe" else real(name, **k))
    found = search_where.hybrid_games("voyage", 2, 1, "probe", ("move",), seed=42, **kw)
    return found, probe.masks


def test_only_asks_the_agent_at_the_chosen_families_alone(monkeypatch):
    """With `only`, the agent decides where the heuristic chose a move step, so a move is
    legal at each of its decisions; without, it decides the bids and cards too, where no
    move is legal."""
    from tradewinds import registry

    game = registry.game("voyage")
    moves = np.array([game.action_name(a).startswith("move:")
                      for a in range(game.num_actions)])
    at, at_masks = _probed(monkeypatch, only=True)
    off, off_masks = _probed(monkeypatch)
    assert at["decided_per_game"] == len(at_masks) > 0
    assert off["decided_per_game"] == len(off_masks) > 0
    assert all(m[moves].any() for m in at_masks)
    assert not all(m[moves].any() for m in off_masks)


def test_only_nothing_leaves_the_heuristic_everywhere():
    found = search_where.hybrid_games("voyage", 2, 2, "random", (), only=True, seed=40)
    assert found["decided_per_game"] == 0
    assert found["only"] is True


def test_an_unknown_family_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        search_where.main(["voyage", "--skip", "sail"])
    assert e.value.code == 2
    assert "voyage has no action family sail" in capsys.readouterr().err
