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

import numpy as np

from ...validate.driver import OUTCOMES, play as drive
from ...validate.engine import Batch, Rules
from .board import T_NONE, Board, board, element_ids, sheets, targets as decode
from .model import BOXES_PER_CHILD, BoogalooContent
from .policy import K, policy

PASS = -1  # the action of a roll (or star) that has no open box to check


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

    # ---- the turn (the driver's protocol) -----------------------------------------------------
    def is_chance_node(self) -> bool:
        """The dice are to be rolled: no roll or star left to use this turn, game not over."""
        return self.dice is None and not self.pending and not self.is_terminal()

    def chance_outcomes(self):
        return OUTCOMES

    def apply_chance(self, dice: tuple[int, int]) -> None:
        """Someone rolls the dice; every player then takes one action with them."""
        assert self.is_chance_node()
        self.dice = (int(dice[0]), int(dice[1]))

    def roll(self, a: int, b: int) -> None:
        self.apply_chance((a, b))

    def clone(self) -> "State":
        c = copy.copy(self)
        c.checked, c.stash, c.stars = list(self.checked), list(self.stash), list(self.stars)
        c.row_bars, c.col_bars = list(self.row_bars), list(self.col_bars)
        return c

    def turn_index(self) -> int:
        return self.turn

    def phase(self) -> str:
        """'die' (use the roll), 'star' (use a star) or 'end' (the turn is over)."""
        if self.dice is not None:
            return "die"
        return "star" if self.pending else "end"

    def open_boxes(self) -> list[int]:
        """Boxes that may be checked now, in sheet order.
        With the dice: a box showing either die's value; on doubles, any box ("ignore the values").
        With a star: any box under any child."""
        open_boxes = [i for i in range(self.b.boxes) if not self.checked[i]]
        if self.phase() == "die":
            a, d = self.dice
            if a != d:
                return [i for i in open_boxes if self.b.die[i] in (a, d)]
        return open_boxes if self.phase() != "end" else []

    def legal_actions(self) -> list[int]:
        """The open boxes, or [PASS] when there is none (a lost turn, or a lost star)."""
        if self.phase() == "end":
            return []
        return self.open_boxes() or [PASS]

    def apply_action(self, box: int) -> None:
        """Check a box, or PASS: with the dice nothing is checked this turn (a lost turn); with a
        star there is no open box left, so the stars still to come are lost. Once no roll or star
        is left, the turn is checked on the counter (the game ends after the last)."""
        assert box in self.legal_actions(), (box, self.phase())
        if box == PASS:
            if self.phase() == "die":
                self.lost_turns += 1
                self.dice = None
            else:
                self.unused += self.pending
                self.pending = 0
        else:
            if self.phase() == "die":
                self.dice = None
            else:
                self.pending -= 1
            self.collect(box)
        if self.phase() == "end":
            self.turn += 1

    def is_terminal(self) -> bool:
        return self.turn >= self.b.turns

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
            elif reward == "bar":
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
        out += [self.turn >= t for t in range(1, b.turns + 1)]
        assert len(out) == len(ids)
        return out

    def flat(self) -> list[int]:
        """The end state in a fixed order (compared with the fast engine's): the checked boxes and
        the stash stars as bit masks (bit i = box i, column i + 1), the stash rows, the Boo-nus
        rewards filled, the chocolate bars, turns played and stars left."""
        boxes = sum(1 << i for i, c in enumerate(self.checked) if c)
        stars = sum(1 << k for k, c in enumerate(self.stars) if c)
        return [boxes, *self.stash, stars, self.boonus, self.bars, self.turn, self.pending]


def play(b: Board, dice, u, name: str, target: tuple[int, int] | None = None) -> State:
    """One game through the generic driver."""
    return drive(State(b), dice, u, policy(name, b, target))


def reference(doc, dice, u, policy: str, targets) -> Batch:
    b = board(doc)
    ids = element_ids(doc)
    kind, arg = decode(b, targets)
    games = [play(b, dice[g], u[g], policy, (int(kind[g]), int(arg[g])) if kind[g] != T_NONE else None)
             for g in range(len(dice))]
    return Batch(score=np.array([s.score() for s in games], np.int64),
                 reached=np.array([s.reached(ids) for s in games], bool).reshape(len(games), len(ids)),
                 penalties=np.array([s.lost_turns for s in games], np.int64),
                 unused_powers=np.array([s.unused for s in games], np.int64),
                 stuck=np.zeros(len(games), np.int64),  # a roll with no box is a lost turn
                 turns=np.array([s.turn for s in games], np.int64),
                 state=np.array([s.flat() for s in games], np.int64).reshape(len(games), -1))


def fast(doc, dice, u, policy: str, targets) -> Batch:
    from .fast import play_fast

    return play_fast(board(doc), dice, u, policy, targets)


RULES = Rules(game="boogaloo", turns=BoogalooContent.model_fields["turns"].default, choices_per_turn=K,
              element_ids=element_ids, reference=reference, fast=fast, sheets=sheets,
              new_state=lambda doc: State(board(doc)), policy=lambda name, doc: policy(name, board(doc)))
