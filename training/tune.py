"""`tradewinds tune`: a budgeted hyper-parameter search for the PPO baseline.

Optuna's TPE sampler proposes the settings of a `tradewinds train` run (`SPACE`); each
trial trains `trial_steps` env steps in a folder of its own and is scored at every
checkpoint by its share of the VP in games against the heuristic (`vp_share`: PPO wins
almost no game against it in a short run, so the win share alone would score every trial
0), the last one being its value; the win share is kept beside it. Optuna's median
pruner stops a trial whose checkpoint falls below the median of the trials before it at the
same step, so the budget goes to promising settings. The study lives in SQLite
(``study.sqlite`` in `out`): rerunning the command continues it up to `trials` finished or
pruned trials; a trial cut off by a kill is marked failed and not counted.

    from tradewinds.training.tune import TuneConfig, tune
    best = tune(TuneConfig(game="hansa", trials=20, trial_steps=300_000))
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from tradewinds.cli_args import (
    check_positive_ints,
    game_name,
    int_at_least,
    option,
    steps_at_least,
)
from tradewinds.studies import run_fields as rf

OBJECTIVE = "vp_share"       # the VP share against the heuristic (`vp_share`)
# name -> (kind, choices or (low, high)): what a trial may set, and from where
SPACE = {
    "learning_rate": ("log", (5e-5, 3e-3)),
    "ent_coef": ("log", (1e-4, 5e-2)),
    "gamma": ("choice", (0.98, 0.99, 0.995, 0.999)),
    "n_steps": ("choice", (64, 128, 256)),
    "batch_size": ("choice", (256, 1024, 4096)),
    "n_epochs": ("choice", (2, 4, 8)),
    "net_arch": ("choice", ("64,64", "128,128", "256,256")),
    "reward": ("choice", ("win", "score")),
    "heuristic_weight": ("choice", (0.25, 0.5, 0.75)),
}


@dataclass
class TuneConfig:
    """Everything a study depends on (written to ``tune.json``)."""

    game: str = option(help="game name", positional=True, required=True, type=game_name)
    players: int = option(2, type=int, help="player count")
    trials: int = option(20, type=int_at_least(1), help="finished or pruned trials to reach")
    trial_steps: int = option(300_000, type=steps_at_least(1), help="env steps of each trial")
    checkpoint_every: int = option(100_000, type=steps_at_least(1), help="env steps between a "
                                   "trial's evaluations (the pruner's points)")
    eval_games: int = option(200, type=int_at_least(1), help="games against each evaluation "
                             "opponent at a checkpoint")
    num_envs: int = option(64, type=int_at_least(1), help="games played at once in a trial")
    out: str | None = option(None, help="study directory", show="results/tune/<game>_<players>p")
    seed: int = option(0, type=int_at_least(0), help="the sampler's seed")
    options: dict = rf.options("max_rounds=60")
    progress: bool = rf.progress()
    command: str | None = None          # the command line, kept in best.json

    def __post_init__(self):
        from tradewinds import registry

        g = registry.game(self.game)
        self.players = g.check_players(self.players)
        check_positive_ints(self, ("trials", "trial_steps", "checkpoint_every", "eval_games",
                                   "num_envs"))
        self.options = g.resolve_options(self.options, self.players)
        if self.out is None:
            self.out = f"results/tune/{self.game}_{self.players}p"
        self.out = str(self.out)


def suggest(trial) -> dict:
    """The trial's settings, drawn from `SPACE`."""
    out = {}
    for name, (kind, values) in SPACE.items():
        if kind == "log":
            out[name] = trial.suggest_float(name, *values, log=True)
        else:
            out[name] = trial.suggest_categorical(name, values)
    return out


def train_config(config: TuneConfig, settings: dict, out: Path):
    """The `tradewinds train` config of one trial."""
    from tradewinds.training.pool import DEFAULT_WEIGHTS
    from tradewinds.training.trainer import TrainConfig

    weights = dict(DEFAULT_WEIGHTS)
    heuristic = settings["heuristic_weight"]
    rest = sum(w for k, w in weights.items() if k != "heuristic")
    weights = {k: (heuristic if k == "heuristic" else w * (1 - heuristic) / rest)
               for k, w in weights.items()}
    batch = min(settings["batch_size"], settings["n_steps"] * config.num_envs)
    return TrainConfig(
        game=config.game, players=config.players, steps=config.trial_steps, out=str(out),
        num_envs=config.num_envs,
        checkpoint_every=config.checkpoint_every, eval_games=config.eval_games,
        weights=weights, n_steps=settings["n_steps"], batch_size=batch,
        n_epochs=settings["n_epochs"], learning_rate=settings["learning_rate"],
        gamma=settings["gamma"], ent_coef=settings["ent_coef"], reward=settings["reward"],
        net_arch=tuple(int(x) for x in settings["net_arch"].split(",")),
        options=config.options, progress=False)


def vp_share(policy, config: TuneConfig) -> float:
    """The policy's mean share of the VP against the heuristic in every other seat (1/N at
    par): a score that moves long before the first wins do."""
    from tradewinds.training.evaluate import shares_against

    def share(reward, info) -> float:
        total = sum(info["scores"])
        return info["scores"][info["seat"]] / total if total else 1.0 / config.players

    return float(np.mean(shares_against(policy, config.game, config.players, "heuristic",
                                        config.eval_games, share=share, **config.options)))


def objective(config: TuneConfig, trial) -> float:
    """Train one trial, reporting each checkpoint's score to the pruner; its last score."""
    import optuna

    from tradewinds.training.trainer import train

    settings = suggest(trial)
    out = Path(config.out) / f"trial_{trial.number:03d}"
    trial.set_user_attr("out", str(out))
    scores = []

    def on_checkpoint(run, row: dict) -> None:
        scores.append(vp_share(run.model, config))
        trial.set_user_attr("vs_heuristic", float(row["vs_heuristic"]))
        trial.report(scores[-1], int(row["steps"]))
        if int(row["steps"]) < config.trial_steps and trial.should_prune():     # not the last
            raise optuna.TrialPruned(f"{OBJECTIVE} {scores[-1]:.3f} at {row['steps']:,}")

    start = time.process_time()
    try:
        train(train_config(config, settings, out), on_checkpoint=on_checkpoint)
    finally:
        trial.set_user_attr("core_hours", (time.process_time() - start) / 3600)
    return scores[-1]


def study(config: TuneConfig):
    """The study of `config.out`, created or loaded (a mismatched config is refused)."""
    import optuna

    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    saved = out / "tune.json"
    mine = json.loads(json.dumps({k: v for k, v in asdict(config).items()
                                  if k not in ("trials", "progress", "out", "command")}))
    if saved.is_file():
        before = json.loads(saved.read_text())
        changed = sorted(k for k in mine if before.get(k) != mine[k])
        if changed or before.keys() != mine.keys():
            raise ValueError(f"{out} holds a study with other settings ({', '.join(changed)})"
                             f"; use another --out")
    else:
        saved.write_text(json.dumps(mine, indent=2))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna.create_study(
        study_name="ppo", storage=f"sqlite:///{out / 'study.sqlite'}", load_if_exists=True,
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=config.seed),
        pruner=optuna.pruners.MedianPruner(n_startup_trials=4, n_warmup_steps=0))


def counted(s) -> int:
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return sum(t.state in done for t in s.trials)


def tune(config: TuneConfig, console=None) -> dict:
    """Run the study up to `config.trials` counted trials; its summary (`summary`)."""
    from tradewinds import output

    console = console or output.console()
    s = study(config)
    while counted(s) < config.trials:
        s.optimize(lambda t: objective(config, t), n_trials=1, catch=())
        t = s.trials[-1]
        console.print(f"trial {t.number}: {t.state.name.lower()} at "
                      f"{max(t.intermediate_values, default=0):,} steps, {OBJECTIVE} "
                      f"{t.value if t.value is not None else float('nan'):.3f}  "
                      f"{json.dumps(t.params)}")
    result = summary(s, config)
    (Path(config.out) / "best.json").write_text(json.dumps(result, indent=2))
    console.print(f"best: trial {result['best']['number']} {OBJECTIVE} "
                  f"{result['best']['value']:.3f}  {json.dumps(result['best']['params'])}")
    return result


def summary(s, config: TuneConfig) -> dict:
    """The search space, the budget and every trial's settings and score."""
    import optuna

    rows = [{"number": t.number, "state": t.state.name, "value": t.value,
             "params": t.params, "steps": max(t.intermediate_values, default=0),
             "vs_heuristic": t.user_attrs.get("vs_heuristic"),
             "core_hours": t.user_attrs.get("core_hours")} for t in s.trials]
    best = s.best_trial
    done = [t for t in s.trials if t.state != optuna.trial.TrialState.FAIL]
    return {"game": config.game, "players": config.players, "objective": OBJECTIVE,
            "space": {k: list(v) for k, (_, v) in SPACE.items()},
            "trial_steps": config.trial_steps, "trials": rows,
            "steps_spent": sum(r["steps"] for r in rows if r["state"] != "FAIL"),
            "core_hours": sum(r["core_hours"] or 0.0 for r in rows),
            "counted": len(done),
            "best": {"number": best.number, "value": best.value, "params": best.params,
                     "out": best.user_attrs.get("out")},
            "command": config.command,
            "config": {k: v for k, v in asdict(config).items() if k != "progress"}}
