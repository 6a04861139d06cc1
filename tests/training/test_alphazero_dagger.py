"""training/alphazero/dagger.py and the net-played games of warmstart.heuristic_records."""

import numpy as np
import pytest

from tradewinds import registry
from tradewinds.agents import pvnet
from tradewinds.agents.heuristic import HeuristicAgent
from tradewinds.training import checkpoints as ck
from tradewinds.training.alphazero import dagger, warmstart


def biased_net(game, num_players, action, width=4):
    """A net whose logits are 0 but for `action`'s (large): its arg-max is `action` when
    legal, else the lowest legal id."""
    config = pvnet.NetConfig(game.name, num_players, game.obs_size, game.num_actions,
                             width, 0)
    w = pvnet.random_weights(config, scale=0.0)
    w.b_pi[action] = 50.0
    return w


def test_heuristic_games_do_not_change_when_a_net_is_given_with_beta_one():
    g = registry.game("voyage")
    plain = warmstart.heuristic_records(g, 2, 3, seed=4, every=5)
    net = warmstart.heuristic_records(g, 2, 3, seed=4, every=5,
                                      net=biased_net(g, 2, 10), beta=1.0)
    for k in plain:
        np.testing.assert_array_equal(plain[k], net[k])


def test_the_net_plays_and_the_heuristic_labels_the_positions_it_reaches():
    g = registry.game("voyage")
    net, config, _ = pvnet.load("agents/nets/voyage_2p.npz")     # shipped: may be hinted
    hint = bool(config.hint)
    heur = warmstart.heuristic_records(g, 2, 3, seed=4, every=3, keep_states=True, hint=hint)
    mixed = warmstart.heuristic_records(g, 2, 3, seed=4, every=3, keep_states=True,
                                        net=net, beta=0.0, hint=hint)
    # other games: the net's choices took them elsewhere ...
    assert len(heur["obs"]) != len(mixed["obs"]) or (heur["state"] != mixed["state"]).any()
    # ... and the labels are the heuristic's choices there, legal, one-hot: one of the
    # choices it makes on the seat's determinizations (the recorder draws its own; a bid
    # can depend on the hidden cards), and that one where every draw agrees
    agent = HeuristicAgent("voyage")
    for i in range(0, len(mixed["obs"]), 7):
        s = mixed["state"][i]
        mask = g.legal_mask(s)
        label = int(mixed["policy"][i].argmax())
        assert mixed["policy"][i].sum() == 1 and mask[label]
        ob = g.observe(s, g.current_player(s))
        choices = {agent.act(ob, mask, np.random.default_rng(k), state=s.copy())
                   for k in range(16)}
        assert label in choices, (i, label, choices)


def test_net_action_is_the_arg_max_over_legal_actions():
    g = registry.game("hansa")
    s = g.new_state(2, seed=1)
    mask = g.legal_mask(s)
    legal = np.flatnonzero(mask)
    ob = np.zeros((1, g.obs_size), np.float32)
    logits = np.zeros((1, g.num_actions), np.float32)
    value = np.zeros((1, pvnet.MAX_SEATS), np.float32)
    p = g.current_player(s)
    for want in (legal[-1], legal[0]):
        w = biased_net(g, 2, int(want))
        assert warmstart._net_action(g.aux, w, s, p, mask, -1, ob, logits, value) == want
    illegal = int(np.flatnonzero(mask == 0)[0])
    w = biased_net(g, 2, illegal)          # its favourite is illegal: the first legal id
    assert warmstart._net_action(g.aux, w, s, p, mask, -1, ob, logits, value) == legal[0]


def test_beta_must_be_a_probability_and_needs_a_net_below_one():
    g = registry.game("hansa")
    with pytest.raises(ValueError, match="beta must be in"):
        warmstart.heuristic_records(g, 2, 1, beta=1.5)
    with pytest.raises(ValueError, match="needs a net"):
        warmstart.heuristic_records(g, 2, 1, beta=0.5)


def tiny_net(tmp_path, game="hansa"):
    g = registry.game(game)
    config = pvnet.NetConfig(game, 2, g.obs_size, g.num_actions, 16, 1)
    return pvnet.save(tmp_path / "init.npz", pvnet.random_weights(config, seed=3), config,
                      {"command": "made by the test"})


ARGS = ["--games", "6", "--every", "3", "--warm-games", "8", "--warm-every", "3",
        "--held-games", "2", "--rate-games", "4", "--batch", "32", "--device", "cpu"]


def test_rounds_write_nets_and_a_log_and_resume_to_the_same_run(tmp_path):
    init = tiny_net(tmp_path)
    straight, staged = tmp_path / "straight", tmp_path / "staged"
    assert dagger.main([str(init), "--rounds", "2", *ARGS, "--out", str(straight)]) == 0
    assert dagger.main([str(init), "--rounds", "1", *ARGS, "--out", str(staged)]) == 0
    assert dagger.main([str(init), "--rounds", "2", *ARGS, "--out", str(staged),
                        "--resume"]) == 0
    rows = ck.read_rows(straight / "log.csv")
    assert [int(r["round"]) for r in rows] == [0, 1, 2]
    assert [float(r["beta"]) for r in rows[1:]] == [0.5, 0.25]
    for a, b in zip(rows, ck.read_rows(staged / "log.csv"), strict=True):
        assert {k: v for k, v in a.items() if k != "core_hours"} == {
            k: v for k, v in b.items() if k != "core_hours"}
    w1, _, _ = pvnet.load(straight / "round_2.npz")
    w2, config, meta = pvnet.load(staged / "round_2.npz")
    for x, y in zip(w1, w2, strict=True):
        # the same net, byte for byte: a resumed round repeats the straight run's arithmetic
        # (the same records, one torch thread) on this machine
        np.testing.assert_array_equal(x, y)
    assert meta["command"].startswith(
        "made by the test && python -m tradewinds.training.alphazero.dagger")
    assert meta["dagger"]["round"] == 2
    # the written net plays: `net:<path>` takes only legal moves in a whole game
    from tradewinds import agents
    g = registry.game("hansa")
    bot = agents.make_agent(f"net:{staged / 'round_2.npz'}", game="hansa")
    s = g.new_state(2, seed=0)
    rng = np.random.default_rng(0)
    while not g.is_terminal(s):
        mask = g.legal_mask(s)
        a = bot.act(g.observe(s, g.current_player(s)), mask, rng)
        assert mask[a]
        g.step(s, a)


def test_hint_widens_the_net_to_read_the_heuristics_choice(tmp_path):
    init = tiny_net(tmp_path, "voyage")
    out = tmp_path / "hinted"
    assert dagger.main([str(init), "--rounds", "1", "--hint", "heuristic", *ARGS,
                        "--out", str(out)]) == 0
    _, config, _ = pvnet.load(out / "round_1.npz")
    g = registry.game("voyage")
    assert config.hint == "heuristic" and config.input_size == g.obs_size + g.num_actions
    assert dagger.main([str(out / "round_1.npz"), "--rounds", "1", "--hint", "heuristic",
                        *ARGS, "--out", str(tmp_path / "again")]) == 0   # already hinted


def test_bad_input_is_refused_in_one_line(tmp_path, capsys):
    init = tiny_net(tmp_path)
    out = tmp_path / "run"

    def refused(argv, words):
        with pytest.raises(SystemExit) as e:
            dagger.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err

    refused([str(tmp_path / "none.npz"), "--out", str(out)], "no net file at")
    refused([str(init), "--beta", "2", "--out", str(out)], "--beta must be in [0, 1]")
    assert dagger.main([str(init), "--rounds", "1", *ARGS, "--out", str(out)]) == 0
    refused([str(init), "--rounds", "1", *ARGS, "--out", str(out)], "holds a run")
    changed = [a if a != "6" else "7" for a in ARGS]
    refused([str(init), "--rounds", "2", *changed, "--out", str(out), "--resume"],
            "--resume: games is 7 here but 6")


def test_search_labels_replace_the_heuristics_off_the_skipped_families(tmp_path):
    """With --search, a position whose heuristic label is not a move step is labelled by
    the search's most visited action (one-hot, legal); move steps keep the heuristic's."""
    from tradewinds.training.alphazero import search_teacher

    init = tiny_net(tmp_path, "voyage")
    g = registry.game("voyage")
    args = dagger.parser().parse_args([str(init), "--games", "2", "--every", "4",
                                       "--search", "30", "--out", str(tmp_path / "run")])
    args.argv = []
    run = dagger.Run(args)
    found = warmstart.heuristic_records(g, 2, 2, seed=5, every=4, keep_states=True,
                                        net=run.learner.weights(), beta=0.5)
    labelled, searched = run.searched(found, np.random.default_rng(1))
    heuristic = found["policy"].argmax(1)
    is_move = np.array([g.action_name(int(a)).startswith("move:") for a in heuristic])
    assert len(searched) == (~is_move).sum() > 0
    np.testing.assert_array_equal(searched, np.flatnonzero(~is_move))
    np.testing.assert_array_equal(labelled["policy"][is_move], found["policy"][is_move])
    assert (labelled["policy"].sum(1) == 1).all()
    assert labelled["mask"][np.arange(len(heuristic)), labelled["policy"].argmax(1)].all()
    off = np.flatnonzero(~is_move)
    shares, _ = search_teacher.search_labels(g, found["state"][off], found["mask"][off], 30,
                                             np.random.default_rng(1))
    np.testing.assert_array_equal(labelled["policy"][off].argmax(1), shares.argmax(1))
    assert set(labelled) == {"obs", "mask", "policy", "value"}


def test_an_unknown_search_skip_family_is_refused(tmp_path, capsys):
    init = tiny_net(tmp_path, "voyage")
    with pytest.raises(SystemExit) as e:
        dagger.main([str(init), "--search", "5", "--search-skip", "sail", "--out",
                     str(tmp_path / "run")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--search-skip: voyage has no action family sail" in err and "move" in err


def test_aggregate_fits_each_round_on_the_searched_positions_of_all_rounds(tmp_path):
    """--aggregate: round r writes its searched rows and fits on its own records plus
    every earlier round's searched rows (the log's records count says so); a resumed run
    reads them back and ends with the same net."""
    init = tiny_net(tmp_path, "voyage")
    common = ["--games", "2", "--every", "4", "--search", "10", "--aggregate",
              "--warm-games", "2", "--held-games", "1", "--rate-games", "2", "--epochs", "1",
              "--batch", "16", "--device", "cpu"]
    straight, staged = tmp_path / "straight", tmp_path / "staged"
    assert dagger.main([str(init), "--rounds", "3", *common, "--out", str(straight)]) == 0
    rows = ck.read_rows(straight / "log.csv")[1:]
    kept = []
    for r, row in enumerate(rows, start=1):
        with np.load(straight / f"searched_{r}.npz") as f:
            assert len(f["obs"]) == int(row["searched"]) > 0
            assert (f["policy"].sum(1) == 1).all()
        kept.append(int(row["searched"]))
    own = [int(r["records"]) - sum(kept[:i]) for i, r in enumerate(rows)]
    assert all(n > k for n, k in zip(own, kept, strict=True))   # own records + earlier searched
    assert dagger.main([str(init), "--rounds", "2", *common, "--out", str(staged)]) == 0
    assert dagger.main([str(init), "--rounds", "3", *common, "--out", str(staged),
                        "--resume"]) == 0
    for x, y in zip(pvnet.load(straight / "round_3.npz")[0],
                    pvnet.load(staged / "round_3.npz")[0], strict=True):
        np.testing.assert_array_equal(x, y)             # byte for byte, as above
    with pytest.raises(SystemExit) as e:
        dagger.main([str(init), "--aggregate", "--out", str(tmp_path / "x")])
    assert e.value.code == 2


def test_az_teacher_labels_every_position_with_its_searchs_visit_shares(tmp_path):
    """With --az-teacher every recorded position's label is the teacher net's search from
    the deciding seat: visit shares over legal actions, the same as `az_labels` gives with
    the same generator; a teacher beside --search, or a missing file, is refused."""
    from tradewinds.training.alphazero import search_teacher

    init = tiny_net(tmp_path, "hansa")
    g = registry.game("hansa")
    args = dagger.parser().parse_args([str(init), "--az-teacher", str(init),
                                       "--az-simulations", "12", "--out", str(tmp_path / "r")])
    args.argv = []
    run = dagger.Run(args)
    found = warmstart.heuristic_records(g, 2, 2, seed=5, every=6, keep_states=True,
                                        net=run.learner.weights(), beta=0.5)
    labelled, searched = run.searched(found, np.random.default_rng(1))
    np.testing.assert_array_equal(searched, np.arange(len(found["obs"])))
    policy = labelled["policy"]
    np.testing.assert_allclose(policy.sum(1), 1.0, atol=1e-6)
    assert (policy[~found["mask"]] == 0).all()                   # only legal actions visited
    assert (policy.max(1) < 1).any()                             # soft targets, not one-hot
    again = search_teacher.az_labels(g, str(init), found["state"], np.random.default_rng(1), 12)
    np.testing.assert_array_equal(policy, again)
    args.az_judge = 1.0                      # the teacher's leaves judged by the game alone
    judged, _ = run.searched(found, np.random.default_rng(1))
    np.testing.assert_array_equal(judged["policy"], search_teacher.az_labels(
        g, str(init), found["state"], np.random.default_rng(1), 12, judge=1.0))
    assert not np.array_equal(judged["policy"], policy)
    args.az_judge = None
    with pytest.raises(SystemExit) as e:
        dagger.main([str(init), "--az-teacher", str(init), "--az-judge", "2", "--out",
                     str(tmp_path / "x")])
    assert e.value.code == 2
    with pytest.raises(ValueError, match="two teachers"):
        args.search = 5
        dagger.Run(args)
    with pytest.raises(SystemExit) as e:
        dagger.main([str(init), "--az-teacher", str(tmp_path / "none.npz"), "--out",
                     str(tmp_path / "x")])
    assert e.value.code == 2
    (tmp_path / "v").mkdir()
    args.search, args.az_teacher = 0, tiny_net(tmp_path / "v", "voyage")
    with pytest.raises(ValueError, match="is a net for voyage at 2 players, not hansa at 2"):
        dagger.Run(args)
