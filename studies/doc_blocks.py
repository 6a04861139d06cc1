"""Generated blocks in markdown pages: find them, rewrite them, say which are stale.

A block is the text between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` on lines
of their own; what lies between is made by a function from results files, never typed by
hand (`studies.doc_tables` lists every block; ``tradewinds docs`` runs them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

MARKER = re.compile(r"^<!-- ([a-z0-9][a-z0-9-]*):(begin|end) -->$", re.MULTILINE)


class Block(NamedTuple):
    """One generated block: the page it is in (a path from the repository root), its name,
    the function that makes its text from the repository root, and the files (paths from
    the root) that text is made from."""

    doc: str
    name: str
    make: Callable[[Path], str]
    sources: tuple[str, ...]


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def names_in(text: str) -> list[str]:
    """The names of the blocks `text` holds, in order (ValueError for a marker without its
    pair, or a block opened twice)."""
    found, open_ = [], None
    for m in MARKER.finditer(text):
        name, kind = m.groups()
        if kind == "begin":
            if open_ is not None or name in found:
                raise ValueError(f"block {name!r} begins inside {open_!r} or twice")
            open_ = name
        else:
            if open_ != name:
                raise ValueError(f"block {name!r} ends where {open_!r} is open")
            found.append(name)
            open_ = None
    if open_ is not None:
        raise ValueError(f"block {open_!r} has no end marker")
    return found


def replaced(text: str, name: str, body: str) -> str:
    """`text` with block `name`'s contents replaced by `body` (ValueError when `text` has
    no such block)."""
    begin, end = markers(name)
    start, stop = text.find(begin + "\n"), text.find("\n" + end)
    if start < 0 or stop < start:
        raise ValueError(f"no block {name!r} ({begin} ... {end} on lines of their own)")
    return text[:start + len(begin) + 1] + body.rstrip("\n") + text[stop:]


def rendered(blocks, root: Path) -> tuple[dict[str, tuple[str, str]], list[Block]]:
    """For each page that holds a block, (its text now, its text with every block made
    again), and the blocks whose text changes. ValueError for a page that lacks one of its
    blocks."""
    pages: dict[str, tuple[str, str]] = {}
    stale = []
    for block in blocks:
        path = root / block.doc
        if block.doc not in pages:
            if not path.is_file():
                raise ValueError(f"{path} does not exist")
            text = path.read_text(encoding="utf-8")
            pages[block.doc] = (text, text)
        old, new = pages[block.doc]
        body = block.make(root)
        with_body = replaced(new, block.name, body)
        if replaced(old, block.name, body) != old:
            stale.append(block)
        pages[block.doc] = (old, with_body)
    return pages, stale


def pages_with_blocks(root: Path, pattern_globs=("README.md", "docs/*.md")) -> list[str]:
    """The pages under `root` that hold at least one block marker."""
    out = []
    for pattern in pattern_globs:
        for path in sorted(root.glob(pattern)):
            if MARKER.search(path.read_text(encoding="utf-8")):
                out.append(path.relative_to(root).as_posix())
    return out
