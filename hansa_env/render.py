"""Pictures of a Hansa state: a text board (ansi) and a matplotlib map (rgb_array)."""

from __future__ import annotations

import numpy as np

from hansa_env import board as B
from hansa_env.game import GAME
from hansa_env.state import PHASE_NAMES, StateView


def _hand_text(counts) -> str:
    parts = [f"{B.TOKEN_NAMES[t]}x{k}" if k > 1 else B.TOKEN_NAMES[t]
             for t, k in enumerate(counts) if k]
    return " ".join(parts) or "-"


def render_ansi(state: np.ndarray) -> str:
    v = StateView(state)
    n = v.num_players
    vp = GAME.scores(state)
    lines = [
        f"Hansa  round {v.round}  phase {PHASE_NAMES[v.phase]}  active player_{v.active}  "
        f"deciding {'-' if v.decider < 0 else 'player_' + str(v.decider)}"
        + ("  END TRIGGERED" if v.end_triggered else ""),
        f"ship in {B.CITIES[v.ship]}{' (acted here)' if v.acted_here else ''}",
        "",
        f"{'city':<11} {'warehouses':<18} " + " ".join(f"p{p:<2}" for p in range(n)),
    ]
    for c, name in enumerate(B.CITIES):
        slots = [w for w, (city, _) in enumerate(B.WAREHOUSES) if city == c]
        goods = ", ".join(B.TOKEN_NAMES[v.warehouse[w]] if v.warehouse[w] >= 0 else "."
                          for w in slots)
        mark = ">" if c == v.ship else " "
        lines.append(f"{mark}{name:<10} {goods:<18} "
                     + " ".join(f"{v.stalls[c, p]:<3}" for p in range(n)))
    left = [max(0, v.pile_end[k] - max(v.supply_drawn, v.pile_end[k - 1] if k else 0))
            for k in range(5)]
    lines += ["", "piles: " + " ".join(str(k) for k in left), ""]
    for p in range(n):
        hand = v.hand.reshape(4, -1)[p]
        sold = v.sold.reshape(4, -1)[p]
        lines.append(
            f"player_{p}: {v.money[p]} talers, {v.stall_supply[p]} stalls in supply, "
            f"VP {vp[p]}  hand: {_hand_text(hand)}  sold: {_hand_text(sold)}")
    if v.phase == 6:
        lines.append(f"winners: {', '.join(f'player_{p}' for p in GAME.winners(state))}"
                     + ("  (truncated)" if v.truncated else ""))
    return "\n".join(lines)


def render_rgb(state: np.ndarray) -> np.ndarray:
    """The Baltic map with one-way routes as arrows, stalls per city and the ship."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    v = StateView(state)
    n = v.num_players
    colours = ["#7f7f7f", "#d4b000", "#8e44ad", "#c0392b"]
    fig, ax = plt.subplots(figsize=(8, 6), dpi=80)
    ax.set_facecolor("#cfe8f7")
    for a, b in B.ROUTES:
        (x0, y0), (x1, y1) = B.CITY_XY[a], B.CITY_XY[b]
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                    arrowprops=dict(arrowstyle="-|>", color="#1f5f8b", lw=1.5,
                                    shrinkA=14, shrinkB=14))
    for c, name in enumerate(B.CITIES):
        x, y = B.CITY_XY[name]
        ax.plot(x, y, "o", ms=18, color="#f4e4c1", mec="black", zorder=3)
        if c == v.ship:
            ax.plot(x, y, "o", ms=24, mfc="none", mec="#b03a2e", mew=3, zorder=4)
        slots = [w for w, (city, _) in enumerate(B.WAREHOUSES) if city == c]
        goods = ",".join(B.TOKEN_NAMES[v.warehouse[w]] if v.warehouse[w] >= 0 else "."
                         for w in slots)
        ax.text(x, y + 0.45, name, ha="center", fontsize=9, weight="bold")
        ax.text(x, y - 0.55, goods, ha="center", fontsize=7)
        for p in range(n):
            if v.stalls[c, p]:
                ax.text(x - 0.6 + 0.4 * p, y - 0.9, str(v.stalls[c, p]), color=colours[p],
                        ha="center", fontsize=9, weight="bold")
    vp = GAME.scores(state)
    ax.set_title(f"Hansa - round {v.round}, player_{v.active} to move - VP "
                 + " ".join(f"p{p}:{vp[p]}" for p in range(n)), fontsize=10)
    ax.set_xlim(8.5, 26)
    ax.set_ylim(52.8, 60.5)
    ax.set_xticks([])
    ax.set_yticks([])
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()
    plt.close(fig)
    return image
