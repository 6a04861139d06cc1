"""The page in a real browser (Debian's chromium, driven by Playwright): whole games
played by clicking against the heuristic, a stored game replayed to its end, and no
other seat's cards in the page or in anything the server sent."""

import json
import random
import sqlite3

import httpx
import pytest

from tradewinds import registry
from tradewinds.store import Store, decode_actions
from tradewinds.studies import arena
from tradewinds.web.browser import chromium, running_server
from tradewinds.web.thinking import Thinkers
from voyage_env.rules import CARD_KINDS
from voyage_env.state import StateView

HEURISTIC_ONLY = {"hansa": ("heuristic",), "voyage": ("heuristic",)}   # what these seat
PUBLIC_VOYAGE_SEAT = {"seat", "active", "decider", "position", "ship", "discs", "available",
                      "bid", "vp", "upgraded", "docked", "attacked", "tiles", "best_tile",
                      "hand_size", "cubes", "wrecked"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    d = tmp_path_factory.mktemp("web")
    with Store(d / "match.sqlite") as st:
        arena.run(arena.Study.create("voyage", 2, "heuristic,random"), st, 1)
        stored = st.find_games()[0]
    with running_server(d / "web.sqlite", [d / "match.sqlite"], think_seconds=0.2, workers=1,
                        warm=HEURISTIC_ONLY) as url, chromium() as browser:
        yield {"url": url, "browser": browser, "games_db": d / "web.sqlite", "stored": stored}


def _settled(page):
    page.wait_for_function("['your_move', 'over', 'error'].includes(document.body.dataset.status)",
                           timeout=60_000)
    return page.evaluate("document.body.dataset.status")


def _click_through(page, rng, max_moves=2000):
    """The person's decisions by clicking: a highlighted place on the board or a token
    when there is one (nine times in ten), else a button of the legal-action list."""
    clicks = {"board": 0, "list": 0}
    for _ in range(max_moves):
        status = _settled(page)
        if status != "your_move":
            return status, clicks
        moves = int(page.evaluate("document.body.dataset.moves"))
        targets = page.query_selector_all("svg .legal .target, #players .tok.legal")
        if targets and rng.random() < 0.9:
            rng.choice(targets).click()
            clicks["board"] += 1
            if page.is_visible("#choice"):
                rng.choice(page.query_selector_all("#choice button[data-action]")).click()
        else:
            rng.choice(page.query_selector_all("#legal button")).click()
            clicks["list"] += 1
        page.wait_for_function(f"+document.body.dataset.moves > {moves}", timeout=60_000)
    raise AssertionError("the game did not end")


def test_the_first_visit_explains_itself(site):
    """No empty board under the form, a favicon, the seat list true to each game's order,
    opponents strongest first with their ratings."""
    page = site["browser"].new_page(viewport={"width": 1400, "height": 900})
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(site["url"] + "/#play")
    page.wait_for_selector("#f-opponents select")
    assert page.is_visible("#setup") and not page.is_visible("#table")
    page.select_option("#f-game", "hansa")
    assert "player_0 (first)" in page.inner_text("#f-seat")
    page.select_option("#f-game", "voyage")
    assert "(first)" not in page.inner_text("#f-seat")
    assert "bid for" in page.inner_text("#f-order")
    labels = page.eval_on_selector_all("#f-opponents select option", "o => o.map(x => x.text)")
    rated = [int(t.split("Elo ")[1].rstrip(")")) for t in labels if "Elo " in t]
    assert len(rated) > 5 and rated == sorted(rated, reverse=True)
    page.goto(site["url"] + "/#watch")
    page.wait_for_selector("#w-list")
    assert page.is_visible("#library") and not page.is_visible("#table")
    assert httpx.get(site["url"] + "/favicon.ico").status_code == 200
    assert not missing, missing
    page.close()


def test_a_whole_hansa_game_by_clicking(site):
    page = site["browser"].new_page(viewport={"width": 1400, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site["url"] + "/#play")
    page.select_option("#f-game", "hansa")
    page.select_option("#f-players", "2")
    page.select_option("#f-seat", "1")
    page.select_option("#f-opponents select", "heuristic")
    page.fill("#f-seed", "11")
    page.click("#f-start")
    page.wait_for_selector("#board circle")
    page.select_option("#speed", "0")
    status, clicks = _click_through(page, random.Random(1))
    assert status == "over" and clicks["board"] > 10
    assert "winner" in page.inner_text("#result")
    gid = page.evaluate("location.hash").split("/")[1]
    final = httpx.get(f"{site['url']}/api/games/{gid}").json()
    assert final["agents"] == ["heuristic", "you"]
    for p, score in enumerate(final["result"]["scores"]):
        assert f"player_{p} ({final['agents'][p]}): {score} VP" in page.inner_text("#result")
    page.reload()                                  # a reload shows the same finished game
    assert _settled(page) == "over" and "winner" in page.inner_text("#result")
    assert not errors


def _hidden_check(site, gid, responses):
    """Every page the server sent for game `gid` shows the person's own cards and of the
    other seat only what is public."""
    handle = registry.game("voyage")
    con = sqlite3.connect(site["games_db"])
    seat, seed, options, blob = con.execute(
        "SELECT seat, seed, options, actions FROM play WHERE id = ?", (gid,)).fetchone()
    con.close()
    actions, options = decode_actions(blob), json.loads(options)
    checked = 0
    for body in responses:
        if body.get("id") != gid or "view" not in body:
            continue
        state = handle.replay(2, seed, actions[:body["at"]], **options)
        real = StateView(state)
        v = body["view"]
        mine = {CARD_KINDS[c]: int(k) for c, k in enumerate(real.hand[seat]) if k}
        assert v["my_hand"] == mine
        for pl in v["players"]:
            assert set(pl) == PUBLIC_VOYAGE_SEAT
        other = 1 - seat
        theirs = {CARD_KINDS[c]: int(k) for c, k in enumerate(real.hand[other]) if k}
        text = json.dumps(body)
        if theirs and theirs != mine:
            assert json.dumps(theirs) not in text
        if body["to_move"] != seat:
            assert body["legal"] == []        # never the other seat's options (its cards)
        checked += 1
    return checked


def test_a_whole_voyage_game_by_clicking_and_nothing_hidden_is_sent(site):
    r = httpx.post(site["url"] + "/api/games", json={
        "game": "voyage", "players": 2, "seat": 0, "opponents": "heuristic", "seed": 4,
        "options": {"max_rounds": 4}})
    gid = r.raise_for_status().json()["id"]
    page = site["browser"].new_page(viewport={"width": 1400, "height": 900})
    responses = []

    def keep(resp):
        if "/api/games/" in resp.url and resp.ok:
            try:
                responses.append(resp.json())
            except Exception:       # the page closed under a response still arriving
                pass

    page.on("response", keep)
    page.goto(f"{site['url']}/#play/{gid}")
    page.wait_for_selector("#board polygon")
    height = page.eval_on_selector(".port-label", "e => e.getBoundingClientRect().height")
    assert height >= 10, f"port labels {height:.1f} px high"
    assert page.query_selector("#board [data-you]")          # the person's ship marked
    page.select_option("#speed", "0")
    status, clicks = _click_through(page, random.Random(2))
    assert status == "over" and clicks["board"] > 3
    page.wait_for_timeout(200)
    assert _hidden_check(site, gid, responses) > 20
    final = httpx.get(f"{site['url']}/api/games/{gid}").json()
    handle = registry.game("voyage")
    real = StateView(handle.replay(2, 4, [handle.action_id(m["action"]) for m in final["log"]],
                                   max_rounds=4))
    hand_text = page.inner_text("#my-hand")      # the DOM: own cards only
    other = {CARD_KINDS[c] for c, k in enumerate(real.hand[1]) if k}
    shown = {CARD_KINDS[c] for c, k in enumerate(real.hand[0]) if k}
    assert all(card in hand_text for card in shown)
    assert not any(card in hand_text for card in other - shown)
    players = page.inner_text("#players")
    assert "storm" not in players and "compass" not in players
    in_play = [p["vp"] for p in final["view"]["players"]]
    if in_play != final["result"]["scores"]:       # the final scoring is explained
        assert "final scoring" in page.inner_text("#final-scoring")
    assert f"seed {final['seed']}" in page.inner_text("#result")
    page.close()


def test_a_stored_game_replays_to_its_end(site):
    stored = site["stored"]
    page = site["browser"].new_page(viewport={"width": 1400, "height": 900})
    page.goto(site["url"] + "/#watch")
    page.wait_for_selector(f"#w-list tr[data-game-id='{stored['game_id']}']")
    page.click(f"#w-list tr[data-game-id='{stored['game_id']}']")
    page.wait_for_function("document.body.dataset.at !== undefined && "
                           "document.body.dataset.at == document.body.dataset.moves")
    assert "replays the stored game" in page.inner_text("#r-check")
    for p, score in enumerate(stored["scores"]):
        assert f"player_{p} ({stored['agents'][p]}): {score} VP" in page.inner_text("#result")
    page.click("#r-first")
    page.wait_for_function("document.body.dataset.at == '0'")
    assert page.inner_text("#result") == ""
    for k in range(1, 4):
        page.click("#r-next")
        page.wait_for_function(f"document.body.dataset.at == '{k}'")
        assert f"move {k}/{stored['steps']}" in page.inner_text("#r-move")
    page.click("#r-back")
    page.wait_for_function("document.body.dataset.at == '2'")
    page.click("#r-last")
    page.wait_for_function(f"document.body.dataset.at == '{stored['steps']}'")
    assert "winner" in page.inner_text("#result")


def test_a_declared_game_by_clicking(tmp_path, site):
    """Pebbles, declared in the registry only: chosen in the form, its observation shown
    by entry name with no board, played to its end by clicking the action buttons."""
    thinkers = Thinkers(1, warm=False)
    with registry.registered("pebbles", "tests.helpers.pebbles_env"), \
            running_server(tmp_path / "web.sqlite", think_seconds=0.2,
                           thinkers=thinkers) as url:
        page = site["browser"].new_page(viewport={"width": 1400, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/#play")
        page.wait_for_selector("#f-opponents select")
        page.select_option("#f-game", "pebbles")
        page.select_option("#f-players", "3")
        page.select_option("#f-seat", "1")
        labels = page.eval_on_selector_all("#f-opponents select option",
                                           "o => o.map(x => x.value)")
        assert set(labels) == {"random", "mcts:100", "mcts:400"}
        page.select_option("#f-opponents select >> nth=0", "random")
        page.select_option("#f-opponents select >> nth=1", "random")
        with page.expect_response("**/api/games") as created:
            page.click("#f-start")
        assert created.value.request.post_data_json["game"] == "pebbles"
        page.wait_for_selector("#fields tr[data-field='pile']")
        # the game to click through: a short one (the form has no options), opened by link
        r = httpx.post(url + "/api/games", json={"game": "pebbles", "players": 3, "seat": 1,
                                                 "opponents": "random", "seed": 5,
                                                 "options": {"pile": 16}})
        page.goto(f"{url}/#play/{r.raise_for_status().json()['id']}")
        page.wait_for_selector("#fields tr[data-field='pile']")
        assert not page.is_visible("#board-wrap")
        page.select_option("#speed", "0")
        status, clicks = _click_through(page, random.Random(3))
        assert status == "over" and clicks["list"] >= 2
        result = page.inner_text("#result")
        assert "winner" in result and "seed 5 (chosen by you)" in result
        gid = page.evaluate("location.hash").split("/")[1]
        final = httpx.get(f"{url}/api/games/{gid}").json()
        for p, score in enumerate(final["result"]["scores"]):
            assert f"player_{p} ({final['agents'][p]}): {score} VP" in result
        assert "my_card" in page.inner_text("#fields")
        assert not errors, errors
        page.close()
    thinkers.close()


def test_the_first_start_says_compiling(tmp_path, site):
    """While the opponents' processes start, the page says so with its progress and no
    game can start; once they are up the form works."""
    thinkers = Thinkers(1, warm=False, start=False)
    with running_server(tmp_path / "web.sqlite", thinkers=thinkers, background=True) as url:
        page = site["browser"].new_page(viewport={"width": 1400, "height": 900})
        page.goto(url + "/#play")
        page.wait_for_selector("#compiling:not([hidden])")
        text = page.inner_text("#compiling")
        assert "compiling, first start only" in text and "0 of 1 opponents' processes" in text
        assert page.is_disabled("#f-start")
        thinkers.start()
        page.wait_for_selector("#compiling", state="hidden", timeout=30_000)
        assert not page.is_disabled("#f-start")
        page.select_option("#f-game", "hansa")
        page.click("#f-start")
        page.wait_for_selector("#board circle")
        page.close()
    thinkers.close()
