"""The AlphaZero loop end to end on a tiny configuration: warm start, self-play, learning,
ratings, checkpoints, and a resume that continues exactly."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("torch")

from tradewinds import registry  # noqa: E402
from tradewinds.agents import pvnet  # noqa: E402
from tradewinds.training.alphazero import replay, selfplay, ship, warmstart  # noqa: E402
from tradewinds.training.alphazero.loop import AlphaZeroConfig, train  # noqa: E402

TINY = dict(game="hansa", players=2, warm_games=12, warm_epochs=1, positions=60, games=4,
            simulations=8, fast_simulations=3, train_steps=3, learner_batch=32, rate_every=2,
            rate_games=2, rate_simulations=4, rate_mcts_games=1, width=16, blocks=1,
            progress=False)


def test_heuristic_records_are_legal_one_hot_decisions_with_outcomes():
    g = registry.game("voyage")
    rec = warmstart.heuristic_records(g, 3, 4, seed=9)
    n = len(rec["obs"])
    assert n > 50
    picked = rec["policy"].argmax(1)
    assert rec["mask"][np.arange(n), picked].all()             # the heuristic's move is legal
    assert (rec["mask"].sum(1) > 1).all()                      # forced moves are not recorded
    np.testing.assert_allclose(rec["value"].sum(1), 1.0, atol=1e-6)
    assert (rec["value"][:, 3] == 0).all()


def test_heuristic_records_every_kth_decision_of_the_same_games():
    g = registry.game("hansa")
    full = warmstart.heuristic_records(g, 2, 6, seed=4)
    third = warmstart.heuristic_records(g, 2, 6, seed=4, every=3)
    assert abs(len(third["obs"]) - len(full["obs"]) / 3) <= 6
    rows = {r.tobytes() for r in full["obs"]}
    assert all(r.tobytes() in rows for r in third["obs"])      # the same games, thinned
    with pytest.raises(ValueError, match="every must be a positive integer"):
        warmstart.heuristic_records(g, 2, 6, every=0)


def test_heuristic_records_score_share_mixes_in_the_seats_vp_shares():
    """The same games whatever the share; with share 1 a warm record's value is its seats'
    shares of the final VP, the winner's among the largest; half way, the mean of both."""
    g = registry.game("hansa")
    got = {s: warmstart.heuristic_records(g, 3, 3, seed=11, score_share=s)
           for s in (0.0, 0.5, 1.0)}
    np.testing.assert_array_equal(got[0.0]["obs"], got[1.0]["obs"])
    z, v = got[0.0]["value"][:, :3], got[1.0]["value"][:, :3]
    assert not np.isin(v, [0.0, 0.5, 1.0]).all()                # VP shares, not winners
    np.testing.assert_allclose(v.sum(1), 1.0, atol=1e-6)
    winner = np.argmax(z, 1)                                    # ties in VP go by the rules
    np.testing.assert_allclose(v[np.arange(len(v)), winner], v.max(1), atol=1e-6)
    np.testing.assert_allclose(got[0.5]["value"], (got[0.0]["value"] + got[1.0]["value"]) / 2,
                               atol=1e-6)
    assert (got[1.0]["value"][:, 3] == 0).all()                # no fourth seat
    with pytest.raises(ValueError, match="score_share must be in"):
        warmstart.heuristic_records(g, 2, 1, score_share=2.0)


def _hansa_selfplay(**settings):
    """Self-play at Hansa, 2 players, with the same small random net every call."""
    g = registry.game("hansa")
    config = pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 16, 1)
    return selfplay.SelfPlay(g, 2, pvnet.random_weights(config, 1),
                             selfplay.SelfPlayConfig(**settings))


def test_selfplay_records_visit_distributions_on_legal_actions():
    sp = _hansa_selfplay(games=3, simulations=6, fast_simulations=2)
    rec = sp.play(20, seed=1)
    assert len(rec["obs"]) >= 20 and sp.games_finished >= 1
    assert (rec["policy"][~rec["mask"]] == 0).all()
    np.testing.assert_allclose(rec["policy"].sum(1), 1.0, atol=1e-5)
    np.testing.assert_allclose(rec["value"][:, :2].sum(1), 1.0, atol=1e-6)


def test_selfplay_plays_every_game_it_started_to_its_end():
    """Once the target is in sight no game starts, and none is dropped half played: with
    four games side by side and a target of one record, all four finish and each gives
    records (full_share 1: every decision that is not forced is recorded)."""
    sp = _hansa_selfplay(games=4, simulations=4, fast_simulations=2, full_share=1.0)
    rec = sp.play(1, seed=3)
    assert sp.games_finished == 4
    assert len(rec["obs"]) >= 4 * 10          # a Hansa game has far more than 10 decisions


def test_gumbel_selfplay_records_improved_policies_and_plays_the_halving_winner():
    """root="gumbel": the targets are the search's improved policies (all legal actions
    get mass, not only the visited ones); and the CLI takes --root gumbel."""
    sp = _hansa_selfplay(games=3, simulations=6, fast_simulations=2, root="gumbel")
    rec = sp.play(20, seed=1)
    assert len(rec["obs"]) >= 20 and sp.games_finished >= 1
    assert (rec["policy"][~rec["mask"]] == 0).all()
    assert (rec["policy"][rec["mask"]] > 0).all()          # visits would leave zeros
    np.testing.assert_allclose(rec["policy"].sum(1), 1.0, atol=1e-5)
    with pytest.raises(ValueError, match="root must be one of"):
        selfplay.SelfPlayConfig(root="alpha").check()


def test_value_blend_mixes_the_outcome_with_the_root_value_and_nothing_else():
    """The same seeds give the same games whatever the blend: only the value targets
    move, and the half blend is exactly the mean of the outcome and the root value."""
    got = {b: _hansa_selfplay(games=3, simulations=6, fast_simulations=2,
                              value_blend=b).play(20, seed=1) for b in (0.0, 0.5, 1.0)}
    for k in ("obs", "mask", "policy"):
        np.testing.assert_array_equal(got[0.0][k], got[1.0][k])
    z, q = got[0.0]["value"], got[1.0]["value"]
    assert set(np.unique(z[:, :2])) <= {0.0, 0.5, 1.0}          # outcomes
    assert not np.isin(q[:, :2], [0.0, 0.5, 1.0]).all()         # search values
    np.testing.assert_allclose(q[:, :2].sum(1), 1.0, atol=1e-6)
    np.testing.assert_allclose(got[0.5]["value"], (z + q) / 2, atol=1e-6)
    with pytest.raises(ValueError, match="value_blend must be in"):
        selfplay.SelfPlayConfig(value_blend=1.5).check()


def test_score_share_mixes_the_winners_with_the_seats_vp_shares():
    """The same games whatever the share; with share 1 each record's value is its seats'
    shares of the final VP (seen from the record's seat), half way the mean of the two."""
    got = {s: _hansa_selfplay(games=1, simulations=4, fast_simulations=2, full_share=1.0,
                              score_share=s).play(1, seed=4) for s in (0.0, 0.5, 1.0)}
    for k in ("obs", "mask", "policy"):
        np.testing.assert_array_equal(got[0.0][k], got[1.0][k])
    z, v = got[0.0]["value"][:, :2], got[1.0]["value"][:, :2]
    assert set(np.unique(z)) <= {0.0, 0.5, 1.0}
    assert not np.isin(v, [0.0, 0.5, 1.0]).all()                # VP shares, not winners
    np.testing.assert_allclose(v.sum(1), 1.0, atol=1e-6)
    # the winner's VP share is above a half, and the seat that won is the one with it
    np.testing.assert_array_equal(np.argmax(z, 1), np.argmax(v, 1))
    np.testing.assert_allclose(got[0.5]["value"], (got[0.0]["value"] + got[1.0]["value"]) / 2,
                               atol=1e-6)
    with pytest.raises(ValueError, match="score_share must be in"):
        selfplay.SelfPlayConfig(score_share=-0.1).check()


def test_replay_buffer_keeps_the_newest_and_round_trips(tmp_path):
    buf = replay.ReplayBuffer(5, 3, 2)
    rec = selfplay.empty_records(3, 2, 7)
    rec["value"][:, 0] = np.arange(7)
    buf.add(rec)
    assert buf.size == 5 and sorted(buf.data["value"][:, 0]) == [2, 3, 4, 5, 6]
    buf.save(tmp_path / "r.npz")
    back = replay.ReplayBuffer.load(tmp_path / "r.npz", 5, 3, 2)
    assert back.added == 7 and sorted(back.data["value"][:, 0]) == [2, 3, 4, 5, 6]


def test_the_warm_start_alone_is_rated_and_fills_the_buffer(tmp_path):
    g = registry.game("hansa")
    st = train(AlphaZeroConfig(**{**TINY, "replay": 500}, iterations=0, out=str(tmp_path)))
    assert st["iteration"] == 0 and st["warm"]
    buf = replay.ReplayBuffer.load(tmp_path / "replay.npz", 500, g.obs_size, g.num_actions)
    assert buf.size == 500 and (buf.data["policy"].sum(1) == 1).all()    # heuristic moves
    log = (tmp_path / "log.csv").read_text().splitlines()
    assert len(log) == 2 and (tmp_path / "nets" / "net_0000.npz").is_file()
    shipped = ship.ship(tmp_path, 0, dest=tmp_path / "shipped.npz")
    _, config, meta = pvnet.load(shipped)
    assert config.game == "hansa" and meta["rated"]["games"] == TINY["rate_games"]
    assert 0 <= meta["rated"]["az_low"] <= meta["rated"]["az_vs_heuristic"] <= 1
    assert meta["rated"]["az_vs_mcts"] in (0.0, 0.5, 1.0)          # one game against mcts:400
    with pytest.raises(ValueError, match="rated nets of .*net_0000.npz"):
        ship.ship(tmp_path, 3)


def test_train_checkpoints_resumes_exactly_and_the_net_plays(tmp_path):
    from tradewinds import agents

    straight = train(AlphaZeroConfig(**TINY, iterations=3, out=str(tmp_path / "a")))
    train(AlphaZeroConfig(**TINY, iterations=2, out=str(tmp_path / "b")))
    with pytest.raises(FileExistsError, match="--resume"):
        train(AlphaZeroConfig(**TINY, iterations=3, out=str(tmp_path / "b")))
    resumed = train(AlphaZeroConfig(**TINY, iterations=3, out=str(tmp_path / "b"),
                                    resume=True))
    for k in ("iteration", "positions", "games", "next_seed", "gen"):
        assert resumed[k] == straight[k], k
    wa, _, _ = pvnet.load(tmp_path / "a" / "net.npz")
    wb, _, meta = pvnet.load(tmp_path / "b" / "net.npz")
    for x, y in zip(wa, wb, strict=True):
        np.testing.assert_allclose(x, y, atol=1e-5)
    assert meta["iteration"] == 3 and "--algo alphazero" in meta["command"]
    log = (tmp_path / "b" / "log.csv").read_text().splitlines()
    assert len(log) == 1 + 1 + 3 and (tmp_path / "b" / "curve.png").stat().st_size > 0
    first = dict(zip(log[0].split(","), log[1].split(","), strict=True))
    assert first["iteration"] == "0" and first["net_vs_heuristic"] != ""   # the warm start
    kept = sorted(p.name for p in (tmp_path / "b" / "nets").iterdir())
    assert kept == ["net_0000.npz", "net_0002.npz", "net_0003.npz"]        # every rated net
    assert json.loads((tmp_path / "b" / "config.json").read_text())["players"] == 2
    with pytest.raises(ValueError, match="width"):
        train(AlphaZeroConfig(**{**TINY, "width": 8}, iterations=4,
                              out=str(tmp_path / "b"), resume=True))
    agent = agents.make_agent(f"az:{tmp_path / 'b' / 'net.npz'}", game="hansa", simulations=6)
    g = registry.game("hansa")
    s = g.new_state(2, 3)
    mask = g.legal_mask(s)
    assert mask[agent.act(g.observe(s, 0), mask, np.random.default_rng(0), state=s)]


def test_a_hinted_run_records_the_hint_in_warm_start_and_self_play(tmp_path):
    """--hint heuristic: the buffer's inputs end in the heuristic's choice, one-hot (the
    warm start's equal their label); self-play and the resume keep the net's width."""
    g = registry.game("hansa")
    hinted = {**TINY, "hint": "heuristic", "replay": 400}
    train(AlphaZeroConfig(**hinted, iterations=1, out=str(tmp_path)))
    buf = replay.ReplayBuffer.load(tmp_path / "replay.npz", 400, g.obs_size + g.num_actions,
                                   g.num_actions)
    tail = buf.data["obs"][:buf.size, g.obs_size:].astype(np.float32)
    assert (tail.sum(1) == 1).all()
    assert buf.data["mask"][:buf.size][np.arange(buf.size), tail.argmax(1)].all()  # legal
    _, config, _ = pvnet.load(tmp_path / "net.npz")
    assert config.hint == "heuristic"
    with pytest.raises(ValueError, match="hint is '' here but 'heuristic'"):
        train(AlphaZeroConfig(**{**hinted, "hint": ""}, iterations=2, out=str(tmp_path),
                              resume=True))
    train(AlphaZeroConfig(**hinted, iterations=2, out=str(tmp_path), resume=True))


def test_a_resumed_learner_keeps_its_moments_but_takes_the_new_learning_rate():
    from tradewinds.training.alphazero.learner import Learner

    cfg = pvnet.NetConfig("hansa", 2, 6, 4, 8, 1)
    first = Learner(cfg, lr=1e-3, device="cpu")
    gen = np.random.default_rng(0)
    batch = {"obs": gen.random((16, 6), dtype=np.float32), "mask": np.ones((16, 4), bool),
             "policy": np.full((16, 4), 0.25, np.float32),
             "value": np.zeros((16, pvnet.MAX_SEATS), np.float32)}
    batch["value"][:, :2] = 0.5
    first.step(batch)
    second = Learner(cfg, lr=3e-4, device="cpu")
    second.load_state_dict(first.state_dict())
    assert [g["lr"] for g in second.opt.param_groups] == [3e-4]
    moments = first.opt.state_dict()["state"][0]["exp_avg"]
    assert np.allclose(second.opt.state_dict()["state"][0]["exp_avg"], moments)
    assert second.steps == 1


def test_cli_trains_alphazero(tmp_path, capsys):
    from tradewinds.cli.main import main

    out = tmp_path / "run"
    argv = ["train", "hansa", "--algo", "alphazero", "--iterations", "1", "--out", str(out),
            "--warm-games", "4", "--warm-epochs", "1", "--positions", "20", "--games", "2",
            "--simulations", "4", "--fast-simulations", "2", "--train-steps", "1",
            "--learner-batch", "16", "--rate-games", "2", "--rate-simulations", "2",
            "--rate-mcts-games", "1", "--width", "8", "--blocks", "0", "--no-progress"]
    assert main(argv) == 0
    assert f"az:{out}/net.npz" in capsys.readouterr().out
    assert main(argv + ["--root", "gumbel", "--resume", "--iterations", "2"]) == 0
    assert main(["train", "hansa", "--algo", "muzero"]) == 2


def test_a_run_trained_in_stages_records_and_ships_every_command(tmp_path):
    out = str(tmp_path / "r")
    train(AlphaZeroConfig(**TINY, iterations=0, out=out))
    train(AlphaZeroConfig(**TINY, iterations=2, lr=5e-4, out=out, resume=True))
    train(AlphaZeroConfig(**TINY, iterations=2, lr=5e-4, out=out, resume=True))  # no change
    state = json.loads((tmp_path / "r" / "state.json").read_text())
    assert [e["from_iteration"] for e in state["commands"]] == [0, 0]
    first, second = (e["command"] for e in state["commands"])
    assert "--resume" not in first and "--iterations 0" in first
    assert "--resume" in second and "--lr 0.0005" in second and "--iterations 2" in second
    assert json.loads((tmp_path / "r" / "config.json").read_text())["lr"] == 5e-4
    _, _, meta = pvnet.load(ship.ship(tmp_path / "r", 2, tmp_path / "shipped.npz"))
    assert meta["command"] == f"{first} && {second}"
    _, _, meta = pvnet.load(ship.ship(tmp_path / "r", 0, tmp_path / "shipped0.npz"))
    assert meta["command"] == first


def test_a_run_starts_from_a_given_net_and_buffer_instead_of_a_warm_start(tmp_path):
    """--init NET --init-replay FILE: iteration 0 is that net (rated, kept in nets/), the
    buffer holds that file's records, and no heuristic game is fitted."""
    train(AlphaZeroConfig(**TINY, iterations=1, out=str(tmp_path / "a")))
    source = tmp_path / "a" / "net.npz"
    out = tmp_path / "b"
    st = train(AlphaZeroConfig(**TINY, iterations=1, out=str(out), init=str(source),
                               init_replay=str(tmp_path / "a" / "replay.npz")))
    assert st["iteration"] == 1 and st["warm"]
    first, _, _ = pvnet.load(out / "nets" / "net_0000.npz")
    given, _, _ = pvnet.load(source)
    assert all(np.array_equal(x, y) for x, y in zip(first, given, strict=True))
    g = registry.game("hansa")
    a = replay.ReplayBuffer.load(tmp_path / "a" / "replay.npz", 10**6, g.obs_size, g.num_actions)
    b = replay.ReplayBuffer.load(out / "replay.npz", 10**6, g.obs_size, g.num_actions)
    assert b.added == a.size + st["positions"]          # the given records, then self-play
    assert "--init" in json.loads((out / "state.json").read_text())["commands"][0]["command"]
    _, _, before = pvnet.load(source)
    _, _, meta = pvnet.load(ship.ship(out, 1, tmp_path / "shipped.npz"))
    assert meta["command"].startswith(before["command"] + " && ")     # the chain, in turn
    assert meta["command"].endswith(f"--out {out}")
    with pytest.raises(ValueError, match="pass --width 16 --blocks 1"):
        train(AlphaZeroConfig(**{**TINY, "width": 32}, iterations=0, out=str(tmp_path / "c"),
                              init=str(source)))
    with pytest.raises(ValueError, match="--init-replay fills the buffer"):
        AlphaZeroConfig(**TINY, init_replay="x.npz")


def test_a_log_from_before_a_new_column_is_rewritten_with_it(tmp_path):
    """A run resumed by a newer version (here: the mcts:400 rating columns) keeps its old
    rows, blank in the new columns, under one header."""
    from tradewinds.training import checkpoints as ck
    from tradewinds.training.alphazero.loop import LOG_COLUMNS

    path = tmp_path / "log.csv"
    old = LOG_COLUMNS[:-3]
    ck.append_row(path, old, {"iteration": 0, "net_vs_heuristic": 0.4})
    ck.append_row(path, LOG_COLUMNS, {"iteration": 1, "az_vs_mcts": 0.6})
    rows = ck.read_rows(path)
    assert list(rows[0]) == LOG_COLUMNS and len(rows) == 2
    assert (rows[0]["net_vs_heuristic"], rows[0]["az_vs_mcts"]) == ("0.4", "")
    assert (rows[1]["iteration"], rows[1]["az_vs_mcts"]) == ("1", "0.6")


def test_init_fill_starts_the_buffer_with_heuristic_decisions_unfitted(tmp_path):
    """--init NET --init-fill N: the buffer starts with N heuristic games' decisions (the
    warm start's records, one in --warm-every), and the net is the given one, not fitted."""
    from tradewinds.training.alphazero.warmstart import heuristic_records

    train(AlphaZeroConfig(**TINY, iterations=0, out=str(tmp_path / "a")))
    source = str(tmp_path / "a" / "net.npz")
    out = tmp_path / "b"
    train(AlphaZeroConfig(**TINY, iterations=0, out=str(out), init=source, init_fill=3))
    first, _, _ = pvnet.load(out / "nets" / "net_0000.npz")
    given, _, _ = pvnet.load(source)
    assert all(np.array_equal(x, y) for x, y in zip(first, given, strict=True))
    g = registry.game("hansa")
    b = replay.ReplayBuffer.load(out / "replay.npz", 10**6, g.obs_size, g.num_actions)
    want = heuristic_records(g, 2, 3, seed=2**41, every=1)
    assert b.size == len(want["obs"]) > 0
    assert np.array_equal(b.data["policy"][:b.size], want["policy"])
    with pytest.raises(ValueError, match="--init-fill fills the buffer"):
        AlphaZeroConfig(**TINY, init_fill=2)


def test_each_rated_generation_plays_its_predecessor(tmp_path):
    """--rate-prev-games: every rating after the first names the previous rated iteration
    and az's share against it; the first (nothing before it) leaves the columns blank."""
    from tradewinds.training import checkpoints as ck

    out = tmp_path / "r"
    train(AlphaZeroConfig(**{**TINY, "players": 3, "rate_mcts_games": 0}, iterations=4,
                          out=str(out), rate_prev_games=3))
    rows = ck.read_rows(out / "log.csv")
    rated = [r for r in rows if r["az_vs_heuristic"] != ""]
    assert [r["iteration"] for r in rated] == ["0", "2", "4"]
    assert rated[0]["az_vs_prev"] == ""
    assert [r["prev_iteration"] for r in rated[1:]] == ["0", "2"]
    for r in rated[1:]:
        assert 0.0 <= float(r["az_prev_low"]) <= float(r["az_vs_prev"]) <= float(r["az_prev_high"])


def test_a_gated_run_goes_back_to_the_predecessor_when_its_new_net_loses(tmp_path,
                                                                        monkeypatch):
    """--gate: a rated net whose az did not beat its predecessor's is kept aside as
    rejected_<iteration>.npz, the learner takes the predecessor's weights again (the
    checkpoint too), and the next rating plays the predecessor, not the rejected net."""
    from tradewinds.training import checkpoints as ck
    from tradewinds.training.alphazero import loop

    rate = loop.Run.rate
    shares = iter([0.0, 0.9])                 # iteration 2 loses, iteration 4 wins

    def rigged(self):
        found = rate(self)
        if "az_vs_prev" in found:
            found["az_vs_prev"] = next(shares)
        return found

    monkeypatch.setattr(loop.Run, "rate", rigged)
    out = tmp_path / "g"
    config = AlphaZeroConfig(**{**TINY, "players": 3, "rate_mcts_games": 0}, iterations=4,
                             out=str(out), rate_prev_games=3, gate=True)
    kept = {}
    real_reject = loop.reject

    def watch(run, iteration, back_to):            # copies: weights() shares the tensors
        real_reject(run, iteration, back_to)
        kept["after"] = [np.array(w, copy=True) for w in run.learner.weights()]
        kept["checkpoint"] = pvnet.load(run.out / "net.npz")[0]

    monkeypatch.setattr(loop, "reject", watch)
    st = train(config)
    assert st["rejected"] == [2]
    names = sorted(f.name for f in (out / "nets").iterdir())
    assert names == ["net_0000.npz", "net_0004.npz", "rejected_0002.npz"]
    first, _, _ = pvnet.load(out / "nets" / "net_0000.npz")
    lost, _, _ = pvnet.load(out / "nets" / "rejected_0002.npz")
    assert all(np.array_equal(a, b) for a, b in zip(kept["after"], first, strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(kept["checkpoint"], first, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(lost, first, strict=True))
    rows = [r for r in ck.read_rows(out / "log.csv") if r["az_vs_heuristic"] != ""]
    assert [r["prev_iteration"] for r in rows[1:]] == ["0", "0"]   # 4 played 0, not 2
    with pytest.raises(ValueError, match="--rate-prev-games"):
        AlphaZeroConfig(**TINY, out=str(tmp_path / "x"), gate=True)
    command = loop.command_line(config)
    assert " --gate " in command and "--gate True" not in command   # a switch, no value


def test_core_hours_count_this_process_cpu_time_not_the_wall_clock(tmp_path, monkeypatch):
    """On a busy machine the wall clock overstates a run's cost: a run in one process
    counts its own CPU time (here a fake CPU clock that advances 1 s per reading)."""
    from tradewinds.training.alphazero import loop

    ticks = iter(range(10**6))
    monkeypatch.setattr(loop.time, "process_time", lambda: float(next(ticks)))
    st = train(AlphaZeroConfig(**{**TINY, "rate_mcts_games": 0}, iterations=1,
                               out=str(tmp_path / "r")))
    assert st["core_seconds"] == 3.0     # warm start 1, self-play 1, learning 1
    assert st["seconds"] > 0


def test_each_iteration_logs_its_losses_on_the_games_it_has_not_learned(tmp_path, monkeypatch):
    """Before learning from an iteration's records, the net is scored on them: the log's
    fresh losses are those of `Learner.evaluate` on exactly the records then added."""
    from tradewinds.training import checkpoints as ck
    from tradewinds.training.alphazero import learner as learner_module

    seen = []
    evaluate = learner_module.Learner.evaluate

    def spy(self, records):
        out = evaluate(self, records)
        seen.append((len(records["obs"]), out["value_loss"]))
        return out

    monkeypatch.setattr(learner_module.Learner, "evaluate", spy)
    st = train(AlphaZeroConfig(**{**TINY, "rate_mcts_games": 0}, iterations=2,
                               out=str(tmp_path / "r")))
    rows = [r for r in ck.read_rows(tmp_path / "r" / "log.csv") if int(r["iteration"]) > 0]
    fresh = seen[-2:]                        # the warm start's check comes first
    assert [n for n, _ in fresh] and sum(n for n, _ in fresh) == st["positions"]
    for r, (_, loss) in zip(rows, fresh, strict=True):
        assert float(r["fresh_value_loss"]) == pytest.approx(loss, rel=1e-6)
        assert float(r["fresh_policy_loss"]) > 0


def test_the_value_weight_reaches_the_learner_and_must_be_positive(tmp_path):
    from tradewinds.training.alphazero import loop

    run = loop.Run(AlphaZeroConfig(**TINY, value_weight=0.25, iterations=0, out=str(tmp_path)))
    assert run.learner.value_weight == 0.25
    with pytest.raises(ValueError, match="value_weight must be positive"):
        AlphaZeroConfig(**TINY, value_weight=0.0)


def test_a_run_stopped_while_rating_rates_that_checkpoint_on_resume(tmp_path, monkeypatch):
    """A kill during iteration 2's rating (after its checkpoint): the resumed run rates
    iteration 2 first, so its row, its kept net and, with --gate, its judgement are not
    lost, and the run ends as one never stopped."""
    from tradewinds.training import checkpoints as ck
    from tradewinds.training.alphazero import loop

    config = dict(**{**TINY, "rate_mcts_games": 0}, iterations=3, rate_prev_games=2,
                  gate=True)
    straight = train(AlphaZeroConfig(**config, out=str(tmp_path / "a")))
    rate = loop.Run.rate

    def killed_at_2(self):
        if self.state["iteration"] == 2:
            raise KeyboardInterrupt
        return rate(self)

    monkeypatch.setattr(loop.Run, "rate", killed_at_2)
    with pytest.raises(KeyboardInterrupt):
        train(AlphaZeroConfig(**config, out=str(tmp_path / "b")))
    monkeypatch.setattr(loop.Run, "rate", rate)
    state = ck.read_json(tmp_path / "b" / "state.json")
    assert state["unlogged"]["iteration"] == 2
    old = tmp_path / "old"                    # a state from before the row was kept there
    shutil.copytree(tmp_path / "b", old)
    ck.write_json(old / "state.json", {k: v for k, v in state.items() if k != "unlogged"})
    resumed = train(AlphaZeroConfig(**config, out=str(tmp_path / "b"), resume=True))
    assert "unlogged" not in resumed
    for k in ("iteration", "positions", "games", "next_seed", "gen", "rejected"):
        assert resumed.get(k) == straight.get(k), k
    rows = {run: [(r["iteration"], r["az_vs_prev"]) for r in ck.read_rows(tmp_path / run
                                                                         / "log.csv")]
            for run in ("a", "b")}
    assert rows["b"] == rows["a"] and ("2", "") not in rows["b"]
    assert sorted(p.name for p in (tmp_path / "b" / "nets").iterdir()) == sorted(
        p.name for p in (tmp_path / "a" / "nets").iterdir())
    healed = train(AlphaZeroConfig(**config, out=str(old), resume=True))
    assert healed["gen"] == straight["gen"]
    row = [r for r in ck.read_rows(old / "log.csv") if r["iteration"] == "2"]
    assert row[0]["az_vs_prev"] == dict(rows["a"])["2"] and row[0]["policy_loss"] == ""
