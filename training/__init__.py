"""Training (floor 4 of docs/design.md §1, beside `studies`): the learner's opponents played
inside numba (`training.opponents`), the single-agent Gymnasium env
(`training.single_agent`), the batched Stable-Baselines3 VecEnv (`training.vec_env`),
MaskablePPO self-play on it with an opponent pool (`training.trainer`, `tradewinds
train`), evaluation, checkpoints and the learning curve. Imports torch and
Stable-Baselines3 (the ``train`` extra) when used: importing this package imports
neither."""
