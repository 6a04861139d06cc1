"""Pictures of a Voyage state: a text summary (ansi) and the hex map (rgb_array)."""

from __future__ import annotations

import numpy as np

from voyage_env import rules as R
from voyage_env.board import GOODS
from voyage_env.state import PHASE_NAMES, StateView

MONUMENT_COLOURS = ("#1f77b4", "#d4b000", "#c0392b", "#2ca02c")


def _scores(state, vmap):
    from voyage_env import kernel as K
    out = np.zeros(4, dtype=np.int64)
    K.scores(state, K.pack_map(vmap), out)
    return out


def render_ansi(state: np.ndarray, vmap) -> str:
    v = StateView(state)
    n = v.num_players
    vp = _scores(state, vmap)
    order = " > ".join(f"player_{p}" for p in v.order[:n])
    lines = [
        f"Voyage  round {v.round}/{v.max_rounds}  phase {PHASE_NAMES[v.phase]}  "
        f"deciding {'-' if v.decider < 0 else 'player_' + str(v.decider)}  "
        f"monastery tiles left {v.tiles_total - v.tiles_taken}"
        + ("  END TRIGGERED" if v.end_triggered else ""),
        f"turn order: {order}   deck {v.deck_size} cards, discard {int(v.discard.sum())}",
    ]
    for p in range(n):
        col, row = vmap.coords[v.ship[p]]
        port = vmap.port[v.ship[p]]
        where = vmap.port_name[port] if port >= 0 else (
            "Lisbon" if v.ship[p] == vmap.lisbon else f"({col},{row})")
        cubes = ",".join(g for g, c in zip(GOODS, v.cubes[p], strict=True) if c) or "-"
        wrecks = ",".join(str(k + 1) for k in range(4) if v.wrecked[p, k]) or "-"
        lines.append(
            f"player_{p}: at {where:<14} discs {v.discs[p] - v.spent[p]}/{v.discs[p]}  "
            f"VP {vp[p]} (play {v.vp[p]})  cards {int(v.hand[p].sum())}  cubes {cubes}  "
            f"wrecked {wrecks}  tiles {v.tiles[p]}" + ("  docked" if v.docked[p] else ""))
    found = [f"{vmap.port_name[i]}:p{d}" for i, d in enumerate(v.discovered[: len(vmap.port_vp)])
             if d >= 0]
    lines.append("discovered: " + (" ".join(found) or "-"))
    if v.card >= 0:
        lines.append(f"resolving card: {R.CARD_KINDS[v.card]}")
    return "\n".join(lines)


def render_rgb(state: np.ndarray, vmap) -> np.ndarray:
    """The hex map with ships, the Black Ship and monuments on discovered ports."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from voyage_env.render_map import SQ3, draw_map, hex_center

    v = StateView(state)
    n = v.num_players
    w_in = 16.0
    h_in = w_in * (SQ3 * (vmap.height + 1)) / (1.5 * vmap.width + 2.4)
    fig = plt.figure(figsize=(w_in, h_in), dpi=60)
    ax = fig.add_axes((0, 0, 1, 1))
    draw_map(vmap, ax, names=True, legend=False, title=False, ships=list(v.ship[:n]),
             font_scale=0.65)
    for port, seat in enumerate(v.discovered[: len(vmap.port_vp)]):
        if seat >= 0:
            x, y = hex_center(*vmap.coords[vmap.port_hex[port]])
            ax.plot(x + 0.35, y - 0.35, marker="^", ms=9, color=MONUMENT_COLOURS[seat],
                    mec="black", zorder=9)
    if v.black_hex >= 0:
        x, y = hex_center(*vmap.coords[v.black_hex])
        ax.plot(x, y, marker="s", ms=12, color="black", zorder=10)
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[..., :3].copy()
    plt.close(fig)
    return image
