"""Balance metrics of a set of recorded games, as the game-design literature reports them.

Computed from arena rows (see tradewinds.store) of games where every seat is played by the
same agent, indexed by initial turn-order position (seat 1 = first player):

* ``seat1_win_share`` — seat 1's share of the wins (shared wins split 1/k), fair = 1/n;
* ``balance`` — 1 minus the largest gap between any two seats' win rates (1 = all seats
  win equally often; 0 = one seat wins every game);
* ``completion`` — share of games that ended by the rules rather than at the round cap;
* ``shared_wins`` — share of games won jointly by two or more seats;
* ``mean_rounds`` / ``mean_decisions`` — game length.

Win shares, balance and shared wins use the games that ended by the rules (a game stopped
at the round cap is not a played-out game); when none did, they fall back to all games and
``basis`` says so. Completion and lengths are over all games; lengths are also given for the
finished games alone. `length_distribution` counts games by length in rounds (the Voyage
round cap is chosen from it: docs/round_cap.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ENDED = "ended by the rules"
AT_CAP = "all games, scored at the round cap (none ended by the rules)"


def ended_by_rules(rows: Sequence[dict]) -> list[dict]:
    return [r for r in rows if not r["truncated"]]


def headline_rows(rows: Sequence[dict]) -> tuple[list[dict], str]:
    """The games the headline numbers use, and a phrase saying which they are."""
    finished = ended_by_rules(rows)
    return (finished, ENDED) if finished else (list(rows), AT_CAP)


def position_wins(rows: Sequence[dict], num_players: int) -> np.ndarray:
    """[games, positions] win credit (1/k to each of k winners), column k = the seat that
    was k-th in that game's initial turn order."""
    from tradewinds.studies import arena

    return arena.by_position(arena.wins_matrix(rows, num_players), rows)


def balance(win_rates: Sequence[float]) -> float:
    """1 - (largest win rate - smallest win rate)."""
    rates = np.asarray(win_rates, dtype=float)
    return float(1.0 - (rates.max() - rates.min()))


def _mean(values) -> float | None:
    vals = [v for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


def metrics(rows: Sequence[dict], num_players: int) -> dict:
    """The balance metrics of one study (see the module docstring)."""
    if not rows:
        raise ValueError("no games to measure")
    basis_rows, basis = headline_rows(rows)
    wins = position_wins(basis_rows, num_players)
    rates = wins.mean(axis=0)
    finished = ended_by_rules(rows)
    return {
        "games": len(rows),
        "ended_by_rules": len(finished),
        "truncated": len(rows) - len(finished),
        "basis": basis,
        "basis_games": len(basis_rows),
        "mostly_truncated": len(finished) * 2 < len(rows),
        "seat_win_rates": [float(x) for x in rates],
        "seat1_win_share": float(rates[0]),
        "fair_share": 1.0 / num_players,
        "balance": balance(rates),
        "completion": len(finished) / len(rows),
        "shared_wins": float(np.mean([len(r["winners"]) > 1 for r in basis_rows])),
        "mean_rounds": _mean(r.get("rounds") for r in rows),
        "mean_decisions": float(np.mean([r["steps"] for r in rows])),
        "mean_rounds_finished": _mean(r.get("rounds") for r in finished),
        "mean_decisions_finished": (float(np.mean([r["steps"] for r in finished]))
                                    if finished else None),
    }


def length_distribution(rows: Sequence[dict]) -> dict[int, int]:
    """Number of games by length in rounds (games without a round count are left out)."""
    out: dict[int, int] = {}
    for r in rows:
        if r.get("rounds") is not None:
            out[int(r["rounds"])] = out.get(int(r["rounds"]), 0) + 1
    return dict(sorted(out.items()))


def quantile_rounds(rows: Sequence[dict], q: float) -> int | None:
    """The q-quantile of game length in rounds (the smallest length L with at least a share
    q of the games lasting L rounds or fewer)."""
    dist = length_distribution(rows)
    total = sum(dist.values())
    if not total:
        return None
    seen = 0
    for rounds, count in dist.items():
        seen += count
        if seen >= q * total:
            return rounds
    return max(dist)
