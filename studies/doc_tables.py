"""Every generated block of README.md and docs/*.md: its page, its name, the function that
makes it and the results files it is made from. `tradewinds docs` rewrites them all (or
``--check``s them); a figure in one of these tables is never typed by hand.
"""

from __future__ import annotations

from pathlib import Path

from tradewinds.studies import doc_exploit_tables as exploit
from tradewinds.studies import doc_net_tables as nets
from tradewinds.studies import doc_strength_tables as strength
from tradewinds.studies.doc_blocks import Block, names_in, pages_with_blocks, rendered

ROOT = Path(__file__).resolve().parent.parent


def _ladders(root: Path) -> str:
    """docs/benchmarking.md's ladders block (`studies.ladder_docs`; it reads the shipped
    ladders of this checkout, whatever `root`)."""
    from tradewinds.studies import ladder_docs

    return ladder_docs.ladders_block()


BLOCKS = (
    Block("README.md", "az-targets", strength.readme_targets, strength.target_sources()),
    Block("README.md", "shipped-agents", nets.readme_agents,
          nets.nets_sources() + ("agents/checkpoints/hansa_2p.json",)),
    Block("docs/alphazero.md", "az-targets", strength.alphazero_targets,
          strength.target_sources()),
    Block("README.md", "az-ablation", strength.az_ablation, strength.ablation_sources()),
    Block("docs/alphazero.md", "az-ablation", strength.az_ablation, strength.ablation_sources()),
    Block("docs/alphazero.md", "shipped-nets", nets.alphazero_nets, nets.nets_sources()),
    Block("docs/alphazero.md", "core-hours", nets.alphazero_core_hours, nets.nets_sources()),
    Block("docs/alphazero.md", "az-ladders", nets.alphazero_ladders, nets.LADDERS),
    Block("docs/agents.md", "dest-strength", strength.agents_destinations,
          tuple(sorted({r.report for _, _, r in strength.DEST_ROWS}))),
    Block("docs/agents.md", "strength", strength.agents_strength, strength.agents_sources()),
    Block("docs/training.md", "ppo-checkpoints", strength.training_checkpoints,
          strength.ppo_sources()),
    Block("docs/benchmarking.md", "ladders", _ladders, nets.LADDERS),
    Block("README.md", "exploit", exploit.exploit_table, exploit.sources()),
    Block("docs/exploit.md", "exploit", exploit.exploit_table, exploit.sources()),
)


def selected(names=None) -> tuple[Block, ...]:
    """The blocks named `page:name` or `name` (all of a name's pages), all when None
    (ValueError for a name no block has)."""
    if not names:
        return BLOCKS
    chosen = [b for b in BLOCKS if b.name in names or f"{b.doc}:{b.name}" in names]
    known = {b.name for b in BLOCKS} | {f"{b.doc}:{b.name}" for b in BLOCKS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"no generated block {', '.join(unknown)}; the blocks: "
                         f"{', '.join(sorted({b.name for b in BLOCKS}))}")
    return tuple(chosen)


def unlisted(root: Path) -> list[str]:
    """'page:name' of each block marker in README.md and docs/*.md that no entry makes."""
    known = {(b.doc, b.name) for b in BLOCKS}
    return [f"{doc}:{name}" for doc in pages_with_blocks(root)
            for name in names_in((root / doc).read_text(encoding="utf-8"))
            if (doc, name) not in known]


def check_root(root: Path) -> Path:
    """`root` if it is a tradewinds checkout (README.md and docs/ beside the results), else
    ValueError: the docs are not installed with the package."""
    root = Path(root)
    if not (root / "README.md").is_file() or not (root / "docs").is_dir():
        raise ValueError(f"{root} is not a tradewinds checkout (no README.md and docs/): the "
                         f"docs and their results files live in the repository, not the wheel")
    return root


def update(root: Path, blocks=BLOCKS, write: bool = True) -> list[Block]:
    """Make every block of `blocks` again from its sources; return the stale ones (whose
    text in the page differs), and when `write`, rewrite their pages."""
    root = check_root(root)
    extra = unlisted(root)
    if extra:
        raise ValueError(f"block {', '.join(extra)} is made by no entry of "
                         f"tradewinds.studies.doc_tables.BLOCKS")
    pages, stale = rendered(blocks, root)
    if write:
        for doc, (old, new) in pages.items():
            if new != old:
                (root / doc).write_text(new, encoding="utf-8")
    return stale
