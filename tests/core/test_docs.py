"""docs/actions.md lists every action id and name of every game, as the code defines them."""

import tradewinds
from tests.helpers import ROOT

DOC = ROOT / "docs" / "actions.md"
HEADER = """# Action ids and names

Stable ids and names of every game's actions (generated from the code; `tests/core/test_docs.py`
fails when they drift). What each family means and when it is legal: the docstrings of
`hansa_env/actions.py` and `voyage_env/actions.py`, and the engine contracts in `docs/`.
"""


def render() -> str:
    tables = [tradewinds.game(name).action_table() for name in tradewinds.games()]
    return HEADER + "\n" + "\n\n".join(tables) + "\n"


def test_action_tables_are_up_to_date():
    assert DOC.read_text() == render(), "regenerate: python -m tests.core.test_docs"


if __name__ == "__main__":
    DOC.write_text(render())
