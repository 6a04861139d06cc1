"""Arena: agents registry, study identity, determinism, seat bookkeeping, backends, resume,
crash safety (kill -9 of a running `tradewinds fpa`)."""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from tradewinds import agents, registry
from tradewinds.agents import RandomAgent, make_agent
from tradewinds.store import Store
from tradewinds.studies import arena

VOLATILE = ("duration", "finished")   # wall-clock columns; everything else is determined


def strip(rows):
    return [{k: v for k, v in r.items() if k not in VOLATILE} for r in rows]


# ------------------------------------------------------------------------- agents


def test_make_agent_and_open_registry():
    a = make_agent("random", game="hansa")
    assert isinstance(a, RandomAgent)
    with pytest.raises(ValueError, match="unknown agent 'nope'; known agents: .*random"):
        make_agent("nope")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_agent("random", game="chess")
    with pytest.raises(ValueError, match="already registered"):
        agents.register("random", RandomAgent)
    agents.register("lazy_random", "tradewinds.agents.random_agent:RandomAgent")   # imported on use
    try:
        assert "lazy_random" in agents.agent_names()
        assert isinstance(make_agent("lazy_random"), RandomAgent)
        assert agents.is_uniform_random("lazy_random")
    finally:
        agents.unregister("lazy_random")
    assert not agents.is_uniform_random("nope")


def test_random_agent_is_uniform_over_legal_actions():
    mask = np.zeros(10, dtype=np.int8)
    mask[[1, 4, 7]] = 1
    rng = np.random.default_rng(0)
    agent = RandomAgent()
    picks = np.array([agent.act(None, mask, rng) for _ in range(3000)])
    counts = np.bincount(picks, minlength=10)
    assert set(np.flatnonzero(counts)) == {1, 4, 7}
    assert np.all(np.abs(counts[[1, 4, 7]] - 1000) < 100)
    with pytest.raises(ValueError, match="no legal action"):
        agent.act(None, np.zeros(3), rng)


# -------------------------------------------------------------------------- study


def test_study_create_validates_and_fills_defaults():
    a = arena.Study.create("hansa", 3, "random")
    b = arena.Study.create("hansa", 3, ["random"] * 3, options={"build_rule": "barrels"})
    assert a == b and a.identity() == b.identity()
    assert a.options == registry.game("hansa").option_defaults
    assert a.path == "kernel"
    assert arena.Study.create("hansa", 3, "random", fast=False).path == "python"
    assert arena.Study.create("hansa", 2, "random", options={"max_rounds": 50}).options[
        "max_rounds"] == 50
    with pytest.raises(ValueError, match="one per seat"):
        arena.Study.create("hansa", 3, ["random", "random"])
    with pytest.raises(ValueError, match="unknown hansa option 'speed'"):
        arena.Study.create("hansa", 2, options={"speed": 1})
    with pytest.raises(ValueError, match="build_rule"):
        arena.Study.create("hansa", 2, options={"build_rule": "free"})
    with pytest.raises(ValueError, match="2 to 4 players"):
        arena.Study.create("hansa", 5)
    with pytest.raises(ValueError, match="seat_vp has 2 entries for a 3-player game"):
        arena.Study.create("hansa", 3, options={"seat_vp": (0, 1)})
    with pytest.raises(ValueError, match="seating"):
        arena.Study.create("hansa", 2, seating="random")
    with pytest.raises(ValueError, match="unknown agent"):
        arena.Study.create("hansa", 2, "nope")
    assert arena.parse_options(["max_rounds=100", "build_rule=per_stall"]) == {
        "max_rounds": 100, "build_rule": "per_stall"}
    assert arena.parse_options(["seat_vp=0,1,2", "seat_talers=[0, 2]", "x=a,b"]) == {
        "seat_vp": [0, 1, 2], "seat_talers": [0, 2], "x": "a,b"}


def test_seating_and_seeds(race):
    s = arena.Study.create("race", 3, ["advance", "wait", "wait"], seating="rotate",
                           base_seed=10)
    assert s.path == "python"
    assert [s.seats(i) for i in range(4)] == [
        ("advance", "wait", "wait"), ("wait", "wait", "advance"),
        ("wait", "advance", "wait"), ("advance", "wait", "wait")]
    assert s.seed(5) == 15
    f = arena.Study.create("race", 3, ["advance", "wait", "wait"])
    assert f.seats(1) == ("advance", "wait", "wait")


def test_playout_key_is_a_fixed_hash_of_the_seed():
    k = arena.playout_key(12345)
    assert k.dtype == np.int32 and k.shape == (2,)
    assert np.array_equal(k, arena.playout_key(12345))
    assert not np.array_equal(k, arena.playout_key(12346))
    keys = {tuple(arena.playout_key(s)) for s in range(1000)}
    assert len(keys) == 1000
    assert tuple(arena.playout_key(2**63 - 1)) != tuple(arena.playout_key(0))


# ------------------------------------------------------------- seat bookkeeping


def test_winner_seats_follow_the_rigged_agent_under_rotation(race, tmp_path):
    study = arena.Study.create("race", 2, ["advance", "wait"], seating="rotate")
    with Store(tmp_path / "r.sqlite") as store:
        res = arena.run(study, store, 20)
        rows = store.games(res.run_id)
    assert len(rows) == 20
    for r in rows:
        i = r["game_index"]
        assert r["agents"] == (["advance", "wait"] if i % 2 == 0 else ["wait", "advance"])
        assert r["winners"] == [r["agents"].index("advance")]      # stored by seat
        assert r["scores"][r["winners"][0]] == 3
        assert r["turn_order"] == [0, 1]
    w = arena.wins_matrix(rows, 2)
    assert w.sum(0).tolist() == [10, 10]           # seats even, the agent wins them all


def test_turn_order_is_recorded_and_the_first_mover_wins(race, tmp_path):
    """With both seats advancing, the first player of the *initial* turn order wins; with
    reverse=1 that is the last seat, and the row says so."""
    for reverse, first in ((0, 0), (1, 2)):
        study = arena.Study.create("race", 3, "advance", options={"reverse": reverse})
        rows = [arena.play_game(study, i) for i in range(3)]
        for r in rows:
            assert r["turn_order"][0] == first
            assert r["winners"] == [first]
            assert r["steps"] == 7                  # 3 + 2 + 2 advances
            assert r["options"] == {"reverse": reverse}


def test_hansa_rows_replay_from_their_seed():
    """Every stored number is the game that the seed gives: replay both paths by hand."""
    g = registry.game("hansa")
    for path in ("kernel", "python"):
        study = arena.Study.create("hansa", 3, "random", fast=path == "kernel", base_seed=40)
        rows = arena.play_chunk(study, range(6))
        for r in rows:
            state = g.new_state(3, r["seed"])
            if path == "kernel":
                steps = g.kernels.random_playout(state, arena.playout_key(r["seed"]))
            else:
                rngs = [np.random.default_rng([r["seed"], s]) for s in range(3)]
                agent, steps = RandomAgent(), 0
                while not g.is_terminal(state):
                    p = g.current_player(state)
                    g.step(state, agent.act(g.observe(state, p), g.legal_mask(state), rngs[p]))
                    steps += 1
            assert r["path"] == path and r["seed"] == 40 + r["game_index"]
            assert r["steps"] == steps
            assert r["scores"] == g.scores(state).tolist()
            assert r["winners"] == g.winners(state)
            assert r["turn_order"] == [0, 1, 2]     # Hansa: seat 0 starts, order fixed
            assert r["truncated"] == g.is_truncated(state)
            assert r["duration"] > 0
    k = arena.play_chunk(arena.Study.create("hansa", 3), range(6))
    p = arena.play_chunk(arena.Study.create("hansa", 3, fast=False), range(6))
    assert strip(k) != strip(p)      # documented: the two paths draw from different RNGs


def test_same_seed_same_game_whatever_the_chunking():
    study = arena.Study.create("hansa", 2, "random", fast=False)
    a = arena.play_chunk(study, [3, 4, 5])
    b = arena.play_chunk(study, [5]) + arena.play_chunk(study, [4, 3])
    assert strip(a) == strip(sorted(b, key=lambda r: r["game_index"]))


# ------------------------------------------------------------------------ resume


def test_resume_skips_completed_seeds_and_keeps_rows(tmp_path):
    study = arena.Study.create("hansa", 2, "random")
    with Store(tmp_path / "r.sqlite") as store:
        r1 = arena.run(study, store, 100, chunk_size=30)
        first = store.games(r1.run_id)
        r2 = arena.run(study, store, 200, chunk_size=30)
        assert (r2.run_id, r2.already, r2.played) == (r1.run_id, 100, 100)
        rows = store.games(r1.run_id)
        assert len(rows) == 200 and [r["seed"] for r in rows] == list(range(200))
        assert rows[:100] == first                 # untouched, to the timestamp
        r3 = arena.run(study, store, 200)
        assert r3.played == 0 and store.count(r1.run_id) == 200
        r4 = arena.run(study, store, 150)          # a smaller request plays nothing
        assert r4.played == 0 and r4.already == 150


# ------------------------------------------------------------------------ chunks


def test_chunk_sizer_follows_the_measured_pace():
    sizer = arena.ChunkSizer(cap=20, target=30.0)
    assert sizer.size() == 1                                   # nothing measured yet
    sizer.observe([{"duration": 10.0}, {"duration": 14.0}])    # 12 s a game
    assert sizer.size() == 2
    sizer.observe([{"duration": 0.001}] * 98)                  # now 0.24 s a game
    assert sizer.size() == 20                                  # capped
    slow = arena.ChunkSizer(cap=20, target=30.0)
    slow.observe([{"duration": 120.0}])
    assert slow.size() == 1                                    # never below one game
    instant = arena.ChunkSizer(cap=7)
    instant.observe([{"duration": 0.0}])
    assert instant.size() == 7
    fixed = arena.ChunkSizer(cap=20, fixed=5)
    fixed.observe([{"duration": 1000.0}])
    assert fixed.size() == 5                                   # --chunk-size wins


class _Clock:
    """A one-process backend that records each chunk's size and reports every game as
    taking `seconds`, so the run's sizing sees a slow or a fast study."""

    def __init__(self, seconds):
        self.inner, self.seconds, self.sizes = arena.LocalBackend(1), seconds, []
        self.workers, self.window = 1, 1

    def submit(self, study, indices, factories):
        self.sizes.append(len(indices))
        return self.inner.submit(study, indices, factories)

    def wait(self, handles):
        return self.inner.wait(handles)

    def result(self, handle):
        return [{**r, "duration": self.seconds} for r in self.inner.result(handle)]

    def cancel(self, handle):
        self.inner.cancel(handle)


@pytest.mark.parametrize("seconds, sizes", [(60.0, [1] * 12), (1e-4, [1, 3, 3, 3, 2])])
def test_run_sizes_chunks_by_the_games_pace(seconds, sizes, tmp_path):
    study = arena.Study.create("hansa", 2, "random", fast=False)
    backend = _Clock(seconds)
    with Store(tmp_path / "r.sqlite") as store:
        res = arena.run(study, store, 12, backend=backend)     # cap: 12 / 4 = 3
        assert res.played == 12 and store.count(res.run_id) == 12
    assert backend.sizes == sizes


class _Ledger:
    """A backend that plays nothing: it records submits and cancels, finishes jobs oldest
    first and returns each job's indices as its rows."""

    def __init__(self, window):
        self.window, self.workers = window, window
        self.submitted, self.cancelled, self.jobs = [], [], {}

    def submit(self, study, indices, factories):
        handle = len(self.submitted)
        self.submitted.append(list(indices))
        self.jobs[handle] = list(indices)
        return handle

    def wait(self, handles):
        return [min(handles)]

    def result(self, handle):
        return self.jobs.pop(handle)

    def cancel(self, handle):
        self.cancelled.append(handle)


def test_iter_jobs_keeps_a_window_draws_lazily_and_cancels_on_close():
    """At most `window` jobs are in flight, the next job is drawn only after the caller has
    seen a finished one, each job comes back with its rows, and closing early cancels the
    jobs still in flight."""
    study = arena.Study.create("hansa", 2, "random", fast=False)
    backend, drawn = _Ledger(window=2), []

    def jobs():
        for k in range(6):
            drawn.append(k)
            yield study, [k], f"tag{k}"

    finished = arena.iter_jobs(backend, jobs())
    (job, rows) = next(finished)
    assert job == (study, [0], "tag0") and rows == [0]
    assert drawn == [0, 1] and backend.submitted == [[0], [1]]
    (job, rows) = next(finished)
    assert job[2] == "tag1" and drawn == [0, 1, 2]
    finished.close()
    assert backend.cancelled == [2] and drawn == [0, 1, 2]


# ---------------------------------------------------------------------- backends


def _rows(study, games, backend, chunk_size):
    import tempfile

    with tempfile.TemporaryDirectory() as d, Store(os.path.join(d, "r.sqlite")) as store:
        res = arena.run(study, store, games, backend=backend, chunk_size=chunk_size)
        return strip(store.games(res.run_id))


def test_worker_counts_give_identical_rows():
    kernel = arena.Study.create("hansa", 3, "random")
    python = arena.Study.create("hansa", 2, "random", fast=False)
    serial_k = _rows(kernel, 150, None, 150)
    serial_p = _rows(python, 24, None, 24)
    with arena.make_backend("local", workers=2) as be:
        assert be.workers == 2
        assert _rows(kernel, 150, be, 20) == serial_k
        assert _rows(python, 24, be, 5) == serial_p
    assert len(serial_k) == 150 and {r["path"] for r in serial_k} == {"kernel"}


def test_ray_backend_gives_identical_rows():
    pytest.importorskip("ray")
    kernel = arena.Study.create("hansa", 2, "random")
    python = arena.Study.create("hansa", 3, "random", fast=False)
    serial_k = _rows(kernel, 60, None, 60)
    serial_p = _rows(python, 6, None, 6)
    with arena.make_backend("ray", workers=2) as be:
        assert be.workers == 2
        assert _rows(kernel, 60, be, 13) == serial_k        # 5 chunks, the last short
        assert _rows(python, 6, be, 2) == serial_p


def test_backend_arguments_are_checked():
    with pytest.raises(ValueError, match="backend must be one of"):
        arena.make_backend("dask")
    with pytest.raises(ValueError, match="--address is for --backend ray"):
        arena.make_backend("local", address="1.2.3.4:6379")


# ------------------------------------------------------------------ crash safety


def test_kill_9_loses_at_most_the_games_in_flight(tmp_path):
    db = tmp_path / "crash.sqlite"
    games, chunk = 600, 5
    cmd = [sys.executable, "-m", "tradewinds.cli", "fpa", "hansa", "--players", "3",
           "--games", str(games), "--db", str(db), "--no-fast", "--workers", "1",
           "--chunk-size", str(chunk), "--no-progress", "--n-boot", "500"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        seen = 0
        while seen < 30:
            assert proc.poll() is None, f"finished before the kill: {proc.stderr.read()}"
            assert time.monotonic() < deadline, "no games recorded in time"
            time.sleep(0.01)
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                    seen = con.execute("SELECT count(*) FROM game").fetchone()[0]
            except sqlite3.OperationalError:     # not created yet
                pass
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    with Store(db) as store:                      # readable, consistent, whole batches only
        assert store.integrity_check() == "ok"
        (run,) = store.runs()
        kept = sorted(store.done_indices(run["run_id"]))
    assert 30 <= len(kept) < games
    assert kept == list(range(len(kept))) and len(kept) % chunk == 0

    done = subprocess.run(cmd[:-5] + ["--workers", "2", "--chunk-size", "25", "--no-progress",
                                      "--n-boot", "500"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{games - len(kept)} games played now" in " ".join(done.stdout.split())

    study = arena.Study.create("hansa", 3, "random", fast=False)
    with Store(db) as store:
        assert store.integrity_check() == "ok"
        assert len(store.runs()) == 1
        rows = store.games(run["run_id"])
        n_distinct = store.con.execute("SELECT count(DISTINCT seed) FROM game").fetchone()[0]
    assert len(rows) == games and n_distinct == games
    with Store(tmp_path / "clean.sqlite") as clean:   # the uninterrupted run
        res = arena.run(study, clean, games, chunk_size=100)
        reference = clean.games(res.run_id)
    assert strip(rows) == strip(reference)
    from tradewinds.studies.fpa import summarize_rows

    got, want = (summarize_rows(r, study, n_boot=500) for r in (rows, reference))
    assert got.pop("game_seconds_total") > 0 and want.pop("game_seconds_total") > 0
    assert got == want


def test_only_the_pools_cancelled_future_race_is_kept_off_stderr():
    """`LocalBackend.close(kill=True)`'s excepthook drops CPython 3.11's InvalidStateError
    from the pool's manager thread (a future shutdown cancelled) and nothing else."""
    from concurrent import futures as cf

    from tradewinds.studies.arena import _quiet_broken_pool

    class _ExecutorManagerThread:
        pass

    class Args:
        def __init__(self, exc, thread):
            self.exc_value, self.thread = exc, thread

    passed = []
    hook = _quiet_broken_pool(passed.append)
    race = Args(cf.InvalidStateError("CANCELLED"), _ExecutorManagerThread())
    other_error = Args(ValueError("real"), _ExecutorManagerThread())
    other_thread = Args(cf.InvalidStateError("CANCELLED"), object())
    for args in (race, other_error, other_thread):
        hook(args)
    assert passed == [other_error, other_thread]
