"""A Hansa seat's observation turned back into named fields (`view`), by the layout of
`hansa_env.observation`: the page draws only this and the seat's legal action names.

Everything in Hansa but the order of the supply piles is public (HA17), so the view holds
every seat's hand; it is still built from the observation alone, so nothing the
observation lacks can reach the page."""

from __future__ import annotations

import numpy as np

from hansa_env import observation as O
from hansa_env.board import CITIES, COLOURS, NUM_PILES, TOKEN_NAMES, WAREHOUSES
from hansa_env.state import PHASE_NAMES
from tradewinds.web.obs_fields import count, one_hot, seat_blocks

_NAMES = O.obs_names()
_AT = {name: i for i, name in enumerate(_NAMES)}


def _tokens(obs, prefix: str) -> dict:
    """{token name: count} of the entries `prefix + token` (counts / TOKEN_SCALE)."""
    out = {}
    for t in TOKEN_NAMES:
        k = count(obs[_AT[prefix + t]], O.TOKEN_SCALE)
        if k:
            out[t] = k
    return out


def _one_hot(obs, names) -> int:
    return one_hot(obs, _AT, names)


def view(obs: np.ndarray, seat: int, options: dict) -> dict:
    """The named view of `obs`, the observation of `seat`; `options` the game's options
    (the round is observed as a share of max_rounds)."""
    n = 2 + _one_hot(obs, [f"num_players={k}" for k in (2, 3, 4)])
    warehouses = []
    for c, k in WAREHOUSES:
        got = [t for t in TOKEN_NAMES if obs[_AT[f"wh:{CITIES[c]}/{k}:{t}"]] > 0.5]
        warehouses.append(got[0] if got else None)
    players = [None] * n
    for p, pre, at in seat_blocks(obs, _AT, seat, n):
        players[p] = {
            "seat": p, "active": bool(at("active") > 0.5), "decider": bool(at("decider") > 0.5),
            "money": count(at("money"), O.MONEY_SCALE),
            "stall_supply": count(at("stall_supply"), O.STALL_SCALE),
            "stalls": [count(at(f"stalls@{c}"), O.STALL_SCALE) for c in CITIES],
            "hand": _tokens(obs, pre + "hand:"), "sold": _tokens(obs, pre + "sold:"),
            "score": count(at("score"), O.SCORE_SCALE),
        }
    loss = _one_hot(obs, [f"loss_colour={c}" for c in COLOURS])
    return {
        "game": "hansa", "num_players": n, "seat": seat,
        "phase": PHASE_NAMES[_one_hot(obs, [f"phase={p}" for p in PHASE_NAMES])],
        "round": count(obs[_AT["round/max_rounds"]], options["max_rounds"]),
        "end_triggered": bool(obs[_AT["end_triggered"]] > 0.5),
        "acted_here": bool(obs[_AT["acted_here"]] > 0.5),
        "build_count": count(obs[_AT["build_count/3"]], 3),
        "ship": _one_hot(obs, [f"ship@{c}" for c in CITIES]),
        "warehouses": warehouses,
        "piles": [count(obs[_AT[f"pile{k + 1}_size"]], O.PILE_SCALE) for k in range(NUM_PILES)],
        "sale": _tokens(obs, "sale:"),
        "loss_colour": COLOURS[loss] if loss >= 0 else None,
        "colours_in_play": [c for c in COLOURS if obs[_AT[f"colour_in_play:{c}"]] > 0.5],
        "players": players,
    }
