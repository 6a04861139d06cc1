"""Opponents think in other processes, each move under a hard deadline.

`Thinkers` keeps `workers` slots, each a one-process `ProcessPoolExecutor` (spawned, so
no thread of the server is forked): a job runs on a free slot and its answer is awaited
for at most `deadline` seconds. A slot whose job overruns has its process killed and is
replaced (warmed up before it takes the next job); the caller gets `Overrun` and forces
the move. So a search holds neither the event loop nor the server's interpreter lock,
and no request can keep a process busy past its deadline.

A job names the game by what rebuilds it (game, players, seed, options, actions), so a
worker keeps no game of its own; it keeps agents (one per agent name and game, the last
game and seat each served remembered, so an agent with ``reset()`` starts afresh when it
changes game or seat).
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

GAMES = ("hansa", "voyage")


class Overrun(RuntimeError):
    """A job ran past its deadline (its process was killed)."""


@dataclass(frozen=True)
class Job:
    """One opponent decision: the agent `name` (as it is made) for seat `player` of the
    game rebuilt from (game, num_players, seed, options, actions), its generator seeded
    by `rng_seed`; `tag` names the game for the agent cache."""
    game: str
    num_players: int
    seed: int
    options: dict
    actions: tuple
    name: str
    player: int
    rng_seed: int
    think_seconds: float
    tag: str


# ----------------------------------------------------------------- in the worker process
_AGENTS: dict = {}


def _warm() -> bool:
    """Compile (or load from numba's cache) what a move needs, before any job."""
    from tradewinds_web.sessions import warm_up

    warm_up(GAMES)
    for game in GAMES:
        _decide(Job(game, 2, 0, {}, (), "heuristic", 0, 0, 1.0, ""))
    _AGENTS.clear()
    return True


def _agent(name: str, game: str, think_seconds: float, tag: tuple):
    import agents
    from tradewinds_web.opponents import agent_kwargs

    key = (name, game, think_seconds)
    if key not in _AGENTS:
        _AGENTS[key] = [agents.make_agent(name, game=game,
                                          **agent_kwargs(name, think_seconds)), None]
    entry = _AGENTS[key]
    if entry[1] != tag and hasattr(entry[0], "reset"):
        entry[0].reset()
    entry[1] = tag
    return entry[0]


def _decide(job: Job) -> int:
    import numpy as np

    from studies import arena
    from tradewinds import registry

    handle = registry.game(job.game)
    state = handle.replay(job.num_players, job.seed, list(job.actions), **job.options)
    agent = _agent(job.name, job.game, job.think_seconds, (job.tag, job.player))
    rng = np.random.default_rng(job.rng_seed)
    return int(arena.agent_action(agent, handle, state, job.player, rng))


def _check(name: str, game: str, num_players: int, think_seconds: float) -> bool:
    """Make agent `name` for `game` at `num_players` (its error, one line, if it cannot)."""
    agent = _agent(name, game, think_seconds, ("check", -1))
    nets = getattr(agent, "nets", None)
    if nets is not None:
        nets.get(num_players)
    return True


# ----------------------------------------------------------------- in the server
class Thinkers:
    """`workers` worker processes; `run(fn, *args, deadline=)` on a free one."""

    def __init__(self, workers: int = 2, *, warm: bool = True):
        self.ctx = multiprocessing.get_context("spawn")
        self.warm = warm
        self.free: queue.Queue = queue.Queue()
        self.closed = False
        self.lock = threading.Lock()
        self.slots = []
        for _ in range(max(1, int(workers))):
            self._add()

    def _add(self) -> None:
        slot = ProcessPoolExecutor(max_workers=1, mp_context=self.ctx)
        if self.warm:
            slot.submit(_warm).result()     # errors here stop the server: nothing can play
        with self.lock:
            self.slots.append(slot)
        self.free.put(slot)

    def run(self, fn, *args, deadline: float):
        """`fn(*args)` in a worker; its result or its exception. Overrun when it takes
        longer than `deadline` seconds once started (the worker is then replaced)."""
        while True:
            try:
                slot = self.free.get(timeout=0.5)
                break
            except queue.Empty:
                if self.closed:
                    raise RuntimeError("the server is stopping") from None
        try:
            future = slot.submit(fn, *args)
            try:
                return future.result(timeout=deadline)
            except FutureTimeout:
                self._kill(slot)
                slot = None
                threading.Thread(target=self._replace, daemon=True).start()
                raise Overrun(f"no answer within {deadline:g} s") from None
        finally:
            if slot is not None:
                self.free.put(slot)

    def decide(self, job: Job, deadline: float) -> int:
        return self.run(_decide, job, deadline=deadline)

    def check(self, name: str, game: str, num_players: int, think_seconds: float,
              deadline: float) -> None:
        self.run(_check, name, game, num_players, think_seconds, deadline=deadline)

    def _kill(self, slot) -> None:
        with self.lock:
            if slot in self.slots:
                self.slots.remove(slot)
        _kill_workers(slot)

    def _replace(self) -> None:
        if not self.closed:
            self._add()

    def close(self) -> None:
        self.closed = True
        with self.lock:
            slots, self.slots = list(self.slots), []
        for slot in slots:
            _kill_workers(slot)


def _kill_workers(slot: ProcessPoolExecutor) -> None:
    """Kill the process of `slot` now (`kill_workers` where Python has it, 3.14 on)."""
    if hasattr(slot, "kill_workers"):
        slot.kill_workers()
        return
    for proc in list((getattr(slot, "_processes", None) or {}).values()):
        proc.kill()
    slot.shutdown(wait=False, cancel_futures=True)
