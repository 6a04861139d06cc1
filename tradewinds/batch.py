"""The ``batch`` capability, written once for every game over the kernel protocol
(`tradewinds.compiled.protocol`): the kernels over ``[B, STATE_SIZE]`` batches, rows in parallel
(prange) from `PARALLEL_MIN` rows up. Smaller batches run serially in the caller's thread,
where waking the worker threads would cost more than the work itself.

The njit functions take the game's aux value first, so each compiles once per game and is
cached. `Batch` puts them under the protocol's names (`tradewinds.protocol.BatchKernels`)
for one game: option values are passed as ``*opts`` in the game's `parse_options` order.
The random steps and playouts run each row on borrowed arguments (`tradewinds.compiled.borrow`):
no atomic reference counting in the kernels' calls (not in the prange bodies themselves:
numba's parfor lowering cannot take a rebound NamedTuple aux).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tradewinds import rng
from tradewinds.compiled import disk_cache, protocol
from tradewinds.compiled.borrow import borrow
from tradewinds.compiled.generic import playout_into, random_action

PARALLEL_MIN = 512


@njit(cache=True, parallel=True)
def init_batch(aux, states, num_players, seeds, opts):
    if states.shape[0] < PARALLEL_MIN:
        for i in range(states.shape[0]):
            protocol.init(aux, states[i], num_players, seeds[i], opts)
    else:
        for i in prange(states.shape[0]):
            protocol.init(aux, states[i], num_players, seeds[i], opts)


@njit(cache=True, parallel=True)
def step_batch(aux, states, acts, errors):
    """step() on every row; errors[i] gets the code for row i."""
    if states.shape[0] < PARALLEL_MIN:
        for i in range(states.shape[0]):
            errors[i] = protocol.step(aux, states[i], acts[i])
    else:
        for i in prange(states.shape[0]):
            errors[i] = protocol.step(aux, states[i], acts[i])


@njit(cache=True, parallel=True)
def legal_mask_batch(aux, states, masks):
    if states.shape[0] < PARALLEL_MIN:
        for i in range(states.shape[0]):
            protocol.legal_mask(aux, states[i], masks[i])
    else:
        for i in prange(states.shape[0]):
            protocol.legal_mask(aux, states[i], masks[i])


@njit(cache=True, parallel=True)
def observe_batch(aux, states, players, out):
    if states.shape[0] < PARALLEL_MIN:
        for i in range(states.shape[0]):
            protocol.observe(aux, states[i], players[i], out[i])
    else:
        for i in prange(states.shape[0]):
            protocol.observe(aux, states[i], players[i], out[i])


@njit(cache=True)
def _random_step_row(aux, s, mask, key, seeds, i, auto_reset, num_players, opts):
    """One random decision on row i; 1 if its game finished (restarted when auto_reset)."""
    aux, s, mask, key, seeds, opts = (borrow(aux), borrow(s), borrow(mask), borrow(key),
                                      borrow(seeds), borrow(opts))
    protocol.apply(aux, s, random_action(aux, s, mask, key))
    if not protocol.is_terminal(aux, s):
        return 0
    if auto_reset:
        seeds[i] += 1
        protocol.init(aux, s, num_players, seeds[i], opts)
    return 1


@njit(cache=True, parallel=True)
def random_step_batch(aux, states, masks, keys, seeds, auto_reset, num_players, opts):
    """One uniformly random decision per row (masks: a [B, num_actions] scratch buffer).
    With auto_reset, a finished row restarts with its seed advanced by one. Returns the
    number of games finished."""
    finished = 0
    if states.shape[0] < PARALLEL_MIN:
        for i in range(states.shape[0]):
            finished += _random_step_row(aux, states[i], masks[i], keys[i], seeds, i,
                                         auto_reset, num_players, opts)
    else:
        for i in prange(states.shape[0]):
            finished += _random_step_row(aux, states[i], masks[i], keys[i], seeds, i,
                                         auto_reset, num_players, opts)
    return finished


@njit(cache=True, parallel=True)
def random_playout_batch(aux, states, keys, num_actions):
    """random_playout on every row (rows must be initialised); decisions per row."""
    return _playouts(aux, states, keys, np.zeros((states.shape[0], num_actions), np.int8))


@njit(cache=True, parallel=True)
def _playouts(aux, states, keys, masks):
    steps = np.zeros(states.shape[0], dtype=np.int64)
    if states.shape[0] < PARALLEL_MIN:
        for i in range(states.shape[0]):
            steps[i] = playout_into(aux, states[i], keys[i], masks[i])
    else:
        for i in prange(states.shape[0]):
            steps[i] = playout_into(aux, states[i], keys[i], masks[i])
    return steps


@njit(cache=True)
def random_games(aux, s, num_players, first_seed, games, opts, num_actions):
    """`games` random games with seeds first_seed.. on one core, in the state buffer `s`;
    total decisions. Game g's playout key is SplitMix64 seeded with first_seed + g."""
    return _games(aux, s, num_players, first_seed, games, opts, np.zeros(2, dtype=np.int32),
                  np.zeros(num_actions, dtype=np.int8))


@njit(cache=True)
def _games(aux, s, num_players, first_seed, games, opts, key, mask):
    aux, s, opts, key, mask = borrow(aux), borrow(s), borrow(opts), borrow(key), borrow(mask)
    total = 0
    for g in range(games):
        protocol.init(aux, s, num_players, first_seed + g, opts)
        rng.seed_state(key, 0, first_seed + g)
        total += playout_into(aux, s, key, mask)
    return total


class Batch:
    """The ``batch`` capability of one game (`tradewinds.protocol.BatchKernels`)."""

    PARALLEL_MIN = PARALLEL_MIN

    def __init__(self, aux, state_size: int, num_actions: int):
        self.aux, self.state_size, self.num_actions = aux, state_size, num_actions

    @staticmethod
    def _opts(opts) -> np.ndarray:
        return np.array(opts, dtype=np.int64)

    def init_batch(self, states, num_players, seeds, *opts):
        init_batch(self.aux, states, num_players, seeds, self._opts(opts))

    def step_batch(self, states, actions, errors):
        step_batch(self.aux, states, actions, errors)

    def legal_mask_batch(self, states, masks):
        legal_mask_batch(self.aux, states, masks)

    def observe_batch(self, states, players, out):
        observe_batch(self.aux, states, players, out)

    def random_step_batch(self, states, masks, keys, seeds, auto_reset, num_players, *opts):
        return random_step_batch(self.aux, states, masks, keys, seeds, auto_reset,
                                 num_players, self._opts(opts))

    def random_playout_batch(self, states, keys):
        return random_playout_batch(self.aux, states, keys, self.num_actions)

    def random_games(self, num_players, first_seed, games, *opts):
        s = np.zeros(self.state_size, dtype=np.int32)
        return random_games(self.aux, s, num_players, first_seed, games, self._opts(opts),
                            self.num_actions)


disk_cache.refresh(globals())
