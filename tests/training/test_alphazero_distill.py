"""training/alphazero/distill.py: a smaller net fitted to a teacher's outputs."""

import numpy as np
import pytest

from tradewinds import registry
from tradewinds.agents import pvnet
from tradewinds.training.alphazero import distill


def _teacher(tmp_path, hidden=48):
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, hidden, 1)
    return pvnet.save(tmp_path / "teacher.npz", pvnet.random_weights(config, seed=3),
                      config, {"command": "tradewinds train hansa --algo alphazero"})


def test_teacher_targets_are_the_teachers_masked_policy_and_seat_values(tmp_path):
    weights, config, _ = pvnet.load(_teacher(tmp_path))
    found = distill.positions(registry.game("hansa"), 2, 3, 1, 0, None)
    records = distill.teacher_targets(weights, config, found)
    i = len(found["obs"]) // 2
    logits, value_logits = pvnet.run(weights, np.asarray(found["obs"][i], np.float32))
    legal = found["mask"][i]
    expect = np.exp(logits - logits[legal].max()) * legal
    np.testing.assert_allclose(records["policy"][i], expect / expect.sum(), atol=1e-5)
    assert records["policy"][~found["mask"]].sum() == 0          # nothing on illegal moves
    np.testing.assert_allclose(records["value"].sum(1), 1.0, atol=1e-5)
    assert (records["value"][:, 2:] == 0).all()                  # two seats only


def test_the_student_learns_to_agree_with_the_teacher_and_says_where_it_came_from(tmp_path):
    teacher = _teacher(tmp_path)
    lines = []
    weights, config, meta = distill.distil(teacher, 32, 1, games=30, every=1, epochs=3,
                                           say=lines.append)
    assert (config.hidden, config.blocks) == (32, 1)
    agreement = [float(s.rsplit(" ", 1)[1]) for s in lines if s.startswith("epoch")]
    assert len(agreement) == 3 and agreement[-1] > 0.5      # a random student agrees ~0.1
    assert meta["distilled_from"]["width"] == 48 and "rated" not in meta
    out = tmp_path / "student.npz"
    assert distill.main([str(teacher), "--width", "16", "--blocks", "0", "--games", "5",
                         "--epochs", "1", "--out", str(out)]) == 0
    _, config, meta = pvnet.load(out)
    assert config.hidden == 16 and meta["command"].startswith("tradewinds train hansa")
    assert "python -m tradewinds.training.alphazero.distill" in meta["command"]


def test_a_hinted_teacher_gives_a_hinted_student(tmp_path):
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 24, 1, "heuristic")
    teacher = pvnet.save(tmp_path / "hinted.npz", pvnet.random_weights(config, seed=1), config)
    _, student, _ = distill.distil(teacher, 8, 0, games=3, every=2, epochs=1, say=str)
    assert student.hint == "heuristic"


def test_a_missing_teacher_is_a_one_line_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        distill.main([str(tmp_path / "none.npz"), "--out", str(tmp_path / "x.npz")])
    assert e.value.code == 2 and "no file at" in capsys.readouterr().err


def test_a_net_file_ships_rated_by_a_strength_report_and_only_so(tmp_path, capsys):
    import json

    from tradewinds.training.alphazero import ship

    net = _teacher(tmp_path)
    rows = [{"agent": f"{kind}:{net}", "opponent": "heuristic", "players": 2, "games": 400,
             "win_rate": rate, "wilson95": [rate - 0.05, rate + 0.05]}
            for kind, rate in (("az", 0.8), ("net", 0.4))]
    report = tmp_path / "strength.json"
    report.write_text(json.dumps({"rows": rows}))
    dest = tmp_path / "shipped.npz"
    assert ship.main([str(net), "--strength", str(report), "--dest", str(dest)]) == 0
    _, _, meta = pvnet.load(dest)
    assert meta["rated"]["games"] == 400 and meta["rated"]["az_vs_heuristic"] == 0.8
    assert meta["rated"]["net_low"] == 0.35 and meta["shipped_from"] == str(net)
    assert meta["rated"]["simulations"] == 200                  # the search's default
    weights, config, _ = pvnet.load(net)                        # az rated at its own 400
    pvnet.save(net, weights, config, {"search": {"simulations": 400}})
    assert ship.main([str(net), "--strength", str(report), "--dest", str(dest)]) == 0
    assert pvnet.load(dest)[2]["rated"]["simulations"] == 400
    for argv, says in (([str(net)], "ships rated by --strength"),
                       ([str(tmp_path)], "say which net with --iteration")):
        with pytest.raises(SystemExit) as e:
            ship.main(argv)
        assert e.value.code == 2 and says in capsys.readouterr().err
    report.write_text(json.dumps({"rows": rows[:1]}))
    with pytest.raises(ValueError, match="has no az and net rows"):
        ship.ship_file(net, report, dest)
