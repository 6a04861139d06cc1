"""Pictures of a Hansa state: a text board (ansi) and a drawn frame (rgb_array).

The frame (1080 x 640) is the Baltic map on the left — cities with their refill number,
one-way routes, warehouse slots, each player's stalls as numbered discs, the ship — and a
panel on the right: round and phase, whose turn and who decides, each player's talers,
stalls left in supply, VP and hand (hands are public in Hansa, HA17), and a legend.
The static parts are drawn once per player count; a frame draws only the state.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from hansa_env import board as B
from hansa_env.game import GAME
from hansa_env.state import PHASE_NAMES, StateView
from tradewinds.frames import FrameCache, font, paste, sprite, supersampled, text, token

# ---------------------------------------------------------------- text


def _hand_text(counts) -> str:
    parts = [f"{B.TOKEN_NAMES[t]}x{k}" if k > 1 else B.TOKEN_NAMES[t]
             for t, k in enumerate(counts) if k]
    return " ".join(parts) or "-"


def render_ansi(state: np.ndarray) -> str:
    v = StateView(state)
    n = v.num_players
    vp = GAME.scores(state)
    lines = [
        f"Hansa  round {v.round}  phase {PHASE_NAMES[v.phase]}  active player_{v.active}  "
        f"deciding {'-' if v.decider < 0 else 'player_' + str(v.decider)}"
        + ("  END TRIGGERED" if v.end_triggered else ""),
        f"ship in {B.CITIES[v.ship]}{' (acted here)' if v.acted_here else ''}",
        "",
        f"{'city':<11} {'warehouses':<18} " + " ".join(f"p{p:<2}" for p in range(n)),
    ]
    for c, name in enumerate(B.CITIES):
        slots = [w for w, (city, _) in enumerate(B.WAREHOUSES) if city == c]
        goods = ", ".join(B.TOKEN_NAMES[v.warehouse[w]] if v.warehouse[w] >= 0 else "."
                          for w in slots)
        mark = ">" if c == v.ship else " "
        lines.append(f"{mark}{name:<10} {goods:<18} "
                     + " ".join(f"{v.stalls[c, p]:<3}" for p in range(n)))
    lines += ["", "piles: " + " ".join(str(k) for k in _piles_left(v)), ""]
    for p in range(n):
        hand = v.hand.reshape(4, -1)[p]
        sold = v.sold.reshape(4, -1)[p]
        lines.append(
            f"player_{p}: {v.money[p]} talers, {v.stall_supply[p]} stalls in supply, "
            f"VP {vp[p]}  hand: {_hand_text(hand)}  sold: {_hand_text(sold)}")
    if v.phase == 6:
        lines.append(f"winners: {', '.join(f'player_{p}' for p in GAME.winners(state))}"
                     + ("  (truncated)" if v.truncated else ""))
    return "\n".join(lines)


def _piles_left(v) -> list:
    return [max(0, v.pile_end[k] - max(v.supply_drawn, v.pile_end[k - 1] if k else 0))
            for k in range(B.NUM_PILES)]


# ---------------------------------------------------------------- picture

PLAYER_COLOURS = ("#8e44ad", "#222222", "#f5f5f5", "#17becf")  # purple, black, white, cyan
GOOD_COLOURS = ("#d62728", "#ff8c1a", "#f4d03f", "#2ca02c", "#1f77b4", "#8c564b")
SEA, ROUTE, CITY, SHIP_RING = "#cfe8f7", "#1f5f8b", "#f4e4c1", "#c0392b"
PANEL, PANEL_EDGE, HIGHLIGHT, MUTED = "#f7f3ea", "#c9bfa6", "#fff1b8", "#6b6456"
MAP_W, HEIGHT, PANEL_W = 700, 640, 380
WIDTH = MAP_W + PANEL_W
CITY_R = 17           # city circle radius (px)
STALL = 22            # stall disc diameter
SLOT = 20             # warehouse slot / token square side
X0 = MAP_W + 14       # panel left margin
PLAYERS_Y = 176       # first player row in the panel
ROW_H = 50            # height of one player's block

_frames = FrameCache()


def _city_px(name: str) -> tuple:
    lon, lat = B.CITY_XY[name]
    return 72 + (lon - 9.9) * 36.0, 62 + (59.4 - lat) * 92.0


CITY_PX = tuple(_city_px(name) for name in B.CITIES)
SLOTS = tuple(tuple(w for w, (city, _) in enumerate(B.WAREHOUSES) if city == c)
              for c in range(len(B.CITIES)))


def _slot_px(c: int, k: int) -> tuple:
    x, y = CITY_PX[c]
    return x + CITY_R + 16 + k * (SLOT + 4), y


def _stall_px(c: int, p: int, n: int) -> tuple:
    x, y = CITY_PX[c]
    return x + (p - (n - 1) / 2) * (STALL + 3), y + CITY_R + 17


def _arrow(d, a, b, f, r0, r1, colour, width, head):
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    sx, sy = x0 + ux * r0, y0 + uy * r0
    ex, ey = x1 - ux * r1, y1 - uy * r1
    bx, by = ex - ux * head, ey - uy * head
    d.line([(sx * f, sy * f), (bx * f, by * f)], fill=colour, width=round(width * f))
    px, py = -uy * head * 0.45, ux * head * 0.45
    d.polygon([(ex * f, ey * f), ((bx + px) * f, (by + py) * f),
               ((bx - px) * f, (by - py) * f)], fill=colour)


def _paint_map(d, f):
    d.rectangle((0, 0, MAP_W * f, HEIGHT * f), fill=SEA)
    for a, b in B.ROUTES:
        ca, cb = B.CITIES.index(a), B.CITIES.index(b)
        _arrow(d, CITY_PX[ca], CITY_PX[cb], f, CITY_R + 3, CITY_R + 4, ROUTE, 2.2, 11)
    for x, y in CITY_PX:
        r = CITY_R * f
        d.ellipse((x * f - r, y * f - r, x * f + r, y * f + r), fill=CITY, outline="#333333",
                  width=round(1.5 * f))


def _background(n: int) -> Image.Image:
    img = supersampled((WIDTH, HEIGHT), _paint_map, background=PANEL)
    d = ImageDraw.Draw(img)
    d.text((MAP_W - 12, HEIGHT - 10), "Baltic Sea", font=font(15), fill="#7fa7c4", anchor="rs")
    for c, name in enumerate(B.CITIES):
        x, y = CITY_PX[c]
        d.text((x, y), str(c + 1), font=font(14, True), fill="#333333", anchor="mm")
        d.text((x, y - CITY_R - 3), name, font=font(14, True), fill="#1a1a1a", anchor="md",
               stroke_width=2, stroke_fill=SEA)
        for k in range(len(SLOTS[c])):
            paste(img, sprite("empty", "#ffffff", SLOT, outline="#5c6f80", width=1.0),
                  *_slot_px(c, k))
    # panel
    d.line([(MAP_W, 0), (MAP_W, HEIGHT)], fill=PANEL_EDGE, width=2)
    d.text((X0, 10), "HANSA", font=font(24, True), fill="#1a1a1a")
    hy = PLAYERS_Y - 32
    d.line([(X0, hy - 8), (WIDTH - 14, hy - 8)], fill=PANEL_EDGE, width=1)
    for label, x in (("talers", 204), ("supply", 266), ("VP", 322)):
        d.text((MAP_W + x, hy), label, font=font(12, True), fill=MUTED, anchor="ra")
    ly = PLAYERS_Y + n * ROW_H + 6
    d.line([(X0, ly), (WIDTH - 14, ly)], fill=PANEL_EDGE, width=1)
    _legend(img, d, n, ly + 8)
    return img


def _legend(img, d, n, y):
    f = font(12)
    d.text((X0, y), "legend", font=font(13, True), fill="#1a1a1a")
    y += 26
    for p in range(n):
        x = X0 + 10 + p * 88
        token(img, d, x, y, PLAYER_COLOURS[p], "3", STALL, "disc")
        d.text((x + 14, y), f"player_{p}", font=f, fill="#1a1a1a", anchor="lm")
    y += 22
    d.text((X0, y), "discs: stalls in a city; supply: stalls not yet built", font=f,
           fill=MUTED, anchor="lm")
    y += 26
    paste(img, sprite("ship", "#8b5a2b", 26), X0 + 10, y - 2)
    paste(img, sprite("ring", SHIP_RING, 24, width=3), X0 + 44, y)
    d.text((X0 + 62, y), "the ship and its city", font=f, fill="#1a1a1a", anchor="lm")
    y += 28
    token(img, d, X0 + 10, y, GOOD_COLOURS[4], "2", SLOT)
    paste(img, sprite("empty", "#ffffff", SLOT, outline="#5c6f80", width=1.0), X0 + 34, y)
    d.text((X0 + 52, y), "warehouse: good (barrels) / empty", font=f, fill="#1a1a1a",
           anchor="lm")
    y += 26
    _arrow(d, (X0 - 4, y), (X0 + 40, y), 1, 0, 0, ROUTE, 2.2, 10)
    d.text((X0 + 52, y), "one-way route (1 taler)", font=f, fill="#1a1a1a", anchor="lm")
    y += 26
    r = 11
    d.ellipse((X0 + 10 - r, y - r, X0 + 10 + r, y + r), fill=CITY, outline="#333333", width=1)
    d.text((X0 + 10, y), "4", font=font(12, True), fill="#333333", anchor="mm")
    d.text((X0 + 30, y), "city, numbered in warehouse refill order", font=f,
           fill="#1a1a1a", anchor="lm")
    y += 28
    for g, name in enumerate(B.COLOURS):
        x = X0 + 10 + (g % 3) * 116
        yy = y + (g // 3) * 24
        token(img, d, x, yy, GOOD_COLOURS[g], "", 16)
        d.text((x + 13, yy), name, font=f, fill="#1a1a1a", anchor="lm")


def _disc_label(img, x, y, p, label, bold=True):
    """A player's colour disc followed by a label; returns the x after it."""
    paste(img, sprite("disc", PLAYER_COLOURS[p], 14), x + 7, y)
    return text(img, (x + 18, y), label, 13, bold, anchor="lm")


def render_rgb(state: np.ndarray, viewer: int | None = None) -> np.ndarray:
    """The frame as uint8[640, 1080, 3]. Everything drawn is public in Hansa (HA17), so
    `viewer` (a seat or None) only marks that seat's row."""
    v = StateView(state)
    n = v.num_players
    img = _frames.get(n, lambda: _background(n)).copy()
    d = ImageDraw.Draw(img)
    # --- map
    warehouse, stalls = v.warehouse, v.stalls
    for c in range(len(B.CITIES)):
        for k, w in enumerate(SLOTS[c]):
            t = warehouse[w]
            if t >= 0:
                colour, barrels = B.TOKEN_TYPES[t]
                token(img, d, *_slot_px(c, k), GOOD_COLOURS[colour], str(barrels), SLOT)
        for p in range(n):
            k = int(stalls[c, p])
            if k:
                token(img, d, *_stall_px(c, p, n), PLAYER_COLOURS[p], str(k), STALL, "disc")
    sx, sy = CITY_PX[v.ship]
    paste(img, sprite("ring", SHIP_RING, 2 * CITY_R + 10, width=3.5), sx, sy)
    paste(img, sprite("ship", "#8b5a2b", 32), sx - CITY_R - 19, sy - 7)
    # --- status
    phase, active, decider = v.phase, v.active, v.decider
    vp = GAME.scores(state)
    over = phase == 6
    text(img, (WIDTH - 14, 14), f"round {v.round}", 18, True, anchor="ra")
    text(img, (WIDTH - 14, 38), f"phase: {PHASE_NAMES[phase]}", 13, fill=MUTED, anchor="ra")
    y = 66
    if over:
        x = text(img, (X0, y), "GAME OVER  winners:", 13, True, "#a01010", "lm") + 6
        for p in GAME.winners(state):
            x = _disc_label(img, x, y, p, f"player_{p}") + 8
        if v.truncated:
            text(img, (WIDTH - 14, y + 24), "(round cap reached)", 13, fill=MUTED, anchor="rm")
    else:
        text(img, (X0, y), "turn:", 13, fill=MUTED, anchor="lm")
        _disc_label(img, X0 + 44, y, active, f"player_{active}")
        text(img, (X0 + 170, y), "decides:", 13, fill=MUTED, anchor="lm")
        if decider >= 0:
            _disc_label(img, X0 + 232, y, decider, f"player_{decider}")
    acted = " (acted here)" if v.acted_here else ""
    text(img, (X0, y + 24), f"ship in {B.CITIES[v.ship]}{acted}", 13, anchor="lm")
    piles = "  ".join(str(k) for k in _piles_left(v))
    text(img, (X0, y + 48), f"supply piles: {piles}", 13, anchor="lm")
    if v.end_triggered and not over:
        text(img, (WIDTH - 14, y + 48), "LAST ROUND", 13, True, "#a01010", "rm")
    # --- players
    money, supply = v.money, v.stall_supply
    hand, sold = v.hand, v.sold
    for p in range(n):
        y = PLAYERS_Y + p * ROW_H
        if p == active and not over:
            d.rounded_rectangle((X0 - 6, y - 14, WIDTH - 10, y + ROW_H - 16), radius=6,
                                fill=HIGHLIGHT)
        if p == decider:
            text(img, (X0 - 2, y), "\u25b6", 11, fill="#a01010", anchor="lm")
        _disc_label(img, X0 + 8, y, p, f"player_{p}" + (" (you)" if viewer == p else ""))
        for value, x in ((money[p], 204), (supply[p], 266), (vp[p], 322)):
            text(img, (MAP_W + x, y), str(value), 13, True, anchor="rm")
        _hand_row(img, d, hand[p], int(sold[p].sum()), y + 22)
    return np.asarray(img)


HAND_SHOWN = 12  # tokens drawn per hand; more are counted


def _hand_row(img, d, hand, sold, y):
    x = X0 + 26
    text(img, (x, y), "hand", 11, fill=MUTED, anchor="lm")
    x += 36
    shown = 0
    for colour, b in zip(*np.nonzero(hand), strict=True):
        for _ in range(int(hand[colour, b])):
            if shown < HAND_SHOWN:
                token(img, d, x + 9, y, GOOD_COLOURS[colour], str(b + 1), 17)
                x += 20
            shown += 1
    if shown > HAND_SHOWN:
        text(img, (x + 2, y), f"+{shown - HAND_SHOWN}", 11, fill=MUTED, anchor="lm")
    if shown == 0:
        text(img, (x, y), "-", 12, fill=MUTED, anchor="lm")
    if sold:
        text(img, (WIDTH - 14, y), f"sold {sold}", 11, fill=MUTED, anchor="rm")


def main(argv=None) -> None:
    """`python -m hansa_env.render [out.png] [--players N] [--seed S] [--steps K]`: a frame
    after K random decisions (the docs' example picture)."""
    from hansa_env.env import env as make_env
    from tradewinds import frame_cli

    a = frame_cli.parser(main.__doc__, out="docs/render_hansa.png", seed=7, steps=120
                         ).parse_args(argv)
    env = make_env(num_players=a.players, render_mode="rgb_array")
    frame_cli.save_after_random_play(env, a.seed, a.steps, a.out)


__all__ = ["render_ansi", "render_rgb"]

if __name__ == "__main__":
    main()
