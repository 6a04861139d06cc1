"""A run's net with the recipe that makes it and the chain of runs that made it, in its
metadata: for a net trained as separate commands before its recipe ran end to end.

    python -m lab.chain_net lab/runs/sp_hansa_3p_gate/nets/net_0030.npz --recipe hansa_3p \\
        --before /tmp/warm_h3.npz lab/runs/sp_hansa_3p_fs01/nets/net_0025.npz \\
        --out results/nets/hansa_3p_gate30.npz

`--before` are the nets of the earlier stages, in order: their commands are joined before
the net's own and their core-hours added. The recipe's name, text and search settings and
the commit go in as `tradewinds train --recipe` writes them; `tradewinds train ship-net
OUT --strength REPORT` ships the file.
"""

from __future__ import annotations

import argparse


def chained(net: str, recipe_name: str, before: list[str], out: str) -> dict:
    from tradewinds.agents import pvnet
    from tradewinds.training import recipe

    r = recipe.load(recipe_name)
    metas = [pvnet.load(p)[2] for p in before]
    weights, config, meta = pvnet.load(net)
    metas.append(meta)
    meta = {**meta,
            "command": " && ".join(m["command"] for m in metas),
            "core_hours": round(sum(float(m["core_hours"]) for m in metas), 6),
            "stage_core_hours": [round(float(m["core_hours"]), 4) for m in metas],
            **recipe.provenance(r)}
    pvnet.save(out, weights, config, meta)
    return meta


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lab.chain_net", description=__doc__)
    ap.add_argument("net")
    ap.add_argument("--recipe", required=True)
    ap.add_argument("--before", nargs="*", default=[])
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    meta = chained(a.net, a.recipe, a.before, a.out)
    print(f"wrote {a.out}: {meta['core_hours']:.2f} core-hours, commit {meta['commit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
