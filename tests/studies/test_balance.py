"""Balance metrics (studies.balance) against small hand-computed cases."""

import pytest

from tradewinds.studies import balance


def row(winners, order=(0, 1, 2), truncated=False, rounds=10, steps=100):
    return {"winners": list(winners), "turn_order": list(order), "truncated": truncated,
            "rounds": rounds, "steps": steps}


def test_win_shares_are_by_initial_turn_position():
    # game 0: seat 2 played first and won; game 1: seat 0 first, seats 0 and 1 share
    rows = [row([2], order=(2, 0, 1)), row([0, 1], order=(0, 1, 2))]
    w = balance.position_wins(rows, 3)
    assert w.tolist() == [[1, 0, 0], [0.5, 0.5, 0]]
    m = balance.metrics(rows, 3)
    assert m["seat_win_rates"] == [0.75, 0.25, 0.0]
    assert m["seat1_win_share"] == 0.75 and m["fair_share"] == pytest.approx(1 / 3)
    assert m["balance"] == pytest.approx(0.25)          # 1 - (0.75 - 0)
    assert m["shared_wins"] == 0.5


def test_truncated_games_are_left_out_of_win_shares_but_counted():
    rows = [row([0]), row([1]), row([1], truncated=True, rounds=40, steps=900),
            row([2], truncated=True, rounds=40, steps=700)]
    m = balance.metrics(rows, 3)
    assert (m["games"], m["ended_by_rules"], m["truncated"]) == (4, 2, 2)
    assert m["basis"] == balance.ENDED and m["basis_games"] == 2
    assert m["seat_win_rates"] == [0.5, 0.5, 0.0]
    assert m["completion"] == 0.5 and not m["mostly_truncated"]
    assert m["mean_rounds"] == 25.0 and m["mean_rounds_finished"] == 10.0
    assert m["mean_decisions"] == 450.0 and m["mean_decisions_finished"] == 100.0


def test_all_truncated_uses_every_game_and_flags_it():
    rows = [row([1], truncated=True), row([1], truncated=True), row([0], truncated=True)]
    m = balance.metrics(rows, 2 + 1)
    assert m["basis"] == balance.AT_CAP and m["mostly_truncated"]
    assert m["seat_win_rates"] == pytest.approx([1 / 3, 2 / 3, 0.0])
    assert m["completion"] == 0.0


def test_perfect_balance_and_total_imbalance():
    assert balance.balance([0.5, 0.5]) == 1.0
    assert balance.balance([1.0, 0.0, 0.0]) == 0.0
    assert balance.balance([0.3, 0.25, 0.25, 0.2]) == pytest.approx(0.9)


def test_length_distribution_and_quantile():
    rows = [row([0], rounds=r) for r in (10, 12, 12, 13, 20)] + [{**row([0]), "rounds": None}]
    assert balance.length_distribution(rows) == {10: 1, 12: 2, 13: 1, 20: 1}
    assert balance.quantile_rounds(rows, 0.5) == 12
    assert balance.quantile_rounds(rows, 0.8) == 13
    assert balance.quantile_rounds(rows, 1.0) == 20
    assert balance.quantile_rounds([], 0.5) is None


def test_no_games_is_an_error():
    with pytest.raises(ValueError, match="no games"):
        balance.metrics([], 2)
