"""No request can stall the server or grow it without bound: the slowest opponents a
request may seat leave /api/meta answering, an opponent past its deadline has its move
forced (and logged, and not searched again after a restart), the body limit holds while
the body streams in, only this server's own pages may use the API, and games leave
memory for SQLite and come back unchanged."""

import asyncio
import io
import time

import httpx
import pytest
from starlette.testclient import TestClient

from tradewinds.web import cli
from tradewinds.web.app import MAX_BODY, create_app
from tradewinds.web.browser import running_server
from tradewinds.web.sessions import Sessions
from tradewinds.web.thinking import Thinkers

BASE = "http://127.0.0.1"
HEURISTIC_ONLY = {"hansa": ("heuristic",), "voyage": ("heuristic",)}
SLOWEST = [("voyage", 4, ["dest:32", "mcts:1000", "az:800"]),
           ("hansa", 4, ["mcts:1000", "az:800", "net"]),
           ("voyage", 2, ["ppo"]), ("hansa", 2, ["noisy:0.0"])]


@pytest.fixture(scope="module")
def thinkers():
    """One worker for the tests that seat random or the heuristic only."""
    t = Thinkers(1, warm=HEURISTIC_ONLY)
    yield t
    t.close()


def _until(get, gid, statuses=("your_move", "over", "error"), timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        page = get(f"/api/games/{gid}")
        if page["status"] in statuses:
            return page
        time.sleep(0.05)
    raise AssertionError(f"game {gid} stuck at {page['status']}")


def test_the_slowest_opponents_leave_the_server_answering(tmp_path):
    """Every kind of opponent at its slowest allowed setting thinks in four games at
    once while /api/meta is asked again and again: each answer within a second. The
    bounds are small (0.2 s to think, 0.8 s of grace), so a search that ignores its time
    budget overruns here as it would at the defaults, only sooner."""
    with running_server(tmp_path / "web.sqlite", think_seconds=0.2, grace=0.8,
                        workers=1) as url, httpx.Client(base_url=url, timeout=120) as h:
        gids = []
        for game, n, opponents in SLOWEST:
            r = h.post("/api/games", json={"game": game, "players": n, "seat": 0,
                                           "opponents": opponents})
            assert r.status_code == 201, r.text
            gids.append(r.json()["id"])
        for gid in gids:              # the person's first moves set the opponents going
            page = _until(lambda p: h.get(p).json(), gid)
            h.post(f"/api/games/{gid}/move", json={"action": page["legal"][0]["id"],
                                                   "move": page["moves"]})
        slowest, end = 0.0, time.monotonic() + 5
        while time.monotonic() < end:
            t0 = time.monotonic()
            assert h.get("/api/meta").status_code == 200
            slowest = max(slowest, time.monotonic() - t0)
            time.sleep(0.1)
        assert slowest < 1.0, f"/api/meta took {slowest:.2f} s"
        for gid in gids:              # and every game got past its opponents' moves
            page = _until(lambda p: h.get(p).json(), gid, timeout=120)
            assert page["status"] == "your_move", page.get("error")
            assert page["moves"] > 1


def test_an_opponent_past_its_deadline_has_its_move_forced(tmp_path):
    """The whole way: a real search in a worker process, killed at its deadline, the
    heuristic's move played and logged, no search again after a restart. The worker is
    not warmed (warm=False), so killing and replacing it costs little."""
    db = tmp_path / "web.sqlite"
    thinkers = Thinkers(1, warm=False)
    sessions = Sessions(db, think_seconds=0.001, grace=0.0, thinkers=thinkers)
    try:
        s = sessions.create("hansa", 2, 1, ["mcts:1000", None], seed=3)
        page = _until(lambda p: sessions.page(s.id), s.id)
    finally:
        sessions.close()
    forced = [m for m in page["log"] if "forced" in m]
    assert page["status"] == "your_move" and forced
    assert all(m["seat"] == 0 for m in forced)
    assert "mcts:1000 gave no move within 0.001 s" in forced[0]["forced"]
    assert "heuristic's move" in forced[0]["forced"]
    again = Sessions(db, think_seconds=60, thinkers=thinkers)  # a restart: no new search
    try:
        assert again.page(s.id)["log"] == page["log"]
    finally:
        again.close()
        thinkers.close()


def _post_chunks(app, chunks: int, size: int = 1024, headers=()):
    """POST /api/games to `app` with a body of `chunks` chunks of `size` bytes, no length
    given; (status, chunks the app asked for)."""
    asked, sent = [0], []

    async def receive():
        asked[0] += 1
        more = asked[0] < chunks
        return {"type": "http.request", "body": b" " * size, "more_body": more}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "raw_path": b"/api/games",
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000),
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                         *headers]}
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], asked[0]


def test_the_body_limit_holds_while_the_body_streams_in(tmp_path, thinkers):
    app = create_app(Sessions(tmp_path / "web.sqlite", thinkers=thinkers), [])
    status, asked = _post_chunks(app, chunks=300_000)        # a 300 MB body
    assert status == 413 and asked <= MAX_BODY // 1024 + 2
    status, asked = _post_chunks(app, chunks=2, headers=[(b"content-length", b"300000000")])
    assert status == 413 and asked == 0                      # refused before reading


def test_only_this_servers_pages_may_use_the_api(tmp_path, thinkers):
    sessions = Sessions(tmp_path / "web.sqlite", thinkers=thinkers)
    body = {"game": "hansa", "players": 2, "seat": 0, "opponents": "random"}
    with TestClient(create_app(sessions, [], port=8000), base_url=BASE + ":8000") as c:
        for origin in ("http://evil.example", "http://127.0.0.1.evil.example:8000", "null",
                       "http://127.0.0.1:9999", "https://127.0.0.1:8000", "file://"):
            r = c.post("/api/games", json=body, headers={"Origin": origin})
            assert r.status_code == 403 and "cross-site" in r.json()["error"], origin
            assert c.get("/api/meta", headers={"Origin": origin}).status_code == 403
        r = c.get("/api/meta", headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403
        for host in ("attacker.example", "attacker.example:8000", "127.0.0.1.nip.io"):
            assert c.get("/api/meta", headers={"Host": host}).status_code == 400, host
            assert c.post("/api/games", json=body, headers={"Host": host}).status_code == 400
        for origin in ("http://127.0.0.1:8000", "http://localhost:8000"):
            r = c.post("/api/games", json=body, headers={"Origin": origin,
                                                          "Sec-Fetch-Site": "same-origin"})
            assert r.status_code == 201, r.text
        assert c.get("/api/meta", headers={"Host": "localhost:8000"}).status_code == 200


def test_with_any_port_the_origin_must_name_the_port_bound(tmp_path, thinkers):
    """``serve --port 0``: the system picks the port, and the Origin check takes the one
    the request came in on, not any loopback port."""
    body = {"game": "hansa", "players": 2, "seat": 0, "opponents": "random"}
    with running_server(tmp_path / "web.sqlite", thinkers=thinkers) as url, \
            httpx.Client(base_url=url, timeout=60) as h:
        port = int(url.rsplit(":", 1)[1])
        for other in (port + 1, port - 1, 80, 8000):
            for host in ("127.0.0.1", "localhost"):
                r = h.post("/api/games", json=body, headers={"Origin": f"http://{host}:{other}"})
                assert r.status_code == 403 and "cross-site" in r.json()["error"], other
        for host in ("127.0.0.1", "localhost"):
            r = h.post("/api/games", json=body, headers={"Origin": f"http://{host}:{port}"})
            assert r.status_code == 201, r.text


def test_games_leave_memory_and_come_back_unchanged(tmp_path, thinkers):
    sessions = Sessions(tmp_path / "web.sqlite", think_seconds=0.1, max_live=3,
                        thinkers=thinkers)
    try:
        pages = {}
        for k in range(12):
            s = sessions.create("hansa", 2, k % 2, [None, "random"] if k % 2 == 0
                                else ["random", None], seed=k)
            page = _until(lambda p, sid=s.id: sessions.page(sid), s.id)
            for _ in range(3):
                page = sessions.page(sessions.move(s.id, page["legal"][0]["id"],
                                                   page["moves"]).id)
                page = _until(lambda p, sid=s.id: sessions.page(sid), s.id)
            pages[s.id] = page
            assert len(sessions.live) <= 3 + 1          # the cap (one busy game beyond)
        assert len(sessions.live) <= 3
        for sid, page in pages.items():
            assert sessions.page(sid) == page            # back from SQLite, the same
            assert len(sessions.live) <= 3
        sessions.idle_seconds = 0.0                       # idle ones go at once
        sid = next(iter(pages))
        sessions.page(sid)
        assert list(sessions.live) == [sid]
    finally:
        sessions.close()


def test_serving_beyond_loopback_warns_that_there_is_no_authentication(monkeypatch):
    import uvicorn

    class Fake:
        think_seconds, deadline = 2.0, 4.0

        def __init__(self, *a, **k):
            pass

    monkeypatch.setattr("tradewinds.web.sessions.Sessions", Fake)
    monkeypatch.setattr(cli, "_say_ready", lambda sessions, out: None)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    parser = cli.add_serve_arguments(__import__("argparse").ArgumentParser())
    for host, warned in (("0.0.0.0", True), ("192.168.1.5", True), ("127.0.0.1", False),
                         ("localhost", False), ("::1", False)):
        out = io.StringIO()
        cli.serve(parser.parse_args(["--host", host, "--games-db", "/dev/null"]), out=out)
        assert ("no authentication" in out.getvalue()) == warned, host
