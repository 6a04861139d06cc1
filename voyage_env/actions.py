"""Voyage action ids and names: a stable bijection.

| ids   | name              | when                                                        |
|-------|-------------------|-------------------------------------------------------------|
| 0     | `bid:pass`        | BID: pass this go (V10)                                     |
| 1-12  | `bid:<T>`         | BID: raise your total bid to T discs                        |
| 13-16 | `order:<K>`       | ORDER: take turn-order position K (V11)                     |
| 17-22 | `move:<D>`        | MOVE: sail one step (paid or free); REACT: a free step      |
| 23-28 | `shield:<D>`      | MOVE: step onto a pirate hex, a favourable wind pays (V34)  |
| 29-34 | `black:<D>`       | MOVE: move the Black Ship one step, 1 disc (V58)            |
| 35    | `dock`            | MOVE: enter the Lisbon port (V39)                           |
| 36    | `stop`            | MOVE: end the turn; REACT: end this reaction                |
| 37-47 | `play:<card>`     | PLAY: play that wind card (V26-V35)                         |
| 48-51 | `wreck:ship<K>`   | WRECK: that ship runs aground (V21)                         |
| 52-59 | `upgrade:<good>`  | UPGRADE: hand in that cube toward the upgrade (V43)         |
| 60    | `upgrade:skip`    | UPGRADE: no upgrade this visit                              |
| 61    | `monastery:take`  | MONASTERY: pepper for the next tile (V41)                   |
| 62    | `monastery:sell`  | MONASTERY: sell the pepper instead                          |
| 63    | `cards:top_up`    | CARDS: draw up to 5 (V45)                                   |
| 64    | `cards:new`       | CARDS: discard the hand, draw 5                             |

Directions D: N, NE, SE, S, SW, NW. Card names: storm2, storm3, storm4, compass_<D>,
favourable, calm.
"""

from tradewinds.naming import ActionNames
from voyage_env.board import DIRS, GOODS
from voyage_env.rules import CARD_KINDS, NUM_SHIPS, UPGRADED_DISCS

BID_PASS = 0
BID = 1                       # bid:T is BID + T - 1
ORDER = BID + UPGRADED_DISCS  # order:K is ORDER + K - 1
MOVE = ORDER + 4
SHIELD = MOVE + 6
BLACK = SHIELD + 6
DOCK = BLACK + 6
STOP = DOCK + 1
PLAY = STOP + 1
WRECK = PLAY + len(CARD_KINDS)
UPGRADE = WRECK + NUM_SHIPS
UPGRADE_SKIP = UPGRADE + len(GOODS)
MONASTERY_TAKE = UPGRADE_SKIP + 1
MONASTERY_SELL = MONASTERY_TAKE + 1
CARDS_TOP_UP = MONASTERY_SELL + 1
CARDS_NEW = CARDS_TOP_UP + 1
NUM_ACTIONS = CARDS_NEW + 1  # 65

NAMES = tuple(
    ["bid:pass"] + [f"bid:{t}" for t in range(1, UPGRADED_DISCS + 1)]
    + [f"order:{k}" for k in range(1, 5)]
    + [f"move:{d}" for d in DIRS] + [f"shield:{d}" for d in DIRS]
    + [f"black:{d}" for d in DIRS] + ["dock", "stop"]
    + [f"play:{c}" for c in CARD_KINDS]
    + [f"wreck:ship{k}" for k in range(1, NUM_SHIPS + 1)]
    + [f"upgrade:{g}" for g in GOODS] + ["upgrade:skip"]
    + ["monastery:take", "monastery:sell", "cards:top_up", "cards:new"]
)
assert len(NAMES) == NUM_ACTIONS
_LOOKUP = ActionNames(NAMES, "voyage")
name = _LOOKUP.name
from_name = _LOOKUP.id
