"""Names of the Hansa observation entries (`obs_names()`), in vector order.

Seats are relative to the observer: `p0` is the observer, `p1` the next seat in turn
order, and so on; absent seats are all zero. Everything in Hansa is public except the
contents and order of the supply piles (HA17), so only pile sizes appear. Scales keep
values near [0, 1]: counts of tokens /5, stalls /15, money /10, VP /100.
"""

import numpy as np

from hansa_env.board import (
    CITIES,
    COLOURS,
    COLOURS_REMOVED,
    INCOME,
    MAX_PLAYERS,
    NUM_PILES,
    NUM_WAREHOUSES,
    STALLS_PER_PLAYER,
    START_MONEY,
    TAX_MONEY_LIMIT,
    TOKEN_NAMES,
    TOKENS_PER_BARREL,
    WAREHOUSES,
)
from hansa_env.state import PHASE_NAMES

MONEY_SCALE = 10.0
TOKEN_SCALE = 5.0
STALL_SCALE = 15.0
PILE_SCALE = 13.0
SCORE_SCALE = 100.0

GLOBAL_NAMES = (
    [f"num_players={n}" for n in (2, 3, 4)]
    + [f"phase={p}" for p in PHASE_NAMES]
    + ["my_seat/3", "round/max_rounds", "end_triggered", "acted_here", "build_count/3"]
    + [f"ship@{c}" for c in CITIES]
    + [f"wh:{CITIES[c]}/{k}:{t}" for c, k in WAREHOUSES for t in TOKEN_NAMES]
    + [f"pile{k + 1}_size" for k in range(NUM_PILES)]
    + [f"sale:{t}" for t in TOKEN_NAMES]
    + [f"loss_colour={c}" for c in COLOURS]
    + [f"colour_in_play:{c}" for c in COLOURS]
)
SEAT_FIELDS = (
    ["present", "active", "decider", "money", "stall_supply"]
    + [f"stalls@{c}" for c in CITIES]
    + [f"hand:{t}" for t in TOKEN_NAMES]
    + [f"sold:{t}" for t in TOKEN_NAMES]
    + ["score"]
)
SEAT_BLOCK = len(SEAT_FIELDS)
SEATS_OFFSET = len(GLOBAL_NAMES)
OBS_SIZE = SEATS_OFFSET + MAX_PLAYERS * SEAT_BLOCK


def obs_names() -> list:
    """One name per observation entry, e.g. 'p1:hand:red2' or 'ship@Danzig'."""
    return list(GLOBAL_NAMES) + [
        f"p{r}:{f}" for r in range(MAX_PLAYERS) for f in SEAT_FIELDS
    ]


def offset(name: str) -> int:
    """Index of a global entry, or of a seat-0 entry given as 'p0:...'."""
    return obs_names().index(name)


def obs_high(num_players: int = MAX_PLAYERS, seat_talers=(), seat_vp=()):
    """The largest value each entry can take in a `num_players` game (every entry is >= 0):
    the upper bound of the observation Box, with the largest entry of the compensation
    options seat_talers and seat_vp added (HA21, HA22). Counts divided by their scales:

    - a hand, sold pile or sale holds at most the 4 / 5 / 4 tokens of a type; a pile at most
      ceil((tokens in play - 14) / 5); stalls at most 15 (in a city or in supply);
    - money: a seat ends its own turn with at most 3 talers (tax, H24), gets 3 income at the
      start of it, and receives 1 per token an opponent buys in a city where the seat holds
      the majority: at most the 14 warehouse tokens per opponent turn (warehouses refill only
      at the start of a turn), so 3 + 3 + 14 (n - 1);
    - score: every token of the colours in play sold (1 + barrels VP each) and 4 VP in each
      city.
    """
    n = num_players
    colours = len(COLOURS) - COLOURS_REMOVED[n]
    per_type = {name: TOKENS_PER_BARREL[t % 3] for t, name in enumerate(TOKEN_NAMES)}
    pile = -(-(colours * sum(TOKENS_PER_BARREL) - NUM_WAREHOUSES) // NUM_PILES)
    extra_talers = max(seat_talers, default=0)
    money = (max(START_MONEY + extra_talers, TAX_MONEY_LIMIT) + INCOME
             + NUM_WAREHOUSES * (n - 1))
    score = (colours * sum(k * (2 + b) for b, k in enumerate(TOKENS_PER_BARREL))
             + 4 * len(CITIES) + max(seat_vp, default=0))
    high = []
    for name in obs_names():
        field = name.split(":", 1)[1] if name.startswith("p") and name[1].isdigit() else name
        kind, _, arg = field.partition(":")
        if name == "my_seat/3":
            v = (n - 1) / 3
        elif kind.startswith("pile"):
            v = pile / PILE_SCALE
        elif kind in ("sale", "hand", "sold"):
            v = per_type[arg] / TOKEN_SCALE
        elif kind == "money":
            v = money / MONEY_SCALE
        elif kind == "stall_supply" or kind.startswith("stalls@"):
            v = STALLS_PER_PLAYER / STALL_SCALE
        elif kind == "score":
            v = score / SCORE_SCALE
        else:           # one-hot entries, 0/1 flags, round/max_rounds, build_count/3
            v = 1.0
        high.append(v)
    return np.array(high, dtype=np.float32)
