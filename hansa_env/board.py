"""The Hansa board as data (docs/rules/hansa.md HA1/HA2; docs/design.md §12).

The printed map is not in the sources; this reconstruction follows the rulebook
examples (E4, E5, E8) and the decisions HA1, HA2. Everything here is plain data: the
kernel turns it into numpy arrays once at import.
"""

CITIES = (
    "Tonsberg", "Aalborg", "Lubeck", "Copenhagen", "Kalmar",
    "Danzig", "Stockholm", "Reval", "Riga",
)
"""Cities in warehouse-filling order (their printed numbers 1..9)."""

COPENHAGEN = CITIES.index("Copenhagen")
START_CITY = COPENHAGEN  # H5: the ship starts in Copenhagen.

WAREHOUSES_PER_CITY = {
    "Tonsberg": 1, "Aalborg": 1, "Lubeck": 2, "Copenhagen": 2, "Kalmar": 1,
    "Danzig": 2, "Stockholm": 2, "Reval": 1, "Riga": 2,
}

# Warehouse slots in filling order: (city index, 1-based number within the city).
WAREHOUSES = tuple(
    (c, k) for c, name in enumerate(CITIES) for k in range(1, WAREHOUSES_PER_CITY[name] + 1)
)
NUM_WAREHOUSES = len(WAREHOUSES)  # 14

ROUTES = (
    ("Copenhagen", "Tonsberg"), ("Copenhagen", "Lubeck"), ("Copenhagen", "Danzig"),
    ("Lubeck", "Aalborg"), ("Aalborg", "Copenhagen"), ("Tonsberg", "Stockholm"),
    ("Stockholm", "Kalmar"), ("Stockholm", "Reval"), ("Kalmar", "Copenhagen"),
    ("Danzig", "Kalmar"), ("Danzig", "Reval"), ("Reval", "Riga"), ("Riga", "Danzig"),
)
"""One-way routes (from, to); none is two-way (HA1)."""

# Approximate map positions (longitude-ish, latitude-ish) for rendering only.
CITY_XY = {
    "Tonsberg": (10.4, 59.3), "Aalborg": (9.9, 57.0), "Lubeck": (10.7, 53.9),
    "Copenhagen": (12.6, 55.7), "Kalmar": (16.4, 56.7), "Danzig": (18.6, 54.4),
    "Stockholm": (18.1, 59.3), "Reval": (24.7, 59.4), "Riga": (24.1, 56.9),
}

COLOURS = ("red", "orange", "yellow", "green", "blue", "brown")
"""Goods colours (HA3); the index is the colour id."""

BARRELS = (1, 2, 3)
TOKENS_PER_BARREL = (4, 5, 4)  # per colour: 4 x 1 barrel, 5 x 2, 4 x 3 (13 tokens)
TOKEN_TYPES = tuple((c, b) for c in range(len(COLOURS)) for b in BARRELS)
"""Token type id = colour * 3 + (barrels - 1)."""
NUM_TOKEN_TYPES = len(TOKEN_TYPES)  # 18


def token_name(token_type: int) -> str:
    colour, barrels = TOKEN_TYPES[token_type]
    return f"{COLOURS[colour]}{barrels}"


TOKEN_NAMES = tuple(token_name(t) for t in range(NUM_TOKEN_TYPES))

NUM_PILES = 5
STALLS_PER_PLAYER = 15
START_MONEY = 3
INCOME = 3
TAX_MONEY_LIMIT = 3
TAX_GOODS_LIMIT = 3
SETUP_PLACEMENTS = 3
STALLS_PER_PLACEMENT = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 4
COLOURS_REMOVED = {2: 2, 3: 1, 4: 0}
DEFAULT_MAX_ROUNDS = 200
SEAT_TALERS_LIMIT = 100    # the largest entry of option seat_talers (HA21)
SEAT_VP_LIMIT = 1000       # the largest entry of option seat_vp (HA22)
# option setup_order (HA23): the order of the opening placements; the index is the state's
# setup_order field. forward = HA6 (1..n, n..1, n..1), the default.
SETUP_ORDERS = ("forward", "reverse", "snake")


def pile_sizes(remaining: int) -> tuple:
    """HA5: five piles as even as possible, larger piles first."""
    base, extra = divmod(remaining, NUM_PILES)
    return tuple(base + (1 if k < extra else 0) for k in range(NUM_PILES))
