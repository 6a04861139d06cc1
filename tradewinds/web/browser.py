"""Headless Chromium for the browser tests and the README screenshots: Debian's
``chromium`` driven by Playwright (never a browser Playwright downloads), and a server
on a free loopback port in a background thread."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextlib.contextmanager
def running_server(games_db, stores=(), think_seconds: float = 0.5, **sessions_kw):
    """A `tradewinds serve` app on 127.0.0.1 in a thread, on a port the system picks
    (``--port 0``: the app learns it from each request); yields its URL (`sessions_kw`
    go to `Sessions`)."""
    import uvicorn

    from tradewinds.web.app import create_app
    from tradewinds.web.sessions import Sessions

    sessions = Sessions(games_db, think_seconds=think_seconds, **sessions_kw)
    app = create_app(sessions, [Path(s) for s in stores])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextlib.contextmanager
def chromium():
    """A Playwright browser on Debian's chromium (RuntimeError when it is missing)."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
