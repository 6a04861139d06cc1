"""Play and watch in the browser: `tradewinds serve` (a Starlette app on uvicorn).

Layers, each its own module: `boards` (the static board geometry a page draws),
`view_hansa` / `view_voyage` (a seat's observation vector turned back into named fields:
the page is built from these and from the names of the seat's legal actions, never from
the full state), `view_generic` (any other registered game: its observation entries by
name, no board), `opponents` (the agents a request may seat and how the page lists them),
`thinking` (opponents' moves in worker processes under a hard deadline), `sessions`
(games being played, kept in SQLite as seed + actions, never sending the seed while
live), `guard` (no cross-site use), `replay` (stored games of a results store, move by
move), `app` (the HTTP API and the static page) and `cli` (the `serve` and `replay`
commands). The page itself is plain JavaScript and SVG in `static/`.
"""
