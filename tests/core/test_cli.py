"""The command line as a new user and a hostile caller meet it: one-line errors with exit
status 2 checked before any game is played, Ctrl-C with exit status 130 keeping the stored
games, --version, help for every option."""

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import tradewinds
import tradewinds.cli.main as cli
from tradewinds.cli.main import main
from tradewinds.store import Store
from tradewinds.studies.run_fields import parse_agent_kwargs

COMMANDS = ("demo", "fpa", "match", "play")


def one_line_error(capsys, argv, *needles, command=None):
    """main(argv) returns 2 and prints exactly one line on stderr holding every needle."""
    code = main(argv)
    cap = capsys.readouterr()
    assert code == 2, (argv, cap.out, cap.err)
    assert cap.err.count("\n") == 1 and cap.err.endswith("\n"), cap.err
    prog = "tradewinds" + (f" {command or argv[0]}" if (command or argv) else "")
    assert cap.err.startswith(f"{prog}: error: "), cap.err
    assert "Traceback" not in cap.err and "usage:" not in cap.err
    for needle in needles:
        assert needle in cap.err, (needle, cap.err)
    return cap.err


# ------------------------------------------------------------------ version and help


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"tradewinds {tradewinds.__version__}"


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def test_every_option_has_help_and_every_help_renders(capsys):
    parser = cli.build_parser()
    subs = _subparsers(parser)
    assert set(COMMANDS) <= set(subs)
    for name in COMMANDS:
        for action in subs[name]._actions:
            assert action.help and action.help.strip(), (name, action.dest)
        assert main([name, "--help"]) == 0
        text = capsys.readouterr().out
        assert text.startswith(f"usage: tradewinds {name}")
        for action in subs[name]._actions:
            for flag in action.option_strings:
                assert flag in text
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert all(name in text for name in COMMANDS + ("bench",))
    assert main(["fpa", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Wilson 95% intervals" in text                   # the percent sign survives
    assert main(["match", "--help"]) == 0
    assert "Wilson 95% interval" in " ".join(capsys.readouterr().out.split())


# ----------------------------------------------------------------- argument errors


def test_bad_arguments_are_one_line_errors(capsys, tmp_path):
    db = str(tmp_path / "r.sqlite")
    m = ["match", "hansa", "--agents", "heuristic,random", "--db", db, "--no-progress"]
    f = ["fpa", "hansa", "--db", db, "--no-progress", "--games", "3"]
    known = ", ".join(tradewinds.games())      # hansa, voyage (and any a test registered)
    cases = [
        (["demo", "nosuch"], [f"unknown game 'nosuch'; known games: {known}"]),
        (["demo", "--players", "5", "--games", "3"], ["hansa is played by 2 to 4 players"]),
        (["demo", "--games", "0"], ["--games", "must be at least 1, got 0"]),
        (["fpa", "chess"], ["unknown game 'chess'"]),
        (f + ["--players", "5"], ["2 to 4 players"]),
        (f + ["--players", "two"], ["--players takes numbers"]),
        (f + ["--games", "0"], ["--games: must be at least 1, got 0"]),
        (f + ["--games", "-4"], ["must be at least 1, got -4"]),
        (f + ["--games", "many"], ["must be an integer, got 'many'"]),
        (f + ["--chunk-size", "-1"], ["--chunk-size: must be at least 1, got -1"]),
        (f + ["--workers", "0"], ["--workers: must be at least 1"]),
        (f + ["--alpha", "1.5"], ["--alpha: must lie strictly between 0 and 1"]),
        (f + ["--agent", "nope"], ["unknown agent 'nope'; known agents: "]),
        (f + ["--option", "speed=3"], ["unknown hansa option 'speed'"]),
        (f + ["--option", "max_rounds"], ["option must look like key=value"]),
        (f + ["--option", "max_rounds=abc"], ["max_rounds must be an integer"]),
        (f + ["--agent-kwargs", "random"], ["--agent-kwargs takes NAME:key=value"]),
        (f + ["--address", "1.2.3.4:6379"], ["--address is for --backend ray"]),
        (f + ["--seating", "random"], ["invalid choice: 'random'"]),
        (f + ["--bogus"], ["unrecognized arguments: --bogus"]),
        (m + ["--games", "0"], ["--games: must be at least 1"]),
        (m + ["--players", "5"], ["2 to 4 players"]),
        (m + ["--agents", "random"], ["at least two different agents"]),
        (m + ["--agents", "random,nope"], ["unknown agent 'nope'"]),
        (m + ["--agents", "random,random"], ["listed twice"]),
        (m + ["--chunk-size", "0"], ["--chunk-size: must be at least 1"]),
        (m + ["--option", "build_rule=free"], ["build_rule must be one of"]),
        (m + ["--agent-kwargs", "mcts:200:c"], ["--agent-kwargs takes NAME:key=value"]),
        (m + ["--agent-kwargs", "other:x=1"], ["not one of the agents"]),
        (["match", "hansa"], ["the following arguments are required: --agents"]),
        (["play", "nosuch"], ["unknown game 'nosuch'"]),
        (["play", "hansa", "--players", "5"], ["2 to 4 players"]),
        (["play", "hansa", "--seat", "2"], ["--seat must be a seat 0..1"]),
        (["play", "hansa", "--vs", "nope"], ["unknown agent 'nope'"]),
        (["play", "hansa", "--option", "speed=1"], ["unknown hansa option"]),
        ([], ["the following arguments are required: COMMAND"]),
    ]
    for argv, needles in cases:
        one_line_error(capsys, argv, *needles)
    assert not os.path.exists(db)                     # no case got as far as the database


def test_demo_asks_the_game_for_random_playout(capsys):
    """The demo plays through `Game.random_playout`: a game without that capability (the
    race game of tests/helpers/race_game.py) is a one-line error, not an AttributeError."""
    from tradewinds import registry

    with registry.registered("race", "tests.helpers.race_game"):
        one_line_error(capsys, ["demo", "race", "--players", "2", "--games", "1"],
                       "tradewinds demo needs the 'random_playout' capability, which race "
                       "does not have")


def test_agent_kwargs_names_may_hold_colons():
    assert parse_agent_kwargs(["mcts:200:c=1.4,rollout=random", "heuristic:x=1",
                               "mcts:200:budget=0.5"]) == {
        "mcts:200": {"c": 1.4, "rollout": "random", "budget": 0.5}, "heuristic": {"x": 1}}
    for bad in ("mcts", "mcts:200", ":x=1", "mcts:=1", "=1"):
        with pytest.raises(ValueError, match="--agent-kwargs takes"):
            parse_agent_kwargs([bad])


# --------------------------------------------------------------- database and paths


@pytest.mark.parametrize("command", ["fpa", "match"])
def test_bad_database_files_are_refused_untouched(capsys, tmp_path, command):
    base = ([command, "hansa", "--games", "2", "--no-progress", "--workers", "1"]
            + (["--agents", "random,heuristic", "--players", "2"] if command == "match"
               else ["--players", "2"]))
    text = tmp_path / "notes.txt"
    text.write_text("these are my notes\n")
    one_line_error(capsys, base + ["--db", str(text)], str(text), "not an SQLite database")
    assert text.read_text() == "these are my notes\n"

    foreign = tmp_path / "app.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE users (id INTEGER, name TEXT)")
    con.execute("INSERT INTO users VALUES (1, 'ann')")
    con.commit()
    con.close()
    before = foreign.read_bytes()
    one_line_error(capsys, base + ["--db", str(foreign)], "SQLite database of something else",
                   "users")
    assert foreign.read_bytes() == before                 # no tables of ours added

    lookalike = tmp_path / "look.sqlite"
    con = sqlite3.connect(lookalike)
    con.execute("CREATE TABLE game (x INTEGER)")
    con.close()
    one_line_error(capsys, base + ["--db", str(lookalike)], "other columns")

    one_line_error(capsys, base + ["--db", str(tmp_path)], "is a directory")
    one_line_error(capsys, base + ["--db", str(text / "sub" / "r.sqlite")],
                   f"{text / 'sub'} is not writable")
    one_line_error(capsys, base + ["--db", "/proc/tradewinds/r.sqlite"],
                   "--db directory /proc/tradewinds is not writable")


@pytest.mark.parametrize("command", ["fpa", "match"])
def test_unwritable_out_is_found_before_any_game(capsys, tmp_path, command):
    db = tmp_path / "r.sqlite"
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    argv = ([command, "hansa", "--games", "2", "--no-progress", "--workers", "1",
             "--db", str(db)]
            + (["--agents", "random,heuristic"] if command == "match" else ["--players", "2"]))
    one_line_error(capsys, argv + ["--out", str(blocker)], "--out", "is a file")
    one_line_error(capsys, argv + ["--out", str(blocker / "x")], "--out", "not writable")
    one_line_error(capsys, argv + ["--out", "/proc/tradewinds-out"], "not writable")
    assert not db.exists()                         # refused before the store was opened


# ------------------------------------------------------------------------ Ctrl-C


def test_keyboard_interrupt_keeps_the_stored_games(capsys, tmp_path, monkeypatch):
    """Ctrl-C in the middle of a study: one line, exit status 130, whole chunks kept."""
    db = tmp_path / "r.sqlite"
    real = Store.add_games
    calls = []

    def add_then_interrupt(self, run_id, rows):
        calls.append(len(rows))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, run_id, rows)

    monkeypatch.setattr(Store, "add_games", add_then_interrupt)
    argv = ["fpa", "hansa", "--players", "2", "--games", "100", "--chunk-size", "10",
            "--workers", "1", "--db", str(db), "--no-progress", "--n-boot", "200"]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert err == (f"tradewinds fpa: interrupted; 20 games stored in {db} (20 new), rerun "
                   "the same command to resume\n")
    monkeypatch.setattr(Store, "add_games", real)
    assert main(argv) == 0                        # the rerun plays only what is missing
    assert "80 games played now" in " ".join(capsys.readouterr().out.split())

    calls.clear()
    monkeypatch.setattr(Store, "add_games", add_then_interrupt)
    argv = ["match", "hansa", "--agents", "random,lazy", "--games", "40", "--chunk-size",
            "4", "--workers", "1", "--db", str(db), "--no-progress"]
    from tradewinds import agents

    agents.register("lazy", "tradewinds.agents.random_agent:RandomAgent", replace=True)
    try:
        assert main(argv) == 130
    finally:
        agents.unregister("lazy")
    err = capsys.readouterr().err
    assert err.startswith("tradewinds match: interrupted; 108 games stored in ")
    assert "(8 new)" in err and err.count("\n") == 1


def _group_survivors(pgid: int) -> list[str]:
    """Command lines of the processes still in process group `pgid` (Linux /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.getpgid(int(d)) == pgid:
                    with open(f"/proc/{d}/cmdline", "rb") as f:
                        out.append(f"{d}: " + f.read().replace(b"\0", b" ").decode()[:200])
            except OSError:                    # gone meanwhile
                pass
    return out


def test_ctrl_c_in_a_terminal_stops_parent_and_workers_with_one_line(tmp_path):
    """SIGINT to the whole process group (what a terminal's Ctrl-C does) while 2 workers
    play: exit status 130, one line, no traceback from the parent or a worker, and the
    database holds exactly the games the line reports.

    Stderr goes to a file, not a pipe, so the wait is for the command itself and not for
    whatever descendant still holds a pipe open; a command that does not exit is made to
    dump every thread's stack (faulthandler, SIGABRT) into the failure message, and
    processes left in the group are listed by command line."""
    db = tmp_path / "r.sqlite"
    args = ["fpa", "hansa", "--players", "2", "--games", "100000", "--no-fast", "--workers",
            "2", "--chunk-size", "5", "--db", str(db), "--no-progress"]
    # A terminal's foreground command has SIGINT at its default. A suite started in the
    # background (`cmd &` without job control, as CI may be) ignores SIGINT, and a child
    # inherits that, so the command is started with SIGINT at its default again.
    cmd = [sys.executable, "-c",
           "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler);"
           f" sys.argv = ['tradewinds', *{args!r}]; runpy.run_module('tradewinds.cli',"
           " run_name='__main__')"]
    err_file = tmp_path / "stderr.txt"
    with open(err_file, "w") as err_out:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err_out,
                                start_new_session=True,
                                env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    try:
        deadline = time.monotonic() + 300      # spawn, imports and a cold numba cache
        seen = 0
        while seen < 10:
            assert proc.poll() is None, err_file.read_text()
            assert time.monotonic() < deadline, "no games stored in time"
            time.sleep(0.1)
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                    seen = con.execute("SELECT count(*) FROM game").fetchone()[0]
            except sqlite3.OperationalError:
                pass
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=180)             # a loaded machine shuts down slowly
        except subprocess.TimeoutExpired:
            survivors = _group_survivors(proc.pid)
            os.killpg(proc.pid, signal.SIGABRT)   # faulthandler: every thread's stack
            proc.wait(timeout=30)
            raise AssertionError("the command did not exit after SIGINT; processes: "
                                 f"{survivors}\n{err_file.read_text()}") from None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    err = err_file.read_text()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.count("\n") == 1 and err.startswith("tradewinds fpa: interrupted; "), err
    stored = int(err.split("; ")[1].split()[0])
    with Store(db) as store:
        assert store.integrity_check() == "ok"
        (run,) = store.runs()
        assert store.count(run["run_id"]) == stored >= 10
    # no worker of the group is left running
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        left = _group_survivors(proc.pid)
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"processes of the command are still running: {left}")


def test_a_bad_command_in_a_real_process():
    done = subprocess.run([sys.executable, "-m", "tradewinds.cli", "demo", "nosuch"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("tradewinds demo: error: argument game: unknown game 'nosuch'; "
                           "known games: hansa, voyage (see tradewinds demo --help)\n")
    done = subprocess.run([sys.executable, "-m", "tradewinds.cli", "--version"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "tradewinds " + \
        tradewinds.__version__
