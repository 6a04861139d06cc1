"""A net taught by the rollout search: `mcts:<N>`'s visit counts and root values as targets.

    tradewinds train search-teacher voyage --players 2 --games 600 --every 10 \\
        --simulations 400 --workers 2 --labels results/search/voyage_2p \\
        --init agents/nets/voyage_2p.npz --epochs 4 --value-blend 0.5 \\
        --out results/search/voyage_2p.npz

Where the net's own search is the weaker teacher (the Voyage game: its IS-MCTS with
heuristic rollouts and endgame playouts beats the heuristic where the net-guided search
does not yet), the net learns from that search instead. Positions come from heuristic
games (one non-forced decision in `every`, as the warm start takes them); at each, the
seat's SO-ISMCTS (`agents.ismcts.search`, the game's `mcts` settings, from the seat's
own information set) gives a visit distribution, the policy target, and its root value,
which with `--value-blend b` makes b of the value target (the rest: the game's outcome).
Labels are written in chunks of `--chunk` games, each file atomically, so a stopped
labelling resumes where it was; a chunk's labels depend only on its seeds, not on how
many workers made them. The fit starts from `--init` (a shipped net) or a fresh net,
holds out the last chunk's games and prints the held-out agreement with the search.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from tradewinds import cli_args
from tradewinds.agents import pvnet

FIELDS = ("obs", "mask", "policy", "outcome", "q")


def label_chunk(game_name: str, num_players: int, first_seed: int, games: int, every: int,
                simulations: int) -> dict:
    """Heuristic games first_seed.. and, at their recorded positions, the search's visit
    distribution (policy), the game's outcome by relative seat and the root value (q)."""
    from tradewinds import registry
    from tradewinds.training.alphazero.warmstart import heuristic_records

    game = registry.game(game_name)
    found = heuristic_records(game, num_players, games, seed=first_seed, every=every,
                              keep_states=True)
    policy, q = search_labels(game, found["state"], found["mask"], simulations,
                              np.random.default_rng([first_seed, 0x7EAC]))
    return {"obs": found["obs"], "mask": found["mask"], "policy": policy,
            "outcome": found["value"], "q": q}


def search_labels(game, states: np.ndarray, masks: np.ndarray, simulations: int,
                  gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """At each state, the deciding seat's `mcts:<simulations>` (the game's settings, from
    its own information set): the root's visit shares and its value for that seat."""
    from tradewinds.agents import heuristic, ismcts

    settings = {**ismcts.GENERIC, **ismcts.DEFAULTS.get(game.name, {})}
    n = len(states)
    policy = np.zeros((n, game.num_actions), np.float32)
    q = np.zeros(n, np.float32)
    for i in range(n):
        state = states[i]
        mask = masks[i].astype(np.int8)
        _, tree = ismcts.search(game, state, game.current_player(state),
                                heuristic.rng_key(gen), simulations, settings["c"],
                                settings["rollout"], None, mask, settings["depth"],
                                settings["scale"], settings["prior"])
        kids = tree.children[0]
        seen = np.flatnonzero(kids >= 0)
        visits = tree.visits[kids[seen]].astype(np.float64)
        policy[i, seen] = visits / visits.sum()
        q[i] = tree.value[kids[seen]].sum() / visits.sum()
    return policy, q


def az_labels(game, teacher: str, states: np.ndarray, gen: np.random.Generator,
              simulations: int | None = None, batch: int = 64,
              judge: float | None = None) -> np.ndarray:
    """At each state, the deciding seat's `az:<teacher>` search (the teacher net's own
    search settings, `simulations` and `judge` where given; from the seat's own
    information set, no root noise): the root's visit shares. `batch` states are searched
    side by side."""
    from tradewinds.agents import az_search
    from tradewinds.agents.az import AlphaZeroAgent

    agent = AlphaZeroAgent(game.name, spec=teacher, simulations=simulations, judge=judge)
    weights, config, meta = pvnet.load(teacher)
    if config.game != game.name:
        raise ValueError(f"teacher {teacher} is a {config.game} net, not {game.name}'s")
    searcher = az_search.Searcher(game, weights, batch, agent.search_config(meta))
    policy = np.zeros((len(states), game.num_actions), np.float32)
    for first in range(0, len(states), batch):
        roots = np.ascontiguousarray(states[first:first + batch])
        players = np.array([game.current_player(s) for s in roots], np.int64)
        keys = gen.integers(-(2**31), 2**31, size=(len(roots), 2)).astype(np.int32)
        visits = searcher.run(roots, players, keys).astype(np.float64)
        policy[first:first + len(roots)] = visits / visits.sum(1, keepdims=True)
    return policy


def rows_to_search(game, choices: np.ndarray, skip) -> np.ndarray:
    """The rows whose recorded choice (an action id per row) is not of the `skip`
    families: where the search, not the heuristic, labels (DAgger's `--search`)."""
    prefixes = cli_args.family_prefixes(skip)
    return np.array([i for i, a in enumerate(choices)
                     if not game.action_name(int(a)).startswith(prefixes)], dtype=np.int64)


def chunk_path(labels: Path, first_seed: int) -> Path:
    return labels / f"chunk_{first_seed:08d}.npz"


def label(game_name: str, num_players: int, games: int, every: int, simulations: int,
          labels: Path, chunk: int = 20, workers: int = 1, seed: int = 0, say=print) -> list:
    """Label `games` games in chunks under `labels` (chunks already there are kept);
    returns the chunk files in seed order."""
    from tradewinds.training import checkpoints as ck

    labels.mkdir(parents=True, exist_ok=True)
    firsts = [seed + f for f in range(0, games, chunk)]
    todo = [f for f in firsts if not chunk_path(labels, f).is_file()]
    say(f"{len(firsts) - len(todo)} of {len(firsts)} chunks labelled; labelling {len(todo)}")

    def save(first, records):
        ck.save_arrays(chunk_path(labels, first), records, compressed=True)

    t0 = time.perf_counter()
    if workers <= 1:
        for first in todo:
            save(first, label_chunk(game_name, num_players, first,
                                    min(chunk, seed + games - first), every, simulations))
            say(f"chunk {first}: done, {time.perf_counter() - t0:.0f} s")
    else:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            jobs = {first: pool.submit(label_chunk, game_name, num_players, first,
                                       min(chunk, seed + games - first), every, simulations)
                    for first in todo}
            for first, job in jobs.items():
                save(first, job.result())
                say(f"chunk {first}: done, {time.perf_counter() - t0:.0f} s")
    return [chunk_path(labels, f) for f in firsts]


def load(files: list, num_players: int, value_blend: float) -> dict:
    """The labelled chunks as learner records: value = (1 - b) outcome + b root value (the
    root value is the decider's own; at 2 players the other seat's is its complement)."""
    if value_blend and num_players != 2:
        raise ValueError("--value-blend needs the other seats' root values: 2 players only")
    parts = []
    for path in files:
        with np.load(path) as data:
            parts.append({k: data[k] for k in FIELDS})
    found = {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}
    value = found["outcome"].astype(np.float32)
    if value_blend:
        root = np.zeros_like(value)
        root[:, 0], root[:, 1] = found["q"], 1.0 - found["q"]
        value = (1.0 - value_blend) * value + value_blend * root
    return {"obs": found["obs"], "mask": found["mask"], "policy": found["policy"],
            "value": value}


def fit(records: dict, held: dict, config: pvnet.NetConfig, init: Path | None,
        epochs: int, lr: float, seed: int, device: str = "auto", say=print):
    """A net fitted to the search's labels, from `init`'s weights when given; (weights,
    the held-out losses and agreement)."""
    from tradewinds.training.alphazero.learner import Learner

    learner = Learner(config, lr=lr, device=device, seed=seed)
    if init is not None:
        weights, _, _ = pvnet.load(init)
        learner.net.load_weights(weights)
        found = learner.evaluate(held)
        say(f"before: held out policy {found['policy_loss']:.4f}, value "
            f"{found['value_loss']:.4f}, agreement with the search {found['agreement']:.3f}")
    gen = np.random.default_rng(seed)
    for epoch in range(epochs):
        learner.fit(records, 1, min(256, len(records["obs"])), gen)
        found = learner.evaluate(held)
        say(f"epoch {epoch + 1}: held out policy {found['policy_loss']:.4f}, value "
            f"{found['value_loss']:.4f}, agreement with the search {found['agreement']:.3f}")
    return learner.weights(), found


def main(argv=None, prog="python -m tradewinds.training.alphazero.search_teacher") -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", type=cli_args.game_name)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=cli_args.int_at_least(2), default=600,
                    help="heuristic games whose positions the search labels")
    ap.add_argument("--every", type=cli_args.int_at_least(1), default=10,
                    help="one non-forced decision in this many")
    ap.add_argument("--simulations", type=cli_args.int_at_least(1), default=400)
    ap.add_argument("--chunk", type=cli_args.int_at_least(1), default=20,
                    help="games per labelled chunk file")
    ap.add_argument("--workers", type=cli_args.int_at_least(1), default=1)
    ap.add_argument("--labels", type=Path, required=True, help="folder of labelled chunks")
    ap.add_argument("--label-only", action="store_true", help="label, do not fit")
    ap.add_argument("--init", type=Path, default=None, help="start the fit from this net")
    ap.add_argument("--width", type=cli_args.int_at_least(1), default=512)
    ap.add_argument("--blocks", type=cli_args.int_at_least(0), default=2)
    ap.add_argument("--epochs", type=cli_args.int_at_least(1), default=4)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--value-blend", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--out", type=Path, default=None, help="the fitted net's .npz")
    args = ap.parse_args(argv)
    from tradewinds import registry

    game = registry.game(args.game)
    try:
        players = game.check_players(args.players)
        if not 0.0 <= args.value_blend <= 1.0:
            raise ValueError(f"--value-blend must be in [0, 1], got {args.value_blend!r}")
        if args.init is not None and not args.init.is_file():
            raise ValueError(f"no net file at {args.init}")
        if args.init is not None and pvnet.load(args.init)[1].hint:
            raise ValueError(f"--init {args.init} reads the heuristic's choice; the "
                             "labelled chunks hold observations only")
        if not args.label_only and args.out is None:
            raise ValueError("--out is needed unless --label-only")
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    t0 = time.perf_counter()
    files = label(args.game, players, args.games, args.every, args.simulations, args.labels,
                  args.chunk, args.workers, args.seed)
    label_core_hours = (time.perf_counter() - t0) * args.workers / 3600
    if args.label_only:
        return 0
    import torch

    torch.set_num_threads(1)
    records = load(files[:-1], players, args.value_blend)
    held = load(files[-1:], players, args.value_blend)
    if args.init is not None:
        _, config, meta = pvnet.load(args.init)
        if (config.game, config.num_players) != (args.game, players):
            ap.exit(2, f"error: --init {args.init} is a net for {config.game} at "
                       f"{config.num_players} players\n")
    else:
        config = pvnet.NetConfig(args.game, players, game.obs_size, game.num_actions,
                                 args.width, args.blocks)
        meta = {}
    print(f"{len(records['obs']):,} labelled positions, {len(held['obs']):,} held out")
    t1 = time.perf_counter()
    weights, found = fit(records, held, config, args.init, args.epochs, args.lr, args.seed,
                         args.device)
    here = f"{prog} " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    before = meta.get("command")
    out_meta = {"command": f"{before} && {here}" if before else here,
                "teacher": f"mcts:{args.simulations}",
                "search_teacher": {"positions": len(records["obs"]),
                                   "held_out": {k: round(v, 4) for k, v in found.items()},
                                   "label_core_hours_this_run": round(label_core_hours, 3),
                                   "fit_core_hours": round((time.perf_counter() - t1) / 3600,
                                                           3)},
                "init": None if args.init is None else {"file": str(args.init),
                                                        "rated": meta.get("rated")}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    print(f"wrote {pvnet.save(args.out, weights, config, out_meta)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
