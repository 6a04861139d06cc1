"""`noisy:<eps>` (agents/noisy.py): the heuristic with random legal moves mixed in, the
ladder's rungs between random play and the heuristic."""

from __future__ import annotations

import numpy as np
import pytest

from tradewinds import agents, registry


def play_decisions(game_name: str, name: str, n: int, decisions: int, seed: int):
    """(action, heuristic's action) pairs over whole games played by `name` in every seat."""
    game = registry.game(game_name)
    bot = agents.make_agent(name, game=game_name)
    reference = agents.make_agent("heuristic", game=game_name)
    out, g = [], 0
    while len(out) < decisions:
        s = game.new_state(n, seed + g)
        g += 1
        while not game.is_terminal(s) and len(out) < decisions:
            mask = game.legal_mask(s)
            obs = game.observe(s, game.current_player(s))
            stream = seed * 100_000 + len(out)             # one generator per pick
            a = bot.act(obs, mask, np.random.default_rng(stream), state=s.copy())
            same = np.random.default_rng(stream)
            same.random()                              # the coin noisy tosses first
            h = reference.act(obs, mask, same, state=s.copy())
            assert mask[a], f"{name} chose illegal {game.action_name(a)}"
            out.append((a, h, int(mask.sum())))
            game.step(s, a)
    return out


@pytest.mark.parametrize("game_name,n", [("hansa", 2), ("hansa", 4), ("voyage", 3)])
def test_noisy_plays_only_legal_actions(game_name, n):
    play_decisions(game_name, "noisy:0.5", n, 1500, seed=11)


def test_eps_zero_is_the_heuristic_and_eps_one_ignores_it():
    """eps = 0 never departs from the heuristic; eps = 1 departs as often as a uniform
    pick among the legal actions would (it draws among them, whatever the heuristic says)."""
    assert all(a == h for a, h, _ in play_decisions("hansa", "noisy:0", 2, 600, seed=3))
    rows = [r for r in play_decisions("hansa", "noisy:1", 2, 3000, seed=4) if r[2] > 1]
    agree = np.mean([a == h for a, h, _ in rows])
    expected = np.mean([1 / k for _, _, k in rows])
    assert abs(agree - expected) < 0.04, (agree, expected)


def test_eps_sets_how_often_the_heuristic_is_overruled():
    """Among decisions with several legal actions, noisy:eps departs from the heuristic
    with probability eps * (1 - 1/k): within 4 standard errors over 3000 decisions."""
    eps = 0.3
    rows = [r for r in play_decisions("hansa", f"noisy:{eps}", 2, 3000, seed=5) if r[2] > 1]
    depart = np.array([a != h for a, h, _ in rows], dtype=float)
    p = np.array([eps * (1 - 1 / k) for _, _, k in rows])
    se = np.sqrt(np.sum(p * (1 - p))) / len(rows)
    assert abs(depart.mean() - p.mean()) < 4 * se, (depart.mean(), p.mean())


@pytest.mark.parametrize("spec", ["-0.1", "1.5", "lots"])
def test_bad_eps_is_refused_by_name(spec):
    with pytest.raises(ValueError, match="eps"):
        agents.make_agent(f"noisy:{spec}", game="hansa")
