"""One PettingZoo AEC environment for any `tradewinds.Game` (docs/design.md §7).

Classic-env conventions: observations are dicts with `observation` and `action_mask`,
`agent_selection` follows the kernel's `current_player` — so an agent may act several
times in a row (multi-action turns) and an opponent may be asked mid-turn (e.g. Hansa's
loss choice).

Rewards (`tradewinds.rewards`, shared with the single-agent and batched envs): `win` and
`zero_sum` pay at the end; `score` pays every seat the change of its VP margin (own VP
minus the best other seat's, / 100) after every step, so each agent's rewards sum to its
final margin. A game stopped by the round cap is scored as it stands (the arena's scores
and winners) and ends with `truncations` set instead of `terminations`. The infos of the
last step hold `rewards.end_info`: ``scores`` and ``won``, one entry per seat (fixed
shape, for trainers that stack infos into buffers).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tradewinds import rewards
from tradewinds.protocol import Game, IllegalActionError

REWARD_MODES = rewards.MODES
ILLEGAL_MODES = ("raise", "lose")


def observation_box(game: Game, num_players: int, options: dict) -> spaces.Box:
    """The observation space: every entry is >= 0 and at most the game's real maximum for
    these players and options (`Game.obs_high`; unbounded for a game without one)."""
    high = (np.full(game.obs_size, np.inf, dtype=np.float32) if game.obs_high is None
            else game.obs_high(num_players, **options))
    return spaces.Box(np.zeros(game.obs_size, dtype=np.float32), high, dtype=np.float32)


class KernelAECEnv(AECEnv):
    game: Game  # set by each game's subclass
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "is_parallelizable": False}
    # render_mode="human": None = a window where a display exists, else the text board on
    # stdout; False = always the text board; True = always a window.
    human_window: bool | None = None

    def __init__(self, num_players: int = 2, render_mode: str | None = None,
                 reward: str = "win", illegal_action: str = "raise", seed: int | None = None,
                 **options):
        super().__init__()
        game = self.game
        self.num_players = game.check_players(num_players)
        # the modes the game can draw: "ansi" (and "human" as text) with render_ansi,
        # "rgb_array" with render_rgb
        modes = [m for m in self.metadata["render_modes"]
                 if (game.render_rgb if m == "rgb_array" else game.render_ansi) is not None]
        self.metadata = dict(self.metadata, name=f"{game.name}_v0", render_modes=modes)
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
        self._reward_code = rewards.mode_code(reward)
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        self.options = dict(game.option_defaults, **options)
        game.parse_options(**self.options)  # fail now on bad options, not at reset
        if game.check_options is not None:
            game.check_options(self.num_players, **self.options)
        self.render_mode = render_mode
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict({
            "observation": observation_box(game, self.num_players, self.options),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        })
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(
            np.iinfo(np.int32).min, np.iinfo(np.int32).max, (game.state_size,), np.int32)
        self._seed_rng = np.random.default_rng(seed)
        self._state = None
        self._viewer = None

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self._state = self.game.new_state(self.num_players, self.game_seed, **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._margins = rewards.start(self.game, self._state)
        self.agent_selection = self._agent_to_move()

    def set_state(self, state: np.ndarray) -> None:
        """Continue from a given kernel state (validated first; the env keeps a copy).
        reward="score" then pays the margin changes from this state on."""
        self.game.validate_state(state)
        if self.game.num_players(state) != self.num_players:
            raise ValueError(
                f"state is for {self.game.num_players(state)} players, env for {self.num_players}")
        self.reset()
        self._state = state.copy()
        self._margins = rewards.start(self.game, self._state)   # score pays changes from here
        self.agent_selection = self._agent_to_move()
        if self.game.is_terminal(self._state):
            self._finish()

    def _agent_to_move(self):
        p = self.game.kernels.current_player(self._state)
        return self.possible_agents[p] if p >= 0 else self.agent_selection

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        k, game = self.game.kernels, self.game
        if k.current_player(self._state) == p:  # -1 once the game is over
            mask = np.empty(game.num_actions, dtype=np.int8)
            k.legal_mask(self._state, mask)  # writes every entry
        else:
            mask = np.zeros(game.num_actions, dtype=np.int8)
        obs = np.empty(game.obs_size, dtype=np.float32)
        k.observe(self._state, p, obs)  # writes every entry
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        return self._state.copy()

    @property
    def kernel_state(self) -> np.ndarray:
        """The live kernel state (read-only use; edit through set_state)."""
        return self._state

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        game = self.game
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        # The common case goes straight to the kernel; anything it refuses (or that is
        # not a plain id) takes the checked path, which raises with a reason.
        fast = type(action) is int or isinstance(action, np.integer)
        if not (fast and 0 <= action < game.num_actions
                and game.kernels.step(self._state, action) == 0):
            try:
                game.step(self._state, action)
            except IllegalActionError:
                if self.illegal_action == "raise":
                    raise
                self._lose_by_illegal_action(agent)
                return
        if game.kernels.is_terminal(self._state):
            self._finish()
            self._accumulate_rewards()
        else:
            if self._reward_code == rewards.SCORE:  # dense: every seat's margin change
                pay = rewards.payments(game, self._state, self._reward_code, self._margins)
                for i, a in enumerate(self.possible_agents):
                    self.rewards[a] = float(pay[i])
                self._accumulate_rewards()
            # win and zero_sum pay only at the end: nothing to reset or accumulate mid-game
            self.agent_selection = self._agent_to_move()
        if self.render_mode == "human":  # shown after every decision (Gymnasium's convention)
            self.render()

    def _finish(self):
        """The game is over (by the rules or the round cap): final rewards, flags, infos."""
        game = self.game
        truncated = game.is_truncated(self._state)
        pay = rewards.payments(game, self._state, self._reward_code, self._margins)
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(pay[i])
            self.terminations[a] = not truncated
            self.truncations[a] = truncated
            self.infos[a] = rewards.end_info(game, self._state)

    def _lose_by_illegal_action(self, offender):
        """illegal_action="lose": the offender gets -1, everybody stops."""
        for a in self.agents:
            self.rewards[a] = -1.0 if a == offender else 0.0
            self.terminations[a] = True
            self.infos[a] = {"illegal_action": offender}
        self._accumulate_rewards()

    # ------------------------------------------------------------ rendering
    def render(self):
        """By render_mode: "ansi" returns the text board; "rgb_array" a uint8[h, w, 3] frame
        (public information only); "human" shows the frame in a window where a display
        exists, else prints the text board to stdout, and returns None (human mode also
        does this after every step)."""
        if self.render_mode is None:
            return None
        if self._state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "ansi":
            return self.game.render_ansi(self._state)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._state)
        self._render_human()
        return None

    def _render_human(self):
        from tradewinds import frames

        if self.human_window is None:
            self.human_window = self.game.render_rgb is not None and frames.display_available()
        if self.human_window:
            try:
                if self._viewer is None:
                    self._viewer = frames.HumanViewer(self.metadata["name"])
                self._viewer.show(self.game.render_rgb(self._state))
                return
            except Exception:  # no usable window after all: print instead
                self.human_window = False
        print(self.game.render_ansi(self._state), end="\n\n", flush=True)

    def close(self):
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None


class KernelOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper with a direct `last()`: the inherited one
    reaches each of six attributes through two `__getattr__` hops, the largest cost of a
    step. Same checks, same results."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


def wrap(raw: KernelAECEnv) -> KernelOrderEnforcingWrapper:
    """The env users get from `<game>_env.env(...)` and `tradewinds.make(...)`."""
    return KernelOrderEnforcingWrapper(raw)
