"""AlphaZero-style expert iteration for both games at 2-4 players: self-play with the
net-guided search (`agents.az_search`) writes positions to a replay buffer, a torch
learner fits the policy-value net (`agents.pvnet`) to the search's visit counts and the
games' outcomes, and the loop checkpoints, rates and repeats (`training.alphazero.loop`).
"""
