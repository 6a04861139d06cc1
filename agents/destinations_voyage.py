"""Voyage: the turn's destination searched by playouts; the step toward it the heuristic's.

The Voyage heuristic plans a whole turn: it picks a target port (or Lisbon) and steps
toward it, one decision per step. A search over single steps learns little there (a step
off the route is undone by the next step's plan), so at a move step this search ranks the
*targets* instead: the heuristic's own and the `width` - 1 best others (the ports worth
something and Lisbon, by worth less `P_LAMBDA` VP per disc of the way). On each of
`draws` determinizations of the seat's information set,
every candidate is played out from the same draw (common random numbers): the seat
follows `heuristic_voyage.step_toward` that target for the rest of its turn (until it
gets there, stops or docks), then the heuristic plays every seat to the end. A playout is
worth 1 / (1 + exp(-margin / 5)), margin the seat's final VP lead over the best other
seat. A candidate replaces the heuristic's target when its mean paired difference beats
`z` standard errors of it; the target is kept for the rest of the turn (while the ship
is where the last step put it), so a turn costs one search.

It reads the real state only through determinizations (the candidates and steps are
worked out on one, as the heuristic agent's are), so it sees only what its seat may see.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tradewinds.agents import policies
from tradewinds.agents.heuristic import decide, rng_key
from tradewinds.agents.heuristic_voyage import step_toward
from tradewinds.agents.plan_voyage import (
    DISC,
    INF,
    P_LAMBDA,
    PARAMS,
    PLAN_WEIGHTS,
    aux_routes,
    denial_values,
    plan_with,
    port_values,
    route_context,
)
from tradewinds.compiled import disk_cache, protocol
from voyage_env import actions as A
from voyage_env import kernel as K
from voyage_env import routes as RT
from voyage_env.state import MOVE

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

SCALE = 5.0          # VP of lead per unit of log-odds in a playout's value
DRAWS = 32


@njit(cache=True)
def candidates(s, m, wts, routes, prm, out):
    """Fill out[:n] with the targets worth a search for the decider of `s` and return n:
    the heuristic's own target first (-1 when it has none), then the reachable ports worth
    something (`plan_voyage.port_values`) and Lisbon (worth 0 here), best first by worth less
    `P_LAMBDA` VP per disc of the way."""
    p = s[K.DECIDER]
    x = s[K.SHIP + p]
    P = m[K.M_P]
    wt, dist, via, valid = route_context(s, m, wts, routes, p, prm)
    dx = np.empty(P + 1, dtype=np.int32)
    worth = np.empty(P, dtype=np.float64)
    port_values(s, m, p, prm, denial_values(s, m, prm), worth)
    own = plan_with(s, m, wt, dist, via, valid, dx, p, prm, True, worth)
    score = np.full(P + 1, -np.inf)
    for port in range(P):
        if dx[port] < INF and K.portf(m, port, K.P_HEX) != x and worth[port] > 0:
            score[port] = worth[port] - prm[P_LAMBDA] * dx[port] / DISC
    if dx[P] < INF and x != m[K.M_LISBON]:
        score[P] = 0.0
    out[0] = own
    n = 1
    for k in np.argsort(-score):
        if n >= out.shape[0] or score[k] == -np.inf:
            break
        if k != own:
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def _playout(aux, s, player, k, mask, key, wts, prm, scores):
    """Play `s` out with `player` heading for target k for the rest of this turn, the
    heuristic everywhere else; the playout's value for `player`."""
    m = aux.m
    routes = aux_routes(aux)
    goal = RT.target_hex(m, k) if k >= 0 else -1
    heading = k >= 0
    turn = s[K.ROUND]
    while not protocol.is_terminal(aux, s):
        heading = heading and s[K.ROUND] == turn and s[K.SHIP + player] != goal
        if heading and s[K.DECIDER] == player and s[K.PHASE] == MOVE:
            K.legal_mask(s, m, mask)
            a = step_toward(s, m, wts, routes, mask, prm, k)
            if a < 0 or mask[a] == 0:
                a = policies.heuristic_action(aux, s, mask, key)
            if a == A.STOP or a == A.DOCK:
                heading = False
        else:
            a = policies.heuristic_action(aux, s, mask, key)
        protocol.step(aux, s, a)
    protocol.scores(aux, s, scores)
    best = -np.inf
    for q in range(s[0]):
        if q != player and scores[q] > best:
            best = scores[q]
    return 1.0 / (1.0 + math.exp(-(scores[player] - best) / SCALE))


@njit(cache=True)
def playout_values(aux, root, player, key, targets, values):
    """values[d, i]: the playout of target targets[i] on determinization d of `player`'s
    information set at `root` (every target on the same draw)."""
    wts = PLAN_WEIGHTS.copy()
    prm = PARAMS.copy()
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    scores = np.zeros(4, dtype=np.float64)
    drawn = np.empty_like(root)
    s = np.empty_like(root)
    for d in range(values.shape[0]):
        drawn[:] = root
        protocol.determinize(aux, drawn, player, key)
        for i in range(targets.shape[0]):
            s[:] = drawn
            values[d, i] = _playout(aux, s, player, targets[i], mask, key, wts, prm, scores)


def pick(values: np.ndarray, z: float) -> int:
    """The column to follow: the best mean paired difference against column 0 (the
    heuristic's target) when it beats `z` standard errors of that difference, else 0."""
    if values.shape[1] < 2:
        return 0
    diff = values - values[:, :1]
    mean = diff.mean(axis=0)
    err = diff.std(axis=0, ddof=1) / math.sqrt(values.shape[0])
    best = int(np.argmax(mean))
    return best if best > 0 and mean[best] > z * err[best] else 0


class DestinationSearch:
    """The move steps of one Voyage seat at a time: `act(state, key)` at a MOVE decision."""

    def __init__(self, game, draws: int = DRAWS, width: int = 6, z: float = 1.0):
        if game.name != "voyage":
            raise ValueError(f"the destination search plays the Voyage game, not {game.name!r}")
        if draws < 2 or width < 1:
            raise ValueError(f"destination search: draws must be >= 2 and width >= 1, "
                             f"got draws={draws!r}, width={width!r}")
        self.game, self.draws, self.width, self.z = game, int(draws), int(width), float(z)
        self._plan = None       # (round, seat, the hex the last step led to, target)
        self.searches = self.departures = 0

    @staticmethod
    def applies(state) -> bool:
        """Whether `state` waits for a move step (its phase is public)."""
        return state[K.PHASE] == MOVE

    def reset(self) -> None:
        self._plan = None

    def act(self, state, key: np.ndarray) -> int:
        """The seat's move at `state` (a MOVE decision): the step toward its target."""
        g = self.game
        p = int(state[K.DECIDER])
        seen = g.determinize(state, p, key)
        here = (int(seen[K.ROUND]), p, int(seen[K.SHIP + p]))
        if self._plan is not None and self._plan[:3] == here:
            target = self._plan[3]
        else:
            target = self._search(state, seen, p, key)
        mask = np.asarray(g.legal_mask(seen), dtype=np.int8).copy()
        a = int(step_toward(seen, g.aux.m, PLAN_WEIGHTS.copy(), g.aux.routes, mask,
                            PARAMS.copy(), target)) if target >= 0 else -1
        if a < 0 or not mask[a] or seen[K.SHIP + p] == _goal(g, target):
            self._plan = None
            return int(decide(g.aux, seen, mask, key))
        step = a - A.MOVE if a < A.SHIELD else a - A.SHIELD
        moved = a in range(A.MOVE, A.SHIELD + 6)
        self._plan = (here[0], p, int(K.nb(g.aux.m, here[2], step)), target) if moved else None
        return a

    def _search(self, state, seen, p: int, key: np.ndarray) -> int:
        g = self.game
        targets = np.full(self.width, -1, dtype=np.int64)
        n = candidates(seen, g.aux.m, PLAN_WEIGHTS.copy(), g.aux.routes, PARAMS.copy(), targets)
        if n < 2:
            return int(targets[0])
        values = np.zeros((self.draws, n))
        playout_values(g.aux, state, p, key, targets[:n], values)
        best = pick(values, self.z)
        self.searches += 1
        self.departures += best > 0
        return int(targets[best])


class DestinationAgent:
    """`dest`, `dest:<draws>`: the heuristic, with the turn's destination searched at its
    move steps (`DestinationSearch`); the Voyage game only."""

    needs_state = True

    def __init__(self, game: str = "voyage", spec: str | None = None,
                 draws: int | None = None, width: int = 6, z: float = 1.0):
        from tradewinds import registry
        from tradewinds.agents.heuristic import HeuristicAgent

        if spec is not None:
            if draws is not None or not spec.isdigit():
                raise ValueError(f"dest:<draws> takes a whole number of draws, got {spec!r}")
            draws = int(spec)
        self.name = "dest" if spec is None else f"dest:{spec}"
        self.search = DestinationSearch(registry.game(game), DRAWS if draws is None else draws,
                                        width, z)
        self.heuristic = HeuristicAgent(game)

    def reset(self) -> None:
        self.search.reset()

    def act(self, observation, action_mask, rng: np.random.Generator, *, state=None) -> int:
        if state is None:
            raise ValueError(f"{self.name} needs state= (the arena and envs pass it)")
        if self.search.applies(state) and np.count_nonzero(action_mask) > 1:
            return self.search.act(state, rng_key(rng))
        return self.heuristic.act(observation, action_mask, rng, state=state)

    def __repr__(self) -> str:
        return f"DestinationAgent(name={self.name!r}, draws={self.search.draws})"


def _goal(game, target: int) -> int:
    return int(RT.target_hex(game.aux.m, target)) if target >= 0 else -1


disk_cache.refresh(globals())
