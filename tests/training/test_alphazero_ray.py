"""AlphaZero self-play on Ray actors: the actors' records are what the same shares give
played in one process, and `tradewinds train --backend ray` runs a tiny run end to end."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")
ray = pytest.importorskip("ray")

from tradewinds import ray_start, registry  # noqa: E402
from tradewinds.agents import pvnet  # noqa: E402
from tradewinds.training.alphazero import actors  # noqa: E402
from tradewinds.training.alphazero.selfplay import SelfPlayConfig  # noqa: E402

CONFIG = SelfPlayConfig(games=3, simulations=6, fast_simulations=2, full_share=0.5)


@pytest.fixture(scope="module")
def local_ray():
    ray_start.start(num_cpus=2)
    yield
    ray.shutdown()


def test_ray_actors_record_what_their_shares_give_in_one_process(local_ray):
    g = registry.game("hansa")
    weights = pvnet.random_weights(pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 16, 1))
    # in this process first: a fresh clone's actors then load the compiled search from
    # numba's cache instead of compiling it twice side by side
    want, played = actors.play_share("hansa", 2, CONFIG, weights, 40, 7, 2)
    pool = actors.RayActors(g, 2, weights, CONFIG, actors=2)
    got = pool.play(40, seed=7)
    assert pool.last_played == played and pool.games_finished == sum(played)
    # bitwise: the same compiled search and net on the same machine in every process, and
    # the records hold observations, masks, visit shares and outcomes
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)
    assert len(got["obs"]) >= 40 and (got["policy"][~got["mask"]] == 0).all()
    assert pool.seeds_used(CONFIG.games) == max(played) + CONFIG.games


def test_a_ray_started_here_runs_its_workers_at_the_drivers_priority(local_ray):
    import os

    assert ray.get(ray.remote(lambda: os.nice(0)).remote()) == os.nice(0)


def test_actor_seed_blocks_do_not_overlap():
    assert actors.actor_seed(5, 0) == 5
    assert actors.actor_seed(5, 1) - actors.actor_seed(5, 0) == actors.ACTOR_STRIDE
    assert actors.share(41, 2) == 21 and actors.share(40, 3) == 14


def test_cli_trains_alphazero_on_ray_actors(tmp_path, capsys, local_ray):
    from tradewinds.agents import pvnet as pv
    from tradewinds.cli.main import main

    g = registry.game("hansa")
    tiny = pvnet.random_weights(pvnet.NetConfig("hansa", 2, g.obs_size, g.num_actions, 8, 0))
    actors.play_share("hansa", 2, CONFIG, tiny, 4, 0, 1)    # compiled once, here (above)
    out = tmp_path / "run"
    argv = ["train", "hansa", "--algo", "alphazero", "--backend", "ray", "--actors", "2",
            "--iterations", "1", "--out", str(out), "--warm-games", "4", "--warm-epochs", "1",
            "--positions", "20", "--games", "2", "--simulations", "4",
            "--fast-simulations", "2", "--train-steps", "1", "--learner-batch", "16",
            "--rate-games", "2", "--rate-simulations", "2", "--rate-mcts-games", "1",
            "--width", "8", "--blocks", "0", "--no-progress"]
    assert main(argv) == 0
    assert f"az:{out}/net.npz" in capsys.readouterr().out
    _, _, meta = pv.load(out / "net.npz")
    assert meta["iteration"] == 1 and "--backend ray --actors 2" in meta["command"]


@pytest.mark.parametrize("extra, message", [
    (["--backend", "ray"], "--backend ray needs --actors"),
    (["--actors", "2"], "--actors and --address are for --backend ray"),
    (["--backend", "rllib"], "--backend ray --actors N, not --backend rllib"),
])
def test_cli_refuses_ray_settings_that_do_not_fit(extra, message, capsys):
    from tradewinds.cli.main import main

    assert main(["train", "hansa", "--algo", "alphazero", *extra]) == 2
    assert message in capsys.readouterr().err


def test_ppo_is_not_trained_on_ray_actors(capsys):
    from tradewinds.cli.main import main

    assert main(["train", "hansa", "--backend", "ray"]) == 2
    assert "--backend ray is for --algo alphazero" in capsys.readouterr().err
