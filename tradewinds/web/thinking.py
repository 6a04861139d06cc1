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
changes game or seat). A game registered only in the server (a test's, or one declared
after the worker started) travels with the job as its module's name.

Start-up: each worker first compiles (or loads from numba's disk cache) what every
offered agent needs (`WARM`), one worker after another so that the first one compiles and
the others load its cache; a search that compiled inside a move would overrun its deadline
and, killed before numba wrote its cache, overrun again on every later move. With
``start=False`` the caller starts them (`start`, on a thread) and `progress` says how far
they are, so that the server can answer (and its page say "compiling") meanwhile.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

# what a worker runs once before its first job, per game: one short decision of each
# agent kind the page offers (the numba code of its search compiled or loaded)
WARM = {"hansa": ("heuristic", "mcts:2", "az:2", "net", "ppo"),
        "voyage": ("heuristic", "mcts:2", "az:2", "net", "ppo", "dest:2")}


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
    module: str = ""       # the game's module, registered in the worker if it lacks it


# ----------------------------------------------------------------- in the worker process
_AGENTS: dict = {}


def _warm(warm: dict) -> bool:
    """Compile (or load from numba's cache) what a move needs, before any job: the
    agents `warm` names per game, one short decision each."""
    from tradewinds.web.sessions import warm_up

    warm_up(tuple(warm))
    for game, names in warm.items():
        for name in names:
            try:
                _decide(Job(game, 2, 0, {}, (), name, 0, 0, 0.05, ""))
            except Exception:       # its error comes back when a request seats it (_check)
                pass
    _AGENTS.clear()
    return True


def _known(game: str, module: str) -> None:
    """Register `game` as `module` in this process unless it is known already."""
    from tradewinds import registry

    if module and game not in registry.games():
        registry.register(game, module)


def _agent(name: str, game: str, think_seconds: float, tag: tuple):
    from tradewinds import agents
    from tradewinds.web.opponents import agent_kwargs

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

    from tradewinds import registry
    from tradewinds.studies import arena

    _known(job.game, job.module)
    handle = registry.game(job.game)
    state = handle.replay(job.num_players, job.seed, list(job.actions), **job.options)
    agent = _agent(job.name, job.game, job.think_seconds, (job.tag, job.player))
    rng = np.random.default_rng(job.rng_seed)
    return int(arena.agent_action(agent, handle, state, job.player, rng))


def _check(name: str, game: str, num_players: int, think_seconds: float,
           module: str = "") -> bool:
    """Make agent `name` for `game` at `num_players` (its error, one line, if it cannot)."""
    _known(game, module)
    agent = _agent(name, game, think_seconds, ("check", -1))
    nets = getattr(agent, "nets", None)
    if nets is not None:
        nets.get(num_players)
    return True


# ----------------------------------------------------------------- in the server
class Thinkers:
    """`workers` worker processes; `run(fn, *args, deadline=)` on a free one. `warm`: what
    each worker prepares before its first job ({game: agent names}; True: `WARM`; False:
    nothing, the first job of a worker pays for its imports). `start`: start the workers
    before returning; with False the caller calls `start` (on a thread of its own, say)
    and `progress` says how far it is meanwhile."""

    def __init__(self, workers: int = 2, *, warm: bool | dict = True, start: bool = True):
        self.ctx = multiprocessing.get_context("spawn")
        self.warm = dict(WARM) if warm is True else dict(warm or {})
        self.workers = max(1, int(workers))
        self.free: queue.Queue = queue.Queue()
        self.closed = False
        self.lock = threading.Lock()
        self.slots = []
        self.started = 0                 # workers of the first start that are ready
        self.began = time.monotonic()
        self.ready = threading.Event()
        self.failed: str | None = None
        if start:
            self.start(raise_errors=True)

    def start(self, raise_errors: bool = False) -> None:
        """Start the workers one after another (the first compiles, the others load)."""
        self.began = time.monotonic()
        try:
            for _ in range(self.workers):
                if self.closed:
                    return
                self._add()
                self.started += 1
        except Exception as e:          # nothing can play: said by `progress`
            self.failed = f"the opponents' processes did not start: {str(e)[:160]}"
            if raise_errors:
                raise
        finally:
            self.ready.set()

    def progress(self) -> dict:
        """{"ready", "workers", "started" (ready of them), "seconds" since the start,
        "error"}: how far the first start is."""
        return {"ready": self.ready.is_set() and not self.failed, "workers": self.workers,
                "started": self.started, "seconds": round(time.monotonic() - self.began, 1),
                "error": self.failed}

    def _add(self) -> None:
        slot = ProcessPoolExecutor(max_workers=1, mp_context=self.ctx)
        if self.warm:
            slot.submit(_warm, self.warm).result()   # errors: nothing can play
        with self.lock:
            if self.closed:
                _kill_workers(slot)
                return
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
                if self.failed:
                    raise RuntimeError(self.failed) from None
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
              deadline: float, module: str = "") -> None:
        self.run(_check, name, game, num_players, think_seconds, module, deadline=deadline)

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
