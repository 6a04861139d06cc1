"""How well the search's leaf values foretell the games: the net's value, the game's
judgement (`agents.playouts.judge`) and their mixes, against the outcomes.

    python -m lab.leaf_values agents/nets/voyage_2p.npz results/nets/other.npz \\
        --games 1000 --judge-draws 1 16

Positions come from heuristic games on seeds no training uses (one non-forced decision
in ``--every``); each is valued from the mover's seat as the search values a leaf: the
net on the seat's own input, and the judgement on a determinization for that seat (in
the Voyage game mostly a heuristic playout to the end; the mean of ``--judge-draws``
draws, the search's own is one). Scores: the Brier score of the mover's predicted win
share against its outcome (0.25 for a constant 0.5), over all positions and by thirds
of each game. The judgement of D draws approaches the value of the position under the
heuristic's play, the best any value trained on heuristic games can reach.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from numba import njit

from tradewinds import cli_args, rng
from tradewinds.agents import pvnet
from tradewinds.agents.az_search import SearchConfig
from tradewinds.agents.playouts import judge
from tradewinds.compiled import disk_cache, protocol

SEED = 11 * 2**40
MIXES = (0.25, 0.5)           # judge shares of the mixed rows (the search's `judge`)


@njit(cache=True)
def _judge(aux, states, scale, draws, seed, out):
    """out[i]: the mover's mean judged win share over `draws` determinizations."""
    key = np.zeros(2, np.int32)
    rng.seed_state(key, 0, seed)
    ret = np.zeros(pvnet.MAX_SEATS)
    scratch = np.zeros(pvnet.MAX_SEATS)
    s = np.zeros(states.shape[1], np.int32)
    for i in range(states.shape[0]):
        p = protocol.current_player(aux, states[i])
        total = 0.0
        for _ in range(draws):
            s[:] = states[i]
            protocol.determinize(aux, s, p, key)
            judge(aux, s, ret, scratch, scale)
            total += ret[p]
        out[i] = total / draws


def mover_values(weights, records: dict, num_players: int) -> np.ndarray:
    """The net's win share for the mover of each record."""
    _, value_logits = pvnet.run(weights, records["obs"])
    v = value_logits[:, :num_players].astype(np.float64)
    e = np.exp(v - v.max(1, keepdims=True))
    return e[:, 0] / e.sum(1)


def brier(p: np.ndarray, z: np.ndarray) -> float:
    return float(np.mean((p - z) ** 2))


def thirds(game_of: np.ndarray) -> np.ndarray:
    """0, 1, 2: which third of its game's recorded positions each record is in."""
    out = np.zeros(len(game_of), np.int64)
    for g in np.unique(game_of):
        idx = np.flatnonzero(game_of == g)
        out[idx] = np.minimum(2, (3 * np.arange(len(idx))) // max(1, len(idx)))
    return out


def measure(nets: list[Path], games: int, every: int = 10, draws: tuple[int, ...] = (1,),
            scale: float = SearchConfig.judge_scale, seed: int = SEED) -> dict:
    """Brier scores of each net's value, the judgement (at the search's `scale`) and their
    mixes."""
    from tradewinds import registry
    from tradewinds.training.alphazero.warmstart import heuristic_records

    loaded = [pvnet.load(p) for p in nets]
    configs = {(c.game, c.num_players, c.hint) for _, c, _ in loaded}
    if len({(g, n) for g, n, _ in configs}) != 1:
        raise ValueError(f"the nets are for different games or player counts: {configs}")
    name, n, _ = next(iter(configs))
    game = registry.game(name)
    found = {hint: heuristic_records(game, n, games, seed=seed, every=every,
                                     keep_states=True, hint=bool(hint))
             for hint in sorted({h for _, _, h in configs})}
    first = next(iter(found.values()))
    z, part = first["value"][:, 0], thirds(first["game"])
    rows, judged = [], {}
    t0 = time.perf_counter()
    for d in draws:
        judged[d] = np.zeros(len(z))
        _judge(game.aux, first["state"], scale, d, seed ^ d, judged[d])
        rows.append({"value": f"judgement, {d} draw{'s' if d > 1 else ''}",
                     **_scores(judged[d], z, part)})
    for path, (weights, config, _) in zip(nets, loaded, strict=True):
        v = mover_values(weights, found[config.hint], n)
        rows.append({"value": f"{path}", **_scores(v, z, part)})
        for j in MIXES:
            rows.append({"value": f"{path}, judge {j}",
                         **_scores((1 - j) * v + j * judged[draws[0]], z, part)})
    return {"game": name, "players": n, "games": games, "positions": len(z),
            "every": every, "seconds": time.perf_counter() - t0, "rows": rows}


def _scores(p, z, part) -> dict:
    return {"brier": brier(p, z), **{f"third_{k + 1}": brier(p[part == k], z[part == k])
                                     for k in range(3)}}


def markdown(report: dict) -> str:
    lines = [f"**{report['game']}, {report['players']} players: leaf values against the "
             f"outcomes of {report['games']} heuristic games** ({report['positions']:,} "
             f"positions, one decision in {report['every']}; Brier score, 0.25 for a "
             f"constant 0.5; lower is better)", "",
             "| value | all | first third | second third | last third |",
             "|---|---:|---:|---:|---:|"]
    for r in report["rows"]:
        lines.append(f"| {r['value']} | {r['brier']:.4f} | {r['third_1']:.4f} | "
                     f"{r['third_2']:.4f} | {r['third_3']:.4f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("nets", type=Path, nargs="+", help="net files of one game and count")
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=1000)
    ap.add_argument("--every", type=cli_args.int_at_least(1), default=10)
    ap.add_argument("--judge-draws", type=cli_args.int_at_least(1), nargs="+", default=[1])
    ap.add_argument("--out", type=Path, default=None,
                    help="JSON report (and .md beside it); default: print only")
    args = ap.parse_args(argv)
    for path in args.nets:
        if not path.is_file():
            ap.exit(2, f"error: no file at {path}\n")
    try:
        report = measure(args.nets, args.games, args.every, tuple(args.judge_draws))
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    print(markdown(report))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1))
        args.out.with_suffix(".md").write_text(markdown(report))
    return 0


disk_cache.refresh(globals())

if __name__ == "__main__":
    raise SystemExit(main())
