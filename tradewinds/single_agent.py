"""A single-agent Gymnasium view of any tradewinds game, for sb3-contrib's MaskablePPO.

The learner sits in one seat; every other decision (opponents' turns and their
mid-turn choices) is made by opponent policies inside `step`, so the learner only sees
its own decisions. Opponents follow the agent protocol `act(observation, action_mask,
rng) -> action`; by default they play uniformly random legal actions. Pass a list
(one policy per opponent seat) or a callable `pool(rng) -> policy` to sample a fresh
opponent per game, e.g. from past snapshots in self-play.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from tradewinds import registry
from tradewinds.protocol import IllegalActionError


class UniformRandom:
    """Uniform over the legal actions (the default opponent)."""

    def act(self, observation, action_mask, rng):
        return int(rng.choice(np.flatnonzero(action_mask)))


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, game: str = "hansa", num_players: int = 2, seat: int | str = 0,
                 opponents=None, reward: str = "win", illegal_action: str = "raise",
                 render_mode: str | None = None, **options):
        self.game = registry.game(game)
        self.num_players = self.game.check_players(num_players)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise ValueError(f"seat must be 0..{self.num_players - 1} or 'random', got {seat!r}")
        if reward not in ("win", "zero_sum", "score"):
            raise ValueError(f"reward must be 'win', 'zero_sum' or 'score', got {reward!r}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.seat_choice = seat
        self.reward_mode = reward
        self.options = dict(self.game.option_defaults, **options)
        self.game.parse_options(**self.options)
        self.render_mode = render_mode
        self._opponents = opponents
        self.observation_space = gym.spaces.Box(0.0, np.inf, (self.game.obs_size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self.state = None

    def _pick_opponents(self):
        opp = self._opponents
        if opp is None:
            return [UniformRandom()] * (self.num_players - 1)
        if callable(opp) and not hasattr(opp, "act"):
            return [opp(self.np_random) for _ in range(self.num_players - 1)]
        if hasattr(opp, "act"):
            return [opp] * (self.num_players - 1)
        if len(opp) != self.num_players - 1:
            raise ValueError(f"need {self.num_players - 1} opponents, got {len(opp)}")
        return list(opp)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(self.num_players, game_seed, **self.options)
        self.seat = (int(self.np_random.integers(self.num_players))
                     if self.seat_choice == "random" else self.seat_choice)
        others = self._pick_opponents()
        self.policies = {}
        for p in range(self.num_players):
            if p != self.seat:
                self.policies[p] = others.pop(0)
        self._advance()
        return self.game.observe(self.state, self.seat), {"seat": self.seat}

    def _advance(self):
        """Let opponents decide until it is the learner's turn or the game is over."""
        k = self.game.kernels
        while not k.is_terminal(self.state) and k.current_player(self.state) != self.seat:
            p = k.current_player(self.state)
            mask = self.game.legal_mask(self.state)
            action = self.policies[p].act(self.game.observe(self.state, p), mask,
                                          self.np_random)
            self.game.step(self.state, action)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (MaskablePPO calls this)."""
        self._mask[:] = 0
        if not self.game.kernels.is_terminal(self.state):
            self.game.kernels.legal_mask(self.state, self._mask)
        return self._mask.astype(bool)

    def step(self, action):
        try:
            self.game.step(self.state, int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            obs = self.game.observe(self.state, self.seat)
            return obs, -1.0, True, False, {"illegal_action": int(action)}
        self._advance()
        obs = self.game.observe(self.state, self.seat)
        terminated = self.game.is_terminal(self.state) and not self.game.is_truncated(self.state)
        truncated = self.game.is_truncated(self.state)
        reward = self._reward() if terminated else 0.0
        info = {}
        if terminated or truncated:
            info = {"scores": self.game.scores(self.state).tolist(),
                    "winners": self.game.winners(self.state)}
        return obs, reward, terminated, truncated, info

    def _reward(self) -> float:
        g, s, n, me = self.game, self.state, self.num_players, self.seat
        if self.reward_mode == "win":
            return float(g.returns(s)[me])
        if self.reward_mode == "zero_sum":
            won = g.winners(s)
            return 1.0 / len(won) if me in won else (-1.0 / (n - len(won)))
        vp = g.scores(s).astype(float)
        return float((vp[me] - (vp.sum() - vp[me]) / (n - 1)) / 100.0)

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render_ansi(self.state)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.state)
        return None
