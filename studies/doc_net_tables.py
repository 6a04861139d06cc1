"""The docs' tables of the shipped nets, made from the nets' metadata, the run logs of the
stages after them and the ladder files: what each shipped agent is made of and what it
cost (README, docs/alphazero.md), and where `az` and `net` stand on the ladders.

A net's core-hours are those of the chain of commands that made it, stage by stage: the
net's own metadata (`core_hours` of the run it was shipped from), the committed log of a
DAgger run (its rounds' `core_hours`), or, for a stage whose run is not committed, the
figure of the dated note that measured it (`Stage.noted`).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from tradewinds.studies.doc_sources import (
    elo,
    elo_interval,
    hours,
    ladder,
    log_core_hours,
    net_info,
    read_json,
    table,
)

NOTES = "lab/notes/2026-12-alphazero.md"
RUNS = "lab/alphazero/runs/"


class Stage(NamedTuple):
    """A stage of a net's chain: the net's metadata (`log` empty, `noted` None), `rounds`
    rounds of a committed run log, or a figure `noted` in the dated notes."""

    log: str = ""
    rounds: int = 0
    noted: float | None = None


class Net(NamedTuple):
    name: str                  # agents/nets/<name>.npz
    stages: tuple[Stage, ...]
    search: str                # how `az` searches it, {sims} {judge} {draws} filled in
    made_by: str               # docs/alphazero.md's account of its chain
    readme_search: str
    readme_hand: str           # the hand-written parts `az` uses at play time
    readme_training: str
    chain: str                 # the core-hours table's name for the chain


META = Stage()
NETS = (
    Net("hansa_2p", (Stage(noted=1.57), Stage(noted=0.1), META),
        "{sims} simulations (the default)",
        "warm start, 48 self-play iterations at 512 wide, distilled to 256, 30 self-play "
        "iterations, 72 gated self-play iterations", "{sims} simulations, PUCT", "none",
        "warm start on heuristic games, self-play, distilled, self-play, gated self-play "
        "(recipe `hansa_2p`)",
        "warm start, self-play, distilled, self-play, gated self-play"),
    Net("hansa_3p", (META,), "{sims} simulations",
        "warm start, 25 self-play iterations, 30 gated self-play iterations",
        "{sims} simulations", "none",
        "warm start on heuristic games, self-play, gated self-play (recipe `hansa_3p`)",
        "warm start, self-play, gated self-play"),
    Net("hansa_4p", (META,), "{sims} simulations", "warm start, 15 gated self-play iterations",
        "{sims} simulations", "none",
        "warm start on heuristic games, gated self-play (recipe `hansa_4p`)",
        "warm start, gated self-play"),
    Net("voyage_2p", (META, Stage(RUNS + "voyage_2p_dagger_log.csv", 6),
                      Stage(RUNS + "voyage_2p_dagger_s400_log.csv", 4),
                      Stage(RUNS + "voyage_2p_dagger_hint2_log.csv", 3)),
        "the destination search at the move steps ({draws} draws); elsewhere {sims} "
        "simulations, half the leaf from the game's judgement",
        "warm start, DAgger with heuristic then search labels, three hinted DAgger rounds",
        "{sims} simulations off the move steps",
        "the hint, heuristic playouts for the move steps (`destinations`), half of each leaf "
        "value from the game's judgement (`judge` {judge})",
        "warm start, DAgger, hinted DAgger", "warm start, DAgger, hinted DAgger"),
    Net("voyage_3p", (META, Stage(RUNS + "voyage_3p_dagger_hint_log.csv", 1),
                      Stage(RUNS + "voyage_3p_dagger_az_log.csv", 1)),
        "{sims} simulations, judge {judge}",
        "warm start, one hinted DAgger round, one DAgger round labelled by its own search",
        "{sims} simulations", "the hint, `judge` {judge}",
        "warm start, one hinted DAgger round, one round taught by its own search (recipe "
        "`voyage_3p`)", "warm start, hinted DAgger, DAgger taught by its search"),
    Net("voyage_4p", (META,), "{sims} simulations, judge {judge}", "warm start",
        "{sims} simulations", "`judge` {judge}", "warm start", "warm start"),
)
DEFAULT_SIMULATIONS = 200      # agents.az's default when a net's metadata names none


def net_path(net: Net) -> str:
    return f"agents/nets/{net.name}.npz"


def nets_sources() -> tuple[str, ...]:
    logs = [s.log for n in NETS for s in n.stages if s.log]
    noted = [NOTES] if any(s.noted is not None for n in NETS for s in n.stages) else []
    return tuple(net_path(n) for n in NETS) + tuple(logs) + tuple(noted)


def core_hours(root: Path, net: Net) -> float:
    """The summed core-hours of the net's chain of stages."""
    total = 0.0
    for stage in net.stages:
        if stage.noted is not None:
            total += stage.noted
        elif stage.log:
            total += log_core_hours(root, stage.log, stage.rounds)
        else:
            total += float(net_info(root, net_path(net))[1]["core_hours"])
    return total


def _fields(root: Path, net: Net) -> dict:
    config, meta = net_info(root, net_path(net))
    search = meta.get("search", {})
    return {"width": config.hidden, "blocks": config.blocks, "hint": bool(config.hint),
            "sims": f"{search.get('simulations', DEFAULT_SIMULATIONS):,}",
            "judge": search.get("judge", ""), "draws": search.get("destinations", ""),
            "hours": hours(core_hours(root, net))}


def alphazero_nets(root: Path) -> str:
    """docs/alphazero.md's table of the shipped nets."""
    rows = []
    for net in NETS:
        f = _fields(root, net)
        rows.append((f"`{net.name}`", f"{f['width']}, {f['blocks']}", "yes" if f["hint"] else "no",
                     net.search.format(**f), net.made_by, f["hours"]))
    header = ("net", "hidden width, residual blocks", "reads the heuristic's choice",
              "`az` searches it with", "made by (its metadata's `command`)", "core-hours")
    return table(header, rows, ("---",) * 5 + ("---:",))


def alphazero_core_hours(root: Path) -> str:
    """docs/alphazero.md's core-hours by game and player count."""
    rows = []
    for game in ("hansa", "voyage"):
        nets = [n for n in NETS if n.name.startswith(game + "_")]
        spent = [core_hours(root, n) for n in nets]
        cells = [f"{hours(h)} ({n.chain})" for n, h in zip(nets, spent, strict=True)]
        rows.append((game.capitalize(), *cells, hours(sum(spent))))
    return table(("game", "2 players", "3 players", "4 players", "all counts"), rows,
                 ("---",) + ("---:",) * 4)


FIXED_AGENT_ROWS = (
    ("`net` (each)", "the same net", "none (arg-max)", "the hint (Voyage 2p, 3p)", "as its `az`",
     "as its `az`"),
    ("`mcts:<N>`", "none", "IS-MCTS, N iterations", "Hansa: the heuristic as prior; Voyage: "
     "heuristic rollouts, then the VP lead", "none", "0"),
)


def readme_agents(root: Path) -> str:
    """README's table of what each shipped learned agent is made of and what it cost."""
    rows = []
    for i, net in enumerate(NETS):
        f = _fields(root, net)
        shape = (f"MLP {f['width']} wide, {f['blocks']} residual blocks" if i == 0
                 else f"MLP {f['width']}, {f['blocks']}")
        if f["hint"]:
            shape += ", reads the heuristic's choice"
        game, players = net.name.split("_")
        rows.append((f"{game.capitalize()} {players} `az`", shape,
                     net.readme_search.format(**f), net.readme_hand.format(**f),
                     net.readme_training, f["hours"]))
    ppo = ppo_millions(root)
    rows += [*FIXED_AGENT_ROWS, ("`ppo`", "MLP (SB3 default)", "none", "none",
                                 f"MaskablePPO self-play, {ppo} M steps",
                                 "see [training.md](docs/training.md)")]
    header = ("agent", "net", "search at play time", "hand-written parts at play time",
              "training", "core-hours")
    return table(header, rows, ("---",) * 5 + ("---:",))


def ppo_millions(root: Path) -> str:
    """The shipped Hansa 2-player PPO checkpoint's steps, in millions."""
    return f"{read_json(root, 'agents/checkpoints/hansa_2p.json')['steps'] / 1e6:.1f}"


# ------------------------------------------------------------ the ladders


LADDERS = tuple(f"studies/ladders/{g}_{n}p.json" for g in ("hansa", "voyage") for n in (2, 3, 4))
OURS = ("az", "net", "heuristic")


def _games(data: dict) -> str:
    """Games a line-up of the fit, and of `az` and `net`'s last extension."""
    fit = data["fit"]
    unit = "a pair" if data["players"] == 2 else "a line-up"
    text = f"{fit['games_per_lineup']} {unit}"
    added = [e for e in fit.get("extended", []) if {"az", "net"} & set(e.get("added", []))]
    return text + (f"; `az`, `net` {added[-1]['games_per_lineup']}" if added else "")


def _rating(member: dict, bold: bool) -> str:
    text = f"{elo(member['elo'])} {elo_interval(*member['ci95'])}"
    return f"**{text}**" if bold else text


def alphazero_ladders(root: Path) -> str:
    """docs/alphazero.md's `az`, `net`, the heuristic and the strongest other member of
    each shipped ladder (bold: `az` where it is the top-rated member). The ladders'
    versions are docs/benchmarking.md's to list: they change when members are carried."""
    rows = []
    for rel in LADDERS:
        data = ladder(root, rel)
        members = data["by_name"]
        top = max(data["members"], key=lambda m: m["elo"])["name"]
        other = max((m for m in data["members"] if m["name"] not in OURS), key=lambda m: m["elo"])
        rows.append((f"{data['game'].capitalize()} {data['players']}p",
                     _games(data), _rating(members["az"], top == "az"),
                     _rating(members["net"], False), _rating(members["heuristic"], False),
                     f"`{other['name']}` {elo(other['elo'])}"))
    return table(("ladder", "games", "`az`", "`net`", "heuristic", "strongest other"), rows)
