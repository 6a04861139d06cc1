"""Pictures: rgb_array frames (shape, change with the state, a status panel, public
information only), ansi text, render_mode="human" and PettingZoo's render_test."""

import numpy as np
import pytest
from pettingzoo.test import render_test

import hansa_env
import voyage_env
from hansa_env import render as hansa_render
from hansa_env.game import GAME as HANSA
from hansa_env.state import StateView as HansaView
from tradewinds.aec import KernelAECEnv
from voyage_env import render as voyage_render
from voyage_env.game import GAME as VOYAGE
from voyage_env.state import StateView as VoyageView

GAMES = {"hansa": hansa_env, "voyage": voyage_env}


@pytest.fixture(autouse=True)
def text_human_mode(monkeypatch):
    """Human mode prints the text board here, even where a display exists."""
    monkeypatch.setattr(KernelAECEnv, "human_window", False)


def _random_steps(env, k, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(k):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return False
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return True


def _voyage_map():
    return VOYAGE.board  # the map the default game is played (and drawn) on


def _panel(game, frame):
    """The status panel: right of the map (Hansa) or below it (Voyage)."""
    if game == "hansa":
        return frame[:, hansa_render.MAP_W:]
    return frame[frame.shape[0] - voyage_render.PANEL_H:]


def _board(game, frame):
    if game == "hansa":
        return frame[:, :hansa_render.MAP_W]
    return frame[: frame.shape[0] - voyage_render.PANEL_H]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_frames_have_shape_dtype_and_change_with_the_state(game, players):
    env = GAMES[game].env(num_players=players, render_mode="rgb_array")
    env.reset(seed=5)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    if game == "hansa":
        assert first.shape == (hansa_render.HEIGHT, hansa_render.WIDTH, 3)
    else:
        assert first.shape[1] == voyage_render.WIDTH
    assert first.std() > 10  # a picture, not a blank canvas
    _random_steps(env, 40 if game == "hansa" else 120)
    later = env.render()
    assert later.shape == first.shape
    assert (later != first).any(axis=2).sum() > 200
    assert (_panel(game, later) != _panel(game, first)).any()


def test_hansa_panel_shows_money_and_the_board_does_not():
    s = HANSA.new_state(3, 11)
    before = hansa_render.render_rgb(s)
    HansaView(s).money[1] += 7
    after = hansa_render.render_rgb(s)
    assert (_panel("hansa", after) != _panel("hansa", before)).any()
    np.testing.assert_array_equal(_board("hansa", after), _board("hansa", before))


def test_hansa_hands_are_drawn():
    s = HANSA.new_state(2, 3)
    before = hansa_render.render_rgb(s)
    HansaView(s).hand[0, 2, 1] += 1  # a yellow 2 in player_0's hand
    after = hansa_render.render_rgb(s)
    changed = (after != before).any(axis=2)
    assert changed[:, hansa_render.MAP_W:].sum() > 50
    assert not changed[:, :hansa_render.MAP_W].any()


def test_voyage_panel_shows_discs_and_the_map_does_not():
    vmap = _voyage_map()
    s = VOYAGE.new_state(3, 11)
    before = voyage_render.render_rgb(s, vmap)
    VoyageView(s).spent[2] += 2
    after = voyage_render.render_rgb(s, vmap)
    assert (_panel("voyage", after) != _panel("voyage", before)).any()
    np.testing.assert_array_equal(_board("voyage", after), _board("voyage", before))


def test_voyage_ships_and_discoveries_are_drawn_on_the_map():
    vmap = _voyage_map()
    s = VOYAGE.new_state(2, 4)
    before = voyage_render.render_rgb(s, vmap)
    v = VoyageView(s)
    v.discovered[3] = 1
    after = voyage_render.render_rgb(s, vmap)
    assert (_board("voyage", after) != _board("voyage", before)).any(axis=2).sum() > 30
    v.ship[0] = vmap.port_hex[5]
    moved = voyage_render.render_rgb(s, vmap)
    assert (_board("voyage", moved) != _board("voyage", after)).any(axis=2).sum() > 30


def test_voyage_public_frame_hides_hands_and_targets():
    """Rendered for nobody: a hand shows as a count, target cards not at all (nor their VP)."""
    vmap = _voyage_map()
    env = voyage_env.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=8)
    _random_steps(env, 60)
    s = env.unwrapped.state()
    v = VoyageView(s)
    v.discovered[:] = -1
    v.discovered[v.targets[0, 0]] = 0  # player_0 discovered one of its own targets
    frame, text = voyage_render.render_rgb(s, vmap), voyage_render.render_ansi(s, vmap)
    t = s.copy()
    tv = VoyageView(t)
    tv.targets[0] = np.roll(tv.targets[0], 1)  # other secret targets...
    tv.targets[0, 0] = tv.targets[1, 0]
    held = np.flatnonzero(tv.hand[1])
    if held.size:  # ...and another hand of the same size
        tv.hand[1, held[0]] -= 1
        tv.hand[1, (held[0] + 1) % tv.hand.shape[1]] += 1
    np.testing.assert_array_equal(voyage_render.render_rgb(t, vmap), frame)
    assert voyage_render.render_ansi(t, vmap) == text
    # seat 0's own view shows its cards and targets
    assert (voyage_render.render_rgb(s, vmap, viewer=0) != frame).any()


@pytest.mark.parametrize("game", GAMES)
def test_frames_render_through_a_whole_game(game):
    players = 2 if game == "hansa" else 4
    env = GAMES[game].env(num_players=players, render_mode="rgb_array",
                          **({"black_ship": True} if game == "voyage" else {}))
    env.reset(seed=2)
    shape = env.render().shape
    k = 0
    while _random_steps(env, 25, seed=k):
        assert env.render().shape == shape
        k += 1
    final = env.render()
    assert final.shape == shape
    ansi = env.unwrapped.game.render_ansi(env.unwrapped.state())
    assert "winners" in ansi or "final VP" in ansi


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_render_test_passes(game, capsys):
    assert GAMES[game].raw_env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    render_test(lambda render_mode=None: GAMES[game].env(num_players=3,
                                                         render_mode=render_mode))
    assert "player_2" in capsys.readouterr().out  # human mode printed boards


@pytest.mark.parametrize("game, word", [("hansa", "Copenhagen"), ("voyage", "turn order")])
def test_human_mode_prints_the_board(game, word, capsys):
    env = GAMES[game].env(num_players=2, render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    out = capsys.readouterr().out
    assert word in out and out == env.unwrapped.game.render_ansi(env.unwrapped.state()) + "\n\n"
    _random_steps(env, 1)  # human mode shows the board after every step too
    assert word in capsys.readouterr().out
    env.close()


def test_human_mode_falls_back_to_text_when_the_window_fails(monkeypatch, capsys):
    from tradewinds import frames

    def broken(self, frame):
        raise RuntimeError("no toolkit")

    monkeypatch.setattr(frames.HumanViewer, "show", broken)
    env = hansa_env.env(num_players=2, render_mode="human")
    env.unwrapped.human_window = True
    env.reset(seed=1)
    assert env.render() is None
    assert "Copenhagen" in capsys.readouterr().out
    assert env.unwrapped.human_window is False


def test_bad_render_mode_is_named():
    with pytest.raises(ValueError, match="render_mode must be"):
        voyage_env.env(render_mode="bogus")


def test_voyage_frames_on_a_tiny_map():
    from voyage_env.board import map_from_text

    tiny = map_from_text("~@~A\n~~.~", ports="A | Guinea | 1444 | west | chili",
                         currents="c : 0,0 : S")
    env = voyage_env.env(num_players=2, render_mode="rgb_array", voyage_map=tiny)
    env.reset(seed=1)
    first = env.render()
    assert first.dtype == np.uint8 and first.shape[1] == voyage_render.WIDTH
    _random_steps(env, 30)
    assert env.render().shape == first.shape


def test_docs_example_frames_are_written(tmp_path):
    hansa_render.main([str(tmp_path / "h.png"), "--steps", "10"])
    voyage_render.main([str(tmp_path / "v.png"), "--steps", "10"])
    from PIL import Image

    assert Image.open(tmp_path / "h.png").size == (hansa_render.WIDTH, hansa_render.HEIGHT)
    assert Image.open(tmp_path / "v.png").size[0] == voyage_render.WIDTH
