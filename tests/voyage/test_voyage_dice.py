"""The dice variant of the Voyage game: option `dice_movement=True` (rules V54, V55; decisions
VA34, VA35, VA39; the details in docs/voyage_engine.md "Dice movement").

VA34: no bidding (the turn order rotates each round), no wind or target cards, blue and red
symbols ignored, each turn starts with 2d6 movement points in place of discs drawn from the
state's own generator, a pirate space costs one extra point. Every rule has a test here that
fails when the rule is broken; the kernel (through `Game`) and the reference are checked
alike where it is cheap, and in lockstep over whole games.
"""

import random

import numpy as np
import pytest

import tradewinds
import voyage_env
from tests.helpers.voyage_helpers import (
    COST_MAP,
    SplitMix64,
    force_rolls,
    hx,
    legal,
    legal_of,
    play,
    rng_word,
    route,
    set_rng_word,
    staged,
    tiny_game,
)
from tradewinds.agents.heuristic import HeuristicAgent
from tradewinds.differential import first_difference
from voyage_env import GAME, scenario
from voyage_env.reference import VoyageGame
from voyage_env.state import (
    BID,
    CARDS,
    GAME_OVER,
    MONASTERY,
    MOVE,
    ORDER,
    PLAY,
    REACT,
    UPGRADE,
    WRECK,
    StateView,
)

DICE = {"dice_movement": True}
FORBIDDEN = ("bid:", "order:", "play:", "shield:", "cards:")   # auction and wind cards


def dice_of(word: int) -> tuple:
    """The two movement dice (1..6) the generator with state `word` gives next."""
    r = SplitMix64(word)
    return r.below(6) + 1, r.below(6) + 1


def turn_points(state) -> int:
    v = StateView(state)
    return int(v.discs[v.active])


def random_dice_game(n, seed, black_ship=False, max_rounds=40, on_step=None):
    """A uniformly random dice game on the default board; calls on_step(state) before
    every decision. Returns the final state."""
    s = GAME.new_state(n, seed, dice_movement=True, black_ship=black_ship,
                       max_rounds=max_rounds)
    rnd = random.Random(seed)
    while not GAME.is_terminal(s):
        if on_step is not None:
            on_step(s)
        GAME.step(s, rnd.choice(GAME.legal_actions(s)))
    return s


# ---------------------------------------------------------------- the option


def test_VA39_dice_movement_with_simple_deck_is_refused_naming_both_options():
    """VA39: the options combine freely except dice_movement with simple_deck."""
    for make in (lambda: GAME.new_state(2, 0, dice_movement=True, simple_deck=True),
                 lambda: voyage_env.env(dice_movement=True, simple_deck=True),
                 lambda: GAME.resolve_options({"dice_movement": True, "simple_deck": True}),
                 lambda: scenario.build(2, dice_movement=True, simple_deck=True)):
        with pytest.raises(ValueError, match="dice_movement.*simple_deck"):
            make()
    with pytest.raises(ValueError, match="dice_movement and simple_deck"):
        VoyageGame(2, 0, dice_movement=True, simple_deck=True)
    s = GAME.new_state(2, 0, **DICE)
    StateView(s).simple_deck = 1           # a state claiming both is malformed
    with pytest.raises(ValueError, match="dice_movement"):
        GAME.validate_state(s)
    with pytest.raises(ValueError):
        VoyageGame.from_state(s)
    with pytest.raises(ValueError, match="dice_movement"):
        GAME.legal_mask(s)                 # the structural check of every entry point


def test_the_option_flows_through_options_env_and_defaults():
    assert GAME.option_defaults["dice_movement"] is False
    assert GAME.resolve_options(DICE)["dice_movement"] is True
    # then seat_vp and seat_cards, four entries each (VA40, VA41), and rotate_order (VA42)
    assert GAME.parse_options(dice_movement=True, black_ship=True) == (0, 1, 40, 1) + (0,) * 9
    with pytest.raises(ValueError, match="dice_movement must be True or False"):
        GAME.new_state(2, 0, dice_movement=1)
    env = tradewinds.make("voyage", num_players=3, dice_movement=True, seed=3)
    env.reset(seed=3)
    v = StateView(env.unwrapped.state())
    assert v.dice_movement == 1 and v.phase == MOVE
    obs = env.observe(env.agent_selection)["observation"]
    assert env.observation_space(env.agent_selection)["observation"].contains(obs)


# ---------------------------------------------------------------- the dice (VA34)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_VA34_the_first_roll_comes_from_the_seeded_generator_after_the_order_shuffle(n):
    """VA34 + docs/design.md §2: setup draws only the turn order (no target or wind cards),
    then the first turn's two dice, all from the state's SplitMix64 (written out here on
    its own)."""
    for seed in (0, 7, 12345):
        s = GAME.new_state(n, seed, **DICE)
        v = StateView(s)
        r = SplitMix64(seed)
        order = list(range(n))
        r.shuffle(order)
        d1, d2 = r.below(6) + 1, r.below(6) + 1
        assert list(v.order[:n]) == order
        assert v.active == order[0] and v.phase == MOVE and v.round == 1
        assert turn_points(s) == d1 + d2
        assert list(v.rng) == r.words(), "nothing else drew from the generator"


def test_VA34_every_turn_starts_with_two_dice_from_the_state_and_the_engines_agree():
    """VA34: at the start of every turn discs[active] = the sum of the next two dice of the
    state's generator (the end of the previous turn draws nothing), in kernel and
    reference; other seats hold 0."""
    seen = 0
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        s = GAME.new_state(n, seed, **DICE)
        ref = VoyageGame(n, seed, **DICE)
        for _ in range(3 * n):                     # three rounds of stops
            v = StateView(s)
            word = rng_word(s)
            GAME.step(s, "stop")
            ref.step(GAME.action_id("stop"))
            if GAME.is_terminal(s):
                break
            v = StateView(s)
            assert turn_points(s) == sum(dice_of(word))
            assert ref.players[ref.active].discs == turn_points(s)
            assert all(v.discs[p] == 0 for p in range(n) if p != v.active)
            assert first_difference(GAME, s, ref) is None
            seen += 1
    assert seen >= 20


def test_VA34_same_seed_same_dice_other_seeds_other_dice_and_step_is_pure():
    def rolls(seed, black_ship=False):
        out = []

        def note(state):
            v = StateView(state)
            if v.phase == MOVE and v.spent[v.active] == 0:
                out.append((int(v.round), int(v.active), int(v.discs[v.active])))
        random_dice_game(3, seed, black_ship, max_rounds=6, on_step=note)
        return out

    assert rolls(5) == rolls(5)
    assert rolls(5) != rolls(6)
    s = GAME.new_state(2, 9, **DICE)
    t = s.copy()
    GAME.step(s, "stop")
    GAME.step(t, "stop")
    np.testing.assert_array_equal(s, t)        # same state and action: same next state
    u = GAME.new_state(2, 9, **DICE)
    set_rng_word(u, 77)                        # only the generator differs ...
    GAME.step(u, "stop")
    assert turn_points(u) == sum(dice_of(77))  # ... and decides the next roll


def test_VA34_the_rolls_are_two_dice_2_to_12_peaking_at_7():
    """2d6, not one d12 or a uniform 2..12: over many turns 7 is six times as frequent as 2
    or 12, and the mean is 7."""
    counts = np.zeros(13, dtype=np.int64)
    s = GAME.new_state(2, 0, **DICE)
    for _ in range(3000):
        counts[turn_points(s)] += 1
        GAME.step(s, "stop")
        if GAME.is_terminal(s):
            s = GAME.new_state(2, int(counts.sum()), **DICE)
    total = counts.sum()
    assert counts[:2].sum() == 0 and counts[2:].min() > 0
    expected = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36 * total
    assert np.abs(counts - expected)[2:].max() < 0.25 * expected[7]
    assert abs((counts * np.arange(13)).sum() / total - 7) < 0.15


def test_VA34_unused_points_are_lost_at_the_end_of_the_turn():
    s = scenario.build(2, dice_movement=True, discs={0: 11}, spent={0: 0})
    play(GAME, s, "stop")                          # 11 points left unused
    v = StateView(s)
    assert v.discs[0] == 0 and v.spent[0] == 0 and v.active == 1
    while StateView(s).active != 0:                # round 2 is led by seat 1 (rotation)
        play(GAME, s, "stop")
    v = StateView(s)
    assert v.round == 2 and v.spent[0] == 0 and 2 <= v.discs[0] <= 12, "a fresh roll"


def test_VA34_VA21_the_step_paid_with_the_last_point_ends_the_turn():
    g = tiny_game(**COST_MAP)
    s = scenario.build(2, game=g, dice_movement=True, ships={0: (1, 2)}, discs={0: 3},
                       spent={0: 2})
    play(g, s, "move:SE")                          # 1 point: the last one
    v = StateView(s)
    assert v.active == 1 and v.ship[0] == hx(g, 2, 3) and v.discs[0] == 0


# ---------------------------------------------------------------- costs (VA34, V15-V18)


def test_VA34_V18_a_pirate_space_costs_one_extra_point_and_cannot_be_shielded():
    g = tiny_game(**COST_MAP)
    s = scenario.build(2, game=g, dice_movement=True, ships={0: (2, 0)}, discs={0: 6})
    t = s.copy()
    play(g, t, "move:S")                           # no current, onto a pirate: 1 + 1
    assert StateView(t).spent[0] == 2
    s = scenario.build(2, game=g, dice_movement=True, ships={0: (2, 3)}, discs={0: 6})
    t = s.copy()
    play(g, t, "move:S")                           # along the arrow onto a pirate: 0 + 1
    assert StateView(t).spent[0] == 1
    s = scenario.build(2, game=g, dice_movement=True, ships={0: (2, 0)}, discs={0: 2},
                       spent={0: 1})
    assert "move:S" not in legal(g, s), "1 point left, the pirate step needs 2"
    assert not legal_of(g, s, "shield:"), "no wind cards: no protection (V34)"
    s = scenario.build(2, game=g, dice_movement=True, ships={0: (0, 2)}, discs={0: 2})
    t = s.copy()
    play(g, t, "move:S", "move:S")                 # along the current: free (V15)
    assert StateView(t).spent[0] == 0


EVENTS = dict(
    grid="""
        @~~~~
        ~~~~~
    """,
    events="""
        ~BR~~
        ~~~~~
    """,
)
"""Lisbon, then a blue space (1,0) and a red space (2,0) on the top row."""


def test_VA34_blue_and_red_spaces_are_ignored():
    """Blue: no card is played (and it can be entered with an empty hand, unlike V19);
    red: no die is rolled (the generator does not move), so nothing is ever wrecked."""
    g = tiny_game(**EVENTS)
    s = scenario.build(2, game=g, dice_movement=True, discs={0: 5})
    word = rng_word(s)
    path = route((0, 0), (1, 0), (2, 0), (3, 0))
    for a in path:
        play(g, s, a)
        v = StateView(s)
        assert v.phase == MOVE and v.active == 0 and rng_word(s) == word
    v = StateView(s)
    assert v.spent[0] == 3 and not v.wrecked[0].any() and v.ship[0] == hx(g, 3, 0)
    # the same steps in the base game: the blue space needs a card, the red space rolls
    base = staged(g, 2, hands={0: {"favourable": 1}})
    word = rng_word(base)
    play(g, base, path[0])
    assert StateView(base).phase == PLAY
    play(g, base, "play:favourable")
    if StateView(base).phase == REACT:             # seat 1 may move on the card: it stops
        play(g, base, "stop")
    play(g, base, path[1])
    assert rng_word(base) != word, "the base game rolls the die on a red space (V20)"


def test_VA34_no_auction_no_cards_no_targets_in_whole_random_games():
    """Along random games (with and without the Black Ship): the masks hold no bid, order,
    play, shield or card action; the phases BID, ORDER, PLAY, REACT, CARDS never come; no
    wind card or target card exists; the score is the VP scored in play."""
    phases, names = set(), set()

    def look(state):
        v = StateView(state)
        phases.add(int(v.phase))
        names.update(legal(GAME, state))
        assert v.deck_size == 0 and not v.discard.any() and not v.hand.any()
        assert (v.targets == -1).all()
        assert v.bid_high == 0 and v.bid_leader == -1 and not v.bid.any()
        n = v.num_players
        assert list(GAME.scores(state)) == list(v.vp[:n])

    for n in (2, 3, 4):
        for seed in range(3):
            s = random_dice_game(n, 50 * n + seed, black_ship=seed == 1, max_rounds=8,
                                 on_step=look)
            assert GAME.is_truncated(s) or StateView(s).end_triggered
    assert not phases & {BID, ORDER, PLAY, REACT, CARDS}
    assert MOVE in phases
    assert not [a for a in names if a.startswith(FORBIDDEN)]
    assert {"dock", "stop"} <= names and any(a.startswith("black:") for a in names)
    o = GAME.observe(GAME.new_state(3, 1, **DICE), 0)
    hidden = [i for i, name in enumerate(GAME.obs_names)
              if name.startswith(("my_hand:", "my_target:", "discard:")) or "hand_size" in name]
    assert not o[hidden].any()


# ---------------------------------------------------------------- order (VA34)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_VA34_the_turn_order_rotates_each_round(n):
    """Round r plays the starting order rotated r - 1 positions (the first player becomes
    the last): every seat starts a round in turn; no auction is ever held."""
    s = GAME.new_state(n, 31 + n, **DICE)
    first = [int(x) for x in StateView(s).order[:n]]
    ref = VoyageGame(n, 31 + n, **DICE)
    starters = []
    for r in range(1, 2 * n + 2):
        v = StateView(s)
        assert v.round == r
        want = first[(r - 1) % n:] + first[:(r - 1) % n]
        assert [int(x) for x in v.order[:n]] == want
        for pos in range(n):
            v = StateView(s)
            assert v.phase == MOVE and v.position == pos and v.active == want[pos]
            if pos == 0:
                starters.append(int(v.active))
            GAME.step(s, "stop")
            ref.step(GAME.action_id("stop"))
        assert first_difference(GAME, s, ref) is None
    assert starters[:n] == first and sorted(starters[:n]) == list(range(n))


# ---------------------------------------------------------------- Lisbon, Black Ship, end


def test_upgrade_brings_ship_four_into_service_without_extra_points_and_no_card_choice():
    """VA34 decision: the dice replace the discs, so the upgrade (V43) only puts ship 4 in
    service; docking ends without the wind-card choice (V45 needs a hand)."""
    s = scenario.build(3, dice_movement=True, discs={0: 4}, spent={0: 1},
                       cubes={0: ["chili", "ivory", "cinnamon", "pepper"]})
    play(GAME, s, "dock")
    assert StateView(s).phase == UPGRADE
    play(GAME, s, "upgrade:chili", "upgrade:ivory", "upgrade:cinnamon")
    v = StateView(s)
    assert v.phase == MONASTERY and v.upgraded[0] == 1
    assert v.discs[0] == 4 and v.spent[0] == 1, "no 12 discs: the roll stays the roll"
    play(GAME, s, "monastery:take")
    v = StateView(s)
    assert v.phase == MOVE and v.active == 1 and v.docked[0] == 1 and v.vp[0] == 10
    assert v.phase != CARDS and not v.hand.any()
    ref = VoyageGame.from_state(s)
    assert first_difference(GAME, s, ref) is None


BLACK = dict(
    grid="""
        @~~~~~
        ~~~M~~
    """,
    hemisphere="""
        WWWEEE
        WWWEEE
    """,
    ports="M | Melaka | 1509 | east | -",
)


def test_VA35_the_black_ship_costs_one_point_a_step_and_its_attack_still_rolls():
    """VA35 with the dice: 1 movement point per Black Ship step; its attack (V61, not a red
    symbol) rolls the wreck die, so the owner may have to choose a wreck."""
    g = tiny_game(**BLACK)
    s = scenario.build(2, game=g, dice_movement=True, black_ship=True, discs={0: 5},
                       ships={1: (4, 1)}, black_hex=(3, 1))
    force_rolls(s, True)
    play(g, s, "black:NE")                       # (3,1) odd col NE -> (4,1): seat 1's hex
    v = StateView(s)
    assert v.spent[0] == 1 and v.black_hex == hx(g, 4, 1) and v.attacked[1] == 1
    assert v.phase == WRECK and v.decider == 1
    play(g, s, "wreck:ship2")
    v = StateView(s)
    assert v.wrecked[1, 1] == 1 and v.phase == MOVE and v.decider == 0
    s = scenario.build(2, game=g, dice_movement=True, black_ship=True, discs={0: 2},
                       spent={0: 1}, black_hex=(3, 1), ships={0: (1, 0)})
    play(g, s, "black:N")                        # the last point ends the turn (VA21)
    assert StateView(s).active == 1


def test_V49_the_last_monastery_tile_still_ends_the_game_after_the_round():
    """The end is unchanged with the dice: the round of the last tile is finished, then
    the game is over (not truncated); the score is the VP scored in play."""
    s = scenario.build(3, dice_movement=True, order=[1, 0, 2], active=0, discs={0: 6},
                       tiles={1: [1], 2: [2, 3]}, cubes={0: ["pepper"]}, vp={1: 10, 2: 20})
    play(GAME, s, "dock", "monastery:take")
    v = StateView(s)
    assert v.end_triggered == 1 and v.active == 2 and v.phase == MOVE
    play(GAME, s, "stop")
    v = StateView(s)
    assert v.phase == GAME_OVER and not GAME.is_truncated(s)
    assert list(GAME.scores(s)) == [10, 10, 20] and GAME.winners(s) == [2]


# ---------------------------------------------------------------- state, views, tools


def test_state_checks_know_the_variant():
    s = random_dice_game(3, 4, max_rounds=3)
    GAME.validate_state(s)
    VoyageGame.from_state(s)
    live = GAME.new_state(3, 4, black_ship=True, **DICE)
    GAME.validate_state(live)
    for edit, message in [
        (lambda v: v.discs.__setitem__(int(v.order[1]), 5), "roll"),
        (lambda v: v.discs.__setitem__(int(v.active), 13), "discs"),
        (lambda v: v.targets.__setitem__((0, 0), 3), "target"),
        (lambda v: setattr(v, "bid_leader", 0), "no auction"),
        (lambda v: setattr(v, "arrival_stage", 1), "ignores blue and red"),
    ]:
        t = live.copy()
        edit(StateView(t))
        with pytest.raises(ValueError, match=message):
            GAME.validate_state(t)
        with pytest.raises(ValueError):
            VoyageGame.from_state(t)
    t = live.copy()
    v = StateView(t)
    v.hand[0, 0] = 1                              # a wind card appears: not conserved
    with pytest.raises(ValueError, match="wind cards"):
        GAME.legal_mask(t)


def test_determinize_only_reseeds_there_is_nothing_hidden():
    s = GAME.new_state(4, 8, black_ship=True, **DICE)
    for p in range(4):
        d = GAME.determinize(s, p, 5)
        same = np.ones(len(s), dtype=bool)
        rng_at = GAME.checks.layout.offset("rng")
        same[rng_at: rng_at + 2] = False
        np.testing.assert_array_equal(d[same], s[same])


def test_observation_shows_the_turns_points_within_the_box():
    s = scenario.build(3, dice_movement=True, discs={0: 9}, spent={0: 4})
    high = GAME.obs_high(3)
    for p in range(3):
        o = GAME.observe(s, p)
        assert (o <= high).all() and (o >= 0).all()
        rel = (0 - p) % 3
        assert o[GAME.obs_names.index(f"p{rel}:discs")] == pytest.approx(9 / 12)
        assert o[GAME.obs_names.index(f"p{rel}:available")] == pytest.approx(5 / 12)
        other = (1 - p) % 3
        assert o[GAME.obs_names.index(f"p{other}:discs")] == 0


def test_scenario_builds_and_describes_dice_positions():
    s = scenario.build(4, dice_movement=True, black_ship=True, round=5, order=[2, 0, 3, 1],
                       active=3, discs={3: 8}, spent={3: 2}, ships={3: "Calicut"},
                       cubes={3: ["pepper"]}, vp={0: 7})
    d = scenario.describe(s)
    assert d["dice_movement"] is True and d["discs"] == {0: 0, 1: 0, 2: 0, 3: 8}
    np.testing.assert_array_equal(scenario.build(**d), s)
    for kwargs, fragment in [
        (dict(phase="bid"), "does not happen with dice_movement"),
        (dict(phase="cards"), "does not happen"),
        (dict(hands={0: ["calm"]}), "no wind cards"),
        (dict(targets={0: ["Ceylon"]}), "no target cards"),
        (dict(bids={0: 2}), "no bids"),
        (dict(discs={0: 13}), "two dice give 2..12"),
        (dict(discs={1: 4}), "only the active seat"),
    ]:
        with pytest.raises(ValueError, match=fragment):
            scenario.build(2, dice_movement=True, **kwargs)


def test_the_text_and_picture_say_moves():
    s = scenario.build(2, dice_movement=True, discs={0: 7}, spent={0: 3})
    text = GAME.render_ansi(s)
    assert "moves 4/7" in text and "discs" not in text
    frame = GAME.render_rgb(s)
    assert frame.ndim == 3 and frame.shape[2] == 3


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("black_ship", [False, True], ids=["dice", "dice+black_ship"])
def test_kernel_and_reference_agree_on_whole_dice_games(black_ship):
    """Lockstep over random and heuristic games: state, masks, observations, scores."""
    for n in (2, 3, 4):
        for kind in ("random", "heuristic"):
            seed = 40 * n + black_ship
            opts = dict(DICE, black_ship=black_ship, max_rounds=6 if kind == "random" else 40)
            s = GAME.new_state(n, seed, **opts)
            ref = VoyageGame(n, seed, **opts)
            rnd, arng, agent = random.Random(seed), np.random.default_rng(seed), None
            if kind == "heuristic":
                agent = HeuristicAgent("voyage")
            step = 0
            while True:
                diff = first_difference(GAME, s, ref, observations=step % 3 == 0)
                assert diff is None, f"{n} players {kind} seed {seed} step {step}: {diff}"
                if ref.is_terminal():
                    break
                mask = GAME.legal_mask(s)
                a = (rnd.choice(np.flatnonzero(mask).tolist()) if agent is None
                     else agent.act(None, mask, arng, state=s))
                GAME.step(s, a)
                ref.step(a)
                step += 1
            assert first_difference(GAME, s, ref) is None
            if kind == "heuristic":
                assert not GAME.is_truncated(s), "the heuristic ends dice games by the rules"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_games_with_dice_end_by_the_rules(n):
    """All-heuristic dice games end with the last monastery tile (V49), not the cap."""
    agent = HeuristicAgent("voyage")
    for seed in range(4):
        s = GAME.new_state(n, 700 + seed, black_ship=seed % 2 == 1, **DICE)
        rng = np.random.default_rng(seed)
        while not GAME.is_terminal(s):
            GAME.step(s, agent.act(None, GAME.legal_mask(s), rng, state=s))
        v = StateView(s)
        assert not GAME.is_truncated(s) and v.tiles_taken == v.tiles_total
        assert v.round < 25


def test_batched_kernels_and_playouts_take_the_option():
    from voyage_env import kernel as K

    seeds = np.arange(8, dtype=np.int64)
    states = np.zeros((8, K.STATE_SIZE), np.int32)
    GAME.kernels.init_batch(states, 3, seeds, 0, 1, 4, 1)
    for i in range(8):
        np.testing.assert_array_equal(
            states[i], GAME.new_state(3, i, black_ship=True, max_rounds=4, **DICE))
    masks = np.zeros((8, K.NUM_ACTIONS), np.int8)
    keys = np.stack([seeds, seeds + 1], axis=1).astype(np.int32)
    finished = 0
    for _ in range(400):
        finished += GAME.kernels.random_step_batch(states, masks, keys, seeds, True, 3,
                                                   0, 1, 4, 1)
    assert finished > 0 and (states[:, K.DICE] == 1).all() and (seeds > np.arange(8)).any()
    opts = GAME.parse_options(**DICE, max_rounds=3)
    assert GAME.kernels.random_games(2, 0, 3, *opts) > 0
    s = GAME.new_state(2, 1, **DICE)
    assert GAME.random_playout(s, 3) > 0 and GAME.is_terminal(s)
