"""benchmarks/leaf_values.py: Brier scores of the search's leaf values."""

import numpy as np
import pytest

from agents import pvnet
from benchmarks import leaf_values
from tradewinds import registry


def _net(tmp_path, game="hansa", players=2, name="net.npz"):
    g = registry.game(game)
    config = pvnet.NetConfig(game, players, g.obs_size, g.num_actions, 16, 0)
    return pvnet.save(tmp_path / name, pvnet.random_weights(config, seed=2), config)


def test_thirds_split_each_game_in_order():
    part = leaf_values.thirds(np.array([7, 7, 7, 7, 7, 7, 3, 3, 3]))
    assert part.tolist() == [0, 0, 1, 1, 2, 2, 0, 1, 2]


def test_a_report_scores_every_value_and_mix(tmp_path):
    net = _net(tmp_path)
    report = leaf_values.measure([net], games=6, every=3, draws=(1, 2))
    names = [r["value"] for r in report["rows"]]
    assert names == ["judgement, 1 draw", "judgement, 2 draws", str(net),
                     f"{net}, judge 0.25", f"{net}, judge 0.5"]
    for r in report["rows"]:
        assert 0.0 <= r["brier"] <= 1.0
    weights, _, _ = pvnet.load(net)
    from training.alphazero.warmstart import heuristic_records

    found = heuristic_records(registry.game("hansa"), 2, 6, seed=leaf_values.SEED, every=3)
    _, value_logits = pvnet.run(weights, found["obs"])
    v = value_logits[:, :2].astype(np.float64)
    share = np.exp(v[:, 0]) / np.exp(v).sum(1)
    assert report["rows"][2]["brier"] == pytest.approx(np.mean((share - found["value"][:, 0]) ** 2))
    assert "| judgement, 2 draws |" in leaf_values.markdown(report)


def test_nets_of_different_games_are_refused_in_one_line(tmp_path, capsys):
    a = _net(tmp_path, "hansa", 2, "a.npz")
    b = _net(tmp_path, "hansa", 3, "b.npz")
    with pytest.raises(SystemExit) as e:
        leaf_values.main([str(a), str(b), "--games", "2"])
    assert e.value.code == 2 and "different games or player counts" in capsys.readouterr().err
