"""The static board of each game as JSON for the page: what the matplotlib and PIL
renderers draw that never changes during a game (places, routes, currents, events).

Coordinates are SVG user units with y growing downwards. Hansa uses the frame's own
pixel layout (`hansa_env.render.CITY_PX`); Voyage flat-top hexes of circumradius 1 at
`voyage_env.render_map.hex_center`, mirrored so that north is up.
"""

from __future__ import annotations

import functools

from tradewinds import registry


@functools.cache
def board(game: str) -> dict:
    """The board of `game` ('hansa' or 'voyage'), computed once per process."""
    if game == "hansa":
        return _hansa()
    if game == "voyage":
        return _voyage(registry.game("voyage").board)
    raise ValueError(f"no board drawing for game {game!r}")


def _hansa() -> dict:
    from hansa_env import board as B
    from hansa_env.render import CITY_PX, GOOD_COLOURS, PLAYER_COLOURS

    return {
        "game": "hansa",
        "cities": [{"id": c, "name": name, "x": round(CITY_PX[c][0], 1),
                    "y": round(CITY_PX[c][1], 1),
                    "slots": [w for w, (city, _) in enumerate(B.WAREHOUSES) if city == c]}
                   for c, name in enumerate(B.CITIES)],
        "routes": [[B.CITIES.index(a), B.CITIES.index(b)] for a, b in B.ROUTES],
        "warehouses": [[c, k] for c, k in B.WAREHOUSES],
        "colours": list(B.COLOURS), "good_colours": list(GOOD_COLOURS),
        "tokens": list(B.TOKEN_NAMES), "player_colours": list(PLAYER_COLOURS),
        "width": 700, "height": 640,
    }


def _voyage(vmap) -> dict:
    from voyage_env.board import DIRS, GOODS, LAND, SEA
    from voyage_env.render_map import GOOD_COLOURS, PLAYER_COLOURS, hex_center

    def xy(col, row):
        x, y = hex_center(int(col), int(row))
        return round(x, 3), round(-y, 3)

    cells = [[*xy(c, r), int(vmap.terrain[r, c] == LAND)]
             for r in range(vmap.height) for c in range(vmap.width)
             if vmap.terrain[r, c] != SEA]
    ends = vmap.current_ends()
    hexes = []
    for h in range(vmap.num_hexes):
        c, r = (int(v) for v in vmap.coords[h])
        d = int(vmap.current[h])
        hexes.append({"id": h, "col": c, "row": r, "x": xy(c, r)[0], "y": xy(c, r)[1],
                      "current": int(vmap.neighbors[h, d]) if d >= 0 else -1,
                      "end": int(ends[h]), "pirate": int(vmap.pirate[h]),
                      "blue": int(vmap.blue[h]), "red": int(vmap.red[h]),
                      "hemisphere": int(vmap.hemisphere[h]), "port": int(vmap.port[h]),
                      "neighbors": [int(t) for t in vmap.neighbors[h]]})
    ports = [{"id": p, "name": name, "hex": int(vmap.port_hex[p]), "vp": int(vmap.port_vp[p]),
              "good": GOODS[int(vmap.port_good[p])] if vmap.port_good[p] >= 0 else None,
              "island": int(vmap.port_island[p])}
             for p, name in enumerate(vmap.port_name)]
    hemi = [[h, d] for h in range(vmap.num_hexes) for d in range(6)
            if 0 <= vmap.neighbors[h, d] and h < vmap.neighbors[h, d]
            and vmap.hemisphere[vmap.neighbors[h, d]] != vmap.hemisphere[h]]
    xs = [1.5 * c for c in range(vmap.width)]
    return {
        "game": "voyage", "name": vmap.name, "cells": cells, "hexes": hexes, "ports": ports,
        "lisbon": int(vmap.lisbon), "walls": [[int(h), int(d)] for h, d in vmap.walls],
        "hemisphere_sides": hemi, "dirs": list(DIRS), "goods": list(GOODS),
        "good_colours": [GOOD_COLOURS[g] for g in GOODS],
        "player_colours": list(PLAYER_COLOURS),
        "labels": [[*xy(c, r), text] for c, r, text in vmap.labels if not text.startswith("@")],
        "view_box": [min(xs) - 1.2, -0.5 * 3 ** 0.5 - 0.2, max(xs) - min(xs) + 2.4,
                     3 ** 0.5 * (vmap.height + 1) + 0.4],
    }
