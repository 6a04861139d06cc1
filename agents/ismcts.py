"""Information-set MCTS (single observer, with availability counts), one njit search.

SO-ISMCTS (Cowling, Powley and Whitehouse 2012) builds one tree over the searcher's
information sets: every iteration samples a determinization of the real state for the
searcher (`tradewinds.compiled.protocol.determinize`), then walks the tree by action ids, using only
the children whose action is legal in that determinization. A child's *availability*
counts the iterations in which it could have been chosen; UCB uses it in place of the
parent's visit count, so rarely available actions are not over-explored. Per-seat returns
are backed up: a node keeps the reward of the seat that chose the action leading to it.
Chance (wind cards, dice, draws) is resolved inside `step` from the determinization's
own reseeded generator, so every iteration also samples the future.

The search sees the real state only through `determinize` (tests/test_agent_honesty.py).

Two selection rules: UCB with availability counts over every legal action (``prior=0``,
`iterate`), and PUCT guided by the game's heuristic (``prior`` > 0, `iterate_puct`): the
heuristic's action at a node gets prior weight ``prior``, the rest is spread evenly, so a
small budget plays like the heuristic and a larger one departs from it where the values
say so. Leaves are judged after ``depth`` rollout decisions by the game's position values
(`agents.policies.position_values`), or played out to the end (``depth=-1``).

Agent names: ``mcts:400`` (400 iterations per decision); factory keywords
``simulations``, ``c`` (exploration constant), ``rollout`` ("heuristic" | "random"),
``depth`` (rollout decisions before the judgement; -1 = to the end), ``scale`` (value
units per unit of log-odds in the judgement), ``prior`` (0..1), ``time_budget`` (seconds
per decision; the search stops at whichever limit comes first), ``model`` (an agent the
other seats play inside the tree instead of being searched: ``br:<N>:<agent>``,
`agents.respond`). Defaults per game: `DEFAULTS` (measured; see there).
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.agents import heuristic, playouts, policies
from tradewinds.compiled import disk_cache, protocol
from tradewinds.compiled.no_runtime import kernel

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

# Settings per game, from head-to-head measurements against the heuristic (docs/agents.md,
# benchmarks/agents.py). Hansa: PUCT with the heuristic as prior and no rollout: each leaf
# is judged by the heuristic's position values (hands, talers, majorities) — its heuristic
# plans a whole turn per decision, so rollouts are dear, and random ones say little.
# Voyage: PUCT with 30 heuristic rollout decisions, then the VP lead (random fleets never
# finish a game; rollouts to the end cost ~10x and 10 decisions judged too early: 6/20).
# Options not listed fall back to GENERIC.
GENERIC = {"c": 0.7, "rollout": "random", "depth": -1, "scale": 5.0, "prior": 0.0}
DEFAULTS = {
    "hansa": {"c": 1.5, "rollout": "random", "depth": 0, "scale": 5.0, "prior": 0.5},
    "voyage": {"c": 1.5, "rollout": "heuristic", "depth": 30, "scale": 5.0, "prior": 0.5},
}
CHUNK = 64    # iterations per njit call when a time budget is set
FULL = -2     # `_untried_child`: untried actions, but no room in the tree


@kernel
def _copy_into(dst, src):
    """dst[:] = src as a plain loop (numba's slice assignment is several times slower)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


class Tree(NamedTuple):
    """The search tree's arrays for up to `max_nodes` nodes (node 0 is the root), passed
    to the njit search as one value."""

    children: np.ndarray     # [node, action] -> child node, -1 if never tried
    visits: np.ndarray
    avail: np.ndarray        # iterations in which the node's action was legal
    value: np.ndarray        # summed returns of the seat that moved into the node
    mover: np.ndarray
    hint: np.ndarray         # the heuristic's action at the node (PUCT), -1 if not asked
    size: np.ndarray         # [nodes in use]


def new_tree(max_nodes: int, num_actions: int) -> Tree:
    return Tree(children=np.full((max_nodes, num_actions), -1, dtype=np.int32),
                visits=np.zeros(max_nodes, dtype=np.int64),
                avail=np.zeros(max_nodes, dtype=np.int64),
                value=np.zeros(max_nodes, dtype=np.float64),
                mover=np.zeros(max_nodes, dtype=np.int64),
                hint=np.full(max_nodes, -1, dtype=np.int64),
                size=np.ones(1, dtype=np.int64))


class Settings(NamedTuple):
    """How the search selects, rolls out and judges (`search` documents each)."""

    c: float
    prior: float             # > 0: PUCT with the heuristic's prior; 0: UCB
    rollout_kind: int        # playouts.ROLLOUTS
    rollout_depth: int
    scale: float
    model: float             # < 0: every seat searched; else the others play noisy:<model>


@kernel(inline="always")
def _select_ucb(tree, node, legal, k, c):
    """The legal child (`legal[:k]`, ascending) maximising UCB with availability counts;
    bumps availabilities."""
    children, visits, avail, value = tree.children, tree.visits, tree.avail, tree.value
    best, best_a = -1e300, -1
    for i in range(k):
        a = legal[i]
        ch = children[node, a]
        avail[ch] += 1
        u = value[ch] / visits[ch] + c * math.sqrt(math.log(avail[ch]) / visits[ch])
        if u > best:
            best, best_a = u, a
    return best_a


@kernel(inline="always")
def _select_puct(tree, node, legal, k, c, prior, fpu):
    """PUCT with a heuristic prior: the legal action (`legal[:k]`, ascending) maximising
    Q + c * P * sqrt(availability) / (1 + visits), P = prior on the heuristic's action plus
    (1 - prior) / k spread over the k legal actions; an action never tried has Q = `fpu`
    and the parent's visits as its availability. Bumps the availabilities."""
    children, visits, avail, value = tree.children, tree.visits, tree.avail, tree.value
    best, best_a = -1e300, -1
    h = tree.hint[node]
    for i in range(k):
        a = legal[i]
        p_a = (1.0 - prior) / k + (prior if a == h else 0.0)
        ch = children[node, a]
        if ch >= 0:
            avail[ch] += 1
            n = visits[ch]
            q = value[ch] / n if n > 0 else fpu
            u = q + c * p_a * math.sqrt(avail[ch]) / (1.0 + n)
        else:
            u = fpu + c * p_a * math.sqrt(visits[node] + 1.0)
        if u > best:
            best, best_a = u, a
    return best_a


@kernel(inline="always")
def _add_child(tree, node, a, p):
    """A new node for action `a` at `node`, moved into by seat p; -1 when the tree is full."""
    size = tree.size
    if size[0] >= tree.children.shape[0]:
        return -1
    ch = size[0]
    size[0] += 1
    tree.children[node, a] = ch
    tree.mover[ch] = p
    tree.avail[ch] = 1
    return ch


@kernel(inline="always")
def _untried_child(tree, node, legal, k, key, full):
    """UCB's expansion: a random legal action never tried at `node` (bumping the
    availabilities of the tried ones); -1 when every legal action was tried, `FULL` when
    some were not but the tree is `full` (no draw then)."""
    children = tree.children
    untried = 0
    for i in range(k):
        if children[node, legal[i]] < 0:
            untried += 1
    if untried == 0:
        return -1
    if full:
        return FULL
    r = rng.below(key, 0, untried)
    pick = -1
    for i in range(k):
        a = legal[i]
        ch = children[node, a]
        if ch < 0:
            if r == 0:
                pick = a
            r -= 1
        else:
            tree.avail[ch] += 1
    return pick


@kernel(inline="always")
def _modelled_action(aux, s, p, key, eps, mask, legal, k, seen):
    """Seat p's move as `noisy:<eps>` plays it (eps 0: the heuristic, 1: random): a random
    legal action (`legal[:k]`) with chance eps, else the heuristic's action on p's own
    determinization of `s` (what p may see, the rest drawn again)."""
    if eps > 0.0 and rng.below(key, 0, 1 << 30) < eps * (1 << 30):
        return legal[rng.below(key, 0, k)]
    return heuristic.seat_action(aux, s, p, mask, seen, key)


@njit(cache=True, inline="always")
def _descend(aux, s, key, how, tree, buf, words, legal, path, player, seen):
    """Walk the tree from the root on the determinization `s` to a new leaf (or the end of
    the game, or a full tree), stepping `s` along; returns the path's depth.

    UCB (``how.prior`` 0) expands every untried legal action (in random order) before a
    node's children are compared. PUCT asks the heuristic once per node, on the
    determinization that first reaches it, and grows one child per visit, the child PUCT
    picks, valuing unvisited actions at the mover's fair share 1/n (first-play urgency).
    With an opponent model (``how.model`` >= 0) the other seats are not searched: each
    plays its modelled move (`_modelled_action`), and the tree follows it."""
    mask = buf[:tree.children.shape[1]]
    puct = how.prior > 0
    fpu = 1.0 / s[0]
    node, depth = 0, 0
    path[0] = 0
    while not protocol.is_terminal(aux, s):
        p = protocol.current_player(aux, s)
        modelled = how.model >= 0.0 and p != player
        if puct and not modelled and tree.hint[node] < 0:
            tree.hint[node] = policies.heuristic_action(aux, s, mask, key)
        protocol.legal_mask(aux, s, mask)
        k = playouts.legal_list(buf, words, legal)
        if modelled or puct:
            if modelled:
                a = _modelled_action(aux, s, p, key, how.model, mask, legal, k, seen)
            else:
                a = _select_puct(tree, node, legal, k, how.c, how.prior, fpu)
            ch = tree.children[node, a]
            protocol.apply(aux, s, a)
            if ch < 0:
                ch = _add_child(tree, node, a, p)
                if ch >= 0:
                    depth += 1
                    path[depth] = ch
                return depth                 # a new leaf, or a full tree: rollout
        else:
            full = tree.size[0] >= tree.children.shape[0]
            a = _untried_child(tree, node, legal, k, key, full)
            if a == FULL:                    # untried actions and no room: rollout
                return depth
            if a >= 0:
                ch = _add_child(tree, node, a, p)      # room was checked: ch >= 0
                protocol.apply(aux, s, a)
                depth += 1
                path[depth] = ch
                return depth
            a = _select_ucb(tree, node, legal, k, how.c)
            protocol.apply(aux, s, a)
            ch = tree.children[node, a]
        node = ch
        depth += 1
        path[depth] = node
    return depth


@njit(cache=True)
def iterate(aux, root, player, key, iterations, how, tree):
    """Run `iterations` SO-ISMCTS iterations from the searcher `player`'s information set
    at `root`, growing `tree` (a `Tree`) as `how` (`Settings`) says: each draws a
    determinization, descends (`_descend`), rolls out, judges the leaf and backs up."""
    buf, words = playouts.scratch_mask(tree.children.shape[1])
    mask = buf[:tree.children.shape[1]]
    legal = np.zeros(buf.shape[0], dtype=np.int64)
    ret = np.zeros(4, dtype=np.float64)
    values = np.zeros(4, dtype=np.float64)
    path = np.zeros(tree.children.shape[0], dtype=np.int64)
    s = np.empty_like(root)
    seen = np.empty_like(root)
    for _ in range(iterations):
        _copy_into(s, root)
        protocol.determinize(aux, s, player, key)
        depth = _descend(aux, s, key, how, tree, buf, words, legal, path, player, seen)
        playouts.rollout(aux, s, mask, words, key, how.rollout_kind, how.rollout_depth)
        playouts.judge(aux, s, ret, values, how.scale)
        _backup(path, depth, ret, tree.visits, tree.value, tree.mover)


@kernel
def _backup(path, depth, ret, visits, value, mover):
    visits[0] += 1
    for i in range(1, depth + 1):
        n = path[i]
        visits[n] += 1
        value[n] += ret[mover[n]]


@njit(cache=True)
def best_root_action(children, visits, mask):
    """The most visited root child among the legal actions (ties: lowest id)."""
    best, best_a = -1, -1
    for a in range(mask.shape[0]):
        if mask[a]:
            ch = children[0, a]
            v = visits[ch] if ch >= 0 else 0
            if v > best:
                best, best_a = v, a
    return best_a


def search(game, state, player: int, key: np.ndarray, simulations: int = 400,
           c: float = 0.7, rollout: str = "heuristic", time_budget: float | None = None,
           action_mask: np.ndarray | None = None, depth: int = -1, scale: float = 5.0,
           prior: float = 0.0, model: float = -1.0):
    """Run SO-ISMCTS for `player` (the decider of `state`); returns (action, tree).
    `action_mask`: the decider's legal actions (his own knowledge; computed if None).
    `depth`: rollout decisions before the position is judged (`playouts.judge`; `scale` VP per
    unit of log-odds); -1 plays rollouts to the end of the game. `prior` > 0: PUCT
    selection with that much prior weight on the heuristic's action; 0: UCB with
    availability counts (`_descend`). `model` >= 0: the other seats are not searched but
    play `noisy:<model>` (0 the heuristic, 1 random): a best response to that agent."""
    tree = new_tree(simulations + 1, game.num_actions)
    how = Settings(float(c), float(prior), playouts.ROLLOUTS[rollout], int(depth), float(scale),
                   float(model))
    if time_budget is None:
        iterate(game.aux, state, player, key, simulations, how, tree)
    else:
        deadline = time.perf_counter() + time_budget
        done = 0
        while done < simulations and (done == 0 or time.perf_counter() < deadline):
            k = min(CHUNK, simulations - done)
            iterate(game.aux, state, player, key, k, how, tree)
            done += k
    mask = game.legal_mask(state) if action_mask is None else action_mask
    return int(best_root_action(tree.children, tree.visits, mask)), tree


MODELLED = ("heuristic", "random", "noisy:<eps>")


def model_eps(agent: str) -> float:
    """The agent names the search can play inside its tree, as `noisy:<eps>`'s eps:
    heuristic 0, random 1."""
    from tradewinds.agents.noisy import parse_eps

    if agent == "heuristic":
        return 0.0
    if agent == "random":
        return 1.0
    if isinstance(agent, str) and agent.startswith("noisy:"):
        return parse_eps(agent.partition(":")[2])
    raise ValueError(f"the search can model only {', '.join(MODELLED)} inside its tree, "
                     f"not {agent!r}")


class ISMCTSAgent:
    """`mcts:<simulations>`: SO-ISMCTS with heuristic or random rollouts."""

    needs_state = True

    def __init__(self, game: str = "hansa", spec: str | None = None, simulations: int = 400,
                 c: float | None = None, rollout: str | None = None,
                 time_budget: float | None = None, depth: int | None = None,
                 scale: float | None = None, prior: float | None = None,
                 model: str | None = None):
        from tradewinds import registry

        given = {"c": c, "rollout": rollout, "depth": depth, "scale": scale, "prior": prior}
        settings = {**GENERIC, **DEFAULTS.get(game, {}),
                    **{k: v for k, v in given.items() if v is not None}}
        c, rollout, depth = settings["c"], settings["rollout"], settings["depth"]
        scale, prior = settings["scale"], settings["prior"]

        if spec is not None:
            try:
                simulations = int(spec)
            except ValueError:
                raise ValueError(f"mcts:<simulations> needs an integer, got mcts:{spec}") from None
        if not isinstance(simulations, (int, np.integer)) or simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations!r}")
        if rollout not in playouts.ROLLOUTS:
            raise ValueError(f"rollout must be one of {sorted(playouts.ROLLOUTS)}, got {rollout!r}")
        if not c >= 0:
            raise ValueError(f"c must be >= 0, got {c!r}")
        if not isinstance(depth, (int, np.integer)) or depth < -1:
            raise ValueError(f"depth must be -1 (to the end) or >= 0 decisions, got {depth!r}")
        if not scale > 0:
            raise ValueError(f"scale must be positive, got {scale!r}")
        if not 0.0 <= prior <= 1.0:
            raise ValueError(f"prior must be in [0, 1], got {prior!r}")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be positive seconds, got {time_budget!r}")
        self.game = registry.game(game)
        self.simulations, self.c, self.rollout = int(simulations), float(c), rollout
        self.time_budget = time_budget
        self.depth, self.scale, self.prior = int(depth), float(scale), float(prior)
        self.model = -1.0 if model is None else model_eps(model)
        self.name = f"mcts:{self.simulations}"

    def act(self, observation, action_mask, rng: np.random.Generator, *, state=None) -> int:
        if state is None:
            raise ValueError("the mcts agent needs state= (the arena and envs pass it)")
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        player = self.game.current_player(state)
        action, _ = search(self.game, state, player, heuristic.rng_key(rng), self.simulations,
                           self.c, self.rollout, self.time_budget, action_mask,
                           self.depth, self.scale, self.prior, self.model)
        return action

    def __repr__(self) -> str:
        return (f"ISMCTSAgent(game={self.game.name!r}, simulations={self.simulations}, "
                f"c={self.c}, rollout={self.rollout!r}, depth={self.depth}, "
                f"prior={self.prior}, model={self.model})")


disk_cache.refresh(globals())
