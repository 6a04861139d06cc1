"""How repeatable the search teacher's labels are: the same positions searched twice.

    python -m lab.teacher_noise voyage --players 2 --games 60 --simulations 400 \\
        --net agents/nets/voyage_2p.npz

A net taught `mcts:<N>`'s most visited action (`training.alphazero.dagger --search`) can
agree with its labels no better than the search agrees with itself. Positions come from
games of `--net` alone (the positions DAgger labels; the heuristic's games without it),
one non-forced decision in `--every`, kept where the heuristic's choice is not one of the
`--skip` families (the Voyage move steps). Each is searched twice with independent
generators. Prints how often the two searches pick the same action, how often each
departs from the heuristic's choice, and, where the first departs, how often the second
picks that same action or the heuristic's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from tradewinds import cli_args


def repeatability(game_name: str, num_players: int, games: int, simulations: int,
                  net: Path | None = None, every: int = 10, skip: tuple[str, ...] = ("move",),
                  seed: int = 9 * 2**40) -> dict:
    """Two searches of each kept position; their agreement and their departures from the
    heuristic (shares over the kept positions)."""
    from tradewinds import registry
    from tradewinds.agents import pvnet
    from tradewinds.training.alphazero.search_teacher import rows_to_search, search_labels
    from tradewinds.training.alphazero.warmstart import heuristic_records

    game = registry.game(game_name)
    weights, config, _ = (None, None, None) if net is None else pvnet.load(net)
    found = heuristic_records(game, num_players, games, seed=seed, every=every,
                              keep_states=True, net=weights,
                              beta=1.0 if weights is None else 0.0,
                              hint=config is not None and bool(config.hint))
    heuristic = found["policy"].argmax(1)
    keep = rows_to_search(game, heuristic, skip)
    if not len(keep):
        raise ValueError("no position to search: every recorded choice is a skipped family")
    t0 = time.perf_counter()
    first, second = (search_labels(game, found["state"][keep], found["mask"][keep],
                                   simulations, np.random.default_rng([seed, k]))[0].argmax(1)
                     for k in (1, 2))
    heuristic = heuristic[keep]
    departs = first != heuristic
    n_dep = int(departs.sum())
    return {"game": game_name, "players": num_players, "simulations": simulations,
            "positions": len(keep), "agreement": float((first == second).mean()),
            "departs_first": float(departs.mean()),
            "departs_second": float((second != heuristic).mean()),
            "departures": n_dep,
            "repeated": float((second[departs] == first[departs]).mean()) if n_dep else 0.0,
            "back_to_heuristic": (float((second[departs] == heuristic[departs]).mean())
                                  if n_dep else 0.0),
            "seconds": time.perf_counter() - t0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", type=cli_args.game_name)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=60)
    ap.add_argument("--every", type=cli_args.int_at_least(1), default=10)
    ap.add_argument("--simulations", type=cli_args.int_at_least(1), default=400)
    ap.add_argument("--net", type=Path, help="positions from this net's own games")
    ap.add_argument("--skip", nargs="*", default=["move"],
                    help="action families (name prefixes) not searched")
    ap.add_argument("--seed", type=int, default=9 * 2**40)
    args = ap.parse_args(argv)
    from tradewinds import registry

    game = registry.game(args.game)
    try:
        game.check_players(args.players)
        cli_args.action_families(game, args.skip)
        if args.net is not None and not args.net.is_file():
            raise ValueError(f"no net file at {args.net}")
        r = repeatability(args.game, args.players, args.games, args.simulations, args.net,
                          args.every, tuple(args.skip), args.seed)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    print(f"mcts:{r['simulations']} twice on {r['positions']} positions: the same action on "
          f"{r['agreement']:.3f}; departs from the heuristic on {r['departs_first']:.3f} "
          f"and {r['departs_second']:.3f}; where the first departs ({r['departures']}), "
          f"the second takes the same action on {r['repeated']:.3f} and the heuristic's on "
          f"{r['back_to_heuristic']:.3f}; {r['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
