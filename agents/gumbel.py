"""Gumbel root selection (Danihelka et al. 2022, "Policy improvement by planning with Gumbel").

With few simulations, PUCT at the root can spend them all on one action and its visit
counts are then a poor policy target. The Gumbel root instead draws g(a) ~ Gumbel(0, 1)
for every legal action, keeps the m actions with the largest g(a) + logit(a), and spends
the simulations on them by sequential halving: each phase gives every candidate left the
same number of visits, then keeps the better half by g(a) + logit(a) + sigma(q(a)). The
action played is the last phase's best; the policy target is softmax(logit + sigma(q))
with the unvisited actions' q completed by a mix of the net's value and the visited ones
(the paper's "completed Q"), which improves on the prior whatever the budget.

Plain numpy over one root at a time: it runs between the search's phases, a handful of
times per decision, never per simulation (`agents.az_search` takes the phases' plans).
"""

from __future__ import annotations

import math

import numpy as np

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

C_VISIT = 50.0      # sigma(q) = (C_VISIT + max visits) * C_SCALE * q, the paper's values
C_SCALE = 0.1
TINY = 1e-30


def halving(simulations: int, considered: int) -> list[tuple[int, int]]:
    """The phases of sequential halving: (candidates, visits each) until `simulations`
    are spent; the last phase may give its candidates fewer visits, in turn. Candidates
    halve each phase but not below two (one when only one was considered)."""
    if simulations < 1 or considered < 1:
        raise ValueError("need at least one simulation and one candidate")
    phases = max(1, math.ceil(math.log2(considered)))
    out, left, k = [], simulations, considered
    while left > 0:
        each = max(1, simulations // (phases * k))
        out.append((k, min(each, math.ceil(left / k))))
        left -= min(left, each * k)
        k = max(min(2, considered), k // 2)
    return out


def phase_plan(candidates: np.ndarray, each: int, budget: int) -> np.ndarray:
    """The root actions of one phase's simulations, in turn: every candidate `each` times
    (round robin), at most `budget` in all."""
    return np.tile(candidates, each)[:budget]


def logits_of(prior: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Log-prior of the legal actions (the net's logits up to a constant)."""
    return np.log(np.maximum(prior[legal], TINY))


def completed_q(q: np.ndarray, visits: np.ndarray, prior: np.ndarray,
                raw_value: float) -> np.ndarray:
    """Q of the visited actions; the others get the mixed value: the net's value with the
    prior-weighted mean Q of the visited actions, weighted by their visits (all arrays
    over the same legal actions)."""
    seen = visits > 0
    n = visits.sum()
    if n == 0:
        return np.full(q.shape, raw_value)
    weight = prior[seen].sum()
    mean_q = (prior[seen] * q[seen]).sum() / weight if weight > 0 else q[seen].mean()
    mixed = (raw_value + n * mean_q) / (1.0 + n)
    return np.where(seen, q, mixed)


def sigma(q: np.ndarray, visits: np.ndarray) -> np.ndarray:
    """The monotone transform of q (min-max normalised over the legal actions) that is
    added to the logits."""
    lo, hi = q.min(), q.max()
    scaled = (q - lo) / (hi - lo) if hi > lo else np.zeros_like(q)
    return (C_VISIT + visits.max()) * C_SCALE * scaled


def improved_policy(logits: np.ndarray, q: np.ndarray, visits: np.ndarray) -> np.ndarray:
    """softmax(logits + sigma(completed q)) over the legal actions."""
    z = logits + sigma(q, visits)
    z = np.exp(z - z.max())
    return z / z.sum()
