"""What the tree searches (`agents.ismcts`, `agents.az_search`) share below their trees:
the legal actions read eight at a time, rollouts and the judgement of a leaf.

- `scratch_mask(num_actions)`: a zeroed int8 action mask padded to whole 64-bit words,
  and its uint64 view; `legal_list` lists the actions set in it, `count_set` and
  `nth_set` count and find them a word at a time.
- `rollout(aux, s, mask, words, key, kind, depth)`: `depth` decisions (-1: to the end) of
  the random policy or of the game's heuristic (`ROLLOUTS`).
- `judge(aux, s, ret, values, scale)`: each seat's value of a leaf, the returns of a
  finished game or a win chance from its lead in the game's position values.

Its decisions are versioned by `agents.ismcts`'s ``BEHAVIOUR``, not by one of its own:
every agent that plays with this module names ismcts in its identity
(`agents.behaviour.VERSIONED_BY`). Bump that one when a change here makes any decision
differently.
"""

from __future__ import annotations

import math
import sys

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from tradewinds import rng

# importing the heuristic binds the games' strategies to agents.policies.heuristic_action
from tradewinds.agents import heuristic, policies  # noqa: F401
from tradewinds.compiled import disk_cache, protocol
from tradewinds.compiled.no_runtime import kernel

ROLLOUTS = {"random": 0, "heuristic": 1}     # `rollout`'s kinds


# ---- scratch, allocated once per search call and reused by every iteration


@njit(cache=True)
def scratch_mask(num_actions):
    """A zeroed int8 action mask padded to whole 64-bit words, and the same bytes viewed as
    uint64 words. The kernels fill `buf[:num_actions]`; the padding stays 0, so the legal
    actions are counted and found eight at a time (`count_set`, `nth_set`)."""
    buf = np.zeros((num_actions + 7) // 8 * 8, dtype=np.int8)
    return buf, buf.view(np.uint64)


_ONES = np.uint64(0x0101010101010101)       # one bit per byte of a 64-bit word
_LITTLE = sys.byteorder == "little"          # byte j of a word is bits 8j..8j+7


@kernel
def _set_bytes(w):
    """The word with bit 8j set where byte j of `w` is not 0, every other bit 0."""
    w |= w >> np.uint64(4)
    w |= w >> np.uint64(2)
    w |= w >> np.uint64(1)
    return w & _ONES


@intrinsic
def _popcount(typingctx, x):
    """The set bits of a uint64: LLVM's ctpop, one instruction on CPUs with popcnt."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _trailing_zeros(typingctx, x):
    """The zero bits below the lowest set bit of a nonzero uint64: LLVM's cttz."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.uint64(types.uint64), codegen


@kernel
def count_set(w):
    """How many bytes of the 64-bit word `w` are not 0."""
    return np.int64(_popcount(_set_bytes(w)))


@kernel
def nth_set(w, r):
    """Where in memory (0..7) the r-th (from 0) nonzero byte of the word `w` lies, the
    bytes taken in memory order."""
    x = _set_bytes(w)
    if not _LITTLE:                          # memory order is high bits first
        x = _byte_reverse(x)
    for _ in range(r):
        x &= x - np.uint64(1)                # drop the lowest
    return np.int64(_trailing_zeros(x) >> np.uint64(3))    # bit 8j: byte j


@kernel
def _byte_reverse(x):
    out = np.uint64(0)
    for _ in range(8):
        out = (out << np.uint64(8)) | (x & np.uint64(0xFF))
        x >>= np.uint64(8)
    return out


@kernel
def legal_list(buf, words, out):
    """The actions set in the padded mask `buf` (`words`: its uint64 view) into `out`
    (as long as `buf`), ascending; returns how many."""
    k = 0
    for i in range(words.shape[0]):
        if words[i] != 0:
            for a in range(i * 8, i * 8 + 8):
                out[k] = a
                k += buf[a] != 0
    return k


@njit(cache=True)
def rollout(aux, s, mask, words, key, kind, depth):
    """Play the rollout policy for `depth` decisions (all the way when depth < 0).
    `mask` is `buf[:num_actions]` and `words` its 8-byte view (`scratch_mask`)."""
    if kind != 1:
        _random_steps(aux, s, mask, words, key, depth)
        return
    steps = 0
    while not protocol.is_terminal(aux, s) and steps != depth:
        protocol.step(aux, s, policies.heuristic_action(aux, s, mask, key))
        steps += 1


@kernel
def _random_steps(aux, s, mask, words, key, depth):
    """Uniformly random legal actions for `depth` decisions (all the way when depth < 0):
    the action `tradewinds.rng.pick_set` picks from the same mask and key (one draw,
    ascending order), counted and found eight actions at a time. A kernel (no reference
    counts, docs/numba.md): the playouts are most of a random-rollout search's time."""
    steps = 0
    while not protocol.is_terminal(aux, s) and steps != depth:
        protocol.legal_mask(aux, s, mask)
        k = 0
        for i in range(words.shape[0]):
            k += count_set(words[i])
        a = -1
        if k > 0:
            r = rng.below(key, 0, k)
            for i in range(words.shape[0]):
                c = count_set(words[i])
                if r < c:
                    a = i * 8 + nth_set(words[i], r)
                    break
                r -= c
        protocol.apply(aux, s, a)
        steps += 1


@njit(cache=True)
def judge(aux, s, ret, values, scale):
    """Per-seat value of `s`: the returns of a finished game; otherwise a win chance
    guessed from each seat's lead over the best other seat in the game's judgement of the
    position (`policies.position_values`: expected final VP), 1 / (1 + exp(-lead/scale))."""
    if protocol.is_terminal(aux, s):
        protocol.returns(aux, s, ret)
        return
    policies.position_values(aux, s, values)
    n = s[0]
    for p in range(ret.shape[0]):
        ret[p] = 0.0
    for p in range(n):
        best = -1e300
        for q in range(n):
            if q != p and values[q] > best:
                best = values[q]
        ret[p] = 1.0 / (1.0 + math.exp(-(values[p] - best) / scale))


disk_cache.refresh(globals())
