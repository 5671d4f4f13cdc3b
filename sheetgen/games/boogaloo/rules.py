"""Boogaloo's rules, played by the validator: a readable reference engine and a numpy fast engine.

The reference engine is an OpenSpiel-like `State` (legal_actions / apply_action / is_terminal /
score) written clause by clause against the rulebook; `fast.py` plays many games at once and must
give identical results (tests compare them). Both play one sheet: `sheets(doc)` splits a layout into
its sheets, and element ids are those drawn on that sheet's page.

Readings of the rulebook where it leaves a choice (each is also stated where it is applied):
- A turn's action is one box: a box whose die value equals either die (any box on doubles). The
  action order is the box order on the sheet: children row by row, boxes left to right.
- A roll that matches no open box checks nothing: the player loses the turn. The rulebook names no
  penalty and no sheet can rule it out late in a game (each die value has only six boxes), so this is
  a legal pass, the same reading as Tricky Treats; `Batch.penalties` counts these lost turns so a
  designer sees how often it happens, and `stuck` stays 0.
- Stars are used at once, one at a time, each on any open box; a star earned while another is
  being used waits its turn. A star that finds no open box is lost (`unused_powers`).
- Stash column k's star comes the moment `needs[k-1]` candy rows hold k candies or more; since a
  row only grows, the candy just collected is the only one that can complete its column.
- Haunting a child fills the next Boo-nus reward; once every reward is filled, haunting gives
  nothing more there (rows and columns still pay).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from ...validate.engine import Batch, Rules
from .model import BOXES_PER_CHILD, TURNS, BoogalooSheet

STAR_VALUE = 6  # what the greedy policy thinks a star is worth, in points
PROGRESS_VALUE = 2  # ... and each box already checked under the child of a box
COVER_BONUS = 1000  # the cover policy's preference for moves toward its target
K = 4  # decisions a turn reads from `u` (main box, then stars; more reuse the slots modulo K)


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
    boonus: tuple[str, ...]  # "star" / "bar", left to right
    bar_points: int

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
                 tuple(c.stash.points), tuple(c.stash.needs), tuple(c.boonus), c.bar_points)


def element_ids(doc: BoogalooSheet) -> list[str]:
    """Every mark a player can make on the sheet, as drawn: boxes, stash circles and stars,
    Boo-nus rewards, row and column chocolate bars, turns."""
    b = board(doc)
    out = [f"child.{b.children[i // 3]}.box.{i % 3 + 1}" for i in range(b.boxes)]
    out += [f"stash.{c}.{k}" for c in b.candies for k in range(1, len(b.points) + 1)]
    out += [f"stash.star.{k}" for k in range(1, len(b.points) + 1)]
    out += [f"boonus.{k}" for k in range(1, len(b.boonus) + 1)]
    out += [f"bar.row.{r}" for r in range(1, b.rows + 1)]
    out += [f"bar.col.{c}" for c in range(1, b.cols + 1)]
    out += [f"track.turn.{t}" for t in range(1, TURNS + 1)]
    return out


def sheets(doc: BoogalooSheet) -> list[tuple[str, BoogalooSheet]]:
    """One (label, layout) per sheet, each layout holding that sheet alone."""
    return [(s.name, doc.model_copy(update={"content": doc.content.model_copy(update={"sheets": [s]})}))
            for s in doc.content.sheets]


class State:
    """One player's sheet during a game."""

    def __init__(self, b: Board):
        self.b = b
        self.checked = [False] * b.boxes
        self.stash = [0] * len(b.candies)  # circles checked per candy row
        self.stars = [False] * len(b.points)  # stash column stars earned
        self.boonus = 0  # Boo-nus rewards filled, left to right
        self.row_bars = [False] * b.rows
        self.col_bars = [False] * b.cols
        self.bars = 0  # chocolate bars earned (rows, columns, Boo-nus)
        self.turn = 0  # turns completed
        self.dice: tuple[int, int] | None = None
        self.pending = 0  # stars earned and not yet used
        self.lost_turns = 0
        self.unused = 0

    # ---- the turn ------------------------------------------------------------------------------
    def roll(self, a: int, b: int) -> None:
        """Someone rolls the dice; every player then takes one action with them."""
        self.dice = (a, b)

    def phase(self) -> str:
        """'die' (use the roll), 'star' (use a star) or 'end' (check the turn)."""
        if self.dice is not None:
            return "die"
        return "star" if self.pending else "end"

    def legal_actions(self) -> list[int]:
        """Boxes that may be checked now, in sheet order.
        With the dice: a box showing either die's value; on doubles, any box ("ignore the values").
        With a star: any box under any child."""
        open_boxes = [i for i in range(self.b.boxes) if not self.checked[i]]
        if self.phase() == "die":
            a, d = self.dice
            if a != d:
                return [i for i in open_boxes if self.b.die[i] in (a, d)]
        return open_boxes if self.phase() != "end" else []

    def apply_action(self, box: int) -> None:
        assert box in self.legal_actions(), (box, self.phase())
        if self.phase() == "die":
            self.dice = None
        else:
            self.pending -= 1
        self.collect(box)

    def skip(self) -> None:
        """No legal box for the phase. Dice: nothing is checked this turn (a lost turn).
        Star: there is no open box left, so the star is lost."""
        if self.phase() == "die":
            self.lost_turns += 1
            self.dice = None
        else:
            self.unused += self.pending
            self.pending = 0

    def end_turn(self) -> None:
        """Check the turn on the counter; the game ends after the 13th."""
        assert self.phase() == "end"
        self.turn += 1

    def is_terminal(self) -> bool:
        return self.turn >= TURNS

    # ---- what a checked box sets off -------------------------------------------------------
    def collect(self, box: int) -> None:
        """Check the box, put its candy in the stash, then see what was earned."""
        b = self.b
        self.checked[box] = True
        c = b.candy[box]
        if self.stash[c] < len(b.points):  # a full row takes no more (never on a shipped sheet)
            self.stash[c] += 1
            self._stash_star(self.stash[c])
        child = b.child_of(box)
        if self._haunted(child):
            self._haunt(child)

    def _stash_star(self, k: int) -> None:
        """A row just reached column k: its star is earned once enough rows hold k candies
        ("at least one of each" for the first column, five of the six for the second, ...)."""
        rows = sum(1 for n in self.stash if n >= k)
        if not self.stars[k - 1] and rows >= self.b.needs[k - 1]:
            self.stars[k - 1] = True
            self.pending += 1

    def _haunted(self, child: int) -> bool:
        return all(self.checked[child * BOXES_PER_CHILD + j] for j in range(BOXES_PER_CHILD))

    def _haunt(self, child: int) -> None:
        """The child's 3 boxes are checked: take the next Boo-nus reward, then a chocolate bar for
        a row or column of children all haunted."""
        b = self.b
        if self.boonus < len(b.boonus):
            reward = b.boonus[self.boonus]
            self.boonus += 1
            if reward == "star":
                self.pending += 1
            else:
                self.bars += 1
        r, c = b.row_of(child), b.col_of(child)
        if all(self._haunted(r * b.cols + j) for j in range(b.cols)):
            self.row_bars[r] = True
            self.bars += 1
        if all(self._haunted(i * b.cols + c) for i in range(b.rows)):
            self.col_bars[c] = True
            self.bars += 1

    # ---- scoring ------------------------------------------------------------------------------
    def score(self) -> int:
        """Each stash row scores the points of the column of its rightmost check; each chocolate
        bar scores bar_points. (Ties are shared: nothing to break.)"""
        return sum(self.b.points[n - 1] for n in self.stash if n) + self.bars * self.b.bar_points

    def progress(self, child: int) -> int:
        return sum(self.checked[child * BOXES_PER_CHILD + j] for j in range(BOXES_PER_CHILD))

    def reached(self, ids: list[str]) -> list[bool]:
        b = self.b
        out = list(self.checked)
        out += [self.stash[c] >= k for c in range(len(b.candies)) for k in range(1, len(b.points) + 1)]
        out += list(self.stars)
        out += [self.boonus >= k for k in range(1, len(b.boonus) + 1)]
        out += self.row_bars + self.col_bars
        out += [self.turn >= t for t in range(1, TURNS + 1)]
        assert len(out) == len(ids)
        return out

    def flat(self) -> list[int]:
        """The end state in a fixed order (compared with the fast engine's): the checked boxes and
        the stash stars as bit masks (bit i = box i, column i + 1), the stash rows, the Boo-nus
        rewards filled, the chocolate bars, turns played and stars left."""
        boxes = sum(1 << i for i, c in enumerate(self.checked) if c)
        stars = sum(1 << k for k, c in enumerate(self.stars) if c)
        return [boxes, *self.stash, stars, self.boonus, self.bars, self.turn, self.pending]


# ---- policies ------------------------------------------------------------------------------------
def value(state: State, box: int) -> int:
    """What greedy sees in a box: the points and stars it brings at once (tried on a copy of the
    sheet), plus a little for the boxes already checked under its child."""
    trial = copy.deepcopy(state)
    trial.collect(box)
    return ((trial.score() - state.score()) + STAR_VALUE * (trial.pending - state.pending)
            + PROGRESS_VALUE * state.progress(state.b.child_of(box)))


def toward(state: State, box: int, target: str) -> int:
    """How much checking `box` helps reach the element `target` (cover policy; 0 = not at all)."""
    if target is None:
        return 0
    b = state.b
    part = target.split(".")
    child = b.child_of(box)
    if part[0] == "child":
        return int(b.children[child] == part[1] and box % BOXES_PER_CHILD == int(part[3]) - 1)
    if part[:2] == ["stash", "star"]:
        return int(state.stash[b.candy[box]] < int(part[2]))
    if part[0] == "stash":
        return int(b.candies[b.candy[box]] == part[1])
    if part[0] == "boonus":
        return state.progress(child) + 1
    if part[:2] == ["bar", "row"]:
        return int(b.row_of(child) == int(part[2]) - 1)
    if part[:2] == ["bar", "col"]:
        return int(b.col_of(child) == int(part[2]) - 1)
    return 0  # turns are reached by playing on


def choose(state: State, legal: list[int], policy: str, u: float, target: str | None) -> int:
    """random: legal[floor(u * n)]; greedy: the highest value, the first box on ties; cover:
    greedy plus a large bonus for boxes that lead toward the target."""
    if policy == "random":
        return legal[int(u * len(legal))]
    best, pick = None, legal[0]
    for box in legal:
        v = value(state, box)
        if policy == "cover":
            v += COVER_BONUS * toward(state, box, target)
        if best is None or v > best:
            best, pick = v, box
    return pick


def play(b: Board, dice, u, policy: str, target: str | None) -> State:
    """One game: 13 turns of one die roll each, then every star the turn earned."""
    s = State(b)
    while not s.is_terminal():
        t = s.turn
        s.roll(int(dice[t, 0]), int(dice[t, 1]))
        decision = 0
        while s.phase() != "end":
            legal = s.legal_actions()
            if not legal:
                s.skip()
                continue
            s.apply_action(choose(s, legal, policy, float(u[t, decision % K]), target))
            decision += 1
        s.end_turn()
    return s


def reference(doc: BoogalooSheet, dice, u, policy: str, targets) -> Batch:
    b = board(doc)
    ids = element_ids(doc)
    games = [play(b, dice[g], u[g], policy, ids[targets[g]] if targets[g] >= 0 else None)
             for g in range(len(dice))]
    return Batch(score=np.array([s.score() for s in games], np.int64),
                 reached=np.array([s.reached(ids) for s in games], bool).reshape(len(games), len(ids)),
                 penalties=np.array([s.lost_turns for s in games], np.int64),
                 unused_powers=np.array([s.unused for s in games], np.int64),
                 stuck=np.zeros(len(games), np.int64),  # a roll with no box is a lost turn
                 turns=np.array([s.turn for s in games], np.int64),
                 state=np.array([s.flat() for s in games], np.int64).reshape(len(games), -1))


def fast(doc: BoogalooSheet, dice, u, policy: str, targets) -> Batch:
    from .fast import play_fast

    return play_fast(board(doc), element_ids(doc), dice, u, policy, targets)


RULES = Rules(game="boogaloo", turns=TURNS, choices_per_turn=K, element_ids=element_ids,
              reference=reference, fast=fast, sheets=sheets)
