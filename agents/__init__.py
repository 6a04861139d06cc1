"""Agents for both games, by name: ``agents.make_agent("random", game="hansa")``.

Protocol: ``act(observation, action_mask, rng) -> int`` (see ``agents.registry``).
Registered now: ``random``. Stronger agents join through ``agents.register(name, factory)``.
"""

from agents.random_agent import RandomAgent
from agents.registry import (
    agent_names,
    factory,
    is_uniform_random,
    make_agent,
    register,
    unregister,
)

register("random", RandomAgent, replace=True)

__all__ = [
    "RandomAgent",
    "agent_names",
    "factory",
    "is_uniform_random",
    "make_agent",
    "register",
    "unregister",
]
