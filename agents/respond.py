"""`br:<simulations>:<agent>`: a search-based best response to a frozen agent.

IS-MCTS (`agents.ismcts`) for its own seat only: every other seat plays the frozen agent's
policy inside the tree (a sample of its moves, each on that seat's own determinization)
instead of being searched, so the search maximises its win share against that agent, not
against a worst case. This needs no training, but the agent must be playable inside numba:
`heuristic`, `random` or `noisy:<eps>` (`ismcts.MODELLED`). `tradewinds exploit --search N`
plays it against the agent for the exploitability report (docs/exploit.md).

``br:400:heuristic`` searches 400 simulations per decision with the game's `mcts` settings
(`ismcts.DEFAULTS`); its rollouts play the heuristic in every seat.
"""

from __future__ import annotations

from tradewinds.agents.ismcts import ISMCTSAgent

BEHAVIOUR = 1   # bumped by hand when a change makes any decision differently (agents.behaviour)


def parse(spec: str | None) -> tuple[int, str]:
    """'400:noisy:0.5' -> (400, 'noisy:0.5')."""
    n, _, agent = (spec or "").partition(":")
    if not n.isdigit() or int(n) < 1 or not agent:
        raise ValueError(f"br:<simulations>:<agent>, as in br:400:heuristic; got br:{spec}")
    return int(n), agent


def BestResponseSearch(game: str = "hansa", spec: str | None = None, **kwargs) -> ISMCTSAgent:
    """`br:<simulations>:<agent>` (factory keywords as `mcts`'s)."""
    simulations, agent = parse(spec)
    searcher = ISMCTSAgent(game, simulations=simulations, model=agent, **kwargs)
    searcher.name = f"br:{spec}"
    return searcher
