"""The tiny third game, Pebbles (tests/helpers/pebbles_env/), as the proof that a game fits the
kernel protocol from outside the project's packages (docs/adding_a_game.md): its kernels
equal its plain-Python reference, it registers through the registry API the two games
use, plays in the arena (kernel and python paths, IS-MCTS) and in the throughput
benchmark. The conformance suite covers it too (tests/core/test_conformance.py registers it).
Also here: what `Game` checks of the protocol when it is made, and the registry API.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

import tradewinds
from tests.helpers import pebbles_env
from tests.helpers.pebbles_env.reference import PebblesGame
from tradewinds import registry, rewards
from tradewinds.compiled import generic
from tradewinds.protocol import CAPABILITIES, REQUIRED_KERNELS, Game
from tradewinds.studies import arena

GAME = pebbles_env.GAME
PEBBLES = pebbles_env.__name__                  # the module the registry imports



# ------------------------------------------------------------------ kernel = reference


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"pile": 9, "open_cards": True}])
def test_kernel_equals_reference(n, options):
    """Same seed and actions: the same state vector, legal actions and scores at every
    step, whole random games (the reference is the rules written plainly)."""
    rng = np.random.default_rng(n)
    for seed in range(20):
        ref = PebblesGame(n, seed, **options)
        s = GAME.new_state(n, seed, **options)
        while True:
            assert np.array_equal(s, ref.to_state())
            assert GAME.legal_actions(s) == ref.legal_actions()
            assert GAME.scores(s).tolist() == ref.scores()
            assert GAME.current_player(s) == ref.current_player()
            GAME.validate_state(s)
            if ref.is_terminal():
                break
            a = int(rng.choice(ref.legal_actions()))
            ref.step(a)
            GAME.step(s, a)
        assert GAME.is_terminal(s) and GAME.winners(s) == [
            p for p, v in enumerate(ref.scores()) if v == max(ref.scores())]


def test_rules_by_name():
    s = GAME.new_state(2, 0, pile=5)
    v = pebbles_env.state.StateView(s)
    v.forbidden = 2
    assert [GAME.action_name(a) for a in GAME.legal_actions(s)] == ["take:1", "take:3"]
    with pytest.raises(tradewinds.IllegalActionError,
                       match="take:2 is illegal: the previous take was 2 pebbles"):
        GAME.step(s, "take:2")
    GAME.step(s, "take:3")                          # seat 0 takes 3: 2 left
    assert GAME.legal_actions(s) == [0, 1] and GAME.current_player(s) == 1
    with pytest.raises(tradewinds.IllegalActionError, match="take:3 is illegal"):
        GAME.step(s, "take:3")
    GAME.step(s, "take:1")
    assert GAME.legal_actions(s) == [0]             # the last pebble may always be taken
    assert GAME.observe(s, 0)[-4:].tolist() == [v.card[0], 0, 0, 0]    # seat 1's is hidden
    GAME.step(s, "take:1")                          # seat 0 again: 4 pebbles, seat 1 has 1
    assert GAME.is_terminal(s) and GAME.scores(s).tolist() == [4 + v.card[0], 1 + v.card[1]]
    assert GAME.observe(s, 0)[-4:-2].tolist() == v.card[:2].tolist()   # shown at the end


def test_determinize_resamples_only_the_hidden_cards():
    s = GAME.new_state(4, 3)
    seen = []
    for key in range(200):
        d = GAME.determinize(s, 2, key)
        assert d[pebbles_env.state.CARD + 2] == s[pebbles_env.state.CARD + 2]
        seen.append(tuple(d[pebbles_env.state.CARD: pebbles_env.state.CARD + 4]))
    others = {c for t in seen for i, c in enumerate(t) if i != 2}
    assert others == set(range(1, 7)) - {int(s[pebbles_env.state.CARD + 2])}
    assert len(set(seen)) > 30                      # 5*4*3 = 60 deals are possible
    opened = GAME.new_state(4, 3, open_cards=True)
    d = GAME.determinize(opened, 2, 9)
    assert np.array_equal(d[:pebbles_env.state.RNG], opened[:pebbles_env.state.RNG])


# ------------------------------------------------------------------ registry and arena


def test_registered_only_where_asked(pebbles):
    assert "pebbles" in tradewinds.games() and tradewinds.game("pebbles") is GAME
    assert registry.module_name("pebbles") == PEBBLES
    env = tradewinds.make("pebbles", num_players=3)
    env.reset(seed=1)
    assert env.unwrapped.metadata["render_modes"] == ["human", "ansi"]    # no rgb renderer


def test_registry_api():
    assert "pebbles" not in tradewinds.games()      # no leak from other tests' fixtures
    with pytest.raises(ValueError, match="already registered"):
        registry.register("hansa", PEBBLES)
    with pytest.raises(ValueError, match="identifier"):
        registry.register("no such", PEBBLES)
    with registry.registered("hansa", PEBBLES):
        assert tradewinds.game("hansa") is GAME
    assert tradewinds.game("hansa").name == "hansa"
    registry.register("pebbles", PEBBLES)
    registry.register("pebbles", PEBBLES)     # the same again: fine
    registry.unregister("pebbles")
    with pytest.raises(ValueError, match="unknown game 'pebbles'"):
        registry.unregister("pebbles")


def _same_games(a, b):
    strip = [{k: v for k, v in r.items() if k != "duration"} for r in a + b]
    return strip[: len(a)] == strip[len(a):]


def test_arena_plays_it_on_both_paths(pebbles):
    fast = arena.Study.create("pebbles", 3, "random")
    assert fast.path == "kernel"                    # capability random_playout
    slow = arena.Study.create("pebbles", 3, "random", fast=False)
    for study in (fast, slow):
        rows = arena.play_chunk(study, range(5))
        assert [r["seed"] for r in rows] == list(range(5))
        for r in rows:
            assert r["turn_order"] == [0, 1, 2] and not r["truncated"]
            assert r["winners"] and len(r["scores"]) == 3 and r["rounds"] is None
        assert _same_games(rows[3:], arena.play_chunk(study, [3, 4]))   # same seed, same game


def test_arena_runs_a_search_agent_and_stores_the_games(pebbles, tmp_path):
    """IS-MCTS (determinize + the generic njit search) against random, stored in SQLite;
    a game without a strategy of its own has no heuristic agent."""
    from tradewinds.agents import make_agent
    from tradewinds.store import Store

    with pytest.raises(ValueError, match="no heuristic for pebbles"):
        make_agent("heuristic", game="pebbles")
    assert arena.Study.create("pebbles", 2, "heuristic").path == "python"
    study = arena.Study.create("pebbles", 2, ["mcts:30", "random"], seating="rotate")
    assert study.path == "python"
    with Store(tmp_path / "r.sqlite") as store:
        result = arena.run(study, store, 4)
        rows = store.games(result.run_id)
        assert result.played == 4 and len(rows) == 4
        assert [r["agents"] for r in rows[:2]] == [["mcts:30", "random"], ["random", "mcts:30"]]
        assert arena.run(study, store, 4).played == 0          # resumed: nothing left


# ------------------------------------------------------------------ benchmark smoke run


def test_throughput_benchmark_smoke(pebbles, tmp_path):
    """tradewinds.benchmarks.throughput measures any registered game with batch kernels (here a game
    registered at run time: its fresh processes import its module)."""
    from tradewinds.benchmarks import throughput

    assert throughput.main(["--games", "pebbles", "--players", "2", "--quick", "--no-peers",
                            "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "quick.json").read_text())
    (row,) = result["rows"]
    assert row["game"] == "pebbles" and row["reference"] is None
    assert row["kernel"]["steps_per_s"] > 0 and row["aec"]["steps_per_s"] > 0
    assert row["compile"]["warm_s"] > 0
    assert "| pebbles | 2 |" in (tmp_path / "quick.md").read_text()


def test_throughput_refuses_a_game_without_batch_kernels(monkeypatch):
    from tradewinds.benchmarks import throughput

    game = Game(**{**_fields(GAME), "name": "bare", "capabilities": {"jit"}})
    monkeypatch.setattr(throughput.registry, "game", lambda name: game)
    with pytest.raises(ValueError, match="throughput needs the 'batch' capability"):
        throughput.run(["bare"], [2], {"repeats": 1, "min_time": 0.0, "warmup": 0.0},
                       with_peers=False)


# ------------------------------------------------------------------ numba's shared cache


def test_generic_functions_compiled_for_it_stay_off_disk(pebbles):
    """The generic njit functions compiled for Pebbles (determinize, rewards) never enter
    the shared disk cache: other processes cannot import `pebbles_env`. The disk index is
    shared with the other test workers (who may flush it), so the guard is also checked
    directly: numba's save goes through it, and it refuses exactly the Pebbles signatures."""
    from numba import typeof
    from numba.core import caching

    from tradewinds.compiled import disk_cache

    hansa = tradewinds.game("hansa")
    for game in (hansa, GAME):
        s = game.new_state(2, 1)
        game.determinize(s, 0, 5)
        rewards.start(game, s)
    for dispatcher in (generic.determinize, rewards.margins):
        index = dispatcher._cache._cache_file._load_index()
        names = " ".join(str(key[0]) for key in index)
        assert "PebblesAux" not in names, names
    assert getattr(caching.Cache.save_overload, "keeps_off_disk", False)
    s = hansa.new_state(2, 1)
    assert disk_cache._names_off_disk((typeof(GAME.aux), typeof(s)))
    assert not disk_cache._names_off_disk((typeof(hansa.aux), typeof(s)))


# ------------------------------------------------------------------ what Game checks


def _fields(game) -> dict:
    from dataclasses import fields

    return {f.name: getattr(game, f.name) for f in fields(game)}


def test_game_checks_the_kernels_against_its_capabilities():
    base = _fields(GAME)
    assert set(REQUIRED_KERNELS) >= {"init", "step", "legal_mask", "observe", "winners"}
    assert {"batch", "random_playout", "turn_order", "jit"} == set(CAPABILITIES)
    with pytest.raises(ValueError, match=r"lack turn_order \(turn_order\)"):
        Game(**{**base, "capabilities": {"turn_order"}})
    with pytest.raises(ValueError, match="unknown capabilities \\['teleport'\\]"):
        Game(**{**base, "capabilities": {"teleport"}})
    partial = SimpleNamespace(**{k: getattr(GAME.kernels, k) for k in REQUIRED_KERNELS
                                 if k != "winners"})
    with pytest.raises(ValueError, match="the kernels lack winners"):
        Game(**{**base, "kernels": partial, "capabilities": set()})
    with pytest.raises(ValueError, match="capability 'jit' needs aux bound"):
        Game(**{**base, "aux": (), "capabilities": {"jit"}})
    bare = Game(**{**base, "kernels": SimpleNamespace(**{k: getattr(GAME.kernels, k)
                                                         for k in REQUIRED_KERNELS}),
                   "aux": (), "capabilities": set()})
    s = bare.new_state(3, 2)
    assert bare.turn_order(s) == [0, 1, 2] and not bare.supports("batch")
    with pytest.raises(ValueError, match="determinize needs the 'jit' capability"):
        bare.determinize(s, 0, 1)
    with pytest.raises(ValueError, match="random_playout needs the 'random_playout'"):
        bare.random_playout(s, 1)
    with pytest.raises(ValueError, match="unknown capability 'fly'"):
        bare.supports("fly")


def test_a_game_without_state_checks_still_refuses_bad_arrays():
    """Without `checks` the Game checks dtype, shape, contiguity and seats itself."""
    s = GAME.new_state(2, 0)
    for bad in (s.astype(np.int64), s[:-1], s[::2], s.tolist()):
        with pytest.raises(ValueError, match="int32"):
            GAME.legal_mask(bad)
    frozen = s.copy()
    frozen.flags.writeable = False
    assert np.array_equal(GAME.legal_mask(frozen), GAME.legal_mask(s))
    with pytest.raises(ValueError, match="read-only"):
        GAME.step(frozen, 0)
    with pytest.raises(ValueError, match="player must be a seat 0..1"):
        GAME.observe(s, 2)
