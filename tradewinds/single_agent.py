"""A single-agent Gymnasium view of any tradewinds game, for sb3-contrib's MaskablePPO.

The learner sits in one seat; every other decision (opponents' turns and their
mid-turn choices) is made by opponent policies inside `step`, so the learner only sees
its own decisions. Opponents follow the agent protocol `act(observation, action_mask,
rng) -> action`; by default they play uniformly random legal actions. Pass a list
(one policy per opponent seat) or a callable `pool(rng) -> policy` to sample a fresh
opponent per game, e.g. from past snapshots in self-play.

Arguments are checked like the AEC env's (ValueError naming the bad one). Actions are
the elements of `action_space` (an int id, a numpy integer, a 0-d integer array) or an
action name; anything else (1.5, True, an id out of range) raises ValueError.

Illegal actions. Gymnasium's contract is that every element of `action_space` may be
passed to `step` (its `check_env` steps `action_space.sample()`), and the legal ones
change every decision (`action_masks()`). So by default (`illegal_action="lose"`) an
action the current state does not allow ends the episode as a loss for the learner:
reward -1, `terminated=True`, `info["illegal_action"]` (the id) and `info["reason"]`, as
PettingZoo's classic games do; the state is unchanged. `illegal_action="raise"` raises
IllegalActionError naming the action and why, for debugging a masked agent.

An episode that ended (terminated or truncated) must be reset: `step` raises
`gymnasium.error.ResetNeeded`, as it does before the first `reset`. The env can be
copied (`copy.deepcopy`) and pickled (the game is stored by name); opponents must be
picklable for pickling.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from tradewinds import registry
from tradewinds.aec import ILLEGAL_MODES, REWARD_MODES, observation_box
from tradewinds.protocol import IllegalActionError


class UniformRandom:
    """Uniform over the legal actions (the default opponent)."""

    def act(self, observation, action_mask, rng):
        return int(rng.choice(np.flatnonzero(action_mask)))


def _is_policy(x) -> bool:
    return callable(getattr(x, "act", None))


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}
    human_window: bool | None = None    # as KernelAECEnv.human_window

    def __init__(self, game: str = "hansa", num_players: int = 2, seat: int | str = 0,
                 opponents=None, reward: str = "win", illegal_action: str = "lose",
                 render_mode: str | None = None, **options):
        self.game = registry.game(game)
        self.num_players = self.game.check_players(num_players)
        n = self.num_players
        if not (seat == "random" if isinstance(seat, str) else
                isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_))
                and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', got {seat!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        if isinstance(opponents, (list, tuple)) and len(opponents) != n - 1:
            raise ValueError(f"need {n - 1} opponents (one policy per opponent seat), "
                             f"got {len(opponents)}")
        if not (opponents is None or _is_policy(opponents) or callable(opponents)
                or (isinstance(opponents, (list, tuple))
                    and all(_is_policy(o) for o in opponents))):
            raise ValueError(
                f"opponents must be None (uniform random), a policy with act(observation, "
                f"action_mask, rng), a callable pool(rng) -> policy, or a list of {n - 1} "
                f"policies (one per opponent seat), got {opponents!r}")
        self.options = dict(self.game.option_defaults, **options)
        try:
            self.game.parse_options(**self.options)
        except TypeError as e:
            raise ValueError(f"{game}: bad option ({e}); options: "
                             f"{sorted(self.game.option_defaults)}") from None
        self.illegal_action = illegal_action
        self.seat_choice = "random" if isinstance(seat, str) else int(seat)
        self.reward_mode = reward
        self.render_mode = render_mode
        self._opponents = opponents
        self.observation_space = observation_box(self.game, n, self.options)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self.state = None
        self._done = False
        self._viewer = None

    # ------------------------------------------------------------ copy and pickle
    def __getstate__(self):
        state = self.__dict__.copy()
        state["game"] = self.game.name      # a Game holds modules: stored by name
        state["_viewer"] = None             # a window is not copied
        return state

    def __setstate__(self, state):
        state = dict(state, game=registry.game(state["game"]))
        self.__dict__.update(state)

    # ------------------------------------------------------------ episodes
    def _pick_opponents(self):
        opp = self._opponents
        if opp is None:
            return [UniformRandom()] * (self.num_players - 1)
        if _is_policy(opp):
            return [opp] * (self.num_players - 1)
        if callable(opp):
            picked = [opp(self.np_random) for _ in range(self.num_players - 1)]
            if not all(_is_policy(p) for p in picked):
                raise ValueError(f"the opponent pool returned a non-policy: {picked!r}")
            return picked
        return list(opp)

    def reset(self, *, seed=None, options=None):
        if options:
            raise ValueError(f"reset takes no options (game options go to the constructor: "
                             f"{sorted(self.game.option_defaults)}), got {options!r}")
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(self.num_players, game_seed, **self.options)
        self.seat = (int(self.np_random.integers(self.num_players))
                     if self.seat_choice == "random" else self.seat_choice)
        others = self._pick_opponents()
        self.policies = {p: others.pop(0) for p in range(self.num_players) if p != self.seat}
        self._done = False
        self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observe(self.seat), {"seat": self.seat}

    # The env makes its own states, so like the AEC env it drives the raw kernels; the
    # checked Game methods only produce the error messages.
    def _observe(self, p) -> np.ndarray:
        out = np.empty(self.game.obs_size, dtype=np.float32)   # the kernel writes every entry
        self.game.kernels.observe(self.state, p, out)
        return out

    def _step(self, action) -> None:
        """Apply an action (IllegalActionError, with the reason, when it is not legal)."""
        if not (type(action) is int and 0 <= action < self.game.num_actions
                and self.game.kernels.step(self.state, action) == 0):
            self.game.step(self.state, action)

    def _advance(self):
        """Let opponents decide until it is the learner's turn or the game is over."""
        k, game, state = self.game.kernels, self.game, self.state
        while not k.is_terminal(state) and k.current_player(state) != self.seat:
            p = int(k.current_player(state))
            mask = np.empty(game.num_actions, dtype=np.int8)
            k.legal_mask(state, mask)
            policy = self.policies[p]
            action = policy.act(self._observe(p), mask, self.np_random)
            try:
                self._step(action)
            except IllegalActionError as e:
                raise IllegalActionError(
                    f"the opponent in seat {p} ({type(policy).__name__}) chose an illegal "
                    f"action: {e}") from None

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (MaskablePPO calls this); none once the episode
        is over."""
        self._need_reset("action_masks()")
        self._mask[:] = 0
        if not self._done and not self.game.kernels.is_terminal(self.state):
            self.game.kernels.legal_mask(self.state, self._mask)
        return self._mask.astype(bool)

    def _need_reset(self, what: str) -> None:
        if self.state is None:
            raise gym.error.ResetNeeded(f"call reset() before {what}")

    def _action_id(self, action) -> int:
        """The action id of an element of action_space or an action name; else ValueError."""
        if type(action) is int and 0 <= action < self.game.num_actions:
            return action
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if isinstance(action, str):
            return self.game.action_id(action)
        if (not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_))
                or not 0 <= action < self.game.num_actions):
            raise ValueError(f"action must be an int id in 0..{self.game.num_actions - 1} "
                             f"(an element of action_space) or an action name, got {action!r}")
        return int(action)

    def step(self, action):
        self._need_reset("step()")
        if self._done:
            raise gym.error.ResetNeeded(
                "the episode is over (terminated or truncated): call reset() before step()")
        a = self._action_id(action)
        try:
            self._step(a)
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            self._done = True
            obs = self._observe(self.seat)
            return obs, -1.0, True, False, {"illegal_action": a, "reason": str(e)}
        self._advance()
        if self.render_mode == "human":     # shown after every step (Gymnasium's convention)
            self.render()
        obs = self._observe(self.seat)
        k = self.game.kernels
        truncated = bool(k.is_truncated(self.state))
        terminated = bool(k.is_terminal(self.state)) and not truncated
        reward = self._reward() if terminated else 0.0
        info = {}
        if terminated or truncated:
            self._done = True
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
        """As the AEC env's: "ansi" the text board, "rgb_array" a uint8[h, w, 3] frame,
        "human" the frame in a window where a display exists, else the text board printed
        (then None; human mode also shows every reset and step)."""
        if self.render_mode is None:
            return None
        self._need_reset("render()")
        if self.render_mode == "ansi":
            return self.game.render_ansi(self.state)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.state)
        from tradewinds import frames

        if self.human_window is None:
            self.human_window = frames.display_available()
        if self.human_window:
            try:
                if self._viewer is None:
                    self._viewer = frames.HumanViewer(f"{self.game.name}_single_agent")
                self._viewer.show(self.game.render_rgb(self.state))
                return None
            except Exception:  # noqa: BLE001 - no usable window after all: print instead
                self.human_window = False
        print(self.game.render_ansi(self.state), end="\n\n", flush=True)
        return None

    def close(self):
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None


ENV_IDS = {"hansa": "tradewinds/Hansa-v0", "voyage": "tradewinds/Voyage-v0"}
"""`gymnasium.make(ENV_IDS[game], num_players=3, ...)` makes a SingleAgentEnv."""
for _game, _id in ENV_IDS.items():
    if _id not in gym.registry:
        gym.register(id=_id, entry_point="tradewinds.single_agent:SingleAgentEnv",
                     kwargs={"game": _game})
