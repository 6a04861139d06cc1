"""Deep Monte-Carlo (`training.dmc`): the Monte-Carlo returns, the greedy choice over legal
actions, `tradewinds train GAME --algo dmc` end to end with checkpoints and --resume, and
the `dmc:<path>` agent."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import tradewinds.cli.main as cli  # noqa: E402
from tradewinds import agents  # noqa: E402
from tradewinds.agents import dmc as dmc_agent  # noqa: E402
from tradewinds.cli import options  # noqa: E402
from tradewinds.cli import train as train_cli  # noqa: E402
from tradewinds.training import checkpoints as ck  # noqa: E402
from tradewinds.training.dmc import (  # noqa: E402
    DMCConfig,
    Run,
    explore,
    monte_carlo_returns,
)
from tradewinds.training.trainer import LOG_COLUMNS  # noqa: E402

TINY = ["--num-envs", "8", "--checkpoint-every", "1024", "--eval-games", "8",
        "--net-arch", "16", "--batch-size", "64", "--train-every", "64", "--buffer", "5000",
        "--no-progress"]


# ------------------------------------------------------------------ returns and choices

def test_a_decisions_return_is_the_sum_of_the_rewards_from_it_to_the_end():
    rewards = [0.25, 0.0, -0.5, 1.0]
    assert monte_carlo_returns(rewards).tolist() == [0.75, 0.5, 0.5, 1.0]
    assert monte_carlo_returns([]).shape == (0,)


def test_the_buffer_holds_each_finished_games_returns(tmp_path):
    """One env: when its first game ends, the buffer holds one row per learner decision,
    each the sum of the rewards from it on; the first, the episode's return."""
    run = Run(DMCConfig("hansa", num_envs=1, out=str(tmp_path / "run"), net_arch=(8,),
                        batch_size=10**6, progress=False))
    rewards, step = [], run.env.step

    def recording(actions):
        out = step(actions)
        rewards.append(float(out[1][0]))
        return out

    run.env.step = recording
    while run.episodes == 0:
        run.collect()
    assert run.replay.size == len(rewards) and run.pending[0] == ([], [], [])
    ret = run.replay.ret[:run.replay.size]
    assert np.allclose(ret, np.cumsum(rewards[::-1])[::-1], atol=1e-5)
    assert ret[0] == pytest.approx(run.reward, abs=1e-5)      # the env's episode["r"]
    assert len(set(np.round(rewards, 6))) > 1                 # score: rewards along the way


def _net_preferring(action: int, num_actions: int):
    """A net whose values are highest, by far, for `action` whatever it sees."""
    net = torch.nn.Linear(3, num_actions)
    with torch.no_grad():
        net.weight.zero_()
        net.bias.copy_(torch.arange(num_actions, dtype=torch.float32))
        net.bias[action] = 1e6
    return net


def test_greedy_play_never_picks_an_illegal_action_even_of_highest_value():
    policy = dmc_agent.QPolicy(_net_preferring(0, 5))
    masks = np.array([[0, 1, 1, 0, 0], [0, 0, 0, 0, 1], [1, 1, 0, 0, 0]], dtype=bool)
    actions, _ = policy.predict(np.zeros((3, 3), np.float32), action_masks=masks)
    assert actions.tolist() == [2, 4, 0]          # the best legal one; 0 where legal
    assert explore(actions, masks, 0.0, np.random.default_rng(0)).tolist() == [2, 4, 0]


def test_exploration_picks_uniformly_among_the_legal_actions():
    masks = np.zeros((30_000, 6), dtype=bool)
    masks[:, [1, 3, 4]] = True
    picks = explore(np.full(30_000, 1), masks, 1.0, np.random.default_rng(0))
    counts = np.bincount(picks, minlength=6)
    assert set(np.flatnonzero(counts)) == {1, 3, 4}
    assert np.all(np.abs(counts[[1, 3, 4]] - 10_000) < 400)
    some = explore(np.full(30_000, 1), masks, 0.3, np.random.default_rng(0))
    assert np.mean(some != 1) == pytest.approx(0.3 * 2 / 3, abs=0.02)


# ----------------------------------------------------- tradewinds train --algo dmc

def _train(tmp_path, steps, *extra):
    return cli.main(["train", "hansa", "--algo", "dmc", "--players", "2", "--steps",
                     str(steps), "--out", str(tmp_path / "run"), *TINY, *extra])


def test_dmc_training_writes_checkpoints_and_resumes(tmp_path, capsys):
    assert _train(tmp_path, 2048) == 0
    run = tmp_path / "run"
    rows = ck.read_rows(run / "log.csv")
    assert [int(r["steps"]) for r in rows] == [1024, 2048]
    assert list(rows[0]) == LOG_COLUMNS
    for r in rows:
        assert 0.0 <= float(r["vs_random"]) <= 1.0 and 0.0 <= float(r["vs_heuristic"]) <= 1.0
        assert float(r["vs_random_low"]) <= float(r["vs_random"]) <= float(r["vs_random_high"])
    state = ck.read_json(run / "state.json")
    assert state["steps"] == 2048
    assert [s["step"] for s in state["snapshots"]] == [0, 1024, 2048]
    assert all((run / s["file"]).is_file() for s in state["snapshots"])
    assert (run / "curve.png").stat().st_size > 1000
    assert "dmc:" in capsys.readouterr().out

    assert _train(tmp_path, 4096) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "--resume" in err and len(err.strip().splitlines()) == 1
    assert _train(tmp_path, 4096, "--resume", "--reward", "win") == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "reward" in err and len(err.strip().splitlines()) == 1

    assert _train(tmp_path, 4096, "--resume") == 0
    rows = ck.read_rows(run / "log.csv")
    assert [int(r["steps"]) for r in rows] == [1024, 2048, 3072, 4096]
    assert float(rows[2]["seconds"]) >= float(rows[1]["seconds"])
    assert ck.read_json(run / "state.json")["steps"] == 4096
    assert torch.load(run / "model.pt", weights_only=True)["steps"] == 4096


def test_the_dmc_agent_plays_a_checkpoint_with_legal_moves_only(tmp_path):
    """A checkpoint of a tiny run plays whole arena games (the arena raises on an
    illegal action)."""
    from tradewinds.studies import arena

    assert cli.main(["train", "hansa", "--algo", "dmc", "--steps", "1024", "--out",
                     str(tmp_path / "run"), *TINY]) == 0
    name = f"dmc:{tmp_path / 'run' / 'model.pt'}"
    bot = agents.make_agent(name, game="hansa")
    assert bot.policy.step == 1024
    study = arena.Study.create("hansa", 2, (name, "random"), options={"max_rounds": 10},
                               seating="rotate")
    rows = arena.play_chunk(study, range(2))
    assert len(rows) == 2
    from tradewinds.training.exploit import opponents  # a best response's opponent
    specs, kind = opponents(name, "hansa", 2, 3)
    assert kind == "batched" and isinstance(specs[0], dmc_agent.QPolicy)
    # shipped: the weights without the optimizer, and the command that made them
    assert cli.main(["train", "ship-dmc", str(tmp_path / "run"), "--dest",
                     str(tmp_path / "ship")]) == 0
    shipped = tmp_path / "ship" / "hansa_2p_dmc.pt"
    meta = ck.read_json(shipped.with_suffix(".json"))
    assert meta["steps"] == 1024 and meta["command"].startswith(
        "tradewinds train hansa --algo dmc --players 2 --steps 1024")
    copy = agents.make_agent(f"dmc:{shipped}", game="hansa")
    obs = np.random.default_rng(0).random((4, copy.game.obs_size), dtype=np.float32)
    masks = np.ones((4, copy.game.num_actions), bool)
    np.testing.assert_array_equal(copy.policy.predict(obs, masks)[0],
                                  bot.policy.predict(obs, masks)[0])
    assert cli.main(["train", "ship-dmc", str(tmp_path / "none")]) == 2
    with pytest.raises(ValueError, match="voyage"):
        agents.make_agent(name, game="voyage")


def test_dmc_agent_errors_name_the_problem(tmp_path):
    with pytest.raises(ValueError, match=r"dmc:<path to model.pt>"):
        agents.make_agent("dmc", game="voyage")                 # none shipped for Voyage
    with pytest.raises(ValueError, match="no checkpoint at"):
        agents.make_agent(f"dmc:{tmp_path / 'missing.pt'}", game="hansa")
    (tmp_path / "junk.pt").write_text("not a checkpoint")
    with pytest.raises(ValueError, match="not a DMC checkpoint"):
        agents.make_agent(f"dmc:{tmp_path / 'junk.pt'}", game="hansa")


def test_the_dmc_parser_shows_its_options_with_the_configs_defaults(tmp_path, capsys):
    parser = train_cli.dmc_parser()
    differ = {k: v for k, v in options.defaults(parser, DMCConfig).items() if v[0] != v[1]}
    assert not differ
    assert cli.main(["train", "hansa", "--algo", "dmc", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--epsilon" in text and "--train-every" in text and "256,256" in text
    assert train_cli.hands_over(["hansa", "--algo", "dmc"])
    assert train_cli.hands_over(["hansa", "--algo=dmc"])
    assert not train_cli.hands_over(["hansa", "--algo", "alphazero"])
    assert cli.main(["train", "hansa", "--algo", "dmc", "--epsilon", "2", "--steps", "1",
                     "--out", str(tmp_path / "run"), "--no-progress"]) == cli.EXIT_ERROR
    assert "epsilon" in capsys.readouterr().err


def test_dmc_learns_to_beat_random_play(tmp_path):
    """Against random opponents only, 100 k env steps take the greedy net from its
    untrained play to winning most games (fixed seeds: the same games before and after)."""
    from tradewinds.training.evaluate import win_rate

    config = DMCConfig("hansa", steps=100_000, weights={"random": 1.0}, seed=0,
                       out=str(tmp_path / "run"), progress=False)
    run = Run(config)
    before = win_rate(run.policy(), "hansa", 2, "random", 100, **config.options).rate
    while run.steps < config.steps:
        run.collect()
    after = win_rate(run.policy(), "hansa", 2, "random", 100, **config.options).rate
    assert after >= 0.8 and after >= before + 0.3, (before, after)
