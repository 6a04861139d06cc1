"""A fitted judgement of Voyage positions: each seat's chance to win, for the search's leaves.

The search judges a leaf by each seat's lead in `agents.policies.position_values`
(`agents.playouts.judge`: win chance = 1 / (1 + exp(-lead / scale))). The VP on the
track alone misjudges Voyage positions: a ship with the tile's pepper three turns from
Lisbon holds 10 VP that the track shows only on docking, and a step toward Calicut shows
nothing for several turns. This judgement is a conditional logit (one score per seat,
win chance = softmax of the scores) over per-seat features of the position, fitted to the
winners of heuristic self-play games (`training/fit_voyage_value.py`, which writes the
weights and the fit's record as data: `agents/value_voyage_fit.py`, a module so that
numba's cache, which compiles the weights in, is refreshed when they change).

The scores are returned in VP-like units: score x `VP_PER_LOGIT`, the Voyage search's
default `scale` (agents.ismcts.DEFAULTS), so the search's lead-based win chance is the
fitted one at 2 players (and the lead over the best other seat at 3-4).

Every feature reads only what the seat whose state it is given may see when that state is
a determinization (the search's leaves are): other seats' target cards there are sampled.

Near the end (at most `ENDGAME_TILES` monastery tiles left) the position is not guessed at
but played out: the heuristic for every seat to the end, the winner `DECIDED` VP ahead.
The features there miss what decides the game, above all whether taking a tile ends it
with the seat behind (V49), and the rest of the game is short enough to play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tradewinds.agents import heuristic_voyage as HV
from tradewinds.agents import plan_voyage as PV
from tradewinds.agents.policies import bind_values
from tradewinds.compiled import disk_cache
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.bindings import VoyageAux

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

VP_PER_LOGIT = 5.0     # = agents.ismcts.DEFAULTS["voyage"]["scale"] (tested)
ENDGAME_TILES = 2      # at most this many tiles left: the position is played out
DECIDED = 1000.0       # the playout's winner, in VP above the rest (a sure win)
ROUTE_CAP = 80         # route costs in the features are capped at this many discs

# Per-seat features; each enters the score twice: as is, and times the game's progress
# (the share of monastery tiles taken), so a feature may count more as the end nears.
FEATURES = (
    "vp",                 # VP on the track, secured target cards included (V50, V51)
    "tiles",              # monastery tiles held (their 10 VP are in "vp"; tie-break, V52)
    "pepper_aboard",      # a pepper cube aboard: the next tile's 10 VP (V41)
    "pepper_home",        # route cost from the ship to Lisbon with pepper aboard (*)
    "cargo",              # VP of the other cubes aboard, sold in Lisbon (V44)
    "cargo_home",         # route cost from the ship to Lisbon with such cargo aboard (*)
    "pepper_away",        # route cost to the pepper port when pepper can be loaded (*)
    "upgraded",           # ship 4 in service: 12 discs a round (V43)
    "wrecks",             # ships aground (V21)
    "discs",              # discs available now
    "favourable",         # favourable winds in hand (V33, V34)
    "open_targets",       # own target ports nobody has discovered yet (V51)
    "docked",             # in the Lisbon port for the rest of the round (V47)
)
# (*) in discs as the heuristic plans routes (agents.plan_voyage: free current steps,
# pirates, penalties for red and blue spaces at the seat's risk level), at most ROUTE_CAP.
# The weights are fitted on the standard game; the variants (simple deck, Black Ship, dice
# movement) use them as they are.
NF = len(FEATURES)
NW = 2 * NF


def default_weights() -> np.ndarray:
    """The VP-only judgement in these units: VP / VP_PER_LOGIT, every other weight 0."""
    w = np.zeros(NW, dtype=np.float64)
    w[FEATURES.index("vp")] = 1.0 / VP_PER_LOGIT
    return w


def shipped_weights() -> np.ndarray:
    """Weights per player count (row n), fitted (`agents.value_voyage_fit`) where a fit is
    shipped for that count, else `default_weights`."""
    out = np.tile(default_weights(), (K.MAXP + 1, 1))
    try:
        from tradewinds.agents.value_voyage_fit import FIT
    except ImportError:          # not fitted yet (training.fit_voyage_value imports this)
        return out
    if tuple(FIT["features"]) != FEATURES:
        raise ValueError("agents/value_voyage_fit.py was fitted to other features "
                         "(refit: tradewinds train voyage-value)")
    for n, w in FIT["weights"].items():
        out[int(n)] = np.asarray(w, dtype=np.float64)
    return out


WEIGHTS = shipped_weights()


@njit(cache=True)
def features(s, m, routes, p, out):
    """Seat p's features (FEATURES order) into out[:NF], times the progress into out[NF:]."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    vp = np.zeros(K.MAXP, dtype=np.int64)
    K.scores(s, m, vp)
    out[0] = vp[p]
    out[1] = s[K.TILES + p]
    prm = PV.PARAMS
    wt, dist, via, valid = PV.route_context(s, m, PV.PLAN_WEIGHTS, routes, p, prm)
    dx = np.empty(m[K.M_P] + 1, dtype=np.int32)
    PV.dists_from(m, wt, dist, via, valid, s[K.SHIP + p], dx)
    home = min(dx[m[K.M_P]], ROUTE_CAP * PV.DISC) / PV.DISC
    pepper = s[K.CUBES + p * K.NG + R.PEPPER] == 1
    cargo = 0.0
    for g in range(K.NG):
        if g != R.PEPPER and s[K.CUBES + p * K.NG + g] == 1:
            cargo += K.GOOD_VP[g]
    out[2] = 1.0 if pepper else 0.0
    out[3] = home if pepper else 0.0
    out[4] = cargo
    out[5] = home if cargo > 0 else 0.0
    if not pepper and PV.can_load(s, p, R.PEPPER):
        port = PV.pepper_port(s, m, wt, dist, via, valid, dx)
        if port >= 0:
            out[6] = min(dx[port], ROUTE_CAP * PV.DISC) / PV.DISC
    out[7] = s[K.UPGRADED + p]
    for k in range(K.NUM_SHIPS):
        out[8] += s[K.WRECKED + p * K.NUM_SHIPS + k]
    out[9] = K.available(s, p)
    out[10] = s[K.HAND + p * K.NK + R.FAVOURABLE]
    for j in range(K.NT):
        q = s[K.TARGETS + p * K.NT + j]
        if q >= 0 and s[K.DISCOVERED + q] < 0:
            out[11] += 1.0
    out[12] = s[K.DOCKED + p]
    progress = s[K.TILES_TAKEN] / max(1, s[K.TILES_TOTAL])
    for i in range(NF):
        out[NF + i] = out[i] * progress


@njit(cache=True)
def scores_of(s, m, routes, w, out):
    """out[p] = seat p's fitted score (log-odds units) for every seat in the game."""
    f = np.empty(NW, dtype=np.float64)
    for p in range(s[K.NP]):
        features(s, m, routes, p, f)
        u = 0.0
        for i in range(NW):
            u += w[i] * f[i]
        out[p] = u


@njit(cache=True)
def played_out(aux, s, out):
    """out[p] = DECIDED x seat p's share of the win when every seat plays the heuristic from
    `s` (a determinization: every seat may read it all) to the end of the game. The key is
    fixed: the Voyage heuristic draws from it only when its own choice is not legal."""
    t = s.copy()
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    key = np.zeros(2, dtype=np.int32)
    while not K.is_terminal(t):
        K.step(t, aux.m, HV.heuristic_action(aux, t, mask, key))
    K.returns(t, aux.m, out)
    for p in range(out.shape[0]):
        out[p] *= DECIDED


@njit(cache=True)
def position_values(aux, s, out):
    """The judgement bound for the search: fitted scores in VP-like units (module notes);
    a position in the endgame is played out instead (`ENDGAME_TILES`)."""
    for p in range(out.shape[0]):
        out[p] = 0.0
    if s[K.TILES_TOTAL] - s[K.TILES_TAKEN] <= ENDGAME_TILES:
        played_out(aux, s, out)
        return
    scores_of(s, aux.m, PV.aux_routes(aux), WEIGHTS[s[K.NP]], out)
    for p in range(s[K.NP]):
        out[p] *= VP_PER_LOGIT


bind_values(VoyageAux, position_values)

disk_cache.refresh(globals())
