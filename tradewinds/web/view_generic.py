"""Any registered game's seat view, with no knowledge of the game: the entries of the
seat's observation by the names the game gives them (``Game.obs_names``), in order.

The page shows these as a table beside the legal actions (by ``Game.action_name``) and,
at the end, the scores; it draws no board. Built from the observation alone, like the
Hansa and Voyage views, so nothing the observation lacks can reach the page."""

from __future__ import annotations

import numpy as np


def _value(x: float) -> int | float:
    """An entry as the page shows it: a whole number as an integer, else 4 decimals."""
    x = float(x)
    return int(x) if x.is_integer() else round(x, 4)


def view(handle, obs: np.ndarray, seat: int, num_players: int) -> dict:
    """{"game", "num_players", "seat", "fields": [[name, value], ...]} of `obs`, the
    observation of `seat`; unnamed entries are called ``obs[i]``."""
    names = list(handle.obs_names or ())
    names += [f"obs[{i}]" for i in range(len(names), len(obs))]
    return {"game": handle.name, "num_players": num_players, "seat": seat,
            "fields": [[name, _value(x)] for name, x in zip(names, obs, strict=False)]}
