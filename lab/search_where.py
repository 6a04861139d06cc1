"""Where an agent pays: the heuristic everywhere but at the chosen decisions, where another
agent (`mcts:<N>` by default) decides instead; against the heuristic.

    python -m lab.search_where voyage --players 2 --games 100 --simulations 400
    python -m lab.search_where voyage --agent net --only move --games 400

By default the agent decides wherever the heuristic's choice is not one of the `--skip`
families (the Voyage move steps); with `--only` it decides at those families alone. If
`mcts:<N>` off the move steps wins about as often as `mcts:<N>` itself while searching a
tenth of the decisions, the search's gain lies in those decisions, and a raw policy taught
the search's choices there (`training.alphazero.dagger --search`) can gain it without a
search; the same split for a net says which of its decisions cost it games. The hybrid
plays one seat (rotated game by game), the heuristic the others, on seeds `--seed` + i; a
shared win counts as its share. Prints the win share with its Wilson interval, the
decisions the agent took per game and the seconds per game.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tradewinds import cli_args
from tradewinds.stats import wilson_interval
from tradewinds.studies.arena import agent_action


def hybrid_games(game_name: str, num_players: int, games: int, agent: str,
                 families: tuple[str, ...], only: bool = False, seed: int = 900_000) -> dict:
    """Win share of the hybrid: the heuristic, and `agent` where the heuristic's choice is
    not one of `families` (with `only`: where it is one of them)."""
    from tradewinds import agents, registry

    game = registry.game(game_name)
    heuristic = agents.make_agent("heuristic", game=game_name)
    other = agents.make_agent(agent, game=game_name)
    prefixes = cli_args.family_prefixes(families)
    wins, taken, t0 = 0.0, 0, time.perf_counter()
    for g in range(games):
        s = game.new_state(num_players, seed=seed + g)
        me, rng = g % num_players, np.random.default_rng(g)
        while not game.is_terminal(s):
            p = game.current_player(s)
            a = agent_action(heuristic, game, s, p, rng)
            if (p == me and game.legal_mask(s).sum() > 1
                    and game.action_name(a).startswith(prefixes) == only):
                a = agent_action(other, game, s, p, rng)
                taken += 1
            game.step(s, a)
        wins += float(game.returns(s)[me])
    low, high = wilson_interval(wins, games)
    return {"game": game_name, "players": num_players, "games": games, "agent": agent,
            "families": list(families), "only": only, "win_rate": wins / games,
            "wilson95": [low, high], "decided_per_game": taken / games,
            "seconds_per_game": (time.perf_counter() - t0) / games}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", type=cli_args.game_name)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=100)
    ap.add_argument("--simulations", type=cli_args.int_at_least(1), default=400,
                    help="the default agent's: mcts:<N>")
    ap.add_argument("--agent", help="the agent at the chosen decisions (default mcts:<N>)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--skip", nargs="*", default=None,
                       help="action families (name prefixes) the heuristic keeps "
                            "(default: move)")
    where.add_argument("--only", nargs="+", default=None,
                       help="the action families the agent decides (the heuristic the rest)")
    ap.add_argument("--seed", type=int, default=900_000)
    args = ap.parse_args(argv)
    from tradewinds import agents, registry

    game = registry.game(args.game)
    agent = args.agent or f"mcts:{args.simulations}"
    try:
        game.check_players(args.players)
        chosen = cli_args.action_families(
            game, args.only if args.only is not None
            else ["move"] if args.skip is None else args.skip)
        agents.make_agent(agent, game=args.game)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    r = hybrid_games(args.game, args.players, args.games, agent, chosen,
                     args.only is not None, args.seed)
    where = (f"at {', '.join(chosen)}" if r["only"]
             else f"off {', '.join(chosen) or 'nothing'}")
    print(f"heuristic, {agent} {where}: {r['win_rate']:.3f} [{r['wilson95'][0]:.3f}, "
          f"{r['wilson95'][1]:.3f}] of {r['games']} games against the heuristic; "
          f"{r['decided_per_game']:.1f} decisions a game by {agent}, "
          f"{r['seconds_per_game']:.2f} s a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
