"""`tradewinds train`: self-play training. The backend picks the trainer: MaskablePPO on
this machine (training/trainer.py) or Ray RLlib (training/rllib.py); the options of both
come from their config dataclasses, a field they share once. `--algo dmc` (Deep
Monte-Carlo, training/dmc.py) has a parser of its own, built from `DMCConfig` alone: its
net and learning rate default to other values than PPO's fields of the same names.
`--recipe` runs a recipe's stages, and `tradewinds train STAGE ...` one stage on its own,
handed its arguments untouched (`STAGES`; `tradewinds.cli.verbs`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tradewinds.cli.verbs import Verb, hand_over
from tradewinds.cli_args import option

STAGES = (
    Verb("distill", "tradewinds.training.alphazero.distill:main",
         "a narrower net fitted to a wider one's policy and values, for a faster search"),
    Verb("dagger", "tradewinds.training.alphazero.dagger:main",
         "DAgger for the raw policy: the net "
         "plays, the heuristic (or mcts:N) labels the positions it reaches"),
    Verb("value-refit", "tradewinds.training.alphazero.value_refit:main",
         "a net's value trained further on many heuristic games' outcomes, its policy held"),
    Verb("search-teacher", "tradewinds.training.alphazero.search_teacher:main",
         "a net fitted to the rollout search's visit counts and root values"),
    Verb("ladder-curve", "tradewinds.training.ladder_curve:main",
         "rate every rated net of an AlphaZero run on the shipped ladder: Elo against "
         "core-hours in RUN/ladder/"),
    Verb("ship-net", "tradewinds.training.alphazero.ship:main",
         "copy a rated net to agents/nets/<game>_<n>p.npz, the az and net agents' default"),
    Verb("ship-ppo", "tradewinds.training.ship:main",
         "copy a PPO run's checkpoint to "
         "agents/checkpoints/<game>_<n>p.zip, the ppo agent's default"),
    Verb("ship-dmc", "tradewinds.training.ship_dmc:main",
         "copy a DMC run's checkpoint to "
         "agents/checkpoints/<game>_<n>p_dmc.pt, the dmc agent's default"),
    Verb("voyage-value", "tradewinds.training.fit_voyage_value:main",
         "fit the Voyage heuristic's leaf "
         "judgement (agents/value_voyage_fit.py) to heuristic self-play"),
)
STAGE_NAMES = tuple(s.name for s in STAGES)

HELP = ("self-play training (MaskablePPO, AlphaZero), a recipe's stages (--recipe), or one "
        "stage: distill, dagger, value-refit, search-teacher, ship-net, ...")
DESCRIPTION = (
    "Trains a MaskablePPO policy (sb3-contrib) on the batched VecEnv: the learner takes a "
    "random seat in each game; its opponents are drawn per game from the pool (snapshots of "
    "itself added at every checkpoint, the heuristic, random; training/pool.py). At every "
    "checkpoint it evaluates against random and the heuristic and writes model.zip, log.csv "
    "and curve.png to --out atomically; --resume continues a run. --backend rllib trains on "
    "Ray RLlib instead (multi-agent self-play, training/rllib.py). --algo alphazero trains a "
    "policy-value net by self-play with the net-guided IS-MCTS (training/alphazero/loop.py). "
    "--algo dmc trains a Q-network by Deep Monte-Carlo on the same envs and pool "
    "(training/dmc.py; its options: tradewinds train GAME --algo dmc --help). "
    "--recipe NAME runs every stage that made a shipped net. One stage on its own: tradewinds "
    f"train STAGE ... with STAGE one of {', '.join(STAGE_NAMES)} (tradewinds train STAGE "
    "--help for its options).")


@dataclass(frozen=True)
class Trainer:
    """Which trainer runs."""

    recipe: str | None = option(None, help="run a recipe instead: tradewinds train --recipe "
                                "NAME [--budget H] (its own options: tradewinds train "
                                "--recipe x --help)", show="none")
    algo: str = option("ppo", choices=("ppo", "alphazero", "dmc"), help="ppo: MaskablePPO or "
                       "RLlib PPO (--backend); alphazero: self-play with the net-guided search "
                       "(training/alphazero); dmc: Deep Monte-Carlo (training/dmc.py, its own "
                       "options: --algo dmc --help)")
    backend: str = option("sb3", choices=("sb3", "rllib", "ray"), help="sb3: MaskablePPO "
                          "on this machine; rllib: Ray RLlib PPO; ray: alphazero's self-play "
                          "on Ray actors (--actors)")


def hands_over(argv: list[str]) -> bool:
    """A stage named first, ``--recipe`` or ``--algo dmc``: their own options
    (`run_argv`), not the PPO trainer's."""
    staged = bool(argv) and argv[0] in STAGE_NAMES
    return (staged or any(a == "--recipe" or a.startswith("--recipe=") for a in argv)
            or _dmc_asked(argv))


def _dmc_asked(argv: list[str]) -> bool:
    from itertools import pairwise

    return "--algo=dmc" in argv or ("--algo", "dmc") in pairwise(argv)


def dmc_parser():
    from tradewinds.cli import options
    from tradewinds.cli_args import ArgumentParser
    from tradewinds.training.dmc import DMCConfig

    ap = ArgumentParser(prog="tradewinds train", description=(
        "Deep Monte-Carlo (DouZero) self-play (training/dmc.py): a Q-network plays a random "
        "seat of --num-envs games against opponents drawn from the pool, greedy over the "
        "legal actions with --epsilon random ones, and learns each decision's Monte-Carlo "
        "return. Checkpoints, evaluations, log.csv and curve.png as PPO's; play the result "
        "with the agent dmc:<out>/model.pt."))
    ap.add_argument("--algo", choices=("dmc",), required=True, help="dmc: the trainer of "
                    "these options")
    options.add_fields(ap, DMCConfig)
    return ap


def recipe_parser():
    from tradewinds.cli_args import ArgumentParser, int_at_least

    ap = ArgumentParser(prog="tradewinds train", description=(
        "Run every stage of a recipe (training/recipe.py): the settings of each stage that "
        "makes a shipped net, as one TOML file. Finished stages are skipped and an "
        "interrupted one resumed, so rerun the same command to go on."))
    ap.add_argument("--recipe", required=True, help="a shipped recipe's name (--list) or a "
                    ".toml file")
    ap.add_argument("--out", default=None, help="where the stages write (default "
                    "results/recipes/<name>)")
    ap.add_argument("--budget", type=float, default=None, help="stop after this many more "
                    "core-hours (checked between iterations); rerun to go on")
    ap.add_argument("--actors", type=int_at_least(0), default=0, help="self-play on N Ray "
                    "actors (the same records as in one process)")
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"),
                    help="the learner's device (auto: CUDA when torch sees one)")
    ap.add_argument("--ship", action="store_true", help="when done, also copy the net to "
                    "agents/nets/<game>_<n>p.npz")
    ap.add_argument("--show", action="store_true", help="print the recipe's stages and stop")
    ap.add_argument("--curve", action="store_true", help="rate every checkpoint the stages "
                    "have made on the shipped ladder and draw <out>/curve.png "
                    "(training/ladder_curve.py), instead of training")
    ap.add_argument("--curve-agent", default="net", choices=("net", "az"),
                    help="what is rated: the raw policy (net) or the search (az)")
    ap.add_argument("--curve-games", type=int_at_least(1), default=40,
                    help="games against each ladder member per checkpoint")
    ap.add_argument("--curve-every", type=int_at_least(1), default=1,
                    help="rate one checkpoint in N of each stage (its last always)")
    ap.add_argument("--curve-members", default=None, help="comma-separated ladder members "
                    "(default: those that are not searches)")
    return ap


def run_argv(argv: list[str]) -> int:
    if argv and argv[0] in STAGE_NAMES:
        return hand_over(STAGES[STAGE_NAMES.index(argv[0])], argv[1:],
                         f"tradewinds train {argv[0]}")
    if _dmc_asked(argv) and not any(a == "--recipe" or a.startswith("--recipe=")
                                    for a in argv):
        return _dmc(argv)
    return _recipe(argv)


def _dmc(argv: list[str]) -> int:
    import sys

    from tradewinds.cli import options
    from tradewinds.cli_args import EXIT_ERROR, EXIT_INTERRUPTED, require_train_extra
    from tradewinds.training.dmc import DMCConfig

    try:
        args = dmc_parser().parse_args(argv)
    except SystemExit as e:               # --help (0) and argument errors (2)
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    try:
        require_train_extra("training")
        from tradewinds.training.dmc import train

        run = train(options.config(args, DMCConfig))
    except (ValueError, OSError) as e:
        print(f"tradewinds train: error: {' '.join(str(e).split())}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"tradewinds train: interrupted; --resume continues from the last checkpoint "
              f"in {args.out or 'the run directory'}", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    print(f"checkpoint: {run.out / 'model.pt'} ({run.steps:,} steps); log: "
          f"{run.out / 'log.csv'}; curve: {run.out / 'curve.png'}; play it with the agent "
          f"dmc:{run.out / 'model.pt'}")
    return 0


def _recipe(argv: list[str]) -> int:
    import shutil
    import sys
    from pathlib import Path

    from tradewinds.cli_args import EXIT_ERROR

    try:
        args = recipe_parser().parse_args(argv)
    except SystemExit as e:               # --help (0) and argument errors (2)
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    try:
        from tradewinds import output
        from tradewinds.training import recipe

        r = recipe.load(args.recipe)
        if args.show:
            print(recipe.describe(r))
            return 0
        out = Path(args.out or f"results/recipes/{r.name}")
        if args.curve:
            from tradewinds.training import ladder_curve

            members = args.curve_members.split(",") if args.curve_members else None
            ladder_curve.rate(r, out, args.curve_agent, args.curve_games, args.curve_every,
                              members, console=output.console())
            print(f"curve: {out / 'curve.csv'} and {out / 'curve.png'}")
            return 0
        net = recipe.run(r, out, budget=args.budget, actors=args.actors, device=args.device,
                         console=output.console())
    except (ValueError, OSError) as e:
        print(f"tradewinds train: error: {' '.join(str(e).split())}", file=sys.stderr)
        return EXIT_ERROR
    spent = recipe.core_hours(r, out)
    if net is None:
        print(f"recipe {r.name}: stopped at the budget after {spent:.2f} core-hours in "
              f"{out}; rerun the same command to go on")
        return 0
    print(f"recipe {r.name}: {net} ({spent:.2f} core-hours); play it as az:{net} or "
          f"net:{net}")
    if args.ship:
        from tradewinds.agents import az

        dest = az.shipped(r.game, r.players)
        shutil.copyfile(net, dest)
        print(f"shipped as {dest}")
    return 0


def configs() -> tuple:
    """The config dataclasses whose option fields are the command's options, in the order
    of the help (a field RllibConfig shares with TrainConfig is TrainConfig's option)."""
    from tradewinds.training.alphazero.loop import AlphaZeroConfig
    from tradewinds.training.rllib import RllibConfig
    from tradewinds.training.trainer import TrainConfig

    return TrainConfig, Trainer, RllibConfig, AlphaZeroConfig


def run(args) -> int:
    from tradewinds.cli import options
    from tradewinds.cli_args import require_train_extra

    require_train_extra("training")
    sb3, _, rllib, alphazero = configs()
    if args.algo == "dmc":            # typed in a form `hands_over` did not spot
        return _dmc(args.argv[1:])
    if args.algo == "alphazero":
        return _alphazero(args, alphazero)
    if args.backend == "ray":
        raise ValueError("--backend ray is for --algo alphazero (PPO on Ray: --backend rllib)")
    if args.backend == "rllib":
        from tradewinds.training.rllib import train_rllib

        own = {f.name for f in dataclasses.fields(rllib)}
        shared = {k: v for k, v in options.values(args, sb3).items() if k in own}
        train_rllib(options.config(args, rllib, **shared))
        return 0
    if args.address is not None:
        raise ValueError("--address is for --backend rllib")
    from tradewinds.training.trainer import train

    run = train(options.config(args, sb3))
    print(f"checkpoint: {run.out / 'model.zip'} ({run.steps:,} steps); log: "
          f"{run.out / 'log.csv'}; curve: {run.out / 'curve.png'}; play it with the agent "
          f"ppo:{run.out / 'model.zip'}")
    return 0


def _alphazero(args, cls) -> int:
    from tradewinds import output
    from tradewinds.cli import options
    from tradewinds.training.alphazero.loop import train

    if args.backend == "rllib":
        raise ValueError("--algo alphazero trains on this machine or on Ray actors: "
                         "--backend ray --actors N, not --backend rllib")
    if args.backend == "ray" and args.actors < 1:
        raise ValueError("--backend ray needs --actors N (N >= 1 self-play actors)")
    if args.backend != "ray" and (args.actors or args.address is not None):
        raise ValueError("--actors and --address are for --backend ray")
    config = options.config(args, cls)
    state = train(config, console=output.console())
    print(f"net: {config.out}/net.npz (iteration {state['iteration']}, "
          f"{state['core_seconds'] / 3600:.2f} core-hours); log: {config.out}/log.csv; "
          f"curve: {config.out}/curve.png; play it as az:{config.out}/net.npz or "
          f"net:{config.out}/net.npz")
    return 0
