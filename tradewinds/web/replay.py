"""Stored games of a results store, move by move, replayed exactly.

A game row of `tradewinds.store` gives its moves in one of three ways:

- ``actions`` recorded (every game played step by step since the store kept them);
- played inside numba (``path = 'kernel'``): the arena's playout is re-run here step by
  step with the same generator (`playout_key`), the random playout's `pick_set` on the
  legal mask, or the heuristic's decision on a determinization for the decider, exactly
  as `agents.heuristic.playout` makes them;
- neither (a python-path game of an older store): the agents are played again from the
  seed as the arena played them (agent of seat s on ``default_rng([seed, s])``), which
  gives the same game for agents that are deterministic for a seed (random, heuristic,
  noisy, search with a simulation count) and another one for agents with a time budget.

Every replay is checked against the stored result (scores, winners, decisions, rounds):
`Replay.matches` says whether it is the stored game, and `replay` raises when it is not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tradewinds import registry
from tradewinds.studies import arena


class ReplayMismatch(ValueError):
    """The moves replayed do not give the stored result."""


@dataclass
class Replay:
    row: dict               # the stored game row (tradewinds.store.Store.game)
    actions: list           # every decision's action id
    movers: list            # the seat that made each decision
    how: str                # 'recorded' | 'kernel seed' | 'agents from seed'
    scores: list            # the replayed final scores
    matches: bool           # the replay gives the stored scores, winners and length


def _kernel_moves(handle, row) -> list[int]:
    """The moves of an all-random or all-heuristic game the arena played inside numba."""
    from tradewinds import agents
    from tradewinds import rng as trng
    from tradewinds.agents import heuristic

    state = handle.new_state(row["num_players"], row["seed"], **row["options"])
    key = arena.playout_key(row["seed"])
    policy = agents.kernel_policy(row["agents"][0])
    actions: list[int] = []
    mask = np.zeros(handle.num_actions, dtype=np.int8)
    while not handle.is_terminal(state):
        if policy == "random":
            a = int(trng.pick_set(handle.legal_mask(state), key))
        else:
            p = handle.current_player(state)
            seen = handle.determinize(state, p, key)
            a = int(heuristic.decide(handle.aux, seen, mask, key))
        handle.step(state, a)
        actions.append(a)
    return actions


def _agent_moves(handle, row) -> list[int]:
    """The moves of a python-path game without recorded actions: its agents again."""
    kwargs = row.get("run_agent_kwargs") or {}
    n = row["num_players"]
    players = [arena._Seats(arena.Study(game=row["game"], num_players=n,
                                        agents=tuple(row["agents"]), agent_kwargs=kwargs)
                            ).get(s, name) for s, name in enumerate(row["agents"])]
    for p in players:
        if hasattr(p, "reset"):
            p.reset()
    rngs = [np.random.default_rng([row["seed"], s]) for s in range(n)]
    state = handle.new_state(n, row["seed"], **row["options"])
    actions: list[int] = []
    limit = 10 * max(1, int(row["steps"])) + 1000
    while not (handle.is_terminal(state) or handle.is_truncated(state)) and len(actions) < limit:
        p = handle.current_player(state)
        a = arena.agent_action(players[p], handle, state, p, rngs[p])
        handle.step(state, a)
        actions.append(int(a))
    return actions


def moves(row: dict) -> tuple[list[int], str]:
    """The action ids of a stored game and how they were found."""
    handle = registry.game(row["game"])
    if row.get("actions") is not None:
        return list(row["actions"]), "recorded"
    if row["path"] == "kernel":
        return _kernel_moves(handle, row), "kernel seed"
    return _agent_moves(handle, row), "agents from seed"


def replay(row: dict, *, check: bool = True) -> Replay:
    """The stored game `row` replayed; ReplayMismatch (with `check`) if it does not give
    the stored scores, winners, number of decisions and rounds."""
    handle = registry.game(row["game"])
    actions, how = moves(row)
    state = handle.new_state(row["num_players"], row["seed"], **row["options"])
    movers = []
    for a in actions:
        movers.append(handle.current_player(state))
        handle.step(state, a)
    scores = [int(x) for x in handle.scores(state)]
    same = (scores == list(row["scores"]) and handle.winners(state) == list(row["winners"])
            and len(actions) == int(row["steps"])
            and (row.get("rounds") is None or handle.round(state) == row["rounds"]))
    if check and not same:
        raise ReplayMismatch(
            f"game {row.get('game_id')} does not replay ({how}): scores {scores} after "
            f"{len(actions)} decisions, stored {row['scores']} after {row['steps']}")
    return Replay(row=row, actions=actions, movers=movers, how=how, scores=scores,
                  matches=same)


def state_at(rep: Replay, k: int) -> np.ndarray:
    """The state after the first `k` moves of `rep`."""
    row = rep.row
    return registry.game(row["game"]).replay(row["num_players"], row["seed"],
                                             rep.actions[:k], **row["options"])
