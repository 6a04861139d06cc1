"""The human seat (studies.play), driven by scripts: re-asking on bad input, whole
games to the end in both games, quit and end of input, and the real command."""

import io
import re
import subprocess
import sys

import pytest

from tradewinds import registry
from tradewinds.studies.play import play


def run(script: str, game="hansa", **kw):
    out = io.StringIO()
    kw.setdefault("vs", "random")
    kw.setdefault("seed", 5)
    code = play(game, stdin=io.StringIO(script), stdout=out, **kw)
    return code, out.getvalue()


def moves(text: str) -> list[str]:
    """The moves of a transcript, in order ('you (player_0): x', 'player_1 (random): y')."""
    return re.findall(r"^(?:you \(player_\d\)|player_\d \([^)]*\)): (\S+)$", text, re.M)


def test_bad_input_is_asked_again_with_a_reason():
    script = "\n".join(["", "abc", "0", "99", "setup:", "setup:Copenhagen", "sail:Riga",
                        "setup:Lubeck", "q"]) + "\n"
    code, out = run(script, options={"max_rounds": 2})
    assert code == 0
    assert "type a number from 1 to 8 or an action name" in out
    assert "unknown action 'abc'" in out
    assert "no choice 0: pick a number from 1 to 8" in out
    assert "no choice 99" in out
    assert "'setup:' could be 8 actions" in out
    assert "setup:Copenhagen is not legal now" in out      # a real name, not allowed here
    assert "sail:Riga is not legal now" in out
    assert out.count("your move [1-8") == 8                # every bad answer asked again
    assert "you (player_0): setup:Lubeck" in out           # the good answer was played
    assert "you quit: left the game after" in out
    assert "game over" not in out


def test_numbers_names_and_unique_prefixes_pick_the_listed_action():
    code, out = run("3\nsetup:Kal\nq\n", options={"max_rounds": 2})
    listed = re.findall(r"^\s+3\) (\S+)$", out, re.M)
    assert code == 0 and moves(out)[0] == listed[0]
    assert "you (player_0): setup:Kalmar" in out


@pytest.mark.parametrize("game,players,seat,vs,options", [
    ("hansa", 2, 0, "random", {"max_rounds": 2}),
    ("hansa", 3, 2, "random,heuristic", {"max_rounds": 1}),
    ("voyage", 2, 1, "random", {"max_rounds": 2}),
    ("voyage", 4, 0, "random", {"max_rounds": 1}),
])
def test_a_whole_game_choosing_the_first_action(game, players, seat, vs, options):
    code, out = run("1\n" * 5000, game=game, players=players, seat=seat, vs=vs,
                    options=options, seed=11)
    assert code == 0
    assert "game over after" in out and "round cap reached" in out
    assert out.count(" VP") >= players
    winners = re.findall(r"^  player_(\d) \([^)]*\): -?\d+ VP  winner$", out, re.M)
    assert winners
    assert ("you won" in out) == (str(seat) in winners)
    assert "you lost" in out or "you won" in out
    # the transcript is the game: replaying its moves from the seed gives the same scores
    g = registry.game(game)
    state = g.replay(players, 11, moves(out), **options)
    assert g.is_truncated(state) or g.is_terminal(state)
    for s in range(players):
        assert re.search(rf"^  player_{s} \([^)]*\): {int(g.scores(state)[s])} VP", out, re.M)
    assert sum(1 for m in re.findall(r"^you \(player_(\d)\)", out, re.M) if int(m) != seat) == 0
    # the first listed action was chosen every time
    chosen = re.findall(r"^\s+1\) (\S+)\n(?:\s+\d+\) .*\n)*your move.*\nyou \(player_\d\): (\S+)",
                        out, re.M)
    assert chosen and all(a == b for a, b in chosen)


def test_voyage_shows_the_seats_own_hand_and_targets_only():
    from voyage_env.state import StateView

    code, out = run("q\n", game="voyage", players=3, seat=1, seed=3)
    assert code == 0
    g = registry.game("voyage")
    view = StateView(g.new_state(3, 3))          # target cards are dealt at setup
    ports = [n.split(":", 1)[1] for n in g.obs_names if n.startswith("my_target:")]
    mine = [ports[p] for p in view.targets[1] if p >= 0]
    others = {ports[p] for s in (0, 2) for p in view.targets[s] if p >= 0} - set(mine)
    line = re.search(r"^your target cards: (.*)$", out, re.M).group(1)
    assert line.split(", ") == mine and others
    assert not others & set(line.split(", "))
    assert re.search(r"^your hand: ", out, re.M)


def test_end_of_input_and_quit_leave_cleanly():
    code, out = run("")
    assert code == 0 and out.rstrip().endswith("end of input: left the game after 0 moves "
                                               "(seed 5)")
    code, out = run("2\n", options={"max_rounds": 2})
    assert code == 0 and "end of input: left the game after" in out
    for word in ("quit", "Q", "  q  ", "exit"):
        code, out = run(word + "\n")
        assert code == 0 and "you quit" in out


def test_settings_are_checked_before_the_game():
    for kw, message in [
        (dict(seat=2), "--seat must be a seat 0..1"),
        (dict(vs="random,random"), "one per opponent seat \\(1\\), got 2"),
        (dict(vs="nope"), "unknown agent 'nope'"),
        (dict(vs=""), "--vs needs agent names"),
        (dict(options={"speed": 1}), "unknown hansa option 'speed'"),
        (dict(options={"max_rounds": 0}), "max_rounds"),
        (dict(players=5), "2 to 4 players"),
        (dict(seed=-1), "--seed"),
        (dict(agent_kwargs={"heuristic": {"x": 1}}), "not an opponent"),
    ]:
        with pytest.raises(ValueError, match=message):
            run("1\n", **kw)


def test_the_command_reads_stdin():
    cmd = [sys.executable, "-m", "tradewinds.cli", "play", "hansa", "--vs", "random",
           "--seed", "2", "--option", "max_rounds=1", "--no-board"]
    done = subprocess.run(cmd, input="x\n1\nq\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "unknown action 'x'" in done.stdout and "you quit" in done.stdout
    assert "Hansa  round" not in done.stdout                 # --no-board
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "end of input" in done.stdout
    assert done.stderr == ""
    done = subprocess.run(cmd + ["--seat", "3"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("tradewinds play: error: --seat must be a seat 0..1")
