"""`tradewinds render-map ...` is `python -m voyage_env.render_map ...`: a Voyage board drawn
as a PNG, the arguments handed over untouched (`tradewinds.cli.verbs`)."""

from __future__ import annotations

from tradewinds.cli.verbs import Verb, hand_over

HELP = "draw a Voyage board as a PNG (the picture in docs/voyage_map.md)"
HANDS_OVER = True
RENDER_MAP = Verb("render-map", "voyage_env.render_map:main", HELP)


def run_argv(argv) -> int:
    return hand_over(RENDER_MAP, list(argv), "tradewinds render-map")
