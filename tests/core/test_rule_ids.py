"""Every rule id cited in the repository is defined in docs/rules/.

Code docstrings, error messages, tests and docs cite the rules by id: H12 and HA4 (Hansa,
docs/rules/hansa.md), V13 and VA34 (Voyage, docs/rules/voyage.md), E7 (a worked example;
both games number their own). This test scans every .py and .md file of the repository for
such ids and fails naming the file, line and id of each one that no rules page defines.

An id is *defined* by a rules page where it opens a list entry or paragraph in bold
(`- **H12 How.** ...`, `**E7 — ...**`). A family that several pages define (E) is resolved
in the page of the game a file belongs to (its path names the game, as in
tests/hansa/test_hansa_examples.py), else in any page.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.helpers import ROOT

RULES = ROOT / "docs" / "rules"
FAMILIES = ("HA", "VA", "H", "V", "E")
SKIP_DIRS = {".venv", "venv", ".git", "__pycache__", ".pytest_cache", ".ruff_cache",
             "node_modules", "build", "dist"}
TOP_SKIP = {"results"}                       # run outputs at the top of the repository

# A cited id: a family, a number, optionally a sub-item letter (V48c, E7a), not part of a
# longer word or number ("HEX0", "0x9E37" and "test_V61_x" -> V61 behave as expected).
CITED = re.compile(r"(?<![A-Za-z0-9])(HA|VA|H|V|E)([1-9][0-9]{0,2})[a-z]?(?![A-Za-z0-9])")
DEFINED = re.compile(r"^\s*(?:[-*]\s+)?\*\*(HA|VA|H|V|E)([1-9][0-9]{0,2})\b", re.M)
NOQA = re.compile(r"noqa\b[:\s]*[A-Z0-9, ]*")   # linter codes after "noqa:", not rules
HYPOTHESIS = re.compile(r"(?<![A-Za-z0-9])H0(?![A-Za-z0-9])")  # statistics: H0 vs H1


def definitions() -> dict[str, list[str]]:
    """Rules page name (its game) -> the ids it defines, in order of definition."""
    out = {}
    for page in sorted(RULES.glob("*.md")):
        if page.name == "README.md":
            continue
        out[page.stem] = [f + n for f, n in DEFINED.findall(page.read_text(encoding="utf-8"))]
    return out


def source_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        top = Path(dirpath) == ROOT
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.endswith(".egg-info")
                             and not (top and d in TOP_SKIP))
        for name in sorted(filenames):
            if name.endswith((".py", ".md")):
                yield Path(dirpath, name)


def citations(path: Path):
    """(line number, id) of every id cited in a file."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if HYPOTHESIS.search(line):
            continue   # "H0: p = 1/n against H1: ..." (tradewinds/stats.py, fpa.py)
        for family, number in CITED.findall(NOQA.sub("", line)):
            yield i, family + number


def family(rule_id: str) -> str:
    return rule_id.rstrip("0123456789")


def unresolved(defs: dict[str, list[str]]) -> list[str]:
    """'path:line: id' for every cited id that the rules pages do not define."""
    every = {g: set(ids) for g, ids in defs.items()}
    families = {g: {family(i) for i in ids} for g, ids in defs.items()}
    bad = []
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        games = [g for g in every if g in rel.lower()]
        for line, rule_id in citations(path):
            fam = family(rule_id)
            owners = [g for g in games if fam in families[g]] or list(every)
            if not any(rule_id in every[g] for g in owners):
                where = " or ".join(f"docs/rules/{g}.md" for g in owners)
                bad.append(f"{rel}:{line}: {rule_id} is not defined in {where}")
    return bad


def test_rules_pages_define_each_id_once_in_order():
    defs = definitions()
    assert {"hansa", "voyage"} <= set(defs), sorted(defs)
    for page, ids in defs.items():
        assert ids, f"docs/rules/{page}.md defines no ids"
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        assert not dupes, f"docs/rules/{page}.md defines {dupes} more than once"
        for fam in {family(i) for i in ids}:
            numbers = [int(i[len(fam):]) for i in ids if family(i) == fam]
            assert numbers == list(range(1, len(numbers) + 1)), (
                f"docs/rules/{page}.md: {fam} ids are not 1..{len(numbers)} in order: "
                f"{numbers}")


def test_the_families_of_each_game():
    counts = {g: {f: sum(family(i) == f for i in ids) for f in FAMILIES}
              for g, ids in definitions().items()}
    assert {f: n for f, n in counts["hansa"].items() if n} == {"H": 30, "E": 11, "HA": 23}
    assert {f: n for f, n in counts["voyage"].items() if n} == {"V": 62, "E": 19, "VA": 42}


def test_every_cited_rule_id_is_defined_in_docs_rules():
    bad = unresolved(definitions())
    assert not bad, "rule ids cited but not defined:\n" + "\n".join(bad)


def test_removing_a_definition_is_caught():
    """The check has teeth: without HA4's entry every file citing HA4 is named."""
    defs = definitions()
    assert not unresolved(defs)
    cited = {(p.relative_to(ROOT).as_posix(), i) for p in source_files()
             for _, i in citations(p) if i == "HA4"}
    assert cited, "HA4 is cited somewhere (hansa_env/game.py's reasons, tests)"
    without = dict(defs, hansa=[i for i in defs["hansa"] if i != "HA4"])
    bad = unresolved(without)
    assert bad and all(": HA4 is not defined in docs/rules/hansa.md" in b for b in bad)
    assert {b.split(":")[0] for b in bad} == {f for f, _ in cited}


def test_docs_point_to_the_rules_inside_the_repository():
    """README and docs cite docs/rules/, not the project notes outside the repository."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "../shared/" not in text and "shared/rules" not in text, page
