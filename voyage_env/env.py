"""The Voyage game as a PettingZoo AEC environment (`voyage_env.env(num_players=3)`)."""

from tradewinds.aec import KernelAECEnv, wrap
from voyage_env.game import GAME, make_game


class raw_env(KernelAECEnv):  # noqa: N801  (PettingZoo naming)
    """Options: num_players 2-4, render_mode None|"human"|"ansi"|"rgb_array", reward
    "win"|"zero_sum"|"score", illegal_action "raise"|"lose", seed, simple_deck, black_ship,
    dice_movement (variant 2: 2d6 movement points per turn, no cards or auction; not with
    simple_deck), max_rounds (truncation cap, default 40), voyage_map (a `board.VoyageMap`,
    default board)."""

    game = GAME

    def __init__(self, *args, voyage_map=None, **kwargs):
        if voyage_map is not None:
            self.game = make_game(voyage_map)
        super().__init__(*args, **kwargs)


def env(**kwargs):
    return wrap(raw_env(**kwargs))
