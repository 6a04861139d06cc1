"""The README's Python examples run as written."""

import re

from tests.helpers import ROOT

README = ROOT / "README.md"


def test_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


def test_readme_commands_match_ci():
    """The test command a newcomer copies is the one CI runs."""
    ci = (README.parent / ".ci" / "run").read_text()
    readme = README.read_text()
    assert 'pip install -e ".[train,dev,dist,bench]"' in readme
    assert '-e ".[train,dev,dist,bench]"' in ci
    assert "python -m pytest -n 2" in readme and "python -m pytest -n 2" in ci
    assert "torch==2.13.0" in readme and "torch==2.13.0" in ci
