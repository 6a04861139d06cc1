"""The rich Console every command prints its tables and lines with.

On a terminal rich fits the output to the terminal's width. Sent to a file or a pipe, rich
would assume 80 columns (or the width of whatever terminal stdin is) and cut table cells
(``4.22…``) and wrap long lines; there, the console is `UNCUT` columns wide instead, so a
table prints at its natural width and a line stays one line. A ``COLUMNS`` set in the
environment still wins, as rich documents. Emoji codes are off: an agent named
``br:100:heuristic`` prints as written, not with rich's emoji for ``:100:``.
"""

from __future__ import annotations

import os

from rich.console import Console

UNCUT = 10_000      # columns off a terminal: wider than any table or line the commands print


def console(*, stderr: bool = False) -> Console:
    """A Console on stdout (or stderr): the terminal's width, or `UNCUT` off a terminal
    (the stream itself, not rich's guess, which FORCE_COLOR turns to a terminal)."""
    out = Console(stderr=stderr, emoji=False)
    if not _isatty(out.file) and not os.environ.get("COLUMNS", "").isdigit():
        out.width = UNCUT
    return out


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):      # no isatty, or a closed stream
        return False
