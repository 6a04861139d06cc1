"""Self-play: many games at once, every decision searched by the net (`agents.az_search`).

Each call of `play` runs `games` games side by side until the finished games hold
`positions` searched positions (finished games are replaced by new ones; the games still
running at the end are dropped, so every record has its game's outcome). A record is the decider's
observation, legal mask, the search's visit distribution and the game's returns as seen
from the decider (entry r: the seat r places after it), the form the net predicts.

Playout-cap randomisation (Wu 2019, KataGo): a share `full_share` of the decisions gets
the full search and is recorded; the others get a quick search (`fast_simulations`) and
are not, so more games are finished per simulation spent. Forced decisions (one legal
action) are neither searched nor recorded. The first `sample_moves` decisions of a game
are sampled from the visit counts, the rest take the most visited action; the roots
get Dirichlet noise. With `value_blend` b > 0 a record's value target is (1 - b) times
the game's outcome plus b times the search's root value (Q/z blending): a target with
less of one game's luck, for a buffer that holds few games.

With ``root="gumbel"`` (`agents.gumbel`) every decision plays the sequential halving's
winner (its Gumbel draws are the exploration: no sampled moves, no Dirichlet noise) and
a record's policy target is the search's improved policy, not its visit counts: with
few simulations the visit counts say little, the improved policy still improves on the
prior.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tradewinds.agents import az_search, net_input, pvnet


@dataclass
class SelfPlayConfig:
    games: int = 32                 # played side by side
    simulations: int = 100          # full search
    fast_simulations: int = 25      # quick search (not recorded)
    full_share: float = 0.25        # decisions with the full search
    sample_moves: int = 30          # decisions per game sampled from the visit counts
    value_blend: float = 0.0        # value target: (1 - b) * outcome + b * root Q
    score_share: float = 0.0        # outcome: (1 - s) * win shares + s * VP shares
    root: str = "puct"              # the search's root selection (az_search.ROOTS)

    def check(self) -> None:
        for name in ("games", "simulations", "fast_simulations"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"self-play {name} must be a positive integer, got {v!r}")
        if not 0.0 < self.full_share <= 1.0:
            raise ValueError(f"full_share must be in (0, 1], got {self.full_share!r}")
        if self.fast_simulations > self.simulations:
            raise ValueError("fast_simulations must not exceed simulations")
        for name in ("value_blend", "score_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if self.root not in az_search.ROOTS:
            raise ValueError(f"root must be one of {', '.join(az_search.ROOTS)}, "
                             f"got {self.root!r}")


def outcome_with_scores(returns: np.ndarray, scores: np.ndarray, share: float) -> np.ndarray:
    """Games' outcomes by seat (one row a game): (1 - share) times the win shares plus
    share times each seat's share of the VP (negative VP counted as 0; all seats equal
    when no seat has any)."""
    vp = np.maximum(np.asarray(scores, np.float64), 0.0)
    total = vp.sum(axis=1, keepdims=True)
    shares = np.where(total > 0, vp / np.where(total > 0, total, 1.0), 1.0 / vp.shape[1])
    return (1.0 - share) * np.asarray(returns, np.float64) + share * shares


def empty_records(obs_size: int, num_actions: int, n: int = 0) -> dict:
    return {"obs": np.zeros((n, obs_size), np.float16),
            "mask": np.zeros((n, num_actions), bool),
            "policy": np.zeros((n, num_actions), np.float32),
            "value": np.zeros((n, pvnet.MAX_SEATS), np.float32)}


class SelfPlay:
    """Self-play for one game and player count with one net; reuse it across calls."""

    def __init__(self, game, num_players: int, weights: pvnet.Weights,
                 config: SelfPlayConfig | None = None,
                 search: az_search.SearchConfig | None = None):
        self.game, self.num_players = game, num_players
        self.config = config or SelfPlayConfig()
        self.config.check()
        search = replace(search or az_search.SearchConfig(),
                         simulations=self.config.simulations, root=self.config.root)
        self.searcher = az_search.Searcher(game, weights, self.config.games, search)
        self.games_finished = 0
        self.decisions = 0

    def set_weights(self, weights: pvnet.Weights) -> None:
        # a writeable copy: weights from Ray's object store are read-only, another type
        # to numba, which would compile the whole search a second time for them
        self.searcher.weights = pvnet.Weights(*(np.array(a) for a in weights))

    def play(self, positions: int, seed: int) -> dict:
        """At least `positions` records from games with seeds seed, seed + 1, ...; the
        search and the move choices draw from generators seeded by `seed`.

        Once the finished games' records and those of the games in play reach
        `positions`, no new game starts and the games in play are played to their end:
        none is dropped half played (which would waste its searches and keep long games
        out of the records more often than short ones)."""
        G, cfg, n = self.game, self.config, self.num_players
        gen = np.random.default_rng([seed, 0x5E1F])
        keys = gen.integers(-(2**31), 2**31, size=(cfg.games, 2)).astype(np.int32)
        next_seed = seed
        states = np.zeros((cfg.games, G.state_size), np.int32)
        moves = np.zeros(cfg.games, np.int64)
        playing = np.ones(cfg.games, bool)
        pending: list[list] = [[] for _ in range(cfg.games)]
        done: list[tuple] = []
        recorded = 0        # records of finished games
        for g in range(cfg.games):
            states[g] = G.new_state(n, next_seed)
            next_seed += 1
        while playing.any():
            self._wave(np.flatnonzero(playing), states, moves, keys, pending, gen)
            for g in np.flatnonzero(playing):
                if G.is_terminal(states[g]):
                    done.append((self._outcome(states[g]), pending[g]))
                    recorded += len(pending[g])
                    pending[g] = []
                    self.games_finished += 1
                    if recorded + sum(len(p) for p in pending) >= positions:
                        playing[g] = False
                        continue
                    states[g] = G.new_state(n, next_seed)
                    next_seed += 1
                    moves[g] = 0
        return self._records(done)

    def _wave(self, games, states, moves, keys, pending, gen) -> None:
        """One decision in each of `games`: a forced one played without a search or a
        record, the others searched side by side (`_search_and_move`)."""
        G = self.game
        live, players, masks = [], [], []
        for g in games:
            mask = G.legal_mask(states[g])
            if np.count_nonzero(mask) == 1:        # forced: no search, no record
                self._step(g, int(np.flatnonzero(mask)[0]), states, moves)
                continue
            live.append(g)
            players.append(G.current_player(states[g]))
            masks.append(mask)
        if live:
            self._search_and_move(live, players, masks, states, moves, keys, pending, gen)

    def _search_and_move(self, live, players, masks, states, moves, keys, pending, gen):
        """One search for each game in `live` (a full one, recorded, with probability
        full_share), then its move: sampled from the visits early in the game, else the
        most visited (Gumbel: the search's own choice)."""
        G, cfg = self.game, self.config
        full = gen.random(len(live)) < cfg.full_share
        sims = np.where(full, cfg.simulations, cfg.fast_simulations)
        idx = np.array(live)
        live_keys = keys[idx]
        visits = self.searcher.run(states[idx], np.array(players, np.int64),
                                   live_keys, sims, noise=gen)
        keys[idx] = live_keys     # advanced by the search
        q = self.searcher.root_values(len(live))
        gumbel = cfg.root == "gumbel"
        for i, g in enumerate(live):
            v = visits[i].astype(np.float64)
            if full[i]:
                obs = G.observe(states[g], players[i])
                if self.searcher.hinted:      # the net's input: the hint after it
                    obs = net_input.hinted(G, states[g], obs, gen)
                target = self.searcher.improved[i].copy() if gumbel else v / v.sum()
                pending[g].append((obs, masks[i], target, players[i], q[i].copy()))
            if gumbel:
                a = int(self.searcher.chosen[i])
            elif moves[g] < cfg.sample_moves:
                a = int(gen.choice(v.size, p=v / v.sum()))
            else:
                a = az_search.best_action(visits[i], masks[i])
            self._step(g, a, states, moves)

    def _outcome(self, state) -> np.ndarray:
        """A finished game's outcome by seat: its win shares, with `score_share` s > 0
        (1 - s) times them plus s times each seat's share of the VP (a denser signal than
        who won, from the rules alone: KataGo's score target, as a share)."""
        returns = self.game.returns(state)
        s = self.config.score_share
        if not s:
            return returns
        return outcome_with_scores(returns[None], self.game.scores(state)[None], s)[0]

    def _step(self, g, a, states, moves) -> None:
        self.game.step(states[g], a)
        moves[g] += 1
        self.decisions += 1

    def _records(self, done) -> dict:
        G, n, b = self.game, self.num_players, self.config.value_blend
        rows = [(obs, mask, pol, (1 - b) * _relative(ret, p, n) + b * _relative(q, p, n))
                for ret, recs in done for obs, mask, pol, p, q in recs]
        out = empty_records(self.searcher.forest.obs.shape[1], G.num_actions, len(rows))
        for i, (obs, mask, pol, val) in enumerate(rows):
            out["obs"][i], out["mask"][i], out["policy"][i], out["value"][i] = obs, mask, pol, val
        return out


def _relative(returns: np.ndarray, observer: int, n: int) -> np.ndarray:
    """Win shares by seat -> by relative seat (entry r: seat observer + r)."""
    out = np.zeros(pvnet.MAX_SEATS, np.float32)
    for r in range(n):
        out[r] = returns[(observer + r) % n]
    return out
