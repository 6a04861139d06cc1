"""The command lines' shared parts: one-line errors, exit codes and argument types.

Every command of the project (`tradewinds`, `python -m studies.evaluate`, the benchmarks)
reports bad arguments the same way; this module lives on the ground floor so that the
studies need not import the `tradewinds` command itself (tests/test_layers.py).
"""

from __future__ import annotations

import argparse

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors: `tradewinds fpa: error: ...` (no usage block)."""

    def error(self, message):
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def game_name(text: str) -> str:
    from tradewinds import registry

    if text not in registry.games():
        raise argparse.ArgumentTypeError(
            f"unknown game {text!r}; known games: {', '.join(registry.games())}")
    return text


def int_at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


def open_unit(text: str) -> float:
    """A number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {text}")
    return value
