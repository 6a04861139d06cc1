"""Hansa action ids and names: a stable bijection (docs/design.md §3).

| ids     | name                        | when                                              |
|---------|-----------------------------|---------------------------------------------------|
| 0-8     | `setup:<City>`              | setup draft: put 2 stalls in that city (H8)       |
| 9       | `refill`                    | phase 2: refill the empty warehouses (H11, H12)   |
| 10      | `skip_refill`               | phase 2: do not refill                            |
| 11-19   | `sail:<City>`               | phase 3: sail along a route to that city (H15)    |
| 20-33   | `buy:<City>/<k>`            | phase 3: buy from warehouse k of the city (H19)   |
| 34-51   | `build:<colour><barrels>`   | phase 3: build stalls paying that token (H20);    |
|         |                             | per_stall: 1 stall, repeatable up to 3 in a build |
| 52-69   | `sell:add:<colour><barrels>`| phase 3: add that token to the sale (H21)         |
| 70      | `sell:done`                 | finish the sale (H22, H23)                        |
| 71-88   | `discard:<colour><barrels>` | give up that token: opponents' loss (H23) or tax (H24) |
| 89      | `end_actions`               | end phase 3 (H24 follows)                         |
"""

from hansa_env.board import CITIES, NUM_TOKEN_TYPES, TOKEN_NAMES, WAREHOUSES
from tradewinds.naming import ActionNames

NUM_CITIES = len(CITIES)

SETUP = 0
REFILL = SETUP + NUM_CITIES
SKIP_REFILL = REFILL + 1
SAIL = SKIP_REFILL + 1
BUY = SAIL + NUM_CITIES
BUILD = BUY + len(WAREHOUSES)
SELL_ADD = BUILD + NUM_TOKEN_TYPES
SELL_DONE = SELL_ADD + NUM_TOKEN_TYPES
DISCARD = SELL_DONE + 1
END_ACTIONS = DISCARD + NUM_TOKEN_TYPES
NUM_ACTIONS = END_ACTIONS + 1  # 90

NAMES = tuple(
    [f"setup:{c}" for c in CITIES]
    + ["refill", "skip_refill"]
    + [f"sail:{c}" for c in CITIES]
    + [f"buy:{CITIES[c]}/{k}" for c, k in WAREHOUSES]
    + [f"build:{t}" for t in TOKEN_NAMES]
    + [f"sell:add:{t}" for t in TOKEN_NAMES]
    + ["sell:done"]
    + [f"discard:{t}" for t in TOKEN_NAMES]
    + ["end_actions"]
)
assert len(NAMES) == NUM_ACTIONS
_LOOKUP = ActionNames(NAMES, "hansa")
name = _LOOKUP.name
from_name = _LOOKUP.id
