"""The command lines' shared parts: one-line errors, exit codes, argument types, and
`option`, which declares a config dataclass field and its command-line form at once.

Every command of the project (`tradewinds`, `python -m tradewinds.studies.evaluate`, the benchmarks)
reports bad arguments the same way; this module lives on the ground floor so that the
studies, training and the games' picture commands need not import the `tradewinds` command
itself (tests/core/test_layers.py). The `tradewinds` command (`tradewinds.cli`) builds each
subcommand's parser from the fields of the config dataclass that `option` marked.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable
from typing import Any

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


def check_positive_ints(config, names) -> None:
    """ValueError naming the first of `config`'s fields `names` that is not a positive
    integer (a bool is not one)."""
    for name in names:
        v = getattr(config, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")


def require_train_extra(what: str, modules=("sb3_contrib",)) -> None:
    """ValueError naming `what` and the missing modules when the train extra (which brings
    `modules`) is not installed."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise ValueError(f"{what} needs the train extra ({', '.join(missing)} missing): "
                         f"pip install 'tradewinds[train]'")


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


STEP_UNITS = {"": 1, "k": 1_000, "m": 1_000_000}
"""The suffixes of a count of env steps (lower case): 300k, 1.5M."""


def steps_at_least(minimum: int):
    """A whole count of env steps, with an optional k or M: 300000, 300k, 1.5M."""
    def parse(text: str) -> int:
        m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmM]?)", text.strip().replace("_", ""))
        value = float(m.group(1)) * STEP_UNITS[m.group(2).lower()] if m else None
        if value is None or value != int(value):
            raise argparse.ArgumentTypeError(f"must be a whole number of steps (300000, 300k, "
                                             f"1.5M), got {text!r}")
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {text}")
        return int(value)

    parse.__name__ = f"steps >= {minimum}"
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


def action_families(game, names) -> tuple[str, ...]:
    """`names` as a tuple, each checked to be one of `game`'s action families (the part of
    an action's name before ':'); ValueError naming the unknown ones and the known."""
    known = {game.action_name(a).split(":")[0] for a in range(game.num_actions)}
    unknown = sorted(set(names) - known)
    if unknown:
        raise ValueError(f"{game.name} has no action family {', '.join(unknown)}; its "
                         f"families: {', '.join(sorted(known))}")
    return tuple(names)


def family_prefixes(families) -> tuple[str, ...]:
    """What an action's name starts with when it is of one of `families` (for
    `str.startswith`): the family alone or the family and ':'."""
    return tuple(f"{f}:" for f in families) + tuple(families)


def int_tuple(text: str) -> tuple:
    """'128,128' -> (128, 128): layer sizes and the like, every one a positive integer."""
    try:
        values = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"takes positive integers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(
            f"takes positive integers separated by commas, got {text!r}")
    return values


# ------------------------------------------------------------ options declared once


@dataclasses.dataclass(frozen=True)
class Option:
    """How a config dataclass field appears on the command line (`option` makes one).

    The parser takes the field's default as its own, so the two cannot differ. `flag`
    defaults to ``--`` + the name with dashes (``--no-`` + it for a field that defaults to
    True); `show` is how the help names the default (None: the default itself, "": not at
    all). A `repeat` option is given any number of times: the parser collects the texts
    and `convert` (a callable, or "module:attribute" imported on use) turns the list, or
    None when none was given, into the field's value. `nested` names a dataclass whose
    own option fields appear in place of this one."""

    help: str
    flag: str | None = None
    type: Callable | None = None
    choices: tuple | None = None
    metavar: str | None = None
    show: str | None = None
    positional: bool = False
    required: bool = False
    repeat: bool = False
    convert: Callable | str | None = None
    nested: type | None = None


def option(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING,
           **spec) -> Any:
    """A dataclass field that is also a command-line option (see `Option`)."""
    return dataclasses.field(default=default, default_factory=default_factory,
                             metadata={"cli": Option(**spec)})
