"""Voyage through the AEC API and the Game handle: what is particular to Voyage (hidden
information, options, maps, rendering). What every game must do is
tests/core/test_conformance.py."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import voyage_env
from voyage_env import GAME
from voyage_env.board import map_from_text
from voyage_env.state import StateView


def _random_state(seed, steps, n=3):
    rng = np.random.default_rng(seed)
    s = GAME.new_state(n, seed)
    for _ in range(steps):
        if GAME.is_terminal(s):
            break
        GAME.step(s, int(rng.choice(GAME.legal_actions(s))))
    return s


@pytest.mark.parametrize("seed", range(8))
def test_hidden_information_does_not_leak(seed):
    """VA32: two states differing only in what seat 0 cannot see observe the same for it."""
    s = _random_state(seed, 40 + 30 * seed)
    t = s.copy()
    v = StateView(t)
    rng = np.random.default_rng(seed)
    # another hand of the same size for seat 1, other target cards for seats 1 and 2,
    # and a reordered deck
    size = int(v.hand[1].sum())
    pool = np.repeat(np.arange(v.hand.shape[1]), v.hand[1] + v.discard)
    new = np.bincount(rng.choice(pool, size=size, replace=False), minlength=v.hand.shape[1])
    v.discard[:] += v.hand[1] - new
    v.hand[1] = new
    v.targets[1:3] = np.roll(v.targets[1:3].reshape(-1), 3).reshape(2, -1)
    rng.shuffle(v.deck[: v.deck_size])
    GAME.validate_state(t)
    np.testing.assert_array_equal(GAME.observe(s, 0)[_hand_free(t)],
                                  GAME.observe(t, 0)[_hand_free(t)])
    # ... while the seats who can see the change do see it
    if not np.array_equal(StateView(s).targets[1], v.targets[1]):
        assert not np.array_equal(GAME.observe(s, 1), GAME.observe(t, 1))


def _hand_free(state):
    """Entries that do not depend on the discard pile (changed to keep cards conserved)."""
    names = GAME.obs_names
    return np.array([not n.startswith("discard:") for n in names])


def test_observation_shows_own_hand_and_only_sizes_of_others():
    s = _random_state(3, 60)
    v = StateView(s)
    names = GAME.obs_names
    o = GAME.observe(s, 0)
    for k, kind in enumerate(("storm2", "storm3", "storm4")):
        assert o[names.index(f"my_hand:{kind}")] == pytest.approx(v.hand[0, k] / 5)
    assert o[names.index("p1:hand_size")] == pytest.approx(v.hand[1].sum() / 5)
    own = {n for n in names if n.startswith("my_target:")}
    shown = {n for n in own if o[names.index(n)] == 1}
    expected = {f"my_target:{GAME.board.port_name[p]}" for p in v.targets[0] if p >= 0}
    assert shown == expected


def test_illegal_actions_and_bad_options_are_named():
    s = GAME.new_state(2, 0)
    with pytest.raises(ValueError, match="move:N is illegal"):
        GAME.step(s, "move:N")
    with pytest.raises(ValueError, match="unknown action name"):
        GAME.step(s, "sail:Lisbon")
    for kwargs, message in [
        ({"num_players": 5}, "2 to 4 players"),
        ({"simple_deck": "yes"}, "simple_deck must be True or False"),
        ({"dice_movement": True, "simple_deck": True}, "dice_movement=True and simple_deck"),
        ({"max_rounds": 0}, "max_rounds must be"),
    ]:
        with pytest.raises(ValueError, match=message):
            voyage_env.env(**kwargs)
    tiny = map_from_text("""
        ~~~~
        ~@~~
        ~~~~
    """)
    with pytest.raises(ValueError, match="needs a port named Melaka"):
        voyage_env.env(voyage_map=tiny, black_ship=True)


def test_malformed_states_are_rejected():
    s = GAME.new_state(3, 2)
    GAME.validate_state(s)
    for edit, message in [
        (lambda v: setattr(v, "num_players", 9), "num_players=9"),
        (lambda v: v.spent.__setitem__(0, 20), "spent outside"),
        (lambda v: v.stock.__setitem__(0, 3), "cubes not conserved"),
        (lambda v: v.discard.__setitem__(0, 4), "wind cards not conserved"),
        (lambda v: v.ship.__setitem__(1, 10_000), "outside the map"),
    ]:
        t = s.copy()
        edit(StateView(t))
        with pytest.raises(ValueError, match=message):
            GAME.validate_state(t)


def test_runs_on_a_tiny_map():
    tiny = map_from_text("""
        ~~~~~~
        ~@~~A~
        ~~~~~~
    """, ports="A | Guinea | 1444 | west | chili")
    env = voyage_env.env(num_players=2, voyage_map=tiny)
    api_test(env, num_cycles=500)


def test_render_modes():
    env = voyage_env.env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    assert "turn order" in env.render()
    env = voyage_env.env(num_players=2, render_mode="rgb_array", black_ship=True)
    env.reset(seed=4)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.std() > 10
