"""The medium Voyage test board and a goal-seeking random policy for the plain-Python
reference: shared by the reference tests and the kernel-vs-reference differential test."""

from collections import deque

from voyage_env import actions as A
from voyage_env.board import GOODS, map_from_text
from voyage_env.state import MOVE

GOOD = {name: g for g, name in enumerate(GOODS)}

MEDIUM = map_from_text(
    grid="""
    @~~~~A~~.~~~
    ~~~~~~~~~~~~
    ~J~~.~~~B~~~
    ~~~~..~~~~~D
    ~C~~~~~~~E~~
    ~~~~~~~F~~~~
    ~~~~~~~~~~H~
    ~~~~~~G~~~~I
    """,
    events="""
    ~~~~~~~P.~~~
    ~~B~~~~~~~~~
    ~~~~.~R~~~B~
    ~~~P..~~~~~~
    ~~~~~R~~~~~~
    ~~~~B~~~~P~~
    ~~R~~~~~~~~~
    ~~~~B~~~~R~~
    """,
    hemisphere="""
    WWWWWWEE.EEE
    WWWWWWEEEEEE
    WWWW.WEEEEEE
    WWWW..EEEEEE
    WWWWWWEEEEEE
    WWWWWWEEEEEE
    WWWWWWEEEEEE
    WWWWWWEEEEEE
    """,
    ports="""
    A | Guinea | 1444 | west | chili
    J | Azores | 1427 | west | -
    C | Mina | 1482 | west | ivory
    B | Calicut | 1498 | east | pepper
    D | Ceylon | 1505 | east | cinnamon
    E | Melaka | 1509 | east | -
    F | Macau | 1515 | east | silk
    G | Porto Seguro | 1500 | west | brazilwood
    H | Moluccas | 1512 | east | nutmeg
    I | Tanegashima | 1542 | east | silver
    """,
    currents="""
    east : 0,1 : SE NE SE NE SE NE SE NE SE NE
    west : 11,6 : NW SW NW SW NW SW NW SW NW SW
    south : 0,2 : S S S S
    """,
    name="medium")
"""A medium test board: both hemispheres, currents, pirate/blue/red hexes, every goods port."""


def goal_policy(m):
    """A random policy that often heads for Calicut (pepper), Guinea and Mina, then back to
    Lisbon to dock (so games upgrade, take tiles and end)."""
    goals = {"Calicut": "pepper", "Guinea": "chili", "Mina": "ivory"}
    dist = {}
    for goal in [m.lisbon] + [int(m.port_hex[m.port_id(name)]) for name in goals]:
        d = {goal: 0}
        q = deque([goal])
        while q:
            h = q.popleft()
            for t in m.neighbors[h]:
                if t >= 0 and int(t) not in d:
                    d[int(t)] = d[h] + 1
                    q.append(int(t))
        dist[goal] = d

    def choose(g, rnd):
        legal = g.legal_actions()
        p = g.players[g.active]
        if A.DOCK in legal and any(p.cubes):
            return A.DOCK
        if A.MONASTERY_TAKE in legal:
            return A.MONASTERY_TAKE
        if g.phase == MOVE and rnd.random() < 0.8:
            goal = m.lisbon
            for name, good in goals.items():
                if not p.cubes[GOOD[good]] and not p.wrecked[GOOD[good] // 2]:
                    goal = int(m.port_hex[m.port_id(name)])
                    break
            here = dist[goal][p.ship]
            better = [a for a in legal if A.MOVE <= a < A.SHIELD + 6
                      and dist[goal][int(m.neighbors[p.ship][(a - A.MOVE) % 6])] < here]
            if better:
                return rnd.choice(better)
        if A.BID_PASS in legal and rnd.random() < 0.7:
            return A.BID_PASS
        return rnd.choice(legal)

    return choose
