"""A single-agent Gymnasium view of any tradewinds game, for sb3-contrib's MaskablePPO.

The learner sits in one seat (`seat`: an int, or "random" — drawn per episode); every other
decision (opponents' turns and their mid-turn choices) is made inside `step`, so the
learner only sees its own decisions. Opponents (`opponents`, one spec for every opponent
seat, a list of one per opponent seat in seat order, or a callable `pool(rng) -> spec`
drawn per episode and seat, e.g. from past snapshots in self-play) are:

- "random" (the default) or "heuristic": played inside numba (`training.opponents`),
  drawing from an opponent key set from the game seed at every episode;
- a policy with the agent protocol `act(observation, action_mask, rng) -> action` (given
  the env's `np_random`, and `state=` when it declares `needs_state`, as in the arena);
- a predictor `predict(observations, action_masks=masks)` such as a Stable-Baselines3
  model (`training.opponents.Frozen(model)` plays it deterministically).

Seeds: `reset(seed=s)` seeds `np_random`; each episode then draws its game seed
(`np_random.integers(0, 2**63 - 1)`) and, with seat="random", the learner's seat
(`np_random.integers(num_players)`), in that order. With "random"/"heuristic" opponents
nothing else draws from `np_random`, so `training.vec_env.BatchedVecEnv` reproduces
these episodes exactly.

Rewards (`tradewinds.rewards`, the same as the AEC env's): `win` (1 shared by the
winners) and `zero_sum` at the end; `score` after every step, the change of the
learner's VP margin (own VP minus the best other seat's, / 100) — the rewards of an
episode sum to its final margin. A game stopped by the round cap is scored as it stands
and ends with `truncated=True` (and `terminated=False`); `info` then has `scores` and
`won` (one entry per seat, `tradewinds.rewards.end_info`), as at every end.

Arguments are checked like the AEC env's (ValueError naming the bad one). Actions are
the elements of `action_space` (an int id, a numpy integer, a 0-d integer array) or an
action name; anything else (1.5, True, an id out of range) raises ValueError.

Illegal actions. Gymnasium's contract is that every element of `action_space` may be
passed to `step` (its `check_env` steps `action_space.sample()`), and the legal ones
change every decision (`action_masks()`). So by default (`illegal_action="lose"`) an
action the current state does not allow ends the episode as a loss for the learner:
reward -1 (in every reward mode), `terminated=True`, `info["illegal_action"]` (the id)
and `info["reason"]`, as PettingZoo's classic games do; the state is unchanged.
`illegal_action="raise"` raises IllegalActionError naming the action and why, for
debugging a masked agent.

An episode that ended (terminated or truncated) must be reset: `step` raises
`gymnasium.error.ResetNeeded`, as it does before the first `reset`. The env can be
copied (`copy.deepcopy`) and pickled (the game is stored by name); opponents must be
picklable for pickling.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from tradewinds import registry, rewards
from tradewinds.aec import ILLEGAL_MODES, observation_box
from tradewinds.protocol import IllegalActionError, as_key


class UniformRandom:
    """Uniform over the legal actions, from the rng it is given (an agent-protocol policy;
    the default opponent is the kernel-side "random")."""

    def act(self, observation, action_mask, rng):
        return int(rng.choice(np.flatnonzero(action_mask)))


def _opponents():
    from tradewinds.training import opponents  # imports agents (the heuristics): on first use

    return opponents


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
        self._reward_code = rewards.mode_code(reward)
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        if isinstance(opponents, (list, tuple)) and len(opponents) != n - 1:
            raise ValueError(f"need {n - 1} opponents (one policy per opponent seat), "
                             f"got {len(opponents)}")
        ops = _opponents()
        if not (opponents is None or ops.is_opponent(opponents)
                or (callable(opponents) and not isinstance(opponents, str))
                or (isinstance(opponents, (list, tuple))
                    and all(ops.is_opponent(o) for o in opponents))):
            raise ValueError(
                f"opponents must be None or 'random' (uniform random), 'heuristic', a policy "
                f"with act(observation, action_mask, rng), a predictor with "
                f"predict(observations, action_masks=...), a callable pool(rng) -> one of "
                f"these, or a list of {n - 1} of these (one per opponent seat), "
                f"got {opponents!r}")
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
        self._scratch = np.zeros(self.game.num_actions, dtype=np.int8)
        self._seen = np.zeros(self.game.state_size, dtype=np.int32)
        self._codes = np.zeros(max(n - 1, 1), dtype=np.int64)
        self._key = np.zeros(2, dtype=np.int32)
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
    def _pick_opponents(self) -> list:
        """One opponent spec per opponent seat, in seat order, for a new episode."""
        opp, k = self._opponents, self.num_players - 1
        ops = _opponents()
        if opp is None:
            return ["random"] * k
        if isinstance(opp, (list, tuple)):
            return list(opp)
        if ops.is_opponent(opp):
            return [opp] * k
        picked = [opp(self.np_random) for _ in range(k)]
        if not all(ops.is_opponent(p) for p in picked):
            raise ValueError(f"the opponent pool returned a non-policy: {picked!r}")
        return picked

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
        ops = _opponents()
        for j, spec in enumerate(self.policies.values()):
            self._codes[j] = ops.NAMES[spec] if isinstance(spec, str) else ops.POLICY
        self._key[:] = as_key(game_seed)
        self._margins = rewards.start(self.game, self.state)
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
        """Let opponents decide until it is the learner's turn or the game is over: the
        kernel-side ones inside numba, the Python policies one decision at a time."""
        ops = _opponents()
        k, game, state = self.game.kernels, self.game, self.state
        while True:
            r = ops.advance(game.aux, state, self.seat, self._codes, self._key,
                            self._scratch, self._seen)
            if r == ops.LEARNER or r == ops.FINISHED:
                return
            p = int(k.current_player(state))
            policy = self.policies[p]
            if r == ops.FAILED:
                raise IllegalActionError(
                    f"the opponent in seat {p} ({policy}) chose an action the kernel refused")
            mask = np.empty(game.num_actions, dtype=np.int8)
            k.legal_mask(state, mask)
            obs = self._observe(p)
            if ops.is_actor(policy):
                if getattr(policy, "needs_state", False):
                    action = policy.act(obs, mask, self.np_random, state=state.copy())
                else:
                    action = policy.act(obs, mask, self.np_random)
            else:
                action = int(ops.predict(policy, obs[None], mask[None].astype(bool),
                                         ops.takes_masks(policy))[0])
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
        over = bool(k.is_terminal(self.state))
        truncated = over and bool(k.is_truncated(self.state))
        reward = 0.0
        if over or self._reward_code == rewards.SCORE:
            reward = float(rewards.payments(self.game, self.state, self._reward_code,
                                            self._margins)[self.seat])
        info = {}
        if over:
            self._done = True
            info = rewards.end_info(self.game, self.state)
        return obs, reward, over and not truncated, truncated, info

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
        gym.register(id=_id, entry_point="tradewinds.training.single_agent:SingleAgentEnv",
                     kwargs={"game": _game})
