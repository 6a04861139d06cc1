"""The exact best response (training/best_response.py) on Pebbles against random: its
policy is worth what it claims, no single change of it does better (so it is optimal: a
one-shot deviation check over every information set), and it wins as much in the real
game's play as the enumeration says."""

import numpy as np
import pytest

from tradewinds import registry

PEBBLES = "tests.helpers.pebbles_env"


@pytest.fixture(scope="module")
def pebbles():
    with registry.registered("pebbles", PEBBLES):
        yield registry.game("pebbles")


def _solve(game, n, pile, seat):
    from tests.helpers.pebbles_deals import deals
    from tradewinds.training.best_response import exact_best_response, uniform

    d = deals(game, n, pile)
    return d, exact_best_response(game, d, uniform(game), seat)


def _table(actions, num_actions):
    def responder(key):
        probs = np.zeros(num_actions)
        probs[actions[key]] = 1.0
        return probs
    return responder


@pytest.mark.parametrize("n,pile,seat", [(2, 6, 0), (2, 6, 1), (3, 7, 1)])
def test_no_single_change_of_the_best_response_does_better(pebbles, n, pile, seat):
    from tradewinds.training.best_response import policy_value, uniform

    d, br = _solve(pebbles, n, pile, seat)
    value = policy_value(pebbles, d, uniform(pebbles), seat, _table(br.actions, 3))
    assert value == pytest.approx(br.value, abs=1e-12)
    changed = 0
    for key, best in br.actions.items():
        legal = np.flatnonzero(np.frombuffer(key[-1][1], dtype=np.int8))
        for a in legal:
            if a == best:
                continue
            other = dict(br.actions)
            other[key] = int(a)
            v = policy_value(pebbles, d, uniform(pebbles), seat, _table(other, 3))
            assert v <= br.value + 1e-12, (key, a, v, br.value)
            changed += v < br.value - 1e-9
    assert changed > 0          # the choices matter: some change does worse


def test_a_random_responder_gets_the_fair_share(pebbles):
    from tests.helpers.pebbles_deals import deals
    from tradewinds.training.best_response import policy_value, uniform

    d = deals(pebbles, 2, 6)
    assert sum(p for p, _ in d) == pytest.approx(1.0, abs=1e-12)
    rand = uniform(pebbles)
    shares = []
    for seat in range(2):
        def responder(key):
            mask = np.frombuffer(key[-1][1], dtype=np.int8).astype(np.float64)
            return mask / mask.sum()
        shares.append(policy_value(pebbles, d, rand, seat, responder))
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)      # one win per game
    _, br0 = _solve(pebbles, 2, 6, 0)
    assert br0.value > shares[0] + 0.1


def test_the_exact_value_is_what_the_policy_wins_in_play(pebbles):
    """The deals enumerate what the kernel deals: the best response played in real games
    (seeded starts, random opponents) wins its value within 4 standard errors."""
    n, pile, games = 2, 6, 6000
    for seat in range(n):
        _, br = _solve(pebbles, n, pile, seat)
        rng = np.random.default_rng(seat)
        won = 0.0
        for i in range(games):
            s = pebbles.new_state(n, 10_000 * seat + i, pile=pile)
            key = ()
            while not pebbles.is_terminal(s):
                p = pebbles.current_player(s)
                mask = pebbles.legal_mask(s)
                if p == seat:
                    key += ((pebbles.observe(s, seat).tobytes(), mask.tobytes()),)
                    a = br.actions[key]
                    key += (a,)
                else:
                    a = int(rng.choice(np.flatnonzero(mask)))
                pebbles.step(s, a)
            won += float(pebbles.returns(s)[seat])
        se = np.sqrt(br.value * (1 - br.value) / games)
        assert abs(won / games - br.value) < 4 * se, (seat, won / games, br.value)


def test_deals_must_sum_to_one(pebbles):
    from tests.helpers.pebbles_deals import deals
    from tradewinds.training.best_response import exact_best_response, uniform

    d = deals(pebbles, 2, 6)[:-1]
    with pytest.raises(ValueError, match="sum to"):
        exact_best_response(pebbles, d, uniform(pebbles), 0)
