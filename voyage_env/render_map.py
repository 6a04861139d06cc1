"""Drawing of a Voyage board with matplotlib (Agg): docs picture and the env's rgb_array.

    tradewinds render-map [out.png] [--map path/to/file.map]

`draw_map(vmap, ax)` draws the board onto an axes (optionally with ships);
`render_rgb_array(vmap, ships=...)` returns an ``uint8[h, w, 3]`` image;
`save_png(vmap, path)` writes the documentation picture.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Ellipse, Patch, Polygon, Rectangle

from tradewinds.frames import figure_to_array
from voyage_env.board import GOODS, LAND, SEA, VOID, VoyageMap, load_map

SQ3 = math.sqrt(3.0)

COLOURS = {
    "sea": "#9ecae1",
    "sea_edge": "#f4f9fc",
    "void": "#d3e4ef",
    "land": "#e9dcb5",
    "land_edge": "#d9c89a",
    "island": "#cdb77a",
    "current": "#08306b",
    "lisbon": "#f2c200",
    "hemisphere": "#c51b1b",
    "blue": "#0b3d91",
    "blue_hex": "#6fa6dc",
    "red": "#a50f15",
    "red_hex": "#f1a9a0",
    "pirate": "#111111",
    "port": "#ffffff",
    "label": "#5a4a2a",
    "ocean_label": "#2b5f86",
}
GOOD_COLOURS = {
    "chili": "#d62728", "brazilwood": "#222222", "ivory": "#fffff0", "pepper": "#2ca02c",
    "cinnamon": "#8c564b", "silk": "#8e44ad", "nutmeg": "#f1c40f", "silver": "#1f77b4",
}
PLAYER_COLOURS = ("#d62728", "#f1c40f", "#1f77b4", "#2ca02c")
_LABEL_OFFSETS = {
    "N": (0.0, 1.0, "center", "bottom"), "NE": (0.75, 0.75, "left", "bottom"),
    "E": (0.95, 0.0, "left", "center"), "SE": (0.75, -0.75, "left", "top"),
    "S": (0.0, -1.0, "center", "top"), "SW": (-0.75, -0.75, "right", "top"),
    "W": (-0.95, 0.0, "right", "center"), "NW": (-0.75, 0.75, "right", "bottom"),
    "C": (0.0, -0.55, "center", "top"),
}
# Corner of a flat-top hex for each direction's side: side d runs between corners
# at angles _SIDE[d] and _SIDE[d] + 60 degrees.
_SIDE = (60, 0, -60, -120, -180, 120)


def hex_center(col, row):
    """Centre of a flat-top hex of circumradius 1 (odd-q; y grows upwards)."""
    return 1.5 * col, -SQ3 * (row + 0.5 * (col & 1))


def hex_corners(col, row, scale=1.0):
    x, y = hex_center(col, row)
    return [(x + scale * math.cos(math.radians(a)), y + scale * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def _side(col, row, d):
    x, y = hex_center(col, row)
    a0 = math.radians(_SIDE[d])
    a1 = math.radians(_SIDE[d] + 60)
    return [(x + math.cos(a0), y + math.sin(a0)), (x + math.cos(a1), y + math.sin(a1))]


def draw_map(vmap: VoyageMap, ax=None, *, names=True, legend=True, title=True, ships=None,
             font_scale=1.0, legend_at=None, legend_loc="upper left"):
    """Draw the board; `ships` is an optional sequence of sea-space indices, one per player.

    `legend_at` = (col, row) of the legend's upper-left corner; default: the map's label
    "@legend" if it has one, else the map's lower-left corner.
    """
    if ax is None:
        import matplotlib.pyplot as plt  # only for interactive use without an axes

        _, ax = plt.subplots(figsize=(24, 14))
    fs = font_scale
    _draw_terrain(ax, vmap)
    _draw_borders(ax, vmap)
    marked = _draw_lettering(ax, vmap, fs)
    _draw_lisbon(ax, vmap, fs, names)
    _draw_currents(ax, vmap, fs)
    _draw_events(ax, vmap, fs)
    _draw_ports(ax, vmap, fs, names)
    if ships is not None:
        _draw_ships(ax, vmap, ships, fs)
    xs = [1.5 * c for c in range(vmap.width)]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(-SQ3 * (vmap.height + 0.5) - 0.2, SQ3 * 0.5 + 0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        n_cur = int((vmap.current >= 0).sum())
        ax.set_title(f"{vmap.name}: {vmap.num_hexes} sea spaces, {vmap.num_ports} ports, "
                     f"{int(vmap.blue.sum())} blue, {int(vmap.red.sum())} red, "
                     f"{int(vmap.pirate.sum())} pirate, {n_cur} current arrows",
                     fontsize=14 * fs)
    if legend:
        _draw_legend(ax, vmap, fs, marked if legend_at is None else legend_at, legend_loc)
    return ax


def _cell(vmap, h):
    """(col, row) of sea space h, as ints."""
    c, r = vmap.coords[h]
    return int(c), int(r)


def _is_land(vmap, c, r):
    return 0 <= c < vmap.width and 0 <= r < vmap.height and vmap.terrain[r, c] == LAND


def _draw_terrain(ax, vmap):
    """Every cell of the grid: water off the board, land, sea spaces."""
    polys = {VOID: [], LAND: [], SEA: []}
    for r in range(vmap.height):
        for c in range(vmap.width):
            polys[int(vmap.terrain[r, c])].append(hex_corners(c, r))
    ax.add_collection(PolyCollection(polys[VOID], facecolors=COLOURS["void"],
                                     edgecolors=COLOURS["void"], linewidths=0.6, zorder=1))
    ax.add_collection(PolyCollection(polys[LAND], facecolors=COLOURS["land"],
                                     edgecolors=COLOURS["land"], linewidths=0.6, zorder=1))
    ax.add_collection(PolyCollection(polys[SEA], facecolors=COLOURS["sea"],
                                     edgecolors=COLOURS["sea_edge"], linewidths=0.8, zorder=2))


def _draw_borders(ax, vmap):
    """The coastline (sides between land and sea), walls, and the hemisphere line."""
    coast = []
    for h in range(vmap.num_hexes):
        c, r = _cell(vmap, h)
        for d in range(6):
            if _is_land(vmap, *_step(c, r, d)):
                coast.append(_side(c, r, d))
    ax.add_collection(LineCollection(coast, colors="#8a7a50", linewidths=1.0, zorder=3))
    wall_segs = [_side(*_cell(vmap, h), d) for h, d in vmap.walls]
    ax.add_collection(LineCollection(wall_segs, colors=COLOURS["land_edge"], linewidths=4,
                                     zorder=3))
    hemi = []
    for h in range(vmap.num_hexes):
        for d in range(6):
            t = vmap.neighbors[h, d]
            if t >= 0 and vmap.hemisphere[t] != vmap.hemisphere[h] and t > h:
                hemi.append(_side(*_cell(vmap, h), d))
    ax.add_collection(LineCollection(hemi, colors=COLOURS["hemisphere"], linewidths=3.0,
                                     linestyles=(0, (4, 2)), zorder=6))


def _draw_lettering(ax, vmap, fs):
    """The map's own labels (oceans, lands); returns the cell the map marks "@legend"."""
    marked = None
    for c, r, text in vmap.labels:
        if text == "@legend":
            marked = marked or (c, r)
            continue
        x, y = hex_center(c, r)
        ax.text(x, y, text, ha="center", va="center", fontsize=11 * fs, style="italic",
                color=COLOURS["label"] if _is_land(vmap, c, r) else COLOURS["ocean_label"],
                alpha=0.8, zorder=4)
    return marked


def _draw_lisbon(ax, vmap, fs, names):
    lc, lr = _cell(vmap, vmap.lisbon)
    ax.add_patch(Polygon(hex_corners(lc, lr, 0.93), closed=True, fill=False,
                         edgecolor=COLOURS["lisbon"], linewidth=3.5, zorder=7))
    lx, ly = hex_center(lc, lr)
    ax.text(lx, ly + 0.05, "\u271a", ha="center", va="center", fontsize=15 * fs,
            color="#b22222", zorder=8)
    if names:
        ax.text(lx + 0.9, ly + 0.55, "Lisbon", ha="left", va="bottom", fontsize=10 * fs,
                weight="bold", color="#222222", zorder=12,
                bbox=dict(boxstyle="round,pad=0.15", fc="#fff7d6", ec="none", alpha=0.85))


def _draw_currents(ax, vmap, fs):
    """An arrow per current step, a dot where a current ends."""
    for h in range(vmap.num_hexes):
        d = int(vmap.current[h])
        if d < 0:
            continue
        x0, y0 = hex_center(*_cell(vmap, h))
        x1, y1 = hex_center(*_cell(vmap, vmap.neighbors[h, d]))
        ax.annotate("", xy=(x0 + 0.78 * (x1 - x0), y0 + 0.78 * (y1 - y0)),
                    xytext=(x0 + 0.22 * (x1 - x0), y0 + 0.22 * (y1 - y0)),
                    arrowprops=dict(arrowstyle="-|>,head_length=0.5,head_width=0.25",
                                    color=COLOURS["current"], lw=1.6 * fs, alpha=0.8,
                                    shrinkA=0, shrinkB=0), zorder=5)
    ex = [hex_center(*_cell(vmap, h)) for h in np.flatnonzero(vmap.current_ends())]
    if ex:
        ax.scatter([p[0] for p in ex], [p[1] for p in ex], s=22 * fs, c=COLOURS["current"],
                   zorder=5, alpha=0.8)


def _draw_events(ax, vmap, fs):
    """Red, blue and pirate spaces: the hex is tinted, the symbol sits in its upper half."""
    tint = {"red": [], "blue": []}
    for h in range(vmap.num_hexes):
        c, r = _cell(vmap, h)
        if vmap.red[h]:
            tint["red"].append(hex_corners(c, r, 0.97))
        if vmap.blue[h]:
            tint["blue"].append(hex_corners(c, r, 0.97))
    ax.add_collection(PolyCollection(tint["red"], facecolors=COLOURS["red_hex"],
                                     edgecolors="none", zorder=2.5))
    ax.add_collection(PolyCollection(tint["blue"], facecolors=COLOURS["blue_hex"],
                                     edgecolors="none", zorder=2.5))
    for h in range(vmap.num_hexes):
        x, y = hex_center(*_cell(vmap, h))
        if vmap.blue[h]:
            ax.text(x - 0.42, y + 0.42, "\u273a", ha="center", va="center",
                    fontsize=15 * fs, color=COLOURS["blue"], zorder=9)
        if vmap.red[h]:
            ax.text(x - 0.42, y + 0.42, "\u2680", ha="center", va="center",
                    fontsize=17 * fs, color=COLOURS["red"], zorder=9)
        if vmap.pirate[h]:
            ax.text(x + 0.42, y + 0.4, "\u2620", ha="center", va="center",
                    fontsize=16 * fs, color=COLOURS["pirate"], zorder=9)


def _draw_ports(ax, vmap, fs, names):
    """Each port: its island, its VP disc, its good, its name."""
    for p, name in enumerate(vmap.port_name):
        c, r = _cell(vmap, vmap.port_hex[p])
        x, y = hex_center(c, r)
        if vmap.port_island[p]:
            ax.add_patch(Ellipse((x + 0.35, y - 0.45), 0.55, 0.32, angle=25,
                                 fc=COLOURS["island"], ec="#8a7a50", lw=0.6, zorder=6))
        ax.add_patch(Circle((x, y), 0.42, fc=COLOURS["port"], ec="#333333", lw=1.3,
                            zorder=10))
        ax.text(x, y, str(int(vmap.port_vp[p])), ha="center", va="center",
                fontsize=9 * fs, weight="bold", zorder=11)
        g = int(vmap.port_good[p])
        if g >= 0:
            ax.add_patch(Rectangle((x + 0.28, y + 0.18), 0.38, 0.38,
                                   fc=GOOD_COLOURS[GOODS[g]], ec="#333333", lw=0.8,
                                   zorder=11))
        if names:
            where = vmap.port_label[p] or _auto_label(vmap, c, r)
            dx, dy, ha, va = _LABEL_OFFSETS[where]
            text = name if g < 0 else f"{name} ({GOODS[g]})"
            ax.text(x + dx * 0.55, y + dy * 0.55, text, ha=ha, va=va, fontsize=8.5 * fs,
                    zorder=12, color="#1a1a1a",
                    bbox=dict(boxstyle="round,pad=0.12", fc="white", ec="none", alpha=0.75))


def _draw_ships(ax, vmap, ships, fs):
    """A triangle per player in the player's colour, side by side within the hex."""
    for i, h in enumerate(ships):
        if h is None or h < 0:
            continue
        x, y = hex_center(*_cell(vmap, h))
        ox = (i % 2) * 0.5 - 0.25
        oy = (i // 2) * -0.45 + 0.1
        ax.scatter([x + ox], [y + oy], marker="^", s=140 * fs,
                   c=PLAYER_COLOURS[i % len(PLAYER_COLOURS)], edgecolors="black",
                   linewidths=1.0, zorder=13)


def _draw_legend(ax, vmap, fs, legend_at, legend_loc):
    """What every colour and symbol means, its upper-left corner at cell `legend_at`
    (default: the lower-left corner of the map)."""
    if legend_at is None:
        legend_anchor, legend_loc = hex_center(0, vmap.height - 1), "lower left"
    else:
        legend_anchor = hex_center(*legend_at)
    handles = [
        Patch(fc=COLOURS["sea"], ec="#6a9ab8", label="sea space"),
        Patch(fc=COLOURS["land"], ec=COLOURS["land_edge"], label="land"),
        Patch(fc=COLOURS["void"], ec=COLOURS["void"], label="water off the board"),
        Line2D([], [], color=COLOURS["current"], marker=">", lw=1.6,
               label="current (free step), dot = end"),
        Patch(fc=COLOURS["blue_hex"], ec="none", label="\u273a blue: stop, play a wind card"),
        Patch(fc=COLOURS["red_hex"], ec="none", label="\u2680 red: roll the die"),
        Line2D([], [], ls="", marker="$\u2620$", color="black", ms=11,
               label="pirates: +1 disc"),
        Line2D([], [], ls="", marker="o", mfc="white", mec="#333333", ms=11,
               label="port (discovery VP)"),
        Line2D([], [], color=COLOURS["hemisphere"], lw=3, ls="--",
               label="hemisphere line"),
        Patch(fc="none", ec=COLOURS["lisbon"], lw=3, label="Lisbon (home)"),
    ]
    handles += [Patch(fc=GOOD_COLOURS[g], ec="#333333", label=f"goods: {g}")
                for g in GOODS]
    ax.legend(handles=handles, loc=legend_loc, fontsize=10 * fs, ncol=2,
              framealpha=0.92, bbox_to_anchor=legend_anchor, bbox_transform=ax.transData)


def _step(c, r, d):
    from voyage_env.board import step

    return step(c, r, d)


def _auto_label(vmap, c, r):
    """Put a port's name on the side with the most sea."""
    best, where = -1, "E"
    for name, d in (("E", (1, 2)), ("W", (4, 5)), ("N", (0,)), ("S", (3,))):
        score = 0
        for k in d:
            dc, dr = _step(c, r, k)
            if 0 <= dc < vmap.width and 0 <= dr < vmap.height:
                score += int(vmap.terrain[dr, dc] != LAND)
        score = score / len(d)
        if score > best:
            best, where = score, name
    return where


def _map_figure(vmap: VoyageMap, width_px: int, names=True, ships=None, font_scale=0.65):
    w_in = 16.0
    h_in = w_in * (SQ3 * (vmap.height + 1)) / (1.5 * vmap.width + 2.4)
    fig = Figure(figsize=(w_in, h_in), dpi=width_px / w_in)
    ax = fig.add_axes((0, 0, 1, 1))
    draw_map(vmap, ax, names=names, legend=False, title=False, ships=ships,
             font_scale=font_scale)
    return fig, ax


def render_rgb_array(vmap: VoyageMap, ships=None, width_px=1600, names=True):
    """The board (and ships) as an ``uint8[h, w, 3]`` array."""
    fig, _ = _map_figure(vmap, width_px, names, ships)
    return figure_to_array(fig)


def map_background(vmap: VoyageMap, width_px: int, font_scale: float = 0.65):
    """The board without pieces, for frames that draw the state on top of it.

    Returns (image uint8[h, w, 3], hex_px float[H, 2] pixel (x, y) of each sea space's
    centre, px_per_unit: pixels per hex circumradius).
    """
    fig, ax = _map_figure(vmap, width_px, True, None, font_scale)
    img = figure_to_array(fig)  # draws, which also fixes the axes' aspect
    centres = np.array([hex_center(int(c), int(r)) for c, r in vmap.coords], dtype=float)
    if len(centres) == 0:
        centres = np.zeros((0, 2))
    to_px = ax.transData.transform
    px = to_px(centres)
    px[:, 1] = img.shape[0] - px[:, 1]
    (x0, _), (x1, _) = to_px(np.array([[0.0, 0.0], [1.0, 0.0]]))
    return img, px, float(x1 - x0)


def save_png(vmap: VoyageMap, path, dpi=100, legend_at=None):
    fig = Figure(figsize=(26, 15.5), dpi=dpi)
    ax = fig.add_axes((0.005, 0.005, 0.99, 0.96))
    draw_map(vmap, ax, legend_at=legend_at)
    fig.savefig(path, dpi=dpi)


def main(argv=None, prog="python -m voyage_env.render_map") -> int:
    from tradewinds.cli_args import ArgumentParser

    ap = ArgumentParser(prog=prog, description="Draw a Voyage board as a PNG (the picture "
                        "in docs/voyage_map.md).")
    ap.add_argument("out", nargs="?", default="docs/voyage_map.png",
                    help="the PNG to write (default %(default)s)")
    ap.add_argument("--map", default=None, help="a .map file (default: the shipped map)")
    args = ap.parse_args(argv)
    try:
        vmap = load_map(args.map)
        save_png(vmap, args.out)
    except (OSError, ValueError) as e:
        ap.exit(2, f"{prog}: error: {' '.join(str(e).split())}\n")
    print(f"wrote {args.out}: {vmap.num_hexes} sea spaces")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
