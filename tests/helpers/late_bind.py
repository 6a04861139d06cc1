"""A game bound while a generic function compiles: the compilation must still succeed.

Unpickling a generic function's cache index imports every game it names, so a game can be
bound in the middle of compiling another game's code (CI saw `rewards.pay` fail that
way: "Cannot unify Function(is_terminal) and Function(is_terminal)"). Run by
tests/core/test_compiled_protocol.py in a child process with a private NUMBA_CACHE_DIR.
"""

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from tests.helpers import count_game
from tradewinds.compiled import protocol


class LateAux(NamedTuple):
    x: np.ndarray


def bind_late():
    raise NotImplementedError("called from njit code only")


@overload(bind_late)
def _bind_late_while_typing():
    protocol.bind(LateAux, cache=False,
                  **{name: (lambda *args: None) for name in protocol.PROTOCOL})
    return lambda: 0


@njit
def terminal_twice(aux, s):
    before = protocol.is_terminal(aux, s)
    bind_late()
    return before and protocol.is_terminal(aux, s)


if __name__ == "__main__":
    s = np.zeros(8, dtype=np.int32)
    s[0], s[1] = 2, count_game.TARGET
    assert terminal_twice(count_game.AUX, s)
    assert LateAux in protocol.bound_games()
    print("late bind ok")
