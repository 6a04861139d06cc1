"""`tradewinds.differential.first_difference`: a kernel state against a reference game
names the first thing that differs, by field, action name or observation entry; the
differential tests of both games and `benchmarks.soak` rely on it."""

import numpy as np

from tradewinds.differential import first_difference


def test_first_difference_names_what_differs():
    from voyage_env import GAME
    from voyage_env.reference import VoyageGame

    s = GAME.new_state(3, 2, black_ship=True)
    ref = VoyageGame(3, 2, black_ship=True)
    assert first_difference(GAME, s, ref) is None
    t = s.copy()
    GAME.checks.layout.view(t, "vp")[1] = 3
    assert "state: {'vp'" in first_difference(GAME, t, ref)


def test_the_fast_paths_still_name_what_differs(monkeypatch):
    """The comparison looks at lists and bytes first (legal ids, observation bytes); what
    they catch is named as before, and bytes that differ with equal values (-0.0) agree."""
    from voyage_env import GAME
    from voyage_env.reference import VoyageGame

    s = GAME.new_state(3, 2, black_ship=True)
    ref = VoyageGame(3, 2, black_ship=True)
    legal, seen = ref.legal_actions(), ref.observations()
    monkeypatch.setattr(ref, "legal_actions", lambda: legal[1:])
    assert first_difference(GAME, s, ref) == (
        f"legal mask: kernel only ['{GAME.action_name(legal[0])}'], reference only []")
    monkeypatch.setattr(ref, "legal_actions", lambda: legal)
    zero = int(np.flatnonzero(seen[1] == 0)[0])
    signed = [o.copy() for o in seen]
    signed[1][zero] = -0.0
    monkeypatch.setattr(ref, "observations", lambda: signed)
    assert first_difference(GAME, s, ref) is None
    signed[1][zero] = 0.5
    assert first_difference(GAME, s, ref) == (
        f"observation of seat 1: {GAME.obs_names[zero]} kernel 0.0 reference 0.5")
