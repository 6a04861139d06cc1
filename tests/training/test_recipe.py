"""Recipes: a shipped net's stages as one TOML file, run by `tradewinds train --recipe`,
resumed after an interruption, with the recipe and the commit in the net's metadata."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from tradewinds.agents import pvnet  # noqa: E402
from tradewinds.cli.main import main  # noqa: E402
from tradewinds.training import checkpoints as ck  # noqa: E402
from tradewinds.training import ladder_curve, recipe  # noqa: E402

TINY = """
game = "hansa"
players = 2
ship = "selfplay"
search = { simulations = 6 }

[[stages]]
name = "warm"
iterations = 0
width = 16
blocks = 1
warm_games = 12
warm_epochs = 1
rate_games = 2
rate_simulations = 4
rate_mcts_games = 0
progress = false

[[stages]]
name = "selfplay"
init = "@warm"
init_replay = "@warm"
width = 16
blocks = 1
iterations = 3
positions = 60
games = 4
simulations = 8
fast_simulations = 3
train_steps = 3
learner_batch = 32
rate_every = 2
rate_games = 2
rate_simulations = 4
rate_mcts_games = 0
rate_prev_games = 2
progress = false
"""


def tiny(tmp_path, text=TINY):
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return path


def test_every_shipped_recipe_parses_and_names_its_game():
    assert "hansa_3p" in recipe.names()
    for name in recipe.names():
        r = recipe.load(name)
        assert r.game in ("hansa", "voyage") and 2 <= r.players <= 4
        assert name == f"{r.game}_{r.players}p"      # one recipe per shipped net


def test_a_recipe_runs_all_stages_and_its_net_names_the_recipe(tmp_path):
    out = tmp_path / "run"
    assert main(["train", "--recipe", str(tiny(tmp_path)), "--out", str(out)]) == 0
    _, config, meta = pvnet.load(out / "net.npz")
    assert (config.game, config.num_players, config.hidden) == ("hansa", 2, 16)
    assert meta["recipe"] == "tiny" and "[[stages]]" in meta["recipe_text"]
    assert meta["commit"] and meta["search"] == {"simulations": 6}
    assert meta["iteration"] == 3
    assert meta["core_hours"] > 0
    shipped, _, _ = pvnet.load(out / "selfplay" / "net.npz")
    got, _, _ = pvnet.load(out / "net.npz")
    assert all(np.array_equal(x, y) for x, y in zip(shipped, got, strict=True))


def test_an_interrupted_recipe_resumes_to_the_same_net(tmp_path):
    """A budget stops it between iterations (as a kill would, after a checkpoint); the
    same command goes on, and the net equals the one of a run never stopped."""
    path = tiny(tmp_path)
    straight = recipe.run(recipe.load(str(path)), tmp_path / "a")
    staged = tmp_path / "b"
    assert recipe.run(recipe.load(str(path)), staged, budget=1e-9) is None
    assert (staged / "warm" / "net.npz").is_file() and not (staged / "net.npz").exists()
    assert recipe.run(recipe.load(str(path)), staged, budget=1e-9) is None    # one more
    done = recipe.run(recipe.load(str(path)), staged)
    for x, y in zip(pvnet.load(straight)[0], pvnet.load(done)[0], strict=True):
        np.testing.assert_allclose(x, y, atol=1e-5)   # torch's CPU sums, resumed exactly


@pytest.mark.parametrize("old, new, message", [
    ('init = "@warm"', 'init = "@later"', "names no earlier stage"),
    ("iterations = 3", "iterations = 3\nwarp = 9", "warp"),
    ('name = "warm"', 'name = "warm"\nalgo = "ppo"', "algo must be one of"),
    ('name = "selfplay"', 'name = "warm"', "unique name"),
    ('game = "hansa"', 'game = "chess"', "chess"),
])
def test_a_bad_recipe_is_refused_with_one_line_naming_it(tmp_path, old, new, message, capsys):
    path = tiny(tmp_path, TINY.replace(old, new, 1))
    assert main(["train", "--recipe", str(path), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("tradewinds train: error:")
    assert message in err
    assert not (tmp_path / "x").exists()     # nothing ran


def test_unknown_recipe_names_the_shipped_ones(capsys):
    assert main(["train", "--recipe", "nope"]) == 2
    assert "hansa_3p" in capsys.readouterr().err


CHAIN = TINY.replace('ship = "selfplay"', 'ship = "selfplay:2"').replace(
    'init = "@warm"\ninit_replay = "@warm"', 'continues = "@warm"') + """
[[stages]]
name = "small"
algo = "distill"
teacher = "@selfplay:2"
replay = "@selfplay"
width = 8
blocks = 1
games = 6
epochs = 1
"""


def test_a_stage_continues_a_run_and_names_a_rated_iteration(tmp_path):
    """continues = "@warm" resumes a copy of that run (its iteration count goes on from
    it); "@selfplay:2" is the net that stage rated at iteration 2, distilled here; ship
    "selfplay:2" makes that net the recipe's."""
    r = recipe.load(str(tiny(tmp_path, CHAIN)))
    assert r.ship == "selfplay:2" and [s.algo for s in r.stages] == [
        "alphazero", "alphazero", "distill"]
    out = tmp_path / "run"
    net = recipe.run(r, out)
    from tradewinds.training import checkpoints as ck
    state = ck.read_json(out / "selfplay" / "state.json")
    assert state["iteration"] == 3 and len(state["commands"]) == 2    # warm, then resumed
    assert (out / "warm" / "state.json").is_file()                    # the warm run kept
    rated, _, _ = pvnet.load(out / "selfplay" / "nets" / "net_0002.npz")
    got, _, meta = pvnet.load(net)
    assert all(np.array_equal(x, y) for x, y in zip(rated, got, strict=True))
    _, student, _ = pvnet.load(out / "small" / "student.npz")
    assert student.hidden == 8 and recipe.core_hours(r, out) > 0


def test_the_curve_rates_every_checkpoint_on_the_ladder_against_core_hours(tmp_path):
    """--curve: each rated net of each stage (here the warm start and two self-play
    checkpoints) gets an Elo on the shipped ladder's cheap members, at the recipe's
    core-hours then; the curve's hours only grow. The self-play stage's iteration 0 is
    the warm start's net (`init = "@warm"`), rated once."""
    out = tmp_path / "run"
    path = str(tiny(tmp_path))
    assert main(["train", "--recipe", path, "--out", str(out)]) == 0
    assert main(["train", "--recipe", path, "--out", str(out), "--curve", "--curve-games",
                 "2", "--curve-members", "random,heuristic"]) == 0
    from tradewinds.training import checkpoints as ck
    rows = ck.read_rows(out / "curve.csv")
    assert [(r["stage"], r["iteration"]) for r in rows] == [
        ("warm", "0"), ("selfplay", "2"), ("selfplay", "3")]
    hours = [float(r["core_hours"]) for r in rows]
    assert hours == sorted(hours) and hours[-1] > 0
    for r in rows:
        assert float(r["low"]) <= float(r["elo"]) <= float(r["high"])
        assert int(r["games"]) == 4 and r["ladder"].startswith("hansa-2p-")
    assert (out / "curve.png").stat().st_size > 0
    assert main(["train", "--recipe", path, "--out", str(out), "--curve",
                 "--curve-members", "random,chess"]) == 2


def test_a_gated_iteration_that_lost_names_the_net_kept_before_it(tmp_path):
    """ship = "gate:20" where the gate rejected iteration 20: the recipe's net is the
    last kept one before it (15), the weights the stage went on from."""
    nets = tmp_path / "nets"
    nets.mkdir()
    for name in ("net_0000", "net_0005", "net_0015", "rejected_0010", "rejected_0020"):
        (nets / f"{name}.npz").write_bytes(b"")
    assert recipe.kept_net(nets, 20).name == "net_0015.npz"
    assert recipe.kept_net(nets, 10).name == "net_0005.npz"
    assert recipe.kept_net(nets, 15).name == "net_0015.npz"
    assert recipe.kept_net(nets, 25).name == "net_0025.npz"     # not made yet: its own name


def test_any_alphazero_run_gets_its_ladder_curve(tmp_path):
    """tradewinds train ladder-curve RUN: every rated net of a run that no recipe made, its
    Elo on the shipped ladder against the run's core-hours, in RUN/ladder/ (a row the log
    holds twice, one point); a directory that is not an AlphaZero run is refused in one
    line."""
    out = tmp_path / "run"
    assert main(["train", "--recipe", str(tiny(tmp_path)), "--out", str(out)]) == 0
    run = out / "selfplay"                     # an AlphaZero run directory like any other
    log = (run / "log.csv").read_text()
    (run / "log.csv").write_text(log + log.splitlines()[-1] + "\n")   # a row written twice
    assert main(["train", "ladder-curve", str(run), "--games", "2",
                 "--members", "random,heuristic"]) == 0
    from tradewinds.training import checkpoints as ck
    rows = ck.read_rows(run / "ladder" / "curve.csv")
    assert [r["iteration"] for r in rows] == ["0", "2", "3"]   # its start is its first point
    hours = [float(r["core_hours"]) for r in rows]
    assert hours == sorted(hours) and hours[0] == 0     # the log rounds a tiny run's to 0
    assert (run / "ladder" / "curve.png").stat().st_size > 0
    assert main(["train", "ladder-curve", str(tmp_path)]) == 2


DAGGER = TINY.replace('ship = "selfplay"', 'ship = "taught:2"') + """
[[stages]]
name = "taught"
algo = "dagger"
init = "@selfplay"
rounds = 2
beta = 0
games = 6
every = 3
warm_games = 8
warm_every = 3
held_games = 2
rate_games = 4
batch = 32
search = 4
search_skip = ["sail", "setup"]
aggregate = true
"""


def test_a_dagger_stage_runs_its_rounds_resumes_and_ships_a_round(tmp_path):
    """DAgger rounds as a stage: "@selfplay" is the net they start from, a bare flag is
    `key = true` and a list the option's values, "taught:2" ships round 2 and its cost
    counts in the recipe's. A stage stopped after round 1 goes on from it to the same net."""
    r = recipe.load(str(tiny(tmp_path, DAGGER)))
    out = tmp_path / "run"
    recipe.run(r, out)
    taught = out / "taught"
    assert [int(x["round"]) for x in ck.read_rows(taught / "log.csv")] == [0, 1, 2]
    assert recipe.stage_hours(r, r.stage("taught"), out) > 0
    got, _, meta = pvnet.load(out / "net.npz")
    want, _, _ = pvnet.load(taught / "round_2.npz")
    assert all(np.array_equal(x, y) for x, y in zip(want, got, strict=True))
    assert meta["recipe"] == "tiny" and meta["dagger"]["round"] == 2
    # the recipe curve rates every round, at its running cost
    rounds = [c for c in ladder_curve.checkpoints(r, out) if c.stage == "taught"]
    assert [(c.iteration, c.path.name) for c in rounds] == [(1, "round_1.npz"),
                                                             (2, "round_2.npz")]
    assert rounds[0].core_hours < rounds[1].core_hours <= recipe.core_hours(r, out) + 1e-9
    one_round = DAGGER.replace("rounds = 2", "rounds = 1").replace('"taught:2"', '"taught"')
    staged = tmp_path / "staged"
    recipe.run(recipe.load(str(tiny(tmp_path, one_round))), staged)
    assert not (staged / "taught" / "round_2.npz").exists()
    again, _, _ = pvnet.load(recipe.run(r, staged))
    for x, y in zip(want, again, strict=True):
        np.testing.assert_allclose(x, y, atol=1e-5)   # torch's CPU sums, resumed exactly


@pytest.mark.parametrize("old, new, message", [
    ("rounds = 2", "rounds = 2\nwarp = 9", "unknown settings warp"),
    ('init = "@selfplay"\nrounds', "rounds", "no init \\(the net it starts from"),
])
def test_a_bad_dagger_stage_is_refused_before_anything_runs(tmp_path, old, new, message):
    with pytest.raises(ValueError, match=message):
        recipe.load(str(tiny(tmp_path, DAGGER.replace(old, new, 1))))


REFIT = TINY.split("[[stages]]")[0].replace('ship = "selfplay"', 'ship = "refit"') + \
    "[[stages]]" + TINY.split("[[stages]]")[1] + """
[[stages]]
name = "refit"
algo = "value_refit"
net = "@warm"
games = 6
every = 3
judge = 0.0
simulations = 5
"""


def test_a_value_refit_stage_refits_the_named_net_and_ships_it(tmp_path):
    """A value refit as a stage: "@warm" is the net it refits, its search settings become
    the shipped net's, its cost counts in the recipe's, and the curve rates its net."""
    r = recipe.load(str(tiny(tmp_path, REFIT)))
    assert [s.algo for s in r.stages] == ["alphazero", "value_refit"]
    out = tmp_path / "run"
    got, _, meta = pvnet.load(recipe.run(r, out))
    want, _, _ = pvnet.load(out / "refit" / "refit.npz")
    warm, _, _ = pvnet.load(out / "warm" / "net.npz")
    assert all(np.array_equal(x, y) for x, y in zip(want, got, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(warm, got, strict=True))
    assert meta["recipe"] == "tiny" and recipe.stage_hours(r, r.stage("refit"), out) > 0
    assert [c.stage for c in ladder_curve.checkpoints(r, out)][-1] == "refit"


@pytest.mark.parametrize("old, new, message", [
    ("games = 6", "games = 6\nwarp = 9", "unknown settings warp"),
    ('net = "@warm"\n', "", "no net \\(the net it starts from"),
])
def test_a_bad_one_file_stage_is_refused_before_anything_runs(tmp_path, old, new, message):
    with pytest.raises(ValueError, match=message):
        recipe.load(str(tiny(tmp_path, REFIT.replace(old, new, 1))))


def test_every_shipped_net_has_its_recipe():
    from pathlib import Path

    nets = Path(pvnet.__file__).parent / "nets"
    assert recipe.names() == sorted(p.stem for p in nets.glob("*.npz"))
