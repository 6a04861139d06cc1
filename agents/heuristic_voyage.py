"""The Voyage heuristic: a greedy route planner written from the rules, inside numba.

`heuristic_action(aux, s, mask, key)` returns a legal action for the decider of `s` in
every phase. It is the `heuristic` agent's strategy (played on a determinization, so it
reads only what its seat may see) and the rollout policy of the search agents, so it is
written to be fast: no Python objects, a handful of small shortest-route tables per
decision (`voyage_env.routes`), or none when the aux value carries precomputed tables
(see `aux_routes`; their cost is in docs/agents.md, "The Voyage heuristic: measured").

Strategy (docs/rules/voyage.md; docs/design.md §8, §12):

- **Goal.** While monastery tiles remain, the fleet's main goal is the pepper port
  (Calicut) and, once pepper is aboard, Lisbon: the tile is 10 VP and taking the tiles is
  what ends the game (V41, V49). Without pepper to fetch the goal is Lisbon when there is
  cargo to sell or a wreck to repair, otherwise the best port to visit.
- **Detours.** Every port with something to gain is a candidate: discovery VP (V23, the
  year band), +5 when it is one of the seat's target cards (V51), a share of 5 for denying
  an opponent's target card (they are hidden; the chance is counted from the decks),
  a cube it can load (5, or 10 for nutmeg/silver and for pepper while tiles remain, plus
  a bonus toward the upgrade's 3 cubes, V43). A candidate is taken when its value beats
  `LAMBDA` VP per extra disc of the detour (to the candidate, then on to the goal).
- **Routes** count discs (free steps along a current's arrows, VA29; +1 for pirates) plus
  a planning penalty for blue hexes and for red hexes (a wreck on 2 of 6 faces) by risk
  level: 4 discs per red hex on the way out, 10 with pepper or 10 VP of cargo aboard or
  with a ship already wrecked (the Cape's red band has a crossing with 2 red hexes for
  2-5 discs more than the shortest, which has 5). The step actually taken re-weighs a
  blue neighbour by the best card in hand for it, and the Black Ship's hex like a red one;
  a step is taken while it keeps to a (nearly) cheapest route or gets nearer the target.
- **Wind cards** (V29-V35) are scored in discs: a favourable wind gives back what it
  returns, a compass storm by how much nearer (or farther) it carries the ship, a storm
  costs its discs, a calm the discs still available; a small charge for the free moves it
  hands to opponents in the hemisphere. Reactions to others' cards (V37) step toward the
  seat's own target while that gets it nearer.
- **Lisbon.** Dock when the goal is Lisbon, or on its hex with something to sell or
  repair when few discs are left, or when a detour with the tile's pepper aboard could not
  be back this turn; upgrade with the 3 cheapest non-pepper cubes while the game goes on
  (V43); take the monastery tile with pepper (`P_SELL_LAST` = 1 sells it instead when the
  last tile would end a game the seat is losing: off by default, docs/agents.md); keep
  the wind-card hand unless it is worse than a fresh one (V45).
- **Bidding** (V10-V12, VA13). Every seat's next turn is foreseen as if it moved first
  (`_foresee_turn`: its plan followed step by step, discs paid off the currents and for
  pirates; no cards, no die). An undiscovered port on two seats' foreseen routes is
  contested, and so is docking with a tile's pepper when more seats would dock with one
  this round than tiles are left. A seat's limit is the largest total bid b whose
  contested entries, still reached with the discs left after b, are worth b *
  `P_BID_PRICE` VP (a port by its discovery, target-card and denial value, a tile by
  `P_BID_TILE`). Bids stay spent even when outbid (V12), so a seat raises by one only
  while a contested rival would play before it as things stand and no contested rival's
  limit, counted the same way, beats its own (an equal one beats it from an earlier
  place); it then takes the first free position. How it fares against the former rule
  (pass except in the race for the last tiles), and how often it changes the turn order:
  docs/agents.md, "The Voyage heuristic: measured".
- **Wrecks** fall on the ship whose loss costs least (cubes aboard, and the pepper hold
  while pepper is still wanted).
- **End round** (the last tile taken, V49): only what can be scored this turn counts:
  discoveries in reach, docking with cargo.
- **Dice movement** (variant 2, VA34): the same plan counted in movement points, on the
  route row without red or blue penalties (`routes.PLAN_DICE`: those spaces do nothing);
  the Black Ship's hex keeps the risk-level penalty (its attack still rolls the die). There
  are no target cards to chase or deny, and the upgrade only brings ship 4 into service (no
  extra movement), so it is skipped and counts no bonus on the way: three cubes sold are
  15 VP, nutmeg and silver lie at the far end of the map.

Randomness: none is needed; a (never expected) illegal choice falls back to a uniform
legal action drawn from the generator at key[0:2], so every call returns a legal action.
`choose` is the unguarded strategy (tests check it is always legal); `decide` takes the
weights, tables and parameters explicitly (lab/heuristic_voyage_strength.py uses it
to compare parameter sets).

The plan (the parameters, route tables, what the ports are worth, the target a seat heads
for) is `agents.plan_voyage`, shared with the destination search and the leaf judgement;
this module plays each phase toward it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.agents.plan_voyage import (
    DISC,
    INF,
    NG,
    NK,
    P_BID_PRICE,
    P_BID_TILE,
    P_GIFT,
    P_KEEP_FAV,
    P_SELL_LAST,
    P_SHIELD_MIN,
    P_UPGRADE_ROUNDS,
    PARAMS,
    PEPPER,
    PLAN_WEIGHTS,
    any_wreck,
    aux_routes,
    can_load,
    costs_to,
    denial_values,
    dists_from,
    fill_row,
    good_value,
    is_target,
    last_round,
    non_pepper_cubes,
    plan,
    plan_with,
    port_values,
    risk_level,
    route_context,
    tiles_left,
)
from tradewinds.agents.policies import bind_heuristic
from tradewinds.compiled import disk_cache
from voyage_env import actions as A
from voyage_env import kernel as K
from voyage_env import routes as RT
from voyage_env import rules as R
from voyage_env.bindings import VoyageAux
from voyage_env.state import BID, CARDS, MONASTERY, MOVE, ORDER, PLAY, REACT, UPGRADE, WRECK

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

# ---------------------------------------------------------------- wind cards


@njit(cache=True, inline="always")
def _opponents_in_hemisphere(s, m, p, h):
    hemi = K.hexf(m, h, K.F_HEMI)
    k = 0
    for q in range(s[K.NP]):
        if q != p and s[K.DOCKED + q] == 0 and K.hexf(m, s[K.SHIP + q], K.F_HEMI) == hemi:
            k += 1
    return k


@njit(cache=True, inline="always")
def _compass_end(m, h, d):
    for _ in range(R.COMPASS_STEPS):
        t = K.nb(m, h, d)
        if t < 0:
            break
        h = t
    return h


@njit(cache=True, inline="always")
def _card_gain(s, m, p, kind, at, avail, spent, tk, prm):
    """What playing `kind` on the blue hex `at` is worth to p, in route units (quarter
    discs); avail/spent: p's discs after paying for the step; tk: the target's table."""
    gift = prm[P_GIFT] * DISC * _opponents_in_hemisphere(s, m, p, at)
    if kind <= R.STORM4:
        return -float(K.storm_n(kind) * DISC) - gift * K.storm_n(kind)
    if kind == R.FAVOURABLE:
        back = spent if spent < R.FAVOURABLE_REGAIN else R.FAVOURABLE_REGAIN
        return float(back * DISC) - prm[P_KEEP_FAV] * DISC - gift * R.FAVOURABLE_REACH
    if kind == R.CALM:
        return -float(avail * DISC)
    e = _compass_end(m, at, kind - R.COMPASS)
    if tk[at] >= INF or tk[e] >= INF:
        return -gift * R.COMPASS_STEPS
    return float(tk[at] - tk[e]) - gift * R.COMPASS_STEPS


@njit(cache=True)
def _best_card(s, m, p, at, avail, spent, tk, prm, minus_fav):
    """(gain, kind) of the best card p could play on `at` (kind -1: none playable);
    minus_fav: one favourable wind of the hand is spent already (a pirate shield)."""
    best, best_kind = -1e18, -1
    for kind in range(NK):
        held = s[K.HAND + p * NK + kind] - (1 if minus_fav and kind == R.FAVOURABLE else 0)
        if held > 0 and K.storm_n(kind) <= avail:
            g = _card_gain(s, m, p, kind, at, avail, spent, tk, prm)
            if g > best:
                best, best_kind = g, kind
    return best, best_kind


# ---------------------------------------------------------------- phases


@njit(cache=True)
def _should_dock(s, m, wt, dist, via, valid, dx, p, k, avail):
    """On the Lisbon hex: dock (V39) when there is something to sell or repair and the
    plan is Lisbon, the turn is spent, the game ends, or a detour with a tile's pepper
    aboard could not be back in Lisbon this turn; with few discs left docking costs
    little."""
    P = m[K.M_P]
    if K.cube_count(s, p) == 0 and not any_wreck(s, p):
        return False
    if k == P or k < 0 or avail <= 2 or last_round(s):
        return True
    if s[K.CUBES + p * NG + PEPPER] == 1:
        back = costs_to(m, wt, dist, via, valid, P)[K.portf(m, k, K.P_HEX)]
        return dx[k] + back > avail * DISC
    return False


@njit(cache=True)
def _move(s, m, wts, routes, mask, prm):
    p = s[K.DECIDER]
    wt, dist, via, valid = route_context(s, m, wts, routes, p, prm)
    dx = np.empty(m[K.M_P] + 1, dtype=np.int32)
    k = plan(s, m, wt, dist, via, valid, dx, p, prm, True)
    return _step_toward(s, m, wts, mask, prm, k, wt, dist, via, valid, dx)


@njit(cache=True)
def step_toward(s, m, wts, routes, mask, prm, k):
    """The move step the strategy takes toward target row k (a port id, or P for Lisbon;
    -1: none): `_move` with the target given rather than planned (agents.destinations_voyage
    searches over it)."""
    p = s[K.DECIDER]
    wt, dist, via, valid = route_context(s, m, wts, routes, p, prm)
    dx = np.empty(m[K.M_P] + 1, dtype=np.int32)
    dists_from(m, wt, dist, via, valid, s[K.SHIP + p], dx)
    return _step_toward(s, m, wts, mask, prm, k, wt, dist, via, valid, dx)


@njit(cache=True, inline="always")
def _step_toward(s, m, wts, mask, prm, k, wt, dist, via, valid, dx):
    """Dock, stop or the step toward k; dx holds the costs from the ship to every row."""
    p = s[K.DECIDER]
    x = s[K.SHIP + p]
    L = m[K.M_LISBON]
    avail = K.available(s, p)
    if x == L and mask[A.DOCK] and _should_dock(s, m, wt, dist, via, valid, dx, p, k, avail):
        return A.DOCK
    if k < 0 or avail == 0:
        return A.STOP
    tk = costs_to(m, wt, dist, via, valid, k)
    if tk[x] >= INF:
        return A.STOP
    cur = K.hexf(m, x, K.F_CURRENT)
    simple = s[K.SIMPLE] == 1
    dice = s[K.DICE] == 1
    favs = s[K.HAND + p * NK + R.FAVOURABLE]
    black = s[K.BLACK_HEX]
    # the Black Ship's attack rolls the die in every variant: its risk-level penalty
    black_pen = wts[risk_level(s, p, prm)][RT.W_RED]
    best, best_a = 1e18, -1
    for d in range(6):
        can_move = mask[A.MOVE + d] == 1
        can_shield = mask[A.SHIELD + d] == 1
        if not (can_move or can_shield):
            continue
        t = K.nb(m, x, d)
        if tk[t] >= INF:
            continue
        base = 0 if cur == d else 1
        pirate = K.hexf(m, t, K.F_PIRATE)
        shield = can_shield and (not can_move or favs >= prm[P_SHIELD_MIN])
        paid = base + (pirate if not shield else 0)
        v = float(paid * DISC + tk[t])
        if t == black and s[K.ATTACKED + p] == 0:
            v += black_pen
        elif K.hexf(m, t, K.F_RED) == 1:
            v += wt[RT.W_RED]        # 0 on the dice row
        if K.hexf(m, t, K.F_BLUE) == 1 and not dice:
            if simple:
                v += wt[RT.W_BLUE]
            else:
                g, _ = _best_card(s, m, p, t, avail - paid, s[K.SPENT + p] + paid, tk, prm,
                                  shield)
                v -= g
        # a step is worth taking when it keeps to a (nearly) cheapest route or brings the
        # target nearer: a costly card on the way still beats waiting, as the hand
        # changes only by playing
        tree = d == via[k, x]
        if v > tk[x] + DISC / 2 and tk[t] >= tk[x] and not tree:
            continue
        if tree:
            v -= 0.01  # ties: the tree's step
        if v < best:
            best = v
            best_a = (A.SHIELD if shield else A.MOVE) + d
    if best_a < 0:
        return A.STOP
    return best_a


@njit(cache=True)
def _play(s, m, wts, routes, mask, prm):
    p = s[K.DECIDER]
    x = s[K.SHIP + p]
    P = m[K.M_P]
    wt, dist, via, valid = route_context(s, m, wts, routes, p, prm)
    dx = np.empty(P + 1, dtype=np.int32)
    k = plan(s, m, wt, dist, via, valid, dx, p, prm, True)
    if k < 0:
        k = P
    tk = costs_to(m, wt, dist, via, valid, k)
    _, kind = _best_card(s, m, p, x, K.available(s, p), s[K.SPENT + p], tk, prm, False)
    if kind < 0:
        return -1
    return A.PLAY + kind


@njit(cache=True)
def _react(s, m, wts, routes, mask, prm):
    p = s[K.DECIDER]
    x = s[K.SHIP + p]
    P = m[K.M_P]
    wt, dist, via, valid = route_context(s, m, wts, routes, p, prm)
    dx = np.empty(P + 1, dtype=np.int32)
    k = plan(s, m, wt, dist, via, valid, dx, p, prm, False)
    if k < 0:
        return A.STOP
    tk = costs_to(m, wt, dist, via, valid, k)
    best, best_a = tk[x], A.STOP
    for d in range(6):
        if mask[A.MOVE + d] == 1:
            t = K.nb(m, x, d)
            if tk[t] < best:
                best, best_a = tk[t], A.MOVE + d
    return best_a


@njit(cache=True)
def _wreck(s, m, mask):
    p = s[K.DECIDER]
    want_pepper = tiles_left(s) > 0 and s[K.CUBES + p * NG + PEPPER] == 0
    best, best_a = 1e18, -1
    for k in range(4):
        if mask[A.WRECK + k] == 0:
            continue
        loss = 0.0
        for g in (2 * k, 2 * k + 1):
            if s[K.CUBES + p * NG + g] == 1:
                loss += good_value(s, g)
            elif s[K.STOCK + g] > 0:
                loss += 1.0 + (6.0 if g == PEPPER and want_pepper else 0.0)
        if loss < best:
            best, best_a = loss, A.WRECK + k
    return best_a


@njit(cache=True, inline="always")
def _will_take_tile(s, p):
    return s[K.CUBES + p * NG + PEPPER] == 1 and tiles_left(s) > 0


@njit(cache=True)
def _losing_if_ended(s, m, p, gain):
    vp = np.zeros(K.MAXP, dtype=np.int64)
    K.scores(s, m, vp)
    mine = vp[p] + gain
    for q in range(s[K.NP]):
        if q != p and vp[q] >= mine:
            return True
    return False


@njit(cache=True)
def _upgrade(s, m, mask, prm):
    p = s[K.DECIDER]
    if s[K.UPG_GIVEN] == 0:
        left = tiles_left(s) - (1 if _will_take_tile(s, p) else 0)
        rounds = s[K.MAX_ROUNDS] - s[K.ROUND]
        if (non_pepper_cubes(s, p) < 3 or left <= 0 or s[K.END_TRIG] == 1
                or rounds < prm[P_UPGRADE_ROUNDS] or s[K.DICE] == 1):
            return A.UPGRADE_SKIP
    best, best_a = 1e18, -1
    for g in range(NG):
        if mask[A.UPGRADE + g] == 1:
            v = good_value(s, g) + (100.0 if g == PEPPER else 0.0)
            if v < best:
                best, best_a = v, A.UPGRADE + g
    return best_a


@njit(cache=True)
def _monastery(s, m, prm):
    p = s[K.DECIDER]
    if (prm[P_SELL_LAST] > 0 and tiles_left(s) == 1
            and s[K.ROUND] < s[K.MAX_ROUNDS] - 3
            and _losing_if_ended(s, m, p, R.MONASTERY_VP)):
        return A.MONASTERY_SELL
    return A.MONASTERY_TAKE


@njit(cache=True)
def _hand_score(s, p):
    v = 0.0
    for kind in range(NK):
        c = s[K.HAND + p * NK + kind]
        if kind == R.FAVOURABLE:
            v += 2.0 * c
        elif kind == R.CALM:
            v -= 1.5 * c
        elif kind <= R.STORM4:
            v -= 0.5 * (kind + 1) * c
        else:
            v += 0.2 * c
    return v


@njit(cache=True)
def _cards(s):
    """`cards:new` when the hand is worse than as many average cards."""
    p = s[K.DECIDER]
    size = K.hand_total(s, p)
    avg = (2.0 * 18 - 1.5 * 10 - 0.5 * 10 - 1.0 * 10 - 1.5 * 8 + 0.2 * 30) / R.DECK_SIZE
    if _hand_score(s, p) < size * avg - 1.0:
        return A.CARDS_NEW
    return A.CARDS_TOP_UP


MAX_ENTRIES = 8        # ports a foreseen turn records (`_foresee_turn`)
MAX_STEPS = 60         # steps a foreseen turn follows


@njit(cache=True, inline="always")
def _find_value(s, m, p, port, denial):
    """What discovering `port` gives p (V23, V51, the denial share): 0 when discovered."""
    if s[K.DISCOVERED + port] >= 0:
        return 0.0
    v = float(K.portf(m, port, K.P_VP))
    if is_target(s, p, port):
        v += R.TARGET_VP
    else:
        v += denial[K.portf(m, port, K.P_DECK)]
    return v


@njit(cache=True)
def _foresee_turn(s, t, m, wts, routes, p, prm, denial, ports, costs, vals):
    """Seat p's next turn as if it went first (t: a scratch copy of s): the plan's route
    followed step by step and re-planned on the way, as `_move` does, paying discs for
    steps off the current and onto pirates (V15-V18) until they run out; wind cards, the
    die and others' moves are left out. Fills the undiscovered ports it would enter
    (ports; P for docking with a tile's pepper), the discs spent up to each (costs) and
    what each is worth to p (vals); returns how many."""
    t[:] = s
    P = m[K.M_P]
    L = m[K.M_LISBON]
    budget = K.available(s, p) + s[K.BIDS + p]
    spent = 0
    count = 0
    dx = np.empty(P + 1, dtype=np.int32)
    # The ports' values read only what entering a port can change (discoveries, cubes,
    # stock), the risk level (so the tables) only the cubes: they are worked out again when
    # the turn changed those, not at every step.
    wt, dist, via, valid = route_context(t, m, wts, routes, p, prm)
    worth = np.empty(P, dtype=np.float64)
    port_values(t, m, p, prm, denial, worth)
    found = loaded = False
    for _ in range(MAX_STEPS):
        x = t[K.SHIP + p]
        if loaded:
            wt, dist, via, valid = route_context(t, m, wts, routes, p, prm)
        if found or loaded:
            port_values(t, m, p, prm, denial, worth)
            found = loaded = False
        k = plan_with(t, m, wt, dist, via, valid, dx, p, prm, True, worth)
        if k < 0:
            break
        if k == P and x == L:                    # docking ends the turn (V47)
            if _will_take_tile(t, p) and count < MAX_ENTRIES:
                ports[count], costs[count], vals[count] = P, spent, prm[P_BID_TILE]
                count += 1
            break
        fill_row(m, wt, dist, via, valid, k)
        d = via[k, x]
        if dist[k, x] >= INF or d < 0:
            break
        h = K.nb(m, x, d)
        c = (0 if K.hexf(m, x, K.F_CURRENT) == d else 1) + K.hexf(m, h, K.F_PIRATE)
        if spent + c > budget:
            break
        spent += c
        t[K.SHIP + p] = h
        port = K.hexf(m, h, K.F_PORT)
        if port >= 0:
            if t[K.DISCOVERED + port] < 0:
                if count < MAX_ENTRIES:
                    ports[count], costs[count] = port, spent
                    vals[count] = _find_value(t, m, p, port, denial)
                    count += 1
                t[K.DISCOVERED + port] = p
                found = True
            g = K.portf(m, port, K.P_GOOD)
            if g >= 0 and can_load(t, p, g):
                t[K.CUBES + p * NG + g] = 1
                t[K.STOCK + g] -= 1
                loaded = True
        if spent >= budget:
            break
    return count


@njit(cache=True)
def _ahead_before(s, q, p):
    """q comes before p in the order the round started with."""
    for pos in range(s[K.NP]):
        if s[K.ORDER_ + pos] == q:
            return True
        if s[K.ORDER_ + pos] == p:
            return False
    return False


@njit(cache=True)
def _ahead(s, q, p):
    """q would play before p if the auction ended now (V11: bidders by bid size, then the
    others in their previous order)."""
    bq, bp = s[K.BIDS + q], s[K.BIDS + p]
    if bq != bp:
        return bq > bp
    return _ahead_before(s, q, p)


@njit(cache=True)
def _bid_limits(s, m, wts, routes, prm, contest, limit):
    """Every seat's next turn foreseen (`_foresee_turn`); contest[p, q] = 1 when p and q would
    enter a same undiscovered port, or both dock with a tile's pepper and those dockers
    outnumber the tiles left. limit[p]: the highest total bid b such that the contested
    entries p still reaches with the discs left after it are worth b * P_BID_PRICE."""
    n = s[K.NP]
    P = m[K.M_P]
    t = np.empty_like(s)
    ports = np.full((K.MAXP, MAX_ENTRIES), -1, dtype=np.int64)
    costs = np.zeros((K.MAXP, MAX_ENTRIES), dtype=np.int64)
    vals = np.zeros((K.MAXP, MAX_ENTRIES), dtype=np.float64)
    count = np.zeros(K.MAXP, dtype=np.int64)
    denial = denial_values(s, m, prm)
    dockers = 0
    for p in range(n):
        count[p] = _foresee_turn(s, t, m, wts, routes, p, prm, denial, ports[p], costs[p],
                                 vals[p])
        if count[p] > 0 and ports[p, count[p] - 1] == P:
            dockers += 1
    tile_race = dockers > tiles_left(s)
    contest[:, :] = 0
    price = prm[P_BID_PRICE]
    for p in range(n):
        hot = np.zeros(MAX_ENTRIES, dtype=np.uint8)
        for i in range(count[p]):
            k = ports[p, i]
            if vals[p, i] <= 0.0 or (k == P and not tile_race):
                continue
            for q in range(n):
                if q == p:
                    continue
                for j in range(count[q]):
                    if ports[q, j] == k:
                        contest[p, q] = 1
                        hot[i] = 1
        # the largest total b whose contested entries, still reached with the discs left
        # after it, are worth b * price
        limit[p] = 0
        if price <= 0:
            continue
        total = K.available(s, p) + s[K.BIDS + p]
        for b in range(1, total + 1):
            value = 0.0
            for i in range(count[p]):
                if hot[i] == 1 and costs[p, i] <= total - b:
                    value += vals[p, i]
            if value >= b * price:
                limit[p] = b


@njit(cache=True)
def _bid(s, m, wts, routes, mask, prm):
    """Bid for the first position when this round's turn would race an opponent to an
    undiscovered port or to the last tiles (V10, V11; bids stay spent, V12): raise by one
    while the total stays within what the race is worth and its discs can spare, and only
    when the rivals' own limits (counted the same way) say the raise can win."""
    p = s[K.DECIDER]
    n = s[K.NP]
    contest = np.zeros((K.MAXP, K.MAXP), dtype=np.uint8)
    limit = np.zeros(K.MAXP, dtype=np.int64)
    _bid_limits(s, m, wts, routes, prm, contest, limit)
    total = s[K.BID_HIGH] + 1
    if total > limit[p] or mask[A.BID + total - 1] == 0:
        return A.BID_PASS
    threat = False
    for q in range(n):
        if q == p or contest[p, q] == 0:
            continue
        if _ahead(s, q, p):
            threat = True
        # a rival with a higher limit (or an equal one and the earlier place) outbids p
        if limit[q] > limit[p] or (limit[q] == limit[p] and _ahead_before(s, q, p)):
            return A.BID_PASS
    return A.BID + total - 1 if threat else A.BID_PASS


@njit(cache=True)
def _order(mask):
    for a in range(A.ORDER, A.MOVE):
        if mask[a] == 1:
            return a
    return -1


@njit(cache=True)
def choose(s, m, wts, routes, mask, prm):
    """The strategy's action for the decider of `s` (mask: its legal actions, filled)."""
    phase = s[K.PHASE]
    if phase == MOVE:
        return _move(s, m, wts, routes, mask, prm)
    if phase == BID:
        return _bid(s, m, wts, routes, mask, prm)
    if phase == ORDER:
        return _order(mask)
    if phase == PLAY:
        return _play(s, m, wts, routes, mask, prm)
    if phase == REACT:
        return _react(s, m, wts, routes, mask, prm)
    if phase == WRECK:
        return _wreck(s, m, mask)
    if phase == UPGRADE:
        return _upgrade(s, m, mask, prm)
    if phase == MONASTERY:
        return _monastery(s, m, prm)
    if phase == CARDS:
        return _cards(s)
    return -1


@njit(cache=True)
def decide(s, m, wts, routes, mask, key, prm):
    """`choose`, guarded: any choice outside the legal mask becomes a uniform legal one."""
    K.legal_mask(s, m, mask)
    a = choose(s, m, wts, routes, mask, prm)
    if a < 0 or a >= mask.shape[0] or mask[a] == 0:
        return rng.pick_set(mask, key)
    return a


@njit(cache=True)
def heuristic_action(aux, s, mask, key):
    # writable copies of the constants: one compiled specialisation of the strategy serves
    # this entry point and callers passing their own weights and parameters
    return decide(s, aux.m, PLAN_WEIGHTS.copy(), aux_routes(aux), mask, key, PARAMS.copy())


bind_heuristic(VoyageAux, heuristic_action)

# the search's judgement of Voyage positions binds itself (agents.policies.bind_values); it
# builds on the helpers above, so it is imported once they exist
from tradewinds.agents import value_voyage  # noqa: E402, F401

disk_cache.refresh(globals())
