"""The Voyage state: one flat int32 vector, laid out here and nowhere else.

Same length for 2-4 players and for every map (hexes are stored as indices). Phases:

| value | phase      | decider                                   |
|-------|------------|-------------------------------------------|
| 0     | BID        | the bidder whose go it is                 |
| 1     | ORDER      | the bidder choosing his position          |
| 2     | MOVE       | the active seat                           |
| 3     | PLAY       | the active seat, on a blue hex            |
| 4     | REACT      | another seat moving on the active's card  |
| 5     | WRECK      | the seat whose ship runs aground          |
| 6     | UPGRADE    | the active seat, docked in Lisbon         |
| 7     | MONASTERY  | the active seat, docked, holding pepper   |
| 8     | CARDS      | the active seat, docked                   |
| 9     | GAME_OVER  | nobody (decider = -1)                     |

Automatic work pending between decisions lives in the `*_stage`, `card`, `react_*`,
`compass_left` and `attack_queue` fields (docs/voyage_engine.md).

With `dice_movement` (variant 2, VA34) the phases BID, ORDER, PLAY, REACT and CARDS never
occur; `discs[p]` holds the movement points the active seat rolled for this turn (2d6,
2..12; 0 for every other seat and between turns) and `spent[p]` what it has used of them;
nobody holds wind cards (deck, discard pile and hands are empty) or target cards.
"""

import numpy as np

from tradewinds.layout import Layout, StateViewBase
from voyage_env.board import GOODS
from voyage_env.rules import (
    DECK_SIZE,
    MAX_PLAYERS,
    MAX_PORTS,
    NUM_CARD_KINDS,
    NUM_SHIPS,
    TARGETS_PER_DECK,
)

(BID, ORDER, MOVE, PLAY, REACT, WRECK, UPGRADE, MONASTERY, CARDS, GAME_OVER) = range(10)
PHASE_NAMES = ("bid", "order", "move", "play", "react", "wreck", "upgrade", "monastery",
               "cards", "over")
# arrival_stage values: what is left of an own step's resolution (after port and attack)
ARRIVAL_NONE, ARRIVAL_RED, ARRIVAL_BLUE = 0, 1, 2
# card_stage values
CARD_NONE, CARD_REACTIONS, CARD_OWN = 0, 1, 2

LAYOUT = Layout([
    ("num_players", 1),
    ("phase", 1),
    ("decider", 1),          # current_player; -1 when over
    ("active", 1),           # seat whose turn it is (bidding: the bidder)
    ("position", 1),         # turn-order position of the active seat
    ("round", 1),
    ("max_rounds", 1),
    ("truncated", 1),
    ("end_triggered", 1),
    ("simple_deck", 1),
    ("black_ship", 1),
    ("dice_movement", 1),    # variant 2 (V54, VA34): 2d6 movement points instead of discs
    ("tiles_total", 1),      # monastery tiles in play (3/4/5)
    ("tiles_taken", 1),
    ("bid_high", 1),
    ("bid_leader", 1),       # seat of the high bid, -1 none
    ("bid_passes", 1),       # consecutive passes
    ("bid_turn", 1),         # position whose go it is
    ("bid_raised", 1),       # any raise this auction
    ("order_step", 1),       # ORDER: index into `ranking`
    ("arrival_stage", 1),
    ("arrival_hex", 1),
    ("card", 1),             # card kind being resolved, -1 none
    ("card_stage", 1),
    ("react_k", 1),          # offset (1..n-1) in turn order from the active position
    ("react_seat", 1),       # seat reacting now, -1 none
    ("react_budget", 1),
    ("compass_left", 1),     # own forced compass steps still to make
    ("turn_over", 1),        # the turn ends once pending work is done (calm)
    ("attack_queue", 1),     # bitmask of seats whose Black Ship attack is pending
    ("upgrade_given", 1),    # UPGRADE: cubes handed in so far this visit
    ("black_hex", 1),        # Black Ship position, -1 without the option
    ("deck_size", 1),
    ("rng", 2),
    ("order", MAX_PLAYERS),      # seat at each position (-1 beyond n)
    ("ranking", MAX_PLAYERS),    # ORDER: bidders by decreasing bid, -1 padded
    ("new_order", MAX_PLAYERS),  # ORDER: seat placed at each position so far, -1 free
    ("discard", NUM_CARD_KINDS),
    ("stock", len(GOODS)),
    ("discovered", MAX_PORTS),   # seat that discovered each port, -1 none
    ("ship", MAX_PLAYERS),       # hex index of each seat's ship
    ("discs", MAX_PLAYERS),      # 9 or 12
    ("spent", MAX_PLAYERS),
    ("bid", MAX_PLAYERS),
    ("vp", MAX_PLAYERS),         # VP scored during play (targets are added by scores),
                                 # from the start: the option seat_vp (VA40)
    ("upgraded", MAX_PLAYERS),
    ("docked", MAX_PLAYERS),
    ("attacked", MAX_PLAYERS),
    ("tiles", MAX_PLAYERS),      # monastery tiles held
    ("best_tile", MAX_PLAYERS),  # lowest tile number held (1..5), 0 none
    ("hand", (MAX_PLAYERS, NUM_CARD_KINDS)),
    ("targets", (MAX_PLAYERS, 2 * TARGETS_PER_DECK)),  # port ids, -1 unused
    ("cubes", (MAX_PLAYERS, len(GOODS))),
    ("wrecked", (MAX_PLAYERS, NUM_SHIPS)),
    ("deck", DECK_SIZE),         # card kinds; the top is deck[deck_size - 1]
    ("rotate_order", 1),         # option rotate_order (VA42): 1 = the order rotates each round
])
STATE_SIZE = LAYOUT.size

_SCALARS = frozenset(n for n, f in LAYOUT.fields.items() if f.shape == (1,))


class StateView(StateViewBase):
    """Named numpy views into a Voyage state, e.g. `StateView(s).cubes[player, good]`."""

    layout = LAYOUT
    scalars = _SCALARS


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int32)
