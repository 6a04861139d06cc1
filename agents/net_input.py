"""What a policy-value net reads at a position, written inside numba.

Every net reads the deciding seat's own observation (`tradewinds.compiled.protocol.observe`). A net
with ``hint="heuristic"`` (`agents.pvnet.NetConfig`) reads after it the game heuristic's
choice at the position, one-hot over the actions: the heuristic plays on the seat's own
determinization of the state, as the heuristic agent does, so the hint holds nothing the
seat may not see. Warm starts record the heuristic's choice as both hint and label; the
net then learns where to depart from it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tradewinds.agents import policies
from tradewinds.agents.heuristic import rng_key
from tradewinds.compiled import disk_cache, protocol

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)


@njit(cache=True)
def heuristic_hint(aux, s, p, mask, key, seen):
    """The heuristic's action for seat p (the decider of `s`) on p's own determinization
    (written into the scratch state `seen`); `mask`, int8 scratch of the action count."""
    for i in range(s.shape[0]):
        seen[i] = s[i]
    protocol.determinize(aux, seen, p, key)
    return policies.heuristic_action(aux, seen, mask, key)


@njit(cache=True)
def write_hinted(out, num_obs, hint):
    """The hint part of a net input whose observation is in out[:num_obs]: action `hint`
    one-hot after it (nothing when `hint` < 0, a net without a hint)."""
    for i in range(num_obs, out.shape[0]):
        out[i] = 0.0
    if hint >= 0:
        out[num_obs + hint] = 1.0


@njit(cache=True)
def write(aux, s, p, hinted, mask, key, seen, out):
    """Seat p's net input at `s` into `out`: its observation, then with `hinted` the
    heuristic's choice one-hot (the observation's length is out's less the action count)."""
    num_actions = mask.shape[0]
    num_obs = out.shape[0] - num_actions if hinted else out.shape[0]
    protocol.observe(aux, s, p, out[:num_obs])
    if hinted:
        write_hinted(out, num_obs, heuristic_hint(aux, s, p, mask, key, seen))


def hinted(game, state: np.ndarray, observation: np.ndarray, rng: np.random.Generator
           ) -> np.ndarray:
    """`observation` of the decider of `state` followed by the heuristic's choice there,
    one-hot: a hinted net's input, outside numba (the raw `net` agent)."""
    s = np.ascontiguousarray(state, dtype=np.int32)
    out = np.zeros(game.obs_size + game.num_actions, dtype=np.float32)
    out[:game.obs_size] = observation
    a = heuristic_hint(game.aux, s, game.current_player(s),
                       np.zeros(game.num_actions, dtype=np.int8), rng_key(rng), np.empty_like(s))
    write_hinted(out, game.obs_size, a)
    return out


disk_cache.refresh(globals())
