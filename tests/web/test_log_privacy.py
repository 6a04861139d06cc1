"""The move log a seat's page gets names every move, the other seats' too: it must name
nothing that seat may not see. A move is public to an observer when the observer's
observation after it tells it apart from every other legal move that leads elsewhere:
two moves that leave the observer the same observation but different states would be a
private choice that the log gives away.

Games of every shipped game and player count, and Pebbles (a declared game with a secret
card), are played by the heuristic with one move in three random (random moves alone
rarely reach Voyage's later actions); at every decision, for every other seat, each
legal move is tried and the observer's next observation compared. Each kind of action
(the name before ':') that the games have is met, so the check covers every action name.
One kind is public by the rules but shown late by the observation: Voyage's ``order:K``
(V11: each bidder openly puts its marker on a position); the observation shows the new
order once every bidder has placed, and the test checks that it then shows what the log
said."""

import collections

import numpy as np
import pytest

from tests.helpers import pebbles_env
from tradewinds import registry
from tradewinds.agents.heuristic import HeuristicAgent, has_heuristic
from tradewinds.web import views
from tradewinds.web.sessions import Session

# action kinds the random games below do not reach (none: every kind is met)
NOT_MET: dict = {}
# public by the rules, shown by the observation once the phase ends: kind -> check
LATE = {"voyage": {"order"}}


def _kind(name: str) -> str:
    return name.split(":")[0]


def _private(h, s, mover, played, observer) -> bool:
    """Whether the observer's observation after `played` leaves another legal move that
    leads to a different state possible."""
    after = {}
    for a in h.legal_actions(s):
        t = s.copy()
        h.step(t, int(a))
        after[int(a)] = t
    seen = h.observe(after[played], observer)
    return any(a != played and np.array_equal(h.observe(t, observer), seen)
               and not np.array_equal(t, after[played]) for a, t in after.items())


def _play(game: str, n: int, seed: int, options: dict):
    """A game (the heuristic, one move in three random); (moves, kinds met, late moves to
    check) with every other seat's view of each move checked on the way."""
    h = registry.game(game)
    s = h.new_state(n, seed, **options)
    rng = np.random.default_rng(seed)
    heuristic = HeuristicAgent(game) if has_heuristic(h) else None
    actions, kinds, late = [], collections.Counter(), []
    while not (h.is_terminal(s) or h.is_truncated(s)) and len(actions) < 3000:
        mover = h.current_player(s)
        if heuristic is None or rng.random() < 1 / 3:
            a = int(rng.choice(h.legal_actions(s)))
        else:
            a = heuristic.act(h.observe(s, mover), h.legal_mask(s), rng, state=s.copy())
        name = h.action_name(a)
        kinds[_kind(name)] += 1
        for q in range(n):
            if q != mover and _private(h, s, mover, a, q):
                assert _kind(name) in LATE.get(game, ()), (
                    f"{game} {n}p seed {seed} move {len(actions) + 1}: the log names "
                    f"player_{mover}'s {name!r}, which player_{q}'s observation does not show")
                late.append((len(actions), mover, name))
        h.step(s, a)
        actions.append(a)
    return actions, kinds, late


def _order_shown(h, n, seed, options, actions, late):
    """Each late `order:K` shows as the mover's position K once the order phase ends."""
    for k, mover, name in late:
        s = h.replay(n, seed, actions[:k + 1], **options)
        j = k + 1
        while views.page(h, s, (mover + 1) % n, options)["view"]["phase"] == "order":
            h.step(s, actions[j])
            j += 1
        view = views.page(h, s, (mover + 1) % n, options)["view"]
        assert view["players"][mover]["position"] == int(name.split(":")[1]), name


@pytest.mark.parametrize("game", ["hansa", "voyage"])
def test_the_log_names_only_what_each_seat_sees(game):
    h = registry.game(game)
    met = collections.Counter()
    for n in range(h.min_players, h.max_players + 1):
        for seed in range(2):
            options = dict(h.option_defaults)
            if game == "voyage" and seed == 1:
                options["black_ship"] = True       # its moves are actions of their own
            actions, kinds, late = _play(game, n, seed, options)
            met += kinds
            _order_shown(h, n, seed, options, actions, late)
            names = [m["action"] for m in Session("g" * 12, game, n, 0, [None] * n, seed,
                                                  options, actions).log()]
            assert names == [h.action_name(a) for a in actions]   # what the page gets
    kinds = {_kind(h.action_name(a)) for a in range(h.num_actions)}
    assert kinds - set(met) == NOT_MET.get(game, set()), sorted(kinds - set(met))


def test_a_declared_games_log_keeps_its_secret_card():
    """Pebbles' cards are secret until the end; its moves (take:K) are public."""
    with pebbles_env.registered():
        for n, seed in ((2, 0), (3, 1), (4, 2)):
            actions, kinds, late = _play("pebbles", n, seed, {"pile": 30})
            assert not late and set(kinds) == {"take"}


def test_the_check_sees_a_private_move():
    """Against an observer that sees nothing, a move with two outcomes is private."""
    h = registry.game("hansa")

    class Blind:
        def __getattr__(self, name):
            return getattr(h, name)

        def observe(self, state, seat):
            return np.zeros(h.obs_size, dtype=np.float32)

    s = h.new_state(2, 0)
    a = int(h.legal_actions(s)[0])
    assert _private(Blind(), s, h.current_player(s), a, 1)
    assert not _private(h, s, h.current_player(s), a, 1)
