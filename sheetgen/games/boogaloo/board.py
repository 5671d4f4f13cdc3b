"""Boogaloo's static facts, read from the layout: the board both engines play, and the element ids
(the only place they are spelled; the engines and the heatmap read them from here)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .model import BOXES_PER_CHILD, BoogalooSheet


# ---- element ids (compose draws them, the engines report them, the heatmap shades them) ----------
# --fillable (kinds.Kind): the ids in the order a game reaches them, and the boxes written in
PLAY_ORDER = (r"track\.", r"child\.", r"stash\.", r"boonus\.", r"bar\.", r"score\.")
WRITTEN = r"score\."


def box_id(child: str, n: int) -> str:
    return f"child.{child}.box.{n}"


def stash_id(candy: str, k: int) -> str:
    return f"stash.{candy}.{k}"


def stash_star_id(k: int) -> str:
    return f"stash.star.{k}"


def boonus_id(k: int) -> str:
    return f"boonus.{k}"


def row_bar_id(r: int) -> str:
    return f"bar.row.{r}"


def col_bar_id(c: int) -> str:
    return f"bar.col.{c}"


def turn_id(t: int) -> str:
    return f"track.turn.{t}"


@dataclass(frozen=True)
class Board:
    """The fixed facts of one sheet, as flat tuples (box i belongs to child i // 3)."""

    candies: tuple[str, ...]
    children: tuple[str, ...]
    die: tuple[int, ...]  # per box
    candy: tuple[int, ...]  # per box: index into candies
    rows: int
    cols: int
    points: tuple[int, ...]  # per stash column
    needs: tuple[int, ...]  # per stash column: candy rows needed for its star
    boonus: tuple[str, ...]  # "star" / "bar" / "none", left to right
    bar_points: int
    turns: int  # the rules' game length, as the layout states it

    @property
    def boxes(self) -> int:
        return len(self.die)

    def child_of(self, box: int) -> int:
        return box // BOXES_PER_CHILD

    def row_of(self, child: int) -> int:
        return child // self.cols

    def col_of(self, child: int) -> int:
        return child % self.cols


def _one(doc: BoogalooSheet):
    if len(doc.content.sheets) != 1:
        raise ValueError(f"a Boogaloo layout with {len(doc.content.sheets)} sheets is played one sheet "
                         "at a time: split it with RULES.sheets(doc) first")
    return doc.content.sheets[0]


def board(doc: BoogalooSheet) -> Board:
    c = doc.content
    sheet = _one(doc)
    names = [x.id for x in c.candies]
    boxes = [b for child in sheet.children for b in child.boxes]
    return Board(tuple(names), tuple(ch.id for ch in sheet.children), tuple(b.die for b in boxes),
                 tuple(names.index(b.candy) for b in boxes), c.grid.rows, c.grid.columns,
                 tuple(c.stash.points), tuple(c.stash.needs), tuple(c.boonus), c.bar_points, c.turns)


# cover targets: the kind of element a cover game aims at, with its number (box, stash column,
# candy, row, column); both engines read them from `elements`, nothing parses an id back
T_NONE, T_BOX, T_STAR, T_CANDY, T_BOONUS, T_ROW, T_COL = range(7)


def elements(b: Board) -> list[tuple[str, int, int]]:
    """Every mark a player can make on the sheet, as drawn, with what a cover game aiming at it
    looks for: boxes, stash circles and stars, Boo-nus rewards, row and column bars, turns."""
    S = len(b.points)
    out = [(box_id(b.children[i // BOXES_PER_CHILD], i % BOXES_PER_CHILD + 1), T_BOX, i) for i in range(b.boxes)]
    out += [(stash_id(name, k), T_CANDY, c) for c, name in enumerate(b.candies) for k in range(1, S + 1)]
    out += [(stash_star_id(k), T_STAR, k) for k in range(1, S + 1)]
    out += [(boonus_id(k), T_BOONUS, 0) for k in range(1, len(b.boonus) + 1)]
    out += [(row_bar_id(r), T_ROW, r - 1) for r in range(1, b.rows + 1)]
    out += [(col_bar_id(c), T_COL, c - 1) for c in range(1, b.cols + 1)]
    out += [(turn_id(t), T_NONE, 0) for t in range(1, b.turns + 1)]  # reached by playing on
    return out


def element_ids(doc: BoogalooSheet) -> list[str]:
    return [e for e, _, _ in elements(board(doc))]


def targets(b: Board, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the kind (T_*) and number of the element it aims at (`index` into the element
    ids, -1: none)."""
    table = np.array([(k, a) for _, k, a in elements(b)], np.int64).reshape(-1, 2)
    index = np.asarray(index, np.int64)
    on = index >= 0
    hit = table[np.where(on, index, 0)]
    return np.where(on, hit[:, 0], T_NONE), np.where(on, hit[:, 1], 0)


def sheets(doc: BoogalooSheet) -> list[tuple[str, BoogalooSheet]]:
    """One (label, layout) per sheet, each layout holding that sheet alone."""
    return [(s.name, doc.model_copy(update={"content": doc.content.model_copy(update={"sheets": [s]})}))
            for s in doc.content.sheets]
