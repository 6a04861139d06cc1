"""Two agents' strength rows on the same seeds, paired game by game: did a new net's `az`
do better than the old one's against the same opponents in the same deals?

    python -m lab.paired_rows results/h2h/v3_az_r1.sqlite \\
        az:results/nets/voyage_3p_hint_r1.npz az:results/nets/voyage_3p_az_r1.npz

Each agent's study in the store (`tradewinds strength`: the agent in one seat, rotated,
against the same opponents from the same base seed) gives its win credit per game index;
the games both played are paired, and the difference of the second agent's credits less
the first's is reported with its paired 95% interval (`tradewinds.stats`).
"""

from __future__ import annotations

import argparse


def credits(db: str, agent: str) -> dict[int, float]:
    """The agent's win credit (split on shared wins) per game index of its study."""
    from tradewinds.ratings import win_credit
    from tradewinds.store import Store

    with Store(db, readonly=True) as store:
        runs = [r["run_id"] for r in store.runs()
                if r["agents"][0] == agent and r["seating"] == "rotate"]
        if len(runs) != 1:
            raise SystemExit(f"{db}: {len(runs)} studies with {agent} in the first seat")
        return {r["game_index"]: win_credit(r)[r["agents"].index(agent)]
                for r in store.games(runs[0])}


def main(argv=None) -> int:
    from tradewinds import stats

    ap = argparse.ArgumentParser(prog="python -m lab.paired_rows", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("db")
    ap.add_argument("first")
    ap.add_argument("second")
    args = ap.parse_args(argv)
    a, b = credits(args.db, args.first), credits(args.db, args.second)
    common = sorted(set(a) & set(b))
    x, y = [a[i] for i in common], [b[i] for i in common]
    mean, low, high = stats.paired_difference(y, x)
    print(f"{len(common)} games: {args.first} {sum(x) / len(x):.3f}, {args.second} "
          f"{sum(y) / len(y):.3f}, difference {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
