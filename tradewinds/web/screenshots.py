"""The README's pictures of the web app: one game of each kind started in headless
Chromium against the heuristic, played a few moves in, and the page saved as a PNG.

    python -m tradewinds.web.screenshots [--out docs/web] [--moves 12]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from tradewinds.web.browser import chromium, running_server

VIEWPORT = {"width": 1400, "height": 900}
STATUS = "['your_move', 'over', 'error'].includes(document.body.dataset.status)"


def shoot(browser, url: str, game: str, seed: int, moves: int, path: Path) -> Path:
    """Start `game` at 2 players in seat 1 against the heuristic, make `moves` moves by
    clicking the legal-action list, and save the page."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(url + "/#play")
    page.select_option("#f-game", game)
    page.select_option("#f-players", "2")
    page.select_option("#f-seat", "1")
    page.select_option("#f-opponents select", "heuristic")
    page.fill("#f-seed", str(seed))
    page.click("#f-start")
    page.wait_for_selector("#board svg, #board circle")
    page.select_option("#speed", "0")
    rng = random.Random(seed)
    for _ in range(moves):
        page.wait_for_function(STATUS, timeout=60_000, polling=250)
        if page.evaluate("document.body.dataset.status") != "your_move":
            break
        done = int(page.evaluate("document.body.dataset.moves"))
        rng.choice(page.query_selector_all("#legal button")).click()
        page.wait_for_function(f"+document.body.dataset.moves > {done}", timeout=60_000,
                               polling=250)
    page.wait_for_function(STATUS, timeout=60_000, polling=250)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=False)
    page.close()
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tradewinds.web.screenshots",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("docs/web"), help="folder of the PNGs")
    ap.add_argument("--moves", type=int, default=12, help="moves made before the picture")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, \
            running_server(Path(tmp) / "web.sqlite", think_seconds=0.2) as url, \
            chromium() as browser:
        for game, seed in (("hansa", 11), ("voyage", 3)):
            print(shoot(browser, url, game, seed, args.moves, args.out / f"{game}.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
