"""Where a raw policy loses: its choices beside the heuristic's and beside its search's.

    python -m lab.raw_policy_probe agents/nets/hansa_3p.npz --games 60
    python -m lab.raw_policy_probe results/dagger/hansa_3p_az/round_4.npz --teacher \\
        agents/nets/hansa_3p.npz

Two probes of a net's arg-max policy (`net:<file>`) at N players:
- against heuristic opponents: its win share, and at each of its non-forced decisions the
  heuristic's choice there (on the seat's own determinization), tabulated as
  (heuristic's action family, net's action family) wherever the two differ;
- on positions of its own games (one non-forced decision in `--every`): how often its
  arg-max is the arg-max of `az:<teacher>`'s visit shares, and the teacher's mean share of
  the net's choice (the teacher's own settings; `search_teacher.az_labels`).
"""

from __future__ import annotations

import argparse
import collections

import numpy as np


def against_heuristic(net_file: str, num_players: int, games: int) -> dict:
    """The net in seat g % N of game g (seed g), heuristics elsewhere."""
    from tradewinds import agents, registry
    from tradewinds.agents import pvnet

    _, config, _ = pvnet.load(net_file)
    game = registry.game(config.game)
    net = agents.make_agent(f"net:{net_file}", game=config.game)
    heuristic = agents.make_agent("heuristic", game=config.game)

    def family(a):
        return game.action_name(int(a)).split(":")[0]

    differ, seen, won = collections.Counter(), collections.Counter(), 0.0
    for g in range(games):
        s, seat = game.new_state(num_players, g), g % num_players
        rng, k = np.random.default_rng(g), 0
        while not game.is_terminal(s):
            p, mask = game.current_player(s), game.legal_mask(s)
            ob = game.observe(s, p)
            if p != seat:
                a = heuristic.act(ob, mask, rng, state=s.copy())
            else:
                a = net.act(ob, mask, rng, state=s.copy())
                if mask.sum() > 1:
                    k += 1
                    h = heuristic.act(ob, mask, np.random.default_rng([g, k]),
                                      state=s.copy())
                    seen[family(h)] += 1
                    if h != a:
                        differ[(family(h), family(a))] += 1
            game.step(s, a)
        won += game.returns(s)[seat]
    return {"win_share": won / games, "decisions": dict(seen),
            "differ": differ.most_common(15)}


def against_teacher(net_file: str, teacher: str, num_players: int, games: int,
                    every: int = 5, seed: int = 777) -> dict:
    import torch

    from tradewinds import registry
    from tradewinds.agents import pvnet
    from tradewinds.training.alphazero.net import PolicyValueNet
    from tradewinds.training.alphazero.search_teacher import az_labels
    from tradewinds.training.alphazero.warmstart import heuristic_records

    w, config, _ = pvnet.load(net_file)
    game = registry.game(config.game)
    rec = heuristic_records(game, num_players, games, seed=seed, every=every,
                            keep_states=True, net=w, beta=0.0)
    taught = az_labels(game, teacher, rec["state"], np.random.default_rng(0))
    net = PolicyValueNet(config)
    net.load_weights(w)
    net.eval()
    with torch.no_grad():
        logits = net(torch.as_tensor(rec["obs"].astype(np.float32)))[0].numpy()
    logits[~rec["mask"]] = -np.inf
    pick = logits.argmax(1)
    return {"positions": len(pick),
            "same_arg_max": float((pick == taught.argmax(1)).mean()),
            "teacher_share_of_pick": float(taught[np.arange(len(pick)), pick].mean()),
            "teacher_top_share": float(taught.max(1).mean())}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("net")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--teacher", default=None, help="also compare with az:<teacher>")
    args = ap.parse_args(argv)
    print(against_heuristic(args.net, args.players, args.games))
    if args.teacher:
        print(against_teacher(args.net, args.teacher, args.players, max(1, args.games // 2)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
