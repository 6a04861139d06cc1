"""`tradewinds tune`: the PPO baseline's budgeted hyper-parameter search (training/tune.py)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("optuna")
pytest.importorskip("sb3_contrib")

from tradewinds.cli.main import main  # noqa: E402
from tradewinds.training import tune  # noqa: E402

TINY = ["--trial-steps", "600", "--checkpoint-every", "300", "--eval-games", "2",
        "--num-envs", "2"]


def test_a_study_runs_its_trials_resumes_and_names_the_best(tmp_path, monkeypatch):
    monkeypatch.setitem(tune.SPACE, "n_steps", ("choice", (64,)))    # a tiny rollout
    out = tmp_path / "study"
    assert main(["tune", "hansa", "--trials", "2", "--out", str(out), *TINY,
                 "--no-progress"]) == 0
    best = json.loads((out / "best.json").read_text())
    assert best["counted"] == 2 and len(best["trials"]) == 2
    assert set(best["trials"][0]["params"]) == set(tune.SPACE)
    assert all(0.0 <= t["value"] <= 1.0 and 0.0 <= t["vs_heuristic"] <= 1.0
               for t in best["trials"] if t["state"] == "COMPLETE")
    assert best["best"]["value"] == max(t["value"] for t in best["trials"]
                                        if t["value"] is not None)
    assert (out / "trial_000" / "model.zip").is_file()
    assert best["steps_spent"] > 0 and best["core_hours"] > 0
    assert main(["tune", "hansa", "--trials", "3", "--out", str(out), *TINY,
                 "--no-progress"]) == 0                           # continues the study
    assert json.loads((out / "best.json").read_text())["counted"] == 3
    with pytest.raises(ValueError, match="other settings .*trial_steps"):
        tune.study(tune.TuneConfig(game="hansa", out=str(out), trial_steps=900,
                                   checkpoint_every=300, eval_games=2, num_envs=2))


def test_a_trial_below_the_median_is_stopped_at_its_checkpoint(tmp_path, monkeypatch):
    """The trainer's checkpoint hook carries the pruner's stop out of the run."""
    import optuna

    monkeypatch.setitem(tune.SPACE, "n_steps", ("choice", (64,)))
    config = tune.TuneConfig(game="hansa", trial_steps=600, checkpoint_every=300,
                             eval_games=2, num_envs=2, out=str(tmp_path), progress=False)
    study = optuna.create_study(direction="maximize",
                                pruner=optuna.pruners.ThresholdPruner(lower=2.0))
    study.optimize(lambda t: tune.objective(config, t), n_trials=1)
    (trial,) = study.trials
    assert trial.state == optuna.trial.TrialState.PRUNED
    assert list(trial.intermediate_values) == [300]       # stopped at the first checkpoint
    log = (tmp_path / "trial_000" / "log.csv").read_text().splitlines()
    assert len(log) == 2                                     # its header and that one row
    whole = tune.TuneConfig(game="hansa", trial_steps=300, checkpoint_every=300,
                            eval_games=2, num_envs=2, out=str(tmp_path / "w"), progress=False)
    study.optimize(lambda t: tune.objective(whole, t), n_trials=1)
    assert study.trials[-1].state == optuna.trial.TrialState.COMPLETE    # trained: scored


def test_the_settings_come_from_the_space(tmp_path):
    import optuna

    config = tune.TuneConfig(game="hansa", out=str(tmp_path))
    trial = optuna.trial.FixedTrial({"learning_rate": 1e-3, "ent_coef": 1e-3, "gamma": 0.99,
                                     "n_steps": 256, "batch_size": 4096, "n_epochs": 8,
                                     "net_arch": "64,64", "reward": "win",
                                     "heuristic_weight": 0.75})
    train = tune.train_config(config, tune.suggest(trial), tmp_path / "t")
    assert (train.learning_rate, train.n_steps, train.net_arch) == (1e-3, 256, (64, 64))
    assert train.weights["heuristic"] == 0.75 and sum(train.weights.values()) == \
        pytest.approx(1.0, abs=1e-12)
    assert train.batch_size == 4096 and train.reward == "win"
