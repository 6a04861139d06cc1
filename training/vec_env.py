"""A batched Stable-Baselines3 `VecEnv` over the kernels: N games in one int32 array,
stepped by one numba call, with `action_masks()` for sb3-contrib's MaskablePPO.

    from sb3_contrib import MaskablePPO
    from tradewinds.training.vec_env import BatchedVecEnv
    env = BatchedVecEnv("hansa", num_envs=64, num_players=2, opponents="heuristic", seed=0)
    MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=256).learn(100_000)

Every env is one game with the learner in one seat, exactly as `SingleAgentEnv` plays it:
the same observations (the seat's flat `observe` vector, the same Box), masks, rewards
(`tradewinds.rewards`) and opponents (`training.opponents`). With num_envs=1 and the
same seed and learner actions both envs give identical observations, rewards and dones
(tests/training/test_vec_env.py).

A step: the learner's actions are applied, then each game's opponents decide inside
numba until that game waits on the learner again or is over; a finished game is scored
(rewards at the end, or every step with reward="score"), its last observation goes to
``infos[i]["terminal_observation"]`` and a new game starts in its place (auto-reset).

`game` is a game name or a `Game` (e.g. `voyage_env.game.make_game(a_map)`); game options
(max_rounds, ...) are keyword arguments.

Opponents (`opponents`: one spec for every env, or a list of `num_envs` specs — when
num_envs equals num_players - 1, write per-env specs as lists; a spec is one opponent for
every opponent seat or a list of num_players - 1, one per opponent seat in seat order):
- "random" (code 0) and "heuristic" (code 1): played inside numba, drawing from the env's
  opponent key, ``as_key(game_seed)`` at every episode start;
- a predictor (code 2 + its index): an object with ``predict(observations,
  action_masks=masks)`` returning actions (or ``(actions, state)``), e.g. a frozen SB3
  model (`training.opponents.Frozen(model)` for deterministic play). Policy seats are
  played by one batched forward pass per predictor per round: the numba loop runs every
  game until it waits on the learner or on a predictor (writing that seat's observation
  and mask), the predictors answer for all games waiting on them at once, and the loop
  resumes, until no game waits on a predictor.
- an agent (``act(observation, action_mask, rng)``, any registered agent): played
  outside numba, one ``act`` per decision, as the arena asks it: the deciding seat's
  observation, mask and generator ``default_rng([game seed, seat])``, and a copy of the
  state when it declares ``needs_state``; ``reset()``, where it has one, before its
  seat's first decision of each game. Such an agent keeps memory within a game, so give
  each env and seat its own object (per-env specs).
`set_opponents(opponents, indices)` changes them (from the next opponent decision on).
`opponent_sampler` (a callable ``sampler(generator) -> spec``) instead draws each new
episode's opponents when the episode is pre-drawn, from env i's generator after its seed
and seat (`training.pool.OpponentPool.sample` is one): the opponents are fixed for the
whole game, as the seat is.

Seeds and seats: env i draws its episodes from its own generator,
``gymnasium.utils.seeding.np_random(seed + i)`` (`seed` given here or to `seed()`, as
SB3 seeds env i of a DummyVecEnv with seed + i; fresh entropy when None): each episode
takes its game seed ``integers(0, 2**63 - 1)`` and then, with seat="random" (the
default), the learner's seat ``integers(num_players)`` — the draws `SingleAgentEnv`
makes after ``reset(seed=seed + i)``. `reset_infos[i]["seat"]` and `seats` tell the
learner's seat of the current episode.

Infos at the end of an episode: ``terminal_observation``, ``seat`` (the learner's seat
in the game that ended), ``scores`` and ``won`` (one entry per seat: VP, and 1 for
each seat with a share of the win, as `tradewinds.rewards.end_info`),
``truncated`` (the round cap stopped the game), ``episode`` ({"r", "l", "t"} as SB3's
Monitor writes it), ``illegal_action`` when the learner lost by one. A game stopped by
the round cap is scored as it stands and its final reward is paid, so it ends the
episode like any other end: ``TimeLimit.truncated`` is False (SB3 must not bootstrap
past a game that is over; the round is part of the observation).

Illegal learner actions: as `SingleAgentEnv`, `illegal_action="lose"` (default) ends the
game with reward -1 and ``infos[i]["illegal_action"]``; "raise" raises
IllegalActionError before any game moves. Actions out of range raise ValueError. An
opponent (predictor) choosing an illegal action raises IllegalActionError naming it;
after that error, call `reset()`.

SB3's VecEnv interface: `reset`, `step_async`/`step_wait`, `seed`, `get_attr`,
`set_attr`, `env_method` (``env_method("action_masks")`` gives each env's mask, as
sb3-contrib asks for it; other names call this object's method once, with ``indices=``
when it takes them), `env_is_wrapped`, `close`. Attributes are those of this one object,
except the per-env ``seat``/``seats``.
"""

from __future__ import annotations

import inspect
import time
from typing import NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numba import njit
from stable_baselines3.common.vec_env import VecEnv

from tradewinds import registry, rewards
from tradewinds.aec import ILLEGAL_MODES, observation_box
from tradewinds.compiled import disk_cache, protocol
from tradewinds.protocol import Game, IllegalActionError
from tradewinds.training import opponents as ops

# row status, inside `run`
IDLE, ACT, REPLY, START, WAIT, FAILED, EMPTY = 0, 1, 2, 3, 4, 5, 6
# what a `run` call does: the learner's actions, predictors' replies, new games everywhere
STEP, RESUME, RESET = 0, 1, 2
# report[...] after a `run` call
R_WAITING, R_FAILED, R_STARTED, R_BAD_ACTION = 0, 1, 2, 3
# predictors kept registered before the unused ones are forgotten (opponent_sampler)
MAX_IDLE_POLICIES = 32


class Rows(NamedTuple):
    """Each row's game as the numba loop keeps it between calls: the state, its status
    (IDLE, ACT, ...), the action to apply (the learner's, or a predictor's reply), the
    learner's seat, the opponents' codes and key, the margins last paid (score rewards),
    the episode's length and return so far, whether a game began since Python last
    looked (`fresh`), and scratch space for the opponents (`scratch`, `seen`) and the
    rewards (`pay`, one entry per seat, shared by the rows)."""
    states: np.ndarray
    status: np.ndarray
    acts: np.ndarray
    seats: np.ndarray
    codes: np.ndarray
    keys: np.ndarray
    last: np.ndarray
    ep_len: np.ndarray
    ep_ret: np.ndarray
    fresh: np.ndarray
    scratch: np.ndarray
    seen: np.ndarray
    pay: np.ndarray


class Outputs(NamedTuple):
    """What Python reads after a `run` call: the learner's observations and masks, the
    observation, mask and code of a seat waiting on a predictor, the step's rewards,
    dones and illegal-action losses, each finished game's last observation, state, VP,
    win shares, length and return, and the `report` (R_* counters)."""
    obs: np.ndarray
    masks: np.ndarray
    opp_obs: np.ndarray
    opp_masks: np.ndarray
    wait_code: np.ndarray
    rew: np.ndarray
    done: np.ndarray
    illegal: np.ndarray
    term_obs: np.ndarray
    final_states: np.ndarray
    done_len: np.ndarray
    done_ret: np.ndarray
    final_vp: np.ndarray
    final_ret: np.ndarray
    report: np.ndarray


class Setup(NamedTuple):
    """How games are set up and paid: the player count, the game options, the reward
    mode, and each row's next game pre-drawn by Python (seed, learner seat, opponents)."""
    num_players: int
    opts: np.ndarray
    mode: int
    next_seeds: np.ndarray
    next_seats: np.ndarray
    next_codes: np.ndarray


@njit(cache=True)
def _begin(aux, i, rows, setup):
    """Row i starts the game pre-drawn for it (next_*: seed, seat, opponents); Python draws
    the following one."""
    s = rows.states[i]
    protocol.init(aux, s, setup.num_players, setup.next_seeds[i], setup.opts)
    rows.seats[i] = setup.next_seats[i]
    rows.codes[i, :] = setup.next_codes[i]
    ops.seed_key(setup.next_seeds[i], rows.keys[i])
    rewards.margins(aux, s, rows.last[i])
    rows.ep_len[i] = 0
    rows.ep_ret[i] = 0.0
    rows.fresh[i] = 1


@njit(cache=True)
def _bad_action(actions, strict, masks):
    """1 + the first row whose learner action is out of range (or, with `strict`,
    illegal), else 0. Every row is checked before any moves, so a raise leaves all games
    as they were."""
    for i in range(masks.shape[0]):
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or (strict and masks[i, a] == 0):
            return i + 1
    return 0


@njit(cache=True)
def _mark(phase, actions, rows, out):
    """Each row's status for this pass: STEP, every row applies the learner's action;
    RESET, every row begins a new game; RESUME, rows waiting on a predictor apply its
    reply. A new step (not a resumed one) clears the rewards, dones and losses."""
    for i in range(rows.states.shape[0]):
        if phase == STEP:
            rows.status[i] = ACT
            rows.acts[i] = actions[i]
        elif phase == RESET:
            rows.status[i] = START
        elif rows.status[i] == WAIT:
            rows.status[i] = REPLY
        if phase != RESUME:
            out.rew[i] = 0.0
            out.done[i] = 0
            out.illegal[i] = 0


@njit(cache=True)
def _lose(aux, i, rows, out, setup):
    """The learner of row i chose an illegal action: the game ends with reward -1 (as
    `SingleAgentEnv` plays "lose") and a new one begins."""
    out.rew[i] = -1.0
    out.done[i] = 1
    out.illegal[i] = 1
    out.term_obs[i, :] = out.obs[i]
    out.final_states[i, :] = rows.states[i]
    out.done_len[i] = rows.ep_len[i] + 1
    out.done_ret[i] = rows.ep_ret[i] - 1.0
    _begin(aux, i, rows, setup)


@njit(cache=True)
def _apply(aux, i, rows, out, setup):
    """Row i's own move of this pass, by its status: ACT applies the learner's action (an
    illegal one loses), REPLY a predictor's reply (a refused one: FAILED), START begins a
    new game. -1: the row does not play on (not its turn, or failed); 0: its game goes
    on; 1: a new game began."""
    st, s = rows.status[i], rows.states[i]
    if st == ACT:
        a = rows.acts[i]
        if out.masks[i, a] == 0 or protocol.step(aux, s, a) != 0:
            _lose(aux, i, rows, out, setup)
            return 1
        rows.ep_len[i] += 1
        return 0
    if st == REPLY:
        a = rows.acts[i]
        if a < 0 or a >= out.masks.shape[1] or protocol.step(aux, s, a) != 0:
            rows.status[i] = FAILED
            out.report[R_FAILED] += 1
            return -1
        return 0
    if st == START:
        _begin(aux, i, rows, setup)
        return 1
    return -1


@njit(cache=True)
def _finish(aux, i, rows, out, setup):
    """Row i's game is over: pay the learner's final reward, record the game (last
    observation and state, VP, win shares, length, return) and begin the next one."""
    s, seat = rows.states[i], rows.seats[i]
    rewards.pay(aux, s, setup.mode, rows.last[i], rows.pay)
    out.rew[i] += rows.pay[seat]
    out.done[i] = 1
    protocol.observe(aux, s, seat, out.term_obs[i])
    out.final_states[i, :] = s
    protocol.scores(aux, s, out.final_vp[i])
    protocol.returns(aux, s, out.final_ret[i])
    out.done_len[i] = rows.ep_len[i]
    out.done_ret[i] = rows.ep_ret[i] + out.rew[i]
    _begin(aux, i, rows, setup)


@njit(cache=True)
def _to_learner(aux, i, began, rows, out, mode):
    """Row i waits on the learner (IDLE): pay the step's score reward (none on a game's
    first observation), write the learner's observation and mask."""
    s, seat = rows.states[i], rows.seats[i]
    if not began and mode == rewards.SCORE:
        rewards.pay(aux, s, mode, rows.last[i], rows.pay)
        out.rew[i] += rows.pay[seat]
        rows.ep_ret[i] += rows.pay[seat]
    protocol.observe(aux, s, seat, out.obs[i])
    protocol.legal_mask(aux, s, out.masks[i])
    rows.status[i] = IDLE


@njit(cache=True)
def _to_predictor(aux, i, rows, out):
    """Row i waits on a predictor (WAIT): write the deciding seat's observation, mask and
    opponent code for Python's batched forward pass."""
    s, seat = rows.states[i], rows.seats[i]
    p = protocol.current_player(aux, s)
    out.wait_code[i] = rows.codes[i, p - 1] if p > seat else rows.codes[i, p]
    protocol.observe(aux, s, p, out.opp_obs[i])
    protocol.legal_mask(aux, s, out.opp_masks[i])
    rows.status[i] = WAIT
    out.report[R_WAITING] += 1


@njit(cache=True)
def _play_opponents(aux, i, began, rows, out, setup):
    """Row i's RANDOM/HEURISTIC opponents play until it waits on the learner or on a
    predictor, or fails; a game that ends on the way is scored and restarted (`began`:
    a game began in this pass; one that ends before the learner's first decision is
    EMPTY)."""
    s = rows.states[i]
    while True:
        r = ops.advance(aux, s, rows.seats[i], rows.codes[i], rows.keys[i], rows.scratch[i],
                        rows.seen[i])
        if r == ops.FINISHED:
            if began:
                rows.status[i] = EMPTY
                out.report[R_FAILED] += 1
                break
            _finish(aux, i, rows, out, setup)
            began = True
        elif r == ops.LEARNER:
            _to_learner(aux, i, began, rows, out, setup.mode)
            break
        elif r == ops.WAITING:
            _to_predictor(aux, i, rows, out)
            break
        else:
            rows.status[i] = FAILED
            out.report[R_FAILED] += 1
            break
    if began:
        out.report[R_STARTED] += 1


@njit(cache=True)
def run(aux, phase, actions, strict, rows, out, setup):
    """One pass over the rows. `phase` STEP: every row applies the learner's action
    actions[i] (first checked for every row: an id out of range, or with `strict` an
    illegal one, sets report[R_BAD_ACTION] = 1 + row and nothing moves); RESUME: rows
    waiting on a predictor apply its reply acts[i]; RESET: every row begins a new game.
    Then each such row's RANDOM/HEURISTIC opponents play until it waits on the learner
    (IDLE: obs/masks written, reward paid), on a predictor (WAIT: that seat's observation
    and mask in opp_obs/opp_masks, its code in wait_code) or fails (FAILED: an opponent's
    action refused, it is in acts[i]; EMPTY: a new game ended before the learner's first
    decision). A game that ends is scored (rew, done, term_obs, final_states, its VP and
    win shares in final_vp/final_ret, done_len/done_ret) and restarted in place. report:
    rows waiting, failed, started."""
    out.report[:] = 0
    if phase == STEP:
        bad = _bad_action(actions, strict, out.masks)
        if bad:
            out.report[R_BAD_ACTION] = bad
            return
    _mark(phase, actions, rows, out)
    for i in range(rows.states.shape[0]):
        began = _apply(aux, i, rows, out, setup)
        if began >= 0:
            _play_opponents(aux, i, began == 1, rows, out, setup)


class MaskRow(np.ndarray):
    """The first row of a `MaskRows` list (the others are plain bool rows). Through it
    numpy hands ``np.stack(rows)`` of an unedited `MaskRows` list — what sb3-contrib's
    ``get_action_masks`` does with ``env.env_method("action_masks")`` — to this class,
    which answers with one copy of the stacked masks instead of a row-by-row
    concatenation (the same array, several times faster)."""

    def __array_function__(self, func, types, args, kwargs):
        if (func is np.stack and len(args) == 1 and not kwargs
                and isinstance(args[0], MaskRows) and args[0].intact()):
            return args[0].stacked.copy()
        return super().__array_function__(func, types, args, kwargs)


class MaskRows(list):
    """The masks of some envs, one bool row per env (a fresh copy); `stacked` holds the
    same masks as one bool[len, num_actions] array while the list is not edited."""

    def __init__(self, stacked: np.ndarray):
        rows = list(stacked)
        if rows:
            rows[0] = rows[0].view(MaskRow)
        super().__init__(rows)
        self.stacked = stacked
        self._edited = False

    def intact(self) -> bool:
        """Still exactly the rows it was made with (no list method changed it)."""
        return not self._edited


def _editing(name):
    def method(self, *args, **kwargs):
        self._edited = True
        return getattr(list, name)(self, *args, **kwargs)
    method.__name__ = name
    return method


for _name in ("__setitem__", "__delitem__", "__iadd__", "__imul__", "append", "extend",
              "insert", "pop", "remove", "clear", "sort", "reverse"):
    setattr(MaskRows, _name, _editing(_name))


class BatchedVecEnv(VecEnv):
    """N games of one game and player count, one learner seat each, as an SB3 VecEnv
    (module docstring: opponents, seeds, seats, rewards, infos)."""

    def __init__(self, game: str | Game = "hansa", num_envs: int = 64, num_players: int = 2,
                 opponents="random", seed: int | None = None, reward: str = "win",
                 seat: int | str = "random", illegal_action: str = "lose",
                 opponent_sampler=None, **options):
        self.game = registry.game(game) if isinstance(game, str) else game
        g = self.game
        self.num_players = n = g.check_players(num_players)
        if (isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer))
                or num_envs < 1):
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if not (seat == "random" if isinstance(seat, str) else
                isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_))
                and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', got {seat!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                                 or seed < 0):
            raise ValueError(f"seed must be None or a non-negative integer, got {seed!r}")
        self.reward_mode = reward
        self._mode = rewards.mode_code(reward)
        self.illegal_action = illegal_action
        self.seat_choice = "random" if isinstance(seat, str) else int(seat)
        self.options = g.resolve_options(options, n)
        self._opts = np.array(g.parse_options(**self.options), dtype=np.int64)
        self.render_mode = None
        N, S, A, O = int(num_envs), g.state_size, g.num_actions, g.obs_size
        space = observation_box(g, n, self.options)
        super().__init__(N, space, spaces.Discrete(A))
        # per-row state of the numba loop
        self.states = np.zeros((N, S), dtype=np.int32)
        self._status = np.zeros(N, dtype=np.int64)
        self._acts = np.zeros(N, dtype=np.int64)
        self.seats = np.zeros(N, dtype=np.int64)
        self._codes = np.zeros((N, max(n - 1, 1)), dtype=np.int64)
        self._next_codes = np.zeros_like(self._codes)
        self._keys = np.zeros((N, 2), dtype=np.int32)
        self._last = np.zeros((N, g.max_players), dtype=np.float64)
        self._next_seeds = np.zeros(N, dtype=np.int64)
        self._next_seats = np.zeros(N, dtype=np.int64)
        self._fresh = np.zeros(N, dtype=np.int8)
        self._obs = np.zeros((N, O), dtype=np.float32)
        self._masks = np.zeros((N, A), dtype=np.int8)
        self._opp_obs = np.zeros((N, O), dtype=np.float32)
        self._opp_masks = np.zeros((N, A), dtype=np.int8)
        self._wait_code = np.zeros(N, dtype=np.int64)
        self._rew = np.zeros(N, dtype=np.float64)
        self._done = np.zeros(N, dtype=np.int8)
        self._illegal = np.zeros(N, dtype=np.int8)
        self._term_obs = np.zeros((N, O), dtype=np.float32)
        self._final = np.zeros((N, S), dtype=np.int32)
        self._ep_len = np.zeros(N, dtype=np.int64)
        self._ep_ret = np.zeros(N, dtype=np.float64)
        self._done_len = np.zeros(N, dtype=np.int64)
        self._done_ret = np.zeros(N, dtype=np.float64)
        self._scratch = np.zeros((N, A), dtype=np.int8)
        self._seen = np.zeros((N, S), dtype=np.int32)
        self._pay = np.zeros(g.max_players, dtype=np.float64)
        self._final_vp = np.zeros((N, g.max_players), dtype=np.int64)
        self._final_ret = np.zeros((N, g.max_players), dtype=np.float64)
        self._report = np.zeros(4, dtype=np.int64)
        self._gens: list = [None] * N
        self.game_seeds = np.zeros(N, dtype=np.int64)   # the current episode's game seed
        self._specs: list = [None] * N        # the current episode's opponents
        self._next_specs: list = [None] * N   # the next episode's
        self.opponent_sampler = opponent_sampler
        self._policies: list = []      # predictors, code POLICY + index
        self._with_masks: list = []
        self._agent_games: dict = {}   # (env, seat) -> (game seed, generator) of agents
        self._started = False
        self._t0 = time.perf_counter()
        self._rows, self._out, self._setup = self._groups()
        self.set_opponents(opponents)
        if seed is not None:
            self.seed(int(seed))

    def _groups(self) -> tuple[Rows, Outputs, Setup]:
        """The numba loop's arrays, grouped once for every `run` call (a step adds no
        Python work)."""
        rows = Rows(self.states, self._status, self._acts, self.seats, self._codes,
                    self._keys, self._last, self._ep_len, self._ep_ret, self._fresh,
                    self._scratch, self._seen, self._pay)
        out = Outputs(self._obs, self._masks, self._opp_obs, self._opp_masks, self._wait_code,
                      self._rew, self._done, self._illegal, self._term_obs, self._final,
                      self._done_len, self._done_ret, self._final_vp, self._final_ret,
                      self._report)
        setup = Setup(self.num_players, self._opts, self._mode, self._next_seeds,
                      self._next_seats, self._next_codes)
        return rows, out, setup

    # ------------------------------------------------------------ opponents
    def _spec(self, spec) -> list:
        """One env's opponents as a list of num_players - 1 opponents."""
        k = self.num_players - 1
        if isinstance(spec, (list, tuple)):
            if len(spec) != k:
                raise ValueError(f"need {k} opponents (one per opponent seat), got {len(spec)}")
            items = list(spec)
        else:
            items = [spec] * k
        for o in items:
            if not ops.is_opponent(o):
                raise ValueError(
                    f"an opponent must be 'random', 'heuristic', a predictor with "
                    f"predict(observations, action_masks=...) or an agent with "
                    f"act(observation, action_mask, rng), got {o!r}")
        return items

    def _code(self, o) -> int:
        if isinstance(o, str):
            return ops.NAMES[o]
        for j, p in enumerate(self._policies):
            if p is o:
                return ops.POLICY + j
        self._policies.append(o)
        self._with_masks.append(ops.is_predictor(o) and ops.takes_masks(o))
        return ops.POLICY + len(self._policies) - 1

    def set_opponents(self, opponents, indices=None) -> None:
        """Opponents of the envs `indices` (all when None): one spec for each of them, or a
        list with one spec per index (a spec: one opponent, or a list of num_players - 1).
        They take over from the next opponent decision on."""
        idx = self._indices(indices)
        if opponents is None:
            opponents = "random"
        if isinstance(opponents, (list, tuple)) and len(opponents) == len(idx) and (
                len(idx) != self.num_players - 1
                or any(isinstance(o, (list, tuple)) for o in opponents)):
            specs = [self._spec(o) for o in opponents]
        else:
            specs = [self._spec(opponents)] * len(idx)
        for i, spec in zip(idx, specs, strict=True):
            self._specs[i] = self._next_specs[i] = spec
        self._prune()

    def _prune(self) -> None:
        """Forget the predictors no current or next episode plays; renumber the codes."""
        in_use = self._specs + self._next_specs
        keep = {id(o) for sp in in_use if sp for o in sp if not isinstance(o, str)}
        self._policies = [p for p in self._policies if id(p) in keep]
        self._with_masks = [ops.is_predictor(p) and ops.takes_masks(p) for p in self._policies]
        for codes, specs in ((self._codes, self._specs), (self._next_codes, self._next_specs)):
            for i, spec in enumerate(specs):
                if spec is not None:
                    codes[i, : len(spec)] = [self._code(o) for o in spec]

    def get_opponents(self, indices=None) -> list:
        """The opponents of each env (one per opponent seat)."""
        return [list(self._specs[i]) for i in self._indices(indices)]

    # ------------------------------------------------------------ episodes
    def _draw_next(self, i: int) -> None:
        """Pre-draw env i's next episode (game seed, then seat) from its generator."""
        gen = self._gens[i]
        self._next_seeds[i] = int(gen.integers(0, 2**63 - 1))
        self._next_seats[i] = (int(gen.integers(self.num_players))
                               if self.seat_choice == "random" else self.seat_choice)
        if self.opponent_sampler is not None:
            spec = self._spec(self.opponent_sampler(gen))
            self._next_specs[i] = spec
            self._next_codes[i, : len(spec)] = [self._code(o) for o in spec]
            if len(self._policies) > MAX_IDLE_POLICIES:
                self._prune()

    def _refill(self) -> None:
        """Rows that started a game: record it, pre-draw their next one."""
        fresh = np.flatnonzero(self._fresh)
        for i in fresh:     # first all, so a prune while drawing sees the games' opponents
            self.game_seeds[i] = self._next_seeds[i]
            self._specs[i] = self._next_specs[i]
            self.reset_infos[i] = {"seat": int(self.seats[i])}
        for i in fresh:
            self._draw_next(i)
        self._fresh[:] = 0

    def _run(self, phase: int, actions: np.ndarray) -> int:
        """The numba pass, then predictor rounds until every game waits on the learner;
        the number of games started."""
        g, report = self.game, self._report
        rows, out, setup = self._rows, self._out, self._setup
        run(g.aux, phase, actions, self.illegal_action == "raise", rows, out, setup)
        if report[R_BAD_ACTION]:
            i = int(report[R_BAD_ACTION]) - 1
            a = int(actions[i])
            if not 0 <= a < g.num_actions:
                raise ValueError(f"env {i}: action ids must be in 0..{g.num_actions - 1}, "
                                 f"got {a}")
            raise IllegalActionError(f"env {i}: {g.action_name(a)} is illegal: "
                                     f"{g.illegal_reason(self.states[i], a)}")
        started = int(report[R_STARTED])
        while report[R_WAITING] and not report[R_FAILED]:
            waiting = self._status == WAIT
            codes = self._wait_code[waiting]
            waiting_rows = np.flatnonzero(waiting)
            for c in np.unique(codes):
                r = waiting_rows[codes == c]
                j = int(c) - ops.POLICY
                if ops.is_predictor(self._policies[j]):
                    self._acts[r] = ops.predict(self._policies[j], self._opp_obs[r],
                                                self._opp_masks[r].view(np.bool_),
                                                self._with_masks[j])
                else:
                    self._acts[r] = self._agent_moves(self._policies[j], r)
            run(g.aux, RESUME, actions, False, rows, out, setup)
            started += int(report[R_STARTED])
        if report[R_FAILED]:
            self._failed()
        return started

    def _agent_moves(self, agent, rows) -> np.ndarray:
        """An agent's moves in `rows`, one ``act`` each, as the arena asks it (module
        docstring); a row that began a game in this pass plays its pre-drawn seed."""
        moves = np.empty(len(rows), dtype=np.int64)
        for k, i in enumerate(rows):
            s = self.states[i]
            seed = int(self._next_seeds[i] if self._fresh[i] else self.game_seeds[i])
            p = int(self.game.kernels.current_player(s))
            seen = self._agent_games.get((int(i), p))
            if seen is None or seen[0] != seed:
                if callable(getattr(agent, "reset", None)):
                    agent.reset()
                seen = self._agent_games[(int(i), p)] = (seed, np.random.default_rng([seed, p]))
            obs, mask = self._opp_obs[i].copy(), self._opp_masks[i].copy()
            if getattr(agent, "needs_state", False):
                moves[k] = agent.act(obs, mask, seen[1], state=s.copy())
            else:
                moves[k] = agent.act(obs, mask, seen[1])
        return moves

    def _failed(self):
        g = self.game
        i = int(np.flatnonzero(self._status >= FAILED)[0])
        if self._status[i] == EMPTY:
            raise RuntimeError(f"env {i}: a new game ended before the learner's first decision")
        p = int(g.kernels.current_player(self.states[i]))
        opp = self._specs[i][p - 1 if p > self.seats[i] else p]
        a = int(self._acts[i])
        what, reason = f"action id {a}", "out of range"
        if 0 <= a < g.num_actions:
            what, reason = g.action_name(a), g.illegal_reason(self.states[i], a)
        raise IllegalActionError(f"env {i}: the opponent in seat {p} ({opp!r}) chose {what}, "
                                 f"which is illegal: {reason}")

    def reset(self) -> np.ndarray:
        for i in range(self.num_envs):
            if self._seeds[i] is not None or self._gens[i] is None:
                self._gens[i] = seeding.np_random(self._seeds[i])[0]
                self._draw_next(i)
        self._reset_seeds()
        self._reset_options()
        self._agent_games.clear()
        self._run(RESET, self._acts)
        self._refill()
        self._started = True
        return self._obs.copy()

    def step_async(self, actions) -> None:
        self._actions = actions

    def step_wait(self):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        N = self.num_envs
        a = self._actions
        if not (isinstance(a, np.ndarray) and a.dtype == np.int64 and a.shape == (N,)):
            a = np.asarray(a)
            if a.dtype.kind not in "iu" or a.size != N:
                raise ValueError(f"actions must be {N} integer action ids, got {a!r}")
            a = np.ascontiguousarray(a.reshape(N), dtype=np.int64)
        seats = self.seats.copy()
        started = self._run(STEP, a)
        infos = [{} for _ in range(N)]
        if started:
            for i in np.flatnonzero(self._done):
                infos[i] = self._end_info(i, int(a[i]), int(seats[i]))
            self._refill()
        return (self._obs.copy(), self._rew.astype(np.float32), self._done.astype(np.bool_),
                infos)

    def _end_info(self, i: int, action: int, seat: int) -> dict:
        g, final = self.game, self._final[i]
        info = {"terminal_observation": self._term_obs[i].copy(), "seat": seat,
                "TimeLimit.truncated": False,
                "episode": {"r": float(self._done_ret[i]), "l": int(self._done_len[i]),
                            "t": round(time.perf_counter() - self._t0, 6)}}
        if self._illegal[i]:
            info["illegal_action"] = action
            info["truncated"] = False
            return info
        n = self.num_players
        info["truncated"] = bool(g.kernels.is_truncated(final))
        info["scores"] = self._final_vp[i, :n].tolist()
        info["won"] = (self._final_ret[i, :n] > 0).astype(int).tolist()   # as rewards.end_info
        return info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every env, bool[num_envs, num_actions]."""
        return self._masks.astype(np.bool_)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ SB3 plumbing
    def _indices(self, indices) -> list:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices=None) -> list:
        idx = self._indices(indices)
        if attr_name in ("seat", "seats"):
            return [int(self.seats[i]) for i in idx]
        if attr_name == "game_seed":
            return [int(self.game_seeds[i]) for i in idx]
        value = getattr(self, attr_name)    # AttributeError when there is none
        return [value] * len(idx)

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Sets the attribute on this object (shared by every env)."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self._masks.astype(np.bool_) if indices is None else (
                self._masks[idx].astype(np.bool_))
            return MaskRows(masks)
        method = getattr(self, method_name)
        if "indices" in inspect.signature(method).parameters:
            method(*method_args, indices=idx, **method_kwargs)
            return [None] * len(idx)
        result = method(*method_args, **method_kwargs)
        return [result] * len(idx)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        return [False] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return attr_name in ("seat", "seats", "game_seed") or hasattr(self, attr_name)


disk_cache.refresh(globals())
