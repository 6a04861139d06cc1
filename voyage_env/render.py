"""Pictures of a Voyage state: a text summary (ansi) and a drawn frame (rgb_array).

The frame is the hex map (drawn once per map and cached) with each player's ship, a ring
in the discoverer's colour round every discovered port and the Black Ship, above a panel:
round, phase, whose turn and who decides, turn order, deck and monastery tiles, a table of
the players (position, available/total discs, VP, cards in hand, cargo, monastery tiles,
wrecked ships) and a legend. Rendered for nobody in particular it shows public
information only: hands as counts, VP without the secret target cards until the game is
over. `render_rgb(state, vmap, viewer=p)` adds seat p's own cards and targets.
With `dice_movement` (variant 2) the discs column shows the movement points left of the
turn's roll ("moves"), and the legend says blue and red spaces have no effect.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from tradewinds.frames import (
    FrameCache,
    font,
    paste,
    sprite,
    supersampled,
    text,
    text_width,
    token,
)
from voyage_env import rules as R
from voyage_env.board import GOODS
from voyage_env.state import GAME_OVER, PHASE_NAMES, StateView

# ---------------------------------------------------------------- text


def _scores(state, vmap):
    from voyage_env import kernel as K
    out = np.zeros(4, dtype=np.int64)
    K.scores(state, K.pack_map(vmap), out)
    return out


def _public_vp(v, state, vmap) -> np.ndarray:
    """VP everybody can see: play VP; the full score (secret targets too) once it's over."""
    if v.phase == GAME_OVER or v.truncated:
        return _scores(state, vmap)
    return np.asarray(v.vp, dtype=np.int64)


def _where(v, vmap, p) -> str:
    h = int(v.ship[p])
    if h == vmap.lisbon:
        return "Lisbon"
    port = int(vmap.port[h]) if 0 <= h < vmap.num_hexes else -1
    if port >= 0:
        return vmap.port_name[port]
    col, row = vmap.coords[h] if 0 <= h < vmap.num_hexes else (-1, -1)
    return f"sea ({col},{row})"


def render_ansi(state: np.ndarray, vmap) -> str:
    v = StateView(state)
    n = v.num_players
    vp = _public_vp(v, state, vmap)
    hidden = "" if v.phase == GAME_OVER or v.truncated else " (without secret targets)"
    order = " > ".join(f"player_{p}" for p in v.order[:n])
    lines = [
        f"Voyage  round {v.round}/{v.max_rounds}  phase {PHASE_NAMES[v.phase]}  "
        f"deciding {'-' if v.decider < 0 else 'player_' + str(v.decider)}  "
        f"monastery tiles left {v.tiles_total - v.tiles_taken}"
        + ("  END TRIGGERED" if v.end_triggered else ""),
        f"turn order: {order}   deck {v.deck_size} cards, discard {int(v.discard.sum())}",
    ]
    for p in range(n):
        cubes = ",".join(g for g, c in zip(GOODS, v.cubes[p], strict=True) if c) or "-"
        wrecks = ",".join(str(k + 1) for k in range(4) if v.wrecked[p, k]) or "-"
        unit = "moves" if v.dice_movement else "discs"
        lines.append(
            f"player_{p}: at {_where(v, vmap, p):<14} {unit} {v.discs[p] - v.spent[p]}/"
            f"{v.discs[p]}  VP {vp[p]}  cards {int(v.hand[p].sum())}  cubes {cubes}  "
            f"wrecked {wrecks}  tiles {v.tiles[p]}" + ("  docked" if v.docked[p] else ""))
    if v.dice_movement:
        lines.append("(VP; no target cards with dice_movement)")
    else:
        lines.append(f"(VP{hidden})" if hidden else "(final VP, targets included)")
    found = [f"{vmap.port_name[i]}:p{d}" for i, d in enumerate(v.discovered[: len(vmap.port_vp)])
             if d >= 0]
    lines.append("discovered: " + (" ".join(found) or "-"))
    if v.card >= 0:
        lines.append(f"resolving card: {R.CARD_KINDS[v.card]}")
    return "\n".join(lines)


# ---------------------------------------------------------------- picture

PLAYER_COLOURS = ("#d62728", "#f1c40f", "#1f77b4", "#2ca02c")  # as render_map's ships
WIDTH = 1280
PANEL_H = 206
FONT_SCALE = 0.85
PANEL, PANEL_EDGE, HIGHLIGHT, MUTED, ALERT = "#f7f3ea", "#c9bfa6", "#fff1b8", "#6b6456", "#a01010"
TABLE_X = 352          # players table, left edge
LEGEND_X = 900         # legend, left edge
ROW_H = 23
COLUMNS = {            # players table: (header, x of the column's right or left edge)
    "at": TABLE_X + 96, "discs": TABLE_X + 250, "VP": TABLE_X + 290, "cards": TABLE_X + 338,
    "cargo": TABLE_X + 350, "tiles": TABLE_X + 474, "wrecks": TABLE_X + 534,
}

LEGEND_Y = 34          # legend: y of the players' boats below the panel's top
# The legend's map symbols, (kind, label) in reading order, two to a row.
LEGEND_ENTRIES = (
    ("port", "port (discovery VP)"), ("found", "discovered by (colour)"),
    ("lisbon", "Lisbon: dock, sell, upgrade"), ("current", "current: free step"),
    ("hemi", "hemisphere line"), ("blue", "blue: play a wind card"),
    ("red", "red: roll the die"), ("pirate", "pirates: +1 disc"),
)
# With dice_movement (variant 2, V54) blue and red symbols are ignored: the last three.
DICE_LEGEND_ENTRIES = (
    ("blue", "blue: no effect (dice)"), ("red", "red: no effect (dice)"),
    ("pirate", "pirates: +1 move"),
)
LEGEND_GLYPHS = {"blue": "\u273a", "red": "\u2680", "pirate": "\u2620"}  # in COLOURS[kind]
RIGHT_ALIGNED = ("discs", "VP", "cards", "tiles", "wrecks")   # players table columns

_frames = FrameCache()


class _Background:
    """The parts of a frame that depend on the map and the options only: the map, the
    panel's rules, the players table's header and the legend."""

    def __init__(self, vmap, n: int, black_ship: bool, dice: bool = False):
        from voyage_env.render_map import COLOURS, GOOD_COLOURS, map_background

        self.map_img, self.hex_px, self.unit = map_background(vmap, WIDTH, FONT_SCALE)
        self.map_h = self.map_img.shape[0]
        self.height = self.map_h + PANEL_H
        self.port_r = 0.42 * self.unit
        self.boat = min(44, max(14, round(1.35 * self.unit)))
        entries = _legend_entries(black_ship, dice)
        self.legend = [(LEGEND_X + 12 + (i % 2) * 190, LEGEND_Y + 28 + (i // 2) * 22, kind,
                        label) for i, (kind, label) in enumerate(entries)]
        img = self._map_and_panel(COLOURS)
        d = ImageDraw.Draw(img)
        top = self.map_h
        _draw_panel_rules(d, top, self.height)
        _draw_table_header(d, top, n, dice)
        _draw_legend(img, d, top, n, self.legend, COLOURS)
        _draw_goods(img, d, top + LEGEND_Y + 28 + ((len(entries) + 1) // 2) * 22, GOOD_COLOURS)
        self.image = img
        self.good_colours = tuple(GOOD_COLOURS[g] for g in GOODS)

    def _map_and_panel(self, colours) -> Image.Image:
        """The map above the panel, the legend's symbols painted supersampled (3x)."""

        def paint(d, f):
            for x, y, kind, _ in self.legend:
                _paint_icon(d, f, x, y, kind, colours)

        panel = supersampled((WIDTH, PANEL_H), paint, background=PANEL, factor=3)
        img = Image.new("RGB", (WIDTH, self.height), PANEL)
        img.paste(Image.fromarray(self.map_img), (0, 0))
        img.paste(panel, (0, self.map_h))
        return img


def _legend_entries(black_ship: bool, dice: bool) -> list:
    entries = list(LEGEND_ENTRIES)
    if dice:
        entries[-3:] = DICE_LEGEND_ENTRIES
    if black_ship:
        entries.append(("black", "the Black Ship"))
    return entries


def _draw_panel_rules(d, top: int, height: int) -> None:
    """The panel's top edge, the rules left of the table and of the legend, the title."""
    d.line([(0, top), (WIDTH, top)], fill=PANEL_EDGE, width=2)
    d.line([(TABLE_X - 12, top + 8), (TABLE_X - 12, height - 8)], fill=PANEL_EDGE)
    d.line([(LEGEND_X - 10, top + 8), (LEGEND_X - 10, height - 8)], fill=PANEL_EDGE)
    d.text((12, top + 8), "VOYAGE", font=font(22, True), fill="#1a1a1a")


def _draw_table_header(d, top: int, n: int, dice: bool) -> None:
    """The players table's column names and the note below its rows."""
    hy = top + 10
    f12b = font(12, True)
    d.text((TABLE_X, hy), "player", font=f12b, fill=MUTED)
    for name, x in COLUMNS.items():
        label = "moves" if dice and name == "discs" else name
        d.text((x, hy), label, font=f12b, fill=MUTED,
               anchor="ra" if name in RIGHT_ALIGNED else "la")
    note = ("moves: left/rolled this turn (2d6).  VP: no target cards with dice." if dice
            else "discs: available/total.  VP: without the secret target cards until the end.")
    d.text((TABLE_X, top + 36 + n * ROW_H + 2), note, font=font(11), fill=MUTED)


def _draw_legend(img, d, top: int, n: int, legend: list, colours) -> None:
    """The legend's title, a boat per player and each symbol's marks and label."""
    d.text((LEGEND_X, top + 8), "legend", font=font(13, True), fill="#1a1a1a")
    for p in range(n):
        x = LEGEND_X + 12 + p * 92
        paste(img, sprite("boat", PLAYER_COLOURS[p], 18), x, top + LEGEND_Y)
        d.text((x + 12, top + LEGEND_Y), f"player_{p}", font=font(12), fill="#1a1a1a",
               anchor="lm")
    f12 = font(12)
    for x, y, kind, label in legend:
        if kind in LEGEND_GLYPHS:
            d.text((x, top + y), LEGEND_GLYPHS[kind], font=font(14), fill=colours[kind],
                   anchor="mm")
        if kind == "port" or kind == "found":
            d.text((x, top + y), "2", font=font(10, True), fill="#1a1a1a", anchor="mm")
        if kind == "found":
            paste(img, sprite("ring", PLAYER_COLOURS[0], 22, width=3), x, top + y)
        if kind == "lisbon":
            d.text((x, top + y), "\u271a", font=font(11), fill="#b22222", anchor="mm")
        if kind == "black":
            paste(img, sprite("boat", "#111111", 18), x, top + y)
        d.text((x + 16, top + y), label, font=f12, fill="#1a1a1a", anchor="lm")


def _draw_goods(img, d, gy: int, good_colours) -> None:
    """A cube and the name of every good, four to a row from `gy` down."""
    for g, name in enumerate(GOODS):
        x = LEGEND_X + 12 + (g % 4) * 92
        y = gy + (g // 4) * 20
        token(img, d, x, y, good_colours[name], "", 13)
        d.text((x + 10, y), name, font=font(11), fill="#1a1a1a", anchor="lm")


def _hexagon(x, y, r, f):
    import math
    return [((x + r * math.cos(math.radians(a))) * f, (y + r * math.sin(math.radians(a))) * f)
            for a in range(0, 360, 60)]


def _paint_icon(d, f, x, y, kind, colours):
    r = 9
    if kind in ("blue", "red"):
        d.polygon(_hexagon(x, y, r, f), fill=colours[f"{kind}_hex"])
    elif kind == "pirate":
        d.polygon(_hexagon(x, y, r, f), fill=colours["sea"])
    elif kind in ("port", "found"):
        d.ellipse(((x - 7) * f, (y - 7) * f, (x + 7) * f, (y + 7) * f), fill="#ffffff",
                  outline="#333333", width=round(1.2 * f))
    elif kind == "lisbon":
        d.polygon(_hexagon(x, y, r, f), fill=colours["sea"], outline=colours["lisbon"],
                  width=round(2.5 * f))
    elif kind == "current":
        d.line([((x - 9) * f, y * f), ((x + 3) * f, y * f)], fill=colours["current"],
               width=round(1.8 * f))
        d.polygon([((x + 9) * f, y * f), ((x + 2) * f, (y - 4) * f), ((x + 2) * f, (y + 4) * f)],
                  fill=colours["current"])
    elif kind == "hemi":
        for k in range(3):
            d.line([((x - 10 + 8 * k) * f, y * f), ((x - 5 + 8 * k) * f, y * f)],
                   fill=colours["hemisphere"], width=round(3 * f))


def _background(vmap, n, black_ship, dice=False) -> _Background:
    key = (id(vmap), n, black_ship, dice)
    return _frames.get(key, lambda: (vmap, _Background(vmap, n, black_ship, dice)))[1]


# seat -> offset (in hex radii) of its ship inside a hex, so four ships can share one
SHIP_OFFSETS = ((-0.4, -0.32), (0.4, -0.32), (-0.4, 0.36), (0.4, 0.36))


def render_rgb(state: np.ndarray, vmap, viewer: int | None = None) -> np.ndarray:
    """The frame as uint8[h, 1280, 3] (h = map height + panel)."""
    v = StateView(state)
    n = v.num_players
    bg = _background(vmap, n, bool(v.black_ship), bool(v.dice_movement))
    img = bg.image.copy()
    d = ImageDraw.Draw(img)
    hex_px, unit = bg.hex_px, bg.unit
    nh = len(hex_px)
    # --- map: discovered ports, viewer's targets, ships, the Black Ship
    ring = 2 * bg.port_r + 7
    for port, seat in enumerate(v.discovered[: len(vmap.port_vp)]):
        if 0 <= seat < n:
            x, y = hex_px[vmap.port_hex[port]]
            paste(img, sprite("ring", PLAYER_COLOURS[seat], round(ring), width=3.2), x, y)
    if viewer is not None:
        for port in v.targets[viewer]:
            if 0 <= port < len(vmap.port_vp):
                x, y = hex_px[vmap.port_hex[port]]
                text(img, (x - bg.port_r - 2, y - bg.port_r), "\u2605", 14,
                     fill=PLAYER_COLOURS[viewer], anchor="mm")
    if v.black_ship and 0 <= v.black_hex < nh:
        x, y = hex_px[v.black_hex]
        paste(img, sprite("boat", "#111111", bg.boat + 2), x, y)
    active = v.active
    over = v.phase == GAME_OVER or bool(v.truncated)
    seats = [p for p in range(n) if p != active] + ([active] if 0 <= active < n else [])
    for p in seats:
        h = int(v.ship[p])
        if not 0 <= h < nh:
            continue
        x, y = hex_px[h]
        ox, oy = SHIP_OFFSETS[p]
        size = bg.boat + (6 if p == active and not over else 0)
        x, y = x + ox * unit, y + oy * unit
        paste(img, sprite("halo", "#ffffff", size + 4), x, y)
        paste(img, sprite("boat", PLAYER_COLOURS[p], size - 2), x, y)
    _panel(img, d, v, state, vmap, bg, viewer, over)
    return np.asarray(img)


def _disc_label(img, x, y, p, label, size=13, bold=True):
    paste(img, sprite("boat", PLAYER_COLOURS[p], 16), x + 8, y)
    return text(img, (x + 19, y), label, size, bold, anchor="lm")


def _panel(img, d, v, state, vmap, bg, viewer, over):
    """The panel's changing parts: the status, the order line, the players table and the
    viewer's own cards."""
    n = v.num_players
    top = bg.map_h
    text(img, (TABLE_X - 24, top + 12), f"round {v.round}/{v.max_rounds}", 16, True,
         anchor="ra")
    if over:
        _game_over_status(img, v, state, vmap, top + 46)
    else:
        _turn_status(img, v, top + 46)
    _order_lines(img, v, top + 112, over)
    vp = _public_vp(v, state, vmap)
    targets_vp = _scores(state, vmap) - np.asarray(v.vp) if viewer is not None else None
    for p in range(n):
        score = str(vp[p])
        if viewer == p and not over:
            score += f"+{targets_vp[p]}"
        _player_row(img, d, v, vmap, bg, p, score, over)
    if viewer is not None and 0 <= viewer < n:
        _viewer_cards(img, v, vmap, viewer, top + 38 + n * ROW_H + 24)


def _game_over_status(img, v, state, vmap, y):
    """GAME OVER, the winners' discs, and the round cap if it ended the game."""
    from voyage_env import kernel as K

    x = text(img, (12, y), "GAME OVER  winners:", 13, True, ALERT, "lm") + 4
    won = np.zeros(4, dtype=np.int64)
    K.winners(state, K.pack_map(vmap), won)
    for p in range(v.num_players):
        if won[p]:
            x = _disc_label(img, x, y, p, f"p{p}") + 6
    if v.truncated:
        text(img, (12, y + 22), "round cap reached: scored as it stands", 12, fill=MUTED,
             anchor="lm")


def _turn_status(img, v, y):
    """The phase, whose turn it is and who decides."""
    n, active, decider = v.num_players, v.active, v.decider
    text(img, (12, y), f"phase: {PHASE_NAMES[v.phase]}", 13, anchor="lm")
    y += 22
    text(img, (12, y), "turn:", 13, fill=MUTED, anchor="lm")
    if 0 <= active < n:
        _disc_label(img, 56, y, active, f"player_{active}")
    text(img, (12, y + 22), "decides:", 13, fill=MUTED, anchor="lm")
    if 0 <= decider < n:
        _disc_label(img, 76, y + 22, decider, f"player_{decider}")


def _order_lines(img, v, y, over):
    """The turn order; deck, discard and tiles; the bids or the wind card; LAST ROUND."""
    n = v.num_players
    x = text(img, (12, y), "order:", 13, fill=MUTED, anchor="lm") + 6
    for k, p in enumerate(v.order[:n]):
        if k:
            x = text(img, (x + 2, y), ">", 13, fill=MUTED, anchor="lm") + 2
        x = _disc_label(img, x, y, int(p), f"p{p}", 13, False)
    y += 22
    tiles_left = v.tiles_total - v.tiles_taken
    text(img, (12, y), f"deck {v.deck_size}  discard {int(v.discard.sum())}  "
         f"monastery tiles {tiles_left}/{v.tiles_total}", 12, anchor="lm")
    y += 22
    if v.phase in (0, 1) and not over:
        bids = "  ".join(f"p{p}:{v.bid[p] or '-'}" for p in range(n))
        text(img, (12, y), f"bids {bids}", 12, anchor="lm")
    elif v.card >= 0:
        text(img, (12, y), f"wind card: {R.CARD_KINDS[v.card]}", 12, True, anchor="lm")
    if v.end_triggered and not over:
        text(img, (TABLE_X - 24, y), "LAST ROUND", 13, True, ALERT, "rm")


def _player_row(img, d, v, vmap, bg, p, score, over):
    """Seat p's row of the players table, highlighted on its turn; `score` its VP."""
    y = bg.map_h + 38 + p * ROW_H
    if p == v.active and not over:
        d.rounded_rectangle((TABLE_X - 6, y - 11, LEGEND_X - 16, y + 11), radius=5,
                            fill=HIGHLIGHT)
    if p == v.decider:
        text(img, (TABLE_X - 8, y), "\u25b6", 10, fill=ALERT, anchor="rm")
    _disc_label(img, TABLE_X, y, p, f"player_{p}", 12)
    where = _where(v, vmap, p)
    if v.docked[p]:
        where += " \u2693"
    text(img, (COLUMNS["at"], y), where, 12, anchor="lm")
    discs = f"{v.discs[p] - v.spent[p]}/{v.discs[p]}"
    text(img, (COLUMNS["discs"], y), discs, 12, True, anchor="rm")
    text(img, (COLUMNS["VP"], y), score, 12, True, anchor="rm")
    text(img, (COLUMNS["cards"], y), str(int(v.hand[p].sum())), 12, anchor="rm")
    x = COLUMNS["cargo"] + 7
    for g in np.flatnonzero(v.cubes[p]):
        for _ in range(int(v.cubes[p, g])):
            if x < COLUMNS["tiles"] - 36:
                token(img, d, x, y, bg.good_colours[g], "", 13)
                x += 15
    text(img, (COLUMNS["tiles"], y), str(v.tiles[p]) if v.tiles[p] else "-", 12,
         anchor="rm")
    wrecks = ",".join(str(k + 1) for k in range(R.NUM_SHIPS) if v.wrecked[p, k]) or "-"
    text(img, (COLUMNS["wrecks"], y), wrecks, 12, anchor="rm")


def _viewer_cards(img, v, vmap, viewer, y):
    """The viewer's own wind cards and target ports, each cut to fit."""
    cards = ", ".join(f"{R.CARD_KINDS[k]}x{c}" if c > 1 else R.CARD_KINDS[k]
                      for k, c in enumerate(v.hand[viewer]) if c) or "-"
    targets = [vmap.port_name[t] for t in v.targets[viewer] if 0 <= t < len(vmap.port_vp)]
    x = text(img, (TABLE_X, y), f"player_{viewer}'s cards: ", 11, True, anchor="lm")
    _fit(img, x, y, cards, LEGEND_X - 16)
    x = text(img, (TABLE_X, y + 18), "targets \u2605: ", 11, True, anchor="lm")
    _fit(img, x, y + 18, ", ".join(targets) or "-", LEGEND_X - 16)


def _fit(img, x, y, s, right):
    while s and x + text_width(s, 11) > right:
        s = s[:-2] + "\u2026" if not s.endswith("\u2026") else s[:-2] + "\u2026"
    text(img, (x, y), s, 11, anchor="lm")



def main(argv=None) -> None:
    """`python -m voyage_env.render [out.png] [--players N] [--seed S] [--steps K]`: a frame
    after K random decisions (the docs' example picture)."""
    from tradewinds import frame_cli
    from voyage_env.env import env as make_env

    ap = frame_cli.parser(main.__doc__, out="docs/render_voyage.png", seed=2, steps=600)
    ap.add_argument("--black-ship", action="store_true")
    a = ap.parse_args(argv)
    env = make_env(num_players=a.players, render_mode="rgb_array", black_ship=a.black_ship)
    frame_cli.save_after_random_play(env, a.seed, a.steps, a.out)


__all__ = ["render_ansi", "render_rgb"]

if __name__ == "__main__":
    main()
