"""IS-MCTS (agents/ismcts.py): legal play, determinism, options, tree bookkeeping.

Strength is measured in benchmarks/agents.py, not here. The one-move-to-win positions
built with the scenario builders live in tests/agents/test_ismcts_positions.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from tradewinds import agents, registry
from tradewinds.agents import ismcts, playouts
from tradewinds.studies import arena

SHORT = {"hansa": {"max_rounds": 4}, "voyage": {"max_rounds": 3}}


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("game_name,n", [("hansa", 2), ("hansa", 3), ("hansa", 4),
                                         ("voyage", 2), ("voyage", 3), ("voyage", 4)])
def test_plays_only_legal_actions(game_name, n, rollout):
    """Whole (round-capped) games against random: the arena raises on any illegal action."""
    agents.register("mcts_test", lambda game, **kw: ismcts.ISMCTSAgent(
        game, simulations=12, rollout=rollout), replace=True)
    try:
        study = arena.Study.create(game_name, n, ["mcts_test"] + ["random"] * (n - 1),
                                   options=SHORT[game_name], seating="rotate")
        decisions = sum(arena.play_game(study, i)["steps"] for i in range(n))
    finally:
        agents.unregister("mcts_test")
    assert decisions > 20 * n


def _midgame(game, n, seed, moves=40):
    s = game.new_state(n, seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = game.legal_actions(s)
        game.step(s, legal[int(rng.integers(len(legal)))])
    return s


@pytest.mark.parametrize("game_name", ["hansa", "voyage"])
def test_same_key_same_search(game_name):
    game = registry.game(game_name)
    s = _midgame(game, 3, 5)
    p = game.current_player(s)
    a1, t1 = ismcts.search(game, s, p, np.array([4, 2], np.int32), 60, rollout="random")
    a2, t2 = ismcts.search(game, s, p, np.array([4, 2], np.int32), 60, rollout="random")
    assert a1 == a2
    assert np.array_equal(t1.visits, t2.visits) and np.array_equal(t1.children, t2.children)
    assert game.legal_mask(s)[a1]


def test_tree_counts_add_up():
    """Root visits = iterations; a node's visits = the sum over its children's visits plus
    the iterations that ended at it (expansion or terminal); values stay within visits."""
    game = registry.game("hansa")
    s = _midgame(game, 2, 9)
    _, tree = ismcts.search(game, s, game.current_player(s), np.array([1, 1], np.int32), 200,
                            rollout="random")
    size = int(tree.size[0])
    assert tree.visits[0] == 200
    assert size == 201                      # one node per iteration, none wasted
    for node in range(size):
        kids = tree.children[node][tree.children[node] >= 0]
        assert tree.visits[kids].sum() <= tree.visits[node]
        assert 0 <= tree.value[node] <= tree.visits[node] + 1e-9
        assert tree.avail[node] >= tree.visits[node] or node == 0
    root_kids = tree.children[0][tree.children[0] >= 0]
    assert tree.visits[root_kids].sum() == 200


def test_time_budget_stops_early():
    game = registry.game("hansa")
    s = _midgame(game, 2, 3)
    _, tree = ismcts.search(game, s, game.current_player(s), np.array([1, 2], np.int32),
                            10**6, rollout="random", time_budget=0.05)
    assert 0 < tree.visits[0] < 10**6


@pytest.mark.parametrize("kwargs,fragment", [
    ({"spec": "abc"}, "mcts:<simulations> needs an integer"),
    ({"simulations": 0}, "simulations must be a positive integer"),
    ({"rollout": "smart"}, "rollout must be one of"),
    ({"c": -1.0}, "c must be >= 0"),
    ({"time_budget": 0}, "time_budget must be positive"),
    ({"depth": -2}, "depth must be -1"),
    ({"scale": 0.0}, "scale must be positive"),
])
def test_bad_options_are_named(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        ismcts.ISMCTSAgent("hansa", **kwargs)


def test_made_by_name_with_budget():
    agent = agents.make_agent("mcts:37", game="voyage")
    assert agent.simulations == 37 and agent.game.name == "voyage"
    with pytest.raises(ValueError, match="needs state="):
        agent.act(np.zeros(3), np.ones(3, np.int8), np.random.default_rng(0))


def test_depth_limited_rollouts_judge_by_vp_lead():
    """depth=0 judges the expanded position by VP leads alone: no rollout decision is
    played, so every iteration costs one step and the tree still counts every iteration."""
    game = registry.game("hansa")
    s = _midgame(game, 2, 21, moves=80)
    a, tree = ismcts.search(game, s, game.current_player(s), np.array([3, 3], np.int32), 100,
                            rollout="random", depth=0, scale=5.0)
    assert game.legal_mask(s)[a] and tree.visits[0] == 100
    values = tree.value[1:int(tree.size[0])] / np.maximum(tree.visits[1:int(tree.size[0])], 1)
    assert ((values > 0) & (values < 1)).all()          # sigmoids of leads, never 0/1 wins


def test_defaults_per_game_and_overrides():
    hansa, voyage = ismcts.ISMCTSAgent("hansa"), ismcts.ISMCTSAgent("voyage")
    assert (hansa.prior, hansa.depth, hansa.c) == (0.5, 0, 1.5)
    assert voyage.rollout == "heuristic" and voyage.depth == 30 and voyage.prior == 0.5
    plain = ismcts.ISMCTSAgent("hansa", prior=0.0, depth=-1, c=0.7)
    assert (plain.prior, plain.depth, plain.c) == (0.0, -1, 0.7)


def test_puct_tree_counts_add_up():
    """PUCT grows one node per iteration too; root visits = iterations; every node's
    heuristic hint, once asked, is a legal action id of its game."""
    game = registry.game("hansa")
    s = _midgame(game, 3, 4)
    _, tree = ismcts.search(game, s, game.current_player(s), np.array([2, 5], np.int32), 150,
                            rollout="random", depth=0, prior=0.5, c=1.5)
    size = int(tree.size[0])
    assert tree.visits[0] == 150 and size == 151
    for node in range(size):
        kids = tree.children[node][tree.children[node] >= 0]
        assert tree.visits[kids].sum() <= tree.visits[node]
        assert 0 <= tree.value[node] <= tree.visits[node] + 1e-9
    asked = tree.hint[:size][tree.hint[:size] >= 0]
    assert asked.size > 0 and (asked < game.num_actions).all()


@pytest.mark.parametrize("game_name", ["hansa", "voyage"])
def test_full_prior_follows_the_heuristic(game_name):
    """prior=1 puts all the prior on the heuristic's action: with a budget of one
    iteration the search plays the action the heuristic chose at the root."""
    game = registry.game(game_name)
    s = _midgame(game, 2, 5)
    a, tree = ismcts.search(game, s, game.current_player(s), np.array([7, 1], np.int32), 1,
                            rollout="random", depth=0, prior=1.0, c=1.5)
    assert a == tree.hint[0] and game.legal_mask(s)[a]


def test_word_helpers_count_and_find_nonzero_bytes():
    rng = np.random.default_rng(3)
    for _ in range(500):
        b = (rng.random(8) < 0.4).astype(np.int8) * rng.integers(1, 127, 8).astype(np.int8)
        w = b.view(np.uint64)[0]
        set_at = np.flatnonzero(b)
        assert playouts.count_set(w) == len(set_at)
        for r, at in enumerate(set_at):
            assert playouts.nth_set(w, r) == at


@pytest.mark.parametrize("game_name", ["hansa", "voyage"])
def test_random_rollouts_pick_what_pick_set_picks(game_name):
    """The rollout counts and finds legal actions a word at a time; it plays exactly the
    actions `tradewinds.rng.pick_set` picks from the legal mask with the same generator,
    and leaves the generator where pick_set would."""
    game = registry.game(game_name)
    for seed, depth in ((1, -1), (2, 40), (3, 7)):
        s = game.determinize(_midgame(game, 2, seed, moves=20), 0, seed)
        key = np.array([seed, 11], np.int32)
        buf, words = playouts.scratch_mask(game.num_actions)
        mine = s.copy()
        playouts.rollout(game.aux, mine, buf[:game.num_actions], words, key, 0, depth)
        ref, ref_key, steps = s.copy(), np.array([seed, 11], np.int32), 0
        while not game.is_terminal(ref) and steps != depth:
            game.step(ref, int(ismcts.rng.pick_set(game.legal_mask(ref), ref_key)))
            steps += 1
        assert np.array_equal(mine, ref) and np.array_equal(key, ref_key)
