"""Names of the Voyage observation entries, in vector order, for a given map.

Seats are relative to the observer (`p0` = observer, `p1` the next seat, ...). Public
information is shown for everybody; the observer's own wind cards and target cards are
the only private entries (`my_hand:*`, `my_target:*`): other hands appear as sizes only,
and nothing of other target cards, unused cards or the deck order appears (VA32).
"""

from voyage_env.board import GOODS
from voyage_env.rules import CARD_KINDS, MAX_PLAYERS, NUM_SHIPS
from voyage_env.state import PHASE_NAMES

ROUND_SCALE = 40.0
DISC_SCALE = 12.0
VP_SCALE = 100.0
HAND_SCALE = 5.0
DECK_SCALE = 86.0
DISCARD_SCALE = 18.0
STOCK_SCALE = 4.0
TILE_SCALE = 5.0
BUDGET_SCALE = 4.0

SEAT_HEAD = (["present", "active", "decider"] + [f"position={k}" for k in range(1, 5)])
SEAT_TAIL = (["hemisphere", "discs", "available", "bid", "vp", "upgraded", "docked",
              "attacked", "tiles", "best_tile", "hand_size"]
             + [f"cube:{g}" for g in GOODS] + [f"wrecked:ship{k + 1}" for k in range(NUM_SHIPS)])


def global_names(num_hexes: int, port_names) -> list:
    return (
        [f"num_players={n}" for n in (2, 3, 4)]
        + [f"phase={p}" for p in PHASE_NAMES]
        + ["round/max_rounds", "end_triggered", "tiles_left", "my_position"]
        + [f"card={c}" for c in CARD_KINDS]
        + ["react_budget", "bid_high", "deck_size"]
        + [f"discard:{c}" for c in CARD_KINDS]
        + [f"stock:{g}" for g in GOODS]
        + [f"port:{name}:by=p{r}" for name in port_names for r in range(MAX_PLAYERS)]
        + [f"my_hand:{c}" for c in CARD_KINDS]
        + [f"my_target:{name}" for name in port_names]
        + [f"black@{h}" for h in range(num_hexes)]
    )


def seat_fields(num_hexes: int) -> list:
    return SEAT_HEAD + [f"ship@{h}" for h in range(num_hexes)] + SEAT_TAIL


def obs_names(num_hexes: int, port_names) -> list:
    """One name per entry, e.g. 'p1:cube:pepper', 'port:Ceylon:by=p0', 'p0:ship@17'."""
    return global_names(num_hexes, port_names) + [
        f"p{r}:{f}" for r in range(MAX_PLAYERS) for f in seat_fields(num_hexes)
    ]
