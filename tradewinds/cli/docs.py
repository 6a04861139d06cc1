"""`tradewinds docs`: the result tables of README.md and docs/*.md made again from the results
files (`studies.doc_tables` lists each block and its sources); ``--check`` only says which
are stale, exit status 1 when any is."""

from __future__ import annotations

from dataclasses import dataclass

from tradewinds.cli_args import option

HELP = "rewrite the docs' result tables from the results files (--check: exit 1 when stale)"
DESCRIPTION = ("Rewrites every generated block of README.md and docs/*.md (between "
               "<!-- NAME:begin --> and <!-- NAME:end -->) from the results files it is made "
               "from: strength and match reports, the shipped nets' metadata, run logs and "
               "ladder files. --check writes nothing, names each stale block and exits 1 "
               "when any is.")


def _default_root() -> str:
    from tradewinds.studies.doc_tables import ROOT

    return str(ROOT)


@dataclass(frozen=True)
class DocsConfig:
    check: bool = option(False, help="write nothing; name each stale block, exit 1 if any")
    root: str | None = option(None, metavar="DIR", show="this checkout",
                              help="the repository whose docs and results files to use")
    blocks: tuple = option((), repeat=True, flag="--block", metavar="NAME",
                           convert=lambda given: tuple(given or ()),
                           help="only this block (NAME or PAGE:NAME; repeatable)")


def configs() -> tuple:
    return (DocsConfig,)


def run(args) -> int:
    from tradewinds import output
    from tradewinds.cli import options
    from tradewinds.studies import doc_tables

    c = options.config(args, DocsConfig)
    blocks = doc_tables.selected(c.blocks)
    stale = doc_tables.update(c.root or _default_root(), blocks, write=not c.check)
    console = output.console()
    verb = "stale" if c.check else "rewritten"
    for block in stale:
        console.print(f"{block.doc}: block {block.name} {verb} (from "
                      f"{', '.join(block.sources)})", highlight=False, soft_wrap=True)
    pages = len({b.doc for b in blocks})
    console.print(f"{len(blocks) - len(stale)} of {len(blocks)} blocks in {pages} pages "
                  f"current", highlight=False)
    return 1 if c.check and stale else 0
