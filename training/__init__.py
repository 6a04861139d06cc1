"""Training (floor 4 of DESIGN.md §1): MaskablePPO self-play on the batched VecEnv with an
opponent pool (`training.trainer`, `tradewinds train`), evaluation, checkpoints and the
learning curve. Imports torch and Stable-Baselines3 (the ``train`` extra) when used."""
