"""Refit a net's value on many more games, its policy held: leaf values without playouts.

    tradewinds train value-refit agents/nets/voyage_2p.npz --games 40000 \\
        --every 40 --judge 0 --simulations 1200 --out results/nets/voyage_2p_value.npz

A warm start's value head learned the outcomes of some thousands of games and overfits
them, so the Voyage search mixes the game's own judgement into its leaf values
(``judge``): mostly a heuristic playout to the end, which costs most of a simulation.
This goes on training the whole net from its own weights on positions of many more
heuristic games (one non-forced decision in ``--every`` of each, so that the positions
of a game, which share its outcome, are few), with the games' outcomes as value targets
and the net's own masked policy as policy targets: the policy stays where it was (its
agreement with itself on held-out positions is printed) while the value learns. The
held-out losses before and after are printed and kept in the file's metadata;
`benchmarks.leaf_values` compares the refitted value with the judgement it may replace.
``--judge`` and ``--simulations`` set how `az` searches the new net (its metadata's
"search"; without them the net's own settings stay).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from tradewinds import cli_args
from tradewinds.agents import pvnet
from tradewinds.agents.az_search import SearchConfig

SEEDS = 3 * 2**40            # game seeds of the refit's positions: not the warm start's


def refit(net: Path, games: int, every: int, epochs: int, seed: int = 0, lr: float = 3e-4,
          device: str = "auto", held_out: float = 0.04, search: dict | None = None,
          say=print):
    """(weights, config, metadata): `net` trained further on `games` heuristic games'
    outcomes, its own policy as the policy target; `search` settings (judge,
    simulations) replace those of the same names in its metadata."""
    from tradewinds import registry
    from tradewinds.training.alphazero.distill import teacher_targets
    from tradewinds.training.alphazero.learner import Learner
    from tradewinds.training.alphazero.warmstart import heuristic_records

    weights, config, meta = pvnet.load(net)
    found = heuristic_records(registry.game(config.game), config.num_players, games,
                              seed=SEEDS + seed * games, every=every, hint=bool(config.hint))
    records = {**teacher_targets(weights, config, found), "value": found["value"]}
    gen = np.random.default_rng(seed)
    order = gen.permutation(len(records["obs"]))
    cut = max(1, int(held_out * len(order)))
    test = {k: v[order[:cut]] for k, v in records.items()}
    train = {k: v[order[cut:]] for k, v in records.items()}
    learner = Learner(config, lr=lr, device=device, seed=seed)
    learner.net.load_weights(weights)
    before = after = learner.evaluate(test)
    say(f"{len(order):,} positions of {games:,} games ({cut:,} held out); held out value "
        f"loss {before['value_loss']:.4f} before")
    for epoch in range(epochs):
        learner.fit(train, 1, min(256, len(train["obs"])), gen)
        after = learner.evaluate(test)
        say(f"epoch {epoch + 1}: held out value loss {after['value_loss']:.4f}, policy "
            f"agreement with the net before {after['agreement']:.4f}")
    if search:
        meta = {**meta, "search": {**meta.get("search", {}), **search}}
    out_meta = {**{k: v for k, v in meta.items() if k != "rated"},
                "value_refit": {"from": str(net), "games": games, "every": every,
                                "epochs": epochs, "lr": lr, "positions": len(order),
                                "held_out_before": round(before["value_loss"], 4),
                                "held_out": {k: round(v, 4) for k, v in after.items()},
                                "rated_before": meta.get("rated")}}
    return learner.weights(), config, out_meta


def parser(prog="python -m tradewinds.training.alphazero.value_refit") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("net", type=Path, help="the net to refit (.npz)")
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=40000,
                    help="heuristic games whose positions and outcomes are fitted")
    ap.add_argument("--every", type=cli_args.int_at_least(1), default=40,
                    help="one non-forced decision in this many")
    ap.add_argument("--epochs", type=cli_args.int_at_least(1), default=1)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--judge", type=float, default=None,
                    help="the share of the game's judgement in az's leaf values")
    ap.add_argument("--simulations", type=cli_args.int_at_least(1), default=None,
                    help="az's simulations a decision with this net")
    ap.add_argument("--out", type=Path, required=True, help="the refitted .npz")
    return ap


def main(argv=None, prog="python -m tradewinds.training.alphazero.value_refit") -> int:
    ap = parser(prog)
    args = ap.parse_args(argv)
    if not args.net.is_file():
        ap.exit(2, f"error: no file at {args.net}\n")
    search = {k: v for k, v in (("judge", args.judge), ("simulations", args.simulations))
              if v is not None}
    try:
        SearchConfig(**search).check()          # the bounds az holds a net's settings to
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    import torch

    torch.set_num_threads(1)
    weights, config, meta = refit(args.net, args.games, args.every, args.epochs,
                                  args.seed, args.lr, args.device, search=search)
    from tradewinds.training.alphazero.distill import save_made_by

    save_made_by(args.out, weights, config, meta, prog, argv,
                 meta.get("command"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
