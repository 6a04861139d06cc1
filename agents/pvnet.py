"""The policy-value network as data, and its forward pass inside numba.

A net is an MLP over a seat's own observation (the envs' ``observation`` vector): an input
layer, ``blocks`` residual hidden layers of width ``hidden``, and two heads: masked logits
over the game's actions, and one value logit per relative seat (entry 0 the observer, entry
r the seat r places after it, as in the observations). The value is the softmax of the
first ``num_players`` logits: the expected share of the win of each seat, so it sums to 1
like the games' returns and every seat maximises its own entry.

Torch trains the net (`training.alphazero.net`); the search runs it here, in numba, for a
whole batch of leaves at once, with no Python per simulation. The input layer exploits the
observations' sparsity (a few dozen nonzero entries of 515 or 2,501): it adds one weight
row per nonzero input, so a leaf costs about as much as the hidden layers.

With ``hint="heuristic"`` the input is the observation followed by the game heuristic's
choice at the position, one-hot (`agents.net_input` writes it): the net learns a policy
relative to the heuristic's (residual policy learning), from what the seat may see, as the
heuristic plays on the seat's own determinization. `with_hint` widens a net without one.

A net is saved as one ``.npz`` file: the arrays and a JSON config (`NetConfig`, plus any
metadata: the command that trained it, its budget, the ladder it was rated on).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from tradewinds.compiled import disk_cache

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

MAX_SEATS = 4
FORMAT = "tradewinds-pvnet-1"
HINTS = ("", "heuristic")   # "heuristic": the input also holds the heuristic's choice, one-hot


@dataclass(frozen=True)
class NetConfig:
    """The shape of a net: which game and player count it is for, and its sizes."""

    game: str
    num_players: int
    obs_size: int
    num_actions: int
    hidden: int = 256
    blocks: int = 2
    hint: str = ""

    @property
    def input_size(self) -> int:
        """The net's input width: the observation, then with a hint one entry per action."""
        return self.obs_size + (self.num_actions if self.hint else 0)

    def check(self) -> None:
        for name in ("num_players", "obs_size", "num_actions", "hidden"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"NetConfig.{name} must be a positive integer, "
                                 f"got {getattr(self, name)!r}")
        if not 2 <= self.num_players <= MAX_SEATS:
            raise ValueError(f"NetConfig.num_players must be 2..{MAX_SEATS}, "
                             f"got {self.num_players}")
        if not isinstance(self.blocks, int) or self.blocks < 0:
            raise ValueError(f"NetConfig.blocks must be an integer >= 0, got {self.blocks!r}")
        if self.hint not in HINTS:
            raise ValueError(f"NetConfig.hint must be one of {HINTS}, got {self.hint!r}")


class Weights(NamedTuple):
    """The arrays of a net, float32, C order (numba takes the tuple as one argument).
    ``w_in`` is [input_size, hidden]; ``w_blocks`` [blocks, hidden, hidden]; ``w_pi``
    [hidden, num_actions]; ``w_v`` [hidden, MAX_SEATS]."""

    w_in: np.ndarray
    b_in: np.ndarray
    w_blocks: np.ndarray
    b_blocks: np.ndarray
    w_pi: np.ndarray
    b_pi: np.ndarray
    w_v: np.ndarray
    b_v: np.ndarray


def shapes(config: NetConfig) -> dict:
    """Field name -> array shape, for `config`."""
    h, k = config.hidden, config.blocks
    return {"w_in": (config.input_size, h), "b_in": (h,), "w_blocks": (k, h, h),
            "b_blocks": (k, h), "w_pi": (h, config.num_actions), "b_pi": (config.num_actions,),
            "w_v": (h, MAX_SEATS), "b_v": (MAX_SEATS,)}


def random_weights(config: NetConfig, seed: int = 0, scale: float = 1.0) -> Weights:
    """He-initialised weights (biases 0), for tests and as a starting point."""
    config.check()
    gen = np.random.default_rng(seed)
    arrays = {}
    for name, shape in shapes(config).items():
        if name.startswith("b"):
            arrays[name] = np.zeros(shape, dtype=np.float32)
        else:
            fan_in = shape[-2]
            std = scale * math.sqrt(2.0 / fan_in)
            arrays[name] = (gen.standard_normal(shape) * std).astype(np.float32)
    return Weights(**arrays)


def with_hint(weights: Weights, config: NetConfig, hint: str) -> tuple[Weights, NetConfig]:
    """A net without a hint, widened to read `hint`: zero input rows for it, so it plays
    as before until trained."""
    if config.hint:
        raise ValueError(f"the net already reads the hint {config.hint!r}")
    wider = replace(config, hint=hint)
    wider.check()
    rows = np.zeros((wider.input_size - config.input_size, config.hidden), np.float32)
    return check_weights(weights._replace(w_in=np.vstack([weights.w_in, rows])), wider), wider


def check_weights(weights: Weights, config: NetConfig) -> Weights:
    """`weights` as float32 C-order arrays of `config`'s shapes, or ValueError naming the
    first array that is not."""
    out = {}
    for name, shape in shapes(config).items():
        a = getattr(weights, name)
        if tuple(a.shape) != shape:
            raise ValueError(f"net array {name} has shape {tuple(a.shape)}, config wants {shape}")
        a = np.ascontiguousarray(a, dtype=np.float32)
        if not np.all(np.isfinite(a)):
            raise ValueError(f"net array {name} holds non-finite values")
        out[name] = a
    return Weights(**out)


def save(path, weights: Weights, config: NetConfig, meta: dict | None = None) -> Path:
    """Write the net to `path` (.npz) atomically: a temporary file, then a rename."""
    path = Path(path)
    weights = check_weights(weights, config)
    header = json.dumps({"format": FORMAT, "config": asdict(config), "meta": meta or {}})
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, header=np.array(header), **weights._asdict())
    tmp.replace(path)
    return path


def load(path) -> tuple[Weights, NetConfig, dict]:
    """(weights, config, meta) of a net saved by `save`; ValueError naming what is wrong
    with a file that is not one."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no net file at {path}")
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            arrays = {name: data[name] for name in Weights._fields}
    except (OSError, KeyError, ValueError) as e:
        raise ValueError(f"{path} is not a tradewinds net file ({e})") from None
    if header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a tradewinds net file (format {header.get('format')!r})")
    config = NetConfig(**header["config"])
    config.check()
    return check_weights(Weights(**arrays), config), config, header.get("meta", {})


# ------------------------------------------------------------------ forward, inside numba


@njit(cache=True)
def _input_layer(w, obs, h):
    """h = relu(obs @ w_in + b_in), adding one weight row per nonzero input."""
    width = h.shape[1]
    for b in range(obs.shape[0]):
        for j in range(width):
            h[b, j] = w.b_in[j]
        for i in range(obs.shape[1]):
            x = obs[b, i]
            if x != 0.0:
                for j in range(width):
                    h[b, j] += x * w.w_in[i, j]
        for j in range(width):
            if h[b, j] < 0.0:
                h[b, j] = 0.0


@njit(cache=True)
def forward(w, obs, logits, value_logits):
    """The net on a batch of observations `obs` [B, obs_size] (float32): action logits
    into `logits` [B, num_actions], per-relative-seat value logits into `value_logits`
    [B, MAX_SEATS]. Hidden blocks are residual: h = h + relu(h @ W + b)."""
    h = np.empty((obs.shape[0], w.b_in.shape[0]), dtype=np.float32)
    _input_layer(w, obs, h)
    for k in range(w.w_blocks.shape[0]):
        z = np.dot(h, w.w_blocks[k])
        for b in range(h.shape[0]):
            for j in range(h.shape[1]):
                t = z[b, j] + w.b_blocks[k, j]
                if t > 0.0:
                    h[b, j] += t
    pi = np.dot(h, w.w_pi)
    v = np.dot(h, w.w_v)
    for b in range(h.shape[0]):
        for a in range(pi.shape[1]):
            logits[b, a] = pi[b, a] + w.b_pi[a]
        for r in range(v.shape[1]):
            value_logits[b, r] = v[b, r] + w.b_v[r]


@njit(cache=True)
def masked_softmax(logits, mask, out):
    """out[a] = softmax of `logits` over the actions with mask[a] != 0; 0 elsewhere."""
    top = -np.inf
    for a in range(logits.shape[0]):
        if mask[a] and logits[a] > top:
            top = logits[a]
    total = 0.0
    for a in range(logits.shape[0]):
        if mask[a]:
            e = math.exp(logits[a] - top)
            out[a] = e
            total += e
        else:
            out[a] = 0.0
    for a in range(logits.shape[0]):
        out[a] /= total


@njit(cache=True)
def seat_values(value_logits, num_players, observer, out):
    """The net's win shares by absolute seat: out[(observer + r) % n] = softmax of the
    first n value logits at r; entries from n on are 0."""
    top = -np.inf
    for r in range(num_players):
        top = max(top, value_logits[r])
    total = 0.0
    for r in range(num_players):
        total += math.exp(value_logits[r] - top)
    for p in range(out.shape[0]):
        out[p] = 0.0
    for r in range(num_players):
        out[(observer + r) % num_players] = math.exp(value_logits[r] - top) / total


def run(weights: Weights, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(logits [B, A], value logits [B, MAX_SEATS]) for observations [B, obs_size] or one
    observation [obs_size] (then [A], [MAX_SEATS])."""
    single = obs.ndim == 1
    x = np.ascontiguousarray(np.atleast_2d(obs), dtype=np.float32)
    logits = np.empty((x.shape[0], weights.b_pi.shape[0]), dtype=np.float32)
    values = np.empty((x.shape[0], MAX_SEATS), dtype=np.float32)
    forward(weights, x, logits, values)
    return (logits[0], values[0]) if single else (logits, values)


disk_cache.refresh(globals())
