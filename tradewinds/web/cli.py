"""The `serve` and `replay` commands, as functions of parsed options, and their parsers
(`add_serve_arguments`, `add_replay_arguments`) for whichever command-line program
mounts them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DEFAULT_GAMES_DB = Path("results") / "web_games.sqlite"


def add_serve_arguments(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    p.add_argument("--db", action="append", default=None, metavar="FILE",
                   help="a results store whose games the page lists and replays (repeat "
                        "for several; default: every results/*.sqlite that is one)")
    p.add_argument("--games-db", default=str(DEFAULT_GAMES_DB), metavar="FILE",
                   help=f"where games being played are kept (default {DEFAULT_GAMES_DB})")
    p.add_argument("--think", type=float, default=2.0, metavar="SECONDS",
                   help="a search opponent's thinking time per move (default 2); a move "
                        "not back --grace seconds after that is forced (the heuristic's "
                        "move)")
    p.add_argument("--grace", type=float, default=2.0, metavar="SECONDS",
                   help="how long past --think a move may take before it is forced "
                        "(default 2)")
    p.add_argument("--workers", type=int, default=2, metavar="N",
                   help="processes the opponents think in (default 2)")
    p.add_argument("--agent", action="append", default=[], metavar="NAME=SPEC",
                   help="offer an agent that loads a file of yours under NAME, e.g. "
                        "mine=az:runs/az/net.npz (repeat for several); requests name NAME, "
                        "never a file")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a further host name the server answers to (with --host other "
                        "than loopback: the name others reach this machine by)")
    return p


def add_replay_arguments(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("db", help="a results store (fpa, match, sweep or evaluate)")
    p.add_argument("game_id", type=int, help="the game's id (the page's list shows it)")
    p.add_argument("--boards", action="store_true", help="print the board after every move")
    return p


def _stores(paths) -> list[Path]:
    """The results stores to offer: `paths` (each checked), or the results files found in
    results/ when none were given."""
    from tradewinds.store import Store

    if paths:
        for p in paths:
            Store(p, readonly=True).close()       # ValueError naming a bad file
        return [Path(p) for p in paths]
    found = []
    for p in sorted(Path("results").glob("*.sqlite")):
        if p.name == DEFAULT_GAMES_DB.name:
            continue
        try:
            Store(p, readonly=True).close()
        except ValueError:
            continue
        found.append(p)
    return found


def _extra_agents(items) -> dict:
    """{NAME: SPEC} of the --agent NAME=SPEC options, each file checked to exist."""
    out = {}
    for item in items:
        name, eq, spec = item.partition("=")
        base, colon, path = spec.partition(":")
        if not eq or not colon or not Path(path).is_file():
            raise ValueError(f"--agent {item!r}: give NAME=AGENT:FILE with an existing "
                             f"file, as in mine=az:runs/az/net.npz")
        out[name] = spec
    return out


def _hosts(host: str, extra) -> list[str]:
    """The host names the server answers to when bound to `host`: the loopback names,
    `host` itself, `extra`, and for a wildcard address this machine's name and addresses."""
    import socket

    from tradewinds.web.guard import LOOPBACK

    names = [*LOOPBACK, *extra]
    if host in ("0.0.0.0", "::", ""):
        names.append(socket.gethostname())
        try:
            names += [a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None)]
        except OSError:
            pass
    elif host not in LOOPBACK:
        names.append(host)
    return names


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (127.x, ::1, localhost)."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(args: argparse.Namespace, *, out=None) -> int:
    """Run the server until Ctrl-C; says where to open it. It answers at once; the game
    kernels and the opponents' processes compile (or load numba's cache) meanwhile, and
    until they are done the page says "compiling" with its progress (`Sessions.readiness`)
    and game requests get 503."""
    import threading

    import uvicorn

    from tradewinds.web.app import create_app
    from tradewinds.web.opponents import Offers
    from tradewinds.web.sessions import Sessions

    out = out or sys.stdout
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, got {args.port}")
    if not 0 < args.think <= 60:
        raise ValueError(f"--think must be seconds in (0, 60], got {args.think}")
    if not 0 <= args.grace <= 60:
        raise ValueError(f"--grace must be seconds in [0, 60], got {args.grace}")
    if not 1 <= args.workers <= 64:
        raise ValueError(f"--workers must be 1..64, got {args.workers}")
    offers = Offers(_extra_agents(args.agent))
    stores = _stores(args.db)
    if not is_loopback(args.host):
        out.write(f"WARNING: --host {args.host} serves the API to the network, and it has "
                  f"no authentication: anyone who reaches this port can play and read "
                  f"the stored games\n")
    sessions = Sessions(args.games_db, think_seconds=args.think, grace=args.grace,
                        workers=args.workers, offers=offers, background=True)
    out.write("compiling the game kernels and starting the opponents' processes in the "
              "background (the first start after an install takes a few minutes; the page "
              "shows how far it is)\n")
    out.flush()
    threading.Thread(target=_say_ready, args=(sessions, out), daemon=True).start()
    app = create_app(sessions, stores, hosts=_hosts(args.host, args.allow_host),
                     port=args.port or None)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    listed = ", ".join(str(s) for s in stores) or "none (pass --db FILE)"
    out.write(f"results stores: {listed}\ngames in progress kept in {args.games_db}\n")
    out.flush()

    started = server.startup

    async def startup(sockets=None):
        await started(sockets)
        for s in server.servers:
            for sock in s.sockets:
                host, port = sock.getsockname()[:2]
                shown = f"[{host}]" if ":" in host else host
                out.write(f"open http://{shown}:{port}/ in a browser (Ctrl-C stops)\n")
                out.flush()

    server.startup = startup
    server.run()
    return 0


def _say_ready(sessions, out) -> None:
    """Print when the first start is done (or why it failed)."""
    sessions.thinkers.ready.wait()
    sessions.kernels_ready.wait()
    r = sessions.readiness()
    out.write(f"not ready: {r['error']}\n" if r["error"] else
              f"ready in {r['seconds']:.0f} s: games can start\n")
    out.flush()


def replay(args: argparse.Namespace, *, out=None) -> int:
    """Print a stored game move by move and check it against the stored result; exit
    status 1 when the replay does not give the stored scores."""
    from tradewinds import registry
    from tradewinds.store import Store
    from tradewinds.web import replay as rp

    out = out or sys.stdout
    with Store(args.db, readonly=True) as st:
        row = st.game(args.game_id)
    rep = rp.replay(row, check=False)
    handle = registry.game(row["game"])
    out.write(f"game {row['game_id']}: {row['game']}, {row['num_players']} players, seed "
              f"{row['seed']}; " + ", ".join(f"player_{s} {a}" for s, a in
                                             enumerate(row["agents"]))
              + f"; moves from {rep.how}\n")
    state = handle.new_state(row["num_players"], row["seed"], **row["options"])
    for i, (p, a) in enumerate(zip(rep.movers, rep.actions, strict=True), 1):
        handle.step(state, a)
        out.write(f"{i:4d}  player_{p} ({row['agents'][p]}): {handle.action_name(a)}\n")
        if args.boards and handle.render_ansi is not None:
            out.write(handle.render_ansi(state) + "\n")
    if handle.render_ansi is not None and not args.boards:
        out.write("\n" + handle.render_ansi(state) + "\n")
    out.write(f"replayed scores {rep.scores}, stored {row['scores']}: "
              + ("the same game\n" if rep.matches else "NOT the stored game\n"))
    return 0 if rep.matches else 1


def main(argv=None) -> int:
    """`tradewinds serve|replay ...` (tradewinds.cli hands both over here)."""
    p = argparse.ArgumentParser(prog="tradewinds")
    sub = p.add_subparsers(dest="command", required=True)
    add_serve_arguments(sub.add_parser("serve", help="play and watch in the browser"))
    add_replay_arguments(sub.add_parser("replay", help="a stored game move by move"))
    args = p.parse_args(argv)
    try:
        return serve(args) if args.command == "serve" else replay(args)
    except ValueError as e:
        p.exit(2, f"tradewinds {args.command}: error: {e}\n")


if __name__ == "__main__":
    sys.exit(main())
