"""The HTTP side of `tradewinds serve`: a Starlette app with a JSON API and one page.

Routes (every error is JSON ``{"error": "<one line>"}`` with 400 bad input, 404 no such
thing, 409 a move that does not fit the game as it stands, 413 a body too large, 403 a
cross-site request, 415 a body that is not JSON, 503 a game request while the server
still compiles on its first start):

    GET  /                                  the page (static/index.html)
    GET  /static/<file>                     its script and style (nothing outside static/)
    GET  /favicon.ico                       the icon (static/favicon.svg)
    GET  /api/meta                          games, offered agents by strength, stores
    GET  /api/ready                         whether the first start (compiling) is done
    GET  /api/boards/<game>                 the static board drawing (`boards`)
    POST /api/games                         {game, players, seat, opponents[, seed, options]}
    GET  /api/games/<id>[?at=k]             the person's page after move k
    POST /api/games/<id>/move               {action: id, move: moves seen}
    GET  /api/stores/<i>/runs               the runs of results store i
    GET  /api/stores/<i>/games[?filters]    its games (run, game, agent, winner, truncated)
    GET  /api/stores/<i>/games/<gid>[?at=k&seat=s]   a stored game replayed, after move k

Stores are named by their index in the server's list (``--db``), never by a path from a
request. Replays and game creation run in the thread pool, off the event loop; the
opponents think in worker processes (`sessions`, `thinking`). Every request passes
`guard.Guard` (Origin, Host, Content-Type) first; a body is read at most MAX_BODY bytes.
"""

from __future__ import annotations

import collections
import contextlib
import json
import re
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tradewinds import registry
from tradewinds.protocol import IllegalActionError
from tradewinds.store import Store
from tradewinds.web import boards, opponents, replay, views
from tradewinds.web.guard import LOOPBACK, Guard
from tradewinds.web.sessions import Conflict, NotFound, Sessions

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 4096
BOARDS = ("hansa", "voyage")        # the games the page draws a board for
# who moves first: Hansa's start player is seat 0; Voyage bids for its order every round
ORDER = {"hansa": "player_0 moves first", "voyage": "the turn order is bid for every round (V5)"}
ORDER_ANY = "the order of play is the game's own (its rules)"
_DIGITS = re.compile(r"^[0-9]{1,18}$")


class BadRequest(ValueError):
    """Input that fails validation (400)."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, fields: dict) -> dict:
    """The JSON object of the request, with exactly the keys of `fields` (name ->
    (type, required)), each of its type."""
    raw = await _read(request)
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


async def _read(request: Request) -> bytes:
    """The body, read chunk by chunk and refused (413) once over MAX_BODY bytes."""
    size = request.headers.get("content-length", "0")
    if not size.isdigit() or int(size) > MAX_BODY:
        raise HTTPException(413, f"request body over {MAX_BODY} bytes")
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise HTTPException(413, f"request body over {MAX_BODY} bytes")
    except ClientDisconnect:
        raise BadRequest("the request body did not arrive whole") from None
    return bytes(raw)


def _kind_name(kind) -> str:
    return {int: "an integer", str: "a string", list: "a list", dict: "an object",
            bool: "true or false", float: "a number", tuple: "a list of integers"}.get(
        kind, "a string or list")


def _query_int(request: Request, name: str, default=None, lo: int = 0, hi: int = 10**9):
    text = request.query_params.get(name)
    if text is None:
        return default
    if not _DIGITS.match(text) or not lo <= int(text) <= hi:
        raise BadRequest(f"query {name} must be an integer {lo}..{hi}, got {text!r}"[:200])
    return int(text)


def _options(handle, options: dict) -> dict:
    """`options` checked: known names, each of its default's type (a bool is no number)."""
    defaults = handle.option_defaults
    for k, v in options.items():
        if k not in defaults:
            raise BadRequest(f"unknown {handle.name} option {k[:40]!r}; options: "
                             f"{', '.join(defaults)}")
        want = type(defaults[k])
        ok = (isinstance(v, bool) if want is bool
              else isinstance(v, (int, float)) and not isinstance(v, bool) if want is float
              else isinstance(v, int) and not isinstance(v, bool) if want is int
              else isinstance(v, str) if want is str
              else isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                               for x in v))
        if not ok:
            raise BadRequest(f"option {k!r} must be {_kind_name(want)}, got "
                             f"{opponents._short(v)}")
    handle.resolve_options(options)             # ValueError naming a bad value
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}


class Api:
    """The handlers, over one `Sessions` and a list of results stores."""

    def __init__(self, sessions: Sessions, stores: list):
        self.sessions = sessions
        self.stores = [Path(p) for p in stores]
        self.cache: collections.OrderedDict = collections.OrderedDict()
        self.cache_lock = threading.Lock()

    async def meta(self, request):
        games = []
        offers = self.sessions.offers
        for name in self.sessions.games:
            h = registry.game(name)
            counts = range(h.min_players, h.max_players + 1)
            games.append({"name": name, "min_players": h.min_players,
                          "max_players": h.max_players, "order": ORDER.get(name, ORDER_ANY),
                          "board": name in BOARDS,
                          "agents": {n: offers.listed(name, n) for n in counts}})
        stores = [{"index": i, "name": p.name} for i, p in enumerate(self.stores)]
        return JSONResponse({"games": games, "agents": sorted({*opponents.OFFERED,
                                                               *offers.extra}),
                             "stores": stores, "think_seconds": self.sessions.think_seconds,
                             "deadline_seconds": self.sessions.deadline,
                             "ready": self.sessions.readiness()})

    async def ready(self, request):
        return JSONResponse(self.sessions.readiness())

    def _need_ready(self) -> None:
        """503 while the first start still compiles (a game would wait for it)."""
        if not self.sessions.ready:
            r = self.sessions.readiness()
            what = r["error"] or (f"compiling, first start only: {r['started']} of "
                                  f"{r['workers']} opponents' processes ready after "
                                  f"{r['seconds']:g} s; try again shortly")
            raise HTTPException(503, what)

    async def board(self, request):
        game = request.path_params["game"]
        if game not in BOARDS:
            raise NotFound(f"no board drawing for game {game[:40]!r}; boards: "
                           f"{', '.join(BOARDS)}")
        return JSONResponse(boards.board(game))

    async def create(self, request):
        data = await _body(request, {"game": (str, True), "players": (int, True),
                                     "seat": (int, True), "opponents": ((str, list), True),
                                     "seed": (int, False), "options": (dict, False)})
        games = self.sessions.games
        if data["game"] not in games:
            raise BadRequest(f"unknown game {data['game'][:40]!r}; games: {', '.join(games)}")
        self._need_ready()
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
            self.sessions.offers.check(name, data["game"])
        seed = data.get("seed")
        if seed is not None and not 0 <= seed < 2**31:
            raise BadRequest(f"seed must be 0..2**31-1, got {seed}")
        options = _options(handle, data.get("options") or {})
        per_seat = names[:seat] + [None] + names[seat:]
        s = await run_in_threadpool(self.sessions.create, data["game"], n, seat, per_seat,
                                    seed, options)
        return JSONResponse(await run_in_threadpool(self.sessions.page, s.id), status_code=201)

    async def game(self, request):
        at = _query_int(request, "at")
        self._need_ready()
        page = await run_in_threadpool(self.sessions.page, request.path_params["id"], at)
        return JSONResponse(page)

    async def move(self, request):
        data = await _body(request, {"action": (int, True), "move": (int, True)})
        self._need_ready()
        sid = request.path_params["id"]
        await run_in_threadpool(self.sessions.move, sid, data["action"], data["move"])
        return JSONResponse(await run_in_threadpool(self.sessions.page, sid))

    # ------------------------------------------------------------------ results stores
    def _store(self, request) -> Store:
        text = request.path_params["store"]
        if not _DIGITS.match(text) or int(text) >= len(self.stores):
            raise NotFound(f"no results store {opponents._short(text)} (this server has "
                           f"{len(self.stores)}: 0..{len(self.stores) - 1})")
        try:
            return Store(self.stores[int(text)], readonly=True)
        except ValueError:
            raise NotFound(f"results store {text} cannot be read now") from None

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
            try:
                row = st.game(gid)
            except ValueError:
                raise NotFound(f"no game with id {gid} in results store "
                               f"{request.path_params['store']}") from None
        rep = replay.replay(row, check=False)
        with self.cache_lock:
            self.cache[key] = rep
            while len(self.cache) > 64:
                self.cache.popitem(last=False)
        return rep

    async def stored_game(self, request):
        gid = request.path_params["gid"]
        if not _DIGITS.match(gid):
            raise BadRequest(f"game id must be an integer of at most 18 digits, got "
                             f"{opponents._short(gid)}")
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


async def _favicon(request):
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


def _handlers() -> dict:
    async def http_error(request, exc):
        return _error(exc.status_code, str(exc.detail))

    async def bad(request, exc):
        return _error(400, _one_line(exc) or "bad request")

    async def not_found(request, exc):
        return _error(404, _one_line(exc))

    async def conflict(request, exc):
        return _error(409, _one_line(exc))

    async def internal(request, exc):           # logged by the server; no detail sent
        return _error(500, "internal error (the server's log has the details)")

    return {HTTPException: http_error, NotFound: not_found, Conflict: conflict,
            IllegalActionError: bad, ValueError: bad, Exception: internal}


def _one_line(exc) -> str:
    from tradewinds.web.sessions import _line

    return _line(exc)


def create_app(sessions: Sessions, stores: list, *, hosts=LOOPBACK,
               port: int | None = None) -> Starlette:
    """The app over `sessions` (games being played) and the results `stores` (paths),
    answering requests addressed to one of `hosts` (host names; "*" for any) on `port`
    (None: any port)."""
    api = Api(sessions, stores)
    routes = [
        Route("/", _index),
        Route("/favicon.ico", _favicon),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/api/meta", api.meta),
        Route("/api/ready", api.ready),
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

    hosts = list(hosts)
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                  Middleware(Guard, hosts=hosts, port=port)]
    return Starlette(routes=routes, exception_handlers=_handlers(), lifespan=lifespan,
                     middleware=middleware)
