"""The fields the study configs share (fpa, sweep, match, evaluate), each declared once
with its command-line form (`tradewinds.cli_args.option`): where the games are stored, who
plays them, the game options and the agents' keyword arguments."""

from __future__ import annotations

from pathlib import Path

from tradewinds.cli_args import game_name, int_at_least, option


def parse_options(items) -> dict:
    """['max_rounds=100', ...] (the repeated --option), or None -> the game options."""
    from tradewinds.studies import arena

    return arena.parse_options(items or [])


def parse_agent_kwargs(items) -> dict:
    """['mcts:200:c=1.4,rollout=random', 'heuristic:x=1'] -> {'mcts:200': {...}, ...}.

    The agent name is everything before the last colon ahead of the first '=' (names may
    hold colons themselves: mcts:200)."""
    from tradewinds.studies import arena

    out: dict = {}
    for text in items or []:
        eq = text.find("=")
        name, sep, first_key = text[:eq].rpartition(":") if eq > 0 else ("", "", "")
        if not sep or not name or not first_key:
            raise ValueError(f"--agent-kwargs takes NAME:key=value[,key=value], got {text!r}")
        out.setdefault(name, {}).update(
            arena.parse_options((first_key + text[eq:]).split(",")))
    return out


def game():
    return option(help="game name: hansa or voyage", positional=True, type=game_name)


def base_seed(help: str = "base seed: game i uses seed + i"):
    return option(0, help=help, flag="--seed", type=int_at_least(0))


def options(example: str = "max_rounds=100"):
    return option(default_factory=dict, help=f"game option, e.g. {example} (repeatable)",
                  flag="--option", metavar="KEY=VALUE", repeat=True, convert=parse_options)


def agent_kwargs(help: str = "keyword arguments for an agent's factory, e.g. mcts:200:c=1.4 "
                 "(repeatable)"):
    return option(default_factory=dict, help=help, metavar="NAME:K=V[,K=V]", repeat=True,
                  convert=parse_agent_kwargs)


def fast():
    return option(True, help="never play inside the kernel: drive every decision through "
                  "the Python agents")


def db(default: Path):
    return option(default, help="SQLite results file, created if missing; rerunning "
                  "resumes from it", type=Path)


def out(what: str):
    return option(None, help=f"directory for the {what}; checked for writing before any "
                  "game is played", show="the db's directory")


def name(stem: str):
    return option(None, help="file stem of the outputs", show=stem)


def backend():
    return option("local", help="local: processes on this machine; ray: tasks on a Ray "
                  "cluster", choices=("local", "ray"))


def workers(help: str = "worker processes; with --backend ray, CPUs of a local Ray"):
    return option(None, help=help, type=int_at_least(1), show="all cores")


def address():
    return option(None, help="Ray cluster address (with --backend ray)",
                  show="start a local Ray")


def chunk_size():
    return option(None, help="games per worker task", type=int_at_least(1),
                  show="about 30 s of games a task")


def progress():
    return option(True, help="no progress bar")
