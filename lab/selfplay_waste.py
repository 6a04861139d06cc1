"""Decisions searched per record kept, self-play as it is against the `play` that dropped
the games in play once the finished ones held the target (before commit 6a1925d).

    python -m lab.selfplay_waste hansa 3        # ~2 min a game on one core

Random nets (width 32), 8/2 simulations, one decision in ten recorded, 32 games side by
side, 2,000 positions, three calls (seeds 100-102) each way.
"""

from __future__ import annotations

import argparse

import numpy as np


def dropping_play(self, positions: int, seed: int) -> dict:
    """`SelfPlay.play` before 6a1925d: stop at `positions` finished records, drop the rest."""
    G, cfg, n = self.game, self.config, self.num_players
    gen = np.random.default_rng([seed, 0x5E1F])
    keys = gen.integers(-(2**31), 2**31, size=(cfg.games, 2)).astype(np.int32)
    states = np.zeros((cfg.games, G.state_size), np.int32)
    moves = np.zeros(cfg.games, np.int64)
    pending: list[list] = [[] for _ in range(cfg.games)]
    done, recorded, next_seed = [], 0, seed
    for g in range(cfg.games):
        states[g] = G.new_state(n, next_seed)
        next_seed += 1
    while recorded < positions:
        self._wave(range(cfg.games), states, moves, keys, pending, gen)
        for g in range(cfg.games):
            if G.is_terminal(states[g]):
                done.append((self._outcome(states[g]), pending[g]))
                recorded += len(pending[g])
                pending[g] = []
                self.games_finished += 1
                states[g] = G.new_state(n, next_seed)
                next_seed += 1
                moves[g] = 0
    return self._records(done)


def main(argv=None) -> int:
    from tradewinds import registry
    from tradewinds.agents import pvnet
    from tradewinds.training.alphazero import selfplay

    ap = argparse.ArgumentParser(prog="python -m lab.selfplay_waste", description=__doc__)
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    a = ap.parse_args(argv)
    g = registry.game(a.game)
    w = pvnet.random_weights(pvnet.NetConfig(a.game, a.players, g.obs_size, g.num_actions,
                                             32, 1), 1)
    config = selfplay.SelfPlayConfig(games=32, simulations=8, fast_simulations=2,
                                     full_share=0.1)
    for name, play in (("dropping", dropping_play), ("played out", selfplay.SelfPlay.play)):
        records = decisions = 0
        for seed in (100, 101, 102):
            sp = selfplay.SelfPlay(g, a.players, w, config)
            records += len(play(sp, 2000, seed)["obs"])
            decisions += sp.decisions
        print(f"{a.game} {a.players}p {name}: {records} records, {decisions} decisions, "
              f"{decisions / records:.2f} decisions per record")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
