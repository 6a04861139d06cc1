"""build_rule="per_stall" follows the Danish summary (H20, HA8): "the player may set up 1, 2
or 3 stalls in the city the ship is in; the price is one good per stall".

Action design: each `build:<token>` pays that token for one stall. The first build of a
visit starts the build (the visit's one action, H18); while fewer than 3 stalls were
placed by it, `build:<token>` stays legal for any held token (supply permitting); any
other decision (`sail:`, `end_actions`) ends it. `build_count` in the state (and
`build_count/3` in the observation) counts the stalls of the build in progress. The
official rule (`barrels`) is unchanged: one token, as many stalls as its barrels.
"""

import numpy as np
import pytest

from hansa_env import GAME
from hansa_env.reference import HansaGame
from hansa_env.state import StateView
from tests.helpers.hansa_helpers import (
    hand_of,
    legal_of,
    play,
    removed_count,
    staged,
    stalls_at,
)
from tradewinds.protocol import IllegalActionError

HAND = {0: {"blue3": 2, "blue1": 1, "red2": 1}}


def _stage(**kw):
    kw = {"colours": ("blue", "red"), "ship": "Danzig", "hands": HAND,
          "build_rule": "per_stall", **kw}
    return staged(2, **kw)


def test_one_build_places_one_two_or_three_stalls_one_token_each():
    s = _stage()
    supply = StateView(s).stall_supply[0]
    play(s, "build:blue3")                         # a 3-barrel token still pays for one stall
    assert stalls_at(s, "Danzig")[0] == 1 and StateView(s).stall_supply[0] == supply - 1
    assert hand_of(s, 0) == {"blue3": 1, "blue1": 1, "red2": 1}
    assert removed_count(s, "blue3") == removed_count(_stage(), "blue3") + 1
    assert StateView(s).build_count == 1 and StateView(s).acted_here == 1
    # the build may go on with any held token, but nothing else of the visit's actions
    assert legal_of(s, "build:") == {"build:blue3", "build:blue1", "build:red2"}
    assert not legal_of(s, "buy:") and not legal_of(s, "sell:")
    play(s, "build:red2")
    assert stalls_at(s, "Danzig")[0] == 2 and StateView(s).build_count == 2
    play(s, "build:blue1")
    assert stalls_at(s, "Danzig")[0] == 3 and StateView(s).build_count == 3
    assert hand_of(s, 0) == {"blue3": 1}
    # three stalls: the build is complete
    assert not legal_of(s, "build:")
    with pytest.raises(IllegalActionError, match="at most 3 stalls"):
        GAME.step(s, "build:blue3")
    obs = dict(zip(GAME.obs_names, GAME.observe(s, 0), strict=True))
    assert obs["build_count/3"] == 1.0 and obs["acted_here"] == 1.0
    GAME.validate_state(s)


def test_the_build_ends_with_the_visit_or_the_turn():
    s = _stage()
    play(s, "build:blue3")
    sail = sorted(legal_of(s, "sail:"))[0]
    play(s, sail)                                  # a new visit: a new action, a new build
    v = StateView(s)
    assert v.build_count == 0 and v.acted_here == 0
    play(s, "build:blue3")
    assert StateView(s).build_count == 1
    s = _stage()
    play(s, "build:blue3", "end_actions")
    assert StateView(s).build_count == 0
    GAME.validate_state(s)


def test_a_build_stops_when_the_supply_is_empty():
    s = _stage(stalls={("Danzig", 0): 13})         # two stalls left in supply
    play(s, "build:blue3", "build:blue3")
    assert stalls_at(s, "Danzig")[0] == 15 and StateView(s).stall_supply[0] == 0
    assert not legal_of(s, "build:")
    with pytest.raises(IllegalActionError, match="no stalls left"):
        GAME.step(s, "build:blue1")


def test_the_official_rule_is_unchanged():
    s = _stage(build_rule="barrels")
    play(s, "build:blue3")
    assert stalls_at(s, "Danzig")[0] == 3 and StateView(s).build_count == 0
    assert not legal_of(s, "build:")
    with pytest.raises(IllegalActionError, match="already acted"):
        GAME.step(s, "build:blue1")


def test_validate_state_rejects_a_build_count_without_a_build():
    for edit in (dict(build_count=1), dict(build_count=4), dict(build_count=-1)):
        s = _stage(build_rule="barrels" if edit["build_count"] == 1 else "per_stall")
        StateView(s).build_count = edit["build_count"]
        with pytest.raises(ValueError, match="build_count"):
            GAME.validate_state(s)
        with pytest.raises(ValueError, match="build_count"):
            HansaGame.from_state(s)


def test_kernel_and_reference_agree_on_builder_games():
    """Whole per_stall games where a seat holding 3 tokens builds (so builds of 1, 2 and 3
    stalls all happen), compared step by step with the reference."""
    rng = np.random.default_rng(7)
    sizes = set()
    for g in range(12):
        n = 2 + g % 3
        state = GAME.new_state(n, 500 + g, build_rule="per_stall")
        ref = HansaGame(n, 500 + g, build_rule="per_stall")
        run = 0
        while not ref.is_terminal():
            np.testing.assert_array_equal(state, ref.to_state())
            np.testing.assert_array_equal(GAME.legal_mask(state).astype(bool), ref.legal_mask())
            p = ref.current_player()
            np.testing.assert_array_equal(GAME.observe(state, p), ref.observe(p))
            legal = ref.legal_actions()
            builds = [a for a in legal if GAME.action_name(a).startswith("build:")]
            ready = run > 0 or ref.players[p].held() >= 3
            a = int(rng.choice(builds if builds and ready and rng.random() < 0.9 else legal))
            GAME.step(state, a)
            ref.step(a)
            if GAME.action_name(a).startswith("build:"):
                run += 1
            else:
                if run:
                    sizes.add(run)
                run = 0
        np.testing.assert_array_equal(state, ref.to_state())
    assert {1, 2, 3} <= sizes
