"""Can a net rank a Voyage turn's destinations as the playouts do?

    python -m lab.destination_ranking --positions 150
    python -m lab.destination_ranking --net results/nets/other.npz --draws 16

At move positions of heuristic games (2 players) the destination search
(`agents.destinations_voyage`) lists its candidate targets and values each by its paired
playouts to the end (32 draws). Here each candidate is also valued by a net: on `--draws`
determinizations of the seat's information set the seat heads for the target for the
rest of its turn (the search's own step rule), the heuristic plays on to the seat's
first decision of a later round, and the net's value for the seat there is the
candidate's worth (a finished game's return where the game ends first). Printed: how
often each ranking's best is the heuristic's own target, how often the net's best is the
playouts' best, the rank correlation of the two, and, as the ceiling that the playouts'
own noise sets, how often two halves of the playouts agree on the best. A net that
ranked the targets as well as the playouts could replace them at the move steps; one that
does not needs a better value.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tradewinds import cli_args

PLAYOUT_DRAWS = 32


def next_decision(game, drawn: np.ndarray, player: int, target: int, key) -> np.ndarray:
    """`drawn` played on: `player` heads for `target` for the rest of its turn, then the
    heuristic plays until `player` has a choice in a later round (or the game ends)."""
    from tradewinds.agents.heuristic import decide
    from tradewinds.agents.heuristic_voyage import step_toward
    from tradewinds.agents.plan_voyage import PARAMS, PLAN_WEIGHTS
    from voyage_env import actions as A
    from voyage_env import kernel as K
    from voyage_env import routes as RT
    from voyage_env.state import MOVE

    s = drawn.copy()
    goal = int(RT.target_hex(game.aux.m, target)) if target >= 0 else -1
    turn, heading = s[K.ROUND], target >= 0
    while not game.is_terminal(s):
        mask = np.asarray(game.legal_mask(s), dtype=np.int8).copy()
        mine = s[K.DECIDER] == player
        heading = heading and s[K.ROUND] == turn and s[K.SHIP + player] != goal
        if mine and heading and s[K.PHASE] == MOVE:
            a = int(step_toward(s, game.aux.m, PLAN_WEIGHTS.copy(), game.aux.routes, mask,
                                PARAMS.copy(), target))
            if a < 0 or not mask[a]:
                a = int(decide(game.aux, s, mask, key))
            heading = heading and a not in (A.STOP, A.DOCK)
        else:
            if mine and s[K.ROUND] != turn and mask.sum() > 1:
                break
            a = int(decide(game.aux, s, mask, key))
        game.step(s, a)
    return s


def net_worth(game, weights, config, state: np.ndarray, player: int, rng) -> float:
    """`player`'s share of the win: the game's return if it is over, else the net's value
    from `player`'s own observation (with the heuristic's hint if the net reads one)."""
    from tradewinds.agents import net_input, pvnet

    if game.is_terminal(state):
        return float(np.asarray(game.returns(state))[player])
    x = np.asarray(game.observe(state, player), dtype=np.float32)
    if config.hint:
        x = net_input.hinted(game, state, x, rng)
    _, v = pvnet.run(weights, x)
    v = np.asarray(v[:config.num_players], dtype=np.float64)
    e = np.exp(v - v.max())
    return float(e[0] / e.sum())


def agreement(playouts: list[np.ndarray], nets: list[np.ndarray]) -> dict:
    """Agreement of the two rankings over positions: playouts[i] is [draws, candidates]
    (column 0 the heuristic's own target), nets[i] the net's worth of each candidate."""
    def ranks(x):
        return np.argsort(np.argsort(x, kind="stable"), kind="stable")

    best_play = [int(np.argmax(v.mean(axis=0))) for v in playouts]
    best_net = [int(np.argmax(w)) for w in nets]
    half = len(playouts[0]) // 2
    rho = [np.corrcoef(ranks(v.mean(axis=0)), ranks(w))[0, 1]
           for v, w in zip(playouts, nets, strict=True) if len(w) > 2]
    return {"positions": len(playouts),
            "playouts_keep_own": float(np.mean([b == 0 for b in best_play])),
            "net_keeps_own": float(np.mean([b == 0 for b in best_net])),
            "same_best": float(np.mean([a == b for a, b in zip(best_play, best_net,
                                                               strict=True)])),
            "rank_correlation": float(np.mean(rho)) if rho else float("nan"),
            "halves_same_best": float(np.mean(
                [np.argmax(v[:half].mean(axis=0)) == np.argmax(v[half:].mean(axis=0))
                 for v in playouts]))}


def measure(net_path: str | None, positions: int, draws: int, seed: int = 77) -> dict:
    """The rankings of `positions` move positions with at least two candidates."""
    from tradewinds import registry
    from tradewinds.agents import az, pvnet
    from tradewinds.agents import destinations_voyage as D
    from tradewinds.agents.heuristic import rng_key
    from tradewinds.agents.plan_voyage import PARAMS, PLAN_WEIGHTS
    from tradewinds.studies.positions import decision_positions
    from voyage_env import kernel as K
    from voyage_env.state import MOVE

    game = registry.game("voyage")
    weights, config, _ = pvnet.load(net_path or az.shipped("voyage", 2))
    if (config.game, config.num_players) != ("voyage", 2):
        raise ValueError(f"{net_path}: a net for {config.game} at {config.num_players} "
                         "players, not the Voyage game at 2")
    playouts, nets = [], []
    for i, s in enumerate(decision_positions(game, 2, 8 * positions, seed=seed)):
        if len(nets) == positions:
            break
        if s[K.PHASE] != MOVE:
            continue
        p = int(s[K.DECIDER])
        key = rng_key(np.random.default_rng([seed, i]))
        targets = np.full(6, -1, dtype=np.int64)
        n = D.candidates(game.determinize(s, p, key), game.aux.m, PLAN_WEIGHTS.copy(),
                         game.aux.routes, PARAMS.copy(), targets)
        if n < 2:
            continue
        values = np.zeros((PLAYOUT_DRAWS, n))
        D.playout_values(game.aux, s, p, key, targets[:n], values)
        worth = np.zeros(n)
        rng = np.random.default_rng([seed, i, 1])
        for d in range(draws):
            dkey = rng_key(np.random.default_rng([seed, i, 2, d]))
            drawn = game.determinize(s, p, dkey)
            for j in range(n):
                after = next_decision(game, drawn, p, int(targets[j]), dkey)
                worth[j] += net_worth(game, weights, config, after, p, rng) / draws
        playouts.append(values)
        nets.append(worth)
    if not nets:
        raise ValueError("no move position with two candidates among the positions drawn")
    return agreement(playouts, nets)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lab.destination_ranking",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--net", default=None, help="a Voyage 2-player net file (default: the "
                    "shipped one)")
    ap.add_argument("--positions", type=cli_args.int_at_least(1), default=150)
    ap.add_argument("--draws", type=cli_args.int_at_least(1), default=8,
                    help="determinizations per candidate for the net's worth")
    ap.add_argument("--seed", type=int, default=77)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        r = measure(args.net, args.positions, args.draws, args.seed)
    except (ValueError, OSError) as e:
        ap.exit(2, f"error: {e}\n")
    print(f"{r['positions']} move positions, {time.perf_counter() - t0:.0f} s")
    print(f"the best is the heuristic's own target: playouts {r['playouts_keep_own']:.3f}, "
          f"net {r['net_keeps_own']:.3f}")
    print(f"the net's best is the playouts' best: {r['same_best']:.3f} (two halves of the "
          f"playouts agree on {r['halves_same_best']:.3f}); rank correlation "
          f"{r['rank_correlation']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
