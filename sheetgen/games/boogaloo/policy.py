"""Boogaloo's policies and their named weights (both engines read the weights from here)."""

from __future__ import annotations

from ...validate.driver import ladder
from .board import T_BOONUS, T_BOX, T_CANDY, T_COL, T_ROW, T_STAR

K = 4  # uniforms a turn reads (main box, then stars; more decisions reuse the slots modulo K)
STAR_VALUE = 6  # what greedy thinks a star is worth, in points
PROGRESS_VALUE = 2  # ... and each box already checked under the child of a box
COVER_BONUS = 1000  # the cover policy's preference for moves toward its target


def value(state, box: int) -> int:
    """What greedy sees in a box: the points and stars it brings at once (tried on a copy of the
    sheet), plus a little for the boxes already checked under its child. A pass is worth 0."""
    if box < 0:
        return 0
    trial = state.clone()
    trial.collect(box)
    return ((trial.score() - state.score()) + STAR_VALUE * (trial.pending - state.pending)
            + PROGRESS_VALUE * state.progress(state.b.child_of(box)))


def toward(state, box: int, target: tuple[int, int] | None) -> int:
    """How much checking `box` helps reach the element aimed at (cover policy; 0 = not at all).
    `target` is the (kind, number) board.targets decodes from the element's index."""
    if target is None or box < 0:
        return 0
    kind, arg = target
    b = state.b
    child = b.child_of(box)
    if kind == T_BOX:
        return int(box == arg)
    if kind == T_STAR:
        return int(state.stash[b.candy[box]] < arg)
    if kind == T_CANDY:
        return int(b.candy[box] == arg)
    if kind == T_BOONUS:
        return state.progress(child) + 1
    if kind == T_ROW:
        return int(b.row_of(child) == arg)
    if kind == T_COL:
        return int(b.col_of(child) == arg)
    return 0  # turns are reached by playing on


def greedy(state, legal: list[int], u: float, target: tuple[int, int] | None = None) -> int:
    """The highest value, the first box on ties; cover adds a large bonus toward its target."""
    best, pick = None, legal[0]
    for box in legal:
        v = value(state, box)
        if target is not None:
            v += COVER_BONUS * toward(state, box, target)
        if best is None or v > best:
            best, pick = v, box
    return pick


def policy(name: str, board, target: tuple[int, int] | None = None):
    """choose(state, legal, u) for the driver."""
    return ladder(name, greedy, value, target)
