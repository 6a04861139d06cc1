"""Distil a policy-value net into a smaller one: the same prior and value, a faster search.

    tradewinds train distill agents/nets/hansa_2p.npz --width 256 \\
        --replay results/train/az_hansa_2p_sp2/replay.npz --out results/distil/hansa_2p_256.npz

The search spends nearly all of its time in the forward pass of one leaf at a time, so a
net half as wide searches about four times the simulations in the same time. The student
learns the teacher's outputs, not the games': its targets are the teacher's masked policy
and its seat values on positions of heuristic games (`warmstart.heuristic_records`) and,
with ``--replay``, of a run's self-play buffer (the positions the teacher's own search
met). Soft targets carry what the teacher knows about every legal action, so a few epochs
over a few hundred thousand positions are enough; the held-out agreement with the
teacher's arg-max and the losses against its outputs are printed and kept in the file's
metadata beside the teacher's.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import numpy as np

from tradewinds import cli_args
from tradewinds.agents import pvnet

BATCH = 4096


def teacher_targets(weights: pvnet.Weights, config: pvnet.NetConfig, records: dict) -> dict:
    """`records` (obs, mask) with the teacher's policy and seat values as targets."""
    import torch

    from tradewinds.training.alphazero.net import PolicyValueNet

    net = PolicyValueNet(config)
    net.load_weights(weights)
    net.eval()
    n = len(records["obs"])
    policy = np.zeros((n, config.num_actions), np.float32)
    value = np.zeros((n, pvnet.MAX_SEATS), np.float32)
    with torch.no_grad():
        for i in range(0, n, BATCH):
            obs = torch.as_tensor(np.asarray(records["obs"][i:i + BATCH], np.float32))
            mask = torch.as_tensor(records["mask"][i:i + BATCH])
            logits, vlogits = net(obs)
            policy[i:i + BATCH] = torch.softmax(logits.masked_fill(~mask, float("-inf")),
                                                1).numpy()
            value[i:i + BATCH] = torch.softmax(vlogits, 1).numpy()
    return {"obs": records["obs"], "mask": records["mask"], "policy": policy, "value": value}


def positions(game, num_players: int, games: int, every: int, seed: int,
              replay: Path | None, hint: bool = False) -> dict:
    """Net inputs and masks to distil on: heuristic games, and a run's replay buffer
    (`hint`: inputs of a net that reads the heuristic's choice)."""
    from tradewinds.training.alphazero import warmstart

    parts = [warmstart.heuristic_records(game, num_players, games, seed=seed, every=every,
                                         hint=hint)]
    if replay is not None:
        with np.load(replay) as data:
            parts.append({k: data[k] for k in ("obs", "mask")})
    return {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask")}


def distil(teacher: Path, width: int, blocks: int, games: int, every: int, epochs: int,
           replay: Path | None = None, seed: int = 0, lr: float = 1e-3,
           device: str = "auto", held_out: float = 0.05, say=print):
    """(student weights, its config, metadata): a `width` x `blocks` net fitted to the
    teacher's outputs."""
    from tradewinds import registry
    from tradewinds.training.alphazero.learner import Learner

    weights, config, meta = pvnet.load(teacher)
    game = registry.game(config.game)
    found = positions(game, config.num_players, games, every, seed, replay, bool(config.hint))
    records = teacher_targets(weights, config, found)
    gen = np.random.default_rng(seed)
    order = gen.permutation(len(records["obs"]))
    cut = max(1, int(held_out * len(order)))
    test = {k: v[order[:cut]] for k, v in records.items()}
    train = {k: v[order[cut:]] for k, v in records.items()}
    say(f"{len(order):,} positions ({cut:,} held out); teacher {config.hidden}x"
        f"{config.blocks + 1} -> student {width}x{blocks + 1}")
    student = pvnet.NetConfig(config.game, config.num_players, config.obs_size,
                              config.num_actions, width, blocks, config.hint)
    learner = Learner(student, lr=lr, device=device, seed=seed)
    for epoch in range(epochs):
        learner.fit(train, 1, min(256, len(train["obs"])), gen)
        found = learner.evaluate(test)
        say(f"epoch {epoch + 1}: held out policy {found['policy_loss']:.4f}, value "
            f"{found['value_loss']:.4f}, agreement with the teacher {found['agreement']:.3f}")
    out_meta = {**{k: v for k, v in meta.items() if k not in ("rated",)},
                "distilled_from": {"file": str(teacher), "width": config.hidden,
                                   "blocks": config.blocks, "rated": meta.get("rated")},
                "distillation": {"positions": len(order), "held_out": {
                    k: round(v, 4) for k, v in found.items()}, "epochs": epochs}}
    return learner.weights(), student, out_meta


def teacher_command(teacher: Path, stored: str | None) -> str | None:
    """The commands that made the teacher: for a run's rated net (``RUN/nets/net_*.npz``)
    the run's commands up to where it stands now (its replay buffer is the run's latest),
    else what the teacher's file says."""
    from tradewinds.training import checkpoints as ck
    from tradewinds.training.alphazero import loop

    state = Path(teacher).parent.parent / "state.json"
    if Path(teacher).parent.name == "nets" and state.is_file():
        found = ck.read_json(state)
        return loop.commands_until(found, found["iteration"]) or stored
    return stored


def parser(prog="python -m tradewinds.training.alphazero.distill") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("teacher", type=Path, help="the net to distil (.npz)")
    ap.add_argument("--width", type=cli_args.int_at_least(1), default=256)
    ap.add_argument("--blocks", type=cli_args.int_at_least(0), default=2)
    ap.add_argument("--games", type=cli_args.int_at_least(1), default=20000,
                    help="heuristic games whose positions are distilled on")
    ap.add_argument("--every", type=cli_args.int_at_least(1), default=5,
                    help="one non-forced decision in this many")
    ap.add_argument("--replay", type=Path, default=None, help="a run's replay.npz too")
    ap.add_argument("--epochs", type=cli_args.int_at_least(1), default=6)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--out", type=Path, required=True, help="the student's .npz")
    return ap


def main(argv=None, prog="python -m tradewinds.training.alphazero.distill") -> int:
    ap = parser(prog)
    args = ap.parse_args(argv)
    for path in (args.teacher, args.replay):
        if path is not None and not path.is_file():
            ap.exit(2, f"error: no file at {path}\n")
    import torch

    torch.set_num_threads(1)
    weights, config, meta = distil(args.teacher, args.width, args.blocks, args.games,
                                   args.every, args.epochs, args.replay, args.seed,
                                   args.lr, args.device)
    save_made_by(args.out, weights, config, meta, prog, argv,
                 teacher_command(args.teacher, meta.get("command")))
    return 0


def save_made_by(out: Path, weights, config: pvnet.NetConfig, meta: dict, prog: str,
                 argv, before: str | None) -> None:
    """Save a net whose metadata's command is `before` (what made its start), then this
    run of the command `prog` with `argv` (the process's own arguments when None)."""
    here = f"{prog} " + shlex.join(sys.argv[1:] if argv is None else argv)
    meta["command"] = f"{before} && {here}" if before else here
    out.parent.mkdir(parents=True, exist_ok=True)
    print(f"wrote {pvnet.save(out, weights, config, meta)}")


if __name__ == "__main__":
    raise SystemExit(main())
