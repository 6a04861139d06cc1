"""Route planning on the Voyage board: cheapest routes in discs (rules V14-V21, VA29).

Everything works on the packed map `m` of `kernel.pack_map`, so the same njit functions
serve the default board and the tiny test maps, inside numba (the heuristic, rollouts) and
from Python (the wrappers at the end).

Cost of an own step from hex h in direction d onto t = ``nb(m, h, d)`` (compare
`kernel.step_cost`): ``0`` when h has a current arrow pointing in d (VA29), else
``wt[W_STEP]``; plus ``wt[W_PIRATE]`` when t is a pirate hex (V18); plus the planning
penalties ``wt[W_RED]`` when t is red (the die wrecks a ship on 2 faces of 6, V20, VA11)
and ``wt[W_BLUE]`` when t is blue (a wind card must be played there, V19). With the
default weights ``(1, 1, 0, 0)`` a cost is exactly the number of discs the kernel charges
(without a favourable wind against pirates). Weights are integers, so a planner that wants
half-disc penalties scales everything, e.g. ``weights(step=4, red=6, blue=2)``.

Shortest routes use Dial's bucket queue (edge costs are small integers, at most the sum of
the weights), so a table over the 432 hexes of the default board is cheap (docs/agents.md,
"The Voyage heuristic: measured"). Unreachable hexes keep the distance `INF`. Free steps
cannot form a loop: a valid map has no current cycle (the map loader rejects them), and
routes follow the shortest-path tree (`via`), which has none either.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tradewinds.compiled import disk_cache
from tradewinds.protocol import Game
from voyage_env import kernel as K

INF = 1 << 29
"""Distance of a hex from which the target cannot be reached."""

W_STEP, W_PIRATE, W_RED, W_BLUE = range(4)
NUM_WEIGHTS = 4


def weights(step: int = 1, pirate: int | None = None, red: int = 0, blue: int = 0) -> np.ndarray:
    """The int32[4] weight vector: a paid step, the pirate surcharge (default: one step),
    the red-hex and blue-hex planning penalties."""
    w = np.array([step, step if pirate is None else pirate, red, blue], dtype=np.int32)
    if (w < 0).any():
        raise ValueError(f"route weights must be >= 0, got {w.tolist()}")
    return w


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def step_weight(m, h, d, wt):
    """Cost of a step from hex h in direction d (see the module text); -1 if impossible."""
    t = K.nb(m, h, d)
    if t < 0:
        return -1
    c = 0 if K.hexf(m, h, K.F_CURRENT) == d else wt[W_STEP]
    if K.hexf(m, t, K.F_PIRATE):
        c += wt[W_PIRATE]
    if K.hexf(m, t, K.F_RED):
        c += wt[W_RED]
    if K.hexf(m, t, K.F_BLUE):
        c += wt[W_BLUE]
    return c


@njit(cache=True)
def _dial(m, source, reverse, wt, dist, via):
    """Dijkstra with a circular bucket queue from `source`.

    reverse=True: dist[h] = cost from h TO source, via[h] = direction of the first step of
    a cheapest route from h (-1 at the source and where unreachable).
    reverse=False: dist[h] = cost FROM source to h, via[h] = direction of the first step
    from source on a cheapest route to h (-1 at the source and where unreachable).
    The hex rows of `m` are read directly here (no helper calls in the inner loop)."""
    H = m[K.M_H]
    for h in range(H):
        dist[h] = INF
        via[h] = -1
    if source < 0 or source >= H:
        return
    w_step, w_pirate, w_red, w_blue = wt[W_STEP], wt[W_PIRATE], wt[W_RED], wt[W_BLUE]
    # the entry cost of each hex (pirate, red, blue), computed once
    enter = np.empty(H, dtype=np.int32)
    for h in range(H):
        r = K.HEX0 + h * K.HEX_W
        enter[h] = (w_pirate * (m[r + K.F_PIRATE] != 0) + w_red * (m[r + K.F_RED] != 0)
                    + w_blue * (m[r + K.F_BLUE] != 0))
    nbk = w_step + w_pirate + w_red + w_blue + 1
    head = np.full(nbk, -1, dtype=np.int32)
    cap = 6 * H + 1          # one entry per improvement: at most one per edge, plus the source
    enode = np.empty(cap, dtype=np.int32)
    enext = np.empty(cap, dtype=np.int32)
    dist[source] = 0
    enode[0] = source
    enext[0] = -1
    head[0] = 0
    used = 1
    pending = 1
    cur = 0
    b = 0
    while pending > 0:
        e = head[b]
        if e < 0:
            cur += 1
            b += 1
            if b == nbk:
                b = 0
            continue
        head[b] = enext[e]
        pending -= 1
        v = enode[e]
        if dist[v] != cur:
            continue  # a stale entry (v was improved after this push, or is settled)
        rv = K.HEX0 + v * K.HEX_W
        for d in range(6):
            u = m[rv + d]
            if u < 0:
                continue
            if reverse:   # neighbours are symmetric (board.py builds them so)
                back = d + 3 if d < 3 else d - 3          # the step u -> v
                c = enter[v] + (0 if m[K.HEX0 + u * K.HEX_W + K.F_CURRENT] == back
                                else w_step)
            else:
                c = enter[u] + (0 if m[rv + K.F_CURRENT] == d else w_step)
            nd = cur + c
            if nd < dist[u]:
                dist[u] = nd
                if reverse:
                    via[u] = back
                elif v == source:
                    via[u] = d
                else:
                    via[u] = via[v]
                bb = b + c
                if bb >= nbk:
                    bb -= nbk
                enode[used] = u
                enext[used] = head[bb]
                head[bb] = used
                used += 1
                pending += 1


@njit(cache=True)
def distances_to(m, target, wt, dist, via):
    """dist[h] = cheapest cost from every hex h to `target` (INF: unreachable); via[h] =
    the direction of the first step of such a route (-1 at the target / unreachable).
    dist and via: int32 arrays of at least H entries."""
    _dial(m, target, True, wt, dist, via)


@njit(cache=True)
def distances_from(m, source, wt, dist, first):
    """dist[h] = cheapest cost from `source` to every hex h (INF: unreachable); first[h] =
    the direction of the first step from source on such a route (-1 at the source)."""
    _dial(m, source, False, wt, dist, first)


@njit(cache=True)
def next_step_toward(m, h, dist, wt):
    """The direction of a cheapest next step from h given `dist` (a `distances_to` table
    for the same weights): argmin over d of step cost + dist[neighbour]; -1 when h is the
    target or the target cannot be reached. Ties go to the lowest direction."""
    if dist[h] == 0 or dist[h] >= INF:
        return -1
    best, best_d = INF, -1
    for d in range(6):
        t = K.nb(m, h, d)
        if t < 0 or dist[t] >= INF:
            continue
        v = step_weight(m, h, d, wt) + dist[t]
        if v < best:
            best, best_d = v, d
    return best_d


@njit(cache=True)
def target_hex(m, k):
    """Row k of the route tables: port k's hex for k < P, Lisbon for k == P."""
    return m[K.M_LISBON] if k == m[K.M_P] else K.portf(m, k, K.P_HEX)


@njit(cache=True)
def route_tables(m, wt, dist, via):
    """One `distances_to` table per port (rows 0..P-1, port id order) and Lisbon (row P):
    dist, via int32[P + 1, >= H]."""
    for k in range(m[K.M_P] + 1):
        _dial(m, target_hex(m, k), True, wt, dist[k], via[k])


@njit(cache=True)
def follow(m, h, via, out):
    """The hexes of the route from h along `via` (a `distances_to` tree), h first, into
    `out`; returns how many (0 when the target cannot be reached from h)."""
    k = 0
    while True:
        if k >= out.shape[0]:
            return k
        out[k] = h
        k += 1
        d = via[h]
        if d < 0:
            return k
        h = K.nb(m, h, d)


# ----------------------------------------------------------------------------- planning presets

PLAN_DISC = 4
"""Planning weights count quarter discs: a paid step and a pirate surcharge are 4."""
PLAN_RED_LEVELS = (6, 16, 40)
"""Red-hex penalty per risk level (1.5, 4 and 10 discs): a wreck costs little on an empty
outward trip and a whole voyage when the last working ship carries pepper home."""
PLAN_BLUE = 2
"""Blue-hex penalty (half a disc): the card played there is re-weighed by the planner."""
PLAN_DICE = len(PLAN_RED_LEVELS)
"""The last `plan_weights` row: the dice variant (V54, VA34), where blue and red spaces have
no effect, counts paid steps and pirates only (in quarter movement points)."""


def plan_weights() -> np.ndarray:
    """int32[levels + 1, 4]: the route weights of the Voyage heuristic, one row per risk
    level, then the dice variant's row (`PLAN_DICE`)."""
    rows = [weights(PLAN_DISC, PLAN_DISC, red, PLAN_BLUE) for red in PLAN_RED_LEVELS]
    rows.append(weights(PLAN_DISC, PLAN_DISC, 0, 0))
    return np.array(rows, dtype=np.int32)


def plan_tables(map_or_game) -> np.ndarray:
    """int32[levels + 1, 2, P + 1, H]: `route_tables` (dist, via) for every `plan_weights`
    row.

    What the Voyage heuristic reads when its aux value carries them (a field `routes`),
    instead of computing the few tables a decision needs on the spot (their cost per map:
    docs/agents.md, "The Voyage heuristic: measured")."""
    m = packed_map(map_or_game)
    wts = plan_weights()
    rows, h = int(m[K.M_P]) + 1, int(m[K.M_H])
    out = np.empty((len(wts), 2, rows, h), dtype=np.int32)
    for lv in range(len(wts)):
        route_tables(m, wts[lv], out[lv, 0], out[lv, 1])
    return out


# ----------------------------------------------------------------------------- Python


def packed_map(map_or_game) -> np.ndarray:
    """The packed map of a `VoyageMap`, a voyage `Game`, or a packed map itself."""
    if isinstance(map_or_game, np.ndarray):
        return map_or_game
    if isinstance(map_or_game, Game):
        return map_or_game.aux.m
    if hasattr(map_or_game, "neighbors"):
        return K.pack_map(map_or_game)
    raise TypeError(f"expected a VoyageMap, a voyage Game or a packed map, got {map_or_game!r}")


def _voyage_map(map_or_game):
    if hasattr(map_or_game, "neighbors"):
        return map_or_game
    return map_or_game.board if isinstance(map_or_game, Game) else None


def hex_of(map_or_game, where) -> int:
    """A hex index from an int hex, a port name, "Lisbon" or a (col, row) pair."""
    if isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        return int(where)
    m = packed_map(map_or_game)
    if where == "Lisbon":
        return int(m[K.M_LISBON])
    vmap = _voyage_map(map_or_game)
    if vmap is None:
        raise TypeError("port names and cells need a VoyageMap or a Game, not a packed map")
    if isinstance(where, str):
        return int(vmap.port_hex[vmap.port_id(where)])
    col, row = where
    h = vmap.hex_at(int(col), int(row))
    if h < 0:
        raise ValueError(f"({col}, {row}) is not a sea space")
    return h


class Router:
    """Cheapest routes on one board, for Python callers (tests, tools, notebooks).

    >>> r = Router(game, red=2)                  # 1 disc per paid step, +2 per red hex
    >>> r.cost("Lisbon", "Calicut")              # in weight units (discs by default)
    >>> r.path("Lisbon", "Calicut")              # hexes, start first
    >>> r.directions("Lisbon", "Calicut")        # ["SW", ...], the move:D of the route
    """

    def __init__(self, map_or_game, *, step: int = 1, pirate: int | None = None, red: int = 0,
                 blue: int = 0):
        self.source = map_or_game
        self.m = packed_map(map_or_game)
        self.wt = weights(step, pirate, red, blue)
        self.num_hexes = int(self.m[K.M_H])
        self._to: dict = {}

    def to(self, target) -> tuple:
        """(dist, via) toward `target` (see `distances_to`), cached per target."""
        t = hex_of(self.source, target)
        if t not in self._to:
            dist = np.empty(self.num_hexes, dtype=np.int32)
            via = np.empty(self.num_hexes, dtype=np.int32)
            distances_to(self.m, t, self.wt, dist, via)
            self._to[t] = (dist, via)
        return self._to[t]

    def from_(self, source) -> tuple:
        """(dist, first) from `source` (see `distances_from`)."""
        dist = np.empty(self.num_hexes, dtype=np.int32)
        first = np.empty(self.num_hexes, dtype=np.int32)
        distances_from(self.m, hex_of(self.source, source), self.wt, dist, first)
        return dist, first

    def cost(self, start, target):
        """The cheapest cost from start to target, None when it cannot be reached."""
        d = int(self.to(target)[0][hex_of(self.source, start)])
        return None if d >= INF else d

    def path(self, start, target) -> list:
        """The hexes of a cheapest route, start first and target last ([] if unreachable)."""
        dist, via = self.to(target)
        out = np.empty(self.num_hexes + 1, dtype=np.int32)
        h = hex_of(self.source, start)
        if dist[h] >= INF:
            return []
        return [int(x) for x in out[: follow(self.m, h, via, out)]]

    def directions(self, start, target) -> list:
        """The direction names (board.DIRS) of the steps of `path`."""
        from voyage_env.board import DIRS

        dist, via = self.to(target)
        return [DIRS[int(via[h])] for h in self.path(start, target)[:-1]]

    def next_step(self, start, target) -> int:
        """The direction id of a cheapest first step (-1 at the target or unreachable)."""
        dist, _ = self.to(target)
        return int(next_step_toward(self.m, hex_of(self.source, start), dist, self.wt))

    def tables(self) -> tuple:
        """(dist, via) int32[P + 1, H]: `route_tables` (ports in id order, Lisbon last)."""
        rows = int(self.m[K.M_P]) + 1
        dist = np.empty((rows, self.num_hexes), dtype=np.int32)
        via = np.empty((rows, self.num_hexes), dtype=np.int32)
        route_tables(self.m, self.wt, dist, via)
        return dist, via


disk_cache.refresh(globals())
