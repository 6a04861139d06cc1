"""Agents for both games, by name: ``agents.make_agent("random", game="hansa")``.

Protocol: ``act(observation, action_mask, rng) -> int`` (see ``agents.registry``).
Registered: ``random``, ``heuristic``, ``noisy:<eps>`` (the heuristic with random moves
mixed in), ``mcts:<simulations>``, ``ppo`` (the shipped checkpoint), ``ppo:<path>``,
``dmc:<path>`` (a Deep Monte-Carlo Q-network, `tradewinds train --algo dmc`) and
``rllib:<path>`` (a policy trained with RLlib), ``az`` / ``az:<path>`` (a policy-value
net guiding IS-MCTS), ``net`` / ``net:<path>`` (its raw policy) and ``dest:<draws>`` (the
Voyage heuristic with each turn's destination searched) and ``br:<N>:<agent>`` (a search
that plays the heuristic, random or noisy agent inside its tree: a best response to it)
(docs/agents.md); more agents
join through ``agents.register(name, factory)``.
"""

from tradewinds.agents.random_agent import RandomAgent
from tradewinds.agents.registry import (
    agent_names,
    builtin_names,
    factory,
    is_uniform_random,
    kernel_policy,
    make_agent,
    register,
    split_name,
    unregister,
)

register("random", RandomAgent, replace=True)
register("heuristic", "tradewinds.agents.heuristic:HeuristicAgent", replace=True)
register("mcts", "tradewinds.agents.ismcts:ISMCTSAgent", replace=True)
register("ppo", "tradewinds.agents.ppo:PPOAgent", replace=True)
register("dmc", "tradewinds.agents.dmc:DMCAgent", replace=True)
register("rllib", "tradewinds.agents.rllib_agent:RllibAgent", replace=True)
register("noisy", "tradewinds.agents.noisy:NoisyAgent", replace=True)
register("az", "tradewinds.agents.az:AlphaZeroAgent", replace=True)
register("net", "tradewinds.agents.az:NetAgent", replace=True)
register("dest", "tradewinds.agents.destinations_voyage:DestinationAgent", replace=True)
register("br", "tradewinds.agents.respond:BestResponseSearch", replace=True)

__all__ = [
    "RandomAgent",
    "agent_names",
    "builtin_names",
    "factory",
    "is_uniform_random",
    "kernel_policy",
    "make_agent",
    "register",
    "split_name",
    "unregister",
]
