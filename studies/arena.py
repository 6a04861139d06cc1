"""The arena: plays games between named agents and records every game (docs/design.md §9).

A *study* fixes a game, a player count, the game options, a line-up of agents, a seating
rule and a base seed. Game ``i`` of a study is played with seed ``base_seed + i``; its
agents per seat follow the seating rule (``fixed``: seat s gets ``agents[s]``;
``rotate``: game i rotates the line-up by i, seat s gets ``agents[(s + i) % n]``), and the
agent of seat s draws its randomness from ``numpy.random.default_rng([seed, s])``. So a
game is fully determined by (study, i), whichever worker, process or Ray node plays it,
and the rows of a study are identical across backends and worker counts (except the
measured durations).

Seats. Seat s is player index s of the kernel (``player_s``); results are stored by seat.
Each row also records ``turn_order``: the seats in the order they play at the start of the
game, `Game.turn_order` (the game's ``turn_order`` kernel where it declares that
capability, else ``0..n-1``). In Hansa seat 0 is the start player and the order never
changes (HA7). In the Voyage game the order is re-bid every round; the FPA study measures
the seat index, i.e. the position in the *initial* order recorded here, not the order of
any later round.

Every python-path row also carries ``actions``, the action id of every decision in order
(the store keeps them compactly), so a game replays exactly whatever its agents were
(time budgets, learned nets); kernel-path games replay from their seed
(`tradewinds.web.replay`).

Two ways to play a game (recorded per run and per game as ``path``):

* ``python`` — the general path: ``Game`` step by step; the agent of
  ``game.current_player(state)`` gets ``game.observe(state, p)``,
  ``game.legal_mask(state)`` and its seat's generator, and returns an action id.
* ``kernel`` — the fast path, used when every seat plays the same policy the kernels can
  play on their own (`agents.kernel_policy`: the uniformly random agent, or the heuristic)
  with no factory keywords, and the game can: the whole game runs inside numba
  (``kernels.random_playout`` for a game with the ``random_playout`` capability, thousands
  of games per second per core; ``agents.heuristic.playout`` for a game with a heuristic,
  each decision on a determinization for the decider, as `HeuristicAgent` plays). The
  choices follow the same policy and are as determined by the seed (the key is a
  SplitMix64 hash of the seed, see `playout_key`), but they come from the kernel's
  generator, so the individual games differ from the python path's. ``fast=False`` forces
  the python path.

Parallelism: seeds are cut into chunks; a backend plays chunks (``play_chunk``) and hands
the rows back to the single writer (the caller, who stores them). Backends: ``local`` with
``workers=1`` (in process), ``local`` with more workers (a spawn-context process pool), and
``ray`` (remote tasks on a Ray cluster, or a local Ray when no address is given). The
process pool uses the spawn start method (no fork of a threaded parent), so a script that
runs it needs the usual ``if __name__ == "__main__":`` guard. Agents registered at run time
are shipped to the workers with each chunk (their factories must be picklable).
"""

from __future__ import annotations

import json
import math
import os
import platform
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent import futures
from contextlib import closing
from dataclasses import asdict, dataclass, field
from itertools import islice

import numpy as np

from tradewinds import ray_start
from tradewinds.protocol import as_key

SEATINGS = ("fixed", "rotate")
BACKENDS = ("local", "ray")


def versions() -> dict:
    """Versions of what decides a game's outcome, recorded with every game."""
    import numba

    import tradewinds

    return {"tradewinds": tradewinds.__version__, "numba": numba.__version__,
            "numpy": np.__version__, "python": platform.python_version()}


def playout_key(seed: int) -> np.ndarray:
    """The kernel playout generator for a game seed (`tradewinds.protocol.as_key`): a
    fixed hash of the seed that does not coincide with the game's own chance stream."""
    return as_key(int(seed))


# ------------------------------------------------------------------------------ study


def _parse_value(text: str):
    """'3' -> 3, 'true' -> True, '"x"' -> 'x', 'per_stall' -> 'per_stall', and a
    comma-separated list '0,1,2' -> [0, 1, 2] (a per-seat schedule)."""
    for candidate in (text, f"[{text}]") if "," in text else (text,):
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            pass
    return text


def parse_options(pairs: Iterable[str]) -> dict:
    """['max_rounds=100', 'build_rule=per_stall'] -> {'max_rounds': 100, ...}."""
    out = {}
    for pair in pairs:
        k, sep, v = pair.partition("=")
        if not sep or not k:
            raise ValueError(f"option must look like key=value, got {pair!r}")
        out[k.strip()] = _parse_value(v.strip())
    return out


@dataclass(frozen=True, eq=True)
class Study:
    """What determines a set of games: game i is ``play_game(study, i)``.

    Build it with `Study.create`, which validates names and options, fills in the game's
    option defaults (so ``{}`` and the explicit defaults are the same study) and resolves
    the path.
    """

    game: str
    num_players: int
    agents: tuple            # line-up: seat order of game 0
    options: dict = field(default_factory=dict)
    agent_kwargs: dict = field(default_factory=dict)   # agent name -> kwargs
    seating: str = "fixed"
    base_seed: int = 0
    path: str = "python"

    @classmethod
    def create(cls, game: str, num_players: int, agents: str | Sequence[str] = "random",
               options: dict | None = None, agent_kwargs: dict | None = None,
               seating: str = "fixed", base_seed: int = 0, fast: bool = True) -> Study:
        from tradewinds import agents as agent_registry
        from tradewinds import registry

        handle = registry.game(game)
        n = handle.check_players(num_players)
        if isinstance(agents, str):
            agents = [a.strip() for a in agents.split(",")]
        agents = tuple(agents)
        if len(agents) == 1:
            agents = agents * n
        if len(agents) != n:
            raise ValueError(f"need one agent or one per seat ({n}), got {len(agents)}: "
                             f"{', '.join(agents)}")
        for a in agents:
            agent_registry.factory(a)          # ValueError listing the known agents
        if seating not in SEATINGS:
            raise ValueError(f"seating must be one of {SEATINGS}, got {seating!r}")
        if not isinstance(base_seed, (int, np.integer)) or base_seed < 0:
            raise ValueError(f"base_seed must be a non-negative integer, got {base_seed!r}")
        opts = handle.resolve_options(options, n)
        kwargs = {k: dict(v) for k, v in (agent_kwargs or {}).items() if v}
        for k in kwargs:
            if k not in agents:
                raise ValueError(f"agent_kwargs for {k!r}, which is not in the line-up")
        policies = {agent_registry.kernel_policy(a) if a not in kwargs else None
                    for a in agents}
        (policy,) = policies if len(policies) == 1 else (None,)
        from tradewinds.agents.heuristic import has_heuristic

        kernel = ((policy == "heuristic" and has_heuristic(handle))
                  or (policy == "random" and handle.supports("random_playout")))
        path = "kernel" if fast and kernel else "python"
        return cls(game=game, num_players=n, agents=agents, options=opts, agent_kwargs=kwargs,
                   seating=seating, base_seed=int(base_seed), path=path)

    def identity(self) -> dict:
        """The run key: everything that decides the games (see tradewinds.store)."""
        d = asdict(self)
        d["agents"] = list(self.agents)
        return d

    def seed(self, index: int) -> int:
        return self.base_seed + int(index)

    def seats(self, index: int) -> tuple:
        """The agent name of every seat in game `index`."""
        if self.seating == "fixed":
            return self.agents
        n = self.num_players
        return tuple(self.agents[(s + index) % n] for s in range(n))

    def label(self) -> str:
        names = sorted(set(self.agents))
        return names[0] if len(names) == 1 else "-".join(self.agents)


# ------------------------------------------------------------------------------ games


def initial_turn_order(game, state) -> list:
    """Seats in playing order at the start of a game (`Game.turn_order`)."""
    return game.turn_order(state)


def agent_action(agent, game, state, player: int, rng) -> int:
    """Ask `agent` for the move of seat `player` (the decider of `state`).

    Every agent gets the seat's observation, the legal mask and the seat's generator. An
    agent with ``needs_state = True`` (search and heuristic agents) also gets a copy of the
    real state as ``state=``; it promises to look at it only through
    ``game.determinize(state, player, key)`` (tests/agents/test_agent_honesty.py holds it to that).
    """
    obs, mask = game.observe(state, player), game.legal_mask(state)
    if getattr(agent, "needs_state", False):
        return agent.act(obs, mask, rng, state=state.copy())
    return agent.act(obs, mask, rng)


class _Seats:
    """Agent objects by (seat, name), built on demand and reused across a chunk's games."""

    def __init__(self, study: Study):
        self.study = study
        self.cache: dict = {}

    def get(self, seat: int, name: str):
        key = (seat, name)
        if key not in self.cache:
            from tradewinds.agents import make_agent

            self.cache[key] = make_agent(name, game=self.study.game,
                                         **self.study.agent_kwargs.get(name, {}))
        return self.cache[key]


def play_game(study: Study, index: int, *, _seats: _Seats | None = None,
              _versions: dict | None = None) -> dict:
    """Play game `index` of `study` and return its row (see tradewinds.store for columns)."""
    from tradewinds import registry

    game = registry.game(study.game)
    n = study.num_players
    seed = study.seed(index)
    seat_names = study.seats(index)
    t0 = time.perf_counter()
    state = game.new_state(n, seed, **study.options)
    order = initial_turn_order(game, state)
    actions = None          # kernel games replay from their seed; others keep their moves
    if study.path == "kernel":
        steps = _kernel_playout(study, game, state, seed)
    else:
        actions = []
        seats = _seats or _Seats(study)
        players = [seats.get(s, name) for s, name in enumerate(seat_names)]
        for p in players:
            if hasattr(p, "reset"):
                p.reset()
        rngs = [np.random.default_rng([seed, s]) for s in range(n)]
        steps = 0
        while not (game.is_terminal(state) or game.is_truncated(state)):
            p = game.current_player(state)
            action = agent_action(players[p], game, state, p, rngs[p])
            try:
                game.step(state, action)
            except ValueError as e:
                raise ValueError(f"agent {seat_names[p]!r} in seat {p} of {study.game} seed "
                                 f"{seed} after {steps} decisions: {e}") from e
            actions.append(int(action))
            steps += 1
    duration = time.perf_counter() - t0
    return {
        "game_index": int(index), "seed": seed, "game": study.game, "num_players": n,
        "options": study.options, "agents": list(seat_names), "turn_order": order,
        "scores": [int(x) for x in game.scores(state)], "winners": game.winners(state),
        "steps": steps, "rounds": game.round(state),
        "truncated": bool(game.is_truncated(state)), "duration": duration,
        "path": study.path, "versions": _versions or versions(), "actions": actions,
    }


def _kernel_playout(study: Study, game, state, seed: int) -> int:
    """The whole game inside numba with the seats' common kernel policy."""
    from tradewinds import agents as agent_registry

    if agent_registry.kernel_policy(study.agents[0]) == "random":
        return int(game.kernels.random_playout(state, playout_key(seed)))
    from tradewinds.agents import heuristic

    steps = int(heuristic.playout(game.aux, state, playout_key(seed), game.num_actions))
    if steps < 0:
        raise RuntimeError(f"the heuristic chose an illegal action in {study.game} seed "
                           f"{seed} after {-1 - steps} decisions")
    return steps


def play_chunk(study: Study, indices: Sequence[int], factories: dict | None = None) -> list:
    """Play games `indices` of `study` (one worker task); returns their rows in order.

    `factories` (name -> agent factory) re-registers agents that a worker process would not
    know from importing `agents` alone (agents registered at run time by the caller).
    """
    if factories:
        from tradewinds import agents

        known = set(agents.agent_names())
        for name, f in factories.items():
            if name not in known or agents.factory(name) is not f:
                agents.register(name, f, replace=True)
    seats = _Seats(study)
    v = versions()
    return [play_game(study, i, _seats=seats, _versions=v) for i in indices]


def _factories_for(study: Study) -> dict:
    """Factories of the study's agents that a fresh worker would not get from `agents`,
    by registered name (the base of a parametrized name: 'nth' for 'nth:1', so the worker
    still passes spec='1')."""
    from tradewinds import agents

    builtin = agents.builtin_names()
    return {agents.split_name(a)[0]: agents.factory(a) for a in set(study.agents)
            if agents.split_name(a)[0] not in builtin}


# ---------------------------------------------------------------------------- backends


def _warm_up() -> None:
    """Worker initializer: import the games and agents so numba's cache loads early.

    Workers ignore SIGINT: Ctrl-C reaches the whole process group, and the parent alone
    decides (it stops the pool, `LocalBackend.close(kill=True)`), so no worker prints a
    KeyboardInterrupt traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    import tradewinds  # noqa: F401
    from tradewinds import agents  # noqa: F401


def _exit_with_parent(poll: float = 0.5) -> None:
    """A worker whose parent was killed (SIGKILL: no chance to stop the pool) would block
    forever writing its results to a pipe nobody reads; a daemon thread ends it as soon
    as the worker is re-parented."""
    import threading

    parent = os.getppid()

    def watch():
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _quiet_broken_pool(hook):
    """An excepthook that drops one known race of CPython 3.11's process pool: killed
    workers make its manager thread set an exception on a future that shutdown has just
    cancelled (InvalidStateError), a traceback on stderr for nothing lost."""
    def quiet(args):
        if not (isinstance(args.exc_value, futures.InvalidStateError)
                and type(args.thread).__name__ == "_ExecutorManagerThread"):
            hook(args)
    return quiet


class LocalBackend:
    """Chunks in this process (workers=1) or in a spawn-context process pool."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, int(workers or os.cpu_count() or 1))
        self.pool = None
        if self.workers > 1:
            import multiprocessing as mp

            self.pool = futures.ProcessPoolExecutor(
                self.workers, mp_context=mp.get_context("spawn"), initializer=_warm_up)
        self.window = 1 if self.pool is None else 2 * self.workers

    def submit(self, study, indices, factories):
        if self.pool is not None:
            return self.pool.submit(play_chunk, study, list(indices), factories)
        f = futures.Future()
        f.set_result(play_chunk(study, list(indices), factories))
        return f

    def wait(self, handles):
        done, _ = futures.wait(handles, return_when=futures.FIRST_COMPLETED)
        return done

    def result(self, handle):
        return handle.result()

    def cancel(self, handle):
        handle.cancel()

    def close(self, kill: bool = False):
        """Shut the pool down; `kill` ends running chunks at once (their games are lost,
        stored ones are kept) instead of waiting for them."""
        if self.pool is not None:
            hook = threading.excepthook
            if kill:
                threading.excepthook = _quiet_broken_pool(hook)
                for proc in list((getattr(self.pool, "_processes", None) or {}).values()):
                    proc.terminate()
            try:
                self.pool.shutdown(wait=True, cancel_futures=True)   # joins its manager
            finally:
                threading.excepthook = hook
            self.pool = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        # an exception (Ctrl-C, an error in the parent) does not wait for chunks in flight
        self.close(kill=exc_type is not None)


class RayBackend:
    """Chunks as Ray remote tasks: `address` joins a cluster, None starts a local Ray.

    Every Ray worker must be able to import the project (tradewinds, the games, agents and
    studies; same versions recommended: each row records the versions of the worker that
    played it).
    """

    def __init__(self, address: str | None = None, workers: int | None = None,
                 **init_kwargs):
        try:
            import ray
        except ImportError as e:
            raise RuntimeError("the ray backend needs Ray: pip install 'tradewinds[dist]'") \
                from e
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            kw = {"num_cpus": int(workers)} if address is None and workers else {}
            ray_start.start(address, **{**kw, **init_kwargs})
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, cpus)
        self.window = 2 * self.workers
        self.remote = ray.remote(num_cpus=1)(play_chunk)

    def submit(self, study, indices, factories):
        return self.remote.remote(study, list(indices), factories)

    def wait(self, handles):
        done, _ = self.ray.wait(list(handles), num_returns=1)
        return done

    def result(self, handle):
        return self.ray.get(handle)

    def cancel(self, handle):
        try:
            self.ray.cancel(handle, force=True)
        except Exception:   # already finished or gone
            pass

    def close(self):
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()
        self.started = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def make_backend(kind: str = "local", workers: int | None = None, address: str | None = None,
                 **kwargs):
    """A backend for `run`: 'local' (processes; workers default os.cpu_count()) or 'ray'."""
    if kind == "local":
        if address is not None:
            raise ValueError("--address is for --backend ray")
        return LocalBackend(workers)
    if kind == "ray":
        return RayBackend(address, workers, **kwargs)
    raise ValueError(f"backend must be one of {BACKENDS}, got {kind!r}")


def iter_jobs(backend, jobs: Iterable[tuple]) -> Iterator[tuple]:
    """``(job, rows)`` for each job ``(study, indices, *anything)`` as it finishes (any
    order), at most `backend.window` in flight. The next job is drawn only after the
    caller has seen the previous rows, so a lazy `jobs` can size it from them. Closing the
    generator early (break, exception) cancels the jobs not yet finished."""
    factories: dict = {}             # id(study) -> (study, its factories); holds the study

    def submit(job):
        study, indices = job[0], job[1]
        if id(study) not in factories:
            factories[id(study)] = (study, _factories_for(study))
        pending[backend.submit(study, indices, factories[id(study)][1])] = job

    it = iter(jobs)
    pending: dict = {}
    try:
        for job in islice(it, backend.window):
            submit(job)
        while pending:
            for h in backend.wait(list(pending)):
                job = pending.pop(h)
                yield job, backend.result(h)
                nxt = next(it, None)
                if nxt is not None:
                    submit(nxt)
    finally:
        for h in pending:
            backend.cancel(h)


def default_chunk_size(study: Study, todo: int, workers: int) -> int:
    """About 4 chunks per worker, capped so progress and crash losses stay small."""
    cap = 500 if study.path == "kernel" else 20
    return max(1, min(cap, math.ceil(todo / (4 * max(1, workers)))))


class ChunkSizer:
    """Games per chunk, decided as each chunk is made: `fixed` when given (--chunk-size),
    else one game until a chunk has come back, then as many as take about `target`
    seconds at the games' measured pace, at most `cap`. So a slow search row stores (and
    loses on a stop) a game or two at a time, while fast games still go in large chunks."""

    def __init__(self, cap: int, fixed: int | None = None, target: float = 30.0):
        self.cap, self.fixed, self.target = max(1, cap), fixed, target
        self.games, self.seconds = 0, 0.0

    def observe(self, rows: Sequence[dict]) -> None:
        self.games += len(rows)
        self.seconds += sum(r["duration"] for r in rows)

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.games == 0:
            return 1
        pace = self.seconds / self.games
        return self.cap if pace <= 0 else max(1, min(self.cap, int(self.target / pace)))


@dataclass
class RunResult:
    run_id: int
    requested: int        # games 0..requested-1
    already: int          # of those, stored before this call
    played: int           # newly stored now
    elapsed: float        # seconds spent playing in this call
    stopped_early: bool   # `stop` ended the run before all requested games were played


def _todo_chunks(store, run_id: int, games: int, sizer: ChunkSizer,
                 block: int = 100_000) -> Iterator[list]:
    """Chunks of the game indices below `games` that `store` lacks, made lazily a block of
    indices at a time (so the parent's memory does not grow with the request), each as
    large as `sizer` says when it is made."""
    for lo in range(0, games, block):
        hi = min(games, lo + block)
        done = store.done_indices(run_id, lo, hi)
        todo = [i for i in range(lo, hi) if i not in done]
        k = 0
        while k < len(todo):
            chunk = todo[k:k + sizer.size()]
            k += len(chunk)
            yield chunk


def run(study: Study, store, games: int, *, backend=None, chunk_size: int | None = None,
        on_rows: Callable[[list], None] | None = None,
        stop: Callable[[list], bool] | None = None) -> RunResult:
    """Play games 0..games-1 of `study` that `store` does not have yet and store them.

    Resumable: the run is found by the study's identity and completed seeds are skipped.
    Rows are stored (one transaction per chunk) as chunks finish; `on_rows(rows)` is then
    called (progress), and `stop(rows)` — if it returns True the remaining chunks are
    cancelled (games already stored are kept). `backend` defaults to an in-process one.
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    run_id = store.run_id(study.identity(), versions())
    already = store.count(run_id, below=games)
    todo = games - already
    own = backend is None
    backend = backend or LocalBackend(1)
    sizer = ChunkSizer(default_chunk_size(study, todo, backend.workers), chunk_size)
    chunks = _todo_chunks(store, run_id, games, sizer)
    played = 0
    stopped = False
    t0 = time.perf_counter()
    try:
        with closing(iter_jobs(backend, ((study, c) for c in chunks))) as finished:
            for _, rows in finished:
                sizer.observe(rows)
                played += store.add_games(run_id, rows)
                if on_rows is not None:
                    on_rows(rows)
                if stop is not None and stop(rows):
                    stopped = played < todo
                    break
    finally:
        if own:
            backend.close()
    return RunResult(run_id=run_id, requested=games, already=already, played=played,
                     elapsed=time.perf_counter() - t0, stopped_early=stopped)


def wins_matrix(rows: Sequence[dict], num_players: int) -> np.ndarray:
    """[games, seats] win credit: 1 split equally among each game's winners."""
    w = np.zeros((len(rows), num_players))
    for i, r in enumerate(rows):
        if r["winners"]:
            w[i, r["winners"]] = 1.0 / len(r["winners"])
    return w


def scores_matrix(rows: Sequence[dict], num_players: int) -> np.ndarray:
    """[games, seats] final victory points."""
    return np.array([r["scores"] for r in rows], dtype=np.int64).reshape(len(rows), num_players)


def by_position(matrix: np.ndarray, rows: Sequence[dict]) -> np.ndarray:
    """Re-index a [games, seats] matrix by initial turn-order position: column k holds the
    value of the seat that was k-th in that game's initial order (identity for Hansa)."""
    order = np.array([r["turn_order"] for r in rows], dtype=np.int64).reshape(matrix.shape)
    return np.take_along_axis(matrix, order, axis=1)
