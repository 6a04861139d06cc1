"""Ratings of a checkpoint: its raw policy (`net:<path>`) and its search (`az:<path>`)
against a fixed opponent, seats rotated, on fixed seeds, so successive checkpoints play
the same games and the learning curve compares like with like."""

from __future__ import annotations

from tradewinds.stats import wilson_interval
from tradewinds.training.evaluate import WinRate

EVAL_SEED = 2**40 + 7      # far from the self-play seeds


def win_share(agent: str, opponent: str, game: str, num_players: int, games: int,
              seed: int = EVAL_SEED, agent_kwargs: dict | None = None,
              opponent_kwargs: dict | None = None) -> WinRate:
    """`agent` in one seat, `opponent` in the others, the agent's seat rotated game by
    game; its share of the wins (a shared win counts as its share)."""
    from tradewinds.studies import arena

    lineup = [agent] + [opponent] * (num_players - 1)
    kwargs = {name: kw for name, kw in ((agent, agent_kwargs), (opponent, opponent_kwargs))
              if kw}
    study = arena.Study.create(game, num_players, lineup, seating="rotate", base_seed=seed,
                               agent_kwargs=kwargs or None)
    rows = arena.play_chunk(study, range(games))
    wins = 0.0
    for i, row in enumerate(rows):
        seat = study.seats(i).index(agent)
        winners = list(row["winners"])          # the winning seats
        if seat in winners:
            wins += 1.0 / len(winners)
    low, high = wilson_interval(wins, games)
    return WinRate(opponent, games, wins / games, low, high)
