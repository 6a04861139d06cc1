"""`tradewinds train <game> --algo alphazero`: expert iteration with the net-guided search.

    from tradewinds.training.alphazero.loop import AlphaZeroConfig, train
    train(AlphaZeroConfig(game="hansa", players=2, iterations=50))

A run is a sequence of iterations after an optional warm start:

0. warm start (once): `warm_games` heuristic games (`warmstart`), fitted for
   `warm_epochs` epochs, so self-play begins near the heuristic instead of at random; a
   sample of its positions fills the replay buffer, which self-play then replaces; or,
   with `init`, a given net (e.g. a distilled one) and `init_replay`'s records;
1. self-play: `positions` searched positions from games of the current net
   (`selfplay.SelfPlay`, playout-cap randomisation, root noise), into the replay buffer;
2. learning: `train_steps` Adam steps on batches from the buffer;
3. every `rate_every` iterations: the checkpoint's `net` and `az` rated against the
   heuristic, and `az` against `mcts:400` (`rate_mcts_games`), on fixed seeds
   (`rating`), a row in ``log.csv`` and the curve redrawn.

Files in `out`, each written atomically, ``state.json`` last, so a killed run resumes
from its last iteration (``resume=True``) with the same buffer, generator and optimizer
(a run killed while rating rates that checkpoint first):

    config.json   the settings            net.npz      the latest net (agents.pvnet format)
    nets/         net_<iteration>.npz, a copy of every rated net (with --gate, a net that
                  lost to its predecessor as rejected_<iteration>.npz)
    learner.pt    net + optimizer state    replay.npz   the replay buffer
    state.json    iteration, seeds, time,  log.csv      one row per rated iteration
                  the commands run so far
    curve.png     ratings against core-hours

Across sessions, ``net.npz`` and ``learner.pt`` are what to keep: a run resumed without
``replay.npz`` starts with an empty buffer and says so.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from tradewinds.cli_args import game_name, int_at_least, option
from tradewinds.studies import run_fields as rf
from tradewinds.training import checkpoints as ck

LOG_COLUMNS = ["iteration", "seconds", "core_hours", "positions", "games", "policy_loss",
               "value_loss", "net_vs_heuristic", "net_low", "net_high", "az_vs_heuristic",
               "az_low", "az_high", "az_vs_mcts", "az_mcts_low", "az_mcts_high",
               "prev_iteration", "az_vs_prev", "az_prev_low", "az_prev_high",
               "net_vs_random", "net_random_low", "net_random_high", "az_vs_random",
               "az_random_low", "az_random_high", "fresh_policy_loss", "fresh_value_loss"]
MCTS_OPPONENT = "mcts:400"
RANDOM_ROLLOUTS = {"rollout": "random", "depth": -1, "prior": 0.0}
"""`mcts:400` as a from-scratch run meets it: random rollouts to the end, no prior (the
game's own settings use the heuristic in Hansa's prior and Voyage's rollouts)."""


@dataclass
class AlphaZeroConfig:
    """Everything an AlphaZero run depends on (written to ``config.json``)."""

    game: str = option("hansa", help="game name: hansa or voyage", positional=True,
                       required=True, type=game_name)
    players: int = option(2, type=int, help="player count, 2-4")
    iterations: int = option(10, type=int_at_least(0), help="total iterations to reach "
                             "(alphazero: 0, the warm start only)")
    out: str | None = option(None, help="run directory",
                             show="results/train/az_<game>_<players>p")
    resume: bool = option(False, help="continue the run in --out")
    seed: int = option(0, type=int_at_least(0), help="seed")
    width: int = option(256, type=int_at_least(1), help="width of the net's hidden layers")
    blocks: int = option(2, type=int_at_least(0), help="residual hidden blocks")
    from_scratch: bool = option(False, help="no hand-written player at any stage: no warm "
                                "start, hint or judgement; rated against random and "
                                "mcts:400 with random rollouts (the heuristic too where the "
                                "game has one)")
    hint: str = option("", choices=("", "heuristic"), help="the net also reads the "
                       "heuristic's choice at each position (agents/net_input.py)",
                       show="none")
    init: str | None = option(None, help="start from this net file instead of a warm start "
                              "(its width and blocks)", show="a warm start")
    init_replay: str | None = option(None, help="with --init: a replay.npz to start the "
                                     "buffer with", show="an empty buffer")
    init_fill: int = option(0, type=int_at_least(0), help="with --init: heuristic games "
                            "whose decisions (one in --warm-every) start the buffer, not "
                            "fitted: the first self-play games alone are too few for the "
                            "value head")
    warm_games: int = option(2000, type=int_at_least(0), help="heuristic games for the warm "
                             "start (0: none)")
    warm_epochs: int = option(4, type=int_at_least(1), help="epochs over the warm start")
    warm_every: int = option(1, type=int_at_least(1), help="record one heuristic decision "
                             "in N (more games per record: a value that generalises)")
    positions: int = option(4000, type=int_at_least(1), help="recorded self-play positions "
                            "per iteration, at least: the games in play when they are "
                            "reached are played to their end")
    games: int = option(32, type=int_at_least(1), help="self-play games played side by side")
    simulations: int = option(100, type=int_at_least(2), help="simulations of a full search")
    fast_simulations: int = option(25, type=int_at_least(1), help="simulations of a quick "
                                   "(unrecorded) search")
    full_share: float = option(0.25, type=float, help="share of decisions searched fully")
    value_blend: float = option(0.0, type=float, help="value target: this share of the "
                                "search's root value, the rest the game's outcome")
    score_share: float = option(0.0, type=float, help="the game's outcome: this share of "
                                "each seat's share of the VP, the rest who won (a denser "
                                "signal, from the rules alone)")
    root: str = option("puct", choices=("puct", "gumbel"), help="root selection of the "
                       "self-play search (gumbel: sequential halving, improved-policy "
                       "targets; agents/gumbel.py)")
    train_steps: int = option(400, type=int_at_least(1), help="learner steps per iteration")
    learner_batch: int = option(256, type=int_at_least(1), help="learner batch size")
    lr: float = option(1e-3, type=float, help="learning rate (AdamW)")
    value_weight: float = option(1.0, type=float, help="weight of the value loss beside the "
                                 "policy's (below 1: less room to learn the buffer's few "
                                 "games by heart)")
    replay: int = option(100_000, type=int_at_least(1), help="replay buffer capacity")
    rate_every: int = option(5, type=int_at_least(1), help="iterations between ratings")
    rate_games: int = option(40, type=int_at_least(1), help="rating games per agent")
    rate_simulations: int = option(100, type=int_at_least(2), help="az simulations when "
                                   "rated")
    rate_mcts_games: int = option(20, type=int_at_least(0), help="rating games of az "
                                  "against mcts:400 (0: none; a Voyage game takes ~40 s)")
    rate_prev_games: int = option(0, type=int_at_least(0), help="rating games of az "
                                  "against the previous rated net's az, same search (at 3-4 "
                                  "players: one seat against it in the others; 0: none)")
    gate: bool = option(False, help="keep a rated net only when its az beat its "
                        "predecessor's (more than the fair share of --rate-prev-games "
                        "games); else train on from the predecessor's weights")
    actors: int = option(0, type=int_at_least(0), help="self-play actors on Ray (with "
                         "--backend ray; 0: self-play in this process)")
    address: str | None = option(None, help="Ray cluster address (with --backend rllib "
                                 "or ray)", show="a local Ray")
    device: str = option("auto", choices=("auto", "cpu", "cuda"), help="learner device "
                         "(alphazero; auto: CUDA when torch sees one)")
    threads: int = option(1, type=int_at_least(1), help="torch threads of the learner")
    progress: bool = rf.progress()

    def __post_init__(self):
        from tradewinds import registry

        g = registry.game(self.game)
        self.players = g.check_players(self.players)
        if not 0.0 < self.full_share <= 1.0:
            raise ValueError(f"full_share must be in (0, 1], got {self.full_share!r}")
        if self.fast_simulations > self.simulations:
            raise ValueError("fast_simulations must not exceed simulations")
        for name in ("value_blend", "score_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if not self.value_weight > 0.0:
            raise ValueError(f"value_weight must be positive, got {self.value_weight!r}")
        if self.init_replay is not None and self.init is None:
            raise ValueError("--init-replay fills the buffer of a run started from --init NET")
        if self.init_fill and self.init is None:
            raise ValueError("--init-fill fills the buffer of a run started from --init NET")
        if self.from_scratch and (self.hint or self.init_fill or self.init_replay):
            raise ValueError("--from-scratch uses no heuristic: drop --hint, --init-fill and "
                             "--init-replay")
        if self.gate and not self.rate_prev_games:
            raise ValueError("--gate compares each rated net with its predecessor: give "
                             "--rate-prev-games")
        if self.out is None:
            self.out = f"results/train/az_{self.game}_{self.players}p"
        self.out = str(self.out)

    def settings(self) -> dict:
        """What must match when a run is resumed."""
        keep = ("game", "players", "width", "blocks", "seed")
        return {k: v for k, v in asdict(self).items() if k in keep}


COMMAND_SKIPS = ("game", "players", "out", "resume", "progress", "device", "threads",
                 "actors", "address")
"""Settings the command line spells otherwise, or that do not change what is trained."""


def command_line(c: AlphaZeroConfig, resume: bool = False) -> str:
    """The command that trains run `c` (continues it, with `resume`): every setting that is
    not the default."""
    from dataclasses import fields

    words = [f"tradewinds train {c.game} --algo alphazero --players {c.players}"]
    if resume:
        words.append("--resume")
    if c.actors:
        words.append(f"--backend ray --actors {c.actors}")
    for f in fields(c):
        value = getattr(c, f.name)
        if f.name not in COMMAND_SKIPS and value != f.default:
            flag = f"--{f.name.replace('_', '-')}"
            words.append(flag if value is True else f"{flag} {value}")    # a switch alone
    return " ".join(words + [f"--out {c.out}"])


def commands_until(state: dict, iteration: int) -> str:
    """The run's commands that trained it up to `iteration`, joined by ``&&``: the first,
    and each resume that started before `iteration`."""
    commands = state.get("commands", [])
    return " && ".join(e["command"] for k, e in enumerate(commands)
                       if k == 0 or e["from_iteration"] < iteration)


class Run:
    """One AlphaZero run: learner, self-play, buffer and the run's files."""

    def __init__(self, config: AlphaZeroConfig, console=None):
        import torch

        from tradewinds import registry
        from tradewinds.agents import pvnet
        from tradewinds.training.alphazero.learner import Learner
        from tradewinds.training.alphazero.replay import ReplayBuffer

        self.config = c = config
        self.console = console
        self.out = Path(c.out)
        self.game = g = registry.game(c.game)
        torch.set_num_threads(c.threads)
        self.net_config = pvnet.NetConfig(c.game, c.players, g.obs_size, g.num_actions,
                                          c.width, c.blocks, c.hint)
        self.learner = Learner(self.net_config, lr=c.lr, value_weight=c.value_weight,
                               device=c.device, seed=c.seed)
        self.buffer = ReplayBuffer(c.replay, self.net_config.input_size, g.num_actions)
        self.state = {"iteration": 0, "next_seed": 0, "seconds": 0.0, "core_seconds": 0.0,
                      "positions": 0, "games": 0, "warm": False, "gen": None}
        state_file = self.out / "state.json"
        if state_file.exists() and not c.resume:
            raise FileExistsError(f"{state_file} exists: pass --resume to continue that run, "
                                  f"or choose another --out")
        if c.resume and state_file.exists():
            stored = ck.read_json(self.out / "config.json")
            self._restore()
            self._record_command(command_line(AlphaZeroConfig(**stored)))
        else:
            self.state["commands"] = [{"from_iteration": 0, "command": command_line(c)}]
        ck.write_json(self.out / "config.json", asdict(c))    # the settings now in force
        self.gen = np.random.default_rng(c.seed)
        if self.state["gen"] is not None:
            self.gen.bit_generator.state = self.state["gen"]
        self._selfplay = None

    def _record_command(self, first: str) -> None:
        """A resume with other settings joins the run's commands (a run trained in stages
        is reproduced by all of them in turn); a run from before this record starts from
        its stored settings."""
        commands = self.state.setdefault("commands", [{"from_iteration": 0, "command": first}])
        now = command_line(self.config, resume=True)
        if now != commands[-1]["command"]:
            commands.append({"from_iteration": self.state["iteration"], "command": now})
            ck.write_json(self.out / "state.json", self.state)

    def say(self, text: str) -> None:
        if self.console is not None:
            self.console.print(text)

    def _restore(self) -> None:
        import torch

        from tradewinds.training.alphazero.replay import ReplayBuffer

        ck.check_resumable(self.config.settings(), self.out / "config.json")
        hint = ck.read_json(self.out / "config.json").get("hint", "")   # runs from before
        if hint != self.config.hint:
            raise ValueError(f"--resume: hint is {self.config.hint!r} here but {hint!r} in "
                             f"{self.out / 'config.json'}; use another --out")
        self.state = ck.read_json(self.out / "state.json")
        self.learner.load_state_dict(torch.load(self.out / "learner.pt", weights_only=False))
        replay = self.out / "replay.npz"
        if replay.exists():
            g = self.game
            self.buffer = ReplayBuffer.load(replay, self.config.replay,
                                            self.net_config.input_size, g.num_actions)
        else:
            self.say(f"resuming without {replay}: the replay buffer starts empty")

    @property
    def selfplay(self):
        from tradewinds.training.alphazero.selfplay import SelfPlay, SelfPlayConfig

        c = self.config
        if self._selfplay is None:
            config = SelfPlayConfig(games=c.games, simulations=c.simulations,
                                    fast_simulations=c.fast_simulations,
                                    full_share=c.full_share, value_blend=c.value_blend,
                                    score_share=c.score_share, root=c.root)
            if c.actors:
                from tradewinds.training.alphazero.actors import RayActors

                self._selfplay = RayActors(self.game, c.players, self.learner.weights(),
                                           config, c.actors, c.address)
            else:
                self._selfplay = SelfPlay(self.game, c.players, self.learner.weights(), config)
        return self._selfplay

    def warm_start(self) -> dict:
        from tradewinds.training.alphazero.warmstart import heuristic_records

        c = self.config
        t0, c0 = time.perf_counter(), time.process_time()
        records = heuristic_records(self.game, c.players, c.warm_games, seed=2**41 + c.seed,
                                    every=c.warm_every, hint=bool(c.hint),
                                    score_share=c.score_share)
        held = heuristic_records(self.game, c.players, max(20, c.warm_games // 20),
                                 seed=2**42 + c.seed, every=c.warm_every, hint=bool(c.hint),
                                 score_share=c.score_share)
        losses = self.learner.fit(records, c.warm_epochs, c.learner_batch, self.gen)
        check = self.learner.evaluate(held)
        # The buffer starts with the heuristic's positions (a random sample that fills it,
        # or all of them): the first self-play games alone are too few for the value head,
        # which then learns their outcomes by heart.
        keep = self.gen.permutation(len(records["obs"]))[:c.replay]
        self.buffer.add({k: v[np.sort(keep)] for k, v in records.items()})
        self.state["warm"] = True
        self._account(time.perf_counter() - t0, time.process_time() - c0)
        self.say(f"warm start: {len(records['obs'])} heuristic decisions of {c.warm_games} "
                 f"games; held out: agreement {check['agreement']:.3f}, value loss "
                 f"{check['value_loss']:.3f} (training {losses['value_loss']:.3f})")
        return check

    def start_from_net(self) -> dict:
        """Begin from the net file `init` (a distilled or another run's net) instead of a
        warm start, with `init_replay`'s records in the buffer; its losses on them."""
        from tradewinds.agents import pvnet
        from tradewinds.training.alphazero.replay import FIELDS

        c = self.config
        weights, config, meta = pvnet.load(c.init)
        if c.from_scratch and not meta.get("from_scratch"):
            raise ValueError(f"--from-scratch: --init {c.init} was not trained from scratch "
                             f"(its metadata says no from_scratch)")
        if (config.game, config.num_players) != (c.game, c.players):
            raise ValueError(f"--init {c.init} is a net for {config.game} at "
                             f"{config.num_players} players, not {c.game} at {c.players}")
        if (config.hidden, config.blocks) != (c.width, c.blocks):
            raise ValueError(f"--init {c.init} is {config.hidden} wide with {config.blocks} "
                             f"blocks: pass --width {config.hidden} --blocks {config.blocks}")
        if config.hint != c.hint:
            raise ValueError(f"--init {c.init} reads the hint {config.hint!r}: pass "
                             f"--hint '{config.hint}'")
        self.learner.net.load_weights(weights)
        if c.init_replay is not None:
            with np.load(c.init_replay) as data:
                self.buffer.add({k: data[k] for k in FIELDS})
        if c.init_fill:
            from tradewinds.training.alphazero.warmstart import heuristic_records

            self.buffer.add(heuristic_records(self.game, c.players, c.init_fill,
                                              seed=2**41 + c.seed, every=c.warm_every,
                                              hint=bool(c.hint), score_share=c.score_share))
        self.state["warm"] = True
        if not self.buffer.size:
            return {}
        return self.learner.evaluate(self.buffer.sample(min(self.buffer.size, 20_000),
                                                        self.gen))

    def iteration(self) -> dict:
        c, st = self.config, self.state
        t0, c0 = time.perf_counter(), time.process_time()
        sp = self.selfplay
        sp.set_weights(self.learner.weights())
        games_before = sp.games_finished
        records = sp.play(c.positions, seed=(c.seed + 1) * 10**9 + st["next_seed"])
        played = sp.games_finished - games_before
        st["next_seed"] += sp.seeds_used(c.games) if c.actors else played + c.games
        # the net's losses on games it has not learned from: beside the training losses
        # they show whether the value head learns the game or the buffer's few games
        fresh = self.learner.evaluate(records) if len(records["obs"]) else {}
        self.buffer.add(records)
        t1, c1 = time.perf_counter(), time.process_time()
        losses = self.learner.train(self.buffer, c.train_steps, c.learner_batch, self.gen)
        st["iteration"] += 1
        st["positions"] += len(records["obs"])
        st["games"] += played
        # the actors' cores while they play; in one process, its own CPU time
        self._account(t1 - t0, (t1 - t0) * c.actors if c.actors else c1 - c0)
        self._account(time.perf_counter() - t1, time.process_time() - c1)
        return {**losses, **{f"fresh_{k}": fresh[k] for k in ("policy_loss", "value_loss")
                             if k in fresh}}

    def _account(self, seconds: float, core_seconds: float) -> None:
        """Wall-clock seconds and core-seconds: this process's CPU time (honest on a busy
        machine), or the actors' cores for the time they played."""
        self.state["seconds"] += seconds
        self.state["core_seconds"] += core_seconds

    def rating_opponents(self) -> list[str]:
        """Whom the raw net and `az` are rated against: the heuristic, or from scratch
        random and, where the game has one, the heuristic (reported, never trained on)."""
        from tradewinds.agents.heuristic import has_heuristic

        if not self.config.from_scratch:
            return ["heuristic"]
        return ["random"] + (["heuristic"] if has_heuristic(self.game) else [])

    def rate(self) -> dict:
        from tradewinds.training.alphazero.rating import win_share

        c = self.config
        path = str(self.out / "net.npz")
        search = {"simulations": c.rate_simulations}
        found = {}
        for opponent in self.rating_opponents():
            net = win_share(f"net:{path}", opponent, c.game, c.players, c.rate_games)
            az = win_share(f"az:{path}", opponent, c.game, c.players, c.rate_games,
                           agent_kwargs=search)
            tag = "" if opponent == "heuristic" else f"_{opponent}"
            found.update({f"net_vs_{opponent}": net.rate, f"net{tag}_low": net.low,
                          f"net{tag}_high": net.high, f"az_vs_{opponent}": az.rate,
                          f"az{tag}_low": az.low, f"az{tag}_high": az.high})
        if c.rate_mcts_games:
            vs = win_share(f"az:{path}", MCTS_OPPONENT, c.game, c.players, c.rate_mcts_games,
                           agent_kwargs=search,
                           opponent_kwargs=RANDOM_ROLLOUTS if c.from_scratch else None)
            found.update(az_vs_mcts=vs.rate, az_mcts_low=vs.low, az_mcts_high=vs.high)
        prev = self.predecessor()
        if c.rate_prev_games and prev is not None:
            vs = win_share(f"az:{path}", f"az:{prev[1]}", c.game, c.players,
                           c.rate_prev_games, agent_kwargs=search, opponent_kwargs=search)
            found.update(prev_iteration=prev[0], az_vs_prev=vs.rate, az_prev_low=vs.low,
                         az_prev_high=vs.high)
        return found

    def predecessor(self) -> tuple[int, Path] | None:
        """The last rated net before this iteration (nets/net_<iteration>.npz), if any."""
        now = self.state["iteration"]
        kept = sorted((int(f.stem.split("_")[1]), f) for f in (self.out / "nets").glob("net_*.npz"))
        older = [(i, f) for i, f in kept if i < now]
        return older[-1] if older else None

    def checkpoint(self) -> None:
        import torch

        from tradewinds.agents import pvnet

        st = self.state
        meta = {"iteration": st["iteration"], "positions": st["positions"],
                "games": st["games"], "core_hours": st["core_seconds"] / 3600,
                "command": self.command()}
        if self.config.from_scratch:
            meta["from_scratch"] = True
        pvnet.save(self.out / "net.npz", self.learner.weights(), self.net_config, meta)
        ck.atomic_write(self.out / "learner.pt",
                        lambda tmp: torch.save(self.learner.state_dict(), tmp))
        self.buffer.save(self.out / "replay.npz")
        st["gen"] = self.gen.bit_generator.state
        ck.write_json(self.out / "state.json", st)

    def command(self) -> str:
        """The commands that trained this run, in turn, joined by ``&&``."""
        return commands_until(self.state, self.state["iteration"]) or command_line(self.config)

    def log(self, row: dict) -> None:
        from tradewinds.training import curve

        path = self.out / "log.csv"
        ck.append_row(path, LOG_COLUMNS, {k: row.get(k, "") for k in LOG_COLUMNS})
        rows = ck.read_rows(path)
        mcts = MCTS_OPPONENT + (" (random rollouts)" if self.config.from_scratch else "")
        curve.draw_alphazero(rows, self.out / "curve.png", mcts=mcts,
                             title=f"AlphaZero {self.config.game}, {self.config.players} players")


def train(config: AlphaZeroConfig, console=None, budget_core_hours: float | None = None) -> dict:
    """Run (or resume) `config` to its iteration count, or until the run has spent
    `budget_core_hours` more (checked after each iteration; resume to go on); returns the
    final state. The warm started net is rated as iteration 0, so the curve starts where
    self-play starts."""
    run = Run(config, console)
    stop_at = (None if budget_core_hours is None
               else run.state["core_seconds"] + 3600 * budget_core_hours)
    c, st = config, run.state
    if not st["warm"] and (c.init or c.warm_games or c.from_scratch):
        if c.init:
            check = run.start_from_net()
        elif c.from_scratch:           # the random net is iteration 0: the curve's start
            check, st["warm"] = {}, True
        else:
            check = run.warm_start()
        _checkpoint(run, {"iteration": 0, **_progress(st), **check})
    row = _unlogged(run)
    if row is not None:            # the new warm start's, or a run stopped while rating
        _rate_and_log(run, row, rate=_due(c, row["iteration"]))
    from rich.progress import Progress

    with Progress(disable=not c.progress) as bar:
        task = bar.add_task("alphazero", total=c.iterations, completed=st["iteration"])
        while st["iteration"] < c.iterations:
            losses = run.iteration()
            row = {"iteration": st["iteration"], **_progress(st), **losses}
            _checkpoint(run, row)
            _rate_and_log(run, row, rate=_due(c, st["iteration"]))
            bar.update(task, completed=st["iteration"])
            if stop_at is not None and st["core_seconds"] >= stop_at:
                run.say(f"budget spent at iteration {st['iteration']}: resume to go on")
                break
    return st


def _due(c: AlphaZeroConfig, iteration: int) -> bool:
    return iteration % c.rate_every == 0 or iteration == c.iterations


def _unlogged(run: Run) -> dict | None:
    """The row of a checkpoint that was never logged: kept in state.json, or (a state from
    before rows were kept there) the progress alone, its losses lost."""
    st, path = run.state, run.out / "log.csv"
    if st.get("unlogged"):
        return st["unlogged"]
    logged = [int(r["iteration"]) for r in ck.read_rows(path)] if path.is_file() else []
    if st["warm"] and (not logged or max(logged) < st["iteration"]):
        return {"iteration": st["iteration"], **_progress(st)}
    return None


def _checkpoint(run: Run, row: dict) -> None:
    """Checkpoint an iteration with its log row waiting in state.json until it is logged,
    so a run stopped while rating rates that checkpoint on resume: with `gate`, no
    generation goes on unjudged."""
    run.state["unlogged"] = {k: (float(v) if isinstance(v, np.floating) else v)
                             for k, v in row.items()}
    run.checkpoint()


def _rate_and_log(run: Run, row: dict, rate: bool) -> None:
    """Rate the checkpoint (when due), log its row, and drop the waiting row."""
    if rate:
        row = _rated(run, row)
    run.log(row)
    run.state.pop("unlogged", None)
    ck.write_json(run.out / "state.json", run.state)


def _progress(st: dict) -> dict:
    return {"seconds": round(st["seconds"], 1), "core_hours": round(st["core_seconds"] / 3600, 4),
            "positions": st["positions"], "games": st["games"]}


def _rated(run: Run, row: dict) -> dict:
    """Rate the checkpoint just written and keep a copy of its net, nets/net_<iteration>.npz:
    the strongest rated net, not the last, is the one to ship. With `gate`, a net whose az
    did not beat its predecessor's is kept as nets/rejected_<iteration>.npz instead, and the
    learner goes back to the predecessor's weights (`reject`)."""
    row = {**row, **run.rate()}
    lost = (run.config.gate and row.get("az_vs_prev") is not None
            and row["az_vs_prev"] <= 1.0 / run.config.players)
    name = "rejected" if lost else "net"
    kept = run.out / "nets" / f"{name}_{row['iteration']:04d}.npz"
    ck.atomic_write(kept, lambda tmp: shutil.copyfile(run.out / "net.npz", tmp))
    run.say(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()
                        if k in LOG_COLUMNS}))
    if lost:
        reject(run, row["iteration"], row["prev_iteration"])
    return row


def reject(run: Run, iteration: int, back_to: int) -> None:
    """Gating (AlphaGo Zero's evaluator): the learner takes the weights of the rated net
    `back_to` again and the checkpoint is rewritten with them; the buffer keeps the
    rejected net's games. state.json lists the rejected iterations."""
    from tradewinds.agents import pvnet

    weights, _, _ = pvnet.load(run.out / "nets" / f"net_{back_to:04d}.npz")
    run.learner.net.load_weights(weights)
    run.state.setdefault("rejected", []).append(iteration)
    run.checkpoint()
    run.say(f"iteration {iteration} lost to iteration {back_to}: back to its weights")
