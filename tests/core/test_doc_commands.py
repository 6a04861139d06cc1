"""One front door: every command README.md and docs/*.md tell a user to run is a
`tradewinds` subcommand. The docs name no `python -m` module but the test runner's, venv's
and the lab's and the test suite's own (neither lab/ nor tests/ is installed), and every
`tradewinds COMMAND [VERB]` they name exists."""

from __future__ import annotations

import re

import tradewinds
from tests.helpers import ROOT
from tradewinds.cli import bench, ratings, train
from tradewinds.cli.main import COMMANDS

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_M = re.compile(r"python3?\s+-m\s+([A-Za-z_][\w.]*)")
NOT_OURS = ("pytest", "venv", "pip")                 # run with -m, but not this project's
UNINSTALLED = ("lab.", "tests.")                     # the lab and the suite: not the product
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`([^`]+)`")
WORD = re.compile(r"[a-z][a-z-]*\Z")


def python_m_offences(text: str) -> list[tuple[int, str]]:
    """(line, module) of every `python -m MODULE` in `text` (a line break inside the
    command included) whose module is the product's."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in PYTHON_M.finditer(text)
            if m.group(1) not in NOT_OURS and not m.group(1).startswith(UNINSTALLED)]


def tradewinds_commands(text: str) -> list[list[str]]:
    """The words of every `tradewinds ...` command in `text`: a fenced block's lines and
    inline code spans that begin with it."""
    spans = [line for block in FENCED.findall(text) for line in block.splitlines()]
    spans += INLINE.findall(FENCED.sub("", text))
    return [s.split() for s in (" ".join(s.split()) for s in spans)
            if s.startswith("tradewinds ")]


def unknown(words: list[str]) -> str | None:
    """What is wrong with a `tradewinds` command's first words, or None."""
    command = words[1]
    if command not in COMMANDS:
        return f"no command {command!r}"
    verb = words[2] if len(words) > 2 and WORD.match(words[2]) else None
    if verb is None:
        return None if command != "ratings" else "ratings names no verb"
    known = {"bench": {v.name for v in bench.BENCHMARKS},
             "ratings": {v.name for v in ratings.VERBS},
             "train": {*train.STAGE_NAMES, *tradewinds.games()}}.get(command)
    return None if known is None or verb in known else f"{command} has no verb {verb!r}"


def _offences(docs) -> list[str]:
    return [f"{doc.relative_to(ROOT)}:{line}: python -m {module}" for doc in docs
            for line, module in python_m_offences(doc.read_text(encoding="utf-8"))]


def test_the_docs_run_no_python_m_module_of_the_product():
    found = _offences(DOCS)
    assert not found, "name the tradewinds subcommand instead:\n" + "\n".join(found)


def test_every_tradewinds_command_the_docs_name_exists():
    found = [f"{doc.relative_to(ROOT)}: {' '.join(words)}: {why}" for doc in DOCS
             for words in tradewinds_commands(doc.read_text(encoding="utf-8"))
             if (why := unknown(words))]
    assert not found, "\n".join(found)


def test_the_walk_sees_what_it_must_and_nothing_else():
    """The checks have teeth: a `python -m` command broken over two lines is caught, the
    runner's, venv's, the lab's and the suite's are not; an unknown command or verb is."""
    text = ("Run `python -m\ntradewinds.benchmarks.agents strength`, `python -m pytest -q`, "
            "`python3 -m venv .venv`,\n`python -m lab.headroom` and "
            "`python -m tests.core.test_docs`.\n"
            "```bash\ntradewinds bench nosuch --quick\ntradewinds ratings show hansa\n```\n"
            "`tradewinds strenght --games 4` and `tradewinds train hansa --steps 9`\n")
    assert python_m_offences(text) == [(1, "tradewinds.benchmarks.agents")]
    commands = tradewinds_commands(text)
    assert [unknown(w) for w in commands] == [
        "bench has no verb 'nosuch'", None, "no command 'strenght'", None]
