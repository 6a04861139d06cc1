"""Agents (``act``) as opponents of the batched VecEnv: asked as the arena asks them (the
same games for the same seed and learner actions), given the state when they need it,
reset once per game and seat, and named when they choose an illegal action."""

import numpy as np
import pytest

from tradewinds import registry
from tradewinds.protocol import IllegalActionError
from tradewinds.studies.arena import agent_action

PEBBLES = "tests.helpers.pebbles_env"


@pytest.fixture(scope="module")
def pebbles():
    with registry.registered("pebbles", PEBBLES):
        yield registry.game("pebbles")


class Honest:
    """A random agent that checks the state it is given against its observation."""

    needs_state = True

    def __init__(self, game):
        self.game, self.resets, self.decisions = game, 0, 0

    def reset(self):
        self.resets += 1

    def act(self, observation, action_mask, rng, *, state):
        p = self.game.current_player(state)
        assert np.array_equal(self.game.observe(state, p), observation)
        assert np.array_equal(self.game.legal_mask(state), action_mask)
        self.decisions += 1
        return int(rng.choice(np.flatnonzero(action_mask)))


def _first_legal(masks):
    return np.array([int(np.flatnonzero(m)[0]) for m in masks])


def test_an_agent_plays_the_games_the_arena_would(pebbles):
    from tradewinds.training.vec_env import BatchedVecEnv

    n, seat = 3, 1
    agent = Honest(pebbles)
    env = BatchedVecEnv(pebbles, num_envs=1, num_players=n, opponents=[[agent, agent]],
                        seed=5, seat=seat, reward="win", pile=12)
    env.reset()
    for _ in range(3):
        seed = int(env.game_seeds[0])
        mine, info = [], None
        while info is None:
            a = _first_legal(env.action_masks())
            mine.append(int(a[0]))
            _, _, done, infos = env.step(a)
            info = infos[0] if done[0] else None
        s = pebbles.new_state(n, seed, pile=12)
        rngs = [np.random.default_rng([seed, p]) for p in range(n)]
        moves = iter(mine)
        while not pebbles.is_terminal(s):
            p = pebbles.current_player(s)
            a = next(moves) if p == seat else agent_action(agent, pebbles, s, p, rngs[p])
            pebbles.step(s, a)
        assert info["scores"] == [int(x) for x in pebbles.scores(s)]
    assert agent.decisions > 0


def test_each_agent_is_reset_once_per_game_and_seat(pebbles):
    from tradewinds.training.vec_env import BatchedVecEnv

    agents = [[Honest(pebbles), Honest(pebbles)] for _ in range(2)]
    env = BatchedVecEnv(pebbles, num_envs=2, num_players=3, opponents=agents, seed=1,
                        seat=0, pile=9)
    env.reset()
    finished = np.zeros(2, dtype=int)
    while finished.min() < 4:
        _, _, done, _ = env.step(_first_legal(env.action_masks()))
        finished += done
        for i in range(2):      # the learner moves first: a game just begun has no reset yet
            for a in agents[i]:
                assert a.resets == finished[i] + (0 if done[i] else 1)


def test_an_illegal_agent_move_is_named(pebbles):
    from tradewinds.training.vec_env import BatchedVecEnv

    class Stubborn:
        def act(self, observation, action_mask, rng):
            return 99

    env = BatchedVecEnv(pebbles, num_envs=1, num_players=2, opponents=Stubborn(), seed=0,
                        seat=0, pile=9)
    with pytest.raises(IllegalActionError, match="Stubborn"):
        env.reset()
        for _ in range(5):
            env.step(_first_legal(env.action_masks()))


def test_an_object_that_is_no_opponent_is_refused(pebbles):
    from tradewinds.training.vec_env import BatchedVecEnv

    with pytest.raises(ValueError, match="act\\(observation"):
        BatchedVecEnv(pebbles, num_envs=1, num_players=2, opponents=object())
