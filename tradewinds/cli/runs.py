"""What the study commands share: the backend check, the games already stored (for the
Ctrl-C line) and the command line recorded with the results."""

from __future__ import annotations

import sqlite3


def check_backend(args) -> None:
    import importlib.util

    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ValueError("--backend ray needs Ray: pip install 'tradewinds[dist]'")
    if args.backend != "ray" and args.address is not None:
        raise ValueError("--address is for --backend ray")


def stored_games(db) -> int | None:
    """Games in the results file (None when it cannot be read)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return int(con.execute("SELECT count(*) FROM game").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return None


def command_line(args) -> str:
    return "tradewinds " + " ".join(args.argv)


def before_playing(args, config) -> None:
    """The checks a study makes before its first game: the backend, the output directory;
    then the games stored so far are counted for the Ctrl-C line."""
    from tradewinds.studies.match import check_writable_dir

    if hasattr(args, "backend"):
        check_backend(args)
    check_writable_dir(config.out, "--out" if args.out is not None else "--db directory")
    args.stored_before = stored_games(args.db)
