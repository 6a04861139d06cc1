"""Fair play: nothing a seat receives while a game is live lets it rebuild what it may not
see. Games are played through the API and every response is attacked: each seed-like
number in it is tried as the game's seed, the moves of its log replayed, and the rebuilt
state kept when it gives the seat's own view; the attack succeeds when it then reads the
other seats' wind cards and target cards (Voyage) or the order of the supply piles
(Hansa). It must fail against the real responses and succeed against a deliberately
leaky build of them (the seed put back in every page)."""

import json
import sqlite3

import numpy as np
import pytest
from starlette.testclient import TestClient

from hansa_env.state import StateView as HansaView
from tradewinds import registry
from tradewinds.store import decode_actions
from tradewinds.web import sessions as sessions_module
from tradewinds.web import views
from tradewinds.web.app import create_app
from tradewinds.web.sessions import Sessions
from tradewinds.web.thinking import Thinkers
from voyage_env.state import StateView as VoyageView

HEURISTIC_ONLY = {"hansa": ("heuristic",), "voyage": ("heuristic",)}   # what these seat

OPTIONS = {"voyage": {"max_rounds": 3}, "hansa": {"max_rounds": 4}}


@pytest.fixture(scope="module")
def thinkers():
    t = Thinkers(1, warm=HEURISTIC_ONLY)
    yield t
    t.close()


def _numbers(body, key=""):
    """Every integer of a JSON body that could be a seed: large ones, and any under a key
    that names a seed, a generator or a state."""
    if isinstance(body, dict):
        for k, v in body.items():
            yield from _numbers(v, k)
    elif isinstance(body, list):
        for v in body:
            yield from _numbers(v, key)
    elif isinstance(body, int) and not isinstance(body, bool):
        if body >= 1000 or any(w in key.lower() for w in ("seed", "rng", "state", "key")):
            yield body
    elif isinstance(body, str) and body.isdigit() and len(body) < 30:
        yield int(body)


def hidden(game: str, state) -> object:
    """What no seat may see: every hand and target card (Voyage), the supply (Hansa)."""
    if game == "voyage":
        v = VoyageView(state)
        return json.dumps([np.asarray(v.hand).tolist(), np.asarray(v.targets).tolist()])
    f = HansaView(state).layout.fields["supply"]
    return json.dumps(np.asarray(state[f.offset:f.offset + f.shape[0]]).tolist())


def attack(body: dict, game: str, options: dict):
    """The hidden part rebuilt from one response, or None."""
    if "view" not in body or "log" not in body:
        return None
    handle = registry.game(game)
    n, seat = body["num_players"], body["seat"]
    actions = [handle.action_id(m["action"]) for m in body["log"][:body["at"]]]
    for seed in set(_numbers(body)):
        try:
            state = handle.replay(n, seed, actions, **options)
        except ValueError:
            continue
        mine = views.page(handle, state, seat, options, latest=False)["view"]
        if json.loads(json.dumps(mine)) == body["view"]:      # as the page has it
            return hidden(game, state)
    return None


def _play(c, game: str, seat: int):
    """A 2-player game against the heuristic to its end, random legal moves; every
    response body (each page, each move's answer, each earlier position) in order."""
    rng = np.random.default_rng(7)
    bodies = [c.get("/api/meta").json()]
    r = c.post("/api/games", json={"game": game, "players": 2, "seat": seat,
                                   "opponents": "heuristic", "options": OPTIONS[game]})
    assert r.status_code == 201, r.text
    page = r.json()
    bodies.append(page)
    for _ in range(3000):
        if page["status"] in ("over", "error"):
            break
        if page["status"] == "your_move":
            a = page["legal"][int(rng.integers(len(page["legal"])))]["id"]
            page = c.post(f"/api/games/{page['id']}/move",
                          json={"action": a, "move": page["moves"]}).json()
        else:
            page = c.get(f"/api/games/{page['id']}").json()
        bodies.append(page)
        if page["moves"] and rng.random() < 0.2:
            bodies.append(c.get(f"/api/games/{page['id']}?at={page['moves'] - 1}").json())
    assert page["status"] == "over", page.get("error")
    return page["id"], bodies


def _truth(db, gid):
    con = sqlite3.connect(db)
    game, n, seed, options, blob = con.execute(
        "SELECT game, num_players, seed, options, actions FROM play WHERE id = ?",
        (gid,)).fetchone()
    con.close()
    actions, options = decode_actions(blob), json.loads(options)
    return lambda at: hidden(game, registry.game(game).replay(n, seed, actions[:at], **options))


def _attacks(tmp_path, thinkers, game):
    """(responses of a live game the attack read the hidden part from, responses of a
    live game, whether the finished game's seed rebuilt it)."""
    db = tmp_path / "web.sqlite"
    sessions = Sessions(db, think_seconds=0.1, thinkers=thinkers)
    with TestClient(create_app(sessions, []), base_url="http://127.0.0.1") as c:
        gid, bodies = _play(c, game, seat=1)
    truth = _truth(db, gid)
    # live: the game was not over when the server answered (an earlier position of a
    # finished game may show the seed: the game is over)
    live = [b for b in bodies if "view" in b and not b["over"]]
    broken = [b for b in live if attack(b, game, OPTIONS[game]) == truth(b["at"])]
    end = bodies[-1]
    return broken, live, attack(end, game, OPTIONS[game]) == truth(end["at"])


@pytest.mark.parametrize("game", ["voyage", "hansa"])
def test_no_response_of_a_live_game_rebuilds_the_hidden_state(tmp_path, thinkers, game):
    broken, live, after = _attacks(tmp_path, thinkers, game)
    assert len(live) > 20
    assert not broken, f"{len(broken)} of {len(live)} responses gave the hidden state away"
    assert after      # once the game is over its seed is shown: the replay is exact
    assert not any("seed" in b for b in live)


@pytest.mark.parametrize("game", ["voyage", "hansa"])
def test_the_attack_reads_a_leaky_response(tmp_path, thinkers, game, monkeypatch):
    """The same attack against pages that carry the seed while live: it must succeed."""
    monkeypatch.setattr(sessions_module, "public_seed", lambda s, over: {"seed": s.seed})
    broken, live, _ = _attacks(tmp_path, thinkers, game)
    assert len(broken) == len(live) > 20


def test_opponents_draw_from_the_server_secret_not_the_seed(tmp_path, thinkers):
    a = Sessions(tmp_path / "a.sqlite", thinkers=thinkers)
    b = Sessions(tmp_path / "b.sqlite", thinkers=thinkers)
    again = Sessions(tmp_path / "a.sqlite", thinkers=thinkers)   # a restart keeps it
    try:
        assert a.secret == again.secret and a.secret != b.secret and len(a.secret) == 32
        assert a.rng_seed("g1", 1, 5) == again.rng_seed("g1", 1, 5)
        assert a.rng_seed("g1", 1, 5) != b.rng_seed("g1", 1, 5)
        assert len({a.rng_seed(g, p, k) for g in ("g1", "g2") for p in (0, 1)
                    for k in (0, 1)}) == 8
    finally:
        for s in (a, b, again):
            s.close()


def test_a_chosen_seed_is_marked(tmp_path, thinkers):
    sessions = Sessions(tmp_path / "web.sqlite", thinkers=thinkers)
    try:
        chosen = sessions.page(sessions.create("hansa", 2, 0, [None, "random"], seed=5).id)
        drawn = sessions.page(sessions.create("hansa", 2, 0, [None, "random"]).id)
        assert chosen["seed_chosen"] is True and drawn["seed_chosen"] is False
        assert "seed" not in chosen and "seed" not in drawn
        assert sessions.get(drawn["id"]).seed >= 0
    finally:
        sessions.close()
