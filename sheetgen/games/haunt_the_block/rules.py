"""Haunt the Block rules: a reference engine written to be read against the rulebook, and the
contract (`RULES`) that also names the fast engine (fast.py).

A game is `turns` turns (the layout's, 31). Turn 1 is the setup: write 1 on a starting space
(its dice are not used). Turns 2..31 each roll two dice and write the number equal to the turn. The "turn number" the
penalty speaks of is therefore the number the player was about to write.

Decisions (OpenSpiel-like: the State lists legal actions in a canonical order, the policy picks):
- start: a starting space (path order);
- move: a `Pay`: a distance d = 1..n-1 clockwise and how it is paid (which moon powers, how
  many stars); ascending by distance, then stars, then powers (`Pay.key`);
- pirate: a candy (candy order);
- cross: a candy circle of the final score section not yet crossed (candy order);
- write: after a penalty, a distance to an empty candy space (ascending).
The k-th decision of turn t under "random" picks legal action floor(u[t, k % K] * n_legal).
"greedy" takes the highest value (`State.value`), the first in canonical order on ties; "cover"
first keeps the actions that mark its target element directly (`State.marks`), then is greedy.

Readings where the rulebook is silent or ambiguous (each is also in the docstring of its rule):
- the start space is a candy space; its flag plays no further part (`State.land`);
- a move is where it lands and how it is paid; payments that spend the same powers and stars on
  the same space are one action (the sheet ends the same); powers act once each per roll, in the
  printed order or in any order (the layout's `power_order`), then any number of stars, all one
  way, each step stopping at 1 (`board.routes`, `Board.payments`);
- "use the lower die" lets powers and stars change that die (`board.meets`, the Bee example);
- doubles add every empty candy space to the normal moves ("may");
- penalty only when no space at all can be reached; its "turn number" is the next number, written
  in any empty candy space, whose candy is collected (`State.begin_turn`);
- a candy past the last stash column, and a star with no circle left, are lost (`collect`,
  `circle_star`);
- moon powers only matter when moving, so the engine uses them only then.
"""

from __future__ import annotations

import copy

import numpy as np

from ...validate.driver import OUTCOMES, play as drive
from ...validate.engine import Batch, Rules
from . import board as ids
from .board import Board, Pay, bar_ids, mask_powers, power_mask
from .model import MOON_POWERS, SYMBOLS, HauntContent
from .policy import K, policy


class State:
    """One player's sheet during a game."""

    def __init__(self, board: Board):
        b, c = board, board.c
        self.b = b
        self.turn = 1  # the number the next write puts down
        self.dice = (0, 0)
        self.phase = "start"
        self.numbers = [0] * b.n  # number written on each space, 0 = empty
        self.pos = -1
        self.stash = [0] * len(c.candies)  # candies checked in each stash row
        self.crossed = [False] * len(c.candies)
        self.col_star = [False] * len(c.points)
        self.circled = c.start_stars  # stars circled in the Stars section
        self.used_stars = 0  # circled stars crossed out
        self.boonus = [0] * len(SYMBOLS)
        self.unlocked = {p: False for p in MOON_POWERS}
        self.power_uses = {p: 0 for p in MOON_POWERS}
        self.pumpkins = 0
        self.sweet = 0
        self.bars: set[str] = set()
        self.penalties = 0
        self.reached: set[str] = {ids.star_id(k) for k in range(c.start_stars)}

    # ---- rules text, clause by clause ---------------------------------------------------------
    def mark(self, eid: str) -> None:
        self.reached.add(eid)

    def row_gain(self, candy: int) -> int:
        """Points one more candy adds to its stash row (0 if the row is full or crossed out)."""
        k, pts = self.stash[candy], self.b.c.points
        if self.crossed[candy] or k >= len(pts):
            return 0
        return pts[k] - (pts[k - 1] if k else 0)

    def circle_star(self) -> None:
        """Circle the next star of the Stars section. A star earned when all are circled is lost.
        All stars circled (used or not) earn a chocolate bar."""
        c = self.b.c
        if self.circled < c.stars:
            self.circled += 1
            self.mark(ids.star_id(self.circled - 1))
            if self.circled == c.stars:
                self.bar(ids.STARS_BAR)

    def bar(self, eid: str) -> None:
        self.bars.add(eid)
        self.mark(eid)

    def collect(self, candy: int) -> None:
        """Check the leftmost empty circle of the candy's row. A candy beyond the last column is
        lost. The star under column k is earned when `thresholds[k]` rows reach column k; only
        the column just reached can change, so one check suffices."""
        c = self.b.c
        k = self.stash[candy]
        if k >= len(c.points):
            return
        self.stash[candy] = k + 1
        self.mark(ids.stash_id(self.b.candy_ids[candy], k))
        rows = sum(n >= k + 1 for n in self.stash)
        if not self.col_star[k] and rows >= c.thresholds[k]:
            self.col_star[k] = True
            self.mark(ids.column_star_id(k))
            self.circle_star()

    def land(self, space: int) -> None:
        """Write the number on a space and take what the space gives."""
        b = self.b
        self.numbers[space] = self.turn
        self.pos = space
        self.mark(ids.path_id(space))
        candy, child = int(b.space_candy[space]), int(b.space_child[space])
        if candy >= 0:
            self.collect(candy)
            return
        self.haunt(child)

    def haunt(self, child: int) -> None:
        """A child's space: check its symbol in the Boo-nus row (left to right); a full Boo-nus
        column earns its bar. Then the child: pumpkins count toward the all-pumpkins bar; the
        Pirate gives a candy of choice (a decision), the Black Cat circles a star, Romeo and
        Juliet give a bar once both have a number; a moon child unlocks its power."""
        b, c = self.b, self.b.c
        kid = c.children[child]
        s = b.child_symbol[child]
        if self.boonus[s] < b.sym_count[s]:
            self.boonus[s] += 1
            col = self.boonus[s]
            self.mark(ids.boonus_id(SYMBOLS[s], col - 1))
            if all(self.boonus[t] >= col for t in range(len(SYMBOLS)) if b.sym_count[t] >= col):
                self.bar(ids.boonus_bar_id(col - 1))
        if kid.symbol == "pumpkin":
            self.pumpkins += 1
            if self.pumpkins == c.pumpkins:
                self.bar(ids.PUMPKINS_BAR)
        elif kid.power == "candy_of_choice":
            self.phase = "pirate"
        elif kid.power == "star":
            self.circle_star()
        elif kid.power == "sweetheart":
            self.sweet += 1
            if self.sweet == 2:
                self.bar(ids.SWEET_BAR)
        elif kid.power in MOON_POWERS:  # (a power switched off, "none", does nothing)
            self.unlocked[kid.power] = True

    def can_use(self, power: str) -> bool:
        """A moon power works once its child has a number, twice in a game (one circle each)."""
        return self.unlocked[power] and self.power_uses[power] < self.b.c.uses

    def payments(self, d: int, space: int) -> list[tuple[int, int]]:
        """Every way to pay a move of exactly d spaces onto `space` with this roll: sorted
        (stars, powers mask) pairs (`Board.payments`: which powers, in which order, how many
        stars). With doubles an empty candy space may also be written for free: (0, 0)."""
        a, bd = self.dice
        b = self.b
        avail = power_mask(p for p in MOON_POWERS if self.can_use(p))
        pays = b.payments(a, bd, avail, self.circled - self.used_stars).get((d, int(b.space_q[space])), [])
        if a == bd and b.space_candy[space] >= 0 and (0, 0) not in pays:
            pays = [(0, 0)] + pays
        return pays

    def moves(self) -> list[Pay]:
        """Legal moves: a Pay for each way to pay for each empty space. A used space, or a
        pumpkin whose condition no payment meets, is not legal. Canonical order: `Pay.key`."""
        out = []
        for d in range(1, self.b.n):
            space = (self.pos + d) % self.b.n
            if not self.numbers[space]:
                out += [Pay(d, mask_powers(m), s) for s, m in self.payments(d, space)]
        return out

    def empty_candy(self) -> list[int]:
        """Distances to empty candy spaces, ascending (doubles and the penalty write)."""
        b = self.b
        return [d for d in range(1, b.n) if not self.numbers[(self.pos + d) % b.n]
                and b.space_candy[(self.pos + d) % b.n] >= 0]

    # ---- decisions --------------------------------------------------------------------------
    def legal_actions(self) -> list:
        if self.phase == "start":
            return list(self.b.starts)
        if self.phase == "move":
            return self._moves
        if self.phase == "pirate":
            return list(range(len(self.stash)))
        if self.phase == "cross":
            return [k for k in range(len(self.stash)) if not self.crossed[k]]
        if self.phase == "write":
            return self.empty_candy()
        return []

    def marks(self, action) -> set[str]:
        """Elements an action marks directly (what "cover" aims with)."""
        b = self.b
        if self.phase == "cross":
            return {ids.penalty_id(b.candy_ids[action])}
        if self.phase == "pirate":
            return self.candy_marks(action)
        if self.phase == "start":
            return {ids.path_id(action), ids.start_id(action)} | \
                self.candy_marks(b.space_candy[action])
        move = Pay(action) if self.phase == "write" else action
        space = (self.pos + move.d) % b.n
        out = {ids.path_id(space)}
        candy, child = b.space_candy[space], b.space_child[space]
        if candy >= 0:
            out |= self.candy_marks(candy)
        else:
            s = b.child_symbol[child]
            if self.boonus[s] < b.sym_count[s]:
                out.add(ids.boonus_id(SYMBOLS[s], self.boonus[s]))
        for p in move.powers:
            out.add(ids.power_id(b.c.children[b.moon_child[p]].id, self.power_uses[p]))
        return out

    def candy_marks(self, candy: int) -> set[str]:
        k = self.stash[candy]
        return {ids.stash_id(self.b.candy_ids[candy], k)} if k < len(self.b.c.points) else set()

    def apply_action(self, action) -> None:
        b = self.b
        if self.phase == "start":
            self.phase = "move"
            self.mark(ids.start_id(action))
            self.land(action)
        elif self.phase == "move":
            for p in action.powers:
                self.power_uses[p] += 1
                self.mark(ids.power_id(b.c.children[b.moon_child[p]].id, self.power_uses[p] - 1))
            self.used_stars += action.stars
            self.land((self.pos + action.d) % b.n)
        elif self.phase == "pirate":
            self.phase = "move"
            self.collect(action)
        elif self.phase == "cross":
            self.crossed[action] = True
            self.mark(ids.penalty_id(b.candy_ids[action]))
            self.phase = "write"
        elif self.phase == "write":
            self.phase = "move"
            self.land((self.pos + action) % b.n)
        if self.phase == "move":  # the turn is over: the next one rolls
            self.turn += 1
            self.phase = "roll"

    def clone(self) -> "State":
        c = copy.copy(self)
        for name in ("numbers", "stash", "crossed", "col_star", "boonus"):
            setattr(c, name, list(getattr(self, name)))
        c.unlocked, c.power_uses = dict(self.unlocked), dict(self.power_uses)
        c.bars, c.reached = set(self.bars), set(self.reached)
        return c

    def is_chance_node(self) -> bool:
        return self.phase == "roll" and not self.is_terminal()

    def chance_outcomes(self):
        return OUTCOMES

    def turn_index(self) -> int:
        """Turn 1 (the start) reads row 0 of the inputs and rolls no dice."""
        return self.turn - 1

    def begin_turn(self, dice: tuple[int, int]) -> None:
        self.apply_chance(dice)

    def apply_chance(self, dice: tuple[int, int]) -> None:
        """Roll. With no legal move at all (stars and powers included), the penalty: cross out a
        candy circle of the final score section (that row will score 0), then write this turn's
        number in an empty candy space of your choice, collecting its candy. Reading: the rulebook's
        "turn number in a candy box" is the number you were about to write, placed on the block
        in any empty candy space. Once every circle is crossed, a
        penalty only costs the free choice of space. Doubles always leave a move (some candy
        space is empty), so a penalty never falls on doubles."""
        self.dice = (int(dice[0]), int(dice[1]))
        self.phase = "move"
        self._moves = self.moves()
        if not self._moves:
            self.penalties += 1
            self.phase = "cross" if not all(self.crossed) else "write"

    def is_terminal(self) -> bool:
        return self.turn > self.b.turns

    def score(self) -> int:
        """Each row not crossed out scores the points above its rightmost check; each chocolate
        bar scores bar_points."""
        c = self.b.c
        rows = sum(c.points[k - 1] for k, x in zip(self.stash, self.crossed) if k and not x)
        return rows + c.bar_points * len(self.bars)

    def tie_break(self) -> int:
        """Ties go to the most circled, unused stars."""
        return self.circled - self.used_stars

    def unused_powers(self) -> int:
        c = self.b.c
        return self.tie_break() + sum(c.uses - self.power_uses[p]
                                      for p in MOON_POWERS if self.unlocked[p])

    def vector(self) -> list[int]:
        """The end state, flattened in the order the fast engine uses."""
        b = self.b
        bars = [int(e in self.bars) for e in bar_ids(b)]
        return (self.numbers + self.stash + [int(x) for x in self.crossed]
                + [int(x) for x in self.col_star] + [self.circled, self.used_stars] + self.boonus
                + [int(self.unlocked[p]) for p in MOON_POWERS] + [self.power_uses[p] for p in MOON_POWERS]
                + bars + [self.pumpkins, self.sweet, self.pos, self.penalties, self.tie_break()])


def play(board: Board, dice, u, name: str, target: str | None) -> State:
    """One game through the generic driver: the start, then one roll per turn until the last number."""
    return drive(State(board), dice, u, policy(name, board, target))


def element_ids(doc) -> list[str]:
    return Board(doc).element_ids


def reference(doc, dice, u, policy, targets) -> Batch:
    board = Board(doc)
    ids = board.element_ids
    G = len(dice)
    out = Batch(np.zeros(G, np.int64), np.zeros((G, len(ids)), bool), np.zeros(G, np.int64),
                np.zeros(G, np.int64), np.zeros(G, np.int64), np.zeros(G, np.int64), None)
    states = []
    for g in range(G):
        target = ids[targets[g]] if policy == "cover" and targets[g] >= 0 else None
        s = play(board, dice[g], u[g], policy, target)
        out.score[g] = s.score()
        out.penalties[g] = s.penalties
        out.unused_powers[g] = s.unused_powers()
        out.turns[g] = s.turn - 1  # the last number written
        for e in s.reached:
            out.reached[g, board.eid[e]] = True
        states.append(s.vector())
    out.state = np.array(states, np.int64).reshape(G, -1)
    return out


def _fast(doc, dice, u, policy, targets) -> Batch:
    from .fast import fast

    return fast(doc, dice, u, policy, targets)


RULES = Rules(game="haunt-the-block", turns=HauntContent.model_fields["turns"].default, choices_per_turn=K,
              element_ids=element_ids, reference=reference, fast=_fast,
              new_state=lambda doc: State(Board(doc)), policy=lambda name, doc: policy(name, Board(doc)))
