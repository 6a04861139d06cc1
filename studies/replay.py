"""Replay records: the proof that a ladder member's declared behaviour is the play it was
rated for.

A member's identity is the behaviour version its agent declares (`agents.behaviour`), not
its files' bytes, so a docstring edit or a moved file leaves a ladder as it is. What holds
the declaration honest is a record of the member's own decisions: `GAMES` games with the
member in every seat, game i from seed ``SEED + i`` and decision j with the generator
``default_rng([SEED + i, j])`` (the games `studies.carry` compares), kept in the ladder
with the identity they were played under. A game is recorded to its end or its first
`MAX_DECISIONS`, and for a member whose decisions are dear (a search) to its first
decisions that fit `BUDGET` seconds (never fewer than `MIN_DECISIONS`). `check` replays
them: the same identity must make the same decisions, and tests/studies/test_replay.py
fails with `stale_message` when one differs: the change needs a new behaviour version
(and then a refit, an extension with ``--replace``, or `studies.carry` where the ratings
stand).
"""

from __future__ import annotations

import time

SEED = 9_000_000_000            # game i of a record or a carry check plays seed SEED + i
GAMES = 2
BUDGET = 0.1                    # seconds per recorded game, after its first decision
MIN_DECISIONS = 8
MAX_DECISIONS = 300             # a Voyage game of 4 is longer: its first 300


def actions(game, players, member, games, seed, options, limits=None, budget=None,
            least=8):
    """The actions of `games` games of `member` in every seat: game i from seed ``seed + i``,
    at most ``limits[i]`` decisions of it (None: to its end) and, with a `budget`, no more
    decisions once it has spent `budget` seconds after its first and made `least`.
    Self-contained, imports and all: `studies.carry` runs its source under an older
    checkout."""
    import time

    import numpy as np

    from tradewinds import registry
    from tradewinds.agents import make_agent
    from tradewinds.studies.arena import agent_action

    g = registry.game(game)
    agent = make_agent(member, game=game)
    out = []
    for i in range(int(games)):
        if callable(getattr(agent, "reset", None)):
            agent.reset()
        s = g.new_state(int(players), int(seed) + i, **options)
        played, start = [], None
        limit = None if limits is None else limits[i]
        while not g.is_terminal(s) and (limit is None or len(played) < limit):
            if budget is not None and start is not None and len(played) >= least and (
                    time.perf_counter() - start > budget):
                break
            rng = np.random.default_rng([int(seed) + i, len(played)])
            a = int(agent_action(agent, g, s, g.current_player(s), rng))
            played.append(a)
            g.step(s, a)
            if start is None:
                start = time.perf_counter()
        out.append(played)
    return out


def record(game: str, players: int, member: str, options: dict) -> dict:
    """A new replay record of `member` (module notes) and the identity it plays under:
    ``{"behaviour", "seed", "decisions", "actions"}``, a game's actions as one string of
    action ids (`encode`), so that a ladder file stays small and readable."""
    from tradewinds.agents.behaviour import identity

    for _ in range(2):           # the first pass loads what the games call, then timed warm
        played = actions(game, players, member, GAMES, SEED, options,
                         limits=[MAX_DECISIONS] * GAMES, budget=BUDGET,
                         least=MIN_DECISIONS)
    return {"behaviour": identity(member, game, players), "seed": SEED,
            "decisions": [len(x) for x in played], "actions": [encode(x) for x in played],
            "created": time.strftime("%Y-%m-%d", time.gmtime())}


def encode(played: list[int]) -> str:
    """A game's actions as a string: ``[3, 17, 0]`` -> ``"3 17 0"``."""
    return " ".join(str(int(a)) for a in played)


def decode(text: str) -> list[int]:
    """`encode`'s inverse (ValueError naming what is not an action id)."""
    try:
        return [int(a) for a in text.split()]
    except ValueError:
        raise ValueError(f"a replay record's actions are action ids, got {text[:40]!r}") \
            from None


def first_difference(before: list[list[int]], after: list[list[int]]) -> str | None:
    """Where two records of the same games first part ("game i, decision j"), or None."""
    for i, (a, b) in enumerate(zip(before, after, strict=True)):
        for j, (x, y) in enumerate(zip(a, b, strict=False)):   # lengths: below
            if x != y:
                return f"game {i}, decision {j}: {x} before, {y} now"
        if len(a) != len(b):
            return f"game {i}: {len(a)} decisions before, {len(b)} now"
    return None


def check(game: str, players: int, member: str, options: dict, rec: dict) -> str | None:
    """Replay `rec` (the record's decisions of each game, no more) and say where `member`
    now parts from it, or None when every decision is the same."""
    before = [decode(x) for x in rec["actions"]]
    now = actions(game, players, member, len(before), rec["seed"], options,
                  limits=[len(x) for x in before])
    return first_difference(before, now)


def stale_message(where: str, ladder: dict, member: dict) -> str:
    """The failure of a member that plays differently under the same identity."""
    return (f"{ladder['game']} {ladder['players']}p ladder: {member['name']} plays "
            f"differently from its replay record ({where}) under the same behaviour "
            f"{member['behaviour']!r}. A change made a decision differently: bump BEHAVIOUR "
            f"in the changed module of those it names (agents/behaviour.py maps each label "
            f"to its module, and a shared module to the label that versions it, "
            f"VERSIONED_BY), then refit the ladder (tradewinds ratings fit), or "
            f"replay the member (tradewinds ratings extend --replace); if the change was "
            f"meant to keep every decision, find what moved one")
