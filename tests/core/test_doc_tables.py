"""The docs' result tables are made from the results files (`tradewinds docs`): the
checkout's docs are current, and a table typed over or a results file changed under it is
reported stale by name and made again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tradewinds.cli.main import main
from tradewinds.studies import doc_blocks, doc_sources, doc_tables

LADDERS = "ladders"      # docs/benchmarking.md's block, studies/ladder_docs.py's own test


def test_the_docs_are_current():
    stale = doc_tables.update(ROOT, write=False)
    assert not [f"{b.doc}:{b.name}" for b in stale], "run `tradewinds docs`"


def test_every_block_names_sources_that_exist():
    for block in doc_tables.BLOCKS:
        assert block.sources, block.name
        missing = [s for s in block.sources if not (ROOT / s).is_file()]
        assert not missing, (block.doc, block.name, missing)


def _mirror(tmp: Path, copied: tuple[str, ...]) -> Path:
    """A checkout at `tmp` whose paths link to this one's, except `copied` (files copied,
    their folders made real), so a test may edit those."""
    def fill(src: Path, dst: Path, rel: str) -> None:
        dst.mkdir(exist_ok=True)
        for child in src.iterdir():
            path = f"{rel}{child.name}"
            if path in copied:
                shutil.copy(child, dst / child.name)
            elif any(c.startswith(path + "/") for c in copied):
                fill(child, dst / child.name, path + "/")
            else:
                (dst / child.name).symlink_to(child)

    fill(ROOT, tmp, "")
    return tmp


def _blocks_but_ladders() -> list[str]:
    return [a for b in doc_tables.BLOCKS if b.name != LADDERS for a in ("--block", b.name)]


def test_a_table_typed_over_is_named_stale_and_made_again(tmp_path, capsys):
    root = _mirror(tmp_path, ("README.md",))
    readme = root / "README.md"
    text = readme.read_text()
    body = doc_blocks.replaced(text, "az-targets", "| target |\n|---|\n| typed by hand |")
    readme.write_text(body)
    args = ["docs", "--root", str(root), *_blocks_but_ladders()]
    assert main([*args, "--check"]) == 1
    out = capsys.readouterr().out
    assert "README.md: block az-targets stale" in out
    assert "shipped-agents stale" not in out
    assert readme.read_text() == body                      # --check writes nothing
    assert main(args) == 0
    assert readme.read_text() == text
    assert main([*args, "--check"]) == 0


def test_a_changed_results_file_makes_its_tables_stale(tmp_path, capsys):
    rel = "benchmarks/results/agents_strength.json"
    root = _mirror(tmp_path, (rel, "README.md", "docs/alphazero.md", "docs/agents.md"))
    report = json.loads((root / rel).read_text())
    row = next(r for r in report["rows"] if (r["game"], r["players"]) == ("voyage", 4))
    row["edge"] = 0.071
    (root / rel).write_text(json.dumps(report))
    args = ["docs", "--root", str(root), *_blocks_but_ladders()]
    assert main([*args, "--check"]) == 1
    out = capsys.readouterr().out
    for page in ("README.md", "docs/alphazero.md"):
        assert f"{page}: block az-targets stale" in out
    assert "docs/agents.md: block strength stale" in out
    assert main(args) == 0
    assert "(`mcts:400` +0.071)" in (root / "README.md").read_text()


def test_a_block_no_entry_makes_is_an_error(tmp_path, capsys):
    root = _mirror(tmp_path, ("docs/training.md",))
    page = root / "docs/training.md"
    page.write_text(page.read_text() + "\n<!-- mystery:begin -->\n| a |\n<!-- mystery:end -->\n")
    assert main(["docs", "--root", str(root), "--check", "--block", "ppo-checkpoints"]) == 2
    assert "docs/training.md:mystery is made by no entry" in capsys.readouterr().err


def test_bad_input_is_one_line_naming_it(tmp_path, capsys):
    assert main(["docs", "--root", str(tmp_path), "--check"]) == 2
    assert "is not a tradewinds checkout" in capsys.readouterr().err
    assert main(["docs", "--check", "--block", "nosuch"]) == 2
    assert "no generated block nosuch" in capsys.readouterr().err


def test_markers_are_paired():
    assert doc_blocks.names_in("<!-- a:begin -->\nx\n<!-- a:end -->\n") == ["a"]
    for text, error in (("<!-- a:begin -->\n", "no end marker"),
                        ("<!-- a:end -->\n", "ends where None is open"),
                        ("<!-- a:begin -->\n<!-- b:begin -->\n", "begins inside")):
        with pytest.raises(ValueError, match=error):
            doc_blocks.names_in(text)
    with pytest.raises(ValueError, match="no block 'b'"):
        doc_blocks.replaced("<!-- a:begin -->\nx\n<!-- a:end -->\n", "b", "y")


def test_a_row_must_be_named_exactly_once():
    ref = doc_sources.Ref("benchmarks/results/agents_strength.json", "mcts:400", "heuristic")
    with pytest.raises(ValueError, match="6 rows of mcts:400 against heuristic"):
        doc_sources.strength_row(ROOT, ref)
    assert doc_sources.strength_row(ROOT, ref._replace(players=2, game="voyage"))["games"] == 400
    with pytest.raises(ValueError, match="nosuch.json: no such results file"):
        doc_sources.strength_row(ROOT, ref._replace(report="nosuch.json"))


def test_core_hours_are_two_significant_figures():
    assert [doc_sources.hours(x) for x in (1.94, 0.2008, 0.6158, 2.146)] == \
        ["1.9", "0.20", "0.62", "2.1"]
