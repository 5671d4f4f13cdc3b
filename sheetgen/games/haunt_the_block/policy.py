"""Haunt the Block's policies and their named weights (both engines read the weights from here)."""

from __future__ import annotations

from ...validate.driver import ladder
from .board import Pay

K = 2  # uniforms a turn reads: move then pirate, or cross then write
GAIN_WEIGHT = 10  # greedy: a point a space adds, against what the move spends
POWER_COST = 1  # greedy: a moon power's use-circle a move spends (greedy pays the cheapest way)
STAR_COST = 1  # greedy: a star a move spends
CHILD_GAIN = 4  # greedy: what a child's space is worth, in candy points


def value(state, action) -> int:
    """Greedy's measure: GAIN_WEIGHT x the points a space adds (a child counts CHILD_GAIN) minus
    the powers and stars the move spends (POWER_COST, STAR_COST each); the pirate takes the candy adding most points; a
    penalty crosses out the row worth least now."""
    b = state.b
    if state.phase in ("start", "move", "write"):
        move = action if state.phase == "move" else Pay(action)
        space = action if state.phase == "start" else (state.pos + move.d) % b.n
        candy = b.space_candy[space]
        gain = state.row_gain(candy) if candy >= 0 else CHILD_GAIN
        return GAIN_WEIGHT * gain - POWER_COST * len(move.powers) - STAR_COST * move.stars
    if state.phase == "pirate":
        return state.row_gain(action)
    k = state.stash[action]
    return -(b.c.points[k - 1] if k else 0)


def greedy(state, legal: list, u: float, target: str | None = None):
    """The highest value, the first in canonical order on ties; cover first keeps the actions
    that mark its target element directly (`State.marks`)."""
    values = [value(state, a) for a in legal]
    if target is not None:
        hits = [target in state.marks(a) for a in legal]
        if any(hits):
            values = [v if h else None for v, h in zip(values, hits)]
    best = max(v for v in values if v is not None)
    return legal[values.index(best)]


def reached(state, action):
    """The space a move or write lands on (lookahead tries one payment per space); else the action."""
    if state.phase == "move":
        return (state.pos + action.d) % state.b.n
    return action


def policy(name: str, board, target: str | None = None):
    """choose(state, legal, u) for the driver."""
    return ladder(name, greedy, value, target, family=reached)
