"""The Voyage destination search (`agents.destinations_voyage`): its targets, its steps,
its choice between targets, that it keeps a target for the turn, and what it may see."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.hidden_variants import choice, voyage_variant
from tests.helpers.positions import positions
from tests.helpers.searches import count_searches
from tradewinds import agents, registry
from tradewinds.agents import destinations_voyage as D
from tradewinds.agents import heuristic_voyage as H
from tradewinds.agents import pvnet
from tradewinds.agents.heuristic import rng_key
from tradewinds.studies.arena import agent_action
from tradewinds.studies.positions import decision_positions
from voyage_env import kernel as K
from voyage_env.state import MOVE

GAME = registry.game("voyage")


@pytest.fixture(scope="module")
def move_positions():
    """Seen states (the decider's determinization) of heuristic games at move steps."""
    found = [s for s in decision_positions(GAME, 2, 160, seed=8, every=2)
             if s[K.PHASE] == MOVE]
    return [GAME.determinize(s, GAME.current_player(s), 5) for s in found]


def _mask(s):
    return np.asarray(GAME.legal_mask(s), dtype=np.int8).copy()


def test_a_step_toward_the_heuristics_own_target_is_the_heuristics_step(move_positions):
    """The playouts' rule for a given target, given the plan's own, makes the heuristic's
    choice; so the search's first candidate is the heuristic's move."""
    m, routes = GAME.aux.m, GAME.aux.routes
    for s in move_positions:
        targets = np.full(6, -1, dtype=np.int64)
        D.candidates(s, m, H.PLAN_WEIGHTS.copy(), routes, H.PARAMS.copy(), targets)
        ours = H.step_toward(s, m, H.PLAN_WEIGHTS.copy(), routes, _mask(s), H.PARAMS.copy(),
                             targets[0])
        assert ours == H.choose(s, m, H.PLAN_WEIGHTS.copy(), routes, _mask(s), H.PARAMS.copy())
    assert len(move_positions) >= 40


def test_candidates_are_distinct_reachable_targets(move_positions):
    m = GAME.aux.m
    P = int(m[K.M_P])
    wide = 0
    for s in move_positions:
        targets = np.full(6, -2, dtype=np.int64)
        n = D.candidates(s, m, H.PLAN_WEIGHTS.copy(), GAME.aux.routes, H.PARAMS.copy(),
                         targets)
        chosen = targets[:n].tolist()
        assert len(set(chosen)) == n and all(-1 <= k <= P for k in chosen)
        assert all(k >= 0 for k in chosen[1:]) and np.all(targets[n:] == -2)
        wide += n > 1
    assert wide >= len(move_positions) // 2


def test_pick_departs_only_beyond_z_standard_errors():
    rng = np.random.default_rng(0)
    base = rng.random((32, 1))
    noise = rng.normal(0, 0.05, (32, 1))
    better = np.hstack([base, base + 0.04 + noise, base - 0.1])
    assert D.pick(better, 1.0) == 1                     # +0.04 with an error of about 0.01
    assert D.pick(better, 10.0) == 0
    assert D.pick(np.hstack([base, base - 0.01]), 0.0) == 0
    assert D.pick(base, 1.0) == 0


def test_playout_values_share_draws_and_are_win_chances():
    s = decision_positions(GAME, 2, 1, seed=3)[0]
    while s[K.PHASE] != MOVE or GAME.legal_mask(s).sum() < 2:
        GAME.step(s, agent_action(agents.make_agent("heuristic", game="voyage"), GAME, s,
                                  GAME.current_player(s), np.random.default_rng(1)))
    p = GAME.current_player(s)
    targets = np.array([-1, -1, 0], dtype=np.int64)
    values = np.zeros((6, 3))
    D.playout_values(GAME.aux, s, p, np.array([4, 9], np.int32), targets, values)
    assert np.all((values > 0) & (values < 1))
    assert np.array_equal(values[:, 0], values[:, 1])   # the same target on the same draw


def test_the_target_is_kept_for_the_turn_and_every_move_is_legal():
    """One search a turn, at most: the later steps of the turn follow the target found."""
    dest = agents.make_agent("dest:8", game="voyage")
    heuristic = agents.make_agent("heuristic", game="voyage")
    s, rng = GAME.new_state(2, seed=21), np.random.default_rng(21)
    turns, steps = set(), 0
    while not GAME.is_terminal(s):
        p = GAME.current_player(s)
        agent = dest if p == 0 else heuristic
        a = agent_action(agent, GAME, s, p, rng)
        assert GAME.legal_mask(s)[a], GAME.action_name(a)
        if p == 0 and s[K.PHASE] == MOVE:
            turns.add(int(s[K.ROUND]))
            steps += 1
        GAME.step(s, a)
    assert steps > 3 * len(turns) and 0 < dest.search.searches <= 2 * len(turns)


def test_destination_search_is_the_voyage_games_and_checks_its_settings():
    with pytest.raises(ValueError, match="plays the Voyage game, not 'hansa'"):
        D.DestinationSearch(registry.game("hansa"))
    with pytest.raises(ValueError, match="draws must be >= 2"):
        D.DestinationSearch(GAME, draws=1)
    with pytest.raises(ValueError, match="dest:<draws> takes a whole number"):
        agents.make_agent("dest:many", game="voyage")


@pytest.mark.parametrize("n", [2, 3])
def test_dest_ignores_hidden_parts(n):
    """The same choice on every hidden variant of a position (the honesty test's edits)."""
    agent = agents.make_agent("dest:4", game="voyage")
    rng = np.random.default_rng(5)
    checked = 0
    for i, s in enumerate(positions("voyage", n, 14, seed=n + 40)):
        variant = voyage_variant(s, GAME.current_player(s), rng)
        if variant is None or s[K.PHASE] != MOVE or GAME.legal_mask(s).sum() < 2:
            continue
        assert choice(agent, GAME, s, i) == choice(agent, GAME, variant, i), i
        checked += 1
    assert checked >= 4


def test_the_shipped_voyage_2p_az_ignores_hidden_parts():
    """The shipped net as `az` plays it (its metadata's destination search at the move
    steps, its judged net search elsewhere), with fewer simulations: the same choice on
    every hidden variant, at move steps and at other decisions."""
    agent = agents.make_agent("az", game="voyage", simulations=24)
    assert agent.destinations(2) is not None
    rng = np.random.default_rng(8)
    checked = {True: 0, False: 0}
    for i, s in enumerate(positions("voyage", 2, 24, seed=48)):
        variant = voyage_variant(s, GAME.current_player(s), rng)
        if variant is None or GAME.legal_mask(s).sum() < 2:
            continue
        assert choice(agent, GAME, s, i) == choice(agent, GAME, variant, i), i
        checked[bool(s[K.PHASE] == MOVE)] += 1
    assert min(checked.values()) >= 3, checked


def _net(tmp_path, meta=None):
    config = pvnet.NetConfig("voyage", 2, GAME.obs_size, GAME.num_actions, 32, 1)
    return pvnet.save(tmp_path / "v.npz", pvnet.random_weights(config, 2), config, meta)


def test_az_with_destinations_plays_them_at_move_steps_and_searches_the_rest(
        tmp_path, monkeypatch):
    path = _net(tmp_path)
    az = agents.make_agent(f"az:{path}", game="voyage", simulations=8, destinations=4)
    searched = count_searches(monkeypatch)
    moves = others = 0
    for s in decision_positions(GAME, 2, 40, seed=6):
        p = GAME.current_player(s)
        obs, mask = GAME.observe(s, p), GAME.legal_mask(s)
        before = len(searched)
        got = az.act(obs, mask, np.random.default_rng(3), state=s.copy())
        if s[K.PHASE] == MOVE:
            alone = D.DestinationSearch(GAME, 4)
            assert got == alone.act(s.copy(), rng_key(np.random.default_rng(3)))
            assert len(searched) == before
            moves += 1
        else:
            assert len(searched) == before + 1
            others += 1
    assert moves >= 5 and others >= 3


def test_az_destinations_come_from_the_caller_or_the_net(tmp_path):
    path = _net(tmp_path, {"search": {"destinations": 6, "simulations": 9}})
    az = agents.make_agent(f"az:{path}", game="voyage")
    assert az.destinations(2).draws == 6 and az._searcher(2).config.simulations == 9
    assert agents.make_agent(f"az:{path}", game="voyage", destinations=0).destinations(2) is None
    assert agents.make_agent(f"az:{path}", game="voyage",
                             destinations=3).destinations(2).draws == 3
    hansa = pvnet.NetConfig("hansa", 2, registry.game("hansa").obs_size,
                            registry.game("hansa").num_actions, 32, 1)
    h = pvnet.save(tmp_path / "h.npz", pvnet.random_weights(hansa, 1), hansa)
    with pytest.raises(ValueError, match="plays the Voyage game, not 'hansa'"):
        agents.make_agent(f"az:{h}", game="hansa", destinations=8)
