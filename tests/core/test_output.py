"""The commands' console (tradewinds/output.py): whole tables and lines off a terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT, packages

CELL = "x" * 150 + "_end"       # one cell wider than 80 columns, with no space to wrap at

PRINT_A_TABLE = f"""
import sys
from rich.console import Console
from rich.table import Table
from tradewinds import output
t = Table("name", "value")
t.add_row("{CELL}", "4.2231")
(output.console() if sys.argv[1] == "ours" else Console()).print(t)
print("end")
"""


def _run(which: str, stdout=subprocess.PIPE, **env) -> str:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE")}
    return subprocess.run([sys.executable, "-c", PRINT_A_TABLE, which], cwd=ROOT, check=True,
                          stdout=stdout, stdin=subprocess.DEVNULL, text=True,
                          env=environ | env, timeout=120).stdout


def test_a_table_sent_down_a_pipe_prints_whole():
    plain = _run("rich")
    assert CELL not in plain and "…" in plain          # rich alone: cut to 80 columns
    for env in ({}, {"FORCE_COLOR": "1"}):             # colours asked for: still a pipe
        ours = _run("ours", **env)
        assert CELL in ours and "4.2231" in ours and "…" not in ours
        assert sum(CELL in line for line in ours.splitlines()) == 1


def test_agent_names_print_as_written():
    """rich would print the agent br:100:heuristic with its emoji for ':100:'."""
    import io

    from tradewinds import output

    out = output.console()
    out.file = io.StringIO()
    out.print("br:100:heuristic")
    assert out.file.getvalue().strip() == "br:100:heuristic"


def test_a_given_columns_wins():
    assert CELL not in _run("ours", COLUMNS="60")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_terminal_keeps_its_width():
    import fcntl
    import pty
    import struct
    import termios

    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        _run("ours", stdout=child)
    finally:
        os.close(child)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:            # the terminal closed: all read
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    text = seen.decode(errors="replace")
    assert "end" in text and CELL not in text and "…" in text


def _product_files():
    """Every .py file of the packages the wheel installs (pyproject's package list)."""
    return sorted({f for folder in packages.installed().values() for f in folder.rglob("*.py")})


def test_every_command_prints_through_the_one_console():
    """A `Console(` of its own would print tables cut to 80 columns off a terminal: only
    tradewinds/output.py makes one (the others ask `output.console()`)."""
    made_here = ROOT / "tradewinds" / "output.py"
    makers = {f.relative_to(ROOT).as_posix() for f in _product_files()
              if re.search(r"\bConsole\(", f.read_text(encoding="utf-8"))}
    assert made_here.relative_to(ROOT).as_posix() in makers      # the scan sees a maker
    assert makers == {"tradewinds/output.py"}, (
        "print through tradewinds.output.console() instead of a Console of its own: "
        + ", ".join(sorted(makers - {"tradewinds/output.py"})))
