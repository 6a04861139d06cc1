"""Where the search pays: the heuristic everywhere but where its choice is not one of the
skipped families, where `mcts:<N>` decides instead; against the heuristic.

    python -m benchmarks.search_where voyage --players 2 --games 100 --simulations 400

If such a player wins about as often as `mcts:<N>` itself while searching a tenth of the
decisions, the search's gain lies in those decisions, and a raw policy taught the
search's choices there (`training.alphazero.dagger --search`) can gain it without a
search. The hybrid plays one seat (rotated game by game), the heuristic the others, on
seeds `--seed` + i; a shared win counts as its share. Prints the win share with its Wilson
interval, the decisions searched per game and the seconds per game.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tradewinds import cli_args
from tradewinds.stats import wilson_interval


def hybrid_games(game_name: str, num_players: int, games: int, simulations: int,
                 skip: tuple[str, ...], seed: int = 900_000) -> dict:
    """Win share of the hybrid (heuristic, `mcts:<simulations>` off the `skip` families)."""
    import agents
    from tradewinds import registry

    game = registry.game(game_name)
    heuristic = agents.make_agent("heuristic", game=game_name)
    search = agents.make_agent(f"mcts:{simulations}", game=game_name)
    prefixes = tuple(f"{f}:" for f in skip) + skip
    wins, searched, t0 = 0.0, 0, time.perf_counter()
    for g in range(games):
        s = game.new_state(num_players, seed=seed + g)
        me, rng = g % num_players, np.random.default_rng(g)
        while not game.is_terminal(s):
            p, mask = game.current_player(s), game.legal_mask(s)
            obs = game.observe(s, p)
            a = heuristic.act(obs, mask, rng, state=s.copy())
            if p == me and mask.sum() > 1 and not game.action_name(a).startswith(prefixes):
                a = search.act(obs, mask, rng, state=s.copy())
                searched += 1
            game.step(s, a)
        wins += float(game.returns(s)[me])
    low, high = wilson_interval(wins, games)
    return {"game": game_name, "players": num_players, "games": games,
            "simulations": simulations, "skip": list(skip), "win_rate": wins / games,
            "wilson95": [low, high], "searched_per_game": searched / games,
            "seconds_per_game": (time.perf_counter() - t0) / games}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", type=cli_args.game_name)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=100)
    ap.add_argument("--simulations", type=cli_args.int_at_least(1), default=400)
    ap.add_argument("--skip", nargs="*", default=["move"],
                    help="action families (name prefixes) the heuristic keeps")
    ap.add_argument("--seed", type=int, default=900_000)
    args = ap.parse_args(argv)
    from tradewinds import registry

    game = registry.game(args.game)
    families = {game.action_name(a).split(":")[0] for a in range(game.num_actions)}
    try:
        game.check_players(args.players)
        unknown = sorted(set(args.skip) - families)
        if unknown:
            raise ValueError(f"{args.game} has no action family {', '.join(unknown)}; its "
                             f"families: {', '.join(sorted(families))}")
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    r = hybrid_games(args.game, args.players, args.games, args.simulations,
                     tuple(args.skip), args.seed)
    print(f"heuristic, mcts:{r['simulations']} off {', '.join(r['skip']) or 'nothing'}: "
          f"{r['win_rate']:.3f} [{r['wilson95'][0]:.3f}, {r['wilson95'][1]:.3f}] of "
          f"{r['games']} games against the heuristic; {r['searched_per_game']:.1f} "
          f"decisions searched a game, {r['seconds_per_game']:.2f} s a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
