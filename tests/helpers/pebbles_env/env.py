"""Pebbles as a PettingZoo AEC environment: the shared env (`tradewinds.aec`) on its Game."""

from tradewinds.aec import KernelAECEnv, wrap

from .game import GAME


class raw_env(KernelAECEnv):  # noqa: N801  (PettingZoo naming)
    """Options: num_players 2-4, render_mode None|"human"|"ansi", reward, illegal_action,
    seed, pile (pebbles at the start, default 100), open_cards (cards face up)."""

    game = GAME


def env(**kwargs):
    return wrap(raw_env(**kwargs))
