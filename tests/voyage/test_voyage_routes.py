"""Route planning on the Voyage board (voyage_env/routes.py): cheapest routes in discs.

Rules: free steps along a current's arrows (V15, VA29), 1 disc otherwise (V16), +1 for a
pirate hex (V18); planning penalties for red (V20) and blue (V19) hexes. Tiny maps give
exact answers; on the default board the kernel's own `step_cost` and a plain Python
Bellman-Ford are the oracles.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.voyage_helpers import COST_MAP, hx, staged, tiny_game
from voyage_env import GAME
from voyage_env import kernel as K
from voyage_env import routes as RT
from voyage_env.board import DIRS, map_from_text

MAP = GAME.board

# Two ways from Lisbon (0,0) to the port A (4,0): along the top row (4 steps, one red hex
# at (2,0)) or around through row 2 (longer). Columns 1 and 3 are odd: half a hex lower.
RED_MAP = dict(
    grid="""
        @~~~A
        ~...~
        ~~~~~
    """,
    ports="A | Guinea | 1444 | west | chili",
    events="""
        ~~R~~
        ~...~
        ~~~~~
    """,
)


def oracle(m, target, wt):
    """Bellman-Ford from scratch (numpy): cost from every hex to `target` (None: unreachable)."""
    h = int(m[K.M_H])
    rows = m[K.HEX0: K.HEX0 + h * K.HEX_W].reshape(h, K.HEX_W).astype(np.int64)
    nb = rows[:, :6]
    big = 1 << 40
    enter = (wt[1] * (rows[:, K.F_PIRATE] != 0) + wt[2] * (rows[:, K.F_RED] != 0)
             + wt[3] * (rows[:, K.F_BLUE] != 0))
    cost = np.full((h, 6), big, np.int64)          # cost[u, d] of the step u -> nb[u, d]
    for d in range(6):
        ok = nb[:, d] >= 0
        step = np.where(rows[:, K.F_CURRENT] == d, 0, wt[0])
        cost[ok, d] = step[ok] + enter[nb[ok, d]]
    dist = np.full(h, big, np.int64)
    dist[target] = 0
    while True:
        via = np.where(nb >= 0, dist[np.maximum(nb, 0)] + cost, big)
        new = np.minimum(dist, via.min(axis=1))
        if (new == dist).all():
            return [None if x >= big else int(x) for x in dist]
        dist = new


def test_free_current_chain_costs_nothing_and_upstream_costs_a_disc_per_step():
    g = tiny_game(**COST_MAP)  # current c: (0,1) S S S -> (0,4), the end dot
    r = RT.Router(g)
    assert r.cost((0, 1), (0, 4)) == 0, "three free steps along the arrows (V15, VA29)"
    assert r.directions((0, 1), (0, 4)) == ["S", "S", "S"]
    assert r.cost((0, 4), (0, 1)) == 3, "against the arrows: 1 disc per step (V16)"
    assert r.cost((0, 0), (0, 4)) == 1, "entering the current's first space is paid"
    assert r.cost((0, 4), (0, 5)) == 1, "the end dot has no arrow"


def test_a_pirate_hex_costs_its_surcharge():
    g = tiny_game(**COST_MAP)  # pirates on (2,1) and (2,4); current d: (2,3) S S
    r = RT.Router(g)
    assert r.cost((2, 0), (2, 1)) == 2, "1 for the step + 1 pirate disc (V18, E4)"
    assert r.cost((2, 3), (2, 4)) == 1, "a free step onto a pirate hex still pays 1"
    assert RT.Router(g, pirate=0).cost((2, 0), (2, 1)) == 1
    assert RT.Router(g, pirate=5).cost((2, 0), (2, 1)) == 6


def test_costs_equal_the_kernel_step_cost_on_the_default_board():
    s = GAME.new_state(2, 0)
    wt = RT.weights()
    m = GAME.aux.m
    for h in range(MAP.num_hexes):
        s[K.SHIP] = h
        for d in range(6):
            assert RT.step_weight(m, h, d, wt) == K.step_cost(s, m, 0, d, False), (h, d)


@pytest.mark.parametrize("wt", [(1, 1, 0, 0), (4, 4, 6, 2), (4, 4, 40, 2), (2, 0, 3, 1)])
def test_distances_match_a_bellman_ford_oracle_on_the_default_board(wt):
    m = GAME.aux.m
    w = RT.weights(*wt)
    rng = np.random.default_rng(sum(wt))
    dist = np.empty(MAP.num_hexes, np.int32)
    via = np.empty(MAP.num_hexes, np.int32)
    for target in [MAP.lisbon, *rng.choice(MAP.num_hexes, 2, replace=False)]:
        RT.distances_to(m, int(target), w, dist, via)
        want = oracle(m, int(target), w)
        assert [int(x) for x in dist] == want
        # every `via` step is a cheapest one: cost + rest == total
        for h in range(MAP.num_hexes):
            if h == target:
                assert via[h] == -1
                continue
            t = int(MAP.neighbors[h, via[h]])
            assert RT.step_weight(m, h, int(via[h]), w) + dist[t] == dist[h]


def test_forward_and_reverse_distances_agree():
    m = GAME.aux.m
    w = RT.weights(4, 4, 16, 2)
    h = MAP.num_hexes
    to, via = np.empty(h, np.int32), np.empty(h, np.int32)
    frm, first = np.empty(h, np.int32), np.empty(h, np.int32)
    rng = np.random.default_rng(3)
    for a, b in rng.choice(h, (10, 2)):
        RT.distances_to(m, int(b), w, to, via)
        RT.distances_from(m, int(a), w, frm, first)
        assert to[a] == frm[b]
        if a != b:   # the forward run's first step starts a cheapest route too
            d = int(first[b])
            t = int(MAP.neighbors[a, d])
            assert RT.step_weight(m, int(a), d, w) + to[t] == to[a]
        else:
            assert first[b] == -1


def test_red_penalty_changes_the_route():
    g = tiny_game(**RED_MAP)
    red = hx(g, 2, 0)
    plain = RT.Router(g)
    assert red in plain.path("Lisbon", "Guinea"), "without a penalty the short way"
    assert plain.cost("Lisbon", "Guinea") == 4
    careful = RT.Router(g, red=10)
    path = careful.path("Lisbon", "Guinea")
    assert red not in path, "a red penalty larger than the detour avoids the red hex"
    detour = careful.cost("Lisbon", "Guinea")
    assert detour > 4 and detour == len(path) - 1, "the detour, all paid steps, no red"
    assert RT.Router(g, red=detour - 4 - 1).path("Lisbon", "Guinea") == plain.path(
        "Lisbon", "Guinea"), "a smaller penalty than the detour keeps the short way"


def test_blue_penalty_and_next_step():
    g = tiny_game(grid="@~~A", ports="A | Guinea | 1444 | west | chili",
                  events="~B~~")
    r = RT.Router(g, blue=3)
    assert r.cost("Lisbon", "Guinea") == 3 + 3
    assert r.next_step("Lisbon", "Guinea") == r.to("Guinea")[1][hx(g, 0, 0)]
    assert r.next_step("Guinea", "Guinea") == -1


def test_unreachable_hexes_are_marked():
    g = tiny_game(grid="@~~A", ports="A | Guinea | 1444 | west | chili")
    m = g.aux.m.copy()
    vm = g.board
    island = hx(g, 3, 0)       # cut the port's hex off (the map loader forbids it)
    for d in range(6):
        t = int(vm.neighbors[island, d])
        if t >= 0:
            m[K.HEX0 + island * K.HEX_W + d] = -1
            m[K.HEX0 + t * K.HEX_W + (d + 3) % 6] = -1
    w = RT.weights()
    dist = np.empty(vm.num_hexes, np.int32)
    via = np.empty(vm.num_hexes, np.int32)
    RT.distances_to(m, island, w, dist, via)
    assert dist[island] == 0
    others = [h for h in range(vm.num_hexes) if h != island]
    assert all(dist[h] == RT.INF and via[h] == -1 for h in others)
    assert RT.next_step_toward(m, vm.lisbon, dist, w) == -1
    r = RT.Router(m)
    assert r.cost(vm.lisbon, island) is None and r.path(vm.lisbon, island) == []
    RT.distances_from(m, vm.lisbon, w, dist, via)
    assert dist[island] == RT.INF and dist[vm.lisbon] == 0


def test_router_accepts_maps_games_and_packed_maps():
    vm = map_from_text(**COST_MAP)
    a = RT.Router(vm).cost((0, 0), (2, 5))
    b = RT.Router(tiny_game(**COST_MAP)).cost((0, 0), (2, 5))
    assert a == b and a is not None
    with pytest.raises(TypeError):
        RT.Router(RT.packed_map(vm)).cost((0, 0), (2, 5))   # cells need the map
    with pytest.raises(TypeError):
        RT.packed_map("default")
    with pytest.raises(ValueError):
        RT.weights(step=-1)


def test_default_board_routes_are_plausible():
    r = RT.Router(GAME)
    path = r.path("Lisbon", "Calicut")
    assert path[0] == MAP.lisbon and path[-1] == MAP.port_hex[MAP.port_id("Calicut")]
    assert 10 <= r.cost("Lisbon", "Calicut") <= 30, "round Africa in two or three rounds"
    assert r.cost("Lisbon", "Madeira") <= 3
    # a planner that fears the die crosses the Cape's red band on fewer red hexes
    risky = RT.Router(GAME, step=4, red=0).path("Lisbon", "Calicut")
    safe = RT.Router(GAME, step=4, red=40).path("Lisbon", "Calicut")
    assert sum(MAP.red[h] for h in safe) < sum(MAP.red[h] for h in risky)


def test_route_tables_and_plan_tables():
    m = GAME.aux.m
    w = RT.weights(4, 4, 16, 2)
    r = RT.Router(GAME, step=4, pirate=4, red=16, blue=2)
    dist, via = r.tables()
    assert dist.shape == (MAP.num_ports + 1, MAP.num_hexes)
    for k in (0, 23, MAP.num_ports):
        d = np.empty(MAP.num_hexes, np.int32)
        v = np.empty(MAP.num_hexes, np.int32)
        RT.distances_to(m, RT.target_hex(m, k), w, d, v)
        assert (dist[k] == d).all() and (via[k] == v).all()
    plan = RT.plan_tables(GAME)
    levels = len(RT.PLAN_RED_LEVELS) + 1          # the risk levels, then the dice row
    assert plan.shape == (levels, 2, MAP.num_ports + 1, MAP.num_hexes)
    assert (plan[1, 0] == dist).all(), "level 1 is the red penalty of 4 discs"
    plain, _ = RT.Router(GAME, step=4, pirate=4).tables()
    assert (plan[RT.PLAN_DICE, 0] == plain).all(), "dice row: no red or blue penalty (V54)"


def test_follow_walks_the_tree_to_the_target():
    g = tiny_game(**COST_MAP)
    s = staged(g, 2, ships={0: (2, 0)})
    vm = g.board
    r = RT.Router(g)
    start, target = int(s[K.SHIP]), hx(g, 0, 5)
    path = r.path(start, target)
    assert path[0] == start and path[-1] == target
    dirs = r.directions(start, target)
    assert len(dirs) == len(path) - 1
    # replaying the route in the kernel spends exactly its cost
    spent = 0
    for name, nxt in zip(dirs, path[1:], strict=True):
        d = DIRS.index(name)
        spent += int(K.step_cost(s, g.aux.m, 0, d, False))
        s[K.SHIP] = vm.neighbors[int(s[K.SHIP]), d]
        assert s[K.SHIP] == nxt
    assert spent == r.cost(start, target)
