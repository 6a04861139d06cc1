"""Hansa as a PettingZoo AEC environment (`hansa_env.env(num_players=3)`)."""

from hansa_env.game import GAME
from tradewinds.aec import KernelAECEnv, wrap


class raw_env(KernelAECEnv):  # noqa: N801  (PettingZoo naming)
    """Options: num_players 2-4, render_mode None|"human"|"ansi"|"rgb_array",
    reward "win"|"zero_sum"|"score", illegal_action "raise"|"lose", seed,
    build_rule "barrels"|"per_stall", max_rounds (truncation cap, default 200)."""

    game = GAME


def env(**kwargs):
    """The raw env with PettingZoo's order-enforcing wrapper (illegal actions still raise
    a ValueError naming the action, or lose with illegal_action="lose")."""
    return wrap(raw_env(**kwargs))
