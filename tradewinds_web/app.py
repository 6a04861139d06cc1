"""The HTTP side of `tradewinds serve`: a Starlette app with a JSON API and one page.

Routes (every error is JSON ``{"error": "<one line>"}`` with 400 bad input, 404 no such
thing, 409 a move that does not fit the game as it stands, 413 a body too large):

    GET  /                                  the page (static/index.html)
    GET  /static/<file>                     its script and style (nothing outside static/)
    GET  /api/meta                          games, offered agents, results stores
    GET  /api/boards/<game>                 the static board drawing (`boards`)
    POST /api/games                         {game, players, seat, opponents[, seed, options]}
    GET  /api/games/<id>[?at=k]             the person's page after move k
    POST /api/games/<id>/move               {action: id, move: moves seen}
    GET  /api/stores/<i>/runs               the runs of results store i
    GET  /api/stores/<i>/games[?filters]    its games (run, game, agent, winner, truncated)
    GET  /api/stores/<i>/games/<gid>[?at=k&seat=s]   a stored game replayed, after move k

Stores are named by their index in the server's list (``--db``), never by a path from a
request. Replays and game creation run in the thread pool, off the event loop.
"""

from __future__ import annotations

import collections
import contextlib
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tradewinds import registry
from tradewinds.protocol import IllegalActionError
from tradewinds.store import Store
from tradewinds_web import boards, opponents, replay, views
from tradewinds_web.sessions import Conflict, NotFound, Sessions

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 4096
GAMES = ("hansa", "voyage")


class BadRequest(ValueError):
    """Input that fails validation (400)."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, fields: dict) -> dict:
    """The JSON object of the request, with exactly the keys of `fields` (name ->
    (type, required)), each of its type."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"request body over {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest("the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}; fields: {', '.join(fields)}")
    for name, (kind, required) in fields.items():
        if name not in data:
            if required:
                raise BadRequest(f"missing field {name!r}")
            continue
        value = data[name]
        ok = (isinstance(value, kind) and not (kind is int and isinstance(value, bool))
              if not isinstance(kind, tuple) else isinstance(value, kind))
        if not ok:
            raise BadRequest(f"field {name!r} must be {_kind_name(kind)}, got {value!r}"[:200])
    return data


def _kind_name(kind) -> str:
    return {int: "an integer", str: "a string", list: "a list", dict: "an object"}.get(
        kind, "a string or list")


def _query_int(request: Request, name: str, default=None, lo: int = 0, hi: int = 10**9):
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or not lo <= int(text) <= hi:
        raise BadRequest(f"query {name} must be an integer {lo}..{hi}, got {text!r}"[:200])
    return int(text)


class Api:
    """The handlers, over one `Sessions` and a list of results stores."""

    def __init__(self, sessions: Sessions, stores: list):
        self.sessions = sessions
        self.stores = [Path(p) for p in stores]
        self.cache: collections.OrderedDict = collections.OrderedDict()
        self.cache_lock = threading.Lock()

    async def meta(self, request):
        games = []
        for name in GAMES:
            h = registry.game(name)
            games.append({"name": name, "min_players": h.min_players,
                          "max_players": h.max_players})
        stores = [{"index": i, "name": p.name} for i, p in enumerate(self.stores)]
        return JSONResponse({"games": games, "agents": opponents.listed(), "stores": stores,
                             "think_seconds": self.sessions.think_seconds})

    async def board(self, request):
        game = request.path_params["game"]
        if game not in GAMES:
            raise NotFound(f"no game {game[:40]!r}; games: {', '.join(GAMES)}")
        return JSONResponse(boards.board(game))

    async def create(self, request):
        data = await _body(request, {"game": (str, True), "players": (int, True),
                                     "seat": (int, True), "opponents": ((str, list), True),
                                     "seed": (int, False), "options": (dict, False)})
        if data["game"] not in GAMES:
            raise BadRequest(f"unknown game {data['game'][:40]!r}; games: {', '.join(GAMES)}")
        n, seat = data["players"], data["seat"]
        handle = registry.game(data["game"])
        handle.check_players(n)
        if not 0 <= seat < n:
            raise BadRequest(f"seat must be 0..{n - 1}, got {seat}")
        names = data["opponents"]
        names = [names] * (n - 1) if isinstance(names, str) else names
        if len(names) != n - 1 or not all(isinstance(x, str) for x in names):
            raise BadRequest(f"opponents: one agent name or one per other seat ({n - 1})")
        for name in names:
            opponents.check_name(name)
        seed = data.get("seed")
        if seed is not None and not 0 <= seed < 2**31:
            raise BadRequest(f"seed must be 0..2**31-1, got {seed}")
        options = data.get("options") or {}
        for k, v in options.items():
            if isinstance(v, (dict, list)) or v is None:
                raise BadRequest(f"option {k[:40]!r} must be a number, string or boolean")
        handle.resolve_options(options)             # ValueError naming a bad option
        per_seat = names[:seat] + [None] + names[seat:]
        s = await run_in_threadpool(self.sessions.create, data["game"], n, seat, per_seat,
                                    seed, options)
        return JSONResponse(await run_in_threadpool(self.sessions.page, s.id), status_code=201)

    async def game(self, request):
        at = _query_int(request, "at")
        page = await run_in_threadpool(self.sessions.page, request.path_params["id"], at)
        return JSONResponse(page)

    async def move(self, request):
        data = await _body(request, {"action": (int, True), "move": (int, True)})
        sid = request.path_params["id"]
        await run_in_threadpool(self.sessions.move, sid, data["action"], data["move"])
        return JSONResponse(await run_in_threadpool(self.sessions.page, sid))

    # ------------------------------------------------------------------ results stores
    def _store(self, request) -> Store:
        text = request.path_params["store"]
        if not text.isdigit() or int(text) >= len(self.stores):
            raise NotFound(f"no results store {text[:20]!r} (this server has "
                           f"{len(self.stores)}: 0..{len(self.stores) - 1})")
        try:
            return Store(self.stores[int(text)], readonly=True)
        except ValueError as e:
            raise NotFound(str(e)) from None

    async def runs(self, request):
        with self._store(request) as st:
            return JSONResponse([{k: r[k] for k in ("run_id", "game", "num_players", "agents",
                                                    "seating", "base_seed", "path", "games")}
                                 for r in st.runs()])

    async def games(self, request):
        q = request.query_params
        allowed = {"run", "game", "agent", "winner", "truncated", "limit", "offset"}
        unknown = sorted(set(q) - allowed)
        if unknown:
            raise BadRequest(f"unknown filter {unknown[0][:40]!r}; filters: "
                             f"{', '.join(sorted(allowed))}")
        truncated = q.get("truncated")
        if truncated not in (None, "0", "1"):
            raise BadRequest(f"truncated must be 0 or 1, got {truncated[:20]!r}")
        for k in ("game", "agent", "winner"):
            if k in q and len(q[k]) > 100:
                raise BadRequest(f"filter {k} over 100 characters")
        with self._store(request) as st:
            rows = st.find_games(
                run_id=_query_int(request, "run"), game=q.get("game"), agent=q.get("agent"),
                winner=q.get("winner"),
                truncated=None if truncated is None else truncated == "1",
                limit=_query_int(request, "limit", 100, 1, 1000),
                offset=_query_int(request, "offset", 0))
        keys = ("game_id", "run_id", "game", "num_players", "agents", "scores", "winners",
                "steps", "rounds", "truncated", "seed", "path")
        return JSONResponse([{k: r[k] for k in keys} | {"recorded": r["actions"] is not None}
                             for r in rows])

    def _replay(self, request, gid: int) -> replay.Replay:
        key = (request.path_params["store"], gid)
        with self.cache_lock:
            if key in self.cache:
                self.cache.move_to_end(key)
                return self.cache[key]
        with self._store(request) as st:
            row = st.game(gid)
        rep = replay.replay(row, check=False)
        with self.cache_lock:
            self.cache[key] = rep
            while len(self.cache) > 64:
                self.cache.popitem(last=False)
        return rep

    async def stored_game(self, request):
        gid = request.path_params["gid"]
        if not gid.isdigit():
            raise BadRequest(f"game id must be an integer, got {gid[:20]!r}")
        rep = await run_in_threadpool(self._replay, request, int(gid))
        row = rep.row
        moves = len(rep.actions)
        at = _query_int(request, "at", moves, 0, moves)
        seat = _query_int(request, "seat", 0, 0, row["num_players"] - 1)
        handle = registry.game(row["game"])

        def build():
            return views.page(handle, replay.state_at(rep, at), seat, row["options"],
                              latest=False)

        page = await run_in_threadpool(build)
        log = [{"move": i + 1, "seat": p, "action": handle.action_name(a)}
               for i, (p, a) in enumerate(zip(rep.movers, rep.actions, strict=True))]
        return JSONResponse({
            "game_id": row["game_id"], "game": row["game"], "num_players": row["num_players"],
            "seat": seat, "agents": row["agents"], "seed": row["seed"], "moves": moves,
            "at": at, "log": log, "how": rep.how, "matches": rep.matches,
            "stored": {"scores": row["scores"], "winners": row["winners"],
                       "steps": row["steps"], "truncated": bool(row["truncated"])},
            "replayed_scores": rep.scores, **page})


async def _index(request):
    return FileResponse(STATIC / "index.html")


def _handlers() -> dict:
    async def http_error(request, exc):
        return _error(exc.status_code, str(exc.detail))

    async def bad(request, exc):
        return _error(400, str(exc).splitlines()[0] if str(exc) else "bad request")

    async def not_found(request, exc):
        return _error(404, str(exc))

    async def conflict(request, exc):
        return _error(409, str(exc))

    return {HTTPException: http_error, NotFound: not_found, Conflict: conflict,
            IllegalActionError: bad, ValueError: bad}


def create_app(sessions: Sessions, stores: list) -> Starlette:
    """The app over `sessions` (games being played) and the results `stores` (paths)."""
    api = Api(sessions, stores)
    routes = [
        Route("/", _index),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/api/meta", api.meta),
        Route("/api/boards/{game}", api.board),
        Route("/api/games", api.create, methods=["POST"]),
        Route("/api/games/{id}", api.game),
        Route("/api/games/{id}/move", api.move, methods=["POST"]),
        Route("/api/stores/{store}/runs", api.runs),
        Route("/api/stores/{store}/games", api.games),
        Route("/api/stores/{store}/games/{gid}", api.stored_game),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        sessions.close()

    return Starlette(routes=routes, exception_handlers=_handlers(), lifespan=lifespan)
