"""Pebbles' state: one flat int32 vector with named fields (`tradewinds.layout`).

The vector has the same length for 2, 3 and 4 players (unused seats are zero) and holds
everything, the random generator too, so `step` is a pure function of (state, action).
The kernels read fields at the offsets below; tests and tools read them by name through
`StateView` (``StateView(s).taken[1]``).
"""

from tradewinds.layout import Layout, StateViewBase

MIN_PLAYERS, MAX_PLAYERS = 2, 4
NUM_CARDS = 6           # secret cards 1..6; each seat is dealt one, the rest stay hidden
MAX_TAKE = 3            # a take is 1, 2 or 3 pebbles
DEFAULT_PILE = 100

LAYOUT = Layout([
    ("num_players", 1),         # s[0] in every game: `Game.num_players` reads it
    ("pile", 1),                # pebbles left
    ("pile_size", 1),           # option `pile`: pebbles at the start
    ("open_cards", 1),          # option `open_cards`: 1 = every card face up
    ("decider", 1),             # the seat to move; -1 once the pile is empty
    ("forbidden", 1),           # the previous take (1..3), which the next may not repeat
    ("turns", 1),               # decisions so far
    ("taken", MAX_PLAYERS),     # pebbles taken per seat
    ("card", MAX_PLAYERS),      # each seat's secret card 1..6 (0: no such seat)
    ("rng", 2),                 # the SplitMix64 generator (`tradewinds.rng`)
])
STATE_SIZE = LAYOUT.size
(NP, PILE, PILE_SIZE, OPEN, DECIDER, FORBIDDEN, TURNS, TAKEN, CARD,
 RNG) = (f.offset for f in LAYOUT.fields.values())


class StateView(StateViewBase):
    """Named, writable views of a Pebbles state (every attribute is a numpy view)."""

    layout = LAYOUT
    scalars = frozenset(name for name, f in LAYOUT.fields.items() if f.size == 1)
