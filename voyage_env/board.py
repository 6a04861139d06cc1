"""The Voyage board as data: the map-file parser, its validation and the kernel arrays.

docs/design.md §12, docs/rules/voyage.md §3.2 (V14-V21), §7 (VA1-VA4, VA18, VA29); the
file format is described in docs/voyage_map.md.

Hex convention
--------------
Flat-top hexes in an "odd-q" offset grid: a space is addressed by (col, row); columns
stand side by side and every **odd** column is pushed half a hex **down**. Directions are
numbered N=0, NE=1, SE=2, S=3, SW=4, NW=5 (clockwise from north, VA1), and the
opposite of direction d is (d + 3) % 6. Neighbour offsets (dcol, drow):

    direction    even column    odd column
    N  (0)         ( 0, -1)      ( 0, -1)
    NE (1)         (+1, -1)      (+1,  0)
    SE (2)         (+1,  0)      (+1, +1)
    S  (3)         ( 0, +1)      ( 0, +1)
    SW (4)         (-1,  0)      (-1, +1)
    NW (5)         (-1, -1)      (-1,  0)

Only sea spaces are indexed (0..H-1, row-major: by row, then column). The arrays of
`VoyageMap` are read-only numpy arrays that a numba kernel takes as arguments, so tests
can hand the kernel a tiny map built with `map_from_text`.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAPS_DIR = Path(__file__).resolve().parent / "maps"
DEFAULT_MAP = MAPS_DIR / "default.map"

DIRS = ("N", "NE", "SE", "S", "SW", "NW")
"""Direction names; the index is the direction id used everywhere (current, neighbors)."""
N, NE, SE, S, SW, NW = range(6)

GOODS = ("chili", "brazilwood", "ivory", "pepper", "cinnamon", "silk", "nutmeg", "silver")
"""Goods in id order 0..7 (VA4, VA6)."""

DECKS = ("west", "east")
NO_CURRENT = -1

# (dcol, drow) per direction, for even and for odd columns (odd-q).
_OFFSETS = (
    ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),  # even column
    ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),  # odd column
)

# Terrain codes of the `terrain` grid.
VOID, LAND, SEA = 0, 1, 2

_SEA_CHARS = "~@"
_RESERVED = set(" .~@|#:*,")
_EVENT_CHARS = {"P": "pirate", "B": "blue", "R": "red"}
_HEMI_CHARS = {"W": 0, "E": 1}
_SECTIONS = ("terrain", "events", "hemisphere", "ports", "currents", "walls", "labels")


def step(col: int, row: int, direction: int) -> tuple[int, int]:
    """The (col, row) one step from (col, row) in `direction` (odd-q, flat-top)."""
    dc, dr = _OFFSETS[col & 1][direction]
    return col + dc, row + dr


def vp_for_year(year: int) -> int:
    """Discovery VP from the card's year (VA2): <=1499 1, 1500-1511 2, >=1512 3."""
    if year <= 1499:
        return 1
    if year <= 1511:
        return 2
    return 3


class MapError(ValueError):
    """A malformed map: `errors` lists (file, line, message), one per problem found.

    str() gives one `file:line: message` per problem (`file: message` when the problem
    belongs to no single line, e.g. a missing section).
    """

    def __init__(self, errors):
        self.errors = sorted(errors, key=lambda e: (e[0], e[1]))
        super().__init__("\n".join(
            f"{f}:{ln}: {msg}" if ln else f"{f}: {msg}" for f, ln, msg in self.errors))


@dataclass(frozen=True, eq=False)
class VoyageMap:
    """A loaded board. Arrays are read-only; H = number of sea spaces, P = number of ports."""

    name: str
    source: str
    width: int  # grid columns
    height: int  # grid rows
    terrain: np.ndarray  # uint8[height, width]: VOID, LAND or SEA
    index: np.ndarray  # int32[height, width]: sea-space index or -1
    coords: np.ndarray  # int16[H, 2]: (col, row)
    neighbors: np.ndarray  # int32[H, 6]: adjacent sea space per direction, -1 if none
    current: np.ndarray  # int8[H]: direction of the free step, -1 none (VA29)
    port: np.ndarray  # int16[H]: port id or -1
    pirate: np.ndarray  # uint8[H]
    blue: np.ndarray  # uint8[H]
    red: np.ndarray  # uint8[H]
    hemisphere: np.ndarray  # uint8[H]: 0 west (Atlantic), 1 east (Indian + Pacific)
    lisbon: int  # sea-space index of Lisbon
    port_name: tuple  # str[P]
    port_year: np.ndarray  # int16[P]
    port_vp: np.ndarray  # int8[P]
    port_deck: np.ndarray  # int8[P]: 0 west, 1 east
    port_good: np.ndarray  # int8[P]: good id or -1
    port_hex: np.ndarray  # int32[P]
    port_island: np.ndarray  # uint8[P]: drawn as an island in its own space
    port_label: tuple  # str[P]: label placement for drawing ("" = automatic)
    currents: tuple  # ((name, (hex, hex, ...)), ...) the chains as written
    walls: tuple  # ((hex, direction), ...) blocked sides between two sea spaces
    labels: tuple  # ((col, row, text), ...) map lettering for drawing

    @property
    def num_hexes(self) -> int:
        return int(self.coords.shape[0])

    @property
    def num_ports(self) -> int:
        return len(self.port_name)

    def hex_at(self, col: int, row: int) -> int:
        """Sea-space index at (col, row), or -1 (land, outside the board, off the grid)."""
        if 0 <= col < self.width and 0 <= row < self.height:
            return int(self.index[row, col])
        return -1

    def port_id(self, name: str) -> int:
        try:
            return self.port_name.index(name)
        except ValueError:
            raise KeyError(f"no port named {name!r} on map {self.name!r}") from None

    def current_ends(self) -> np.ndarray:
        """uint8[H]: 1 on the end-dot spaces (no arrow, but some arrow points in)."""
        ends = np.zeros(self.num_hexes, np.uint8)
        for h in range(self.num_hexes):
            d = self.current[h]
            if d >= 0:
                t = self.neighbors[h, d]
                if self.current[t] < 0:
                    ends[t] = 1
        return ends


# ----------------------------------------------------------------------------- parsing


class _Reader:
    def __init__(self, source: str):
        self.source = source
        self.errors: list[tuple[str, int, str]] = []

    def err(self, line: int, msg: str) -> None:
        self.errors.append((self.source, line, msg))


_ROW_RE = re.compile(r"^\s*(\d+)?\s*\|(.*)\|\s*$")
_HEADER_RE = re.compile(r"^\[(\w+)\]\s*$")
_KEY_RE = re.compile(r"^(\w+)\s*=\s*(.*?)\s*$")
_COORD_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def _split_sections(text: str, rd: _Reader):
    """Top-level `key = value` lines and the `[section]` bodies as [(line, text), ...]."""
    header: dict[str, tuple[int, str]] = {}
    sections: dict[str, tuple[int, list]] = {}
    current = None
    for ln, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _HEADER_RE.match(stripped)
        if m:
            current = m.group(1).lower()
            if current not in _SECTIONS:
                rd.err(ln, f"unknown section [{current}] (expected one of "
                           f"{', '.join('[' + s + ']' for s in _SECTIONS)})")
                current = "?"
            elif current in sections:
                rd.err(ln, f"section [{current}] appears twice (first at line "
                           f"{sections[current][0]})")
                current = "?"
            else:
                sections[current] = (ln, [])
            continue
        if current is None:
            m = _KEY_RE.match(stripped)
            if not m:
                rd.err(ln, f"expected 'key = value' or a [section] header, got {stripped!r}")
            elif m.group(1) not in ("name", "width", "height"):
                rd.err(ln, f"unknown setting {m.group(1)!r} (expected name, width, height)")
            else:
                header[m.group(1)] = (ln, m.group(2))
            continue
        if current != "?":
            sections[current][1].append((ln, line))
    return header, sections


def _parse_grid(section, body, rd: _Reader, width=None):
    """Rows `NN |chars|` -> list of (line, row string). Checks numbering and width."""
    rows = []
    for ln, line in body:
        m = _ROW_RE.match(line)
        if not m:
            rd.err(ln, f"[{section}] grid row must look like '12 |...|' (characters between "
                       f"two '|'), got {line.strip()!r}")
            continue
        if m.group(1) is not None and int(m.group(1)) != len(rows):
            rd.err(ln, f"[{section}] row is numbered {m.group(1)} but is row {len(rows)}")
        cells = m.group(2)
        if width is not None and len(cells) != width:
            rd.err(ln, f"[{section}] row {len(rows)} has {len(cells)} cells, expected {width}")
            cells = (cells + " " * width)[:width]
        rows.append((ln, cells))
    return rows


def _layer_check(section, head_line, rows, terrain, rd, allowed, sea_default="~"):
    """Common layer rule: land '.', outside ' ', sea '~' or one of `allowed`."""
    h = len(terrain)
    if len(rows) != h:
        rd.err(head_line, f"[{section}] has {len(rows)} rows, [terrain] has {h}")
    out = []
    for r, (ln, cells) in enumerate(rows[:h]):
        line_vals = []
        for c, ch in enumerate(cells):
            t = terrain[r][c] if c < len(terrain[r]) else VOID
            if t == SEA:
                if ch in allowed:
                    line_vals.append(ch)
                    continue
                if ch == sea_default and sea_default is not None:
                    line_vals.append(None)
                    continue
                want = "' or '".join(sorted(allowed) + ([sea_default] if sea_default else []))
                rd.err(ln, f"[{section}] col {c}: {ch!r} on a sea space (expected '{want}')")
            else:
                expect = "." if t == LAND else " "
                if ch != expect:
                    what = "land" if t == LAND else "outside the board"
                    rd.err(ln, f"[{section}] col {c}: {ch!r} where [terrain] has {what} "
                               f"(expected {expect!r})")
            line_vals.append(None)
        out.append(line_vals)
    return out


def _parse_dirs(tokens, ln, rd):
    dirs = []
    for tok in tokens:
        m = re.fullmatch(r"([A-Za-z]+)(?:\*(\d+))?", tok)
        name = m.group(1).upper() if m else None
        if not m or name not in DIRS:
            rd.err(ln, f"bad direction {tok!r} (use N NE SE S SW NW, optionally like 'S*3')")
            return None
        dirs += [DIRS.index(name)] * int(m.group(2) or 1)
    return dirs


@dataclass
class _Grid:
    """The parsed [terrain] grid and its sea-space index (filled step by step)."""

    line: int                     # line of the [terrain] header
    rows: list                    # [(line, cells)] of the grid
    width: int
    height: int
    terrain: list                 # [row][col] -> VOID / LAND / SEA
    port_cells: dict              # port symbol -> [(col, row, line)]
    lisbon_cells: list            # [(col, row, line)]
    index: np.ndarray | None = None   # [row, col] -> sea space id or -1
    coords: list | None = None        # sea space id -> (col, row)

    def hex_at(self, c: int, r: int) -> int:
        """The sea space at (col, row), or -1 (off the board, land, outside)."""
        if 0 <= c < self.width and 0 <= r < self.height:
            return int(self.index[r, c])
        return -1


def _declared_size(header, rd):
    """The optional ``width =`` and ``height =`` of the header (None when absent or bad)."""
    size = {"width": None, "height": None}
    for key in size:
        if key in header:
            ln, val = header[key]
            if not val.isdigit() or int(val) < 1:
                rd.err(ln, f"{key} must be a positive integer, got {val!r}")
            else:
                size[key] = int(val)
    return size["width"], size["height"]


def _parse_terrain(header, sections, rd) -> _Grid:
    """[terrain]: land, sea, Lisbon and the port symbols' cells."""
    declared_w, declared_h = _declared_size(header, rd)
    t_line, t_body = sections["terrain"]
    t_rows = _parse_grid("terrain", t_body, rd)
    if not t_rows:
        rd.err(t_line, "[terrain] has no rows")
        raise MapError(rd.errors)
    width = declared_w if declared_w is not None else len(t_rows[0][1])
    for ln, cells in t_rows:
        if len(cells) != width:
            rd.err(ln, f"[terrain] row has {len(cells)} cells, expected {width}")
    if declared_h is not None and declared_h != len(t_rows):
        rd.err(header["height"][0], f"height = {declared_h} but [terrain] has "
                                    f"{len(t_rows)} rows")
    height = len(t_rows)
    grid = _Grid(t_line, t_rows, width, height, [[VOID] * width for _ in range(height)], {}, [])
    for r, (ln, cells) in enumerate(t_rows):
        for c, ch in enumerate(cells[:width]):
            if ch == ".":
                grid.terrain[r][c] = LAND
            elif ch == " ":
                grid.terrain[r][c] = VOID
            elif ch in _SEA_CHARS:
                grid.terrain[r][c] = SEA
                if ch == "@":
                    grid.lisbon_cells.append((c, r, ln))
            elif ch in _RESERVED:
                rd.err(ln, f"[terrain] col {c}: character {ch!r} is not allowed in the grid")
            else:  # a port symbol; checked against [ports] later
                grid.terrain[r][c] = SEA
                grid.port_cells.setdefault(ch, []).append((c, r, ln))
    if not grid.lisbon_cells:
        rd.err(t_line, "no Lisbon: put exactly one '@' on a sea space of [terrain]")
    for c, _r, ln in grid.lisbon_cells[1:]:
        rd.err(ln, f"[terrain] col {c}: second Lisbon '@' "
                   f"(first at line {grid.lisbon_cells[0][2]})")
    return grid


def _parse_port_line(ln, line, rd, seen_sym, seen_name):
    """One [ports] line as a dict, or None when it is bad (every problem reported)."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 5 or len(parts) > 7:
        rd.err(ln, "[ports] expected 'symbol | name | year | deck | good [| vp [| flags]]', "
                   f"got {line.strip()!r}")
        return None
    parts += [""] * (7 - len(parts))
    sym, pname, year_s, deck_s, good_s, vp_s, flags_s = parts
    bad = False
    if len(sym) != 1 or sym in _RESERVED:
        rd.err(ln, f"[ports] symbol must be one character other than "
                   f"{' '.join(sorted(repr(x) for x in _RESERVED))}, got {sym!r}")
        bad = True
    elif sym in seen_sym:
        rd.err(ln, f"[ports] duplicate symbol {sym!r} (first at line {seen_sym[sym]})")
        bad = True
    if not pname:
        rd.err(ln, "[ports] empty port name")
        bad = True
    elif pname in seen_name:
        rd.err(ln, f"[ports] duplicate port {pname!r} (first at line {seen_name[pname]})")
        bad = True
    if pname.lower() == "lisbon":
        rd.err(ln, "[ports] Lisbon is the home space '@', not a port to discover")
        bad = True
    if not re.fullmatch(r"\d{3,4}", year_s):
        rd.err(ln, f"[ports] year must be a number like 1498, got {year_s!r}")
        bad = True
    if deck_s.lower() not in DECKS:
        rd.err(ln, f"[ports] deck must be 'west' or 'east', got {deck_s!r}")
        bad = True
    good = -1
    if good_s not in ("-", ""):
        if good_s.lower() not in GOODS:
            rd.err(ln, f"[ports] unknown good {good_s!r} (one of {', '.join(GOODS)} or '-')")
            bad = True
        else:
            good = GOODS.index(good_s.lower())
    vp = None
    if vp_s not in ("-", ""):
        if not re.fullmatch(r"\d", vp_s):
            rd.err(ln, f"[ports] vp must be a digit or '-', got {vp_s!r}")
            bad = True
        else:
            vp = int(vp_s)
    island, label = 0, ""
    for flag in flags_s.split():
        if flag == "island":
            island = 1
        elif flag.startswith("label="):
            label = flag[6:].upper()
            if label not in ("N", "NE", "E", "SE", "S", "SW", "W", "NW", "C"):
                rd.err(ln, f"[ports] label= wants N NE E SE S SW W NW or C, got {flag!r}")
        else:
            rd.err(ln, f"[ports] unknown flag {flag!r} (known: island, label=<dir>)")
    if sym and sym not in seen_sym:
        seen_sym[sym] = ln
    if pname and pname not in seen_name:
        seen_name[pname] = ln
    if bad:
        return None
    year = int(year_s)
    return dict(sym=sym, name=pname, year=year, deck=DECKS.index(deck_s.lower()), good=good,
                vp=vp_for_year(year) if vp is None else vp, island=island, label=label, line=ln)


def _parse_ports(sections, grid: _Grid, rd) -> list:
    """[ports], each port placed on its symbol's cell of [terrain]."""
    seen_sym: dict[str, int] = {}
    seen_name: dict[str, int] = {}
    ports = []
    for ln, line in sections.get("ports", (0, []))[1]:
        port = _parse_port_line(ln, line, rd, seen_sym, seen_name)
        if port is not None:
            ports.append(port)
    for sym, cells in grid.port_cells.items():
        if sym not in seen_sym:
            for c, _r, ln in cells:
                rd.err(ln, f"[terrain] col {c}: unknown character {sym!r} (not '.', '~', ' ', "
                           f"'@' and not a symbol in [ports])")
        else:
            for c, _r, ln in cells[1:]:
                rd.err(ln, f"[terrain] col {c}: port symbol {sym!r} placed twice (also at "
                           f"col {cells[0][0]} on line {cells[0][2]})")
    for p in ports:
        if p["sym"] not in grid.port_cells:
            rd.err(p["line"], f"[ports] port {p['name']!r} (symbol {p['sym']!r}) is not placed "
                              "in [terrain]")
        else:
            c, r, _ = grid.port_cells[p["sym"]][0]
            p["cell"] = (c, r)
    return ports


def _index_sea(grid: _Grid, rd) -> None:
    """Number the sea spaces row by row (grid.index, grid.coords)."""
    grid.index = np.full((grid.height, grid.width), -1, np.int32)
    grid.coords = []
    for r in range(grid.height):
        for c in range(grid.width):
            if grid.terrain[r][c] == SEA:
                grid.index[r, c] = len(grid.coords)
                grid.coords.append((c, r))
    if not grid.coords:
        rd.err(grid.line, "[terrain] has no sea space")
        raise MapError(rd.errors)


def _parse_walls(sections, grid: _Grid, rd):
    """[walls]: the blocked (space, direction) sides, both ways, and the walls as written."""
    walls, blocked = [], set()
    for ln, line in sections.get("walls", (0, []))[1]:
        parts = line.split()
        m = _COORD_RE.match(parts[0]) if parts else None
        if len(parts) != 2 or not m or parts[1].upper() not in DIRS:
            rd.err(ln, f"[walls] expected 'col,row DIR', got {line.strip()!r}")
            continue
        c, r, d = int(m.group(1)), int(m.group(2)), DIRS.index(parts[1].upper())
        a = grid.hex_at(c, r)
        b = grid.hex_at(*step(c, r, d))
        if a < 0 or b < 0:
            rd.err(ln, f"[walls] {c},{r} {DIRS[d]} is not a side between two sea spaces")
            continue
        blocked.add((a, d))
        blocked.add((b, (d + 3) % 6))
        walls.append((a, d))
    return walls, blocked


def _neighbors(grid: _Grid, blocked) -> np.ndarray:
    neighbors = np.full((len(grid.coords), 6), -1, np.int32)
    for h, (c, r) in enumerate(grid.coords):
        for d in range(6):
            t = grid.hex_at(*step(c, r, d))
            if t >= 0 and (h, d) not in blocked:
                neighbors[h, d] = t
    return neighbors


def _parse_layers(sections, grid: _Grid, rd):
    """[events] (pirate, blue, red spaces) and [hemisphere] (west 0 / east 1 per space)."""
    H = len(grid.coords)
    layers = {"P": np.zeros(H, np.uint8), "B": np.zeros(H, np.uint8),
              "R": np.zeros(H, np.uint8)}
    if "events" in sections:
        e_line, e_body = sections["events"]
        e_rows = _parse_grid("events", e_body, rd, grid.width)
        vals = _layer_check("events", e_line, e_rows, grid.terrain, rd, set(_EVENT_CHARS))
        for r, row in enumerate(vals):
            for c, v in enumerate(row):
                if v is not None:
                    layers[v][grid.index[r, c]] = 1
    hemisphere = np.zeros(H, np.uint8)
    if "hemisphere" in sections:
        h_line, h_body = sections["hemisphere"]
        h_rows = _parse_grid("hemisphere", h_body, rd, grid.width)
        vals = _layer_check("hemisphere", h_line, h_rows, grid.terrain, rd, set(_HEMI_CHARS),
                            None)
        for r, row in enumerate(vals):
            for c, v in enumerate(row):
                if v is not None:
                    hemisphere[grid.index[r, c]] = _HEMI_CHARS[v]
    return layers["P"], layers["B"], layers["R"], hemisphere


def _parse_currents(sections, grid: _Grid, neighbors, rd):
    """[currents]: one arrow direction per space (NO_CURRENT elsewhere), the chains as
    (name, spaces), and the line that set each arrow."""
    H = len(grid.coords)
    current = np.full(H, NO_CURRENT, np.int8)
    arrow_line = np.zeros(H, np.int64)
    chains = []
    chain_names: dict[str, int] = {}
    for ln, line in sections.get("currents", (0, []))[1]:
        parts = [p.strip() for p in line.split(":")]
        if len(parts) != 3 or not parts[0]:
            rd.err(ln, f"[currents] expected 'name : col,row : DIR DIR ...', got {line.strip()!r}")
            continue
        cname, start, path = parts
        if cname in chain_names:
            rd.err(ln, f"[currents] duplicate current name {cname!r} "
                       f"(first at line {chain_names[cname]})")
        chain_names.setdefault(cname, ln)
        m = _COORD_RE.match(start)
        if not m:
            rd.err(ln, f"[currents] {cname}: start must be 'col,row', got {start!r}")
            continue
        dirs = _parse_dirs(path.split(), ln, rd)
        if dirs is None:
            continue
        if not dirs:
            rd.err(ln, f"[currents] {cname}: no steps")
            continue
        c, r = int(m.group(1)), int(m.group(2))
        h = grid.hex_at(c, r)
        if h < 0:
            rd.err(ln, f"[currents] {cname}: start {c},{r} is not a sea space")
            continue
        hexes = [h]
        for k, d in enumerate(dirs):
            nc, nr = step(c, r, d)
            t = grid.hex_at(nc, nr)
            if t < 0 or neighbors[h, d] < 0:
                what = ("off the map" if not (0 <= nc < grid.width and 0 <= nr < grid.height)
                        else "into land" if grid.terrain[nr][nc] == LAND
                        else "outside the board" if grid.terrain[nr][nc] == VOID
                        else "across a wall")
                rd.err(ln, f"[currents] {cname}: step {k + 1} ({DIRS[d]}) from {c},{r} "
                           f"points {what} ({nc},{nr})")
                break
            if current[h] != NO_CURRENT:
                rd.err(ln, f"[currents] {cname}: space {c},{r} already has a {DIRS[current[h]]} "
                           f"arrow from line {arrow_line[h]}")
                break
            current[h] = d
            arrow_line[h] = ln
            h, c, r = t, nc, nr
            hexes.append(h)
        else:
            chains.append((cname, tuple(hexes)))
    return current, chains, arrow_line


def _check_no_cycles(grid: _Grid, neighbors, current, arrow_line, rd) -> None:
    """A current must end on a space without arrow (VA29): the arrows form no cycle."""
    state = np.zeros(len(grid.coords), np.int8)  # 0 new, 1 on path, 2 done
    for s in range(len(grid.coords)):
        if current[s] == NO_CURRENT or state[s]:
            continue
        path = []
        h = s
        while h >= 0 and current[h] != NO_CURRENT and state[h] == 0:
            state[h] = 1
            path.append(h)
            h = int(neighbors[h, current[h]])
        if h >= 0 and state[h] == 1:
            cyc = path[path.index(h):]
            where = " -> ".join(f"{grid.coords[x][0]},{grid.coords[x][1]}" for x in cyc + [h])
            rd.err(int(arrow_line[h]), f"[currents] the arrows form a cycle of {len(cyc)} "
                                       f"spaces ({where}); a current must end on a space "
                                       "without arrow")
        for x in path:
            state[x] = 2


def _parse_labels(sections, rd) -> list:
    labels = []
    for ln, line in sections.get("labels", (0, []))[1]:
        parts = line.split(":", 1)
        m = _COORD_RE.match(parts[0]) if len(parts) == 2 else None
        if not m or not parts[1].strip():
            rd.err(ln, f"[labels] expected 'col,row : text', got {line.strip()!r}")
            continue
        labels.append((int(m.group(1)), int(m.group(2)), parts[1].strip()))
    return labels


def _check_reachable(grid: _Grid, neighbors, lisbon, rd) -> None:
    """Every sea space can be reached from Lisbon (undirected: steps against a current
    cost a disc but are legal)."""
    seen = np.zeros(len(grid.coords), bool)
    seen[lisbon] = True
    q = deque([lisbon])
    while q:
        h = q.popleft()
        for t in neighbors[h]:
            if t >= 0 and not seen[t]:
                seen[t] = True
                q.append(int(t))
    for h in np.flatnonzero(~seen)[:20]:
        c, r = grid.coords[h]
        rd.err(grid.rows[r][0], f"[terrain] col {c}: sea space {c},{r} cannot be reached "
                                "from Lisbon")


def _read_only(a):
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def parse_map_text(text: str, source: str = "<string>") -> VoyageMap:
    """Parse and validate a map file's text; raise MapError listing every problem found.

    The sections are read in dependency order: terrain, ports, the sea index, walls (which
    the neighbours need), events and hemisphere, currents, labels; then the whole map is
    checked (no current cycle, every space reachable from Lisbon)."""
    rd = _Reader(source)
    header, sections = _split_sections(text, rd)
    name = header.get("name", (0, Path(source).stem))[1]
    for required in ("terrain", "hemisphere", "ports"):
        if required not in sections:
            rd.err(0, f"missing section [{required}]")
    if rd.errors and "terrain" not in sections:
        raise MapError(rd.errors)

    grid = _parse_terrain(header, sections, rd)
    ports = _parse_ports(sections, grid, rd)
    _index_sea(grid, rd)
    walls, blocked = _parse_walls(sections, grid, rd)
    neighbors = _neighbors(grid, blocked)
    pirate, blue, red, hemisphere = _parse_layers(sections, grid, rd)
    lisbon = -1
    if grid.lisbon_cells:
        c, r, ln = grid.lisbon_cells[0]
        lisbon = int(grid.index[r, c])
        if pirate[lisbon] or blue[lisbon] or red[lisbon]:
            rd.err(ln, "Lisbon '@' must not be a pirate, blue or red space")
    current, chains, arrow_line = _parse_currents(sections, grid, neighbors, rd)
    _check_no_cycles(grid, neighbors, current, arrow_line, rd)
    labels = _parse_labels(sections, rd)
    if lisbon >= 0:
        _check_reachable(grid, neighbors, lisbon, rd)
    if rd.errors:
        raise MapError(rd.errors)
    return _build_map(name, source, grid, ports, neighbors, current, pirate, blue, red,
                      hemisphere, lisbon, chains, walls, labels)


def _build_map(name, source, grid: _Grid, ports, neighbors, current, pirate, blue, red,
               hemisphere, lisbon, chains, walls, labels) -> VoyageMap:
    H, P = len(grid.coords), len(ports)
    port = np.full(H, -1, np.int16)
    port_hex = np.zeros(P, np.int32)
    for i, p in enumerate(ports):
        h = int(grid.index[p["cell"][1], p["cell"][0]])
        port[h] = i
        port_hex[i] = h
    ro = _read_only
    return VoyageMap(
        name=name,
        source=source,
        width=grid.width,
        height=grid.height,
        terrain=ro(np.array(grid.terrain, np.uint8)),
        index=ro(grid.index),
        coords=ro(np.array(grid.coords, np.int16).reshape(H, 2)),
        neighbors=ro(neighbors),
        current=ro(current),
        port=ro(port),
        pirate=ro(pirate),
        blue=ro(blue),
        red=ro(red),
        hemisphere=ro(hemisphere),
        lisbon=lisbon,
        port_name=tuple(p["name"] for p in ports),
        port_year=ro(np.array([p["year"] for p in ports], np.int16)),
        port_vp=ro(np.array([p["vp"] for p in ports], np.int8)),
        port_deck=ro(np.array([p["deck"] for p in ports], np.int8)),
        port_good=ro(np.array([p["good"] for p in ports], np.int8)),
        port_hex=ro(port_hex),
        port_island=ro(np.array([p["island"] for p in ports], np.uint8)),
        port_label=tuple(p["label"] for p in ports),
        currents=tuple(chains),
        walls=tuple(walls),
        labels=tuple(labels),
    )


def load_map(path=None) -> VoyageMap:
    """Load a map file (the default board when `path` is None). Raises MapError."""
    p = Path(path) if path is not None else DEFAULT_MAP
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise MapError([(str(p), 0, f"cannot read map file: {e.strerror or e}")]) from e
    except UnicodeDecodeError as e:
        raise MapError([(str(p), 0, f"map file is not UTF-8 text: {e}")]) from e
    return parse_map_text(text, source=str(p))


def map_from_text(grid: str, ports: str = "", currents: str = "", events: str | None = None,
                  hemisphere: str | None = None, walls: str = "",
                  name: str = "tiny") -> VoyageMap:
    """Build a (small) map from plain grids, for tests.

    `grid` is the terrain, one text line per row without frames ('.' land, '~' sea,
    '@' Lisbon, port symbols); common indentation is removed and short rows are padded
    with ' ' (outside the board). `events` / `hemisphere` are optional layers in the same
    shape (default: no events, every sea space west). `ports`, `currents`, `walls` are the
    bodies of those sections in the map-file syntax, e.g.
    ``ports="A | Guinea | 1444 | west | chili"``, ``currents="c : 1,0 : S S"``.
    """
    import textwrap

    def rows(text):
        lines = textwrap.dedent(text).strip("\n").splitlines()
        return [ln.rstrip() for ln in lines]

    g = rows(grid)
    width = max(len(r) for r in g) if g else 0

    def framed(lines):
        return "\n".join(f"{i} |{ln.ljust(width)}|" for i, ln in enumerate(lines))

    if hemisphere is None:
        hemisphere = "\n".join(
            "".join("W" if ch not in ". " else ch for ch in ln.ljust(width)) for ln in g)
    parts = [f"name = {name}", f"width = {width}", "[terrain]", framed(g)]
    if events is not None:
        parts += ["[events]", framed(rows(events))]
    parts += ["[hemisphere]", framed(rows(hemisphere)), "[ports]", textwrap.dedent(ports),
              "[currents]", textwrap.dedent(currents), "[walls]", textwrap.dedent(walls)]
    return parse_map_text("\n".join(parts), source=f"<{name}>")
