"""Numbers of the Voyage game as data (docs/rules/voyage.md; docs/design.md §12)."""

from voyage_env.board import DIRS, GOODS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_PORTS = 32
BASE_DISCS, UPGRADED_DISCS = 9, 12          # V2, V43
HAND_SIZE = 5                               # V45, V48
ROUND1_DEAL = (4, 5, 6, 7)                  # V13, by position
TARGETS_PER_DECK = 4                        # V3: 4 west + 4 east per player
TARGET_VP = 5                               # V51
MONASTERY_VP = 10                           # V41
UPGRADE_CUBES = 3                           # V43: different goods for ship 4
TILES_BY_PLAYERS = {2: 3, 3: 4, 4: 5}       # V4
STOCK_PER_GOOD = 4                          # VA8
DEFAULT_MAX_ROUNDS = 40
SEAT_VP_LIMIT = 1000                         # the largest entry of option seat_vp (VA40)
SEAT_CARDS_LIMIT = 10                        # the largest entry of option seat_cards (VA41)
WRECK_FACES, DIE_FACES = 2, 6               # VA11
MOVE_DICE = 2                               # V54, VA34: 2d6 movement points per turn
NUM_SHIPS = 4

GOOD_VP = (5, 5, 5, 5, 5, 5, 10, 10)        # chili .. silk 5, nutmeg and silver 10
PEPPER = GOODS.index("pepper")


def ship_of(good: int) -> int:
    """Ships 0..3 (= ship 1..4) carry goods 2k and 2k+1."""
    return good // 2


CARD_KINDS = ("storm2", "storm3", "storm4") + tuple(f"compass_{d}" for d in DIRS) + (
    "favourable", "calm")
STORM2, STORM3, STORM4 = 0, 1, 2
COMPASS = 3                                  # compass_<dir> = COMPASS + dir
FAVOURABLE, CALM = 9, 10
NUM_CARD_KINDS = len(CARD_KINDS)
CARD_COUNTS = (10, 10, 8) + (5,) * 6 + (18, 10)   # 86 cards (VA9)
SIMPLE_DECK_CALMS_REMOVED = 5                       # VA33
DECK_SIZE = sum(CARD_COUNTS)
FAVOURABLE_REGAIN = 2                        # V33, VA10
FAVOURABLE_REACH = 2                         # VA9: others may move up to 2
COMPASS_STEPS = 2                            # V30, V31


def storm_value(kind: int) -> int:
    return kind + 2 if kind <= STORM4 else 0
