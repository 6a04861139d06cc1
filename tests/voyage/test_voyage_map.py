"""The Voyage board data: the default map's content and the map-file loader (docs/rules/voyage.md
V14-V21, VA1-VA4, VA18, VA29)."""

import math
from collections import deque

import numpy as np
import pytest

from voyage_env.board import (
    DEFAULT_MAP,
    DIRS,
    GOODS,
    MapError,
    load_map,
    map_from_text,
    parse_map_text,
    step,
    vp_for_year,
)

# docs/rules/voyage.md §1, the target cards (ASCII spellings; VA3).
WEST = {
    "Labrador": 1500, "Terra Nova": 1498, "Florida": 1498, "Azores": 1427, "Madeira": 1419,
    "Ceuta": 1415, "Cape Bojador": 1434, "Guinea": 1444, "Cape Verde": 1458,
    "Porto Seguro": 1500, "Sao Tome": 1471, "Mina": 1482, "Luanda": 1485, "Congo": 1482,
    "Cape of Good Hope": 1487, "Mozambique": 1498,
}
EAST = {
    "Sao Lourenco": 1498, "Mauritius": 1505, "Maldives": 1518, "Muscat": 1507,
    "Mogadishu": 1499, "Bahrain": 1510, "Diu": 1513, "Calicut": 1498, "Ceylon": 1505,
    "Melaka": 1509, "Siam": 1511, "Mombasa": 1498, "Moluccas": 1512, "Timor": 1512,
    "Macau": 1515, "Tanegashima": 1542,
}
GOODS_PORTS = {
    "Guinea": "chili", "Porto Seguro": "brazilwood", "Mina": "ivory", "Calicut": "pepper",
    "Ceylon": "cinnamon", "Macau": "silk", "Moluccas": "nutmeg", "Tanegashima": "silver",
}


@pytest.fixture(scope="module")
def m():
    return load_map()


def bfs(m, start, allowed=None):
    seen = {start}
    q = deque([start])
    while q:
        h = q.popleft()
        for t in m.neighbors[h]:
            t = int(t)
            if t >= 0 and t not in seen and (allowed is None or allowed(t)):
                seen.add(t)
                q.append(t)
    return seen


def dist_from(m, start):
    d = {start: 0}
    q = deque([start])
    while q:
        h = q.popleft()
        for t in m.neighbors[h]:
            t = int(t)
            if t >= 0 and t not in d:
                d[t] = d[h] + 1
                q.append(t)
    return d


# ---------------------------------------------------------------- default map content


def test_default_map_loads_with_kernel_ready_arrays(m):
    H, P = m.num_hexes, m.num_ports
    assert 250 <= H <= 450
    assert P == 32
    expected = {
        "neighbors": (np.int32, (H, 6)), "current": (np.int8, (H,)), "port": (np.int16, (H,)),
        "pirate": (np.uint8, (H,)), "blue": (np.uint8, (H,)), "red": (np.uint8, (H,)),
        "hemisphere": (np.uint8, (H,)), "coords": (np.int16, (H, 2)),
        "port_year": (np.int16, (P,)), "port_vp": (np.int8, (P,)), "port_deck": (np.int8, (P,)),
        "port_good": (np.int8, (P,)), "port_hex": (np.int32, (P,)),
    }
    for name, (dtype, shape) in expected.items():
        a = getattr(m, name)
        assert a.dtype == dtype and a.shape == shape, name
        assert not a.flags.writeable, name
    assert isinstance(m.lisbon, int) and 0 <= m.lisbon < H
    assert len(m.port_name) == P and m.name
    assert GOODS == ("chili", "brazilwood", "ivory", "pepper", "cinnamon", "silk", "nutmeg",
                     "silver")
    assert DIRS == ("N", "NE", "SE", "S", "SW", "NW")
    assert load_map(DEFAULT_MAP).num_hexes == H  # explicit path == default


def test_sea_index_and_coords_agree(m):
    for h, (c, r) in enumerate(m.coords):
        assert m.index[r, c] == h and m.hex_at(int(c), int(r)) == h
    assert (m.index >= 0).sum() == m.num_hexes
    assert m.hex_at(-1, 0) == -1 and m.hex_at(0, m.height) == -1


def test_ports_match_the_target_card_table(m):
    names = {n: p for p, n in enumerate(m.port_name)}
    assert set(names) == set(WEST) | set(EAST)
    for table, deck in ((WEST, 0), (EAST, 1)):
        for name, year in table.items():
            p = names[name]
            assert m.port_year[p] == year, name
            assert m.port_deck[p] == deck, name
            assert m.port_vp[p] == vp_for_year(year), name
    assert (m.port_deck == 0).sum() == 16 and (m.port_deck == 1).sum() == 16
    assert m.port_deck[names["Cape of Good Hope"]] == 0
    assert m.port_deck[names["Mozambique"]] == 0
    # the rulebook's known values (VA2)
    assert m.port_vp[names["Cape of Good Hope"]] == 1
    assert m.port_vp[names["Ceylon"]] == 2
    assert m.port_vp[names["Melaka"]] == 2
    assert [vp_for_year(y) for y in (1415, 1499, 1500, 1511, 1512, 1542)] == [1, 1, 2, 2, 3, 3]


def test_goods_ports(m):
    got = {m.port_name[p]: GOODS[g] for p, g in enumerate(m.port_good) if g >= 0}
    assert got == GOODS_PORTS


def test_port_spaces_are_consistent_and_on_the_coast(m):
    assert len(set(m.port_hex.tolist())) == m.num_ports
    for p in range(m.num_ports):
        h = int(m.port_hex[p])
        assert m.port[h] == p
        if not m.port_island[p]:
            c, r = (int(v) for v in m.coords[h])
            land = [m.terrain[rr, cc] == 1 for cc, rr in (step(c, r, d) for d in range(6))
                    if 0 <= cc < m.width and 0 <= rr < m.height]
            assert any(land), f"{m.port_name[p]} is not next to land"
    assert (m.port >= 0).sum() == m.num_ports
    assert m.port[m.lisbon] == -1, "Lisbon is not a port to discover"


def test_lisbon_is_plain(m):
    assert not m.blue[m.lisbon] and not m.red[m.lisbon] and not m.pirate[m.lisbon]
    assert m.hemisphere[m.lisbon] == 0


def test_every_space_and_port_reachable_from_lisbon(m):
    seen = bfs(m, m.lisbon)
    assert len(seen) == m.num_hexes
    assert set(m.port_hex.tolist()) <= seen


def test_neighbours_symmetric(m):
    for h in range(m.num_hexes):
        for d in range(6):
            t = m.neighbors[h, d]
            if t >= 0:
                assert m.neighbors[t, (d + 3) % 6] == h, (h, DIRS[d])


def test_neighbour_geometry_is_flat_top_odd_q(m):
    """Direction d points to the hex centre at 90, 30, -30, -90, -150, 150 degrees."""
    def centre(c, r):
        return 1.5 * c, -math.sqrt(3) * (r + 0.5 * (c & 1))

    angles = (90, 30, -30, -90, -150, 150)
    for c in (4, 5):
        for r in (3, 4):
            x0, y0 = centre(c, r)
            for d in range(6):
                x1, y1 = centre(*step(c, r, d))
                assert math.isclose(math.hypot(x1 - x0, y1 - y0), math.sqrt(3))
                assert math.isclose(math.degrees(math.atan2(y1 - y0, x1 - x0)), angles[d],
                                    abs_tol=1e-9)
    # the arrays follow the same table, except across a wall
    walls = set(m.walls)
    for h, (c, r) in enumerate(m.coords):
        for d in range(6):
            t = m.hex_at(*step(int(c), int(r), d))
            walled = (h, d) in walls or (t, (d + 3) % 6) in walls
            assert m.neighbors[h, d] == (-1 if walled else t)


def test_walls_block_the_side_both_ways(m):
    assert m.walls, "the default map separates the Andaman Sea from the Gulf of Siam"
    for h, d in m.walls:
        c, r = (int(v) for v in m.coords[h])
        t = m.hex_at(*step(c, r, d))
        assert t >= 0
        assert m.neighbors[h, d] == -1 and m.neighbors[t, (d + 3) % 6] == -1


def test_currents_are_directed_chains(m):
    arrows = np.flatnonzero(m.current >= 0)
    assert len(arrows) >= 60
    for h in arrows:
        t = m.neighbors[h, m.current[h]]
        assert t >= 0, "a current points into land, off the map or across a wall"
        assert not (m.current[t] >= 0 and m.neighbors[t, m.current[t]] == h), "2-cycle"
    # following arrows always ends on a space without arrow (VA29): no cycle at all
    for h in arrows:
        seen = set()
        while m.current[h] >= 0:
            assert h not in seen, "current cycle"
            seen.add(h)
            h = m.neighbors[h, m.current[h]]
    ends = m.current_ends()
    assert ends.sum() >= 10 and not (m.current[ends == 1] >= 0).any()
    # each chain as written: consecutive spaces, its last space has no arrow or joins another
    for name, hexes in m.currents:
        assert len(hexes) >= 2, name
        for a, b in zip(hexes[:-1], hexes[1:], strict=True):
            assert m.neighbors[a, m.current[a]] == b, name
        assert m.current[hexes[-1]] < 0 or any(
            hexes[-1] in other[:-1] for n2, other in m.currents if n2 != name), name
    names = " ".join(n for n, _ in m.currents)
    for historical in ("Canary", "Benguela", "Agulhas", "Brazil", "Volta", "Monsoon",
                       "Gulf Stream", "Mozambique"):
        assert historical in names


def test_canary_current_runs_south_along_africa(m):
    chain = dict(m.currents)["Canary Current"]
    rows = [int(m.coords[h][1]) for h in chain]
    assert rows == sorted(rows) and rows[-1] - rows[0] >= 4
    assert m.port_name.index("Cape Verde") == m.port[chain[-1]]


def test_hemispheres(m):
    west = np.flatnonzero(m.hemisphere == 0)
    east = np.flatnonzero(m.hemisphere == 1)
    assert len(west) and len(east) and len(west) + len(east) == m.num_hexes
    assert len(bfs(m, int(west[0]), lambda t: m.hemisphere[t] == 0)) == len(west)
    assert len(bfs(m, int(east[0]), lambda t: m.hemisphere[t] == 1)) == len(east)
    hemi = {n: int(m.hemisphere[m.port_hex[p]]) for p, n in enumerate(m.port_name)}
    assert all(hemi[n] == 0 for n in WEST if n != "Mozambique")
    assert all(hemi[n] == 1 for n in EAST)
    assert hemi["Mozambique"] == 1  # a west-deck card, but in the Indian Ocean
    # the line is at the Cape: every west/east boundary side is within 3 steps of it
    cape = int(m.port_hex[m.port_name.index("Cape of Good Hope")])
    near = dist_from(m, cape)
    for h in range(m.num_hexes):
        for t in m.neighbors[h]:
            if t >= 0 and m.hemisphere[t] != m.hemisphere[h]:
                assert near[h] <= 3


def test_event_spaces(m):
    assert 25 <= m.blue.sum() <= 40
    assert 20 <= m.red.sum() <= 35
    assert 5 <= m.pirate.sum() <= 15
    assert not ((m.blue + m.red + m.pirate) > 1).any(), "one symbol per space"
    cape = int(m.port_hex[m.port_name.index("Cape of Good Hope")])
    near = dist_from(m, cape)
    red_near_cape = sum(1 for h in np.flatnonzero(m.red) if near.get(int(h), 99) <= 3)
    assert red_near_cape >= 8, "many red spaces around the Cape (rulebook ch. 8, E6, E11)"
    # E12: a blue space east of the line from which the Cape port is within 4 spaces
    assert any(m.blue[h] and m.hemisphere[h] == 1 and near.get(int(h), 99) <= 4
               for h in range(m.num_hexes))


def test_geography_is_plausible(m):
    pos = {n: tuple(int(v) for v in m.coords[m.port_hex[p]]) for p, n in enumerate(m.port_name)}
    lis_c, lis_r = (int(v) for v in m.coords[m.lisbon])
    for n in ("Labrador", "Terra Nova", "Florida", "Azores", "Porto Seguro"):
        assert pos[n][0] < lis_c, n  # the New World and the Azores lie west of Lisbon
    for n in EAST:
        assert pos[n][0] > pos["Cape of Good Hope"][0], n
    african = ("Cape Bojador", "Guinea", "Mina", "Congo", "Luanda", "Mozambique", "Mombasa")
    assert all(pos["Cape of Good Hope"][1] > pos[n][1] for n in african)
    assert pos["Labrador"][1] < pos["Terra Nova"][1] < pos["Florida"][1]
    assert pos["Calicut"][0] < pos["Ceylon"][0] < pos["Melaka"][0] < pos["Moluccas"][0]
    assert pos["Tanegashima"][1] < pos["Macau"][1]


def test_arrays_work_in_numba():
    numba = pytest.importorskip("numba")
    m = load_map()

    @numba.njit(cache=False)
    def free_run(neighbors, current, start):
        h, n = start, 0
        while current[h] >= 0 and n < 1000:
            h = neighbors[h, current[h]]
            n += 1
        return h, n

    chain = dict(m.currents)["Benguela Current"]
    end, n = free_run(m.neighbors, m.current, chain[0])
    assert end == chain[-1] and n == len(chain) - 1


# ---------------------------------------------------------------- tiny maps for kernel tests


def test_tiny_map_from_text():
    t = map_from_text(
        """
        ~@~A
        ~~.~
        ~~~~
        """,
        ports="A | Guinea | 1444 | west | chili",
        currents="c : 0,0 : S S",
        events="~~~~\n~P.B\n~~R~",
        hemisphere="WWEE\nWW.E\nWWEE",
    )
    assert t.num_hexes == 11 and t.num_ports == 1 and t.name == "tiny"
    assert t.coords[t.lisbon].tolist() == [1, 0]
    a = t.hex_at(3, 0)
    assert t.port[a] == 0 and t.port_good[0] == GOODS.index("chili") and t.port_vp[0] == 1
    assert t.current[t.hex_at(0, 0)] == DIRS.index("S")
    assert t.current[t.hex_at(0, 1)] == DIRS.index("S")
    assert t.current[t.hex_at(0, 2)] == -1 and t.current_ends()[t.hex_at(0, 2)] == 1
    assert t.pirate[t.hex_at(1, 1)] and t.blue[t.hex_at(3, 1)] and t.red[t.hex_at(2, 2)]
    assert t.hemisphere[t.hex_at(2, 0)] == 1 and t.hemisphere[t.hex_at(0, 0)] == 0
    # odd-q: (1,0) is odd, its SE neighbour is (2,1) = land, its S is (1,1)
    lis = t.lisbon
    assert t.neighbors[lis, DIRS.index("SE")] == -1
    assert t.neighbors[lis, DIRS.index("S")] == t.hex_at(1, 1)
    assert t.neighbors[lis, DIRS.index("NE")] == t.hex_at(2, 0)
    assert t.neighbors[lis, DIRS.index("N")] == -1


def test_tiny_map_wall_blocks_passage():
    open_ = map_from_text("@~\n~~")
    walled = map_from_text("@~\n~~", walls="0,0 SE")
    a, b = open_.hex_at(0, 0), open_.hex_at(1, 0)
    assert open_.neighbors[a, DIRS.index("SE")] == b
    assert walled.neighbors[a, DIRS.index("SE")] == -1
    assert walled.neighbors[b, DIRS.index("NW")] == -1


def test_render_tiny_map_to_rgb():
    from voyage_env.render_map import render_rgb_array

    t = map_from_text("~@~A\n~~.~", ports="A | Guinea | 1444 | west | chili",
                      currents="c : 0,0 : S")
    img = render_rgb_array(t, ships=[t.lisbon, t.port_hex[0]], width_px=300)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] == 300


# ---------------------------------------------------------------- malformed files

GOOD_FILE = """\
name = test
[terrain]
0 |~@~A|
1 |~~.~|
[events]
0 |~~~~|
1 |~P.~|
[hemisphere]
0 |WWWE|
1 |WW.E|
[ports]
A | Guinea | 1444 | west | chili
[currents]
c : 0,0 : S
"""


def load_broken(tmp_path, text, name="broken.map"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as info:
        load_map(path)
    return str(info.value), info.value


def line_of(text, needle):
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_good_file_loads(tmp_path):
    path = tmp_path / "ok.map"
    path.write_text(GOOD_FILE, encoding="utf-8")
    t = load_map(path)
    assert t.num_hexes == 7 and t.name == "test" and t.pirate.sum() == 1


@pytest.mark.parametrize("old,new,needle,message", [
    ("0 |~@~A|", "0 |~@~X|", "0 |~@~X|", "unknown character 'X'"),
    ("0 |~@~A|", "0 |~~~A|", "[terrain]", "no Lisbon"),
    ("1 |~~.~|", "1 |~@.~|", "1 |~@.~|", "second Lisbon"),
    ("1 |~~.~|", "1 |~A.~|", "1 |~A.~|", "placed twice"),
    ("1 |~~.~|", "1 |~~.~~|", "1 |~~.~~|", "expected 4"),
    ("0 |~@~A|", "0 ~@~A", "0 ~@~A", "grid row must look like"),
    ("1 |~~.~|", "2 |~~.~|", "2 |~~.~|", "numbered 2"),
    ("A | Guinea | 1444 | west | chili", "A | Guinea | 14x4 | west | chili", "14x4", "year"),
    ("A | Guinea | 1444 | west | chili", "A | Guinea | 1444 | north | chili", "north", "deck"),
    ("A | Guinea | 1444 | west | chili", "A | Guinea | 1444 | west | gold", "gold",
     "unknown good 'gold'"),
    ("A | Guinea | 1444 | west | chili", "A | Guinea | 1444 | west | chili\n"
     "B | Guinea | 1444 | west | -", "B | Guinea", "duplicate port 'Guinea'"),
    ("A | Guinea | 1444 | west | chili", "A | Guinea | 1444 | west | chili\n"
     "A | Mina | 1482 | west | ivory", "A | Mina", "duplicate symbol 'A'"),
    ("A | Guinea | 1444 | west | chili", "A | Guinea | 1444 | west | chili\n"
     "B | Mina | 1482 | west | ivory", "B | Mina", "not placed"),
    ("A | Guinea | 1444 | west | chili", "A | Lisbon | 1444 | west | -", "A | Lisbon",
     "home space"),
    ("c : 0,0 : S", "c : 1,1 : NE", "c : 1,1", "into land"),
    ("c : 0,0 : S", "c : 0,0 : N", "c : 0,0", "off the map"),
    ("c : 0,0 : S", "c : 0,0 : S N", "c : 0,0", "cycle of 2"),
    ("c : 0,0 : S", "c : 0,0 : SOUTH", "c : 0,0", "bad direction"),
    ("c : 0,0 : S", "c : 0,0 : S\nd : 0,0 : SE", "d : 0,0", "already has a S arrow"),
    ("c : 0,0 : S", "c : 2,1 : S", "c : 2,1", "not a sea space"),
    ("1 |~P.~|", "1 |~PR~|", "1 |~PR~|", "'R' where [terrain] has land"),
    ("1 |~P.~|", "1 |~Q.~|", "1 |~Q.~|", "'Q' on a sea space"),
    ("1 |WW.E|", "1 |WW.~|", "1 |WW.~|", "'~' on a sea space"),
    ("[currents]", "[current]", "[current]", "unknown section"),
    ("name = test", "name = test\ncolour = blue", "colour", "unknown setting"),
])
def test_malformed_file_reports_file_and_line(tmp_path, old, new, needle, message):
    assert old in GOOD_FILE
    text = GOOD_FILE.replace(old, new, 1)
    msg, err = load_broken(tmp_path, text)
    line = line_of(text, needle)
    assert f"broken.map:{line}: " in msg, msg
    assert message in msg, msg
    assert all(f == str(tmp_path / "broken.map") for f, _, _ in err.errors)


def test_unreachable_sea_is_an_error(tmp_path):
    text = GOOD_FILE.replace("1 |~~.~|", "1 |~~.~|\n2 |.~.~|").replace(
        "1 |~P.~|", "1 |~P.~|\n2 |.~.~|").replace("1 |WW.E|", "1 |WW.E|\n2 |.W.E|")
    text = text.replace("0 |~@~A|", "0 |~@.A|").replace("0 |~~~~|", "0 |~~.~|").replace(
        "0 |WWWE|", "0 |WW.E|")
    msg, _ = load_broken(tmp_path, text)
    assert "cannot be reached from Lisbon" in msg
    assert f"broken.map:{line_of(text, '0 |~@.A|')}: " in msg


def test_longer_current_cycle_is_an_error(tmp_path):
    text = GOOD_FILE.replace("c : 0,0 : S", "c : 0,0 : S NE N")
    msg, _ = load_broken(tmp_path, text)  # (0,0) S (0,1) NE (1,0) N -> off the map
    assert "step 3 (N) from 1,0 points off the map" in msg
    t = GOOD_FILE.replace("0 |~@~A|\n1 |~~.~|", "0 |~@~A|\n1 |~~~~|").replace(
        "1 |~P.~|", "1 |~P~~|").replace("1 |WW.E|", "1 |WWWE|")
    t = t.replace("c : 0,0 : S", "c : 2,0 : S SW N NE")  # (2,0)->(2,1)->(1,1)->(1,0)->(2,0)
    msg, _ = load_broken(tmp_path, t)
    assert "cycle of 4" in msg and f"broken.map:{line_of(t, 'c : 2,0')}: " in msg


def test_many_errors_are_all_reported(tmp_path):
    text = GOOD_FILE.replace("0 |~@~A|", "0 |~~~X|").replace("c : 0,0 : S", "c : 1,1 : NE")
    msg, err = load_broken(tmp_path, text)
    assert len(err.errors) >= 3
    assert "no Lisbon" in msg and "unknown character 'X'" in msg and "into land" in msg


def test_missing_sections_and_unreadable_file(tmp_path):
    msg, _ = load_broken(tmp_path, "name = x\n[ports]\n")
    assert "missing section [terrain]" in msg and "broken.map" in msg
    with pytest.raises(MapError, match="nope.map: cannot read"):
        load_map(tmp_path / "nope.map")
    with pytest.raises(MapError, match="missing section \\[hemisphere\\]"):
        parse_map_text(GOOD_FILE.split("[hemisphere]")[0] + "[ports]\n", source="x.map")
