"""The policy-value net in torch, for training; the same arrays as `agents.pvnet`.

`PolicyValueNet` computes exactly what `agents.pvnet.forward` computes (tests compare
them), so a net trained here is played by the numba search with no conversion beyond
`to_weights`. Losses: cross-entropy of the masked policy against a target distribution
over the legal actions, and cross-entropy of the value (softmax over the first
`num_players` relative seats) against the target win shares.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from tradewinds.agents import pvnet


class PolicyValueNet(nn.Module):
    def __init__(self, config: pvnet.NetConfig):
        super().__init__()
        config.check()
        self.config = config
        h = config.hidden
        self.inp = nn.Linear(config.input_size, h)
        self.blocks = nn.ModuleList(nn.Linear(h, h) for _ in range(config.blocks))
        self.pi = nn.Linear(h, config.num_actions)
        self.v = nn.Linear(h, pvnet.MAX_SEATS)
        nn.init.zeros_(self.v.weight)          # start from "every seat equally likely"
        nn.init.zeros_(self.v.bias)
        seats = torch.full((pvnet.MAX_SEATS,), float("-inf"))
        seats[: config.num_players] = 0.0
        self.register_buffer("seat_mask", seats)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(action logits [B, A], value logits [B, MAX_SEATS]); absent seats at -inf."""
        h = torch.relu(self.inp(obs))
        for block in self.blocks:
            h = h + torch.relu(block(h))
        return self.pi(h), self.v(h) + self.seat_mask

    def to_weights(self) -> pvnet.Weights:
        def arr(t):
            return np.ascontiguousarray(t.detach().cpu().numpy(), dtype=np.float32)

        h, k = self.config.hidden, self.config.blocks
        return pvnet.Weights(
            w_in=arr(self.inp.weight.T), b_in=arr(self.inp.bias),
            w_blocks=(np.stack([arr(b.weight.T) for b in self.blocks]) if k
                      else np.zeros((0, h, h), np.float32)),
            b_blocks=(np.stack([arr(b.bias) for b in self.blocks]) if k
                      else np.zeros((0, h), np.float32)),
            w_pi=arr(self.pi.weight.T), b_pi=arr(self.pi.bias),
            w_v=arr(self.v.weight.T), b_v=arr(self.v.bias))

    def load_weights(self, w: pvnet.Weights) -> None:
        w = pvnet.check_weights(w, self.config)
        with torch.no_grad():
            self.inp.weight.copy_(torch.from_numpy(w.w_in.T.copy()))
            self.inp.bias.copy_(torch.from_numpy(w.b_in))
            for i, block in enumerate(self.blocks):
                block.weight.copy_(torch.from_numpy(w.w_blocks[i].T.copy()))
                block.bias.copy_(torch.from_numpy(w.b_blocks[i]))
            self.pi.weight.copy_(torch.from_numpy(w.w_pi.T.copy()))
            self.pi.bias.copy_(torch.from_numpy(w.b_pi))
            self.v.weight.copy_(torch.from_numpy(w.w_v.T.copy()))
            self.v.bias.copy_(torch.from_numpy(w.b_v))


def losses(net: PolicyValueNet, obs, mask, policy, value) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy loss, value loss), batch means. `mask` bool [B, A]; `policy` [B, A] target
    distributions on the legal actions; `value` [B, MAX_SEATS] target win shares by
    relative seat (0 for absent seats)."""
    logits, vlogits = net(obs)
    logits = logits.masked_fill(~mask, float("-inf"))
    logp = torch.log_softmax(logits, dim=1)
    policy_loss = -(policy * torch.where(mask, logp, torch.zeros_like(logp))).sum(1).mean()
    logv = torch.log_softmax(vlogits, dim=1)
    seats = torch.isfinite(vlogits)
    value_loss = -(value * torch.where(seats, logv, torch.zeros_like(logv))).sum(1).mean()
    return policy_loss, value_loss
