"""A seat's page of a state: its named view, its legal actions (only when it is that
seat's move), and at the end the scores and winners. Everything here comes from
``observe(state, seat)``, the legal mask and, once the game is over, the public result.
Hansa and Voyage have views of their own (the page draws their boards); any other game
gets the generic one (`view_generic`: its observation entries by name)."""

from __future__ import annotations

from tradewinds.web import view_generic, view_hansa, view_voyage

VIEWS = {"hansa": view_hansa.view, "voyage": view_voyage.view}


def page(handle, state, seat: int, options: dict, *, latest: bool = True) -> dict:
    """{"view", "to_move", "legal" (seat to move at the latest position), "result"}."""
    obs = handle.observe(state, seat)
    if handle.name in VIEWS:
        view = VIEWS[handle.name](obs, seat, options)
    else:
        view = view_generic.view(handle, obs, seat, handle.num_players(state))
    over = handle.is_terminal(state) or handle.is_truncated(state)
    to_move = -1 if over else handle.current_player(state)
    out = {"view": view, "to_move": to_move, "legal": [], "result": None}
    if latest and to_move == seat:
        out["legal"] = [{"id": a, "name": handle.action_name(a)}
                        for a in handle.legal_actions(state)]
    if over:
        out["result"] = {"scores": [int(x) for x in handle.scores(state)],
                         "winners": handle.winners(state),
                         "truncated": bool(handle.is_truncated(state))}
    return out
