"""The HTTP API: every endpoint, bad input (one-line JSON errors, nothing changed),
games that survive a restart, and a bounded load test on the loopback address."""

import threading
import time

import httpx
import pytest
from starlette.testclient import TestClient

from tradewinds import registry
from tradewinds.store import Store
from tradewinds.studies import arena
from tradewinds.web.app import create_app
from tradewinds.web.browser import running_server
from tradewinds.web.sessions import Sessions
from tradewinds.web.thinking import Thinkers

HEURISTIC_ONLY = {"hansa": ("heuristic",), "voyage": ("heuristic",)}   # what these seat

BASE = "http://127.0.0.1"


@pytest.fixture
def stores(tmp_path_factory):
    path = tmp_path_factory.mktemp("results") / "match.sqlite"
    with Store(path) as st:
        arena.run(arena.Study.create("hansa", 2, "heuristic,random"), st, 3)
        arena.run(arena.Study.create("voyage", 2, "heuristic"), st, 1)
    return [path]


@pytest.fixture(scope="module")
def thinkers():
    """One worker process for the module's servers (each started costs seconds)."""
    t = Thinkers(1, warm=HEURISTIC_ONLY)
    yield t
    t.close()


@pytest.fixture
def client(tmp_path, stores, thinkers):
    sessions = Sessions(tmp_path / "web.sqlite", think_seconds=0.2, thinkers=thinkers)
    with TestClient(create_app(sessions, stores), base_url=BASE) as c:
        c.sessions = sessions
        yield c


def _wait(c, gid, until=("your_move", "over", "error"), timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        page = c.get(f"/api/games/{gid}").json()
        if page["status"] in until:
            return page
        time.sleep(0.02)
    raise AssertionError(f"game {gid} stuck at {page['status']}")


def _play_out(get, post, gid, pick=0):
    page = get(f"/api/games/{gid}")
    for _ in range(3000):
        if page["status"] in ("over", "error"):
            return page
        if page["status"] == "your_move":
            a = page["legal"][pick % len(page["legal"])]["id"]
            r = post(f"/api/games/{gid}/move", {"action": a, "move": page["moves"]})
            page = r
        else:
            time.sleep(0.01)
            page = get(f"/api/games/{gid}")
    raise AssertionError("game did not end")


def test_page_meta_and_boards(client):
    r = client.get("/")
    assert r.status_code == 200 and "<svg" in r.text
    assert client.get("/static/app.js").status_code == 200
    meta = client.get("/api/meta").json()
    assert {g["name"] for g in meta["games"]} == {"hansa", "voyage"}
    assert "heuristic" in meta["agents"] and "random" in meta["agents"]
    assert meta["stores"] == [{"index": 0, "name": "match.sqlite"}]
    assert client.get("/api/boards/voyage").json()["game"] == "voyage"
    assert client.get("/api/boards/chess").status_code == 404


def test_a_whole_game_through_the_api(client):
    r = client.post("/api/games", json={"game": "hansa", "players": 3, "seat": 1,
                                        "opponents": ["random", "heuristic"], "seed": 5})
    assert r.status_code == 201
    gid = r.json()["id"]
    assert r.json()["agents"] == ["random", "you", "heuristic"]
    page = _play_out(lambda p: client.get(p).json(),
                     lambda p, b: client.post(p, json=b).json(), gid)
    assert page["status"] == "over" and page["result"]["winners"]
    assert len(page["log"]) == page["moves"]
    assert client.get(f"/api/games/{gid}?at=0").json()["view"]["round"] == 0


JSON = {"Content-Type": "application/json"}


def _err(r, status, text):
    """`r` is a `status` answer whose one-line error says `text` and shows no server path
    and no Python internals."""
    assert r.status_code == status, r.text
    msg = r.json()["error"]
    assert text in msg and "\n" not in msg, msg
    for leak in ("/work", "/tmp", "/home", "Traceback", "Error:", "invalid literal", "<"):
        assert leak not in msg, msg


def test_bad_requests_get_one_line_errors(client):
    err, post = _err, client.post
    err(post("/api/games", content=b"not json", headers=JSON), 400, "JSON object")
    err(post("/api/games", json=[1]), 400, "JSON object")
    err(post("/api/games", json={"game": "chess", "players": 2, "seat": 0, "opponents": "random"}),
        400, "unknown game")
    base = {"game": "hansa", "players": 2, "seat": 0, "opponents": "random"}
    err(post("/api/games", json={**base, "players": 7}), 400, "2 to 4 players")
    err(post("/api/games", json={**base, "players": True}), 400, "integer")
    err(post("/api/games", json={**base, "seat": 2}), 400, "seat must be 0..1")
    err(post("/api/games", json={**base, "extra": 1}), 400, "unknown field 'extra'")
    err(post("/api/games", json={k: v for k, v in base.items() if k != "seat"}), 400,
        "missing field 'seat'")
    err(post("/api/games", json={**base, "opponents": ["random", "random"]}), 400, "one per other")
    err(post("/api/games", json={**base, "options": {"max_rounds": "x"}}), 400, "max_rounds")
    err(post("/api/games", json={**base, "options": {"max_rounds": True}}), 400,
        "max_rounds' must be an integer")
    err(post("/api/games", json={**base, "options": {"max_rounds": 2.5}}), 400, "max_rounds")
    err(post("/api/games", json={**base, "options": {"evil": 1}}), 400, "unknown hansa option")
    err(post("/api/games", content=b"{" + b" " * 5000 + b"}", headers=JSON), 413,
        "over 4096 bytes")
    gid = post("/api/games", json={**base, "seed": 3}).json()["id"]
    page = _wait(client, gid)
    moves = page["moves"]
    illegal = next(a for a in range(90) if a not in {x["id"] for x in page["legal"]})
    err(post(f"/api/games/{gid}/move", json={"action": illegal, "move": moves}), 400, "illegal")
    err(post(f"/api/games/{gid}/move", json={"action": 999, "move": moves}), 400, "out of range")
    err(post(f"/api/games/{gid}/move", json={"action": "1", "move": moves}), 400, "integer")
    err(post(f"/api/games/{gid}/move", json={"action": page["legal"][0]["id"],
                                              "move": moves - 1}), 409, "stale move")
    now = client.get(f"/api/games/{gid}").json()
    assert now["moves"] == moves, now      # nothing changed
    err(client.get("/api/games/nosuchgame123"), 404, "no game")
    r = client.get("/api/games/" + "x" * 60_000)
    err(r, 404, "no game")
    assert len(r.text) < 200                   # not the id echoed whole
    for at in ("99999", "-1", "\u00b2", "1e3", "0x1", "9" * 40):
        err(client.get(f"/api/games/{gid}", params={"at": at}), 400, "at must be")
    err(client.get("/api/stores/5/games"), 404, "no results store")
    err(client.get("/api/stores/%2e%2e/games"), 404, "no results store")
    err(client.get("/api/stores/0/games?bogus=1"), 400, "unknown filter")
    err(client.get("/api/stores/0/games/abc"), 400, "integer")
    err(client.get("/api/stores/0/games/999"), 404, "no game with id 999")
    err(client.get("/api/stores/0/games/" + "9" * 26), 400, "at most 18 digits")
    err(client.get("/api/stores/0/games/00000000000000999"), 404, "no game with id 999")
    err(client.get("/api/stores/0/games/1?at=\u00b2"), 400, "at must be")
    err(client.get("/api/nothing"), 404, "Not Found")


@pytest.mark.parametrize("name,text", [
    ("nobody", "unknown agent"), ("tradewinds.agents.heuristic:HeuristicAgent", "unknown agent"),
    ("ppo:/etc/passwd", "takes no parameter"), ("ppo:1", "takes no parameter"),
    ("net:7", "takes no parameter"), ("az:/etc/passwd", "whole number 1..800"),
    ("rllib", "unknown agent"), ("rllib:x", "unknown agent"), ("heuristic:1", "no parameter"),
    ("random:1", "no parameter"), ("dest:100000", "2..32"), ("dest:3000", "2..32"),
    ("mcts:0", "1..1000"), ("mcts:5000", "1..1000"), ("mcts:1.5", "whole number"),
    ("noisy:2", "0.0..1.0"), ("noisy:x", "0.0..1.0"), ("dest", "voyage only"),
    ("az:" + "9" * 3000, "whole number"), ("", "string")])
def test_only_offered_agents_with_bounded_parameters(client, name, text):
    game = "voyage" if name.startswith("dest:") else "hansa"
    base = {"game": game, "players": 2, "seat": 0, "opponents": name}
    _err(client.post("/api/games", json=base), 400, text)


def test_requests_that_carry_no_json_body_are_refused(client):
    body = b'{"game": "hansa", "players": 2, "seat": 0, "opponents": "random"}'
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 "application/jsonp", None):
        headers = {"Content-Type": kind} if kind else {}
        r = client.post("/api/games", content=body, headers=headers)
        _err(r, 415, "application/json")
    r = client.post("/api/games", content=body,
                    headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201, r.text


def test_not_your_turn_is_refused(client):
    gid = client.post("/api/games", json={"game": "hansa", "players": 2, "seat": 1,
                                          "opponents": "heuristic", "seed": 1}).json()["id"]
    page = _wait(client, gid)
    s = client.sessions.get(gid)
    with s.lock:                      # hold the game on an opponent's move
        s.seat = 0
    r = client.post(f"/api/games/{gid}/move", json={"action": page["legal"][0]["id"],
                                                   "move": page["moves"]})
    assert r.status_code == 409 and "not your turn" in r.json()["error"]


@pytest.mark.parametrize("path", ["/static/../pyproject.toml", "/static/%2e%2e/pyproject.toml",
                                  "/static/..%2fpyproject.toml", "/static//etc/passwd",
                                  "/static/%2fetc%2fpasswd"])
def test_nothing_outside_the_static_folder(client, path):
    r = client.get(path)
    assert r.status_code == 404 and "[project]" not in r.text and "root:" not in r.text


def test_stored_games_list_and_replay(client):
    games = client.get("/api/stores/0/games").json()
    assert len(games) == 4
    assert len(client.get("/api/stores/0/games?game=voyage").json()) == 1
    assert len(client.get("/api/stores/0/games?agent=random&truncated=0").json()) == 3
    assert client.get("/api/stores/0/runs").json()[0]["games"] == 3
    for g in games:
        end = client.get(f"/api/stores/0/games/{g['game_id']}").json()
        assert end["matches"] and end["result"]["scores"] == g["scores"]
        assert end["at"] == end["moves"] == g["steps"]
        start = client.get(f"/api/stores/0/games/{g['game_id']}?at=0&seat=1").json()
        assert start["at"] == 0 and start["seat"] == 1 and start["result"] is None
        assert start["legal"] == []           # a replay is watched, not played


def test_a_game_survives_a_server_restart(tmp_path, stores, thinkers):
    db = tmp_path / "web.sqlite"
    with TestClient(create_app(Sessions(db, thinkers=thinkers), stores), base_url=BASE) as c:
        gid = c.post("/api/games", json={"game": "voyage", "players": 2, "seat": 0,
                                         "opponents": "heuristic", "seed": 9}).json()["id"]
        page = _wait(c, gid)
        for _ in range(6):
            page = c.post(f"/api/games/{gid}/move", json={"action": page["legal"][0]["id"],
                                                         "move": page["moves"]}).json()
            page = _wait(c, gid)
        before = page
    with TestClient(create_app(Sessions(db, thinkers=thinkers), stores), base_url=BASE) as c:
        after = _wait(c, gid)
        assert after["moves"] == before["moves"] and after["log"] == before["log"]
        assert after["view"] == before["view"] and after["legal"] == before["legal"]


def test_simultaneous_games_on_the_loopback_address(tmp_path, thinkers):
    """8 games at once over real HTTP, each to its end: none lost, none mixed up."""
    results, errors = {}, []
    with running_server(tmp_path / "web.sqlite", think_seconds=0.2, thinkers=thinkers) as url:
        def one(k):
            try:
                with httpx.Client(base_url=url, timeout=60) as h:
                    game = "hansa" if k % 2 else "voyage"
                    body = {"game": game, "players": 2 + k % 3, "seat": k % 2,
                            "opponents": "random" if k % 4 < 2 else "heuristic", "seed": k}
                    if game == "voyage":
                        body["options"] = {"max_rounds": 4}
                    gid = h.post("/api/games", json=body).raise_for_status().json()["id"]
                    page = _play_out(lambda p: h.get(p).raise_for_status().json(),
                                     lambda p, b: h.post(p, json=b).raise_for_status().json(),
                                     gid, pick=k)
                    results[gid] = (k, page)
            except Exception as e:      # collected for the assertion below
                errors.append(f"game {k}: {e}")

        threads = [threading.Thread(target=one, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=240)
        assert not errors
        assert len(results) == 8
        with httpx.Client(base_url=url) as h:
            for gid, (k, page) in results.items():
                again = h.get(f"/api/games/{gid}").json()
                assert page["status"] == again["status"] == "over"
                assert again["seed"] == k and again["moves"] == page["moves"]
                assert again["result"] == page["result"]


def test_a_declared_game_plays_through_the_api(tmp_path, thinkers):
    """Pebbles, registered here only (its module travels to the worker with each job):
    offered with the agents that play any game, played to its end against random, its
    page the observation by entry name, no board."""
    with registry.registered("pebbles", "tests.helpers.pebbles_env"):
        sessions = Sessions(tmp_path / "web.sqlite", think_seconds=0.2, thinkers=thinkers)
        with TestClient(create_app(sessions, []), base_url=BASE) as c:
            meta = c.get("/api/meta").json()
            game = next(g for g in meta["games"] if g["name"] == "pebbles")
            assert game["board"] is False and (game["min_players"], game["max_players"]) == (2, 4)
            assert [a["name"] for a in game["agents"]["3"]] == ["random", "mcts:100", "mcts:400"]
            _err(c.get("/api/boards/pebbles"), 404, "no board drawing")
            base = {"game": "pebbles", "players": 3, "seat": 1, "opponents": "random"}
            for name in ("heuristic", "noisy:0.5", "az", "net", "ppo"):
                _err(c.post("/api/games", json={**base, "opponents": name}), 400,
                     "hansa and voyage only")
            _err(c.post("/api/games", json={**base, "options": {"pile": "x"}}), 400, "pile")
            r = c.post("/api/games", json={**base, "options": {"pile": 20}})
            assert r.status_code == 201, r.text
            page = r.json()
            handle = registry.game("pebbles")
            fields = dict(page["view"]["fields"])
            assert list(fields) == list(handle.obs_names)
            assert fields["pile"] == 20 and fields["my_card"] in range(1, 7)
            assert "seed" not in page
            page = _play_out(lambda p: c.get(p).json(), lambda p, b: c.post(p, json=b).json(),
                             page["id"])
            assert page["status"] == "over", page.get("error")
            assert not any("forced" in m for m in page["log"])
            assert all(m["action"] in handle.action_names for m in page["log"])
            state = handle.replay(3, page["seed"], [handle.action_id(m["action"])
                                                    for m in page["log"]], pile=20)
            assert page["result"]["scores"] == [int(x) for x in handle.scores(state)]
            cards = [dict(page["view"]["fields"])[f"card:{q}"] for q in range(3)]
            assert sorted(set(cards)) == sorted(cards) and all(cards)   # shown at the end


def test_games_wait_for_the_first_start_and_the_page_can_say_so(tmp_path):
    """Until the workers are started, /api/ready and /api/meta say how far it is and a
    game request is a 503 that says "compiling, first start only"; then games start."""
    thinkers = Thinkers(1, warm=False, start=False)
    sessions = Sessions(tmp_path / "web.sqlite", thinkers=thinkers, background=True)
    try:
        with TestClient(create_app(sessions, []), base_url=BASE) as c:
            sessions.kernels_ready.wait(120)
            ready = c.get("/api/ready").json()
            assert ready["ready"] is False and ready["kernels"] is True
            assert (ready["started"], ready["workers"]) == (0, 1) and ready["seconds"] >= 0
            assert c.get("/api/meta").json()["ready"]["ready"] is False
            body = {"game": "hansa", "players": 2, "seat": 0, "opponents": "random"}
            _err(c.post("/api/games", json=body), 503, "compiling, first start only")
            _err(c.get("/api/games/abcdefghijkl"), 503, "compiling")
            thinkers.start()
            assert c.get("/api/ready").json()["ready"] is True
            assert c.post("/api/games", json=body).status_code == 201
    finally:
        sessions.close()
        thinkers.close()
