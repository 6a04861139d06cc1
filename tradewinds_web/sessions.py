"""Games being played in the browser: one `Session` each, kept in SQLite, the opponents
moving on worker threads.

A game is stored as what rebuilds it exactly: game, player count, options, seed, the
agent of every seat (None for the person) and the action ids played so far, one row in
the table ``play`` of its own SQLite file (the same engine as the results store, not the
same file). `step` is a pure function of (state, action), so a page reload, another tab
or a restarted server finds the game where it was. Opponent seat s draws its move number
k from ``numpy.random.default_rng([seed, s, k])``: a rebuilt game goes on exactly as the
first server would have played it.

The person's move is checked against the move number the page saw (a stale page or a
second tab cannot move twice) and against the legal mask; the opponents then move on a
`ThreadPoolExecutor`, one job per game at a time, never on the request thread.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from studies import arena
from tradewinds import registry
from tradewinds.store import decode_actions, encode_actions
from tradewinds_web import opponents, views

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
"""


def warm_up(games=("hansa", "voyage")) -> None:
    """Call every checked `Game` method once, on this thread, before threads share them:
    `tradewinds.protocol.StateChecks` compiles each check on its first call and then
    turns compilation off, and two threads making that first call at once can see
    "compilation disabled"."""
    for name in games:
        h = registry.game(name)
        s = h.new_state(h.min_players, 0)
        h.observe(s, 0)
        h.legal_mask(s)
        h.scores(s), h.winners(s), h.returns(s), h.is_truncated(s), h.round(s)
        h.step(s, h.legal_actions(s)[0])
        h.determinize(s, h.current_player(s), 0)
        h.replay(h.min_players, 0, [])


class NotFound(ValueError):
    """No game with that id."""


class Conflict(ValueError):
    """A move that does not fit the game as it stands (stale, not the person's turn)."""


class Session:
    """One game: its settings, its actions, its current state and who made each move."""

    def __init__(self, sid, game, num_players, seat, agent_names, seed, options, actions):
        self.id = sid
        self.handle = registry.game(game)
        self.num_players, self.seat, self.seed = num_players, seat, seed
        self.agent_names, self.options = agent_names, options
        self.lock = threading.Lock()
        self.error: str | None = None
        self.busy = False
        self.agents = {s: None for s, name in enumerate(agent_names) if name is not None}
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


class Sessions:
    """All games of one server, backed by the SQLite file at `path`."""

    def __init__(self, path: str | Path, *, think_seconds: float = opponents.THINK_SECONDS,
                 workers: int = 2):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.think_seconds = float(think_seconds)
        self.con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.executescript(_SCHEMA)
        self.db_lock = threading.Lock()
        self.live: dict[str, Session] = {}
        self.live_lock = threading.Lock()
        warm_up()
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="opponents")

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.con.close()

    # ------------------------------------------------------------------ making games
    def create(self, game: str, players: int, seat: int, agent_names: list,
               seed: int | None = None, options: dict | None = None) -> Session:
        """A new game; `agent_names` has one registered agent name per seat but `seat`
        (whose entry is None). ValueError (one line) for any bad setting."""
        handle = registry.game(game)
        n = handle.check_players(players)
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat}")
        if len(agent_names) != n or agent_names[seat] is not None:
            raise ValueError("opponents: one agent name for every seat but yours")
        for s, name in enumerate(agent_names):
            if s != seat:
                opponents.check_name(name)
        opts = handle.resolve_options(options, n)
        seed = secrets.randbelow(2**31) if seed is None else seed
        made = {s: opponents.make(name, game, self.think_seconds)
                for s, name in enumerate(agent_names) if name is not None}
        s = Session(secrets.token_urlsafe(12), game, n, seat, list(agent_names), seed, opts, [])
        s.agents = made
        now = time.time()
        with self.db_lock:
            self.con.execute(
                "INSERT INTO play VALUES (?,?,?,?,?,?,?,?,?,?)",
                (s.id, game, n, seat, json.dumps(s.agent_names), seed, json.dumps(opts),
                 encode_actions([]), now, now))
        with self.live_lock:
            self.live[s.id] = s
        self._kick(s)
        return s

    def get(self, sid: str) -> Session:
        """The game `sid`, from memory or rebuilt from its row (NotFound if none)."""
        if not isinstance(sid, str) or not 8 <= len(sid) <= 40:
            raise NotFound(f"no game {sid!r}")
        with self.live_lock:
            s = self.live.get(sid)
        if s is not None:
            return s
        with self.db_lock:
            row = self.con.execute(
                "SELECT game, num_players, seat, agents, seed, options, actions FROM play "
                "WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise NotFound(f"no game {sid!r}")
        game, n, seat, names, seed, options, blob = row
        s = Session(sid, game, n, seat, json.loads(names), seed, json.loads(options),
                    decode_actions(blob))
        with self.live_lock:
            s = self.live.setdefault(sid, s)
        self._kick(s)
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
        with self.db_lock:
            self.con.execute("UPDATE play SET actions = ?, updated = ? WHERE id = ?",
                             (encode_actions(s.actions), time.time(), s.id))

    def _kick(self, s: Session) -> None:
        """Start the opponents' job for `s` unless it runs already or is not needed."""
        with s.lock:
            if s.busy or s.over or s.person_to_move() or s.error:
                return
            s.busy = True
        self.pool.submit(self._advance, s)

    def _agent(self, s: Session, p: int):
        if s.agents.get(p) is None:
            s.agents[p] = opponents.make(s.agent_names[p], s.handle.name, self.think_seconds)
        return s.agents[p]

    def _advance(self, s: Session) -> None:
        """Opponents move until the person is to move or the game ends (worker thread)."""
        p = -1
        try:
            while True:
                with s.lock:
                    if s.over or s.person_to_move():
                        return
                    p = s.handle.current_player(s.state)
                    state, k = s.state.copy(), len(s.actions)
                rng = np.random.default_rng([s.seed, p, k])
                a = arena.agent_action(self._agent(s, p), s.handle, state, p, rng)
                with s.lock:
                    if len(s.actions) != k:      # cannot happen: only this job moves them
                        raise RuntimeError("the game changed while an opponent thought")
                    s.apply(int(a))
                    self._save(s)
        except Exception as e:      # shown on the page; the game stays as it was
            who = f"{s.agent_names[p]} in seat {p}" if p >= 0 else "the opponents' job"
            s.error = f"{who} failed: {e}"
        finally:
            with s.lock:
                s.busy = False

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
            log = [{"move": i + 1, "seat": p, "action": s.handle.action_name(a)}
                   for i, (p, a) in enumerate(zip(s.movers, s.actions, strict=True))]
            busy, error = s.busy, s.error
        out = views.page(s.handle, state, s.seat, s.options, latest=at == moves)
        status = ("over" if out.get("result") else "error" if error
                  else "your_move" if out.get("legal") else "thinking")
        labels = [name if name is not None else "you" for name in s.agent_names]
        return {"id": s.id, "game": s.handle.name, "num_players": s.num_players,
                "seat": s.seat, "seed": s.seed, "agents": labels, "moves": moves, "at": at,
                "log": log, "status": status, "busy": busy, "error": error, **out}
