"""Voyage determinization (voyage_env/determinize.py, docs/design.md §6, VA32).

What seat p sees is `observe(state, p)`: the public position, his own wind cards and his
own target cards. A determinization keeps all of that and resamples the rest: the other
hands (sizes kept), the other seats' target cards (from the ports p does not hold), the
deck and the state's generator. Checked here on positions from random play (2-4 players,
default, simple deck, Black Ship): invariants, the observation and public fields kept,
the hidden parts varying with the key, honesty (states differing only in hidden parts give
the same sample), uniformity against the hypergeometric / uniform laws, and the one
constraint a public position puts on a hidden hand (a seat about to play on a blue space
holds a playable card).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from tests.helpers.voyage_helpers import force_rolls
from tradewinds.compiled import generic
from tradewinds.protocol import as_key
from voyage_env import GAME, scenario
from voyage_env import kernel as K
from voyage_env import rules as R
from voyage_env.board import DIRS
from voyage_env.determinize import determinize
from voyage_env.state import GAME_OVER, LAYOUT, PLAY, WRECK, StateView

OPTIONS = {"default": {}, "simple": {"simple_deck": True}, "black": {"black_ship": True}}
FAVOURABLE = R.FAVOURABLE


# ---------------------------------------------------------------- positions and fields

def positions(n: int, options: dict, count: int, seed: int):
    """States from random play, each stopped at a random decision (some at the start)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(count):
        s = GAME.new_state(n, seed * 1000 + g, **options)
        stop = int(rng.integers(0, 25)) if g % 4 == 0 else int(rng.integers(0, 250 * n))
        for _ in range(stop):
            if GAME.is_terminal(s):
                break
            legal = np.flatnonzero(GAME.legal_mask(s))
            GAME.step(s, int(legal[rng.integers(len(legal))]))
        if not GAME.is_terminal(s):
            out.append(s)
    return out


def live_position(n: int, options: dict, seed: int):
    """A live state after 40-240 random decisions, with cards in the other hands."""
    rng = np.random.default_rng(seed)
    for k in range(100):
        s = GAME.new_state(n, seed + k, **options)
        for _ in range(int(rng.integers(40, 240))):
            if GAME.is_terminal(s):
                break
            legal = np.flatnonzero(GAME.legal_mask(s))
            GAME.step(s, int(legal[rng.integers(len(legal))]))
        if not GAME.is_terminal(s) and (StateView(s).simple_deck
                                         or StateView(s).hand[1:n].sum()):
            return s
    raise AssertionError("no live position found")


def hidden_mask(state, player: int) -> np.ndarray:
    """True on the state entries hidden from `player`: other hands, other target cards,
    the deck, the generator."""
    n = StateView(state).num_players
    mask = np.zeros(state.shape, dtype=bool)
    for name in ("deck", "rng"):
        f = LAYOUT.fields[name]
        mask[f.offset: f.offset + f.size] = True
    for name, width in (("hand", R.NUM_CARD_KINDS), ("targets", 2 * R.TARGETS_PER_DECK)):
        at = LAYOUT.offset(name)
        for q in range(n):
            if q != player:
                mask[at + q * width: at + (q + 1) * width] = True
    return mask


def check_sample(state, d, player):
    """Everything a determinization of `state` for `player` must satisfy."""
    GAME.validate_state(d)
    assert np.array_equal(GAME.observe(d, player), GAME.observe(state, player))
    public = ~hidden_mask(state, player)
    changed = np.flatnonzero(public & (d != state))
    assert changed.size == 0, f"public entries changed: {changed}"
    v, w = StateView(state), StateView(d)
    n = v.num_players
    assert np.array_equal(v.hand[:n].sum(axis=1), w.hand[:n].sum(axis=1))
    assert (w.deck[w.deck_size:] == 0).all()
    dealt = [int(x) for x in w.targets[:n].ravel() if x >= 0]
    assert len(dealt) == len(set(dealt)), "a target card dealt twice"
    assert ((w.targets[:n] >= 0).sum(axis=1) == (v.targets[:n] >= 0).sum(axis=1)).all()
    ports = GAME.board.port_deck
    for q in range(n):   # west slots hold west ports, east slots east ports
        for j, x in enumerate(w.targets[q]):
            if x >= 0:
                assert ports[x] == j // R.TARGETS_PER_DECK
    if not GAME.is_terminal(d):
        assert GAME.legal_mask(d).any(), "a live determinization without a legal action"
        assert GAME.current_player(d) == GAME.current_player(state)


def cases():
    for n in (2, 3, 4):
        for name in OPTIONS:
            yield pytest.param(n, name, id=f"{n}p-{name}")


# ---------------------------------------------------------------- invariants and observation

@pytest.mark.parametrize("n,opt", list(cases()))
def test_sample_keeps_what_the_seat_sees(n, opt):
    states = positions(n, OPTIONS[opt], 16, seed=10 * n + len(opt))
    assert len(states) >= 10
    others_differ = 0
    for i, s in enumerate(states):
        before = s.copy()
        for player in range(n):
            d = GAME.determinize(s, player, 1000 * i + player)
            check_sample(s, d, player)
            assert np.array_equal(s, before), "determinize changed the real state"
            others_differ += any(not np.array_equal(GAME.observe(d, q), GAME.observe(s, q))
                                 for q in range(n) if q != player)
    if opt != "simple":   # other seats see their own (resampled) hands and targets
        assert others_differ > len(states)


def test_game_over_is_only_reseeded():
    s = GAME.new_state(2, 5)
    K.random_playout(s, GAME.aux.m, as_key(5))
    for player in range(2):
        d = GAME.determinize(s, player, 3)
        rng_at = LAYOUT.offset("rng")
        diff = set(np.flatnonzero(d != s).tolist())
        assert diff and diff <= {rng_at, rng_at + 1}
        assert StateView(d).phase == GAME_OVER


# ---------------------------------------------------------------- the hidden parts vary

@pytest.mark.parametrize("n,opt", [(2, "default"), (3, "black"), (4, "default"),
                                   (3, "simple")])
def test_hidden_parts_vary_with_the_key(n, opt):
    s = live_position(n, OPTIONS[opt], seed=77)
    v = StateView(s)
    player = 0
    samples = [GAME.determinize(s, player, k) for k in range(30)]
    views = [StateView(d) for d in samples]
    assert len({d.tobytes() for d in samples}) == 30
    assert len({w.deck[: v.deck_size].tobytes() for w in views}) > 1
    assert len({w.rng.tobytes() for w in views}) == 30
    assert len({w.targets[1:n].tobytes() for w in views}) > 1
    if opt != "simple" and v.hand[1:n].sum():
        assert len({w.hand[1:n].tobytes() for w in views}) > 1
    # the same key gives the same sample; the key array is advanced
    key = as_key(4)
    k0 = key.copy()
    a = GAME.determinize(s, player, key)
    assert not np.array_equal(key, k0)
    assert np.array_equal(a, GAME.determinize(s, player, k0.copy()))
    assert np.array_equal(a, GAME.determinize(s, player, 4))


# ---------------------------------------------------------------- honesty

def hidden_variant(state, player: int, rng) -> np.ndarray:
    """The same position for `player` with the hidden parts permuted: an opponent's card
    swapped with a deck card of another kind, cards moved between opponents, the deck
    shuffled, opponents' target cards exchanged with each other and with unused ports of
    the same deck, a new generator word."""
    s = state.copy()
    v = StateView(s)
    n = v.num_players
    opp = [q for q in range(n) if q != player]
    deck = v.deck[: v.deck_size]
    for q in opp:
        for kind in np.flatnonzero(v.hand[q]):
            other = np.flatnonzero(deck != kind)
            if other.size:
                i = int(other[rng.integers(other.size)])
                v.hand[q, kind] -= 1
                v.hand[q, deck[i]] += 1
                deck[i] = kind
                break
    if len(opp) >= 2:
        a, b = opp[0], opp[1]
        ka = np.flatnonzero(v.hand[a])
        kb = np.flatnonzero(v.hand[b])
        if ka.size and kb.size:
            x, y = int(ka[0]), int(kb[-1])
            v.hand[a, x] -= 1
            v.hand[a, y] += 1
            v.hand[b, y] -= 1
            v.hand[b, x] += 1
        ta, tb = v.targets[a].copy(), v.targets[b].copy()
        v.targets[a], v.targets[b] = tb, ta
    rng.shuffle(deck)
    ports = GAME.board.port_deck
    dealt = set(int(x) for x in v.targets[:n].ravel() if x >= 0)
    for side in (0, 1):
        unused = [x for x in range(len(ports)) if ports[x] == side and x not in dealt]
        if unused:
            j = side * R.TARGETS_PER_DECK
            v.targets[opp[0], j] = unused[rng.integers(len(unused))]
    v.rng[:] = rng.integers(-(2**31), 2**31, size=2)
    return s


@pytest.mark.parametrize("n,opt", list(cases()))
def test_sample_depends_on_the_observation_only(n, opt):
    rng = np.random.default_rng(n)
    checked = 0
    for i, s in enumerate(positions(n, OPTIONS[opt], 16, seed=300 + n)):
        for player in range(n):
            variant = hidden_variant(s, player, rng)
            assert not np.array_equal(variant, s)
            GAME.validate_state(variant)
            assert np.array_equal(GAME.observe(variant, player), GAME.observe(s, player))
            key = 7919 * i + player
            a = GAME.determinize(s, player, key)
            b = GAME.determinize(variant, player, key)
            assert np.array_equal(a, b), f"position {i}, player {player}: hidden parts leak"
            checked += 1
    assert checked >= 16


def test_two_samples_of_one_observation_give_the_same_sample():
    for n in (2, 3, 4):
        for s in positions(n, {}, 5, seed=41):
            for player in range(n):
                other = GAME.determinize(s, player, 99)
                assert np.array_equal(GAME.determinize(s, player, 5),
                                      GAME.determinize(other, player, 5))


# ---------------------------------------------------------------- entry points

def test_entry_points_agree():
    s = live_position(3, {"black_ship": True}, seed=8)
    m = GAME.aux.m
    for player in range(3):
        in_place = s.copy()
        determinize(in_place, m, player, as_key(21))
        assert np.array_equal(in_place, generic.determinize(GAME.aux, s, player, as_key(21)))
        assert np.array_equal(in_place, GAME.determinize(s, player, 21))
    with pytest.raises(ValueError, match="player must be a seat 0..2"):
        GAME.determinize(s, 3, 0)


# ---------------------------------------------------------------- uniformity

def chi2_p(observed, expected, min_expected=5.0):
    """Chi-square p-value, tail bins merged until each expects >= min_expected."""
    obs, exp = list(map(float, observed)), list(map(float, expected))
    while len(exp) > 2 and exp[-1] < min_expected:
        e, o = exp.pop(), obs.pop()
        exp[-1] += e
        obs[-1] += o
    while len(exp) > 2 and exp[0] < min_expected:
        e, o = exp.pop(0), obs.pop(0)
        exp[0] += e
        obs[0] += o
    exp = np.array(exp) * (sum(obs) / sum(exp))
    return stats.chisquare(obs, exp).pvalue


SAMPLES = 2000


def test_opponent_hand_deck_and_targets_are_uniform():
    s = scenario.build(2, seed=12)   # after the round-1 deal: seat 0 holds 4, seat 1 holds 5
    v = StateView(s)
    player, opp = 0, 1
    total = np.array(R.CARD_COUNTS)
    pool = total - v.discard - v.hand[player]
    N, size = int(pool.sum()), int(v.hand[opp].sum())
    assert size == 5 and N == size + v.deck_size
    hand = np.zeros((SAMPLES, R.NUM_CARD_KINDS), dtype=np.int64)
    top = np.zeros(R.NUM_CARD_KINDS, dtype=np.int64)
    port_hits = np.zeros(GAME.board.num_ports, dtype=np.int64)
    key = as_key(1)
    for i in range(SAMPLES):
        w = StateView(GAME.determinize(s, player, key))
        hand[i] = w.hand[opp]
        top[w.deck[w.deck_size - 1]] += 1
        port_hits[w.targets[opp]] += 1
    for kind in (R.STORM2, R.STORM4, R.COMPASS, FAVOURABLE, R.CALM):   # hypergeometric
        law = stats.hypergeom(N, int(pool[kind]), size)
        ks = np.arange(size + 1)
        observed = np.bincount(hand[:, kind], minlength=size + 1)
        assert chi2_p(observed, law.pmf(ks) * SAMPLES) > 1e-3, R.CARD_KINDS[kind]
    assert chi2_p(top, pool / N * SAMPLES) > 1e-3          # the next card drawn
    own = set(int(x) for x in v.targets[player])
    deck_of = GAME.board.port_deck
    for side in (0, 1):
        free = [x for x in range(len(deck_of)) if deck_of[x] == side and x not in own]
        assert len(free) == 12 and port_hits[list(own)].sum() == 0
        # each free port is one of the opponent's 4 of that deck with probability 4/12
        assert chi2_p(port_hits[free], np.full(12, SAMPLES / 3)) > 1e-3


def test_three_players_share_the_unseen_cards_alike():
    """Both opponents' hands follow one law (no seat is dealt first from a biased pool)."""
    s = scenario.build(3, seed=4, hands={1: ["calm"] * 3, 2: ["calm"] * 3})
    v = StateView(s)
    pool = np.array(R.CARD_COUNTS) - v.discard - v.hand[0]
    N = int(pool.sum())
    key = as_key(77)
    counts = {1: np.zeros(4, np.int64), 2: np.zeros(4, np.int64)}
    for _ in range(SAMPLES):
        w = StateView(GAME.determinize(s, 0, key))
        for q in (1, 2):
            counts[q][w.hand[q, FAVOURABLE]] += 1
    law = stats.hypergeom(N, int(pool[FAVOURABLE]), 3)
    for q in (1, 2):
        assert chi2_p(counts[q], law.pmf(np.arange(4)) * SAMPLES) > 1e-3


# ---------------------------------------------------------------- the playable-card constraint

def blue_step(east: bool):
    """(from hex, direction, blue hex): a paid step onto a blue, not red, space."""
    m = GAME.board
    melaka_hemi = m.hemisphere[m.port_hex[m.port_name.index("Melaka")]]
    for h in range(m.num_hexes):
        if m.blue[h] or m.red[h] or m.pirate[h] or (east and m.hemisphere[h] != melaka_hemi):
            continue
        if m.port[h] >= 0 or h == m.lisbon:
            continue
        for d in range(6):
            t = m.neighbors[h, d]
            if t >= 0 and m.blue[t] and not m.red[t] and not m.pirate[t] and m.current[h] != d:
                if not east or m.hemisphere[t] == melaka_hemi:
                    return h, d, t
    raise AssertionError("no blue step on the map")


def test_a_seat_to_play_on_a_blue_space_keeps_a_playable_card():
    """Seat 1 must play a card with 1 available disc: any sample leaves him one he can
    play (not storm2-4), drawn in proportion to the unseen cards that qualify."""
    _, _, blue = blue_step(east=False)
    s = scenario.build(2, seed=3, phase="play", active=1, order=[0, 1], ships={1: blue},
                       spent={1: 8}, hands={1: ["compass_N"]})
    assert StateView(s).phase == PLAY and GAME.current_player(s) == 1
    v = StateView(s)
    pool = np.array(R.CARD_COUNTS) - v.discard - v.hand[0]
    ok = np.array([R.storm_value(k) <= 1 for k in range(R.NUM_CARD_KINDS)])
    key = as_key(5)
    got = np.zeros(R.NUM_CARD_KINDS, dtype=np.int64)
    for _ in range(SAMPLES):
        d = GAME.determinize(s, 0, key)
        check_sample(s, d, 0)
        got += StateView(d).hand[1]
    assert got[~ok].sum() == 0
    expected = pool[ok] / pool[ok].sum() * SAMPLES
    assert chi2_p(got[ok], expected) > 1e-3


def test_a_blue_arrival_pending_behind_an_attack_keeps_a_playable_card():
    """Seat 1 steps onto a blue space where the Black Ship waits: the attack wrecks first
    (his decision), then he must play on the blue space with 2 discs left."""
    start, d, blue = blue_step(east=True)
    s = scenario.build(2, seed=6, black_ship=True, active=1, order=[0, 1],
                       ships={1: start}, black_hex=blue, spent={1: 6},
                       hands={1: ["storm2"]})
    force_rolls(s, True)
    GAME.step(s, f"move:{DIRS[d]}")
    v = StateView(s)
    assert v.phase == WRECK and GAME.current_player(s) == 1 and v.arrival_stage != 0
    key = as_key(11)
    for _ in range(300):
        t = GAME.determinize(s, 0, key)
        check_sample(s, t, 0)
        w = StateView(t)
        assert any(w.hand[1, k] for k in range(R.NUM_CARD_KINDS) if R.storm_value(k) <= 2)
        GAME.step(t, "wreck:ship1")
        assert StateView(t).phase == PLAY and GAME.legal_mask(t).any()


def test_random_play_goes_on_from_samples():
    """Samples are live games: random play from them reaches the end without error."""
    m = GAME.aux.m
    for n in (2, 4):
        for s in positions(n, {"black_ship": True}, 6, seed=19):
            for player in range(n):
                d = GAME.determinize(s, player, player)
                K.random_playout(d, m, as_key(player))
                assert GAME.is_terminal(d)
