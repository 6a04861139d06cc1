"""Net-guided information-set MCTS over many games at once (AlphaZero's search on SO-ISMCTS).

The search of `agents.ismcts`, with the policy-value net (`agents.pvnet`) in place of the
heuristic prior and the rollouts: every simulation samples a determinization of the real
state for the searcher (`tradewinds.compiled.protocol.determinize`), walks the tree by
action ids with PUCT (the net's prior over the actions legal in that determinization,
availability counts in place of the parent's visits), and judges the leaf it reaches by
the net's value, the expected win share of every seat. A finished game is judged by its returns.

Many games are searched side by side (a `Forest`, one tree per game): one *wave* takes
one simulation of every game to its leaf, puts all the leaves' observations through one
forward pass, then expands and backs up. Waves run inside one njit call, so there is no
Python per simulation; a time budget is kept by running waves in chunks.

The search sees the real state only through `determinize`, its observation and its own
legal actions (tests/agents: the honesty test).

Selection at a node where seat p moves: Q + c * P * sqrt(availability) / (1 + visits),
P the prior renormalised over the legal actions; an action not tried yet is valued at the
net's value of the node for p, less ``fpu_reduction`` (first-play urgency).

With ``judge`` j > 0 a leaf's value is (1 - j) times the net's plus j times the game's own
judgement of the leaf (`agents.playouts.judge`: the fitted position values, and in the
Voyage game the endgame played out), AlphaGo's mix of a value net and an evaluation; 0,
the default, is AlphaZero's net alone. With ``judge_depth`` d > 0 that judgement comes
after d decisions of the game's heuristic played from the leaf (-1: to the end), as
`mcts`'s leaves are judged (AlphaGo's value net mixed with a rollout).

With ``root="gumbel"`` the root does not use PUCT: `agents.gumbel` picks the candidates
(Gumbel top-m) and spends the simulations on them by sequential halving, phase by phase
(a plan of root actions per simulation, `Forest.plan`); the action played is the last
phase's best and `Searcher.improved` holds the policy target. Below the root, PUCT.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.linalg.cython_blas  # noqa: F401  (the BLAS numba's np.dot calls, loaded first)
from numba import njit
from threadpoolctl import ThreadpoolController

from tradewinds.agents import gumbel, net_input, playouts, pvnet
from tradewinds.compiled import disk_cache, protocol

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

PRIOR_FLOOR = 1e-3      # prior mass spread over legal actions the net gave nothing to
HEURISTIC = playouts.ROLLOUTS["heuristic"]
_BLAS = None            # a ThreadpoolController, made on first use


@dataclass
class SearchConfig:
    """Settings of the search; the defaults are what the shipped nets are played with."""

    simulations: int = 200
    c: float = 1.5
    fpu_reduction: float = 0.1
    dirichlet_alpha: float = 0.3      # root noise, self-play only
    noise_fraction: float = 0.25
    judge: float = 0.0                # share of a leaf's value from the game's judgement
    judge_scale: float = 5.0          # VP of lead per unit of log-odds in that judgement
    judge_depth: int = 0              # heuristic decisions before the judgement (-1: to the end)
    root: str = "puct"                # "gumbel": Gumbel top-m and sequential halving
    gumbel_m: int = 16                # candidates the Gumbel root considers
    gumbel_scale: float = 1.0         # scale of the Gumbel draws (0: the prior's top m)

    def check(self) -> None:
        if not isinstance(self.simulations, (int, np.integer)) or self.simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {self.simulations!r}")
        if not self.c >= 0:
            raise ValueError(f"c must be >= 0, got {self.c!r}")
        if not 0.0 <= self.noise_fraction <= 1.0:
            raise ValueError(f"noise_fraction must be in [0, 1], got {self.noise_fraction!r}")
        if not self.dirichlet_alpha > 0:
            raise ValueError(f"dirichlet_alpha must be positive, got {self.dirichlet_alpha!r}")
        if not 0.0 <= self.judge <= 1.0:
            raise ValueError(f"judge must be in [0, 1], got {self.judge!r}")
        if not self.judge_scale > 0:
            raise ValueError(f"judge_scale must be positive, got {self.judge_scale!r}")
        if not isinstance(self.judge_depth, (int, np.integer)) or self.judge_depth < -1:
            raise ValueError(f"judge_depth must be -1 (to the end) or >= 0 decisions, "
                             f"got {self.judge_depth!r}")
        if self.root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}, got {self.root!r}")
        if not isinstance(self.gumbel_m, (int, np.integer)) or self.gumbel_m < 1:
            raise ValueError(f"gumbel_m must be a positive integer, got {self.gumbel_m!r}")
        if not self.gumbel_scale >= 0:
            raise ValueError(f"gumbel_scale must be >= 0, got {self.gumbel_scale!r}")


ROOTS = ("puct", "gumbel")
NO_BUDGET_AT_GUMBEL_ROOT = ("time_budget needs root='puct' (sequential halving plans its "
                            "simulations in advance)")


class Forest(NamedTuple):
    """The trees of `games` searches, up to `max_nodes` nodes each (node 0: the root), and
    one wave's scratch: passed to the njit search as one value."""

    children: np.ndarray     # [game, node, action] -> child node, -1 if never tried
    prior: np.ndarray        # [game, node, action]: the net's policy at the node
    expanded: np.ndarray     # [game, node]: 1 once the net has judged the node
    visits: np.ndarray
    avail: np.ndarray        # simulations in which the node's action was legal
    value: np.ndarray        # summed values of the seat that moved into the node
    mover: np.ndarray
    netval: np.ndarray       # [game, node, seat]: the net's seat values at the node
    size: np.ndarray         # [game]: nodes in use
    rootsum: np.ndarray      # [game, seat]: summed seat values at the root
    states: np.ndarray       # scratch for one wave: each game's determinization
    obs: np.ndarray
    masks: np.ndarray
    paths: np.ndarray
    plan: np.ndarray         # [game, simulation]: the root action it must take, -1: PUCT

    def first(self, games: int) -> Forest:
        """The same arrays for the first `games` games only (views)."""
        return Forest(*(a[:games] for a in self))


def new_forest(games: int, max_nodes: int, num_actions: int, obs_size: int,
               state_size: int) -> Forest:
    g, m, a = games, max_nodes, num_actions
    return Forest(children=np.full((g, m, a), -1, dtype=np.int32),
                  prior=np.zeros((g, m, a), dtype=np.float32),
                  expanded=np.zeros((g, m), dtype=np.int8),
                  visits=np.zeros((g, m), dtype=np.int64),
                  avail=np.zeros((g, m), dtype=np.int64),
                  value=np.zeros((g, m), dtype=np.float64),
                  mover=np.zeros((g, m), dtype=np.int64),
                  netval=np.zeros((g, m, pvnet.MAX_SEATS), dtype=np.float32),
                  size=np.ones(g, dtype=np.int64),
                  rootsum=np.zeros((g, pvnet.MAX_SEATS), dtype=np.float64),
                  states=np.zeros((g, state_size), dtype=np.int32),
                  obs=np.zeros((g, obs_size), dtype=np.float32),
                  masks=np.zeros((g, (a + 7) // 8 * 8), dtype=np.int8),
                  paths=np.zeros((g, m + 1), dtype=np.int64),
                  plan=np.full((g, m), -1, dtype=np.int64))


class Knobs(NamedTuple):
    """The search settings the njit search reads (`SearchConfig` documents them)."""

    c: float
    fpu_reduction: float
    judge: float
    judge_scale: float
    judge_depth: int
    hinted: int           # 1: the net also reads the heuristic's choice (`agents.net_input`)


@njit(cache=True)
def _reset(f):
    """Every tree back to its root alone; the root seat values to 0."""
    children, prior, expanded, visits = f.children, f.prior, f.expanded, f.visits
    avail, value, mover, size = f.avail, f.value, f.mover, f.size
    for g in range(children.shape[0]):
        for n in range(size[g]):
            for a in range(children.shape[2]):
                children[g, n, a] = -1
                prior[g, n, a] = 0.0
            expanded[g, n] = 0
            visits[g, n] = 0
            avail[g, n] = 0
            value[g, n] = 0.0
            mover[g, n] = 0
        size[g] = 1
        for p in range(f.rootsum.shape[1]):
            f.rootsum[g, p] = 0.0


@njit(cache=True)
def _select(prior, children, visits, avail, value, netval, node, legal, k, p, c, fpu_reduction):
    """The legal action (`legal[:k]`) maximising PUCT at `node` of one tree, for seat p to
    move; bumps the availabilities of the legal children."""
    total = 0.0
    for i in range(k):
        total += prior[node, legal[i]]
    total += PRIOR_FLOOR
    fpu = netval[node, p] - fpu_reduction
    sqrt_parent = math.sqrt(visits[node] + 1.0)
    best, best_a = -1e300, -1
    for i in range(k):
        a = legal[i]
        p_a = (prior[node, a] + PRIOR_FLOOR / k) / total
        ch = children[node, a]
        if ch >= 0:
            avail[ch] += 1
            n = visits[ch]
            q = value[ch] / n if n > 0 else fpu
            u = q + c * p_a * math.sqrt(avail[ch]) / (1.0 + n)
        else:
            u = fpu + c * p_a * sqrt_parent
        if u > best:
            best, best_a = u, a
    return best_a


@njit(cache=True)
def _descend(aux, s, g, f, path, buf, words, legal, c, fpu_reduction, forced):
    """One simulation of tree g from the determinization `s` down to a leaf, growing the
    tree by the child it steps into; the root action is `forced` unless it is -1. Returns
    (depth, leaf node or -1 when the tree is full, True when the game is over at the
    leaf)."""
    children, prior, expanded, visits = f.children, f.prior, f.expanded, f.visits
    avail, value, mover, netval, size = f.avail, f.value, f.mover, f.netval, f.size
    num_actions = children.shape[2]
    mask = buf[:num_actions]
    node, depth = 0, 0
    path[0] = 0
    while True:
        if protocol.is_terminal(aux, s):
            return depth, node, True
        if expanded[g, node] == 0:
            return depth, node, False
        protocol.legal_mask(aux, s, mask)
        k = playouts.legal_list(buf, words, legal)
        p = protocol.current_player(aux, s)
        a = _select(prior[g], children[g], visits[g], avail[g], value[g], netval[g], node,
                    legal, k, p, c, fpu_reduction)
        if depth == 0 and forced >= 0:
            a = forced
        ch = children[g, node, a]
        protocol.step(aux, s, a)
        if ch < 0:
            if size[g] >= children.shape[1]:
                return depth, -1, protocol.is_terminal(aux, s)
            ch = size[g]
            size[g] += 1
            children[g, node, a] = ch
            mover[g, ch] = p
            avail[g, ch] = 1
        depth += 1
        path[depth] = ch
        node = ch


@njit(cache=True)
def _backup(visits, value, mover, rootsum, g, path, depth, ret):
    """Add one simulation's seat values `ret` along its path: each node for the seat that
    moved into it, the root for every seat (its Q, the blend target of self-play)."""
    visits[g, 0] += 1
    for p in range(ret.shape[0]):
        rootsum[g, p] += ret[p]
    for i in range(1, depth + 1):
        n = path[i]
        visits[g, n] += 1
        value[g, n] += ret[mover[g, n]]


@njit(cache=True)
def _expand(prior, expanded, netval, g, node, logits, value_logits, mask, n, observer, ret):
    """Set node's prior and the net's seat values from one forward pass row; `ret`
    receives the seat values (absolute seats) for the backup."""
    pvnet.seat_values(value_logits, n, observer, ret)
    if node >= 0:
        pvnet.masked_softmax(logits, mask, prior[g, node])
        expanded[g, node] = 1
        for p in range(ret.shape[0]):
            netval[g, node, p] = ret[p]


@njit(cache=True)
def simulate(aux, w, roots, players, keys, sims, waves, knobs, f):
    """Run `waves` waves over every game g whose root visits are below sims[g]: each takes
    one simulation of tree g from a fresh determinization of roots[g] for players[g]
    (keys[g]: its generator) to a leaf; the leaves that need the net go through one
    forward pass (with `knobs.judge` > 0 mixed with the game's judgement of the leaf), in
    the `Forest` f. Returns the simulations run."""
    children, prior, expanded, visits = f.children, f.prior, f.expanded, f.visits
    value, mover, netval, rootsum = f.value, f.mover, f.netval, f.rootsum
    states, obs, masks, paths = f.states, f.obs, f.masks, f.paths
    judge, judge_depth = knobs.judge, knobs.judge_depth
    games = roots.shape[0]
    num_actions = children.shape[2]
    buf, words = playouts.scratch_mask(num_actions)
    legal = np.zeros(buf.shape[0], dtype=np.int64)
    ret = np.zeros(pvnet.MAX_SEATS, dtype=np.float64)
    pending = np.zeros(games, dtype=np.int64)
    leaf = np.zeros(games, dtype=np.int64)
    depth = np.zeros(games, dtype=np.int64)
    observer = np.zeros(games, dtype=np.int64)
    logits = np.zeros((games, num_actions), dtype=np.float32)
    value_logits = np.zeros((games, pvnet.MAX_SEATS), dtype=np.float32)
    judged = np.zeros(pvnet.MAX_SEATS, dtype=np.float64)
    scratch = np.zeros(pvnet.MAX_SEATS, dtype=np.float64)
    seen = np.zeros(states.shape[1], dtype=np.int32)
    hint_mask = np.zeros(num_actions, dtype=np.int8)
    done = 0
    for _ in range(waves):
        m = 0
        for g in range(games):
            if visits[g, 0] >= sims[g]:
                continue
            s = states[g]
            for i in range(s.shape[0]):
                s[i] = roots[g, i]
            protocol.determinize(aux, s, players[g], keys[g])
            d, node, over = _descend(aux, s, g, f, paths[g], buf, words, legal, knobs.c,
                                     knobs.fpu_reduction, f.plan[g, visits[g, 0] - 1])
            done += 1
            if over:
                protocol.returns(aux, s, ret)
                _backup(visits, value, mover, rootsum, g, paths[g], d, ret)
                continue
            p = np.int64(protocol.current_player(aux, s))   # int64 as at the roots: one compile
            net_input.write(aux, s, p, knobs.hinted, hint_mask, keys[g], seen, obs[m])
            protocol.legal_mask(aux, s, masks[m, :num_actions])
            pending[m], leaf[m], depth[m], observer[m] = g, node, d, p
            m += 1
        if m == 0:
            if done == 0 or _all_done(visits, sims):
                break
            continue
        pvnet.forward(w, obs[:m], logits[:m], value_logits[:m])
        for i in range(m):
            g = pending[i]
            _expand(prior, expanded, netval, g, leaf[i], logits[i], value_logits[i],
                    masks[i, :num_actions], roots[g, 0], observer[i], ret)
            if judge > 0.0:             # states[g] still holds this leaf
                if judge_depth != 0:
                    playouts.rollout(aux, states[g], buf[:num_actions], words, keys[g],
                                     HEURISTIC, judge_depth)
                playouts.judge(aux, states[g], judged, scratch, knobs.judge_scale)
                for q in range(ret.shape[0]):
                    ret[q] = (1.0 - judge) * ret[q] + judge * judged[q]
            _backup(visits, value, mover, rootsum, g, paths[g], depth[i], ret)
    return done


@njit(cache=True)
def _all_done(visits, sims):
    for g in range(sims.shape[0]):
        if visits[g, 0] < sims[g]:
            return False
    return True


@njit(cache=True)
def expand_roots(aux, w, roots, players, keys, hinted, f):
    """Evaluate every root (its searcher's own net input and legal actions) in one
    forward pass and expand it; its visit count starts at 1, its value sum at the net's."""
    children, prior, expanded, visits, netval = f.children, f.prior, f.expanded, f.visits, f.netval
    rootsum, obs, masks = f.rootsum, f.obs, f.masks
    games = roots.shape[0]
    num_actions = children.shape[2]
    ret = np.zeros(pvnet.MAX_SEATS, dtype=np.float64)
    logits = np.zeros((games, num_actions), dtype=np.float32)
    value_logits = np.zeros((games, pvnet.MAX_SEATS), dtype=np.float32)
    seen = np.zeros(roots.shape[1], dtype=np.int32)
    hint_mask = np.zeros(num_actions, dtype=np.int8)
    for g in range(games):
        net_input.write(aux, roots[g], players[g], hinted, hint_mask, keys[g], seen, obs[g])
        protocol.legal_mask(aux, roots[g], masks[g, :num_actions])
    pvnet.forward(w, obs[:games], logits, value_logits)
    for g in range(games):
        _expand(prior, expanded, netval, g, 0, logits[g], value_logits[g],
                masks[g, :num_actions], roots[g, 0], players[g], ret)
        visits[g, 0] = 1
        for p in range(ret.shape[0]):
            rootsum[g, p] = ret[p]


@njit(cache=True)
def root_visits(children, visits, g, out):
    """out[a] = visits of root child a of tree g (0 where never tried)."""
    for a in range(children.shape[2]):
        ch = children[g, 0, a]
        out[a] = visits[g, ch] if ch >= 0 else 0


class Searcher:
    """The net-guided search for up to `games` games at once, with one `Forest` reused
    from decision to decision."""

    CHUNK = 16      # waves per njit call under a time budget

    def __init__(self, game, weights: pvnet.Weights, games: int = 1,
                 config: SearchConfig | None = None):
        self.game, self.weights = game, weights
        self.config = config or SearchConfig()
        self.config.check()
        width = weights.w_in.shape[0]
        if width not in (game.obs_size, game.obs_size + game.num_actions):
            raise ValueError(f"a net of {width} inputs cannot read {game.name} positions "
                             f"({game.obs_size} observation entries, {game.num_actions} actions)")
        self.hinted = int(width != game.obs_size)
        self.forest = new_forest(games, self.config.simulations + 1, game.num_actions,
                                 width, game.state_size)

    def run(self, roots: np.ndarray, players: np.ndarray, keys: np.ndarray,
            sims: np.ndarray | None = None, noise: np.random.Generator | None = None,
            time_budget: float | None = None) -> np.ndarray:
        """Search every row of `roots` [G, STATE_SIZE] for players[g], keys[g] (int32[G, 2],
        advanced); returns the root visit counts [G, num_actions]. `sims[g]` caps game g
        (default: the config's simulations); `noise`: mix Dirichlet noise into the root
        priors (self-play); `time_budget`: seconds for the whole batch."""
        cfg, f = self.config, self.forest
        games = roots.shape[0]
        if time_budget is not None and cfg.root == "gumbel":
            raise ValueError(NO_BUDGET_AT_GUMBEL_ROOT)
        if games > f.children.shape[0]:
            raise ValueError(f"{games} roots for a searcher of {f.children.shape[0]} games")
        if sims is None:
            sims = np.full(games, cfg.simulations, dtype=np.int64)
        sims = np.minimum(np.asarray(sims, dtype=np.int64), f.children.shape[1] - 1)
        with _one_blas_thread():
            return self._run(roots, players, keys, sims, noise, time_budget)

    def _run(self, roots, players, keys, sims, noise, time_budget) -> np.ndarray:
        cfg = self.config
        games = roots.shape[0]
        _reset(self.forest)
        f = self.forest.first(games)
        aux = self.game.aux
        knobs = Knobs(float(cfg.c), float(cfg.fpu_reduction), float(cfg.judge),
                      float(cfg.judge_scale), int(cfg.judge_depth), self.hinted)
        expand_roots(aux, self.weights, roots, players, keys, self.hinted, f)
        if cfg.root == "gumbel":
            self._gumbel(roots, players, keys, sims, knobs, f)
            return self._root_visits(games)
        if noise is not None and cfg.noise_fraction > 0:
            self._add_noise(games, noise)
        waves = int(sims.max())
        if time_budget is None:
            simulate(aux, self.weights, roots, players, keys, sims, waves, knobs, f)
        else:
            deadline = time.perf_counter() + time_budget
            done = 0
            while done < waves and (done == 0 or time.perf_counter() < deadline):
                step = min(self.CHUNK, waves - done)
                simulate(aux, self.weights, roots, players, keys, sims, step, knobs, f)
                done += step
        return self._root_visits(games)

    def _root_visits(self, games: int) -> np.ndarray:
        out = np.zeros((games, self.game.num_actions), dtype=np.int64)
        for g in range(games):
            root_visits(self.forest.children, self.forest.visits, g, out[g])
        return out

    def _gumbel(self, roots, players, keys, sims, knobs, f) -> None:
        """The Gumbel root (`agents.gumbel`): candidates by Gumbel top-m, then the phases
        of sequential halving, each one `simulate` call with its plan of root actions;
        sets `chosen` and `improved`. The draws come from each game's key, so a game
        searched alone or in a batch draws the same."""
        cfg, na, games = self.config, self.game.num_actions, roots.shape[0]
        f.plan[:] = -1
        legal = [np.flatnonzero(f.masks[g, :na]) for g in range(games)]
        logits = [gumbel.logits_of(f.prior[g, 0], legal[g]) for g in range(games)]
        draws = [cfg.gumbel_scale * np.random.default_rng(
            [int(k) & 0xFFFFFFFF for k in keys[g]] + [0x6B]).gumbel(size=legal[g].size)
            for g in range(games)]
        cands = [np.argsort(-(draws[g] + logits[g]), kind="stable")[:cfg.gumbel_m]
                 for g in range(games)]                      # indices into legal[g]
        phases = [gumbel.halving(max(1, int(sims[g]) - 1), cands[g].size)
                  for g in range(games)]
        used = np.zeros(games, dtype=np.int64)
        for t in range(max(len(p) for p in phases)):
            for g in range(games):
                if t >= len(phases[g]):
                    continue
                k, each = phases[g][t]
                if t > 0:
                    score = self._scores(g, legal[g], logits[g], draws[g], players[g])
                    cands[g] = cands[g][np.argsort(-score[cands[g]], kind="stable")[:k]]
                budget = int(sims[g]) - 1 - int(used[g])
                plan = gumbel.phase_plan(legal[g][cands[g]], each, budget)
                f.plan[g, used[g]:used[g] + plan.size] = plan
                used[g] += plan.size
            target = np.minimum(used + 1, sims)
            simulate(self.game.aux, self.weights, roots, players, keys, target,
                     int((target - f.visits[:games, 0]).max()), knobs, f)
        self.chosen = np.zeros(games, dtype=np.int64)
        self.improved = np.zeros((games, na), dtype=np.float32)
        for g in range(games):
            q, n = self._root_q(g, legal[g], players[g])
            score = draws[g] + logits[g] + gumbel.sigma(q, n)
            self.chosen[g] = legal[g][cands[g][np.argmax(score[cands[g]])]]
            self.improved[g, legal[g]] = gumbel.improved_policy(logits[g], q, n)

    def _root_q(self, g: int, legal: np.ndarray, player: int) -> tuple:
        """Completed Q (for the root's seat) and visits of the legal root actions."""
        f = self.forest
        ch = f.children[g, 0, legal]
        n = np.where(ch >= 0, f.visits[g, np.maximum(ch, 0)], 0)
        q = np.where(n > 0, f.value[g, np.maximum(ch, 0)] / np.maximum(n, 1), 0.0)
        raw = float(f.netval[g, 0, player])
        return gumbel.completed_q(q, n, f.prior[g, 0, legal], raw), n

    def _scores(self, g, legal, logits, draws, player) -> np.ndarray:
        """g(a) + logit(a) + sigma(q(a)) of the legal root actions."""
        q, n = self._root_q(g, legal, player)
        return draws + logits + gumbel.sigma(q, n)

    def root_values(self, games: int) -> np.ndarray:
        """The last search's root value of every seat (absolute seats), [games, MAX_SEATS]:
        the mean over its simulations and the root's own evaluation."""
        f = self.forest
        return f.rootsum[:games] / f.visits[:games, :1]

    def _add_noise(self, games: int, gen: np.random.Generator) -> None:
        cfg, f = self.config, self.forest
        na = self.game.num_actions
        for g in range(games):
            legal = np.flatnonzero(f.masks[g, :na])
            if legal.size < 2:
                continue
            eta = gen.dirichlet(np.full(legal.size, cfg.dirichlet_alpha))
            p = f.prior[g, 0, legal]
            f.prior[g, 0, legal] = (1 - cfg.noise_fraction) * p + cfg.noise_fraction * eta


def _one_blas_thread():
    """BLAS on one thread while the search runs: the batched forward pass is small
    matrices, and BLAS threads woken for each of them slow it down on a loaded machine
    (measured in docs/alphazero.md)."""
    global _BLAS
    if _BLAS is None:
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def best_action(visits: np.ndarray, mask: np.ndarray) -> int:
    """The most visited legal action (ties: the lowest id)."""
    v = np.where(mask != 0, visits, -1)
    return int(np.argmax(v))


disk_cache.refresh(globals())
