"""The docs' strength tables, made from the strength and match reports: the AlphaZero
targets (README, docs/alphazero.md), every measured pairing (docs/agents.md), the turn's
destination searched (docs/agents.md) and the shipped PPO checkpoints (docs/training.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from tradewinds.studies.doc_sources import (
    Ref,
    interval,
    match_row,
    read_json,
    report_name,
    share,
    signed,
    signed_interval,
    strength_row,
    table,
)

R = "benchmarks/results/"
MCTS = "agents_strength.json"


def mcts400(game: str, players: int) -> Ref:
    return Ref(R + MCTS, "mcts:400", "heuristic", players, game)


class Cell(NamedTuple):
    """One game's result of a target: its row, the `mcts:400` row its edge is set beside
    (edge targets), the command that plays it again, a note the README adds, and the
    head to head of `az` against `mcts:400` in the same games (3-4 players)."""

    ref: Ref
    base: Ref | None = None
    command: str = ""
    readme_note: str = ""
    h2h: Ref | None = None


class Target(NamedTuple):
    label: str
    readme_label: str
    edge: bool          # judged by the edge over the control, else by the win rate
    hansa: Cell
    voyage: Cell


def _strength(game: str, players: int, pairing: str) -> str:
    return (f"`tradewinds strength --pairings {pairing} --game {game} --players {players} "
            f"--games 400`")


TARGETS = (
    Target("2 players: `az` beats `mcts:400` at equal time per decision, ≥ 0.60",
           "2 players: `az` beats `mcts:400` at equal time per decision, ≥ 0.60", False,
           Cell(Ref(R + "agents_strength_az_mcts400_hansa_2p_gate72.json",
                    "az:results/nets/hansa_2p_gate2_72.npz", "mcts:400"),
                command=_strength("hansa", 2, "az-mcts:400")),
           Cell(Ref(R + "agents_strength_az_dest_mcts400_voyage_2p.json",
                    "az:results/nets/v2p_dest32_j5_s2100.npz", "mcts:400"),
                command="see below", readme_note="the shipped `az` searches each turn's "
                "destination at the move steps")),
    Target("2 players: `net` beats the heuristic, ≥ 0.55",
           "2 players: `net` (no search) beats the heuristic, ≥ 0.55", False,
           Cell(Ref(R + "agents_strength_az_hansa_2p_gate72.json",
                    "net:results/nets/hansa_2p_gate2_72.npz", "heuristic"),
                command=_strength("hansa", 2, "net-heuristic")),
           Cell(Ref(R + "agents_strength_voyage_hint2_r3.json", "net:results/nets/hint2_r3.npz",
                    "heuristic"), command=_strength("voyage", 2, "net-heuristic"))),
    Target("3 players: `az`'s edge over the heuristic above zero and above `mcts:400`'s",
           "3 players: `az`'s edge over the heuristic above zero and above `mcts:400`'s", True,
           Cell(Ref(R + "agents_strength_az_hansa_3p_gate30.json",
                    "az:results/nets/hansa_3p_gate30.npz", "heuristic"),
                mcts400("hansa", 3), _strength("hansa", 3, "az-heuristic"),
                h2h=Ref(R + "agents_strength_az_mcts400_hansa_3p.json", "az", "mcts:400")),
           Cell(Ref(R + "agents_strength_az_voyage_3p_taught.json",
                    "az:results/nets/voyage_3p_az_r1.npz", "heuristic"),
                mcts400("voyage", 3), _strength("voyage", 3, "az-heuristic"))),
    Target("4 players: the same", "4 players: the same", True,
           Cell(Ref(R + "agents_strength_az_hansa_4p_gate15.json",
                    "az:results/nets/hansa_4p_gate15.npz", "heuristic"),
                mcts400("hansa", 4), _strength("hansa", 4, "az-heuristic"),
                h2h=Ref(R + "agents_strength_az_mcts400_hansa_4p.json", "az", "mcts:400")),
           Cell(Ref(R + "agents_strength_az_voyage_4p_j5.json", "az:results/nets/voyage_4p_j5.npz",
                    "heuristic"), mcts400("voyage", 4), _strength("voyage", 4, "az-heuristic"))),
    Target("3 players: `net` wins at least its fair share against heuristics, ≥ 0.333",
           "3 players: `net` (no search) wins its fair share against heuristics, ≥ 0.333",
           False,
           Cell(Ref(R + "agents_strength_az_hansa_3p_gate30.json",
                    "net:results/nets/hansa_3p_gate30.npz", "heuristic"),
                command=_strength("hansa", 3, "net-heuristic")),
           Cell(Ref(R + "agents_strength_az_voyage_3p_taught.json",
                    "net:results/nets/voyage_3p_az_r1.npz", "heuristic"),
                command=_strength("voyage", 3, "net-heuristic"))),
    Target("4 players: `net` wins at least its fair share against heuristics, ≥ 0.25",
           "4 players: the same, ≥ 0.25", False,
           Cell(Ref(R + "agents_strength_az_hansa_4p_gate15.json",
                    "net:results/nets/hansa_4p_gate15.npz", "heuristic"),
                command=_strength("hansa", 4, "net-heuristic")),
           Cell(Ref(R + "agents_strength_net_voyage_4p.json", "net:results/nets/voyage_4p_j5.npz",
                    "heuristic"), command=_strength("voyage", 4, "net-heuristic"))),
)


def target_sources() -> tuple[str, ...]:
    refs = [c.ref for t in TARGETS for c in (t.hansa, t.voyage)]
    refs += [c.base for t in TARGETS for c in (t.hansa, t.voyage) if c.base]
    refs += [c.h2h for t in TARGETS for c in (t.hansa, t.voyage) if c.h2h]
    return tuple(sorted({r.report for r in refs}))


def _result(root: Path, target: Target, cell: Cell, control: bool) -> str:
    """'**0.776** [0.733, 0.814]' (with ' (control 0.550)' when `control`), or for an edge
    target '**+0.203** [+0.137, +0.269] (`mcts:400` +0.117)'."""
    row = strength_row(root, cell.ref)
    if target.edge:
        base = strength_row(root, cell.base)
        text = (f"**{signed(row['edge'])}** {signed_interval(*row['edge95'])} "
                f"(`mcts:400` {signed(base['edge'])}")
        if cell.h2h is None:
            return text + ")"
        h2h = strength_row(root, cell.h2h)
        return (text + f"; head to head against `mcts:400` {share(h2h['win_rate'])} "
                f"{interval(*h2h['wilson95'])}, fair {share(h2h['fair_share'])})")
    text = f"**{share(row['win_rate'])}** {interval(*row['wilson95'])}"
    if control:
        return text + f" (control {share(row['control'])})"
    if cell.readme_note:
        return text + f" (control {share(row['control'])}; {cell.readme_note})"
    return text


def readme_targets(root: Path) -> str:
    """README's targets table: one row a target, one column a game."""
    rows = [(t.readme_label, _result(root, t, t.hansa, False), _result(root, t, t.voyage, False))
            for t in TARGETS]
    return table(("target", "Hansa", "Voyage"), rows)


def alphazero_targets(root: Path) -> str:
    """docs/alphazero.md's targets table: a row a target and game, with report and command."""
    rows = []
    for t in TARGETS:
        for i, (game, cell) in enumerate((("Hansa", t.hansa), ("Voyage", t.voyage))):
            rows.append(("" if i else t.label, game, _result(root, t, cell, not t.edge),
                         f"`{report_name(cell.ref.report)}`", cell.command))
    return table(("target", "game", "result", "report", "command"), rows)


# ------------------------------------------------------------ docs/agents.md


class Line(NamedTuple):
    """A row of the agents' strength table: the game, the player counts it covers (the
    rows of one report), the agent's and the opponent's names as printed, and the rows."""

    game: str
    agent: str
    vs: str
    refs: tuple[Ref, ...]


def _pairing(game, players, agent, vs, report, name, opponent="heuristic") -> Line:
    return Line(game, agent, vs, (Ref(R + report, name, opponent, players, game.lower()),))


HEURISTIC_RANDOM = "agents_strength_heuristic_random.json"
AGENT_LINES = (
    Line("Hansa", "heuristic", "random",
         tuple(Ref(R + HEURISTIC_RANDOM, "heuristic", "random", n, "hansa") for n in (2, 3, 4))),
    Line("Voyage", "heuristic", "random",
         tuple(Ref(R + HEURISTIC_RANDOM, "heuristic", "random", n, "voyage") for n in (2, 3, 4))),
    _pairing("Hansa", 2, "mcts:400", "heuristic", MCTS, "mcts:400"),
    Line("Hansa", "az", "heuristic", (Ref(R + "agents_strength_az_hansa_2p_gate72.json",
         "az:results/nets/hansa_2p_gate2_72.npz", "heuristic"),)),
    Line("Hansa", "az", "mcts:400", (TARGETS[0].hansa.ref,)),
    Line("Hansa", "net", "heuristic", (TARGETS[1].hansa.ref,)),
    _pairing("Hansa", 3, "mcts:400", "2 × heuristic", MCTS, "mcts:400"),
    Line("Hansa", "az (400 simulations)", "2 × heuristic", (TARGETS[2].hansa.ref,)),
    Line("Hansa", "az (400 simulations)", "2 × mcts:400", (TARGETS[2].hansa.h2h,)),
    _pairing("Hansa", 4, "mcts:400", "3 × heuristic", MCTS, "mcts:400"),
    Line("Hansa", "az (400 simulations)", "3 × heuristic", (TARGETS[3].hansa.ref,)),
    Line("Hansa", "az (400 simulations)", "3 × mcts:400", (TARGETS[3].hansa.h2h,)),
    _pairing("Voyage", 2, "mcts:400", "heuristic", MCTS, "mcts:400"),
    _pairing("Voyage", 2, "dest", "heuristic", "agents_strength_dest_voyage_2p.json", "dest"),
    Line("Voyage", "az (destination search, 2,100 simulations, judge 0.5)", "mcts:400",
         (TARGETS[0].voyage.ref,)),
    Line("Voyage", "net", "heuristic", (TARGETS[1].voyage.ref,)),
    _pairing("Voyage", 3, "mcts:400", "2 × heuristic", MCTS, "mcts:400"),
    Line("Voyage", "az (400 simulations, judge 0.5)", "2 × heuristic", (TARGETS[2].voyage.ref,)),
    _pairing("Voyage", 4, "mcts:400", "3 × heuristic", MCTS, "mcts:400"),
    Line("Voyage", "az (200 simulations, judge 0.5)", "3 × heuristic", (TARGETS[3].voyage.ref,)),
)


def _joined(values) -> str:
    """One text when every row gives the same, else each row's, joined."""
    values = list(values)
    return values[0] if len(set(values)) == 1 else " / ".join(values)


def _agent_row(root: Path, line: Line) -> tuple[str, ...]:
    rows = [strength_row(root, ref) for ref in line.refs]
    many = len(rows) > 1
    fair = [share(r["fair_share"]) for r in rows]
    return (line.game, ", ".join(str(r["players"]) for r in rows), line.agent, line.vs,
            _joined(f"{r['games']}" for r in rows) + (" each" if many else ""),
            _joined(f"{share(r['win_rate'])} {interval(*r['wilson95'])}" for r in rows),
            f"{fair[0]}-{fair[-1]}" if many else fair[0],
            "" if many else share(rows[0]["control"]),
            "" if many else f"{signed(rows[0]['edge'])} {signed_interval(*rows[0]['edge95'])}",
            f"`{report_name(line.refs[0].report)}`")


def agents_strength(root: Path) -> str:
    """docs/agents.md's table of every measured pairing."""
    header = ("game", "players", "agent", "vs", "games", "win rate [95% CI]", "fair share",
              "control", "edge [95% CI]", "source (`benchmarks/results/`)")
    align = ("---", "---:", "---", "---", "---:", "---", "---:", "---:", "---", "---")
    return table(header, [_agent_row(root, line) for line in AGENT_LINES], align)


def agents_sources() -> tuple[str, ...]:
    return tuple(sorted({ref.report for line in AGENT_LINES for ref in line.refs}))


DEST_ROWS = (("`dest` (32 draws, one standard error)", True,
              Ref(R + "agents_strength_dest_voyage_2p.json", "dest", "heuristic")),
             ("`mcts:400`", False, mcts400("voyage", 2)))


def agents_destinations(root: Path) -> str:
    """docs/agents.md's `dest` against the heuristic, beside `mcts:400`."""
    rows = []
    for label, bold, ref in DEST_ROWS:
        r = strength_row(root, ref)
        win = f"{share(r['win_rate'])} {interval(*r['wilson95'])}"
        edge = f"{signed(r['edge'])} {signed_interval(*r['edge95'])}"
        if bold:
            win, edge = f"**{win}**", f"**{edge}**"
        rows.append((label, str(r["games"]), win, share(r["control"]), edge,
                     f"{r['seconds_per_game']:.1f}"))
    return table(("agent", "games", "win rate [95% CI]", "control", "edge [95% CI]", "s/game"),
                 rows, ("---", "---:", "---", "---:", "---", "---:"))


# ------------------------------------------------- the hand-written parts of `az`


class Ablation(NamedTuple):
    """`az` as shipped against heuristics beside the same net with one hand-written part
    taken out, on the same seeds (so the same control), and `mcts:400`'s edge."""

    label: str            # the net and how it is searched
    removed: str          # what the second row takes out, and what it keeps
    shipped: Ref
    without: Ref
    players: int


ABLATIONS = (
    Ablation("`voyage_3p` as shipped until 2026-12-08 (400 simulations, reads the hint)",
             "judge 0",
             Ref(R + "agents_strength_az_voyage_3p_hint_r1.json",
                 "az:results/nets/voyage_3p_hint_r1.npz", "heuristic"),
             Ref(R + "agents_strength_az_voyage_3p_judge0.json",
                 "az:results/nets/voyage_3p_judge0.npz", "heuristic"), 3),
    Ablation("`voyage_4p` (200 simulations)", "judge 0",
             Ref(R + "agents_strength_az_voyage_4p_j5.json", "az:results/nets/voyage_4p_j5.npz",
                 "heuristic"),
             Ref(R + "agents_strength_az_voyage_4p_judge0.json",
                 "az:results/nets/voyage_4p_judge0.npz", "heuristic"), 4),
    Ablation("`voyage_4p` (200 simulations)", "judge 0, 800 simulations",
             Ref(R + "agents_strength_az_voyage_4p_j5.json", "az:results/nets/voyage_4p_j5.npz",
                 "heuristic"),
             Ref(R + "agents_strength_az_voyage_4p_judge0_s800.json",
                 "az:results/nets/voyage_4p_judge0_s800.npz", "heuristic"), 4),
)


def ablation_sources() -> tuple[str, ...]:
    refs = [r for a in ABLATIONS for r in (a.shipped, a.without)]
    return tuple(sorted({r.report for r in refs} | {R + MCTS}))


def _share_and_edge(r: dict) -> str:
    return f"{share(r['win_rate'])}, edge **{signed(r['edge'])}** {signed_interval(*r['edge95'])}"


def az_ablation(root: Path) -> str:
    """The shipped Voyage `az` against heuristics with and without the game's judgement
    (judge 0: the net alone at the leaves), 400 games each on the same seeds."""
    rows = []
    for a in ABLATIONS:
        shipped, without = strength_row(root, a.shipped), strength_row(root, a.without)
        base = strength_row(root, mcts400("voyage", a.players))
        if shipped["control"] != without["control"]:
            raise ValueError(f"{a.without.report}: not the seeds of {a.shipped.report} "
                             f"(controls {without['control']} and {shipped['control']})")
        rows.append((a.label, a.removed, _share_and_edge(shipped), _share_and_edge(without),
                     signed(base["edge"]),
                     f"{shipped['seconds_per_game']:.1f} / {without['seconds_per_game']:.1f}",
                     str(min(shipped["games"], without["games"]))))
    return table(("net", "taken out", "`az` as shipped (judge 0.5)", "`az` without it",
                  "`mcts:400`'s edge", "s/game, shipped / without", "games"),
                 rows, ("---", "---", "---", "---", "---:", "---:", "---:"))


# ------------------------------------------------------------ docs/training.md


class Checkpoint(NamedTuple):
    label: str
    game: str
    busy: str                     # how the run's cores were shared, as the docs say it
    targets: tuple[tuple[str, float], ...]   # (opponent, least win rate)


CHECKPOINTS = (
    Checkpoint("Hansa 2p", "hansa", " on 2 busy cores", (("random", 0.95), ("heuristic", 0.50))),
    Checkpoint("Voyage 2p", "voyage", "", (("random", 0.90),)),
)


def _match(game: str, opponent: str) -> str:
    return f"{R}match_{game}_ppo_vs_{opponent}_2p.md"


def ppo_sources() -> tuple[str, ...]:
    return tuple(f"agents/checkpoints/{c.game}_2p.json" for c in CHECKPOINTS) + tuple(
        _match(c.game, o) for c in CHECKPOINTS for o in ("random", "heuristic"))


def training_checkpoints(root: Path) -> str:
    """docs/training.md's shipped PPO checkpoints against random and the heuristic."""
    rows = []
    for c in CHECKPOINTS:
        meta = read_json(root, f"agents/checkpoints/{c.game}_2p.json")
        minutes = round(float(meta["evaluation"]["seconds"]) / 60)
        results = {o: match_row(root, _match(c.game, o), "ppo") for o in ("random", "heuristic")}
        verdicts = []
        for opponent, least in c.targets:
            met = results[opponent][0] >= least
            verdicts.append(f"≥ {least:.0%} vs {opponent}: " + ("met" if met else "**missed**"))
        rows.append((c.label, f"`ppo`: {meta['steps'] / 1e6:.1f} M steps, {minutes} min{c.busy}",
                     *(f"{share(w)} {interval(lo, hi)}" for w, lo, hi in results.values()),
                     "; ".join(verdicts)))
    return table(("game", "checkpoint", "vs random", "vs heuristic", "target"), rows)
