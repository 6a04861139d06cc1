"""Names of the Voyage observation entries, in vector order, for a given map.

Seats are relative to the observer (`p0` = observer, `p1` the next seat, ...). Public
information is shown for everybody; the observer's own wind cards and target cards are
the only private entries (`my_hand:*`, `my_target:*`): other hands appear as sizes only,
and nothing of other target cards, unused cards or the deck order appears (VA32).
"""

import numpy as np

from voyage_env.board import GOODS
from voyage_env.rules import (
    CARD_COUNTS,
    CARD_KINDS,
    GOOD_VP,
    HAND_SIZE,
    MAX_PLAYERS,
    MONASTERY_VP,
    NUM_SHIPS,
    PEPPER,
    ROUND1_DEAL,
    STOCK_PER_GOOD,
    TILES_BY_PLAYERS,
    UPGRADED_DISCS,
)
from voyage_env.state import PHASE_NAMES

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


def obs_high(voyage_map, num_players: int = MAX_PLAYERS, max_rounds: int = 40,
             seat_vp=(), seat_cards=()) -> np.ndarray:
    """The largest value each entry can take in a `num_players` game on `voyage_map` capped
    at `max_rounds` (every entry is >= 0): the upper bound of the observation Box. The
    compensation options add their largest entry: seat_vp to the VP, seat_cards to the
    round-1 hand (VA40, VA41).

    - discs, bids: at most 12; the react budget at most 4 (a storm -4); tiles at most n + 1;
    - a hand holds at most the round-1 deal of the last position (4..7 cards, V13) or 5 (a
      hand is only ever drawn up to 5, VA15), and of a kind at most the deck's count;
    - VP scored during play: every port discovered, and per round at most one dock selling
      a cube of every good (pepper taken to the monastery for 10 instead, V41, V44).
    """
    n = num_players
    hand = max([HAND_SIZE, *ROUND1_DEAL[:n]]) + max(seat_cards, default=0)
    per_dock = sum(GOOD_VP) - GOOD_VP[PEPPER] + max(GOOD_VP[PEPPER], MONASTERY_VP)
    vp = int(np.sum(voyage_map.port_vp)) + per_dock * max_rounds + max(seat_vp, default=0)
    tiles = TILES_BY_PLAYERS[n]
    fixed = {
        "tiles_left": tiles / TILE_SCALE, "my_position": (n - 1) / 3,
        "react_budget": 4 / BUDGET_SCALE, "bid_high": UPGRADED_DISCS / DISC_SCALE,
        "deck_size": sum(CARD_COUNTS) / DECK_SCALE,
        "discs": UPGRADED_DISCS / DISC_SCALE, "available": UPGRADED_DISCS / DISC_SCALE,
        "bid": UPGRADED_DISCS / DISC_SCALE, "vp": vp / VP_SCALE, "tiles": tiles / TILE_SCALE,
        "best_tile": tiles / TILE_SCALE, "hand_size": hand / HAND_SCALE,
    }
    count = dict(zip(CARD_KINDS, CARD_COUNTS, strict=True))
    high = []
    for name in obs_names(voyage_map.num_hexes, voyage_map.port_name):
        field = name.split(":", 1)[1] if name[0] == "p" and name[1].isdigit() else name
        kind, _, arg = field.partition(":")
        if field in fixed:
            v = fixed[field]
        elif kind == "discard":
            v = count[arg] / DISCARD_SCALE
        elif kind == "my_hand":
            v = min(hand, count[arg]) / HAND_SCALE
        elif kind == "stock":
            v = STOCK_PER_GOOD / STOCK_SCALE
        else:           # one-hot entries, 0/1 flags, round/max_rounds
            v = 1.0
        high.append(v)
    return np.array(high, dtype=np.float32)
