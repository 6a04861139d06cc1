"""Where the heuristic is beatable: each legal action's win chance, played out.

    python -m lab.headroom --game voyage --players 2 --games 4 --kinds bid monastery

Along games the heuristic plays against itself, at every decision of the kinds asked for
(the action name before ``:``) with more than one legal action, every legal action is
tried on ``--samples`` determinizations for the decider (what its seat may see), each
followed by the heuristic for every seat to the end of the game
(`agents.heuristic.playout`). The samples are paired: every action gets the same
determinization and chance stream. The first half of the samples picks the best action,
the second half measures its gain over the heuristic's own action (a held-out estimate:
the best of many noisy means, measured on the samples that chose it, would flatter it).

A search whose rollouts are the heuristic can win at most this much by choosing better at
these decisions; where the gain is large and the search does not find it, its leaf
judgement or depth is what misleads it (docs/agents.md).
Results: ``lab/results/headroom.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from numba import njit

from tradewinds import cli_args
from tradewinds.agents import heuristic
from tradewinds.compiled import protocol

RESULTS = Path(__file__).parent / "results"


@njit(cache=False)
def played_out_values(aux, s, player, legal, samples, seed, num_actions, num_players):
    """out[j, i]: the decider's win share when legal[j] is played on determinization i of
    `s` and the heuristic plays every seat to the end (the same determinization and chance
    stream for every j)."""
    out = np.zeros((legal.shape[0], samples))
    ret = np.zeros(num_players)
    key = np.zeros(2, dtype=np.int32)
    for i in range(samples):
        key[0], key[1] = seed, i
        base = s.copy()
        protocol.determinize(aux, base, player, key)
        for j in range(legal.shape[0]):
            t = base.copy()
            protocol.step(aux, t, legal[j])
            key[0], key[1] = seed + 1, i
            if heuristic.playout(aux, t, key, num_actions) < 0:
                raise RuntimeError("the heuristic chose an illegal action")
            protocol.returns(aux, t, ret)
            out[j, i] = ret[player]
    return out


def position_row(game, state, player, chosen, samples, seed) -> dict:
    """The held-out gain of the best action over the heuristic's `chosen` one."""
    legal = np.flatnonzero(game.legal_mask(state)).astype(np.int64)
    v = played_out_values(game.aux, state, player, legal, samples, seed, game.num_actions,
                          game.num_players(state))
    half = samples // 2
    best = int(np.argmax(v[:, :half].mean(axis=1)))
    own = int(np.flatnonzero(legal == chosen)[0])
    diff = v[best, half:] - v[own, half:]
    se = float(diff.std(ddof=1) / np.sqrt(diff.size)) if diff.size > 1 else 0.0
    return {"kind": game.action_name(chosen).split(":")[0], "legal": int(legal.size),
            "heuristic": game.action_name(chosen), "best": game.action_name(int(legal[best])),
            "heuristic_value": float(v[own, half:].mean()), "gain": float(diff.mean()),
            "se": se}


def headroom(game_name, n, games, samples, kinds, seed=0) -> dict:
    from tradewinds import registry
    from tradewinds.agents import make_agent
    from tradewinds.studies.arena import agent_action

    game = registry.game(game_name)
    bot = make_agent("heuristic", game=game_name)
    rows = []
    for g in range(games):
        state = game.new_state(n, seed + g)
        rng = np.random.default_rng([seed, g])
        decision = 0
        while not (game.is_terminal(state) or game.is_truncated(state)):
            p = game.current_player(state)
            a = agent_action(bot, game, state, p, rng)
            if game.legal_mask(state).sum() > 1:
                decision += 1
                if game.action_name(a).split(":")[0] in kinds:
                    rows.append(position_row(game, state, p, a, samples,
                                             (seed + g) * 100_003 + decision))
                    rows[-1]["game_index"] = g
            game.step(state, a)
    by_kind = {}
    for kind in sorted({r["kind"] for r in rows}):
        mine = [r for r in rows if r["kind"] == kind]
        gains = np.array([r["gain"] for r in mine])
        by_kind[kind] = {"positions": len(mine), "mean_gain": float(gains.mean()),
                         "max_gain": float(gains.max()),
                         "significant": sum(r["gain"] > 2 * r["se"] for r in mine)}
    return {"game": game_name, "players": n, "games": games, "samples": samples,
            "by_kind": by_kind, "positions": rows}


def markdown(result: dict) -> str:
    lines = [f"{result['game']}, {result['players']} players, {result['games']} heuristic "
             f"self-play games, {result['samples']} paired playouts per action "
             "(half choose, half measure)", "",
             "| decision | positions | mean gain | largest gain | gain > 2 SE |",
             "|---|---:|---:|---:|---:|"]
    for kind, k in result["by_kind"].items():
        lines.append(f"| {kind} | {k['positions']} | {k['mean_gain']:+.3f} | "
                     f"{k['max_gain']:+.3f} | {k['significant']} |")
    if not result["by_kind"]:
        lines.append("\n(no decision of the kinds asked for, with a choice, in these games)")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = cli_args.ArgumentParser(prog="python -m lab.headroom", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", type=cli_args.game_name, default="voyage")
    parser.add_argument("--players", type=cli_args.int_at_least(2), default=2)
    parser.add_argument("--games", type=cli_args.int_at_least(1), default=4)
    parser.add_argument("--samples", type=cli_args.int_at_least(4), default=200,
                        help="paired playouts per action (default 200)")
    parser.add_argument("--kinds", nargs="+", default=["bid", "wreck", "upgrade", "monastery"],
                        help="decision kinds: action names before ':' (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(RESULTS / "headroom.json"))
    args = parser.parse_args(argv)
    from tradewinds import registry

    try:
        registry.game(args.game).check_players(args.players)
    except ValueError as e:
        parser.error(f"argument --players: {e}")
    t0 = time.perf_counter()
    result = headroom(args.game, args.players, args.games, args.samples, set(args.kinds),
                      args.seed)
    result["seconds"] = time.perf_counter() - t0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    md = markdown(result)
    out.with_suffix(".md").write_text(md + "\n")
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
