"""The `tradewinds` command line: demo, fpa (first-player advantage), ladder, match,
evaluate, play, train, bench.

Errors are one line on stderr naming what was wrong, with exit status 2 (bad arguments,
bad database or output paths, unknown games, agents or options), checked before any game
is played. Ctrl-C stops with one line and exit status 130, keeping every stored game.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

import numpy as np

from tradewinds.cli_args import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    ArgumentParser,
    game_name,
    int_at_least,
    open_unit,
)

# ------------------------------------------------------------------- argument types


def parse_agent_kwargs(items) -> dict:
    """['mcts:200:c=1.4,rollout=random', 'heuristic:x=1'] -> {'mcts:200': {...}, ...}.

    The agent name is everything before the last colon ahead of the first '=' (names may
    hold colons themselves: mcts:200)."""
    from studies import arena

    out: dict = {}
    for text in items or []:
        eq = text.find("=")
        name, sep, first_key = text[:eq].rpartition(":") if eq > 0 else ("", "", "")
        if not sep or not name or not first_key:
            raise ValueError(f"--agent-kwargs takes NAME:key=value[,key=value], got {text!r}")
        out.setdefault(name, {}).update(
            arena.parse_options((first_key + text[eq:]).split(",")))
    return out


def _options(args) -> dict:
    from studies import arena

    return arena.parse_options(args.option or [])


def _check_backend(args) -> None:
    import importlib.util

    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ValueError("--backend ray needs Ray: pip install 'tradewinds[dist]'")
    if args.backend != "ray" and args.address is not None:
        raise ValueError("--address is for --backend ray")


def _stored_games(db) -> int | None:
    """Games in the results file (None when it cannot be read)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return int(con.execute("SELECT count(*) FROM game").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return None


# ------------------------------------------------------------------------ commands


def demo(args) -> int:
    """Random-play demo: many games through the numba kernel, per-seat results in a table."""
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from tradewinds import registry

    game = registry.game(args.game)
    game.check_players(args.players)
    game.require("random_playout", "tradewinds demo")
    console = Console()
    wins = np.zeros(args.players)
    scores = []
    steps = 0
    key = np.zeros(2, dtype=np.int32)
    t0 = time.perf_counter()
    for seed in track(range(args.games), description=f"{args.game}, {args.players} players"):
        state = game.new_state(args.players, seed)
        key[:] = (seed, 12345)
        steps += game.random_playout(state, key)
        wins += game.returns(state)
        scores.append(game.scores(state))
    elapsed = time.perf_counter() - t0
    scores = np.array(scores)
    table = Table(title=f"{args.game}: {args.games} random games, {args.players} players")
    for col in ("seat", "win rate", "mean VP"):
        table.add_column(col, justify="right")
    for p in range(args.players):
        table.add_row(f"player_{p}", f"{wins[p] / args.games:.3f}", f"{scores[:, p].mean():.1f}")
    console.print(table)
    console.print(f"{steps} decisions in {elapsed:.2f} s (incl. numba start-up)")
    return 0


def fpa(args) -> int:
    """First-player-advantage study: arena games into SQLite, statistics, JSON and PNG."""
    from studies.fpa import FpaConfig, SprtConfig, run_fpa
    from studies.match import check_writable_dir

    config = FpaConfig(
        game=args.game, players=args.players, agent=args.agent, games=args.games,
        base_seed=args.seed, options=_options(args),
        agent_kwargs=parse_agent_kwargs(args.agent_kwargs), seating=args.seating,
        fast=not args.no_fast, db=args.db, out=args.out, name=args.name,
        backend=args.backend, workers=args.workers, address=args.address,
        chunk_size=args.chunk_size,
        sprt=SprtConfig(args.sprt, args.delta, args.alpha, args.beta), n_boot=args.n_boot,
        progress=not args.no_progress, command="tradewinds " + " ".join(args.argv))
    _check_backend(args)
    check_writable_dir(config.out, "--out" if args.out is not None else "--db directory")
    args.stored_before = _stored_games(args.db)
    run_fpa(config)
    return 0


def ladder(args) -> int:
    """Seat advantage against playing strength: one study per level, mirrored seeds."""
    from studies.ladder import LadderConfig, run_ladder
    from studies.match import check_writable_dir

    config = LadderConfig(
        game=args.game, levels=args.levels, players=args.players, games=args.games,
        base_seed=args.seed, options=_options(args),
        agent_kwargs=parse_agent_kwargs(args.agent_kwargs), fast=not args.no_fast,
        db=args.db, out=args.out, name=args.name, backend=args.backend,
        workers=args.workers, address=args.address, chunk_size=args.chunk_size,
        n_boot=args.n_boot, progress=not args.no_progress,
        command="tradewinds " + " ".join(args.argv))
    config.studies()           # every level and option checked before anything is written
    _check_backend(args)
    check_writable_dir(config.out, "--out" if args.out is not None else "--db directory")
    args.stored_before = _stored_games(args.db)
    run_ladder(config)
    return 0


def match(args) -> int:
    """Head-to-head match: rotated seats, win rates, openskill and Elo ratings."""
    from studies.match import MatchConfig, run_match

    _check_backend(args)
    config = MatchConfig(
        game=args.game, agents=args.agents, players=args.players, games=args.games,
        base_seed=args.seed, options=_options(args),
        agent_kwargs=parse_agent_kwargs(args.agent_kwargs), db=Path(args.db),
        out=args.out, name=args.name, workers=args.workers, backend=args.backend,
        address=args.address, chunk_size=args.chunk_size, fast=not args.no_fast,
        progress=not args.no_progress, model=args.model,
        command="tradewinds " + " ".join(args.argv))
    args.stored_before = _stored_games(args.db)
    run_match(config)
    return 0


def evaluate(args) -> int:
    """Rate an agent against the fixed opponent ladder (studies/evaluate.py)."""
    from studies.evaluate import EvaluateConfig, run_evaluate

    config = EvaluateConfig(
        game=args.game, agent=args.agent, players=args.players, games=args.games,
        base_seed=args.seed, ladder=args.ladder, db=Path(args.db), out=args.out,
        name=args.name, workers=args.workers, chunk_size=args.chunk_size,
        progress=not args.no_progress, command="tradewinds " + " ".join(args.argv))
    args.stored_before = _stored_games(args.db)
    run_evaluate(config)
    return 0


def play(args) -> int:
    """A human seat against agents in the terminal."""
    from studies.play import play as play_game

    return play_game(args.game, args.players, args.vs, seat=args.seat, seed=args.seed,
                     options=_options(args), agent_kwargs=parse_agent_kwargs(args.agent_kwargs),
                     board=not args.no_board)


def _weights(text: str) -> dict:
    """'snapshot=0.6,heuristic=0.3,random=0.1' -> the pool weights."""
    out = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep:
            raise ValueError(f"--pool takes KIND=WEIGHT[,KIND=WEIGHT], got {text!r}")
    return out


def train(args) -> int:
    """Self-play training (training.trainer); --backend rllib hands over to training.rllib."""
    import importlib.util

    if importlib.util.find_spec("sb3_contrib") is None:
        raise ValueError("training needs the train extra: pip install 'tradewinds[train]'")
    if args.backend == "rllib":
        from training.rllib import RllibConfig, train_rllib

        train_rllib(RllibConfig(game=args.game, players=args.players,
                                iterations=args.iterations, address=args.address,
                                out=args.out, seed=args.seed, reward=args.reward,
                                options=_options(args), resume=args.resume))
        return 0
    if args.address is not None:
        raise ValueError("--address is for --backend rllib")
    from training.trainer import TrainConfig
    from training.trainer import train as run_training

    kw = {"weights": _weights(args.pool)} if args.pool else {}
    config = TrainConfig(game=args.game, players=args.players, steps=args.steps, out=args.out,
                         num_envs=args.num_envs, seed=args.seed, reward=args.reward,
                         checkpoint_every=args.checkpoint_every, eval_games=args.eval_games,
                         net_arch=tuple(int(x) for x in args.net_arch.split(",")),
                         resume=args.resume, progress=not args.no_progress,
                         options=_options(args), **kw)
    run = run_training(config)
    print(f"checkpoint: {run.out / 'model.zip'} ({run.steps:,} steps); log: "
          f"{run.out / 'log.csv'}; curve: {run.out / 'curve.png'}; play it with the agent "
          f"ppo:{run.out / 'model.zip'}")
    return 0


def bench_main(argv) -> int:
    """`tradewinds bench ...` = `python -m benchmarks.throughput ...`."""
    from benchmarks.throughput import main as throughput

    return throughput(argv)


# -------------------------------------------------------------------------- parser


def _add_common(p, *, db_default: Path, what: str) -> None:
    """Options shared by fpa and match."""
    p.add_argument("--db", default=str(db_default),
                   help=f"SQLite results file, created if missing; rerunning resumes from it "
                   f"(default {db_default})")
    p.add_argument("--out", default=None, help=f"directory for the {what} (default: the "
                   "db's directory); checked for writing before any game is played")
    p.add_argument("--workers", type=int_at_least(1), default=None,
                   help="worker processes (default: all cores); with --backend ray, CPUs of "
                   "a local Ray")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: processes on this machine; ray: tasks on a Ray cluster "
                   "(default local)")
    p.add_argument("--address", default=None, help="Ray cluster address (with --backend ray; "
                   "default: start a local Ray)")
    p.add_argument("--seed", type=int_at_least(0), default=0,
                   help="base seed: game i uses seed + i (default 0)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="game option, e.g. max_rounds=100 (repeatable)")
    p.add_argument("--agent-kwargs", action="append", metavar="NAME:K=V[,K=V]",
                   help="keyword arguments for an agent's factory, e.g. mcts:200:c=1.4 "
                   "(repeatable)")
    p.add_argument("--no-fast", action="store_true", help="never play inside the kernel: "
                   "drive every decision through the Python agents")
    p.add_argument("--chunk-size", type=int_at_least(1), default=None,
                   help="games per worker task (default: about 4 tasks per worker)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def build_parser() -> ArgumentParser:
    from studies.evaluate import DEFAULT_DB as EVALUATE_DB
    from studies.fpa import DEFAULT_DB as FPA_DB
    from studies.ladder import DEFAULT_DB as LADDER_DB
    from studies.ladder import DEFAULT_LEVELS as LADDER_LEVELS
    from studies.match import DEFAULT_DB as MATCH_DB
    from tradewinds import __version__

    parser = ArgumentParser(prog="tradewinds", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("demo", help="play random games in the kernel and print per-seat "
                       "results", description="Plays --games uniformly random games inside "
                       "the numba kernel and prints each seat's win rate and mean VP.")
    p.add_argument("game", nargs="?", default="hansa", type=game_name,
                   help="game name: hansa or voyage (default hansa)")
    p.add_argument("--players", type=int, default=3, help="player count, 2-4 (default 3)")
    p.add_argument("--games", type=int_at_least(1), default=2000,
                   help="number of games (default 2000)")
    p.set_defaults(func=demo)

    p = sub.add_parser(
        "fpa", help="first-player-advantage study: play, record, test, tabulate, plot",
        description="Plays games 0..K-1 (seed = --seed + i) for every player count into the "
        "results database (resuming: stored seeds are skipped), then prints per-seat win "
        "rates with Wilson 95% intervals, the exact binomial test of seat 1, chi-square, "
        "bootstrap VP margin and power, and writes a JSON summary and a PNG plot. Seat 1 is "
        "the first player of the initial turn order.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--players", default="2,3,4", help="player count(s): 3, 2,3,4 or 2-4 "
                   "(default 2,3,4)")
    p.add_argument("--agent", default="random", help="agent name for every seat, or one per "
                   "seat comma-separated in seat order (default random)")
    p.add_argument("--games", type=int_at_least(1), default=2000,
                   help="games per player count (default 2000)")
    p.add_argument("--name", default=None, help="file stem of the JSON and PNG (default "
                   "fpa_<game>_<agent>_<players>p)")
    p.add_argument("--seating", choices=("fixed", "rotate"), default="fixed",
                   help="fixed: agents in seat order; rotate: game i rotates them by i")
    p.add_argument("--sprt", action="store_true", help="stop early when the SPRT decides")
    p.add_argument("--delta", type=open_unit, default=0.05, help="effect size for SPRT and "
                   "power: seat 1 wins 1/n + delta (default 0.05)")
    p.add_argument("--alpha", type=open_unit, default=0.05,
                   help="SPRT and power: false-positive rate (default 0.05)")
    p.add_argument("--beta", type=open_unit, default=0.2,
                   help="SPRT and power: false-negative rate (default 0.2)")
    p.add_argument("--n-boot", type=int_at_least(1), default=10_000,
                   help="bootstrap resamples (default 10000)")
    _add_common(p, db_default=FPA_DB, what="JSON, markdown and PNG")
    p.set_defaults(func=fpa)

    p = sub.add_parser(
        "ladder", help="seat advantage against playing strength: one study per level",
        description="For every level (an agent playing every seat) and player count, plays "
        "games 0..K-1 with the same seeds (mirrored: the levels differ only in the agent) "
        "into the results database (resuming), then prints seat 1's win rate and VP margin "
        "with 95% intervals and the balance metrics per level, and writes JSON, markdown "
        "and a PNG plot.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--levels", default=",".join(LADDER_LEVELS),
                   help=f"agents, weakest first (default {','.join(LADDER_LEVELS)})")
    p.add_argument("--players", default="2,3,4", help="player count(s): 3, 2,3,4 or 2-4 "
                   "(default 2,3,4)")
    p.add_argument("--games", type=int_at_least(1), default=400,
                   help="games per level and player count (default 400)")
    p.add_argument("--name", default=None, help="file stem of the outputs (default "
                   "ladder_<game>_<players>p)")
    p.add_argument("--n-boot", type=int_at_least(1), default=2000,
                   help="bootstrap resamples (default 2000)")
    _add_common(p, db_default=LADDER_DB, what="JSON, markdown and PNG")
    p.set_defaults(func=ladder)

    p = sub.add_parser(
        "match", help="head-to-head match: rotated seats, win rates, openskill and Elo",
        description="Plays --games games between the agents with the seats rotated (every "
        "agent in every seat equally often; with more agents than seats, every line-up in "
        "turn: see studies/match.py) into the results database (resuming), then prints "
        "each agent's win rate with a Wilson 95% interval, mean VP, openskill ratings and, "
        "for 2 players, Elo differences with 95% intervals; writes JSON and markdown. "
        "Shared wins count 1/k for each of the k winners.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--agents", required=True, metavar="A,B[,...]",
                   help="two or more different agents, comma-separated, e.g. "
                   "heuristic,mcts:200")
    p.add_argument("--players", type=int, default=2, help="player count, 2-4 (default 2)")
    p.add_argument("--games", type=int_at_least(1), default=100,
                   help="number of games (default 100); a multiple of the player count "
                   "balances the seats")
    p.add_argument("--name", default=None, help="file stem of the JSON and markdown (default "
                   "match_<game>_<agents>_<players>p)")
    from tradewinds.ratings import MODELS

    p.add_argument("--model", choices=sorted(MODELS), default="plackett_luce",
                   help="openskill model (default plackett_luce)")
    _add_common(p, db_default=MATCH_DB, what="JSON and markdown")
    p.set_defaults(func=match)

    p = sub.add_parser(
        "evaluate", help="rate an agent against the fixed opponent ladder (Elo, random = 0)",
        description="Plays --games games of the agent against every member of the game's "
        "opponent ladder (studies/ladders/<game>_<N>p.json: random, heuristic, IS-MCTS "
        "budgets, the shipped PPO policy, each with a fixed rating, random = 0) with the "
        "seats rotated and fixed seeds, into the results database (resuming), then fits "
        "the agent's Elo rating with the ladder's ratings held fixed and prints it with a "
        "95% interval, the win rate against each opponent with a Wilson 95% interval, "
        "and writes JSON (naming the ladder version) and markdown. See "
        "docs/benchmarking.md; refit a ladder with python -m studies.evaluate fit.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--agent", required=True, metavar="NAME",
                   help="the agent to rate: a registered name (heuristic, mcts:200, ppo), "
                   "ppo:<path to model.zip>, or module:attribute naming a factory "
                   "(called as factory(game=...), returns an object with act())")
    p.add_argument("--players", type=int, default=2, help="player count (default 2; a "
                   "ladder file must exist for it)")
    p.add_argument("--games", type=int_at_least(1), default=100,
                   help="games against each ladder opponent (default 100); the interval "
                   "narrows as 1/sqrt(games)")
    p.add_argument("--ladder", default=None, metavar="PATH",
                   help="a ladder file (default: the shipped one for the game and players)")
    p.add_argument("--name", default=None, help="file stem of the JSON and markdown "
                   "(default evaluate_<game>_<agent>_<players>p)")
    p.add_argument("--db", default=str(EVALUATE_DB),
                   help=f"SQLite results file, created if missing; rerunning resumes from it "
                   f"(default {EVALUATE_DB})")
    p.add_argument("--out", default=None, help="directory for the JSON and markdown "
                   "(default: the db's directory); checked before any game is played")
    p.add_argument("--workers", type=int_at_least(1), default=None,
                   help="worker processes (default: all cores)")
    p.add_argument("--seed", type=int_at_least(0), default=0,
                   help="base seed: against ladder member j, game i uses seed + j * 10**9 "
                   "+ i (default 0)")
    p.add_argument("--chunk-size", type=int_at_least(1), default=None,
                   help="games per worker task (default: about 4 tasks per worker)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=evaluate)

    p = sub.add_parser(
        "play", help="play a game yourself against agents in the terminal",
        description="A human seat: shows the board and the numbered legal actions, reads a "
        "number or an action name; q, quit or end of input leave. Opponents are agents.")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--players", type=int, default=2, help="player count, 2-4 (default 2)")
    p.add_argument("--vs", default="heuristic", metavar="A[,B,...]",
                   help="opponent agent for every other seat, or one per opponent seat in "
                   "seat order (default heuristic)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0..players-1 as on the "
                   "board (player_S; default 0)")
    p.add_argument("--seed", type=int_at_least(0), default=None,
                   help="game seed (default: a random one, printed at the start)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="game option, e.g. max_rounds=5 (repeatable)")
    p.add_argument("--agent-kwargs", action="append", metavar="NAME:K=V[,K=V]",
                   help="keyword arguments for an opponent's factory (repeatable)")
    p.add_argument("--no-board", action="store_true",
                   help="do not print the board before each of your moves")
    p.set_defaults(func=play)

    p = sub.add_parser(
        "train", help="self-play training: MaskablePPO against a pool of snapshots, the "
        "heuristic and random",
        description="Trains a MaskablePPO policy (sb3-contrib) on the batched VecEnv: the "
        "learner takes a random seat in each game; its opponents are drawn per game from the "
        "pool (snapshots of itself added at every checkpoint, the heuristic, random; "
        "training/pool.py). At every checkpoint it evaluates against random and the "
        "heuristic and writes model.zip, log.csv and curve.png to --out atomically; --resume "
        "continues a run. --backend rllib trains on Ray RLlib instead (multi-agent "
        "self-play, training/rllib.py).")
    p.add_argument("game", type=game_name, help="game name: hansa or voyage")
    p.add_argument("--players", type=int, default=2, help="player count, 2-4 (default 2)")
    p.add_argument("--steps", type=int_at_least(1), default=1_000_000,
                   help="total env steps (learner decisions) to reach (default 1000000)")
    p.add_argument("--out", default=None, help="run directory (default "
                   "results/train/<game>_<players>p)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    p.add_argument("--num-envs", type=int_at_least(1), default=64,
                   help="games played at once (default 64)")
    p.add_argument("--seed", type=int_at_least(0), default=0, help="seed (default 0)")
    p.add_argument("--reward", choices=("win", "zero_sum", "score"), default="score",
                   help="reward mode (tradewinds/rewards.py; default score: the change of "
                   "the VP margin at every step)")
    p.add_argument("--checkpoint-every", type=int_at_least(1), default=100_000,
                   help="env steps between checkpoints, snapshots and evaluations "
                   "(default 100000)")
    p.add_argument("--eval-games", type=int_at_least(1), default=200,
                   help="evaluation games per opponent at each checkpoint (default 200)")
    p.add_argument("--pool", default=None, metavar="KIND=W[,...]",
                   help="opponent weights, e.g. snapshot=0.6,heuristic=0.3,random=0.1 "
                   "(the default)")
    p.add_argument("--net-arch", default="128,128",
                   help="hidden layer sizes of the policy and value MLPs (default 128,128)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="game option, e.g. max_rounds=60 (repeatable)")
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: MaskablePPO on this machine (default); rllib: Ray RLlib PPO")
    p.add_argument("--address", default=None,
                   help="Ray cluster address (with --backend rllib; default: a local Ray)")
    p.add_argument("--iterations", type=int_at_least(1), default=10,
                   help="RLlib training iterations (with --backend rllib; default 10)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=train)

    # listed for `tradewinds --help`; `tradewinds bench ...` is handed over in main
    sub.add_parser("bench", add_help=False,
                   help="throughput benchmark beside PettingZoo and OpenSpiel peers "
                   "(python -m benchmarks.throughput; --help for its options)")
    parser.subcommands = sub.choices
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:
        return bench_main(argv[1:])
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:                 # named by the subcommand that got them
            parser.subcommands[args.command].error(
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as e:       # --help, --version (0) and argument errors (2)
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    args.argv = argv
    prog = f"tradewinds {args.command}"
    try:
        return args.func(args)
    except KeyboardInterrupt:
        db = getattr(args, "db", None)
        line = f"{prog}: interrupted"
        if db is not None and getattr(args, "stored_before", "unset") != "unset":
            now = _stored_games(db)
            if now is not None:
                before = args.stored_before or 0
                line += (f"; {now} games stored in {db} ({now - before} new), rerun the same "
                         f"command to resume")
        print(line, file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    except (ValueError, OSError, sqlite3.Error) as e:
        text = " ".join(str(e).split()) or type(e).__name__
        print(f"{prog}: error: {text}", file=sys.stderr, flush=True)
        return EXIT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
