"""State checks: the full validation and the cheap structural checks.

- `validate_state` rejects every state the plain-Python reference's loader rejects:
  real states of both games are mutated field by field and both are asked.
- The cheap structural checks (`hansa_env.checks`, `voyage_env.checks`) accept every state
  of real games, and the `Game` methods turn what they reject into a ValueError naming the
  field and its value; arrays of another dtype, length or layout are refused without
  compiling anything.
"""

import re

import numpy as np
import pytest

import tradewinds
from hansa_env.reference import HansaGame
from voyage_env.reference import VoyageGame

REFERENCE = {"hansa": HansaGame.from_state, "voyage": VoyageGame.from_state}
OPTIONS = {"hansa": [{}, {"build_rule": "per_stall"}, {"max_rounds": 4}],
           "voyage": [{}, {"simple_deck": True}, {"black_ship": True}, {"max_rounds": 2},
                      {"dice_movement": True}, {"dice_movement": True, "black_ship": True}]}


def _states(name, games, seed):
    """Snapshots of random games (every phase that comes up, finished games too)."""
    game = tradewinds.game(name)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        opts = OPTIONS[name][g % len(OPTIONS[name])]
        s = game.new_state(2 + g % 3, seed + g, **opts)
        stops = set(rng.integers(0, 400, size=6).tolist())
        k = 0
        while not game.is_terminal(s):
            if k in stops:
                out.append(s.copy())
            game.step(s, int(rng.choice(game.legal_actions(s))))
            k += 1
        out.append(s.copy())
    return out


def _rejects(f, state) -> bool:
    try:
        f(state)
    except Exception:  # noqa: BLE001 - the reference may refuse by any exception
        return True
    return False


def _values(old, n, rng):
    return [old - 1, old + 1, -1, 0, 1, n, n + 1, 2**31 - 1, -2**31,
            int(rng.integers(-20, 100))]


def _parity(name, states, entries_of, rng):
    """Mutate each state at the given entries; return the misses (reference rejects,
    validate_state accepts) and how many the reference rejected."""
    game = tradewinds.game(name)
    reference = REFERENCE[name]
    misses, rejected = [], 0
    for s in states:
        for at, value in entries_of(game, s, rng):
            t = s.copy()
            t[at] = np.int32(value)
            if _rejects(reference, t):
                rejected += 1
                if not _rejects(game.validate_state, t):
                    field = next(f.name for f in game.checks.layout.fields.values()
                                 if f.offset <= at < f.offset + f.size)
                    misses.append((field, at, int(s[at]), value, int(s[1])))
    return misses, rejected


def _field_samples(game, s, rng):
    """Two mutations of one random entry of every field."""
    for f in game.checks.layout.fields.values():
        at = f.offset + int(rng.integers(f.size))
        vals = _values(int(s[at]), int(s[0]), rng)
        for i in rng.choice(len(vals), size=2, replace=False):
            yield at, vals[int(i)]


def _every_entry(game, s, rng):
    for at in range(len(s)):
        vals = _values(int(s[at]), int(s[0]), rng)
        for i in rng.choice(len(vals), size=5, replace=False):
            yield at, vals[int(i)]


@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_real_states_pass_every_check_and_the_reference(name):
    game = tradewinds.game(name)
    for s in _states(name, 6, 100):
        game.validate_state(s)
        REFERENCE[name](s)
        c = game.checks
        assert c.check(s, c.m) == 0 and c.check_play(s, c.m) == 0


@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_validate_state_rejects_what_the_reference_rejects(name):
    rng = np.random.default_rng(1)
    misses, rejected = _parity(name, _states(name, 7, 200), _field_samples, rng)
    assert rejected > 300
    assert not misses, misses[:10]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_validate_state_rejects_what_the_reference_rejects_every_entry(name):
    rng = np.random.default_rng(2)
    misses, rejected = _parity(name, _states(name, 8, 300), _every_entry, rng)
    assert not misses, misses[:10]


@pytest.mark.parametrize("name, field, value, message", [
    ("hansa", "turns", -5, "turns=-5"),
    ("hansa", "round", 999, "round=999"),
    ("hansa", "setup_step", 2, "setup_step=2"),
    ("voyage", "round", 999, "round=999"),
    ("voyage", "tiles_taken", 1, "tiles"),
    ("voyage", "bid_leader", 3, "bid_leader=3"),
])
def test_the_issues_examples_are_rejected(name, field, value, message):
    game = tradewinds.game(name)
    s = game.new_state(2, 3)
    while name == "hansa" and s[1] == 0:
        game.step(s, game.legal_actions(s)[0])   # past the setup draft
    setattr(_view(name, s), field, value)
    with pytest.raises(ValueError, match=message):
        game.validate_state(s)


def _view(name, s):
    from hansa_env.state import StateView as HansaView
    from voyage_env.state import StateView as VoyageView

    return (HansaView if name == "hansa" else VoyageView)(s)


@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_game_methods_name_the_bad_field(name):
    game = tradewinds.game(name)
    s = game.new_state(3, 1)
    bad = s.copy()
    bad[0] = 99          # before the checks, this aborted the interpreter in observe
    calls = [lambda t: game.observe(t, 0), game.legal_mask, game.legal_actions,
             lambda t: game.step(t, 0), game.current_player, game.is_terminal,
             game.is_truncated, game.scores, game.winners, game.returns, game.num_players,
             lambda t: game.determinize(t, 0, 1), lambda t: game.random_playout(t, 1)]
    for call in calls:
        with pytest.raises(ValueError, match="num_players=99, must be in 2..4"):
            call(bad.copy())
    layout = game.checks.layout
    at = layout.offset("ship") + (1 if name == "voyage" else 0)
    bad = s.copy()
    bad[at] = 10**6
    label = "ship[1]" if name == "voyage" else "ship"
    with pytest.raises(ValueError, match=re.escape(f"{label}=1000000")):
        game.observe(bad, 0)
    with pytest.raises(ValueError, match="player must be a seat"):
        game.observe(s, 3)
    for player in (-1, 2**70, True, 1.0):
        with pytest.raises(ValueError, match="player must be"):
            game.observe(s, player)


@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_other_arrays_are_refused_without_compiling(name):
    game = tradewinds.game(name)
    s = game.new_state(2, 5)
    module = game.checks.module

    def compiled_only_the_declared_signatures():
        for name, declared in module.SIGNATURES.items():
            compiled = set(getattr(module, name).signatures)
            assert compiled <= {sig.args for sig in declared}, (name, compiled)
        return True
    for other in (s.astype(np.int16), s.astype(np.int64), s.astype(np.float32), s[:-1],
                  np.concatenate([s, s])[::2], s.reshape(1, -1), s.tolist(), None):
        for call in (game.legal_mask, lambda t: game.step(t, 0), game.scores,
                     lambda t: game.observe(t, 0), game.current_player):
            with pytest.raises(ValueError, match="C-contiguous np.int32 vector"):
                call(other)
    assert compiled_only_the_declared_signatures()
    read_only = s.copy()
    read_only.flags.writeable = False
    assert game.legal_actions(read_only) == game.legal_actions(s)
    np.testing.assert_array_equal(game.observe(read_only, 1), game.observe(s, 1))
    with pytest.raises(ValueError, match="read-only"):
        game.step(read_only, game.legal_actions(s)[0])


@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_checked_playout_is_the_kernel_playout(name):
    game = tradewinds.game(name)
    for seed in range(4):
        s = game.new_state(2 + seed % 3, seed)
        a, b = s.copy(), s.copy()
        key = tradewinds.protocol.as_key(seed)
        steps = game.random_playout(a, key.copy())
        assert steps == game.kernels.random_playout(b, key.copy()) > 0
        np.testing.assert_array_equal(a, b)


def test_a_state_without_legal_action_cannot_hang_a_playout():
    game = tradewinds.game("hansa")
    s = game.new_state(2, 0)
    v = _view("hansa", s)
    v.stalls[:, 0] = 1                   # seat 0 already "placed" in every city
    v.stall_supply[0] = 6
    assert game.legal_actions(s) == []
    with pytest.raises(ValueError, match="legal actions must be there"):
        game.random_playout(s, 1)


@pytest.mark.parametrize("name", ["hansa", "voyage"])
def test_check_batch_finds_the_first_bad_row(name):
    game = tradewinds.game(name)
    rows = np.stack([game.new_state(2, k) for k in range(5)])
    c = game.checks
    assert c.check_batch(rows, c.m) == -1
    rows[3, 0] = 7
    rows[4, 1] = -3
    assert c.check_batch(rows, c.m) == 3
