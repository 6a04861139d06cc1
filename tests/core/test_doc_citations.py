"""Citations in code and docs point at something a reader of the repository can open.

- The design is `docs/design.md`, cited as ``docs/design.md §N``. Any other spelling of
  its file name (the old brief outside the repository was cited in capitals) is refused,
  in every .py and .md file.
- Every ``docs/design.md §N`` names a section the page has: a ``## N. Title`` heading.
  Its sections are numbered 1, 2, 3, ... in order.
- Comments and docstrings of .py files, and .md files (the README too), do not cite
  tracker items by number (the regex `ISSUE`): the repository has no tracker, so say what
  the item was about instead. Runtime strings are not scanned.

Each failure names the file and the line.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from pathlib import Path

from tests.helpers import ROOT

SKIP_DIRS = {".venv", "venv", ".git", "__pycache__", ".pytest_cache", ".ruff_cache",
             "node_modules", "build", "dist"}
TOP_SKIP = {"results"}                       # run outputs at the top of the repository
SELF = Path(__file__).resolve()              # its fixtures hold the patterns it looks for

DESIGN = "docs/design.md"
FILE_NAME = re.compile(r"design\.md", re.I)
OLD_SECTION = re.compile(r"\bDESIGN\s*§")     # "DESIGN §3", the brief's short form
CITE = re.compile(r"docs/design\.md((?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+)§\s*\d+)+)")
HEADING = re.compile(r"^## (\d+)\. \S", re.M)
ISSUE = re.compile(r"\b[Ii]ssue \d+")


def source_files(root: Path):
    """Every .py and .md file of the repository, as (path relative to root, path)."""
    for dirpath, dirnames, filenames in os.walk(root):
        top = Path(dirpath) == root
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.endswith(".egg-info")
                             and not (top and d in TOP_SKIP))
        for name in sorted(filenames):
            path = Path(dirpath, name)
            if name.endswith((".py", ".md")) and path.resolve() != SELF:
                yield path.relative_to(root).as_posix(), path


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# ---------------------------------------------------------------- (a) the file name

def misnamed(root: Path) -> list[str]:
    """'file:line: ...' for every mention of the design page not written docs/design.md."""
    bad = []
    for rel, path in source_files(root):
        text = path.read_text(encoding="utf-8")
        for m in FILE_NAME.finditer(text):
            if m.group() == "design.md" and text[max(0, m.start() - 5): m.start()] == "docs/":
                continue
            bad.append(f"{rel}:{line_of(text, m.start())}: {m.group()!r}, cite {DESIGN}")
        for m in OLD_SECTION.finditer(text):
            bad.append(f"{rel}:{line_of(text, m.start())}: {m.group()!r}, cite {DESIGN} §N")
    return bad


# ---------------------------------------------------------------- (b) the sections

def sections(root: Path) -> list[int]:
    """The numbers of the page's ``## N.`` headings, in order."""
    return [int(n) for n in HEADING.findall((root / DESIGN).read_text(encoding="utf-8"))]


def unknown_sections(root: Path) -> list[str]:
    """'file:line: ...' for every docs/design.md §N whose section N the page lacks."""
    have = set(sections(root))
    bad = []
    for rel, path in source_files(root):
        text = path.read_text(encoding="utf-8")
        for m in CITE.finditer(text):
            for n in re.findall(r"§\s*(\d+)", m.group(1)):
                if int(n) not in have:
                    bad.append(f"{rel}:{line_of(text, m.start())}: {DESIGN} §{n} does not "
                               f"exist (sections {min(have)}..{max(have)})")
    return bad


# ---------------------------------------------------------------- (c) tracker numbers

_SKIPPED_TOKENS = (tokenize.NL, tokenize.COMMENT)
_STATEMENT_START = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)


def prose(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of Python source: a string that is a
    statement of its own (module, class and function docstrings, and the strings after
    an assignment that document it). Other strings are code and are not returned."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    found = [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]
    significant = [t for t in tokens if t.type not in _SKIPPED_TOKENS]
    for i, t in enumerate(significant):
        if t.type != tokenize.STRING:
            continue
        before = significant[i - 1].type if i else tokenize.ENCODING
        after = significant[i + 1].type if i + 1 < len(significant) else tokenize.ENDMARKER
        if before in _STATEMENT_START and after in (tokenize.NEWLINE, tokenize.ENDMARKER):
            found.append((t.start[0], t.string))
    return sorted(found)


def issue_citations(root: Path) -> list[str]:
    """'file:line: ...' for every tracker number in a comment, docstring or doc page."""
    bad = []
    for rel, path in source_files(root):
        text = path.read_text(encoding="utf-8")
        if not ISSUE.search(text):
            continue                     # most files: no need to tokenize
        if rel.endswith(".py"):
            for line, chunk in prose(text):
                for m in ISSUE.finditer(chunk):
                    bad.append(f"{rel}:{line + chunk.count(chr(10), 0, m.start())}: "
                               f"{m.group()!r}")
        else:
            for m in ISSUE.finditer(text):
                bad.append(f"{rel}:{line_of(text, m.start())}: {m.group()!r}")
    return bad


# ---------------------------------------------------------------- the tests

def test_the_design_page_has_numbered_sections_in_order():
    numbers = sections(ROOT)
    assert numbers and numbers == list(range(1, len(numbers) + 1)), numbers


def test_the_design_page_is_cited_by_its_path():
    bad = misnamed(ROOT)
    assert not bad, "cite the design as docs/design.md §N:\n" + "\n".join(bad)


def test_every_cited_design_section_exists():
    bad = unknown_sections(ROOT)
    assert not bad, "citations of missing sections:\n" + "\n".join(bad)


def test_no_comment_or_docstring_cites_a_tracker_number():
    bad = issue_citations(ROOT)
    assert not bad, ("there is no issue tracker in the repository; say what the item was "
                     "about instead:\n" + "\n".join(bad))


def test_the_checks_have_teeth(tmp_path):
    """A fake repository with one of each mistake, and the forms that are allowed."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "design.md").write_text("# D\n\n## 1. One\n\n## 2. Two\n")
    (tmp_path / "docs" / "guide.md").write_text(
        "See docs/design.md §1 and §2.\nSee DESIGN.md §2.\nAlso docs/design.md §2, §7.\n"
        "Chosen in issue 4.\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        '"""A module (docs/design.md §2).\n\nWritten for issue 3."""\n\n'
        'X = 1  # issue 5 asked for it\n'
        'MESSAGE = "a runtime string: issue 6"\n\n\n'
        'def f():\n    """DESIGN §1 says so."""\n    return "issue 8"\n')
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "notes.md").write_text("DESIGN.md §5, issue 10\n")
    (tmp_path / "README.md").write_text("As issue 11 asked.\n")

    assert misnamed(tmp_path) == [
        "docs/guide.md:2: 'DESIGN.md', cite docs/design.md",
        "pkg/mod.py:10: 'DESIGN §', cite docs/design.md §N",
    ]
    assert unknown_sections(tmp_path) == [
        "docs/guide.md:3: docs/design.md §7 does not exist (sections 1..2)"]
    assert issue_citations(tmp_path) == [
        "README.md:1: 'issue 11'",
        "docs/guide.md:4: 'issue 4'",
        "pkg/mod.py:3: 'issue 3'",
        "pkg/mod.py:5: 'issue 5'",
    ]
