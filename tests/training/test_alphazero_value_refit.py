"""training/alphazero/value_refit.py: the value learns the games, the policy stays."""

import pytest

from tradewinds import registry
from tradewinds.agents import pvnet
from tradewinds.training.alphazero import value_refit


def _net(tmp_path, hint=""):
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 32, 1, hint)
    return pvnet.save(tmp_path / "net.npz", pvnet.random_weights(config, seed=5), config,
                      {"command": "tradewinds train hansa --algo alphazero",
                       "rated": {"games": 200}, "search": {"judge": 0.5}})


def test_the_value_learns_the_outcomes_while_the_policy_stays(tmp_path):
    lines = []
    weights, config, meta = value_refit.refit(_net(tmp_path), games=40, every=1, epochs=3,
                                              lr=1e-3, say=lines.append)
    before = meta["value_refit"]["held_out_before"]
    after = meta["value_refit"]["held_out"]
    assert after["value_loss"] < before - 0.05       # outcomes, not the net's own values
    assert after["agreement"] > 0.8     # its own policy the target (the heuristic's: 0.45)
    assert len([s for s in lines if s.startswith("epoch")]) == 3
    assert meta["search"] == {"judge": 0.5} and "rated" not in meta
    assert meta["value_refit"]["rated_before"] == {"games": 200}
    assert (config.hidden, config.blocks) == (32, 1)


def test_the_command_line_writes_the_chain_and_a_missing_net_is_one_line(tmp_path, capsys):
    out = tmp_path / "refit.npz"
    assert value_refit.main([str(_net(tmp_path, "heuristic")), "--games", "4", "--every",
                             "3", "--simulations", "600", "--out", str(out)]) == 0
    _, config, meta = pvnet.load(out)
    assert config.hint == "heuristic"
    assert meta["search"] == {"judge": 0.5, "simulations": 600}     # the judge kept
    assert meta["command"].startswith("tradewinds train hansa --algo alphazero && python "
                                      "-m tradewinds.training.alphazero.value_refit")
    with pytest.raises(SystemExit) as e:
        value_refit.main([str(tmp_path / "none.npz"), "--out", str(out)])
    assert e.value.code == 2 and "no file at" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        value_refit.main([str(_net(tmp_path)), "--judge", "1.5", "--out", str(out)])
    assert e.value.code == 2 and "judge must be in [0, 1], got 1.5" in capsys.readouterr().err
