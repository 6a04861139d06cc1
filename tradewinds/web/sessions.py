"""Games being played in the browser: one `Session` each, kept in SQLite, the opponents
thinking in worker processes (`thinking`).

A game is stored as what rebuilds it exactly: game, player count, options, seed (and
whether the person chose it), the agent of every seat (None for the person), the action
ids played so far and the moves that were forced, one row in the table ``play`` of its
own SQLite file. `step` is a pure function of (state, action), so a page reload, another
tab or a restarted server finds the game where it was.

Fair play: a seat's page never holds the seed while the game is live (`public_seed`),
since seed and actions rebuild every hidden card. The opponents' random choices are
not drawn from the seed either: seat p's move number k draws from a generator seeded by
SHA-256 of (the server's secret, the game id, p, k), the secret made once per games file
and kept in it (table ``server``), so a restarted server plays on as the first would have.

The person's move is checked against the move number the page saw (a stale page or a
second tab cannot move twice) and against the legal mask. The opponents then move on a
thread per game that waits for the worker; a move not back within the deadline (or an
agent that fails) is forced, the heuristic's move (a random one in a game without a
heuristic) on the same generator, and the log says so. Games idle for `idle_seconds`, or
beyond `max_live` in memory, are dropped from memory (their row holds them) and rebuilt
on their next request.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import json
import re
import secrets
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from tradewinds import registry
from tradewinds.store import decode_actions, encode_actions
from tradewinds.web import opponents, views
from tradewinds.web.thinking import Job, Overrun, Thinkers

_SCHEMA = """
CREATE TABLE IF NOT EXISTS play (
    id          TEXT    PRIMARY KEY,
    game        TEXT    NOT NULL,
    num_players INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    agents      TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    options     TEXT    NOT NULL,
    actions     BLOB    NOT NULL,
    created     REAL    NOT NULL,
    updated     REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS server (name TEXT PRIMARY KEY, value BLOB NOT NULL);
"""
# columns added since the first games files (added to an older file on open)
_ADDED = {"chosen": "INTEGER NOT NULL DEFAULT 0", "forced": "TEXT NOT NULL DEFAULT '{}'"}
SEED_BOUND = 2**63          # a seed the server draws: too many to try them all


def warm_up(games=("hansa", "voyage")) -> None:
    """Call every checked `Game` method once, on this thread, before threads share them:
    `tradewinds.protocol.StateChecks` compiles each check on its first call and then
    turns compilation off, and two threads making that first call at once can see
    "compilation disabled". The heuristic too, for a game that has one."""
    from tradewinds.agents.heuristic import HeuristicAgent, has_heuristic

    for name in games:
        h = registry.game(name)
        s = h.new_state(h.min_players, 0)
        h.observe(s, 0)
        h.legal_mask(s)
        h.scores(s), h.winners(s), h.returns(s), h.is_truncated(s), h.is_terminal(s)
        if has_heuristic(h):
            HeuristicAgent(name).act(h.observe(s, 0), h.legal_mask(s),
                                     np.random.default_rng(0), state=s.copy())
        h.step(s, h.legal_actions(s)[0])
        h.determinize(s, h.current_player(s), 0)
        h.replay(h.min_players, 0, [])


class NotFound(ValueError):
    """No game with that id."""


class Conflict(ValueError):
    """A move that does not fit the game as it stands (stale, not the person's turn)."""


def public_seed(session: Session, over: bool) -> dict:
    """What a page may say of the seed: only once the game is over."""
    return {"seed": session.seed} if over else {}


class Session:
    """One game: its settings, its actions, its current state and who made each move."""

    def __init__(self, sid, game, num_players, seat, agent_names, seed, options, actions,
                 chosen=False, forced=None):
        self.id = sid
        self.handle = registry.game(game)
        self.num_players, self.seat, self.seed = num_players, seat, seed
        self.agent_names, self.options, self.chosen = agent_names, options, bool(chosen)
        self.forced: dict[int, str] = {int(k): v for k, v in (forced or {}).items()}
        self.lock = threading.Lock()
        self.error: str | None = None
        self.busy = False
        self.used = time.monotonic()
        self.state = self.handle.new_state(num_players, seed, **options)
        self.actions: list[int] = []
        self.movers: list[int] = []
        for a in actions:
            self.apply(int(a))

    @property
    def over(self) -> bool:
        return bool(self.handle.is_terminal(self.state) or self.handle.is_truncated(self.state))

    def apply(self, action: int) -> None:
        mover = self.handle.current_player(self.state)
        self.handle.step(self.state, action)      # IllegalActionError: nothing changed
        self.movers.append(mover)
        self.actions.append(action)

    def person_to_move(self) -> bool:
        return not self.over and self.handle.current_player(self.state) == self.seat

    def state_at(self, k: int) -> np.ndarray:
        """The state after the first `k` moves (0..moves)."""
        if k == len(self.actions):
            return self.state.copy()
        return self.handle.replay(self.num_players, self.seed, self.actions[:k], **self.options)

    def log(self) -> list[dict]:
        out = []
        for i, (p, a) in enumerate(zip(self.movers, self.actions, strict=True)):
            entry = {"move": i + 1, "seat": p, "action": self.handle.action_name(a)}
            if i in self.forced:
                entry["forced"] = self.forced[i]
            out.append(entry)
        return out


class Sessions:
    """All games of one server, backed by the SQLite file at `path`; the opponents think
    on `thinkers` (made here with `workers` processes, each prepared as `warm` says, when
    not given) and answer within think_seconds + grace seconds. `games`: the games
    offered (default: every registered one). `background`: compile and start the workers
    on a thread; until that is done `ready` is False and `readiness` says how far it is."""

    def __init__(self, path: str | Path, *, think_seconds: float = opponents.THINK_SECONDS,
                 workers: int = 2, grace: float = 2.0, max_live: int = 64,
                 idle_seconds: float = 600.0, offers: opponents.Offers | None = None,
                 thinkers: Thinkers | None = None, games=None, warm: bool | dict = True,
                 background: bool = False):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.think_seconds, self.grace = float(think_seconds), float(grace)
        self.max_live, self.idle_seconds = int(max_live), float(idle_seconds)
        self.offers = offers or opponents.Offers()
        self.con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.executescript(_SCHEMA)
        have = {r[1] for r in self.con.execute("PRAGMA table_info(play)")}
        for col, decl in _ADDED.items():
            if col not in have:
                self.con.execute(f"ALTER TABLE play ADD COLUMN {col} {decl}")
        self.con.execute("INSERT OR IGNORE INTO server VALUES ('secret', ?)",
                         (secrets.token_bytes(32),))
        self.secret = bytes(self.con.execute(
            "SELECT value FROM server WHERE name = 'secret'").fetchone()[0])
        self.db_lock = threading.Lock()
        self.live: collections.OrderedDict[str, Session] = collections.OrderedDict()
        self.live_lock = threading.Lock()
        self.closed = False
        self.games = tuple(registry.games() if games is None else games)
        self.modules = {g: registry.module_name(g) for g in self.games}
        self.own_thinkers = thinkers is None      # closed with the sessions when made here
        self.thinkers = thinkers or Thinkers(workers, warm=warm, start=False)
        self.pool = ThreadPoolExecutor(max_workers=4 * max(1, workers),
                                       thread_name_prefix="opponents")
        self.kernels_ready = threading.Event()
        self.began, self.took = time.monotonic(), None
        if background:
            threading.Thread(target=self._start, daemon=True, name="sessions-start").start()
        else:
            self._start(raise_errors=True)

    def _start(self, raise_errors: bool = False) -> None:
        """This process's kernels first (they fill numba's cache), then the workers."""
        try:
            warm_up(self.games)
        except Exception as e:
            self.thinkers.failed = f"the game kernels did not compile: {_line(e)}"
            self.thinkers.ready.set()
            if raise_errors:
                raise
            return
        finally:
            self.kernels_ready.set()
        if self.own_thinkers:
            self.thinkers.start(raise_errors=raise_errors)
        self.took = time.monotonic() - self.began

    @property
    def ready(self) -> bool:
        """Whether games may start: kernels compiled and the workers' first start done."""
        return (self.kernels_ready.is_set() and self.thinkers.ready.is_set()
                and not self.thinkers.failed)

    def readiness(self) -> dict:
        """How far the first start is: {"ready", "kernels" (compiled in this process),
        "workers", "started" (ready of them), "seconds" (since the start, or what it
        took), "error"} (the page shows it while compiling)."""
        took = self.took if self.took is not None else time.monotonic() - self.began
        return {**self.thinkers.progress(), "ready": self.ready,
                "kernels": self.kernels_ready.is_set(), "seconds": round(took, 1)}

    @property
    def deadline(self) -> float:
        """Seconds an opponent's move may take before it is forced."""
        return self.think_seconds + self.grace

    def close(self) -> None:
        self.closed = True
        if self.own_thinkers:
            self.thinkers.close()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.con.close()

    def rng_seed(self, sid: str, player: int, k: int) -> int:
        """The seed of seat `player`'s generator at move number `k` of game `sid`: from
        the server's secret, never from the game's seed."""
        digest = hashlib.sha256(self.secret + f"\0{sid}\0{player}\0{k}".encode()).digest()
        return int.from_bytes(digest[:16], "little")

    # ------------------------------------------------------------------ making games
    def create(self, game: str, players: int, seat: int, agent_names: list,
               seed: int | None = None, options: dict | None = None) -> Session:
        """A new game; `agent_names` has one offered agent name per seat but `seat`
        (whose entry is None). ValueError (one line) for any bad setting."""
        if game not in self.games:
            raise ValueError(f"unknown game {game[:40]!r}; games: {', '.join(self.games)}")
        handle = registry.game(game)
        n = handle.check_players(players)
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat}")
        if len(agent_names) != n or agent_names[seat] is not None:
            raise ValueError("opponents: one agent name for every seat but yours")
        made = {self.offers.check(name, game) for s, name in enumerate(agent_names)
                if s != seat}
        for name in sorted(made):
            try:
                self.thinkers.check(name, game, n, self.think_seconds, max(30.0, self.deadline),
                                    registry.module_name(game))
            except Exception as e:      # one line, and no path of the server's
                raise ValueError(f"agent {name!r} cannot play {game} with {n} players here: "
                                 f"{_line(e)}") from None
        opts = handle.resolve_options(options or {}, n)
        chosen = seed is not None
        seed = secrets.randbelow(SEED_BOUND) if seed is None else seed
        s = Session(secrets.token_urlsafe(12), game, n, seat, list(agent_names), seed, opts,
                    [], chosen=chosen)
        now = time.time()
        with self.db_lock:
            self.con.execute(
                "INSERT INTO play (id, game, num_players, seat, agents, seed, options, "
                "actions, created, updated, chosen, forced) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (s.id, game, n, seat, json.dumps(s.agent_names), seed, json.dumps(opts),
                 encode_actions([]), now, now, int(chosen), "{}"))
        self._keep(s)
        self._kick(s)
        return s

    def get(self, sid: str) -> Session:
        """The game `sid`, from memory or rebuilt from its row (NotFound if none)."""
        if not isinstance(sid, str) or not 8 <= len(sid) <= 40:
            raise NotFound(f"no game {opponents._short(sid)}")
        with self.live_lock:
            s = self.live.get(sid)
            if s is not None:
                self.live.move_to_end(sid)
                s.used = time.monotonic()
        if s is not None:
            return s
        with self.db_lock:
            row = self.con.execute(
                "SELECT game, num_players, seat, agents, seed, options, actions, chosen, "
                "forced FROM play WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise NotFound(f"no game {sid!r}")
        game, n, seat, names, seed, options, blob, chosen, forced = row
        s = Session(sid, game, n, seat, json.loads(names), seed, json.loads(options),
                    decode_actions(blob), chosen=chosen, forced=json.loads(forced))
        s = self._keep(s)
        self._kick(s)
        return s

    def _keep(self, s: Session) -> Session:
        """`s` in memory (or the copy another thread put there first), then the idle
        games and those beyond `max_live` dropped, least recently used first."""
        now = time.monotonic()
        with self.live_lock:
            s = self.live.setdefault(s.id, s)
            self.live.move_to_end(s.id)
            for sid, other in list(self.live.items()):
                if other is s or other.busy:
                    continue
                if len(self.live) > self.max_live or now - other.used > self.idle_seconds:
                    del self.live[sid]
        return s

    # ------------------------------------------------------------------ moving
    def move(self, sid: str, action: int, move: int) -> Session:
        """The person's `action` as move number `move` (the moves the page had seen).
        Conflict when stale or not the person's turn, IllegalActionError when illegal;
        either way nothing changes."""
        s = self.get(sid)
        with s.lock:
            if move != len(s.actions):
                raise Conflict(f"stale move: the game is at move {len(s.actions)}, "
                               f"the page sent move {move} (reload to catch up)")
            if s.over:
                raise Conflict("the game is over")
            if not s.person_to_move():
                raise Conflict("not your turn: an opponent is to move")
            s.apply(action)
            self._save(s)
        self._kick(s)
        return s

    def _save(self, s: Session) -> None:
        """Store the move just applied to `s`; Conflict (and `s` dropped from memory) when
        the row has moved on meanwhile (another copy of the game, rebuilt after `s` was
        dropped, moved first)."""
        before = encode_actions(s.actions[:-1])
        with self.db_lock:
            done = self.con.execute(
                "UPDATE play SET actions = ?, forced = ?, updated = ? WHERE id = ? AND "
                "actions = ?", (encode_actions(s.actions), json.dumps(s.forced), time.time(),
                                s.id, before)).rowcount
        if not done:
            with self.live_lock:
                if self.live.get(s.id) is s:
                    del self.live[s.id]
            raise Conflict("the game moved on meanwhile (reload to catch up)")

    def _kick(self, s: Session) -> None:
        """Start the opponents' job for `s` unless it runs already or is not needed."""
        with s.lock:
            if s.busy or s.over or s.person_to_move() or s.error or self.closed:
                return
            s.busy = True
        self.pool.submit(self._advance, s)

    def _advance(self, s: Session) -> None:
        """Opponents move until the person is to move or the game ends (worker thread)."""
        try:
            while not self.closed:
                with s.lock:
                    if s.over or s.person_to_move():
                        return
                    p = s.handle.current_player(s.state)
                    state, k = s.state.copy(), len(s.actions)
                    label = s.agent_names[p]
                    job = Job(s.handle.name, s.num_players, s.seed, s.options,
                              tuple(s.actions), "", p, self.rng_seed(s.id, p, k),
                              self.think_seconds, s.id, registry.module_name(s.handle.name))
                a, why = self._decide(job, label, state)
                if self.closed:
                    return
                with s.lock:
                    if len(s.actions) != k:      # cannot happen: only this job moves them
                        raise RuntimeError("the game changed while an opponent thought")
                    try:
                        s.apply(a)
                    except ValueError as e:
                        why = f"{label} chose an illegal move ({_line(e)})"
                        s.apply(self._forced(job, state))
                    if why:
                        s.forced[k] = f"{why}; {_fallback(s.handle)}'s move was played"
                    self._save(s)
        except Exception as e:      # shown on the page; the game stays as it was
            s.error = f"the opponents' job failed: {_line(e)}"
        finally:
            with s.lock:
                s.busy = False

    def _decide(self, job: Job, label: str, state) -> tuple[int, str | None]:
        """(the move of `job`'s seat, None) or (a forced move, why it was forced)."""
        try:
            name = self.offers.check(label, job.game)
            a = self.thinkers.decide(dataclasses.replace(job, name=name), self.deadline)
            return int(a), None
        except Exception as e:
            if self.closed:
                return -1, None
            why = (f"{label} gave no move within {self.deadline:g} s"
                   if isinstance(e, Overrun) else f"{label} failed ({_line(e)})")
            return self._forced(job, state), why

    def _forced(self, job: Job, state) -> int:
        """The fallback's move for `job`'s seat at `state` (the heuristic where the game
        has one, else a random legal move), on the seat's generator."""
        from tradewinds import agents
        from tradewinds.studies import arena

        handle = registry.game(job.game)
        agent = agents.make_agent(_fallback(handle), game=job.game)
        rng = np.random.default_rng(job.rng_seed)
        return int(arena.agent_action(agent, handle, state, job.player, rng))

    # ------------------------------------------------------------------ pages
    def page(self, sid: str, at: int | None = None) -> dict:
        """What the page of game `sid` shows after move `at` (default: the latest)."""
        s = self.get(sid)
        with s.lock:
            moves = len(s.actions)
            if at is None:
                at = moves
            if not 0 <= at <= moves:
                raise ValueError(f"at must be a move number 0..{moves}, got {at}")
            state = s.state_at(at)
            log, busy, error, over = s.log(), s.busy, s.error, s.over
        out = views.page(s.handle, state, s.seat, s.options, latest=at == moves)
        status = ("over" if out.get("result") else "error" if error
                  else "your_move" if out.get("legal") else "thinking")
        labels = [name if name is not None else "you" for name in s.agent_names]
        return {"id": s.id, "game": s.handle.name, "num_players": s.num_players,
                "seat": s.seat, "seed_chosen": s.chosen, **public_seed(s, over),
                "agents": labels, "moves": moves, "at": at, "log": log, "status": status,
                "over": over, "busy": busy, "error": error, **out}


def _fallback(handle) -> str:
    """The agent whose move is played for an opponent that gave none: the heuristic, or
    random for a game without one."""
    from tradewinds.agents.heuristic import has_heuristic

    return "heuristic" if has_heuristic(handle) else "random"


def _line(e: BaseException) -> str:
    """The first line of an error's message, at most 200 characters, each absolute path
    in it cut to its file name (a page shows no path of the server's)."""
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return _PATH.sub(lambda m: m.group(0).rsplit("/", 1)[-1], text)[:200]


_PATH = re.compile(r"(?<![\w.])/[^\s'\",)]+")
