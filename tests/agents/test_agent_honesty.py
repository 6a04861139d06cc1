"""Search agents see only what their seat may see (docs/design.md §6).

With the same rng, an agent's choice must not change when the hidden parts of the real
state change: Hansa's supply order (HA17), Voyage's other hands, unseen target cards, deck
order (VA32), and the state's own generator. A searcher that read the real state instead
of a determinization would see the difference and, over many positions, choose
differently; the explicit edits (tests/helpers/hidden_variants.py) make the hidden parts
differ in what matters most (an opponent's cards, the next supply tokens), not only in
the generator.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.hidden_variants import choice, hansa_variant, voyage_variant
from tests.helpers.positions import positions
from tradewinds import agents, registry

SEARCHERS = ["heuristic", "noisy:0.5", "mcts:24", "br:24:noisy:0.5"]


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("game_name,n", [("hansa", 2), ("hansa", 4), ("voyage", 2),
                                         ("voyage", 3)])
def test_choice_ignores_hidden_parts(name, game_name, n):
    game = registry.game(game_name)
    agent = agents.make_agent(name, game=game_name)
    rng = np.random.default_rng(7)
    checked = 0
    for i, s in enumerate(positions(game_name, n, 14, seed=n)):
        p = game.current_player(s)
        variant = hansa_variant(s, rng) if game_name == "hansa" else voyage_variant(s, p, rng)
        if variant is None:
            continue
        assert not np.array_equal(variant, s)
        assert np.array_equal(game.observe(variant, p), game.observe(s, p))
        game.validate_state(variant)
        assert choice(agent, game, s, i) == choice(agent, game, variant, i), (
            f"{name} changed its choice when only hidden parts changed ({game_name}, "
            f"position {i})")
        checked += 1
    assert checked >= 5


# the families the unsearched `az` plays by its raw policy: each game's commonest
UNSEARCHED = {"hansa": ("sail", "buy"), "voyage": ("move",)}


@pytest.mark.parametrize("kind", ["az", "az-judged", "az-gumbel", "net", "az-hinted",
                                  "net-hinted", "az-unsearched-hinted"])
@pytest.mark.parametrize("game_name,n", [("hansa", 2), ("voyage", 3)])
def test_net_agents_ignore_hidden_parts(kind, game_name, n, tmp_path):
    """`az` (net-guided search), `az` whose leaves are also judged by heuristic playouts
    (as the shipped Voyage nets search), `az` with the Gumbel root and `net` (the raw
    policy), both with a net that reads the heuristic's choice (`agents.net_input`), and
    a hinted `az` that plays the raw policy at its most common family of decisions, with
    a random net whose choices depend on every input: the same choice on every hidden
    variant."""
    from tradewinds.agents import pvnet

    game = registry.game(game_name)
    config = pvnet.NetConfig(game_name, n, game.obs_size, game.num_actions, 32, 1,
                             "heuristic" if kind.endswith("hinted") else "")
    path = pvnet.save(tmp_path / "net.npz", pvnet.random_weights(config, seed=3), config)
    kwargs = {"az": {"simulations": 24}, "net": {},
              "az-judged": {"simulations": 24, "judge": 0.5, "judge_depth": 12},
              "az-gumbel": {"simulations": 24, "root": "gumbel"},
              "az-hinted": {"simulations": 24}, "net-hinted": {},
              "az-unsearched-hinted": {"simulations": 24, "unsearched": UNSEARCHED[game_name]},
              }[kind]
    agent = agents.make_agent(f"{kind.split('-')[0]}:{path}", game=game_name, **kwargs)
    rng = np.random.default_rng(11)
    checked = 0
    for i, s in enumerate(positions(game_name, n, 12, seed=n + 20)):
        p = game.current_player(s)
        variant = hansa_variant(s, rng) if game_name == "hansa" else voyage_variant(s, p, rng)
        if variant is None:
            continue
        pick = _policy_choice if kind == "net" else choice     # a hint needs state=
        assert pick(agent, game, s, i) == pick(agent, game, variant, i), (
            f"{kind} changed its choice when only hidden parts changed ({game_name}, "
            f"position {i})")
        checked += 1
    assert checked >= 5


def _policy_choice(agent, game, state, seed: int) -> int:
    """An agent without needs_state gets the observation and mask only (as the arena)."""
    p = game.current_player(state)
    return agent.act(game.observe(state, p), game.legal_mask(state),
                     np.random.default_rng(seed))
