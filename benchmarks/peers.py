"""Peer throughput baselines: PettingZoo classic and OpenSpiel random playouts.

Every peer plays complete games with uniformly random legal moves and returns one
result dict (see :func:`_row`) with median throughput over timed repeats:

* ``steps_per_s``  -- median *decision* steps per second (a player chose an action);
  chance events (deals, dice) are never counted as steps;
* ``games_per_s``  -- median completed games per second;
* ``steps_per_game`` -- mean decisions per game;
* ``chance_per_game`` -- mean chance events per game where they are visible
  (``None`` when the library resolves chance internally and does not expose it);
* ``actions_per_s`` -- decisions + chance events per second where known (this is
  the figure you get by counting every entry in an OpenSpiel history);
* ``chance`` -- a sentence on how chance was counted; ``notes`` -- caveats.

Peers that cannot be imported (no ``pyspiel``, no ``pettingzoo.classic`` env) come
back as rows with ``available=False`` and the reason in ``notes``; nothing raises.

Run ``python -m tradewinds.benchmarks.peers [--quick] [--json out.json]`` for a markdown table.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import itertools
import json
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from tradewinds.benchmarks.timing import measure, peak_rss_mb

__all__ = [
    "OPENSPIEL_GAMES",
    "PETTINGZOO_ENVS",
    "format_table",
    "main",
    "openspiel_cpp",
    "openspiel_python",
    "pettingzoo_aec",
    "run_all",
    "settings",
]

PETTINGZOO_ENVS = ("connect_four_v3", "tictactoe_v3")
OPENSPIEL_GAMES = ("hearts", "oh_hell", "backgammon", "connect_four")

# Row keys every peer returns (skipped rows carry None for the numbers).
ROW_KEYS = (
    "name",
    "peer",
    "game",
    "available",
    "steps_per_s",
    "steps_per_s_min",
    "steps_per_s_max",
    "games_per_s",
    "games_per_s_min",
    "games_per_s_max",
    "steps_per_game",
    "chance_per_game",
    "actions_per_s",
    "chance",
    "notes",
    "timing",
    "peak_rss_mb",
)


def settings(
    quick: bool = False, repeats: int | None = None, min_time: float | None = None
) -> dict[str, Any]:
    """Timing settings for :func:`benchmarks.timing.measure`.

    Default: 5 repeats of >= 1 s each after 0.2 s warm-up. ``quick``: 2 repeats of
    >= 20 ms and no warm-up (smoke tests; the numbers are noisy).
    """
    if quick:
        cfg: dict[str, Any] = {"repeats": 2, "min_time": 0.02, "warmup": 0.0}
    else:
        cfg = {"repeats": 5, "min_time": 1.0, "warmup": 0.2}
    if repeats is not None:
        cfg["repeats"] = repeats
    if min_time is not None:
        cfg["min_time"] = min_time
    return cfg


def _row(name: str, peer: str, game: str, **fields: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(ROW_KEYS)
    row.update(name=name, peer=peer, game=game, available=True, notes="", chance="")
    row.update(fields)
    return row


def _skipped(name: str, peer: str, game: str, reason: str) -> dict[str, Any]:
    return _row(name, peer, game, available=False, notes=f"skipped: {reason}")


def _timing_summary(res: dict[str, Any]) -> dict[str, Any]:
    return {k: res[k] for k in ("median_s", "repeats", "min_time", "calls_median", "runs")}


def _rates(res: dict[str, Any]) -> dict[str, Any]:
    return {
        k: res[k]
        for k in (
            "steps_per_s",
            "steps_per_s_min",
            "steps_per_s_max",
            "games_per_s",
            "games_per_s_min",
            "games_per_s_max",
            "steps_per_game",
            "peak_rss_mb",
        )
    }


# --------------------------------------------------------------------------- PettingZoo


def pettingzoo_aec(
    env_name: str = "connect_four_v3",
    *,
    quick: bool = False,
    seed: int = 0,
    repeats: int | None = None,
    min_time: float | None = None,
) -> dict[str, Any]:
    """Random playouts of ``pettingzoo.classic.<env_name>.env()`` through the AEC API.

    The env is built once with its default wrappers; each game is ``env.reset(seed=s)``
    (fresh seed per game, included in the timing) then the usual
    ``agent_iter`` / ``last`` / ``step`` loop. A live agent picks uniformly among the
    ones in ``obs["action_mask"]`` with a ``numpy.random.Generator``; finished agents
    step ``None`` (not counted). Steps = decisions.
    """
    name, peer = f"pettingzoo/{env_name}", "pettingzoo-aec"
    try:
        with warnings.catch_warnings():
            # pettingzoo 1.27 flags the `pettingzoo.classic.<env>` module API as deprecated
            warnings.simplefilter("ignore", DeprecationWarning)
            module = importlib.import_module(f"pettingzoo.classic.{env_name}")
        env = module.env()
        env.reset(seed=seed)
    except Exception as exc:  # ImportError, DependencyNotInstalled, ...
        return _skipped(name, peer, env_name, f"{type(exc).__name__}: {exc}")

    rng = np.random.default_rng(seed)
    seeds = itertools.count(seed + 1)

    def play_one() -> dict[str, int]:
        env.reset(seed=next(seeds))
        decisions = 0
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
                decisions += 1
            env.step(action)
        return {"steps": decisions, "games": 1}

    res = measure(play_one, **settings(quick, repeats, min_time))
    env.close()
    deterministic = env_name in ("connect_four_v3", "tictactoe_v3")
    return _row(
        name,
        peer,
        env_name,
        **_rates(res),
        chance_per_game=0.0 if deterministic else None,
        actions_per_s=res["steps_per_s"] if deterministic else None,
        chance=(
            "no chance events"
            if deterministic
            else "chance resolved inside env.step/reset, not counted"
        ),
        notes="env() default wrappers; reset(seed) per game timed; numpy Generator on mask",
        timing=_timing_summary(res),
    )


# --------------------------------------------------------------------------- OpenSpiel


def _load_pyspiel():
    import pyspiel  # optional dependency

    return pyspiel


def openspiel_python(
    game_name: str,
    *,
    quick: bool = False,
    seed: int = 0,
    repeats: int | None = None,
    min_time: float | None = None,
) -> dict[str, Any]:
    """Python-driven random playouts of an OpenSpiel game via ``pyspiel``.

    ``state = game.new_initial_state()``; until terminal: at a chance node sample an
    outcome from ``state.chance_outcomes()`` by its probability (counted as a chance
    event, not a step), otherwise pick uniformly from ``state.legal_actions()``
    (one decision step); ``state.apply_action``. Uses Python's ``random.Random``
    (cheapest scalar draws in pure Python). Default game parameters.
    """
    name, peer = f"openspiel-py/{game_name}", "openspiel-python"
    try:
        pyspiel = _load_pyspiel()
        game = pyspiel.load_game(game_name)
    except Exception as exc:
        return _skipped(name, peer, game_name, f"{type(exc).__name__}: {exc}")

    rnd = random.Random(seed)

    def play_one() -> dict[str, int]:
        state = game.new_initial_state()
        decisions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                u = rnd.random()
                acc = 0.0
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if u < acc:
                        action = a
                        break
                state.apply_action(action)
                chance += 1
            elif state.is_simultaneous_node():
                raise NotImplementedError(f"{game_name}: simultaneous nodes not handled")
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
                decisions += 1
        return {"steps": decisions, "games": 1, "chance_steps": chance}

    res = measure(play_one, **settings(quick, repeats, min_time))
    chance_per_game = res["chance_steps"] / res["games"]
    return _row(
        name,
        peer,
        game_name,
        **_rates(res),
        chance_per_game=chance_per_game,
        actions_per_s=res["steps_per_s"] + res["chance_steps_per_s"],
        chance="chance nodes sampled in Python from chance_outcomes(), counted separately",
        notes="Python loop over pyspiel State; new_initial_state() per game timed",
        timing=_timing_summary(res),
    )


def _count_evaluate_bots_actions(pyspiel, game, bots, n_games: int, seed: int):
    """Play ``n_games`` with ``evaluate_bots`` (untimed) and count decisions / chance
    events per game from ``state.full_history()`` (chance = player -1)."""
    decisions = chance = 0
    for i in range(n_games):
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + i)
        for pa in state.full_history():
            if pa.player == pyspiel.PlayerId.CHANCE:
                chance += 1
            else:
                decisions += 1
    return decisions / n_games, chance / n_games


def openspiel_cpp(
    game_name: str,
    *,
    decisions_per_game: float | None = None,
    chance_per_game: float | None = None,
    quick: bool = False,
    seed: int = 0,
    repeats: int | None = None,
    min_time: float | None = None,
    games_per_call: int = 8,
    check_games: int | None = None,
) -> dict[str, Any]:
    """Whole games in C++: ``pyspiel.evaluate_bots(state, bots, seed)``.

    Bots are ``pyspiel.make_uniform_random_bot(player, seed + player)``, built once
    and reused; every game gets a fresh ``new_initial_state()`` and a new
    ``evaluate_bots`` seed. Chance nodes are resolved by ``evaluate_bots`` itself
    (C++ ``SampleChanceOutcome``), invisibly to Python, so only games are timed.
    ``steps_per_s = games_per_s * decisions_per_game``; pass ``decisions_per_game``
    from :func:`openspiel_python` (as :func:`run_all` does); if omitted, the
    per-game counts from the untimed check sample are used.

    An untimed check sample of ``check_games`` evaluate_bots games is replayed via
    ``full_history()`` to count decisions/chance events per game directly
    (``decisions_per_game_check`` / ``chance_per_game_check`` in the row).
    """
    name, peer = f"openspiel-cpp/{game_name}", "openspiel-cpp"
    try:
        pyspiel = _load_pyspiel()
        game = pyspiel.load_game(game_name)
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    except Exception as exc:
        return _skipped(name, peer, game_name, f"{type(exc).__name__}: {exc}")

    seeds = itertools.count(seed)
    new_state = game.new_initial_state
    evaluate_bots = pyspiel.evaluate_bots

    def play_batch() -> dict[str, int]:
        for _ in range(games_per_call):
            evaluate_bots(new_state(), bots, next(seeds))
        return {"games": games_per_call}

    res = measure(play_batch, **settings(quick, repeats, min_time))

    if check_games is None:
        check_games = 20 if quick else 200
    dec_check, chance_check = _count_evaluate_bots_actions(
        pyspiel, game, bots, check_games, seed=10_000_019
    )
    source = "from the Python loop"
    if decisions_per_game is None:
        decisions_per_game, source = dec_check, f"from {check_games} untimed evaluate_bots games"
    if chance_per_game is None:
        chance_per_game = chance_check

    games_q = {k: res[k] for k in ("games_per_s", "games_per_s_min", "games_per_s_max")}
    steps_q = {
        "steps_per_s": res["games_per_s"] * decisions_per_game,
        "steps_per_s_min": res["games_per_s_min"] * decisions_per_game,
        "steps_per_s_max": res["games_per_s_max"] * decisions_per_game,
    }
    return _row(
        name,
        peer,
        game_name,
        **games_q,
        **steps_q,
        steps_per_game=decisions_per_game,
        chance_per_game=chance_per_game,
        actions_per_s=res["games_per_s"] * (decisions_per_game + chance_per_game),
        decisions_per_game_check=dec_check,
        chance_per_game_check=chance_check,
        chance="chance resolved inside evaluate_bots (C++), not timed separately",
        notes=(
            f"uniform_random_bot x{game.num_players()}; steps/s = games/s x decisions/game {source}"
        ),
        timing=_timing_summary(res),
        peak_rss_mb=peak_rss_mb(),
    )


# --------------------------------------------------------------------------- driver


def run_all(
    quick: bool = False,
    *,
    repeats: int | None = None,
    min_time: float | None = None,
    pettingzoo_envs: tuple[str, ...] = PETTINGZOO_ENVS,
    openspiel_games: tuple[str, ...] = OPENSPIEL_GAMES,
    only: str | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every peer; returns a list of rows (see module docstring).

    ``only``: substring filter on row names (e.g. ``"hearts"``). The OpenSpiel C++ row
    of a game reuses the decisions/game measured by its Python row when that ran.
    """
    kw: dict[str, Any] = {"quick": quick, "repeats": repeats, "min_time": min_time}
    rows: list[dict[str, Any]] = []

    def wanted(name: str) -> bool:
        return only is None or only in name

    def emit(row: dict[str, Any]) -> None:
        rows.append(row)
        if progress is not None:
            progress(row)

    for env_name in pettingzoo_envs:
        if wanted(f"pettingzoo/{env_name}"):
            emit(pettingzoo_aec(env_name, **kw))
    for game_name in openspiel_games:
        py_row = None
        if wanted(f"openspiel-py/{game_name}"):
            py_row = openspiel_python(game_name, **kw)
            emit(py_row)
        if wanted(f"openspiel-cpp/{game_name}"):
            dpg = cpg = None
            if py_row is not None and py_row["available"]:
                dpg, cpg = py_row["steps_per_game"], py_row["chance_per_game"]
            emit(openspiel_cpp(game_name, decisions_per_game=dpg, chance_per_game=cpg, **kw))
    return rows


def _fmt(x: Any, digits: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if x != x:  # nan
            return "nan"
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.{digits}g}" if abs(x) < 100 else f"{x:.1f}"
    return str(x)


def format_table(rows: list[dict[str, Any]]) -> str:
    """Markdown table: name, steps/s, games/s, steps/game, chance/game, actions/s, notes."""
    head = (
        "| name | steps/s (median) | games/s (median) | steps/game | chance/game "
        "| actions/s incl. chance | notes |"
    )
    lines = [head, "|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        note = r["notes"] if not r["available"] else f"{r['chance']}; {r['notes']}"
        lines.append(
            f"| {r['name']} | {_fmt(r['steps_per_s'])} | {_fmt(r['games_per_s'])} "
            f"| {_fmt(r['steps_per_game'])} | {_fmt(r['chance_per_game'])} "
            f"| {_fmt(r['actions_per_s'])} | {note} |"
        )
    return "\n".join(lines)


def _environment() -> dict[str, Any]:
    info: dict[str, Any] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": np.__version__,
    }
    for dist in ("pettingzoo", "open_spiel"):
        try:
            info[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            info[dist] = "missing"
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="very short runs (smoke test)")
    parser.add_argument("--repeats", type=int, default=None, help="timed repeats per peer")
    parser.add_argument("--min-time", type=float, default=None, help="seconds per repeat")
    parser.add_argument("--only", default=None, help="substring filter on row names")
    parser.add_argument("--json", dest="json_path", default=None, help="write rows as JSON")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()

    def progress(row: dict[str, Any]) -> None:
        print(
            f"  {row['name']}: steps/s={_fmt(row['steps_per_s'])} "
            f"games/s={_fmt(row['games_per_s'])}",
            file=sys.stderr,
            flush=True,
        )

    rows = run_all(
        args.quick,
        repeats=args.repeats,
        min_time=args.min_time,
        only=args.only,
        progress=progress,
    )
    print(format_table(rows))
    cfg = settings(args.quick, args.repeats, args.min_time)
    print(
        f"\n{cfg['repeats']} repeats x >= {cfg['min_time']} s each, single process/thread; "
        f"total {time.perf_counter() - t0:.1f} s; peak RSS {peak_rss_mb():.0f} MiB"
    )
    if args.json_path:
        payload = {"environment": _environment(), "settings": cfg, "rows": rows}
        with open(args.json_path, "w") as fh:
            json.dump(payload, fh, indent=2, default=str)
        print(f"wrote {args.json_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
