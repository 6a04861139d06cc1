"""A Voyage seat's observation turned back into named fields (`view`), by the layout of
`voyage_env.observation`: the page draws only this and the seat's legal action names.

The observation holds the seat's own wind cards and target cards and, of every other
seat, only public things (ship, discs, VP, cargo, the size of its hand), so the view
cannot hold another seat's cards, its targets or the deck."""

from __future__ import annotations

import functools

import numpy as np

from tradewinds import registry
from tradewinds.web.obs_fields import count, one_hot, seat_blocks
from voyage_env import observation as O
from voyage_env.board import GOODS
from voyage_env.rules import CARD_KINDS, MAX_PLAYERS, NUM_SHIPS
from voyage_env.state import PHASE_NAMES


@functools.cache
def _layout(num_hexes: int, port_names: tuple) -> dict:
    names = O.obs_names(num_hexes, port_names)
    return {name: i for i, name in enumerate(names)}


def view(obs: np.ndarray, seat: int, options: dict) -> dict:
    """The named view of `obs`, the observation of `seat`; `options` the game's options
    (the round is observed as a share of max_rounds)."""
    vmap = registry.game("voyage").board
    H, ports = vmap.num_hexes, tuple(vmap.port_name)
    at = _layout(H, ports)
    n = 2 + one_hot(obs, at, [f"num_players={k}" for k in (2, 3, 4)])
    discovered = {}
    for pid, name in enumerate(ports):
        r = one_hot(obs, at, [f"port:{name}:by=p{r}" for r in range(MAX_PLAYERS)])
        if r >= 0:
            discovered[pid] = (seat + r) % n
    players = [None] * n
    for p, pre, f in seat_blocks(obs, at, seat, n):
        players[p] = {
            "seat": p, "active": bool(f("active") > 0.5), "decider": bool(f("decider") > 0.5),
            "position": 1 + one_hot(obs, at, [f"{pre}position={k}" for k in range(1, 5)]),
            "ship": one_hot(obs, at, [f"{pre}ship@{h}" for h in range(H)]),
            "discs": count(f("discs"), O.DISC_SCALE),
            "available": count(f("available"), O.DISC_SCALE),
            "bid": count(f("bid"), O.DISC_SCALE), "vp": count(f("vp"), O.VP_SCALE),
            "upgraded": bool(f("upgraded") > 0.5), "docked": bool(f("docked") > 0.5),
            "attacked": bool(f("attacked") > 0.5),
            "tiles": count(f("tiles"), O.TILE_SCALE),
            "best_tile": count(f("best_tile"), O.TILE_SCALE),
            "hand_size": count(f("hand_size"), O.HAND_SCALE),
            "cubes": [g for g in GOODS for _ in range(count(f(f"cube:{g}"), 1))],
            "wrecked": [k + 1 for k in range(NUM_SHIPS) if f(f"wrecked:ship{k + 1}") > 0.5],
        }
    card = one_hot(obs, at, [f"card={c}" for c in CARD_KINDS])
    hand = {}
    for c in CARD_KINDS:
        k = count(obs[at[f"my_hand:{c}"]], O.HAND_SCALE)
        if k:
            hand[c] = k
    return {
        "game": "voyage", "num_players": n, "seat": seat,
        "phase": PHASE_NAMES[one_hot(obs, at, [f"phase={p}" for p in PHASE_NAMES])],
        "round": count(obs[at["round/max_rounds"]], options["max_rounds"]),
        "end_triggered": bool(obs[at["end_triggered"]] > 0.5),
        "tiles_left": count(obs[at["tiles_left"]], O.TILE_SCALE),
        "card": CARD_KINDS[card] if card >= 0 else None,
        "react_budget": count(obs[at["react_budget"]], O.BUDGET_SCALE),
        "bid_high": count(obs[at["bid_high"]], O.DISC_SCALE),
        "deck_size": count(obs[at["deck_size"]], O.DECK_SCALE),
        "discard": {c: k for c in CARD_KINDS
                    if (k := count(obs[at[f"discard:{c}"]], O.DISCARD_SCALE))},
        "stock": {g: count(obs[at[f"stock:{g}"]], O.STOCK_SCALE) for g in GOODS},
        "discovered": discovered,
        "black_hex": one_hot(obs, at, [f"black@{h}" for h in range(H)]),
        "my_hand": hand,
        "my_targets": [name for name in ports if obs[at[f"my_target:{name}"]] > 0.5],
        "players": players,
    }
