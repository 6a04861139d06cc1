"""A study's parent: memory that does not grow with --games, and no workers left behind
when it is killed with SIGKILL (issue: nothing a user types leaves processes behind)."""

import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from tradewinds.store import Store
from tradewinds.studies import arena


def test_parent_memory_does_not_grow_with_the_request(tmp_path):
    """Asking for twenty million games holds no list of twenty million indices: chunks of
    the missing indices are made lazily (stopped here after the first chunk)."""
    study = arena.Study.create("hansa", 2, "random")
    with Store(tmp_path / "m.sqlite") as store:
        store.add_games(store.run_id(study.identity(), arena.versions()),
                        [arena.play_game(study, i) for i in (0, 2)])   # resume around holes
        tracemalloc.start()
        res = arena.run(study, store, 20_000_000, chunk_size=5, stop=lambda rows: True)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert res.already == 2 and res.played == 5 and res.stopped_early
        assert sorted(store.done_indices(res.run_id)) == [0, 1, 2, 3, 4, 5, 6]
    assert peak < 30 * 2**20, f"peak {peak / 2**20:.0f} MB"


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc (Linux)")
def test_sigkill_of_the_parent_leaves_no_worker_running(tmp_path):
    db = tmp_path / "k.sqlite"
    code = ("from tradewinds.cli.main import main; main(['fpa', 'hansa', '--players', '2', "
            f"'--games', '10000000', '--workers', '2', '--no-progress', '--db', r'{db}'])")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    helpers: list[int] = []
    try:
        deadline = time.time() + 240
        workers: list[int] = []
        while time.time() < deadline and len(workers) < 2:
            time.sleep(0.5)
            workers = [p for p in _children(parent.pid)
                       if "multiprocessing" in (Path("/proc") / str(p) / "cmdline")
                       .read_bytes().decode(errors="replace")]
        assert parent.poll() is None and len(workers) >= 2, "the study's pool never started"
        if db.exists():
            time.sleep(2)                     # let the workers get busy with games
        helpers = _children(parent.pid)       # workers and the resource tracker
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.time() + 15
        while time.time() < deadline and any(_alive(p) for p in helpers):
            time.sleep(0.25)
        left = [p for p in helpers if _alive(p)]
        assert not left, f"processes left running after the parent died: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for p in set(helpers) | set(_children(parent.pid)):   # never leave them to CI
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
