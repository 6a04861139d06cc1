"""Infos have one structure (keys, types, dtypes, shapes) at every step, seed and player
count, in the AEC env and the single-agent env: trainers that store infos in fixed-shape
buffers (Tianshou's, TorchRL's) need it. Random legal play over whole games, games cut by
the round cap and games lost by an illegal action."""

import numpy as np
import pytest

import tradewinds
from tradewinds.aec import INFO_KEYS, blank_info
from training.single_agent import SingleAgentEnv

GAMES = ("hansa", "voyage")
PLAYERS = (2, 3, 4)
CAP = {"hansa": 3, "voyage": 2}     # rounds: a few games stop at the round cap


def structure(info: dict) -> dict:
    """key -> (type, dtype, shape) of every value: what a fixed-shape buffer depends on."""
    return {k: (type(v), getattr(v, "dtype", None), np.shape(v)) for k, v in info.items()}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", PLAYERS)
def test_aec_infos_keep_one_structure_across_steps_seeds_and_ends(game, n):
    expected = structure(blank_info(n))
    assert set(expected) == set(INFO_KEYS)
    for seed in range(3):
        options = {"max_rounds": CAP[game]} if seed else {}
        env = tradewinds.make(game, num_players=n, seed=seed, **options)
        env.reset(seed=seed)
        seen, ended = [], []
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            seen.append(info)
            seen.extend(env.infos.values())
            if term or trunc:
                ended.append(info)
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert ended and all(structure(i) == expected for i in seen)
        # before the end every info is zeros (infos are replaced, never changed in place)
        final_ids = {id(i) for i in ended}
        assert all(not any(v.any() for v in i.values()) for i in seen if id(i) not in final_ids)
        final = env.unwrapped.kernel_state
        g = tradewinds.game(game)
        for info in ended:
            np.testing.assert_array_equal(info["scores"], g.scores(final))
            assert np.flatnonzero(info["winner"]).tolist() == g.winners(final)
            assert not info["illegal_move"].any()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", PLAYERS)
def test_an_illegal_move_keeps_the_structure_and_marks_the_offender(game, n):
    env = tradewinds.make(game, num_players=n, illegal_action="lose")
    env.reset(seed=n)
    rng = np.random.default_rng(n)
    for _ in range(10 * n):
        mask = env.last()[0]["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    offender = env.agent_selection
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0]))
    expected = structure(blank_info(n))
    for agent in env.possible_agents:
        info = env.infos[agent]
        assert structure(info) == expected
        assert info["illegal_move"].tolist() == [int(a == offender) for a in env.possible_agents]
        assert not info["winner"].any() and not info["scores"].any()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", PLAYERS)
def test_single_agent_infos_of_resets_and_steps_share_one_structure(game, n):
    env = SingleAgentEnv(game, num_players=n, seat="random", max_rounds=CAP[game])
    _, first = env.reset(seed=n)
    expected = structure(first)
    assert set(expected) == {"seat", "scores", "winner", "illegal_action", "reason"}
    assert expected["winner"][1:] == (np.dtype(np.int8), (n,))
    rng = np.random.default_rng(n)
    for episode in range(3):
        done = False
        while not done:
            mask = env.action_masks()
            if episode == 2:    # the last episode ends by an illegal action
                mask = ~mask
            _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert structure(info) == expected
            done = term or trunc
        assert info["winner"].any() or info["illegal_action"] >= 0
        assert structure(env.reset()[1]) == expected
