"""One conformance suite for every registered game.

Parametrized over `tradewinds.registry.games()` — Hansa, Voyage and, while this module
runs, the tiny test game Pebbles (tests/helpers/pebbles_env/, docs/adding_a_game.md) — each
game's player counts
(`min_players..max_players`) and option sets (its declared options: the defaults, every
other value of each option — both values of a bool, `Game.option_choices` for the rest —
and every pair of such changes the game accepts), so a newly registered game gets the whole
suite. It covers:

- PettingZoo's `api_test` (over several games), `seed_test` and `render_test`;
- the AEC env: `agent_selection` follows `current_player`, only the decider sees a mask,
  the reward modes at a game's end agree with `Game.winners` (games that end by the rules;
  the values of truncated games and of `reward="score"` payments are the reward module's
  own tests), a round cap sets `truncations`;
- illegal actions: `illegal_action="raise"` names the action and the reason and changes
  nothing, `"lose"` ends the game against the offender;
- `set_state`: round trip, continuing, the finished state, rejection of bad states without
  touching the env;
- capabilities: a game declares every optional capability its kernels have
  (`tradewinds.protocol.CAPABILITIES`), so no part of this suite is skipped by mistake;
- batches: the game's batch kernels (capability ``batch``) equal stepping one state at a
  time, and their parallel path equals the serial one;
- replay: same seed and actions, same states;
- `determinize(state, player, key)`: the seat's observation, the whole-state invariants
  (`validate_state`), who decides and what he may do are kept; the sample is a function of
  the key and of what the seat sees; play goes on from it;
- bad input: wrong player counts, unknown options and bad option values, combinations a
  game refuses, bad seeds, seats and keys — each a ValueError that names the culprit and
  leaves the state as it was.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, render_test, seed_test

import tradewinds
from tests.helpers import pebbles_env
from tradewinds import registry
from tradewinds.compiled import generic, protocol
from tradewinds.protocol import CAPABILITIES, IllegalActionError


@pytest.fixture(autouse=True, scope="module")
def third_game():
    """Pebbles is registered while this module's tests run, and only then: other test
    modules see the registry as a user does."""
    with pebbles_env.registered():
        yield

# ------------------------------------------------------------------ the parameter grid


def option_sets(game) -> tuple[list[dict], list[dict]]:
    """(accepted, refused): the option sets a game's declared options give — the defaults
    ({}), each other value of each option alone, each pair of such changes — split by
    whether `resolve_options` accepts them."""
    singles = []
    for name, default in game.option_defaults.items():
        values = list(game.option_choices.get(name, ()))
        if isinstance(default, bool):
            values = values or [not default]
        singles += [{name: v} for v in values if v != default]
    accepted, refused = [{}, *singles], []
    for a, b in itertools.combinations(singles, 2):
        if set(a) & set(b):
            continue
        combo = {**a, **b}
        try:
            game.resolve_options(combo)
        except ValueError:
            refused.append(combo)
        else:
            accepted.append(combo)
    return accepted, refused


def _label(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def cases(all_counts: bool = True, all_options: bool = True):
    """pytest params (name, num_players, options) over the registry."""
    for name in registry.games():
        game = registry.game(name)
        counts = range(game.min_players, game.max_players + 1)
        sets = option_sets(game)[0]
        for n in counts if all_counts else (game.max_players,):
            for options in sets if all_options else sets[:1]:
                yield pytest.param(name, n, options, id=f"{name}-{n}p-{_label(options)}")


with pebbles_env.registered():
    ALL = list(cases())
    DEFAULTS = list(cases(all_options=False))       # every game and count, default options
    MAX_PLAYERS = list(cases(all_counts=False))     # every game and option set, most seats
    GAMES = [pytest.param(name, id=name) for name in registry.games()]


# ------------------------------------------------------------------ helpers


def random_game(game, n, options, seed, stops=6, max_steps=None):
    """Uniformly random play from a fresh game with `seed`: (actions, positions), the
    positions being snapshots at `stops` random decisions, the start and the last state."""
    rng = np.random.default_rng(seed)
    s = game.new_state(n, seed, **options)
    positions, actions = [s.copy()], []
    at = set(rng.integers(1, 60 * n, size=stops).tolist())
    while not game.is_terminal(s) and (max_steps is None or len(actions) < max_steps):
        a = int(rng.choice(game.legal_actions(s)))
        game.step(s, a)
        actions.append(a)
        if len(actions) in at:
            positions.append(s.copy())
    positions.append(s.copy())
    return actions, positions


def play_env(env, rng, policy=None, max_steps=None, check=None):
    """Drive an AEC env to the end (or max_steps) with random legal actions (or policy);
    returns (actions, summed rewards per agent, (termination, truncation) per agent that
    finished). `check(env)` runs before every decision."""
    totals = {a: 0.0 for a in env.possible_agents}
    actions, ends = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            ends[agent] = (term, trunc)
            env.step(None)
            continue
        if max_steps is not None and len(actions) >= max_steps:
            break
        if check is not None:
            check(env)
        mask = obs["action_mask"]
        a = policy(env, obs, rng) if policy else int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        env.step(a)
    return actions, totals, ends


def finishing_policy(name):
    """A policy that ends games by the rules: the game's heuristic agent where there is
    one (random Voyage fleets never finish a game), else uniformly random play."""
    try:
        from tradewinds import agents

        agent = agents.make_agent("heuristic", game=name)
    except Exception:  # noqa: BLE001 - a game without a heuristic plays randomly
        return None

    def policy(env, obs, rng):
        state = env.unwrapped.state()
        return int(agent.act(obs["observation"], obs["action_mask"], rng, state=state))

    return policy


def illegal_action(game, state) -> int | None:
    mask = game.legal_mask(state)
    return int(np.flatnonzero(mask == 0)[0]) if not mask.all() else None


# ------------------------------------------------------------------ registry


def test_registry_makes_every_game():
    names = registry.games()
    assert names == sorted(names) and len(set(names)) == len(names)
    for name in names:
        game = registry.game(name)
        assert game.name == name and tradewinds.game(name) is game
        assert game.min_players <= game.max_players
        assert len(game.action_names) == game.num_actions == len(set(game.action_names))
        assert len(game.obs_names) == game.obs_size == len(set(game.obs_names))
        assert all(game.action_id(game.action_name(a)) == a for a in range(game.num_actions))
        env, raw = tradewinds.make(name), tradewinds.make(name, raw=True)
        assert isinstance(raw, AECEnv) and env.unwrapped.metadata["name"] == f"{name}_v0"
        assert getattr(raw, "game", game) is game
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: " +
                       re.escape(", ".join(names))):
        tradewinds.make("chess")


@pytest.mark.parametrize("name", GAMES)
def test_capabilities_are_declared(name):
    """`Game.capabilities` names exactly the optional capabilities the kernels have (the
    Game refuses one they lack; here: none is left out), and `turn_order` is a seat order."""
    game = registry.game(name)
    for capability, kernels in CAPABILITIES.items():
        has = (all(getattr(game.kernels, k, None) is not None for k in kernels) if kernels
               else type(game.aux) in protocol.bound_games())
        assert game.supports(capability) == has, capability
    for n in range(game.min_players, game.max_players + 1):
        order = game.turn_order(game.new_state(n, n))
        assert sorted(order) == list(range(n))


# ------------------------------------------------------------------ PettingZoo tests


@pytest.mark.parametrize("name, n, options", ALL)
def test_pettingzoo_api_and_seed(name, n, options):
    api_test(tradewinds.make(name, num_players=n, seed=n, **options), num_cycles=100)
    seed_test(lambda: tradewinds.make(name, num_players=n, **options), num_cycles=100)


@pytest.mark.parametrize("name, n, options", DEFAULTS)
def test_pettingzoo_api_over_whole_games(name, n, options):
    """api_test plays one game: loop, so that ends of games are checked too — one as long
    as the rules make it (within the cycles), then games stopped by a 2-round cap."""
    game = registry.game(name)
    capped = [{"max_rounds": 2}] * 2 if "max_rounds" in game.option_defaults else []
    for seed, extra in enumerate([{}, *capped]):
        api_test(tradewinds.make(name, num_players=n, seed=seed, **options, **extra),
                 num_cycles=600)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test(name):
    game = registry.game(name)

    def env_fn(render_mode=None):
        env = tradewinds.make(name, num_players=game.max_players, render_mode=render_mode)
        env.unwrapped.human_window = False       # "human" prints the text board, no window
        return env

    render_test(env_fn)


def test_wrapper_keeps_order_enforcement():
    for name in registry.games():
        env = tradewinds.make(name)
        with pytest.raises(AttributeError, match="before reset"):
            env.last()
        env.reset(seed=0)
        obs, reward, term, trunc, info = env.last()
        assert obs["action_mask"].any() and reward == 0 and not (term or trunc)


# ------------------------------------------------------------------ the AEC env


@pytest.mark.parametrize("name, n, options", ALL)
def test_env_follows_the_game_and_replays(name, n, options):
    """agent_selection is the kernel's current_player, only the decider sees a mask (the
    game's legal actions), every seat observes what `Game.observe` gives; the env's game is
    the one `Game.replay` rebuilds from (seed, actions), name by name or id by id."""
    game = registry.game(name)
    env = tradewinds.make(name, num_players=n, **options)
    env.reset(seed=17)
    raw = env.unwrapped

    def check(env):
        s = raw.kernel_state
        p = game.current_player(s)
        assert env.agent_selection == f"player_{p}"
        for q, agent in enumerate(env.possible_agents):
            o = env.observe(agent)
            assert np.array_equal(o["observation"], game.observe(s, q))
            if q == p:
                assert np.array_equal(o["action_mask"], game.legal_mask(s))
            else:
                assert not o["action_mask"].any()

    actions, _, _ = play_env(env, np.random.default_rng(1), max_steps=400, check=check)
    final = raw.state()
    start = game.new_state(n, raw.game_seed, **options)
    assert np.array_equal(game.replay(n, raw.game_seed, actions, **options), final)
    names = [game.action_name(a) for a in actions]
    assert np.array_equal(game.replay(n, raw.game_seed, names, **options), final)
    assert not np.array_equal(start, game.new_state(n, raw.game_seed + 1, **options))
    # the same seed and actions in a second env: the same game
    twin = tradewinds.make(name, num_players=n, **options)
    twin.reset(seed=17)
    for a in actions:
        twin.step(a)
    assert np.array_equal(twin.unwrapped.state(), final)


@pytest.mark.parametrize("name, n, options", ALL)
def test_replay_is_deterministic_to_the_end(name, n, options):
    game = registry.game(name)
    actions, positions = random_game(game, n, options, seed=23, stops=0, max_steps=3000)
    final = positions[-1]
    assert np.array_equal(game.replay(n, 23, actions, **options), final)
    again = game.new_state(n, 23, **options)
    key = np.array([5, 6], dtype=np.int32)
    steps = game.random_playout(again, key.copy())
    twin = game.new_state(n, 23, **options)
    assert game.random_playout(twin, key.copy()) == steps and np.array_equal(twin, again)
    if game.is_terminal(final):   # acting after the end: refused, nothing changes
        for a in (0, game.num_actions - 1):
            with pytest.raises(IllegalActionError, match="the game is over"):
                game.step(final, a)
        assert np.array_equal(final, positions[-1])


@pytest.mark.parametrize("name, n", [p.values[:2] for p in DEFAULTS])
@pytest.mark.parametrize("mode", ["win", "zero_sum"])
def test_rewards_at_the_end_agree_with_the_winners(name, n, mode):
    """Games that end by the rules: `win` shares 1 among `Game.winners`, `zero_sum` shares
    +1 among them and -1 among the others (0 for everybody when all win)."""
    game = registry.game(name)
    policy = finishing_policy(name)
    for seed in range(4):
        env = tradewinds.make(name, num_players=n, reward=mode)
        env.reset(seed=seed)
        _, totals, ends = play_env(env, np.random.default_rng(seed), policy)
        state = env.unwrapped.state()
        assert game.is_terminal(state)
        if not game.is_truncated(state):
            break
    else:
        pytest.skip(f"no {name} game ended by the rules (only truncated games)")
    agents = env.possible_agents
    assert all(ends[a] == (True, False) for a in agents)
    winners = game.winners(state)
    values = np.array([totals[a] for a in agents])
    assert winners and np.array_equal(game.returns(state) > 0, np.isin(range(n), winners))
    won = np.isin(range(n), winners)
    k = len(winners)
    if mode == "win":
        np.testing.assert_allclose(values, np.where(won, 1 / k, 0.0))
    else:
        expected = np.where(won, 1 / k, -1 / (n - k)) if k < n else np.zeros(n)
        np.testing.assert_allclose(values, expected)
    # a finished state handed to set_state finishes the env with the same rewards
    other = tradewinds.make(name, raw=True, num_players=n, reward=mode)
    other.set_state(state)
    assert all(other.terminations.values()) and not any(other.truncations.values())
    np.testing.assert_allclose([other.rewards[a] for a in agents], values)


@pytest.mark.parametrize("name", GAMES)
def test_a_round_cap_truncates(name):
    game = registry.game(name)
    if "max_rounds" not in game.option_defaults:
        pytest.skip(f"{name} has no round cap")
    n = game.min_players
    env = tradewinds.make(name, num_players=n, max_rounds=1)
    env.reset(seed=3)
    _, _, ends = play_env(env, np.random.default_rng(3))
    state = env.unwrapped.state()
    assert game.is_terminal(state)
    truncated = game.is_truncated(state)
    assert ends == {a: (not truncated, truncated) for a in env.possible_agents}


@pytest.mark.parametrize("name, n, options", MAX_PLAYERS)
def test_illegal_action_raise_names_it_and_changes_nothing(name, n, options):
    game = registry.game(name)
    env = tradewinds.make(name, num_players=n, **options)
    env.reset(seed=5)
    play_env(env, np.random.default_rng(5), max_steps=40)
    raw = env.unwrapped
    before, agent = raw.state(), env.agent_selection
    bad = illegal_action(game, before)
    assert bad is not None, "every action legal: nothing to test"
    label = game.action_name(bad)
    cases = [(bad, rf"^{re.escape(label)} is illegal: \S"), (label, rf"^{re.escape(label)} is "
             r"illegal: \S"), (game.num_actions, "out of range"), (-1, "out of range"),
             (True, "must be an int"), (1.5, "must be an int"),
             ("no-such-action", "unknown action name"), (None, "must act")]
    for action, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            env.step(action)
        assert np.array_equal(raw.state(), before) and env.agent_selection == agent
    assert issubclass(IllegalActionError, ValueError)
    env.step(int(game.legal_actions(before)[0]))          # the game goes on


@pytest.mark.parametrize("name, n, options", MAX_PLAYERS)
def test_illegal_action_lose_ends_the_game_against_the_offender(name, n, options):
    game = registry.game(name)
    env = tradewinds.make(name, num_players=n, illegal_action="lose", **options)
    env.reset(seed=6)
    play_env(env, np.random.default_rng(6), max_steps=25)
    offender = env.agent_selection
    bad = illegal_action(game, env.unwrapped.state())
    env.step(bad)
    obs, reward, term, trunc, info = env.last()
    assert env.agent_selection == offender and term and reward == -1.0
    assert info["illegal_action"] == offender
    assert all(env.terminations.values())
    assert all(env.rewards[a] == 0 for a in env.possible_agents if a != offender)
    for _ in env.agent_iter():
        env.step(None)
    assert not env.agents


# ------------------------------------------------------------------ set_state


@pytest.mark.parametrize("name, n, options", ALL)
def test_set_state_round_trip(name, n, options):
    game = registry.game(name)
    _, positions = random_game(game, n, options, seed=31, stops=4, max_steps=2500)
    env = tradewinds.make(name, raw=True, num_players=n, **options)
    rng = np.random.default_rng(0)
    for s in positions:
        env.set_state(s)
        copy = env.state()
        assert np.array_equal(copy, s)
        copy[:] = 0
        assert np.array_equal(env.state(), s), "state() must be a copy"
        if game.is_terminal(s):
            done = game.is_truncated(s)
            assert all(env.truncations[a] == done for a in env.possible_agents)
            assert all(env.terminations[a] != done for a in env.possible_agents)
            continue
        p = game.current_player(s)
        assert env.agent_selection == f"player_{p}"
        for q, agent in enumerate(env.possible_agents):
            assert np.array_equal(env.observe(agent)["observation"], game.observe(s, q))
        # continuing from the env equals continuing from the state
        t = s.copy()
        for _ in range(20):
            if game.is_terminal(t):
                break
            a = int(rng.choice(game.legal_actions(t)))
            env.step(a)
            game.step(t, a)
        assert np.array_equal(env.state(), t)


@pytest.mark.parametrize("name, n, options", MAX_PLAYERS)
def test_set_state_rejects_bad_states_and_keeps_its_own(name, n, options):
    game = registry.game(name)
    _, positions = random_game(game, n, options, seed=41, stops=1, max_steps=300)
    good = positions[1]
    env = tradewinds.make(name, raw=True, num_players=n, **options)
    env.set_state(good)
    selected = env.agent_selection
    rng = np.random.default_rng(2)
    other = game.new_state(n - 1 if n > game.min_players else n + 1, 1, **options) \
        if game.min_players < game.max_players else None
    seats = good.copy()
    seats[0] = game.max_players + 5
    bad = [
        (good.astype(np.int64), "int32"),
        (good[:-1], "int32|length"),
        (good.tolist(), "int32"),
        (seats, f"num_players={game.max_players + 5}|{game.max_players + 5}"),
        (rng.integers(-9, 99, size=game.state_size).astype(np.int32), "."),
        (np.full(game.state_size, -1, dtype=np.int32), "."),
    ]
    if other is not None:
        bad.append((other, f"for {int(other[0])} players, env for {n}"))
    for state, message in bad:
        with pytest.raises(ValueError, match=message):
            env.set_state(state)
        assert np.array_equal(env.state(), good) and env.agent_selection == selected
    with pytest.raises(ValueError):
        game.validate_state(seats)


# ------------------------------------------------------------------ batches


def _batch_kernels(game):
    if not game.supports("batch"):
        pytest.skip(f"{game.name} has no batch kernels")
    return game.kernels


@pytest.mark.parametrize("name, n, options", ALL)
def test_batched_steps_equal_sequential_steps(name, n, options):
    """init_batch/step_batch/legal_mask_batch/observe_batch on a batch equal
    init/step/legal_mask/observe on each state alone, illegal actions and finished rows too."""
    game = registry.game(name)
    k = _batch_kernels(game)
    opts = game.parse_options(**game.resolve_options(options))
    batch, steps = 12, 150
    seeds = np.arange(batch, dtype=np.int64) * 3 + 100
    states = np.zeros((batch, game.state_size), dtype=np.int32)
    k.init_batch(states, n, seeds, *opts)
    singles = [game.new_state(n, int(sd), **options) for sd in seeds]
    assert np.array_equal(states, np.array(singles))
    rng = np.random.default_rng(n)
    errors = np.zeros(batch, dtype=np.int64)
    masks = np.zeros((batch, game.num_actions), dtype=np.int8)
    for step in range(steps):
        k.legal_mask_batch(states, masks)
        for i, s in enumerate(singles):
            assert np.array_equal(masks[i] != 0, game.legal_mask(s) != 0)
        acts = np.array([int(rng.integers(game.num_actions)) if step % 7 == 3
                         or game.is_terminal(s) else int(rng.choice(game.legal_actions(s)))
                         for s in singles], dtype=np.int64)
        k.step_batch(states, acts, errors)
        codes = [k.step(s, int(a)) for s, a in zip(singles, acts, strict=True)]
        assert errors.tolist() == codes
        assert np.array_equal(states, np.array(singles))
    players = np.arange(batch, dtype=np.int64) % n
    obs = np.zeros((batch, game.obs_size), dtype=np.float32)
    k.observe_batch(states, players, obs)
    for i, s in enumerate(singles):
        assert np.array_equal(obs[i], game.observe(s, int(players[i])))


@pytest.mark.parametrize("name, n, options", ALL)
def test_apply_equals_step_on_every_legal_action(name, n, options):
    """`protocol.apply`, the unchecked step of random playouts and the search's descent, leaves
    the state `step` leaves for every legal action along random games (a game without its
    own `apply` gets `step`)."""
    game = registry.game(name)
    rng = np.random.default_rng(n)
    s = game.new_state(n, 60, **options)
    for _ in range(200):
        if game.is_terminal(s):
            break
        legal = game.legal_actions(s)
        for a in legal:
            checked, unchecked = s.copy(), s.copy()
            assert generic.step(game.aux, checked, int(a)) == 0
            generic.apply(game.aux, unchecked, int(a))
            assert np.array_equal(checked, unchecked), (name, n, options, int(a))
        game.step(s, int(rng.choice(legal)))


@pytest.mark.parametrize("name, n, options", ALL)
def test_batched_playouts_equal_single_playouts(name, n, options):
    game = registry.game(name)
    k = _batch_kernels(game)
    opts = game.parse_options(**game.resolve_options(options))
    batch = 10
    seeds = np.arange(batch, dtype=np.int64) + 7
    states = np.zeros((batch, game.state_size), dtype=np.int32)
    k.init_batch(states, n, seeds, *opts)
    keys = np.stack([seeds, seeds + 1], axis=1).astype(np.int32)
    steps = k.random_playout_batch(states, keys.copy())
    for i in range(batch):
        s = game.new_state(n, int(seeds[i]), **options)
        assert game.random_playout(s, keys[i].copy()) == steps[i]
        assert np.array_equal(s, states[i]) and game.is_terminal(s)


@pytest.mark.parametrize("name", GAMES)
def test_parallel_batches_equal_serial_batches(name):
    """From `PARALLEL_MIN` rows up the batch kernels run rows in parallel (prange): the
    same rows in smaller (serial) batches give the same states, errors and counts. With a
    1-round cap (where the game has one) rows finish and auto-reset within the test."""
    game = registry.game(name)
    k = _batch_kernels(game)
    n = game.max_players
    options = {"max_rounds": 1} if "max_rounds" in game.option_defaults else {}
    opts = game.parse_options(**game.resolve_options(options))
    big = k.PARALLEL_MIN + 8
    halves = [slice(0, big // 2), slice(big // 2, big)]
    seeds = np.arange(big, dtype=np.int64) * 11
    par = np.zeros((big, game.state_size), dtype=np.int32)
    k.init_batch(par, n, seeds, *opts)
    ser = np.zeros_like(par)
    for h in halves:
        k.init_batch(ser[h], n, seeds[h], *opts)
    assert np.array_equal(par, ser)
    for i in range(0, big, big // 7):
        assert np.array_equal(par[i], game.new_state(n, int(seeds[i]), **options))
    masks = np.zeros((big, game.num_actions), dtype=np.int8)
    keys = np.stack([seeds, seeds + 5], axis=1).astype(np.int32)
    par_seeds, ser_seeds, ser_keys = seeds.copy(), seeds.copy(), keys.copy()
    done_par = done_ser = 0
    for _ in range(200):
        done_par += k.random_step_batch(par, masks, keys, par_seeds, True, n, *opts)
        for h in halves:
            done_ser += k.random_step_batch(ser[h], masks[h], ser_keys[h], ser_seeds[h],
                                            True, n, *opts)
    assert done_par == done_ser and np.array_equal(par, ser)
    assert np.array_equal(keys, ser_keys) and np.array_equal(par_seeds, ser_seeds)
    assert done_par == int((par_seeds - seeds).sum()), "a finished row gets seed + 1"
    if options:
        assert done_par > 0, "no row finished a 1-round game in 200 decisions"
    for s in par[:: big // 5]:
        game.validate_state(s)        # auto-reset rows are fresh, valid games
        assert not game.is_terminal(s)
    players = np.arange(big, dtype=np.int64) % n
    for f, args, width, dtype in ((k.legal_mask_batch, (), game.num_actions, np.int8),
                                  (k.observe_batch, (players,), game.obs_size, np.float32)):
        out_par, out_ser = np.zeros((2, big, width), dtype=dtype)
        f(par, *args, out_par)
        for h in halves:
            f(ser[h], *(a[h] for a in args), out_ser[h])
        assert np.array_equal(out_par, out_ser), f
    errors_par = np.zeros(big, dtype=np.int64)
    errors_ser = np.zeros(big, dtype=np.int64)
    acts = np.arange(big, dtype=np.int64) % game.num_actions
    k.step_batch(par, acts, errors_par)
    for h in halves:
        k.step_batch(ser[h], acts[h], errors_ser[h])
    assert np.array_equal(par, ser) and np.array_equal(errors_par, errors_ser)
    keys = np.stack([seeds + 2, seeds + 9], axis=1).astype(np.int32)
    steps_par = k.random_playout_batch(par, keys.copy())
    steps_ser = np.concatenate([k.random_playout_batch(ser[h], keys[h].copy())
                                for h in halves])
    assert np.array_equal(steps_par, steps_ser) and np.array_equal(par, ser)


# ------------------------------------------------------------------ determinize


@pytest.mark.parametrize("name, n, options", ALL)
def test_determinize_keeps_what_the_seat_sees(name, n, options):
    game = registry.game(name)
    _, positions = random_game(game, n, options, seed=53, stops=4, max_steps=2500)
    for i, s in enumerate(positions):
        before = s.copy()
        decider = game.current_player(s)
        for p in range(n):
            d = game.determinize(s, p, 100 * i + p)
            assert np.array_equal(s, before), "determinize changed the real state"
            assert np.array_equal(game.observe(d, p), game.observe(s, p))
            game.validate_state(d)
            assert game.current_player(d) == decider
            assert game.is_terminal(d) == game.is_terminal(s)
            assert game.is_truncated(d) == game.is_truncated(s)
            if p == decider:
                assert np.array_equal(game.legal_mask(d), game.legal_mask(s))
            assert np.array_equal(game.determinize(s, p, 100 * i + p), d), "same key"
            other = game.determinize(s, p, 7 + i)     # another sample of the same view
            assert np.array_equal(game.determinize(other, p, 100 * i + p), d), (
                "the sample depends on more than the seat's observation")
        if not game.is_terminal(s):
            d = game.determinize(s, (decider + 1) % n, i)
            game.random_playout(d, i)
            assert game.is_terminal(d)


@pytest.mark.parametrize("name", GAMES)
def test_determinize_refuses_bad_seats_and_keys(name):
    game = registry.game(name)
    n = game.min_players
    s = game.new_state(n, 3)
    before = s.copy()
    for seat in (-1, n, True, 0.5, "0"):
        with pytest.raises(ValueError, match="player must be a seat"):
            game.determinize(s, seat, 1)
    for key in ("x", 1.5, np.zeros(2, dtype=np.int64), np.zeros(3, dtype=np.int32)):
        with pytest.raises(ValueError, match="key must be"):
            game.determinize(s, 0, key)
    assert np.array_equal(s, before)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("name", GAMES)
def test_bad_player_counts_are_named(name):
    game = registry.game(name)
    lo, hi = game.min_players, game.max_players
    message = f"played by {lo} to {hi} players"
    for n in (lo - 1, hi + 1, 0, str(lo), float(lo), True, None):
        with pytest.raises(ValueError, match=message):
            tradewinds.make(name, num_players=n)
        with pytest.raises(ValueError, match=message):
            game.new_state(n, 0)


@pytest.mark.parametrize("name", GAMES)
def test_bad_env_arguments_are_named(name):
    for kwargs, message in [({"reward": "money"}, "reward must be one of"),
                            ({"illegal_action": "ignore"}, "illegal_action must be one of"),
                            ({"render_mode": "bogus"}, "render_mode must be")]:
        with pytest.raises(ValueError, match=message):
            tradewinds.make(name, **kwargs)


@pytest.mark.parametrize("name", GAMES)
def test_unknown_options_are_named(name):
    """An unknown option is a ValueError naming it, from the env, `new_state` and
    `resolve_options` alike (not a TypeError from deep inside a parser)."""
    game = registry.game(name)
    known = ", ".join(sorted(game.option_defaults))
    for call in option_paths(game, {"bogus_option": 1}):
        with pytest.raises(ValueError, match=f"unknown {name} option 'bogus_option'"):
            call()
    with pytest.raises(ValueError, match=re.escape(f"known options: {known}")):
        game.resolve_options({"bogus_option": 1})


@pytest.mark.parametrize("name", GAMES)
def test_bad_option_values_and_refused_combinations_are_named(name):
    game = registry.game(name)
    assert game.resolve_options() == game.option_defaults
    for option in game.option_defaults:
        for value in (object(), "", -1):
            if value == game.option_defaults[option] or value in game.option_choices.get(
                    option, ()):
                continue
            for call in option_paths(game, {option: value}):
                with pytest.raises(ValueError, match=option):
                    call()
    for combo in option_sets(game)[1]:   # pairs of options a game does not combine
        for call in option_paths(game, combo):
            with pytest.raises(ValueError, match="|".join(map(re.escape, combo))):
                call()


def option_paths(game, options: dict) -> list:
    """The three ways options reach a game: resolve_options, the env, new_state."""
    return [lambda: game.resolve_options(options),
            lambda: tradewinds.make(game.name, **options),
            lambda: game.new_state(game.min_players, 0, **options)]


@pytest.mark.parametrize("name", GAMES)
def test_game_methods_refuse_bad_arguments_by_name(name):
    game = registry.game(name)
    n = game.min_players
    for seed in (-1, 2**63, 1.5, "7", None):
        with pytest.raises(ValueError, match="seed must be"):
            game.new_state(n, seed)
    s = game.new_state(n, 9)
    before = s.copy()
    for player in (-1, game.max_players, 1.0, None):
        with pytest.raises(ValueError, match="player must be"):
            game.observe(s, player)
    bad = illegal_action(game, s)
    with pytest.raises(IllegalActionError, match=rf"^{re.escape(game.action_name(bad))} is "
                       r"illegal: \S"):
        game.step(s, bad)
    with pytest.raises(IllegalActionError, match="out of range"):
        game.step(s, game.num_actions)
    with pytest.raises(ValueError, match="int32"):
        game.step(s.astype(np.int64), int(game.legal_actions(s)[0]))
    assert np.array_equal(s, before)
    game.validate_state(s)


@pytest.mark.parametrize("name, n, options", DEFAULTS)
def test_observations_are_named_and_within_their_bounds(name, n, options):
    game = registry.game(name)
    env = tradewinds.make(name, num_players=n, **options)
    box = env.observation_space(env.possible_agents[0])["observation"]
    _, positions = random_game(game, n, options, seed=61, stops=5, max_steps=2500)
    for s in positions:
        for p in range(n):
            o = game.observe(s, p)
            assert o.dtype == np.float32 and o.shape == (game.obs_size,)
            assert box.contains(o), [game.obs_names[i] for i in
                                     np.flatnonzero((o < box.low) | (o > box.high))[:5]]
