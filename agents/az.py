"""`az`, `az:<path>`, `net` and `net:<path>`: the policy-value nets as players.

``az`` searches with the net (`agents.az_search`): ``simulations`` per decision (default
the search config's; ``az:<N>`` names N with the shipped nets, as ``mcts:<N>`` does), or
as many as ``time_budget`` seconds allow. ``net`` plays the raw
policy, the arg-max of the masked logits, with no search. Without a path they load the
net shipped for the game and the player count of the game in play
(``agents/nets/<game>_<n>p.npz``, trained by the command in its metadata); with a path,
any net file that `tradewinds train --algo alphazero` wrote. ``judge`` mixes the game's
own judgement into the leaf values, ``root="gumbel"`` searches the root by Gumbel top-m
and sequential halving (`agents.az_search`). ``unsearched`` names action families
(``("move",)``) where the search does not pay: where the raw policy's choice is one of
them, ``az`` plays it without a search, and its time goes to the other decisions.
``destinations`` (Voyage; the draws of `agents.destinations_voyage`) plays the move steps
toward each turn's destination searched by playouts, not by the net. A
net's metadata may carry the settings it was rated with (``"search": {"judge": 0.5,
"simulations": 600}``, keys of `SEARCHED_BY_NET`); they apply where the caller gave none.

Both see only what their seat may see: ``net`` reads the observation and the legal mask
(a net with a hint also the heuristic's choice on the seat's own determinization);
``az`` reads the real state only through the search's determinizations.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from tradewinds import cli_args
from tradewinds.agents import az_search, net_input, pvnet
from tradewinds.agents.heuristic import rng_key

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)

NETS = Path(__file__).parent / "nets"


def shipped(game: str, num_players: int) -> Path:
    """Where the shipped net of `game` at `num_players` lives."""
    return NETS / f"{game}_{num_players}p.npz"


def players_in(observation, game=None) -> int | None:
    """The player count from an observation where it opens with its one-hot (both games:
    ``num_players=2`` ... ``num_players=4``); None for a game whose observation does not."""
    if game is not None and tuple(game.obs_names[:3]) != (
            "num_players=2", "num_players=3", "num_players=4"):
        return None
    return 2 + int(np.argmax(np.asarray(observation)[:3]))


class _Nets:
    """The nets of one agent by player count: the one file given, or the shipped ones."""

    def __init__(self, game, path: str | None):
        self.game, self.path = game, path
        self._loaded: dict[int, tuple] = {}
        if path is not None:
            weights, config, meta = pvnet.load(path)
            self._check(config, Path(path))
            self._loaded[config.num_players] = (weights, config, meta)

    def _check(self, config: pvnet.NetConfig, path: Path) -> None:
        g = self.game
        if (config.game, config.obs_size, config.num_actions) != (
                g.name, g.obs_size, g.num_actions):
            raise ValueError(f"{path} is a net for {config.game!r} ({config.obs_size} inputs, "
                             f"{config.num_actions} actions), not for {g.name!r}")

    def get(self, num_players: int | None) -> tuple:
        """The net for `num_players` (None, unknown: the one file given)."""
        if num_players in self._loaded:
            return self._loaded[num_players]
        if self.path is not None and num_players is None:
            return next(iter(self._loaded.values()))
        if num_players is None:
            raise ValueError(f"{self.game.name}'s observation does not say the player "
                             f"count: name the net, as az:<path> or net:<path>")
        if self.path is not None:
            have = next(iter(self._loaded))
            raise ValueError(f"{self.path} is a net for {have} players, "
                             f"the game has {num_players}")
        path = shipped(self.game.name, num_players)
        if not path.is_file():
            raise ValueError(
                f"no shipped net for {self.game.name} at {num_players} players ({path}); train "
                f"one with `tradewinds train {self.game.name} --algo alphazero --players "
                f"{num_players}` and play it as az:<path>")
        weights, config, meta = pvnet.load(path)
        self._check(config, path)
        self._loaded[num_players] = (weights, config, meta)
        return self._loaded[num_players]


def raw_choice(game, nets: _Nets, name: str, observation, action_mask, rng, state) -> int:
    """The raw policy's choice: the arg-max of the masked logits (a hinted net also reads
    the heuristic's choice on the seat's own determinization, so it needs `state`)."""
    weights, config, _ = nets.get(players_in(observation, game))
    x = np.asarray(observation, dtype=np.float32)
    if config.hint:
        if state is None:
            raise ValueError(f"{name} reads the heuristic's choice: it needs state= "
                             "(the arena and envs pass it)")
        x = net_input.hinted(game, state, x, rng)
    logits, _ = pvnet.run(weights, x)
    return int(np.argmax(np.where(np.asarray(action_mask) != 0, logits, -np.inf)))


class NetAgent:
    """`net`: the raw policy of a net, no search (arg-max over the legal actions). A net
    with a hint (`agents.net_input`) also reads the heuristic's choice, so it takes state=."""

    needs_state = True

    def __init__(self, game: str = "hansa", spec: str | None = None):
        from tradewinds import registry

        self.game = registry.game(game)
        self.nets = _Nets(self.game, spec)
        self.name = "net" if spec is None else f"net:{spec}"

    def act(self, observation, action_mask, rng: np.random.Generator, *, state=None) -> int:
        return raw_choice(self.game, self.nets, self.name, observation, action_mask, rng, state)

    def __repr__(self) -> str:
        return f"NetAgent(game={self.game.name!r}, name={self.name!r})"


# the settings a net's "search" metadata may set, with their types
SEARCHED_BY_NET = {"simulations": int, "c": float, "judge": float, "judge_depth": int,
                   "root": str, "gumbel_m": int, "unsearched": tuple, "destinations": int}
# the settings of the agent rather than of the net's search
AROUND_THE_SEARCH = ("unsearched", "destinations")


class AlphaZeroAgent:
    """`az`: the net guiding IS-MCTS; the most visited root action."""

    needs_state = True

    def __init__(self, game: str = "hansa", spec: str | None = None,
                 simulations: int | None = None, time_budget: float | None = None,
                 c: float | None = None, judge: float | None = None,
                 judge_depth: int | None = None, root: str | None = None,
                 gumbel_m: int | None = None, unsearched: tuple[str, ...] | None = None,
                 destinations: int | None = None):
        from tradewinds import registry

        self.game = registry.game(game)
        self.name = "az" if spec is None else f"az:{spec}"
        if spec is not None and spec.isdigit():     # az:<simulations>, the shipped nets
            if simulations is not None:
                raise ValueError(f"az:{spec} names the simulations; do not pass simulations=")
            spec, simulations = None, int(spec)
        self.nets = _Nets(self.game, spec)
        given = {"simulations": simulations, "c": c, "judge": judge, "judge_depth": judge_depth,
                 "root": root, "gumbel_m": gumbel_m}
        self.given = {k: v for k, v in given.items() if v is not None}
        self.config = replace(az_search.SearchConfig(), **self.given)
        self.config.check()
        if unsearched is not None:
            self.given["unsearched"] = self._families(unsearched)
        self._destinations: dict[int, object] = {}            # the net's, by count; None: off
        self._given_destinations = None
        if destinations is not None:                          # any count; a bad one refused now
            self.given["destinations"] = int(destinations)
            self._given_destinations = self._destination_search(int(destinations))
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be positive seconds, got {time_budget!r}")
        if time_budget is not None and self.config.root == "gumbel":
            raise ValueError(az_search.NO_BUDGET_AT_GUMBEL_ROOT)
        self.time_budget = time_budget
        self._searchers: dict[int, az_search.Searcher] = {}
        self._unsearched: dict[int, tuple[str, ...]] = {}     # name prefixes by player count

    def _searcher(self, num_players: int) -> az_search.Searcher:
        if num_players not in self._searchers:
            weights, _, meta = self.nets.get(num_players)
            self._searchers[num_players] = az_search.Searcher(self.game, weights, 1,
                                                              self.search_config(meta))
        return self._searchers[num_players]

    def search_config(self, meta: dict) -> az_search.SearchConfig:
        """The settings this agent searches a net with: the caller's, else the net's own
        (its metadata's "search"), else the defaults."""
        settings = self._net_settings(meta)
        for key in AROUND_THE_SEARCH:
            settings.pop(key, None)
        config = replace(self.config, **settings)
        config.check()
        return config

    def unsearched(self, meta: dict) -> tuple[str, ...]:
        """The action families played by the raw policy, without a search: the caller's,
        else the net's own, else none."""
        if "unsearched" in self.given:
            return self.given["unsearched"]
        return self._families(meta.get("search", {}).get("unsearched", ()))

    def destinations(self, num_players: int):
        """The destination search of the move steps (`agents.destinations_voyage`) when
        the caller or the net sets ``destinations`` (its draws; 0: off), else None."""
        if "destinations" in self.given:
            return self._given_destinations
        if num_players not in self._destinations:
            meta = self.nets.get(num_players)[2]
            draws = self._net_settings(meta).get("destinations", 0)
            self._destinations[num_players] = self._destination_search(draws)
        return self._destinations[num_players]

    def _destination_search(self, draws: int):
        if draws == 0:
            return None
        from tradewinds.agents.destinations_voyage import DestinationSearch

        return DestinationSearch(self.game, draws)

    def reset(self) -> None:
        for search in (*self._destinations.values(), self._given_destinations):
            if search is not None:
                search.reset()

    def _families(self, names) -> tuple[str, ...]:
        if isinstance(names, str):
            raise ValueError(f"unsearched takes action families as a list, got {names!r}")
        return cli_args.action_families(self.game, tuple(names))

    def _net_settings(self, meta: dict) -> dict:
        """The net's own search settings that the caller did not give."""
        stored = meta.get("search", {})
        unknown = sorted(set(stored) - set(SEARCHED_BY_NET))
        if unknown:
            raise ValueError(f"{self.name}: unknown search settings {unknown} in the net's "
                             f"metadata (known: {', '.join(SEARCHED_BY_NET)})")
        return {k: SEARCHED_BY_NET[k](v) for k, v in stored.items() if k not in self.given}

    def act(self, observation, action_mask, rng: np.random.Generator, *, state=None) -> int:
        if state is None:
            raise ValueError("the az agent needs state= (the arena and envs pass it)")
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        num_players = self.game.num_players(state)
        destinations = self.destinations(num_players)
        if destinations is not None and destinations.applies(state):
            return destinations.act(state, rng_key(rng))
        if num_players not in self._unsearched:
            families = self.unsearched(self.nets.get(num_players)[2])
            self._unsearched[num_players] = cli_args.family_prefixes(families)
        if self._unsearched[num_players]:
            raw = raw_choice(self.game, self.nets, self.name, observation, action_mask, rng,
                             state)
            if self.game.action_name(raw).startswith(self._unsearched[num_players]):
                return raw
        searcher = self._searcher(num_players)
        player = np.array([self.game.current_player(state)], dtype=np.int64)
        keys = rng_key(rng)[None].copy()
        visits = searcher.run(np.ascontiguousarray(state[None]), player, keys,
                              time_budget=self.time_budget)
        if searcher.config.root == "gumbel":      # sequential halving's winner
            return int(searcher.chosen[0])
        return az_search.best_action(visits[0], np.asarray(action_mask))

    def __repr__(self) -> str:
        return (f"AlphaZeroAgent(game={self.game.name!r}, name={self.name!r}, "
                f"simulations={self.config.simulations})")
