"""A warm start for the net: the heuristic's own decisions, as records like self-play's.

All-heuristic games are played inside numba (each decision on the decider's own
determinization, as the heuristic agent plays), and every decision with more than one
legal action is recorded: the decider's observation, its legal mask, the heuristic's
action as a one-hot policy, and the game's returns from the decider's seat. Fitting the
net to these (`Learner.fit`) gives a raw policy near the heuristic and a value that has
seen whole games, from which self-play starts instead of from random play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tradewinds import rng
from tradewinds.agents import net_input, policies, pvnet
from tradewinds.compiled import disk_cache, protocol
from tradewinds.training.alphazero.selfplay import empty_records, outcome_with_scores


@njit(cache=True)
def _net_action(aux, w, s, p, mask, hint, ob, logits, value_logits):
    """The raw net's arg-max over the legal actions, from seat p's net input (`hint`: the
    heuristic's choice there for a net that reads it, -1 for one that does not)."""
    num_obs = ob.shape[1] - mask.shape[0] if hint >= 0 else ob.shape[1]
    protocol.observe(aux, s, p, ob[0, :num_obs])
    net_input.write_hinted(ob[0], num_obs, hint)
    pvnet.forward(w, ob, logits, value_logits)
    best, pick = -np.inf, -1
    for a in range(mask.shape[0]):
        if mask[a] != 0 and logits[0, a] > best:
            best, pick = logits[0, a], a
    return pick


@njit(cache=True)
def _play(aux, s, num_players, first_seed, games, every, opts, key, obs, masks, actions,
          seats, game_of, returns, scores, states, keep_states, w, beta, hinted):
    """Play `games` games into the record arrays (stops when they are full), recording
    the heuristic's decision at one non-forced decision in `every` (with `keep_states`,
    its full state too, for a search to label); returns (records written, games
    finished). With `beta` < 1 a non-forced decision is played by the net `w` instead,
    with probability 1 - beta (DAgger: the positions the net reaches, the heuristic's
    labels); `beta` = 1 draws nothing extra, so heuristic games stay as they were. With
    `hinted` the recorded inputs and the net's hold the heuristic's choice after the
    observation (`agents.net_input`)."""
    num_actions = masks.shape[1]
    num_obs = obs.shape[1] - num_actions if hinted else obs.shape[1]
    mask = np.zeros(num_actions, dtype=np.int8)
    ret = np.zeros(returns.shape[1], dtype=np.float64)
    vp = np.zeros(scores.shape[1], dtype=np.int64)
    ob = np.zeros((1, w.w_in.shape[0]), dtype=np.float32)
    logits = np.zeros((1, num_actions), dtype=np.float32)
    value_logits = np.zeros((1, pvnet.MAX_SEATS), dtype=np.float32)
    net_share = np.int64((1.0 - beta) * (1 << 24))
    k = 0
    for g in range(games):
        protocol.init(aux, s, num_players, first_seed + g, opts)
        start = k
        d = g             # a different phase in each game
        while not protocol.is_terminal(aux, s):
            p = protocol.current_player(aux, s)
            protocol.legal_mask(aux, s, mask)
            legal = 0
            for a in range(num_actions):
                legal += mask[a] != 0
            seen = s.copy()
            protocol.determinize(aux, seen, p, key)
            a = policies.heuristic_action(aux, seen, mask, key)
            if legal > 1:
                d += 1
            if legal > 1 and d % every == 0:
                if k >= obs.shape[0]:
                    return start, g
                protocol.observe(aux, s, p, obs[k, :num_obs])
                net_input.write_hinted(obs[k], num_obs, a if hinted else -1)
                protocol.legal_mask(aux, s, masks[k])
                actions[k], seats[k], game_of[k] = a, p, g
                if keep_states:
                    states[k, :] = s
                k += 1
            if legal > 1 and beta < 1.0 and rng.below(key, 0, 1 << 24) < net_share:
                a = _net_action(aux, w, s, p, mask, a if hinted else -1, ob, logits,
                                value_logits)
            protocol.step(aux, s, a)
        protocol.returns(aux, s, ret)
        protocol.scores(aux, s, vp)
        for q in range(ret.shape[0]):
            returns[g, q] = ret[q]
            scores[g, q] = vp[q]
    return k, games


CHUNK_GAMES = 250


def heuristic_records(game, num_players: int, games: int, seed: int = 0,
                      every: int = 1, keep_states: bool = False,
                      net: pvnet.Weights | None = None, beta: float = 1.0,
                      hint: bool = False, score_share: float = 0.0) -> dict:
    """Records of `games` heuristic games with seeds seed.. (self-play's record layout),
    one non-forced decision in `every` (a game's positions share its outcome: fewer per
    game and more games keep the value head from learning the games instead of the
    positions), played in chunks so the float32 scratch stays small. `keep_states`: the
    records also hold each position's full state ("state") and game seed ("game").
    With `net`, each non-forced decision is the net's with probability 1 - `beta` and the
    records still hold the heuristic's choice there (`training.alphazero.dagger`). With
    `hint` the records' inputs are a hinted net's (the heuristic's choice after the
    observation, `agents.net_input`); `net` must then be such a net. `score_share` s > 0
    makes each value target (1 - s) times the win shares plus s times the VP shares, as
    self-play's (`SelfPlayConfig.score_share`)."""
    if not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be a positive integer, got {every!r}")
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"beta must be in [0, 1], got {beta!r}")
    if not 0.0 <= score_share <= 1.0:
        raise ValueError(f"score_share must be in [0, 1], got {score_share!r}")
    width = game.obs_size + (game.num_actions if hint else 0)
    if net is None:
        if beta < 1.0:
            raise ValueError("beta < 1 needs a net to play the other decisions")
        net = _no_net(game, hint)
    elif net.w_in.shape[0] != width:
        raise ValueError(f"a net of {net.w_in.shape[0]} inputs for records of {width} "
                         f"(hint={hint})")
    parts = [_chunk(game, num_players, seed + first, min(CHUNK_GAMES, games - first), every,
                    keep_states, net, beta, hint, score_share)
             for first in range(0, games, CHUNK_GAMES)]
    if not parts:
        return empty_records(width, game.num_actions)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _no_net(game, hint: bool) -> pvnet.Weights:
    """A one-unit net: the type `_play` compiles for, never called when beta is 1."""
    config = pvnet.NetConfig(game.name, 2, game.obs_size, game.num_actions, 1, 0,
                             "heuristic" if hint else "")
    return pvnet.random_weights(config)


def _chunk(game, num_players: int, seed: int, games: int, every: int,
           keep_states: bool, net: pvnet.Weights, beta: float, hint: bool,
           score_share: float) -> dict:
    cap = games * 600 // every + 600
    obs = np.zeros((cap, net.w_in.shape[0]), np.float32)
    masks = np.zeros((cap, game.num_actions), np.int8)
    actions = np.zeros(cap, np.int64)
    seats = np.zeros(cap, np.int64)
    game_of = np.zeros(cap, np.int64)
    returns = np.zeros((games, pvnet.MAX_SEATS), np.float64)
    scores = np.zeros((games, pvnet.MAX_SEATS), np.int64)
    key = np.zeros(2, np.int32)
    rng.seed_state(key, 0, seed ^ 0x3C6EF372)
    opts = np.array(game.parse_options(**game.resolve_options()), dtype=np.int64)
    s = np.zeros(game.state_size, np.int32)
    states = np.zeros((cap if keep_states else 1, game.state_size), np.int32)
    k, _ = _play(game.aux, s, num_players, seed, games, every, opts, key, obs, masks,
                 actions, seats, game_of, returns, scores, states, keep_states, net, float(beta),
                 bool(hint))
    out = empty_records(obs.shape[1], game.num_actions, k)
    out["obs"][:] = obs[:k]
    out["mask"][:] = masks[:k] != 0
    out["policy"][np.arange(k), actions[:k]] = 1.0
    if score_share:
        returns[:, :num_players] = outcome_with_scores(returns[:, :num_players],
                                                       scores[:, :num_players], score_share)
    for r in range(num_players):
        out["value"][:, r] = returns[game_of[:k], (seats[:k] + r) % num_players]
    if keep_states:
        out["state"], out["game"] = states[:k].copy(), seed + game_of[:k]
    return out


disk_cache.refresh(globals())
