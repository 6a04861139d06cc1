"""training/alphazero/search_teacher.py: a net taught by the rollout search's visit counts."""

import numpy as np
import pytest

from tradewinds import registry
from tradewinds.agents import pvnet
from tradewinds.training.alphazero import search_teacher, warmstart


def test_kept_states_are_the_recorded_positions():
    g = registry.game("voyage")
    plain = warmstart.heuristic_records(g, 2, 3, seed=11, every=7)
    kept = warmstart.heuristic_records(g, 2, 3, seed=11, every=7, keep_states=True)
    for k in plain:
        np.testing.assert_array_equal(plain[k], kept[k])     # the same games and records
    for i in range(0, len(kept["obs"]), 5):
        s = kept["state"][i]
        player = g.current_player(s)
        np.testing.assert_array_equal(g.observe(s, player).astype(np.float16), kept["obs"][i])
        np.testing.assert_array_equal(g.legal_mask(s) != 0, kept["mask"][i])
    assert set(np.unique(kept["game"])) <= {11, 12, 13}


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_labels_are_the_searchs_visit_shares_on_legal_actions(game):
    found = search_teacher.label_chunk(game, 2, 3, 2, 25, 12)
    assert len(found["obs"]) > 5
    np.testing.assert_allclose(found["policy"].sum(1), 1.0, atol=1e-6)
    assert found["policy"][~found["mask"]].sum() == 0          # nothing on illegal moves
    # 12 simulations: every share is a whole number of visits out of 12
    np.testing.assert_allclose(found["policy"] * 12, np.round(found["policy"] * 12), atol=1e-4)
    assert ((found["q"] >= 0) & (found["q"] <= 1)).all()
    np.testing.assert_allclose(found["outcome"].sum(1), 1.0, atol=1e-6)
    again = search_teacher.label_chunk(game, 2, 3, 2, 25, 12)
    for k in found:
        np.testing.assert_array_equal(found[k], again[k])     # its seeds decide it


def test_more_simulations_spread_the_labels_beyond_the_heuristics_action():
    """One simulation goes to the heuristic's action (PUCT's prior), a one-hot label; a
    real search spreads its visits, and its soft labels say how good the others are."""
    few = search_teacher.label_chunk("hansa", 2, 40, 2, 10, 1)
    many = search_teacher.label_chunk("hansa", 2, 40, 2, 10, 200)
    assert (few["policy"].max(1) == 1).all()
    assert (many["policy"].max(1) < 0.9).mean() > 0.5
    assert (few["policy"].argmax(1) == many["policy"].argmax(1)).mean() > 0.5


def test_labelling_resumes_by_chunk_and_blends_values(tmp_path):
    lines = []
    files = search_teacher.label("hansa", 2, 5, 30, 6, tmp_path, chunk=2, seed=100,
                                 say=lines.append)
    assert [f.name for f in files] == ["chunk_00000100.npz", "chunk_00000102.npz",
                                       "chunk_00000104.npz"]
    stamps = [f.stat().st_mtime_ns for f in files]
    files[1].unlink()
    search_teacher.label("hansa", 2, 5, 30, 6, tmp_path, chunk=2, seed=100, say=lines.append)
    assert lines[-2].startswith("2 of 3 chunks labelled; labelling 1")
    assert [files[0].stat().st_mtime_ns, files[2].stat().st_mtime_ns] == [stamps[0], stamps[2]]
    plain = search_teacher.load(files, 2, 0.0)
    half = search_teacher.load(files, 2, 0.5)
    with np.load(files[0]) as first:
        n, q, outcome = len(first["q"]), first["q"], first["outcome"]
    np.testing.assert_allclose(plain["value"][:n], outcome)
    np.testing.assert_allclose(half["value"][:n, 0], 0.5 * outcome[:, 0] + 0.5 * q, atol=1e-6)
    np.testing.assert_allclose(half["value"][:n, 1], 0.5 * outcome[:, 1] + 0.5 * (1 - q),
                               atol=1e-6)
    with pytest.raises(ValueError, match="2 players only"):
        search_teacher.load(files, 3, 0.5)


def test_the_fitted_net_agrees_more_with_the_search_and_says_where_it_came_from(tmp_path):
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 32, 1)
    init = pvnet.save(tmp_path / "init.npz", pvnet.random_weights(config, seed=1), config,
                      {"command": "tradewinds train hansa --algo alphazero"})
    out = tmp_path / "taught.npz"
    argv = ["hansa", "--games", "6", "--chunk", "3", "--every", "4", "--simulations", "8",
            "--labels", str(tmp_path / "labels"), "--init", str(init), "--epochs", "6",
            "--lr", "0.003", "--out", str(out)]
    assert search_teacher.main(argv) == 0
    _, found, meta = pvnet.load(out)
    assert (found.hidden, found.blocks) == (32, 1)
    assert meta["teacher"] == "mcts:8" and meta["init"]["file"] == str(init)
    assert meta["command"].startswith("tradewinds train hansa --algo alphazero && ")
    assert "python -m tradewinds.training.alphazero.search_teacher hansa" in meta["command"]
    assert meta["search_teacher"]["held_out"]["agreement"] > 0.3   # random: about 0.1


@pytest.mark.parametrize("argv, says", [
    (["--value-blend", "2"], "--value-blend must be in [0, 1]"),
    (["--init", "nowhere.npz"], "no net file at nowhere.npz"),
    ([], "--out is needed"),
    (["--players", "5"], "players"),
])
def test_bad_arguments_are_one_line_errors(tmp_path, capsys, argv, says):
    with pytest.raises(SystemExit) as e:
        search_teacher.main(["hansa", "--labels", str(tmp_path)] + argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and says in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())                         # nothing labelled


def test_a_net_that_reads_the_hint_is_refused_before_labelling(tmp_path, capsys):
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 8, 0, "heuristic")
    init = pvnet.save(tmp_path / "hinted.npz", pvnet.random_weights(config), config)
    labels = tmp_path / "labels"
    with pytest.raises(SystemExit):
        search_teacher.main(["hansa", "--labels", str(labels), "--init", str(init),
                             "--out", str(tmp_path / "out.npz")])
    assert "reads the heuristic's choice" in capsys.readouterr().err
    assert not labels.exists()
