"""Names of the Hansa observation entries (`obs_names()`), in vector order.

Seats are relative to the observer: `p0` is the observer, `p1` the next seat in turn
order, and so on; absent seats are all zero. Everything in Hansa is public except the
contents and order of the supply piles (HA17), so only pile sizes appear. Scales keep
values near [0, 1]: counts of tokens /5, stalls /15, money /10, VP /100.
"""

from hansa_env.board import CITIES, COLOURS, MAX_PLAYERS, NUM_PILES, TOKEN_NAMES, WAREHOUSES
from hansa_env.state import PHASE_NAMES

MONEY_SCALE = 10.0
TOKEN_SCALE = 5.0
STALL_SCALE = 15.0
PILE_SCALE = 13.0
SCORE_SCALE = 100.0

GLOBAL_NAMES = (
    [f"num_players={n}" for n in (2, 3, 4)]
    + [f"phase={p}" for p in PHASE_NAMES]
    + ["my_seat/3", "round/max_rounds", "end_triggered", "acted_here"]
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
