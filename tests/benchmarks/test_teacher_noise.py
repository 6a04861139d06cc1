"""benchmarks/teacher_noise.py: the search teacher's labels, searched twice."""

import pytest

from benchmarks import teacher_noise


def test_the_kept_positions_are_the_heuristics_non_skipped_choices():
    from tradewinds import registry
    from training.alphazero.warmstart import heuristic_records

    game = registry.game("voyage")
    found = teacher_noise.repeatability("voyage", 2, 1, 3, every=20, seed=70)
    records = heuristic_records(game, 2, 1, seed=70, every=20)
    kept = sum(not game.action_name(int(a)).startswith("move")
               for a in records["policy"].argmax(1))
    assert found["positions"] == kept > 0
    assert found["departures"] == round(found["departs_first"] * kept)
    assert 0.0 <= found["agreement"] <= 1.0
    assert found["repeated"] + found["back_to_heuristic"] <= 1.0


def test_with_a_net_the_positions_come_from_its_own_games():
    from agents import pvnet
    from tradewinds import registry
    from training.alphazero.warmstart import heuristic_records

    game, net = registry.game("voyage"), "agents/nets/voyage_2p.npz"
    found = teacher_noise.repeatability("voyage", 2, 2, 2, every=20, seed=71, net=net)
    weights, config, _ = pvnet.load(net)
    records = heuristic_records(game, 2, 2, seed=71, every=20, net=weights, beta=0.0,
                                hint=bool(config.hint))
    plain = heuristic_records(game, 2, 2, seed=71, every=20)

    def kept(r):
        return sum(not game.action_name(int(a)).startswith("move")
                   for a in r["policy"].argmax(1))

    assert found["positions"] == kept(records) != kept(plain)


def test_nothing_to_search_is_refused_in_one_line(capsys):
    from tradewinds import registry

    game = registry.game("voyage")
    families = sorted({game.action_name(a).split(":")[0] for a in range(game.num_actions)})
    with pytest.raises(SystemExit) as e:
        teacher_noise.main(["voyage", "--games", "1", "--skip", *families])
    assert e.value.code == 2
    assert "no position to search" in capsys.readouterr().err


def test_an_unknown_net_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        teacher_noise.main(["voyage", "--net", "no/such.npz"])
    assert e.value.code == 2
    assert "no net file at no/such.npz" in capsys.readouterr().err
