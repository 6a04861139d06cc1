"""The learner: Adam on the policy and value losses (`training.alphazero.net.losses`),
batches sampled from the replay buffer or taken in epochs over a fixed record set."""

from __future__ import annotations

import numpy as np
import torch

from tradewinds.agents import pvnet
from tradewinds.training.alphazero.net import PolicyValueNet, losses


def pick_device(name: str = "auto") -> torch.device:
    """'auto': CUDA when torch sees it, else the CPU; 'cpu' or 'cuda' as asked."""
    if name not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be auto, cpu or cuda, got {name!r}")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda, but torch sees no CUDA device")
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)


class Learner:
    def __init__(self, config: pvnet.NetConfig, lr: float = 1e-3, weight_decay: float = 1e-4,
                 value_weight: float = 1.0, device: str = "auto", seed: int = 0):
        torch.manual_seed(seed)
        self.device = pick_device(device)
        self.config = config
        self.net = PolicyValueNet(config).to(self.device)
        self.lr = lr
        self.opt = torch.optim.AdamW(self.net.parameters(), lr=lr, weight_decay=weight_decay)
        self.value_weight = value_weight
        self.steps = 0

    def _tensors(self, batch: dict) -> tuple:
        d = self.device
        return (torch.as_tensor(np.asarray(batch["obs"], np.float32), device=d),
                torch.as_tensor(batch["mask"], device=d),
                torch.as_tensor(batch["policy"], device=d),
                torch.as_tensor(batch["value"], device=d))

    def step(self, batch: dict) -> tuple[float, float]:
        """One gradient step on `batch`; (policy loss, value loss)."""
        self.net.train()
        pl, vl = losses(self.net, *self._tensors(batch))
        loss = pl + self.value_weight * vl
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        self.steps += 1
        return float(pl.detach()), float(vl.detach())

    def train(self, buffer, steps: int, batch_size: int, gen: np.random.Generator) -> dict:
        """`steps` steps on batches sampled from `buffer`; mean losses."""
        out = np.array([self.step(buffer.sample(batch_size, gen)) for _ in range(steps)])
        return {"policy_loss": float(out[:, 0].mean()), "value_loss": float(out[:, 1].mean())}

    def fit(self, records: dict, epochs: int, batch_size: int, gen: np.random.Generator,
            progress=None) -> dict:
        """`epochs` passes over `records` in shuffled batches; mean losses of the last."""
        n = len(records["obs"])
        last = []
        for _ in range(epochs):
            order = gen.permutation(n)
            last = []
            for i in range(0, n - batch_size + 1, batch_size):
                idx = order[i:i + batch_size]
                last.append(self.step({k: v[idx] for k, v in records.items()}))
                if progress is not None:
                    progress()
        out = np.array(last)
        return {"policy_loss": float(out[:, 0].mean()), "value_loss": float(out[:, 1].mean())}

    @torch.no_grad()
    def evaluate(self, records: dict) -> dict:
        """Losses and the policy's agreement with the target's arg-max on `records`."""
        self.net.eval()
        obs, mask, policy, value = self._tensors(records)
        pl, vl = losses(self.net, obs, mask, policy, value)
        logits, _ = self.net(obs)
        pick = logits.masked_fill(~mask, float("-inf")).argmax(1)
        agree = (pick == policy.argmax(1)).float().mean()
        return {"policy_loss": float(pl), "value_loss": float(vl), "agreement": float(agree)}

    def weights(self) -> pvnet.Weights:
        return self.net.to_weights()

    def state_dict(self) -> dict:
        return {"net": self.net.state_dict(), "opt": self.opt.state_dict(), "steps": self.steps}

    def load_state_dict(self, state: dict) -> None:
        """Restore net, optimizer moments and step count; the learning rate stays this
        learner's own (a resumed run may continue at another --lr)."""
        self.net.load_state_dict(state["net"])
        self.opt.load_state_dict(state["opt"])
        for group in self.opt.param_groups:
            group["lr"] = self.lr
        self.steps = int(state["steps"])
