"""Reading an observation vector back by entry name (both games' views use these)."""

from __future__ import annotations

import numpy as np


def count(x: float, scale: float) -> int:
    """An entry observed as count / scale, as the count."""
    return int(round(float(x) * scale))


def one_hot(obs, at: dict, names) -> int:
    """Index of the set entry among `names` (`at`: entry name -> index), or -1."""
    values = [obs[at[n]] for n in names]
    return int(np.argmax(values)) if max(values) > 0.5 else -1


def seat_blocks(obs, at: dict, seat: int, num_players: int):
    """(absolute seat p, prefix, field reader) for each relative seat block ``p<r>:`` of
    the observation of `seat` (block r is seat (seat + r) % n)."""
    for r in range(num_players):
        prefix = f"p{r}:"

        def field(name, prefix=prefix):
            return obs[at[prefix + name]]

        yield (seat + r) % num_players, prefix, field
