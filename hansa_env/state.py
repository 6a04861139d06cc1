"""The Hansa state: one flat int32 vector, laid out here and nowhere else.

Same length for 2, 3 and 4 players; unused seats stay zero. Token types are
colour * 3 + (barrels - 1) (see board.py). Phases (field `phase`):

| value | phase          | decider                          |
|-------|----------------|----------------------------------|
| 0     | SETUP          | the seat whose placement it is   |
| 1     | REFILL         | active player: refill or skip    |
| 2     | ACTIONS        | active player                    |
| 3     | SELLING        | active player, a sale in progress|
| 4     | LOSS           | an opponent choosing his loss    |
| 5     | TAX            | active player discarding to 3    |
| 6     | GAME_OVER      | nobody (decider = -1)            |
"""

import numpy as np

from hansa_env.board import (
    CITIES,
    COLOURS,
    MAX_PLAYERS,
    NUM_PILES,
    NUM_WAREHOUSES,
)
from tradewinds.layout import Layout, StateViewBase

SETUP, REFILL, ACTIONS, SELLING, LOSS, TAX, GAME_OVER = range(7)
PHASE_NAMES = ("setup", "refill", "actions", "selling", "loss", "tax", "over")
MAX_SUPPLY = 78 - NUM_WAREHOUSES  # 64 tokens at most in the five piles

LAYOUT = Layout([
    ("num_players", 1),
    ("phase", 1),
    ("active", 1),          # whose turn it is
    ("decider", 1),         # who decides now (current_player); -1 when over
    ("ship", 1),            # city index of the shared ship
    ("acted_here", 1),      # 1 once an action was taken during this visit (H18)
    ("round", 1),           # 1-based round counter (0 during setup)
    ("turns", 1),           # turns completed
    ("end_triggered", 1),   # pile 5 was started (H27)
    ("setup_step", 1),      # placements made so far in the setup draft
    ("build_rule", 1),      # 0 = barrels (official), 1 = per_stall (Danish summary)
    ("max_rounds", 1),      # round cap -> truncation
    ("truncated", 1),
    ("supply_drawn", 1),    # tokens drawn so far from the supply sequence
    ("loss_colours", 1),    # bitmask of the colours just sold (H23)
    ("loss_next", 1),       # opponent offset (1..n-1) from the seller being processed
    ("loss_pending", 1),    # bitmask of sold colours not yet processed for that opponent
    ("loss_seat", 1),       # LOSS: the opponent deciding
    ("loss_colour", 1),     # LOSS: the colour he must give up
    ("rng", 2),             # 64-bit generator state as (lo, hi) words
    ("money", MAX_PLAYERS),
    ("stall_supply", MAX_PLAYERS),
    ("stalls", (len(CITIES), MAX_PLAYERS)),
    ("hand", (MAX_PLAYERS, len(COLOURS), 3)),
    ("sold", (MAX_PLAYERS, len(COLOURS), 3)),
    ("sale", (len(COLOURS), 3)),        # tokens chosen so far in the sale in progress
    ("removed", (len(COLOURS), 3)),     # out of the game: set aside, built with, lost, taxed
    ("colour_in_play", len(COLOURS)),
    ("warehouse", NUM_WAREHOUSES),      # token type or -1 when empty
    ("pile_end", NUM_PILES),            # cumulative end index of each pile in `supply`
    ("supply", MAX_SUPPLY),             # token types in draw order; -1 beyond the last
    ("build_count", 1),     # per_stall: stalls placed so far by the build in progress (0..3)
    ("seat_vp", MAX_PLAYERS),  # option seat_vp: VP each seat adds to its score (HA22), 0 off
    ("setup_order", 1),     # option setup_order (HA23): 0 forward (HA6), 1 reverse, 2 snake
])
STATE_SIZE = LAYOUT.size

_SCALARS = frozenset(n for n, f in LAYOUT.fields.items() if f.shape == (1,))


class StateView(StateViewBase):
    """Named numpy views into a Hansa state, e.g. `StateView(s).stalls[city, player]`."""

    layout = LAYOUT
    scalars = _SCALARS


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int32)
