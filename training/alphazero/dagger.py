"""DAgger for the raw policy: the net plays, the heuristic labels the positions it reaches.

    tradewinds train dagger agents/nets/voyage_2p.npz --rounds 3 \\
        --games 2000 --every 10 --out results/dagger/voyage_2p

A net fitted to the heuristic's decisions in heuristic games agrees with it on held-out
positions of such games, but when it plays, its few departures take it to positions the
heuristic never reaches, where it agrees far less, and the raw policy loses (docs/
alphazero.md measures both). DAgger (Ross, Gordon and Bagnell, 2011) closes that gap: each
round plays `--games` games in which every non-forced decision is the current net's with
probability 1 - beta**round (the heuristic's otherwise), records the heuristic's choice at
one non-forced decision in `--every` (`warmstart.heuristic_records` with a net), and
fits the net further on those records together with as many records of heuristic games
(the warm start's own positions, so it keeps what it knew). Value targets are the
outcomes of the games the records come from.

A copy of the heuristic can at best play as well as the heuristic. With ``--search N``
the labels at the positions where the heuristic's choice is not one of the
``--search-skip`` families (the Voyage move steps by default, nine decisions in ten) are
the most visited action of the seat's `mcts:<N>` instead
(`search_teacher.search_labels`): the search where it departs from the heuristic, the
heuristic where it almost never does (docs/agents.md). With ``--az-teacher NET`` every
recorded position is labelled by that net's own search (`az:NET` with the net's settings,
or ``--az-simulations`` / ``--az-judge``; its visit shares as soft targets;
`search_teacher.az_labels`) instead of the heuristic: the raw policy learns
the search's choices at the positions the raw policy itself reaches, Expert Iteration's
apprentice step on the apprentice's own games. ``--aggregate`` keeps every
round's searched positions (``OUT/searched_<r>.npz``) and fits each round on all of them
with its own records: DAgger's aggregated data set, for the labels that are dear.

Every round's net is written to ``OUT/round_<r>.npz`` atomically, with its agreement on
positions the net itself reaches (held-out games, before and after the fit) and its win
share against the heuristic in ``OUT/log.csv``. A round's records are a function of the
previous round's net and the seeds only, so `--resume` refits nothing: it reloads the last
written round and goes on.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from tradewinds import cli_args
from tradewinds.agents import pvnet
from tradewinds.training import checkpoints as ck

COLUMNS = ["round", "beta", "records", "searched", "agree_before", "agree_after", "policy_loss",
           "value_loss", "win_share", "win_low", "win_high", "rate_games", "core_hours"]
GAME_SEEDS = 3 * 2**40          # round r plays seeds GAME_SEEDS + r * 10**7 + i
HELD_SEEDS = 2**43 + 11         # the on-policy check: the net alone, these seeds
WARM_SEEDS = 2**41              # the warm start's own games (`loop.warm_start`, seed 0)


def mixed(a: dict, b: dict, share: float, gen: np.random.Generator) -> dict:
    """The records of `a` and `share` times as many of `b` (a random draw, at most all)."""
    size = min(int(round(share * len(a["obs"]))), len(b["obs"]))
    take = gen.choice(len(b["obs"]), size=size, replace=False)
    return {k: np.concatenate([a[k], b[k][take]]) for k in a}


class Run:
    """One DAgger run: its settings, where it stands and its learner."""

    def __init__(self, args, say=print):
        import torch

        from tradewinds import registry
        from tradewinds.training.alphazero.learner import Learner

        torch.set_num_threads(1)
        self.args, self.say = args, say
        weights, self.config, self.meta = pvnet.load(args.init)
        if args.hint and not self.config.hint:
            weights, self.config = pvnet.with_hint(weights, self.config, args.hint)
        elif args.hint and args.hint != self.config.hint:
            raise ValueError(f"--hint {args.hint}: {args.init} reads the hint "
                             f"{self.config.hint!r}")
        self.hint = bool(self.config.hint)
        self.game = registry.game(self.config.game)
        self.n = self.config.num_players
        self.learner = Learner(self.config, lr=args.lr, device=args.device, seed=args.seed)
        self.done, self.base = 0, None
        if args.search and args.az_teacher:
            raise ValueError("--search and --az-teacher are two teachers: give one")
        if args.az_teacher:
            teacher = pvnet.load(args.az_teacher)[1]
            if (teacher.game, teacher.num_players) != (self.config.game, self.n):
                raise ValueError(f"--az-teacher {args.az_teacher} is a net for "
                                 f"{teacher.game} at {teacher.num_players} players, not "
                                 f"{self.config.game} at {self.n}")
        if args.search:
            try:
                cli_args.action_families(self.game, args.search_skip)
            except ValueError as e:
                raise ValueError(f"--search-skip: {e}") from None
        self.learner.net.load_weights(weights)
        if args.resume:
            self.done = self._last_round()

    def _last_round(self) -> int:
        """The last finished round, its learner (net and optimizer) restored and the log
        cut back to it; a round cut short is played again (its records depend only on
        the net before it)."""
        out = self.args.out
        if not (out / "learner.pt").is_file():
            return 0
        snap = ck.load_snapshot(out / "learner.pt")
        self.learner.load_state_dict(snap["learner"])
        last = int(snap["round"])
        rows = [r for r in ck.read_rows(out / "log.csv") if int(r["round"]) < last]
        ck.write_rows(out / "log.csv", COLUMNS, rows + [snap["row"]])
        self.say(f"resuming after round {last}")
        return last

    def held_out(self, weights) -> dict:
        """Positions the net reaches playing alone, with the heuristic's choices."""
        from tradewinds.training.alphazero.warmstart import heuristic_records

        return heuristic_records(self.game, self.n, self.args.held_games, seed=HELD_SEEDS,
                                 every=self.args.every, net=weights, beta=0.0, hint=self.hint)

    def rate(self, path: Path):
        from tradewinds.training.alphazero.rating import win_share

        return win_share(f"net:{path}", "heuristic", self.game.name, self.n,
                         self.args.rate_games)

    @property
    def labels_searched(self) -> bool:
        return bool(self.args.search or self.args.az_teacher)

    def searched(self, records: dict, gen: np.random.Generator) -> tuple[dict, np.ndarray]:
        """`records` with the search's most visited action as the label wherever the
        heuristic's is not a `--search-skip` family, or with `--az-teacher` the teacher's
        visit shares everywhere; (records, the searched rows)."""
        from tradewinds.training.alphazero.search_teacher import (
            az_labels,
            rows_to_search,
            search_labels,
        )

        found = {k: records[k] for k in ("obs", "mask", "policy", "value")}
        if self.args.az_teacher:
            found["policy"] = az_labels(self.game, str(self.args.az_teacher), records["state"],
                                        gen, self.args.az_simulations,
                                        judge=self.args.az_judge)
            return found, np.arange(len(found["obs"]))
        pick = rows_to_search(self.game, found["policy"].argmax(1), self.args.search_skip)
        if self.args.search and len(pick):
            shares, _ = search_labels(self.game, records["state"][pick],
                                      records["mask"][pick], self.args.search, gen)
            found["policy"] = found["policy"].copy()
            found["policy"][pick] = 0.0
            found["policy"][pick, shares.argmax(1)] = 1.0
        return found, pick if self.args.search else pick[:0]

    def aggregated(self, r: int, new: dict, pick: np.ndarray) -> dict:
        """With --aggregate: round r's searched rows written to ``searched_<r>.npz``, and
        `new` joined by the searched rows of rounds 1..r-1 (read back from their files)."""
        if not self.args.aggregate:
            return new
        ck.save_arrays(self.args.out / f"searched_{r}.npz", {k: new[k][pick] for k in new})
        parts = [new]
        for k in range(1, r):
            with np.load(self.args.out / f"searched_{k}.npz") as f:
                parts.append({key: f[key] for key in new})
        return {key: np.concatenate([p[key] for p in parts]) for key in new}

    def one_round(self, r: int) -> dict:
        from tradewinds.training.alphazero.warmstart import heuristic_records

        a, t0 = self.args, time.perf_counter()
        gen = np.random.default_rng([a.seed, r])
        beta = a.beta ** r
        weights = self.learner.weights()
        new = heuristic_records(self.game, self.n, a.games, seed=GAME_SEEDS + r * 10**7,
                                every=a.every, keep_states=self.labels_searched, net=weights,
                                beta=beta, hint=self.hint)
        new, pick = self.searched(new, gen)
        fitted = self.aggregated(r, new, pick)
        if self.base is None and a.warm_share > 0:
            self.base = heuristic_records(self.game, self.n, a.warm_games, seed=WARM_SEEDS,
                                          every=a.warm_every, hint=self.hint)
        held = self.held_out(weights)
        before = self.learner.evaluate(held)["agreement"]
        mix = mixed(fitted, self.base, a.warm_share, gen) if self.base is not None else fitted
        losses = self.learner.fit(mix, a.epochs, a.batch, gen)
        after = self.learner.evaluate(held)["agreement"]
        path = a.out / f"round_{r}.npz"
        pvnet.save(path, self.learner.weights(), self.config, self.metadata(r))
        rated = self.rate(path)
        row = {"round": r, "beta": round(beta, 4), "records": len(fitted["obs"]),
               "searched": len(pick),
               "agree_before": round(before, 4), "agree_after": round(after, 4),
               "policy_loss": round(losses["policy_loss"], 4),
               "value_loss": round(losses["value_loss"], 4),
               "win_share": round(rated.rate, 4), "win_low": round(rated.low, 4),
               "win_high": round(rated.high, 4), "rate_games": a.rate_games,
               "core_hours": round((time.perf_counter() - t0) / 3600, 4)}
        # the round is done when its snapshot is written; the log row follows it
        ck.save_snapshot({"round": r, "row": row, "learner": self.learner.state_dict()},
                         a.out / "learner.pt")
        ck.append_row(a.out / "log.csv", COLUMNS, row)
        self.say(f"round {r} (beta {beta:.3f}): {row['records']:,} records; agreement on "
                 f"the net's own positions {before:.3f} -> {after:.3f}; net against the "
                 f"heuristic {rated.rate:.3f} [{rated.low:.3f}, {rated.high:.3f}]")
        return row

    def metadata(self, r: int) -> dict:
        here = f"{self.args.prog} " + shlex.join(self.args.argv)
        before = self.meta.get("command")
        return {**{k: v for k, v in self.meta.items() if k not in ("rated", "command")},
                "command": f"{before} && {here}" if before else here,
                "dagger": {"round": r, "init": str(self.args.init),
                           "init_rated": self.meta.get("rated")}}

    def go(self) -> list[dict]:
        rows = []
        if self.done == 0 and not (self.args.out / "log.csv").is_file():
            # round 0: the starting net, rated the same way
            held = self.held_out(self.learner.weights())
            rated = self.rate(self.args.init)
            row = dict.fromkeys(COLUMNS, "")
            row.update(round=0, agree_after=round(self.learner.evaluate(held)["agreement"], 4),
                       win_share=round(rated.rate, 4), win_low=round(rated.low, 4),
                       win_high=round(rated.high, 4), rate_games=self.args.rate_games)
            ck.append_row(self.args.out / "log.csv", COLUMNS, row)
            self.say(f"round 0: agreement on the net's own positions "
                     f"{row['agree_after']:.3f}; net against the heuristic "
                     f"{rated.rate:.3f} [{rated.low:.3f}, {rated.high:.3f}]")
        for r in range(self.done + 1, self.args.rounds + 1):
            rows.append(self.one_round(r))
        return rows


def parser(prog="python -m tradewinds.training.alphazero.dagger") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("init", type=Path, help="the net to start from (.npz)")
    ap.add_argument("--rounds", type=cli_args.int_at_least(1), default=3)
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=2000,
                    help="games per round")
    ap.add_argument("--every", type=cli_args.int_at_least(1), default=10,
                    help="record one non-forced decision in this many")
    ap.add_argument("--beta", type=float, default=0.5,
                    help="round r plays the heuristic's move with probability beta**r")
    ap.add_argument("--search", type=cli_args.int_at_least(0), default=0,
                    help="label with mcts:<N> where the heuristic's choice is not skipped")
    ap.add_argument("--search-skip", nargs="*", default=["move"],
                    help="action families (name prefixes) the heuristic keeps labelling")
    ap.add_argument("--az-teacher", type=Path, default=None,
                    help="label every recorded position with this net's own search "
                         "(az:<net>, its visit shares) instead of the heuristic")
    ap.add_argument("--az-simulations", type=cli_args.int_at_least(2), default=None,
                    help="the teacher's simulations (default: its net's own setting)")
    ap.add_argument("--az-judge", type=float, default=None,
                    help="the share of the game's judgement in the teacher's leaf values "
                         "(default: its net's own setting)")
    ap.add_argument("--aggregate", action="store_true",
                    help="fit every round on the searched positions of all rounds so far")
    ap.add_argument("--warm-games", type=cli_args.int_at_least(1), default=12000,
                    help="heuristic games whose records are mixed in (the warm start's)")
    ap.add_argument("--warm-every", type=cli_args.int_at_least(1), default=10)
    ap.add_argument("--warm-share", type=float, default=1.0,
                    help="heuristic records mixed in per record of the round")
    ap.add_argument("--epochs", type=cli_args.int_at_least(1), default=2)
    ap.add_argument("--batch", type=cli_args.int_at_least(1), default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--held-games", type=cli_args.int_at_least(1), default=100,
                    help="games of the net alone for the on-policy agreement")
    ap.add_argument("--rate-games", type=cli_args.int_at_least(1), default=400)
    ap.add_argument("--hint", choices=[h for h in pvnet.HINTS if h], default=None,
                    help="widen a net without a hint to read this one (agents.net_input)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--out", type=Path, required=True, help="the run's folder")
    return ap


def main(argv=None, prog="python -m tradewinds.training.alphazero.dagger") -> int:
    ap = parser(prog)
    args = ap.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    args.prog = prog                      # the command as typed, for the net's record
    if not args.init.is_file():
        ap.exit(2, f"error: no net file at {args.init}\n")
    if not 0.0 <= args.beta <= 1.0:
        ap.exit(2, f"error: --beta must be in [0, 1], got {args.beta!r}\n")
    if args.az_judge is not None:
        from tradewinds.agents.az_search import SearchConfig

        try:
            SearchConfig(judge=args.az_judge).check()     # the bounds az holds a search to
        except ValueError as e:
            ap.exit(2, f"error: --az-judge: {e}\n")
    if args.aggregate and not (args.search or args.az_teacher):
        ap.exit(2, "error: --aggregate keeps searched positions: give --search N or "
                   "--az-teacher NET\n")
    if args.az_teacher is not None and not args.az_teacher.is_file():
        ap.exit(2, f"error: no teacher net file at {args.az_teacher}\n")
    if not args.warm_share >= 0.0:
        ap.exit(2, f"error: --warm-share must be >= 0, got {args.warm_share!r}\n")
    settings = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                if k not in ("resume", "rounds", "argv", "prog", "device")}
    config_file = args.out / "config.json"
    try:
        if config_file.is_file() and not args.resume:
            raise ValueError(f"{args.out} holds a run; --resume it or use another --out")
        if config_file.is_file():
            ck.check_resumable(settings, config_file)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    try:
        run = Run(args)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    ck.write_json(config_file, settings)
    run.go()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
