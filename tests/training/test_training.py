"""Self-play training: the opponent pool's rule, opponents drawn per game in the
batched VecEnv, `tradewinds train` end to end with checkpoints and --resume, and the
`ppo` / `ppo:<path>` agents."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import tradewinds.cli.main as cli  # noqa: E402
from tradewinds import (
    agents,  # noqa: E402
    registry,  # noqa: E402
)
from tradewinds.training import checkpoints as ck  # noqa: E402
from tradewinds.training.pool import OpponentPool  # noqa: E402
from tradewinds.training.vec_env import BatchedVecEnv  # noqa: E402


class Marker:
    """A stand-in snapshot (the pool only stores and returns it)."""

    def __init__(self, step):
        self.step = step


class CountingRandom:
    """A predictor playing uniformly random legal actions, counting its decisions."""

    def __init__(self, seed=0):
        self.calls = 0
        self.rng = np.random.default_rng(seed)

    def predict(self, observations, action_masks=None):
        self.calls += len(observations)
        return np.array([self.rng.choice(np.flatnonzero(m)) for m in action_masks])


# ------------------------------------------------------------------ the pool's rule

def test_pool_shares_the_snapshot_weight_until_the_first_snapshot():
    pool = OpponentPool(2, {"snapshot": 0.6, "heuristic": 0.3, "random": 0.1})
    assert pool.probabilities() == pytest.approx(
        {"snapshot": 0.0, "heuristic": 0.75, "random": 0.25})
    pool.add(Marker(0))
    assert pool.probabilities() == pytest.approx(
        {"snapshot": 0.6, "heuristic": 0.3, "random": 0.1})


def test_pool_draws_follow_the_documented_rule():
    pool = OpponentPool(3, {"snapshot": 0.5, "heuristic": 0.3, "random": 0.2},
                        max_snapshots=3, latest_share=0.5)
    for step in range(5):
        pool.add(Marker(step))
    assert [s.step for s in pool.snapshots] == [2, 3, 4]     # the newest three kept
    gen = np.random.default_rng(1)
    draws = [o for _ in range(20_000) for o in pool.sample(gen)]    # 2 opponents a game
    n = len(draws)
    share = lambda pred: sum(map(pred, draws)) / n  # noqa: E731
    assert share(lambda o: o == "heuristic") == pytest.approx(0.3, abs=0.01)
    assert share(lambda o: o == "random") == pytest.approx(0.2, abs=0.01)
    # the newest: half of the snapshot draws; the two older ones share the other half
    assert share(lambda o: getattr(o, "step", None) == 4) == pytest.approx(0.25, abs=0.01)
    assert share(lambda o: getattr(o, "step", None) == 2) == pytest.approx(0.125, abs=0.01)


@pytest.mark.parametrize("weights", [{"snapshot": -1, "heuristic": 1},
                                     {"snapshot": 0, "heuristic": 0, "random": 0},
                                     {"champion": 1}])
def test_pool_refuses_bad_weights(weights):
    with pytest.raises(ValueError, match="pool weights"):
        OpponentPool(2, weights)


# ------------------------------------------------- opponents drawn per game (VecEnv)

def _play(env, steps, rng):
    obs = env.reset()
    out = [obs.copy()]
    for _ in range(steps):
        masks = env.action_masks()
        a = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rew, done, _ = env.step(a)
        out += [obs.copy(), rew.copy(), done.copy()]
    return out


def test_a_sampler_that_always_names_the_heuristic_plays_the_heuristic_games():
    fixed = BatchedVecEnv("hansa", num_envs=3, num_players=3, opponents="heuristic", seed=4)
    drawn = BatchedVecEnv("hansa", num_envs=3, num_players=3, seed=4,
                          opponent_sampler=lambda gen: "heuristic")
    a = _play(fixed, 300, np.random.default_rng(0))
    b = _play(drawn, 300, np.random.default_rng(0))
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_sampled_opponents_play_whole_games():
    """Episodes alternate between a counting predictor and random: the opponents change
    only when a game ends, and the predictor decides only in its own games."""
    pred = CountingRandom()
    episode = [0]

    def sampler(gen):
        episode[0] += 1
        return pred if episode[0] % 2 == 0 else "random"

    env = BatchedVecEnv("hansa", num_envs=1, num_players=2, seed=0, opponent_sampler=sampler)
    env.reset()
    rng = np.random.default_rng(0)
    seen = []
    while len(seen) < 6:
        before, calls = env.get_opponents()[0][0], pred.calls
        a = rng.choice(np.flatnonzero(env.action_masks()[0]))
        _, _, done, _ = env.step(np.array([a]))
        if done[0]:     # the calls may belong to the next game, started in this step
            seen.append(before)
            continue
        assert env.get_opponents()[0][0] is before
        assert pred.calls == calls or before is pred
    assert "random" in seen and pred in seen and pred.calls > 0


# ----------------------------------------------------- tradewinds train, end to end

def _train(tmp_path, steps, *extra):
    return cli.main(["train", "hansa", "--players", "2", "--steps", str(steps), "--out",
                     str(tmp_path / "run"), "--num-envs", "8", "--checkpoint-every", "1024",
                     "--eval-games", "8", "--net-arch", "16", "--no-progress", *extra])


def test_train_writes_checkpoints_and_resumes(tmp_path, capsys):
    assert _train(tmp_path, 2048) == 0
    run = tmp_path / "run"
    rows = ck.read_rows(run / "log.csv")
    assert [int(r["steps"]) for r in rows] == [1024, 2048]
    for r in rows:
        assert 0.0 <= float(r["vs_random"]) <= 1.0 and 0.0 <= float(r["vs_heuristic"]) <= 1.0
        assert float(r["vs_random_low"]) <= float(r["vs_random"]) <= float(r["vs_random_high"])
    state = ck.read_json(run / "state.json")
    assert state["steps"] == 2048
    # the untrained policy and one snapshot per checkpoint, each on disk
    assert [s["step"] for s in state["snapshots"]] == [0, 1024, 2048]
    assert all((run / s["file"]).is_file() for s in state["snapshots"])
    assert (run / "curve.png").stat().st_size > 1000

    # a second run into the same directory must say --resume
    assert _train(tmp_path, 4096) == cli.EXIT_ERROR
    assert "--resume" in capsys.readouterr().err
    # resuming with other settings is refused, naming the setting
    assert _train(tmp_path, 4096, "--resume", "--reward", "win") == cli.EXIT_ERROR
    assert "reward" in capsys.readouterr().err

    assert _train(tmp_path, 4096, "--resume") == 0
    rows = ck.read_rows(run / "log.csv")
    assert [int(r["steps"]) for r in rows] == [1024, 2048, 3072, 4096]
    assert float(rows[2]["seconds"]) >= float(rows[1]["seconds"])
    assert ck.read_json(run / "state.json")["steps"] == 4096
    # the checkpoint plays as an agent by path
    agent = agents.make_agent(f"ppo:{run / 'model.zip'}", game="hansa")
    g = registry.game("hansa")
    s = g.new_state(2, 3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        if g.is_terminal(s):
            break
        mask = g.legal_mask(s)
        a = agent.act(g.observe(s, g.current_player(s)), mask, rng)
        assert mask[a]
        g.step(s, a)


def test_export_drops_the_optimizer_state(tmp_path):
    from sb3_contrib import MaskablePPO

    env = BatchedVecEnv("voyage", num_envs=2, num_players=2, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(32)
    ck.save_model(model, tmp_path / "full.zip")
    ck.export(model, tmp_path / "small.zip", {"game": "voyage", "players": 2})
    full, small = (tmp_path / "full.zip").stat().st_size, (tmp_path / "small.zip").stat().st_size
    assert small < 0.6 * full
    assert json.loads((tmp_path / "small.json").read_text())["game"] == "voyage"
    a = agents.make_agent(f"ppo:{tmp_path / 'small.zip'}", game="voyage")
    b = MaskablePPO.load(tmp_path / "full.zip", device="cpu")
    for pa, pb in zip(a.model.policy.parameters(), b.policy.parameters(), strict=True):
        assert np.array_equal(pa.detach().numpy(), pb.detach().numpy())


def test_ppo_agent_errors_name_the_problem(tmp_path):
    with pytest.raises(ValueError, match="no checkpoint at"):
        agents.make_agent(f"ppo:{tmp_path / 'missing.zip'}", game="hansa")
    (tmp_path / "junk.zip").write_text("not a zip")
    with pytest.raises(ValueError, match="not a MaskablePPO checkpoint"):
        agents.make_agent(f"ppo:{tmp_path / 'junk.zip'}", game="hansa")


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_shipped_checkpoints_play_legal_moves_and_are_small(game):
    from tradewinds.agents.ppo import shipped

    path = shipped(game)
    if not path.exists():
        pytest.fail(f"no shipped checkpoint {path}")
    assert path.stat().st_size < 5 * 2**20
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["game"] == game and meta["players"] == 2 and "tradewinds train" in meta["command"]
    agent = agents.make_agent("ppo", game=game)
    g = registry.game(game)
    rng = np.random.default_rng(1)
    s = g.new_state(2, 11)
    for _ in range(300):
        if g.is_terminal(s):
            break
        mask = g.legal_mask(s)
        a = agent.act(g.observe(s, g.current_player(s)), mask, rng)
        assert mask[a], g.action_name(a)
        g.step(s, a)
