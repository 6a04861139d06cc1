"""The page's views: built from a seat's observation, they name the state's public fields
correctly and do not change when what the seat may not see is resampled."""

import json

import numpy as np
import pytest

from hansa_env.board import TOKEN_NAMES
from hansa_env.state import StateView as HansaView
from tradewinds import registry
from tradewinds.web import boards, views
from voyage_env.rules import CARD_KINDS
from voyage_env.state import StateView as VoyageView


def _played(game, n, seed, k):
    h = registry.game(game)
    s = h.new_state(n, seed)
    rng = np.random.default_rng(seed)
    for _ in range(k):
        if h.is_terminal(s):
            break
        h.step(s, int(rng.choice(h.legal_actions(s))))
    return h, s


@pytest.mark.parametrize("n,seed,k", [(2, 1, 40), (3, 2, 90), (4, 3, 150)])
def test_hansa_view_names_the_state(n, seed, k):
    h, s = _played("hansa", n, seed, k)
    st = HansaView(s)
    for seat in range(n):
        v = views.page(h, s, seat, h.option_defaults)["view"]
        assert v["ship"] == st.ship and v["round"] == st.round
        for p in range(n):
            pl = v["players"][p]
            assert pl["seat"] == p and pl["money"] == st.money[p]
            assert pl["stalls"] == [int(x) for x in st.stalls[:, p]]
            hand = {TOKEN_NAMES[t]: int(c) for t, c in enumerate(st.hand[p].ravel()) if c}
            assert pl["hand"] == hand
            assert pl["score"] == int(h.scores(s)[p])
        assert v["warehouses"] == [TOKEN_NAMES[t] if t >= 0 else None for t in st.warehouse]


@pytest.mark.parametrize("n,seed,k", [(2, 4, 60), (3, 5, 120), (4, 6, 200)])
def test_voyage_view_names_the_state_and_only_the_seats_cards(n, seed, k):
    h, s = _played("voyage", n, seed, k)
    st = VoyageView(s)
    ports = h.board.port_name
    for seat in range(n):
        v = views.page(h, s, seat, h.option_defaults)["view"]
        assert [pl["ship"] for pl in v["players"]] == [int(x) for x in st.ship[:n]]
        assert [pl["vp"] for pl in v["players"]] == [int(x) for x in st.vp[:n]]
        assert [pl["discs"] for pl in v["players"]] == [int(x) for x in st.discs[:n]]
        assert v["my_hand"] == {CARD_KINDS[c]: int(k) for c, k in enumerate(st.hand[seat]) if k}
        assert sorted(v["my_targets"]) == sorted(ports[t] for t in st.targets[seat] if t >= 0)
        assert v["discovered"] == {p: int(q) for p, q in enumerate(st.discovered[:len(ports)])
                                   if q >= 0}
        assert all(set(pl) >= {"hand_size"} and "hand" not in pl for pl in v["players"])


@pytest.mark.parametrize("game,n,seed,k", [("voyage", 3, 7, 80), ("voyage", 4, 8, 150),
                                          ("hansa", 3, 9, 60)])
def test_page_is_the_same_whatever_the_seat_cannot_see(game, n, seed, k):
    """Resampling what the seat may not see (other hands, targets, the deck, the piles)
    changes nothing the page gets."""
    h, s = _played(game, n, seed, k)
    seat = 0
    page = json.dumps(views.page(h, s, seat, h.option_defaults))
    for key in range(5):
        other = h.determinize(s, seat, key)
        assert not np.array_equal(other, s) or game == "hansa"
        assert json.dumps(views.page(h, other, seat, h.option_defaults)) == page


def test_legal_actions_only_for_the_seat_to_move():
    h, s = _played("voyage", 3, 10, 30)
    mover = h.current_player(s)
    for seat in range(3):
        legal = views.page(h, s, seat, h.option_defaults)["legal"]
        assert bool(legal) == (seat == mover)


def test_boards_hold_every_place():
    hb, vb = boards.board("hansa"), boards.board("voyage")
    assert [c["name"] for c in hb["cities"]][:2] == ["Tonsberg", "Aalborg"]
    assert sum(len(c["slots"]) for c in hb["cities"]) == 14
    vmap = registry.game("voyage").board
    assert len(vb["hexes"]) == vmap.num_hexes and len(vb["ports"]) == vmap.num_ports
    assert vb["hexes"][vmap.lisbon]["port"] == -1 or vb["lisbon"] == vmap.lisbon
    with pytest.raises(ValueError, match="no board"):
        boards.board("chess")
