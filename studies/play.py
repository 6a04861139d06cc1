"""A human seat in a terminal: `tradewinds play <game> --players N --vs heuristic,random`.

The loop reads from and writes to the streams it is given (the terminal by default), so a
script can drive it: before each of the human's decisions it shows the board
(``game.render_ansi``), what only that seat may see (Voyage: own hand and target cards)
and the legal actions numbered 1..m with their names. The human answers with a number, an
action name, or an unambiguous start of a legal action's name; anything else is asked
again with a one-line reason. ``quit`` / ``q`` or the end of the input leave the game
(exit status 0). Opponents move through `studies.arena.agent_action` (search agents get
the state only to determinize it), and each of their moves is printed. At the end: the
final board, every seat's score, the winners and whether the game hit its round cap.

Seats are numbered as on the board: player_0 .. player_{N-1}; ``--seat`` picks the human's
(default 0). Opponent seat s draws its randomness from ``numpy.random.default_rng([seed,
s])`` as in the arena, so a game replays from its seed and the human's moves.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from tradewinds.cli_args import int_at_least, option
from tradewinds.studies import run_fields as rf

QUIT = ("q", "quit", "exit")


class _Quit(Exception):
    def __init__(self, reason: str):
        self.reason = reason


def _opponents(vs: str | Sequence[str], players: int, seat: int) -> list[str]:
    names = [a.strip() for a in vs.split(",")] if isinstance(vs, str) else list(vs)
    if not names or any(not a for a in names):
        raise ValueError(f"--vs needs agent names separated by commas, got {vs!r}")
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise ValueError(f"--vs takes one agent for every opponent or one per opponent seat "
                         f"({players - 1}), got {len(names)}: {', '.join(names)}")
    return names


def private_lines(game, state: np.ndarray, seat: int) -> list[str]:
    """What only `seat` may see and the board does not show (Voyage: hand, targets)."""
    if game.name != "voyage":
        return []               # Hansa hides nothing from a seat that the board shows
    from voyage_env.state import StateView

    v = StateView(state)
    kinds = [n.split(":", 1)[1] for n in game.obs_names if n.startswith("my_hand:")]
    ports = [n.split(":", 1)[1] for n in game.obs_names if n.startswith("my_target:")]
    hand = [f"{kinds[k]}" + (f" x{c}" if c > 1 else "")
            for k, c in enumerate(v.hand[seat][: len(kinds)]) if c > 0]
    targets = [ports[p] for p in v.targets[seat] if 0 <= p < len(ports)]
    return [f"your hand: {', '.join(hand) or '-'}",
            f"your target cards: {', '.join(targets) or '-'}"]


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _choose(game, state, legal: list[int], stdin: TextIO, out: TextIO) -> int:
    """Ask until the answer names a legal action; _Quit on quit or end of input."""
    names = [game.action_name(a) for a in legal]
    span = f"1-{len(legal)}" if len(legal) > 1 else "1"
    echo = not _isatty(stdin)     # a script's answers are shown, so transcripts read well
    while True:
        out.write(f"your move [{span}, a name, or q to quit]: ")
        out.flush()
        line = stdin.readline()
        if not line:
            out.write("\n")
            raise _Quit("end of input")
        text = line.strip()
        if echo:
            out.write(text + "\n")
        if text.lower() in QUIT:
            raise _Quit("you quit")
        if not text:
            out.write(f"  type a number from 1 to {len(legal)} or an action name\n")
            continue
        if text.lstrip("+-").isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            out.write(f"  no choice {k}: pick a number from 1 to {len(legal)}\n")
            continue
        if text in names:
            return legal[names.index(text)]
        starts = [i for i, n in enumerate(names) if n.startswith(text)]
        if len(starts) == 1:
            return legal[starts[0]]
        if len(starts) > 1:
            shown = ", ".join(names[i] for i in starts[:4]) + (", ..." if len(starts) > 4
                                                               else "")
            out.write(f"  {text!r} could be {len(starts)} actions ({shown}): be more "
                      f"precise\n")
            continue
        try:
            a = game.action_id(text)
        except ValueError:
            out.write(f"  unknown action {text!r}: type a number or one of the names "
                      f"listed\n")
            continue
        out.write(f"  {text} is not legal now: {game.illegal_reason(state, a)}\n")


@dataclass(frozen=True)
class PlayConfig:
    """`tradewinds play`: the game, the human's seat, the opponents and the options."""

    game: str = rf.game()
    players: int = option(2, type=int, help="player count, 2-4")
    vs: str | Sequence[str] = option("heuristic", metavar="A[,B,...]", help="opponent agent "
                                     "for every other seat, or one per opponent seat in seat "
                                     "order")
    seat: int = option(0, type=int, help="your seat, 0..players-1 as on the board (player_S)")
    seed: int | None = option(None, type=int_at_least(0), help="game seed",
                              show="a random one, printed at the start")
    options: dict = rf.options("max_rounds=5")
    agent_kwargs: dict = rf.agent_kwargs("keyword arguments for an opponent's factory "
                                         "(repeatable)")
    board: bool = option(True, help="do not print the board before each of your moves")


def play(game: str | PlayConfig, *args, stdin: TextIO | None = None,
         stdout: TextIO | None = None, **settings) -> int:
    """Play one game with a human seat; returns 0 (finished, quit or end of input).
    ``play("hansa", vs="random", seed=5)`` is ``play(PlayConfig("hansa", vs=...))``.

    Bad settings raise ValueError (one-line reason) before the game starts."""
    from tradewinds import registry

    config = game if isinstance(game, PlayConfig) else PlayConfig(game, *args, **settings)
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    handle = registry.game(config.game)
    n = handle.check_players(config.players)
    seat = config.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"--seat must be a seat 0..{n - 1}, got {seat!r}")
    seed = _checked_seed(config.seed)
    opts = handle.resolve_options(config.options, n)
    agents, labels = _seat_opponents(config, n)

    state = handle.new_state(n, seed, **opts)
    rngs = [np.random.default_rng([seed, s]) for s in range(n)]
    who = ", ".join(f"player_{s} {labels[s]}" for s in range(n) if s != seat)
    out.write(f"{config.game}, {n} players, seed {seed}: you are player_{seat}; {who}\n")
    out.write("(type a number, an action name or its unambiguous start; q quits)\n")
    moves, left = _play_moves(handle, state, config, agents, labels, rngs, stdin, out)
    if left is not None:
        out.write(f"{left}: left the game after {moves} moves (seed {seed})\n")
    else:
        _show_board(handle, state, config.board, out)
        _show_result(handle, state, seat, labels, moves, out)
    out.flush()
    return 0


def _checked_seed(seed) -> int:
    """`seed`, or a random one if None; ValueError unless an integer in [0, 2**63)."""
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"--seed must be an integer in [0, 2**63), got {seed!r}")
    return seed


def _seat_opponents(config: PlayConfig, n: int) -> tuple[list, list[str]]:
    """The agent at each seat (None at the human's) and each seat's label ("you" at the
    human's); ValueError for an unknown agent or --agent-kwargs of no opponent."""
    from tradewinds.agents import make_agent

    names = _opponents(config.vs, n, config.seat)
    kwargs = config.agent_kwargs or {}
    for k in kwargs:
        if k not in names:
            raise ValueError(f"--agent-kwargs for {k!r}, which is not an opponent "
                             f"({', '.join(dict.fromkeys(names))})")
    seats: list = [None] * n
    labels = ["you"] * n
    for s, name in zip([s for s in range(n) if s != config.seat], names, strict=True):
        try:
            seats[s] = make_agent(name, game=config.game, **kwargs.get(name, {}))
        except (ValueError, TypeError, ImportError) as e:
            raise ValueError(f"agent {name!r}: {e}") from None
        labels[s] = name
    return seats, labels


def _play_moves(handle, state, config: PlayConfig, agents: list, labels: list[str], rngs,
                stdin: TextIO, out: TextIO) -> tuple[int, str | None]:
    """Moves until the game ends or the human leaves, each printed: the moves made and why
    the human left (None when the game ended)."""
    from tradewinds.studies import arena

    seat = config.seat
    moves = 0
    try:
        while not (handle.is_terminal(state) or handle.is_truncated(state)):
            p = handle.current_player(state)
            if p == seat:
                legal = handle.legal_actions(state)
                _show_turn(handle, state, seat, legal, config.board, out)
                a = _choose(handle, state, legal, stdin, out)
                handle.step(state, a)
                out.write(f"you (player_{seat}): {handle.action_name(a)}\n")
            else:
                a = arena.agent_action(agents[p], handle, state, p, rngs[p])
                handle.step(state, a)
                out.write(f"player_{p} ({labels[p]}): {handle.action_name(a)}\n")
            moves += 1
    except _Quit as q:
        return moves, q.reason
    return moves, None


def _show_board(handle, state, board: bool, out: TextIO) -> None:
    if board and handle.render_ansi is not None:
        out.write("\n" + handle.render_ansi(state) + "\n")


def _show_turn(handle, state, seat: int, legal: list[int], board: bool, out: TextIO) -> None:
    """Before the human's move: the board, what only the seat sees, the legal actions."""
    _show_board(handle, state, board, out)
    for line in private_lines(handle, state, seat):
        out.write(line + "\n")
    out.write("legal actions:\n")
    width = len(str(len(legal)))
    for i, a in enumerate(legal, 1):
        out.write(f"  {i:>{width}}) {handle.action_name(a)}\n")


def _show_result(handle, state, seat: int, labels: list[str], moves: int,
                 out: TextIO) -> None:
    """Every seat's score, the winners, and whether the human won."""
    scores = handle.scores(state)
    winners = handle.winners(state)
    out.write(f"\ngame over after {moves} moves"
              + (" (round cap reached: scored as it stands)" if handle.is_truncated(state)
                 else "") + "\n")
    for s in range(len(labels)):
        mark = "  winner" if s in winners else ""
        out.write(f"  player_{s} ({labels[s]}): {int(scores[s])} VP{mark}\n")
    if seat in winners:
        out.write("you won" + (f" (shared with {len(winners) - 1} other"
                               f"{'s' if len(winners) > 2 else ''})" if len(winners) > 1
                               else "") + "\n")
    else:
        out.write("you lost: winner " + ", ".join(f"player_{w} ({labels[w]})"
                                                  for w in winners) + "\n")
