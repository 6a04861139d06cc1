"""Drawing helpers for the games' pictures (`render_mode="rgb_array"` and `"human"`).

A frame is a cached background (the static board, panel frames and legend, drawn once
per map and player count) plus the state drawn on a copy with Pillow: text, and small
anti-aliased sprites (discs, squares, ships) that are drawn once per colour and size.
Fonts are matplotlib's DejaVu Sans, so no system font is needed. Nothing here knows a game.

`HumanViewer` shows frames in a matplotlib window for `render_mode="human"` where a
display and an interactive backend exist; otherwise the env prints its text board.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

SUPERSAMPLE = 4  # sprites are drawn this much larger, then shrunk (anti-aliasing)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    from matplotlib import font_manager

    prop = font_manager.FontProperties(family="DejaVu Sans",
                                       weight="bold" if bold else "normal")
    return ImageFont.truetype(font_manager.findfont(prop), size)


def rgb(colour) -> tuple:
    """'#rrggbb' (or an (r, g, b) tuple) -> (r, g, b)."""
    if isinstance(colour, str):
        c = colour.lstrip("#")
        return tuple(int(c[i:i + 2], 16) for i in (0, 2, 4))
    return tuple(int(v) for v in colour[:3])


def ink_on(colour) -> str:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = rgb(colour)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def figure_to_array(fig) -> np.ndarray:
    """Draw a matplotlib `Figure` with Agg (no pyplot, no global backend) -> uint8[h, w, 3]."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


# ------------------------------------------------------------------ sprites
def _ship_polygons(s: float):
    """A small sailing ship in a box of side s: hull, then sail."""
    hull = [(0.06 * s, 0.62 * s), (0.94 * s, 0.62 * s), (0.78 * s, 0.9 * s),
            (0.22 * s, 0.9 * s)]
    sail = [(0.5 * s, 0.06 * s), (0.5 * s, 0.58 * s), (0.14 * s, 0.58 * s)]
    sail2 = [(0.54 * s, 0.16 * s), (0.54 * s, 0.58 * s), (0.84 * s, 0.58 * s)]
    return hull, sail, sail2


@lru_cache(maxsize=512)
def sprite(shape: str, fill: str, size: int, outline: str = "#1a1a1a",
           width: float = 1.2) -> Image.Image:
    """An anti-aliased RGBA sprite of `size` pixels: disc, ring, square, diamond, ship."""
    k = SUPERSAMPLE
    s = size * k
    w = max(1, round(width * k))
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (w // 2, w // 2, s - 1 - w // 2, s - 1 - w // 2)
    if shape == "disc":
        d.ellipse(box, fill=fill, outline=outline, width=w)
    elif shape == "ring":
        d.ellipse(box, outline=fill, width=w)
    elif shape == "square":
        d.rounded_rectangle(box, radius=s // 6, fill=fill, outline=outline, width=w)
    elif shape == "empty":
        d.rounded_rectangle(box, radius=s // 6, fill=None, outline=outline, width=w)
    elif shape == "halo":  # a soft light disc to set a piece off a busy background
        d.ellipse(box, fill=(255, 255, 255, 170), outline=(40, 40, 40, 200),
                  width=max(1, w // 2))
    elif shape == "diamond":
        m = s / 2
        d.polygon([(m, w), (s - w, m), (m, s - w), (w, m)], fill=fill, outline=outline,
                  width=w)
    elif shape == "ship":
        hull, sail, sail2 = _ship_polygons(s)
        d.polygon(sail, fill="#fbf6e9", outline=outline, width=w)
        d.polygon(sail2, fill="#fbf6e9", outline=outline, width=w)
        d.line([(0.52 * s, 0.04 * s), (0.52 * s, 0.64 * s)], fill=outline, width=w)
        d.polygon(hull, fill=fill, outline=outline, width=w)
    elif shape == "boat":  # a ship all in one colour (player ships)
        hull, sail, sail2 = _ship_polygons(s)
        d.polygon(sail, fill=fill, outline=outline, width=w)
        d.polygon(sail2, fill=fill, outline=outline, width=w)
        d.line([(0.52 * s, 0.04 * s), (0.52 * s, 0.64 * s)], fill=outline, width=w)
        d.polygon(hull, fill=fill, outline=outline, width=w)
    else:
        raise ValueError(f"unknown sprite shape {shape!r}")
    return img.resize((size, size), Image.LANCZOS)


def paste(img: Image.Image, spr: Image.Image, cx: float, cy: float) -> None:
    """Paste a sprite centred at (cx, cy)."""
    img.paste(spr, (round(cx - spr.width / 2), round(cy - spr.height / 2)), spr)


@lru_cache(maxsize=4096)
def _text_sprite(s: str, size: int, bold: bool, fill: str, anchor: str):
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((-left, -top), s, font=f, fill=fill, anchor=anchor)
    return img, left, top


def text(img: Image.Image, xy, s: str, size: int = 13, bold: bool = False,
         fill: str = "#1a1a1a", anchor: str = "la") -> float:
    """Draw `s` as `ImageDraw.text` would (same anchors), from a cache of rendered strings;
    returns the x just after the text (for left anchors)."""
    spr, left, top = _text_sprite(str(s), size, bold, fill, anchor)
    x, y = round(xy[0]), round(xy[1])
    img.paste(spr, (x + left, y + top), spr)
    return x + left + spr.width


@lru_cache(maxsize=1024)
def text_width(s: str, size: int = 13, bold: bool = False) -> float:
    return font(size, bold).getlength(s)


@lru_cache(maxsize=1024)
def labelled(shape: str, colour: str, size: int, label: str) -> Image.Image:
    """A sprite with a short centred label (cached: drawing text is the costly part)."""
    img = sprite(shape, colour, size).copy()
    if label:
        ImageDraw.Draw(img).text((size / 2, size / 2), label,
                                 font=font(max(8, size * 2 // 3), True),
                                 fill=ink_on(colour), anchor="mm")
    return img


def token(img: Image.Image, draw, cx, cy, colour: str, label: str, size: int = 18,
          shape: str = "square") -> None:
    """A coloured square (or disc) with a short label, e.g. a good with its barrels."""
    paste(img, labelled(shape, colour, size, label), cx, cy)


def supersampled(size: tuple, paint, background="#ffffff", factor: int = 3) -> Image.Image:
    """Paint at `factor` times the size with `paint(draw, factor)`, then shrink (AA shapes)."""
    big = Image.new("RGB", (size[0] * factor, size[1] * factor), background)
    paint(ImageDraw.Draw(big), factor)
    return big.resize(size, Image.LANCZOS)


class FrameCache:
    """A small LRU of backgrounds keyed by whatever fixes the static picture."""

    def __init__(self, size: int = 8):
        self.size = size
        self._items: OrderedDict = OrderedDict()

    def get(self, key, build):
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        value = build()
        self._items[key] = value
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def clear(self):
        self._items.clear()


def player_name(p: int) -> str:
    return f"player_{p}"


# ------------------------------------------------------------------ human mode
_NON_INTERACTIVE = {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}


def display_available() -> bool:
    """True where a window can be shown: a display (on Linux/BSD) and an interactive
    matplotlib backend."""
    if sys.platform not in ("darwin", "win32") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import matplotlib
        backend = matplotlib.get_backend().lower()
    except Exception:  # no usable GUI toolkit
        return False
    return backend not in _NON_INTERACTIVE and "inline" not in backend


class HumanViewer:
    """One matplotlib window that shows the latest frame (render_mode="human")."""

    def __init__(self, title: str = "tradewinds"):
        self.title = title
        self._fig = self._image = None

    def show(self, frame: np.ndarray) -> None:
        import matplotlib.pyplot as plt

        if self._fig is None or not plt.fignum_exists(self._fig.number):
            h, w = frame.shape[:2]
            self._fig = plt.figure(self.title, figsize=(w / 100, h / 100), dpi=100)
            ax = self._fig.add_axes((0, 0, 1, 1))
            ax.axis("off")
            self._image = ax.imshow(frame)
            plt.show(block=False)
        else:
            self._image.set_data(frame)
        self._fig.canvas.draw_idle()
        plt.pause(0.001)

    def close(self) -> None:
        if self._fig is not None:
            import matplotlib.pyplot as plt

            plt.close(self._fig)
            self._fig = self._image = None
