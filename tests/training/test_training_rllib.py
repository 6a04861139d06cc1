"""`tradewinds train --backend rllib`: RLlib's PettingZoo wrapper and
action-masking PPO module train the shared self-play policy; one iteration in a local Ray."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import tradewinds.cli.main as cli  # noqa: E402
from tradewinds.training.rllib import make_env  # noqa: E402


def test_the_rllib_env_gives_masked_observations_of_the_deciding_seat():
    env = make_env({"game": "voyage", "num_players": 3, "reward": "win"})
    obs, _ = env.reset(seed=3)
    (agent, o), = obs.items()
    assert set(o) == {"observations", "action_mask"}
    assert o["observations"].shape == env.observation_space[agent]["observations"].shape
    for _ in range(50):
        (agent, o), = obs.items()
        legal = np.flatnonzero(o["action_mask"])
        assert legal.size > 0
        obs, _, term, trunc, _ = env.step({agent: int(legal[0])})
        if term["__all__"] or trunc["__all__"]:
            break


def test_rllib_resume_names_a_missing_run(tmp_path, capsys):
    assert cli.main(["train", "hansa", "--backend", "rllib", "--resume",
                     "--out", str(tmp_path / "none")]) == cli.EXIT_ERROR
    assert "no RLlib run saved" in capsys.readouterr().err


def test_one_rllib_iteration_trains_and_saves(tmp_path):
    from tradewinds.training.rllib import RllibConfig, train_rllib

    lines = []
    history = train_rllib(RllibConfig(game="hansa", players=2, iterations=1, out=str(tmp_path),
                                      train_batch_size=256, minibatch_size=64, num_epochs=1),
                          log=lines.append)
    assert history[0]["iteration"] == 1 and history[0]["env_steps"] >= 256
    assert any(p.is_file() for p in (tmp_path / "rllib").rglob("*"))
    assert "iteration 1" in lines[0]
    _the_saved_policy_plays_as_an_agent(tmp_path)
    _the_run_resumes(tmp_path, history[0])


def _the_run_resumes(run_dir, first):
    """`resume` loads the saved run and goes on: iteration 2 counts its env steps on top of
    iteration 1's, the history keeps both rows, and changed settings are refused."""
    import json

    from tradewinds.training.rllib import RllibConfig, train_rllib

    small = dict(game="hansa", players=2, out=str(run_dir), train_batch_size=256,
                 minibatch_size=64, num_epochs=1, resume=True)
    with pytest.raises(ValueError, match="other settings: seed=0"):
        train_rllib(RllibConfig(iterations=2, **{**small, "seed": 1}), log=lambda _: None)
    with pytest.raises(ValueError, match="already has 1 iterations"):
        train_rllib(RllibConfig(iterations=1, **small), log=lambda _: None)
    history = train_rllib(RllibConfig(iterations=2, **small), log=lambda _: None)
    assert [row["iteration"] for row in history] == [1, 2]
    assert history[0] == first
    assert first["env_steps"] + 256 <= history[1]["env_steps"] < 2 * first["env_steps"] + 256
    assert history[1]["episodes"] >= first["episodes"]
    assert history[1]["seconds"] > first["seconds"]
    assert json.loads((run_dir / "history.json").read_text())["history"] == history


def _the_saved_policy_plays_as_an_agent(run_dir):
    """`rllib:<path>` loads what the run saved and plays only legal actions, from the
    seat's observation and mask alone (it is not given the state)."""
    import tradewinds
    from tradewinds import agents

    bot = agents.make_agent(f"rllib:{run_dir}", game="hansa")
    assert not getattr(bot, "needs_state", False)
    game = tradewinds.game("hansa")
    rng = np.random.default_rng(0)
    s = game.new_state(2, seed=5)
    for _ in range(200):
        if game.is_terminal(s):
            break
        mask = game.legal_mask(s)
        a = bot.act(game.observe(s, game.current_player(s)), mask, rng)
        assert mask[a], game.action_name(a)
        game.step(s, a)
    sampler = agents.make_agent(f"rllib:{run_dir}", game="hansa", deterministic=False)
    mask = game.legal_mask(s) if not game.is_terminal(s) else game.legal_mask(
        game.new_state(2, seed=6))
    picks = {sampler.act(np.zeros(game.obs_size, np.float32), mask, rng) for _ in range(50)}
    assert all(mask[a] for a in picks)


@pytest.mark.parametrize("game, opponent", [("hansa", "random"), ("voyage", "heuristic")])
def test_the_shipped_rllib_policy_plays_whole_games(game, opponent):
    """`rllib` loads the game's shipped policy: it plays whole games with legal actions
    only (the arena raises on an illegal one; its strength is measured with `evaluate`,
    docs/benchmarking.md). The Voyage opponent is the heuristic, which ends its games
    before the round cap."""
    from tradewinds import agents
    from tradewinds.studies import arena

    bot = agents.make_agent("rllib", game=game)
    assert bot.path.name == f"{game}_2p_rllib"
    study = arena.Study.create(game, 2, ("rllib", opponent), seating="rotate")
    rows = arena.play_chunk(study, range(2))
    assert len(rows) == 2 and all(not r["truncated"] for r in rows)


def test_the_rllib_agent_names_what_is_wrong(tmp_path, monkeypatch):
    from tradewinds import agents
    from tradewinds.agents import rllib_agent

    monkeypatch.setattr(rllib_agent, "CHECKPOINTS", tmp_path)
    with pytest.raises(ValueError, match="no shipped rllib policy for 'voyage'"):
        agents.make_agent("rllib", game="voyage")
    with pytest.raises(ValueError, match="no RLlib policy under"):
        agents.make_agent(f"rllib:{tmp_path}", game="hansa")
