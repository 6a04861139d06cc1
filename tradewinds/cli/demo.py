"""`tradewinds demo`: many uniformly random games through the numba kernel, each seat's win
rate and mean VP in a table."""

from __future__ import annotations

import time
from dataclasses import dataclass

from tradewinds.cli_args import game_name, int_at_least, option

HELP = "play random games in the kernel and print per-seat results"
DESCRIPTION = ("Plays --games uniformly random games inside the numba kernel and prints each "
               "seat's win rate and mean VP.")


@dataclass(frozen=True)
class DemoConfig:
    game: str = option("hansa", positional=True, type=game_name,
                       help="game name: hansa or voyage")
    players: int = option(3, type=int, help="player count, 2-4")
    games: int = option(2000, type=int_at_least(1), help="number of games")


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options."""
    return (DemoConfig,)


def run(args) -> int:
    import numpy as np
    from rich.progress import track
    from rich.table import Table

    from tradewinds import output, registry
    from tradewinds.cli import options

    c = options.config(args, DemoConfig)
    game = registry.game(c.game)
    game.check_players(c.players)
    game.require("random_playout", "tradewinds demo")
    console = output.console()
    wins = np.zeros(c.players)
    scores = []
    steps = 0
    key = np.zeros(2, dtype=np.int32)
    t0 = time.perf_counter()
    for seed in track(range(c.games), description=f"{c.game}, {c.players} players"):
        state = game.new_state(c.players, seed)
        key[:] = (seed, 12345)
        steps += game.random_playout(state, key)
        wins += game.returns(state)
        scores.append(game.scores(state))
    elapsed = time.perf_counter() - t0
    scores = np.array(scores)
    table = Table(title=f"{c.game}: {c.games} random games, {c.players} players")
    for col in ("seat", "win rate", "mean VP"):
        table.add_column(col, justify="right")
    for p in range(c.players):
        table.add_row(f"player_{p}", f"{wins[p] / c.games:.3f}", f"{scores[:, p].mean():.1f}")
    console.print(table)
    console.print(f"{steps} decisions in {elapsed:.2f} s (incl. numba start-up)")
    return 0
