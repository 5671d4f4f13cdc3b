"""Tricky Treats rules: the reference engine, read against the rulebook clause by clause.

One game at a time, shaped like an OpenSpiel state: `roll(a, b)` is the chance move that starts a
turn, then the player answers decisions (`legal_actions()`, `apply_action(i)`) until the turn is
over; `is_terminal()` after the last turn; `score()`. The turn itself is written as straight-line
code (`_turn`), a generator that yields each decision and receives the answer, so it reads like the
rulebook. The fast engine (fast.py, compiled with numba) plays the same decisions in the same order;
both engines end in the same flat state, from which `reached` and the score are read.

Readings chosen where the rulebook is ambiguous (each is also stated where it is applied):
- Collecting is mandatory when a box can take a die; a player may not "collect nothing" to pick
  which child to scare. When no box can take either die (late in a game, with children scared),
  the collect is skipped, as the rulebook skips a scare no child can take, and the player picks
  which die scares. That is a legal turn, not a stuck one: `stuck` stays 0, and `Batch.penalties`
  counts these missed collects (the same reading as Boogaloo's lost turns), so a designer sees how
  often it happens. Doubles with no box left are missed too.
- Doubles: one box of any value under any child who is not scared; no scare that turn.
- Stars, full moon and doubles also only take boxes of children who are not scared.
- A stash row holds 7 circles; an eighth candy of that type is lost (its box is still crossed).
- Each turn-wide power (full moon, skull) is one symbol per turn; the bone is one per doubles roll;
  a bat changes one collected candy. Full moon and skull are for turns without doubles.
- A power can be used as soon as it is circled: a skull unlocked by this turn's collect may skip
  this turn's scare, a bat unlocked by a collect may change the next candy collected (a star's).
- A bat changes candies taken from a child's box (die, doubles, star, full moon), not candies
  from the CAULDRON or a bone, which are of the player's choice anyway.
- Full moon: both dice collect, each under a child of the player's choice, the die the player
  picks first (a die whose value no box can take is skipped); then the player scares a child who
  is not yet scared (the choice is the player's, but not a child already scared). A full moon
  ready at the start of a turn is taken or declined before the dice are used; one circled by the
  turn's collect may be used at once (the other die collects instead of scaring) or kept.
- Bones: one per doubles roll (the rulebook speaks of a single bone); the layout's rules option
  `bones_per_doubles: any` lets the player spend several, choosing how many.
- Immediate effects wait in a queue and resolve one at a time in a fixed order: pyramid boxes,
  cauldron boxes, cauldron/pyramid choices of stash columns (left first), Boo-nus row actions, stars.
- A pyramid or cauldron earned when its section is full, or a star with no box left, is lost (it is
  counted among `unused_powers`).
- The Boo-nus section fills left to right in each row; a column's bar is circled when all its cells
  are checked, a row's action is taken when the row is full.
- Tie-break: the furthest stash column reached (`tiebreak`); a further tie is shared.

Policies: policy.py (random, greedy and cover, with greedy's weights by name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...validate.driver import OUTCOMES, play as drive
from ...validate.engine import Batch, Rules
from .board import Tables, element_ids, finish, scores, tables
from .model import IMMEDIATE, POWERS, TrickyContent, TrickySheet
from .policy import K, policy


# ---- the reference engine -----------------------------------------------------------------------

@dataclass
class Decision:
    kind: str  # plan, moon, moon_first, moon_late, moon_collect, moon_scare, skull, any_box, bat, bone,
    # cauldron, cp, row
    options: list
    info: dict = field(default_factory=dict)


class State:
    """One player's sheet during a game."""

    def __init__(self, t: Tables):
        self.t = t
        self.boxes = 0  # bit b set: box b crossed out
        self.scares = [0] * 6
        self.stash = [0] * 6
        self.unlocked = [False] * t.n_pow
        self.used = [0] * 6  # power symbols crossed out, per power
        self.boonus = [False] * 6
        self.bcount = [0, 0, 0]
        self.reward = [0] * 7
        self.cauldron = [False] * len(t.cauldron)
        self.pyramid = 0
        self.lost = 0
        self.missed = 0  # collects no box could take
        self.turn = 0
        self.rem = [int(n) for n in t.sym_size]  # unchecked linked boxes per symbol
        self.done = [False] * t.n_sym + [True]
        self.pending = {"pyramid": 0, "cauldron": 0, "row": 0, "star": 0}
        self._gen = None
        self.decision: Decision | None = None
        self.log: list = []  # the rolls and answers so far (clone replays them)

    # -- questions the rules ask ------------------------------------------------------------------
    def scared(self, c: int) -> bool:
        return self.scares[c] >= 3

    def available(self, b: int) -> bool:
        """A box can be crossed out when it is empty and its child is not scared."""
        return not (self.boxes >> b & 1) and not self.scared(b // 6)

    def boxes_for(self, value: int) -> list[int]:
        return [c * 6 + value - 1 for c in range(6) if self.available(c * 6 + value - 1)]

    def any_boxes(self) -> list[int]:
        return [b for b in range(36) if self.available(b)]

    def ready(self, power: str) -> int:
        """Unlocked, not yet crossed-out symbols of a power."""
        p = POWERS.index(power)
        return sum(u for u, k in zip(self.unlocked, self.t.sym_kind) if k == p) - self.used[p]

    def open_types(self) -> list[int]:
        return [k for k in range(6) if self.stash[k] < 7]

    def pyramid_full(self) -> bool:
        return self.pyramid >= self.t.pyr_cum[-1]

    def cauldron_open(self) -> list[int]:
        return [i for i, x in enumerate(self.cauldron) if not x]

    # -- the driver's protocol --------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.turn >= self.t.turns and self.decision is None

    def is_chance_node(self) -> bool:
        return self.decision is None and not self.is_terminal()

    def chance_outcomes(self):
        return OUTCOMES

    def turn_index(self) -> int:
        return self.turn

    def apply_chance(self, dice: tuple[int, int]) -> None:
        """Chance: the dice of the next turn."""
        assert self.is_chance_node()
        self.log.append(("roll", dice))
        self._gen = self._turn(int(dice[0]), int(dice[1]))
        self._advance(None)

    def roll(self, a: int, b: int) -> None:
        self.apply_chance((a, b))

    def legal_actions(self) -> list:
        return list(self.decision.options) if self.decision else []

    def apply_action(self, action) -> None:
        """Answer the current decision with one of its options (a value of `legal_actions()`)."""
        assert any(action is o or action == o for o in self.decision.options), (action, self.decision)
        self.log.append(("act", action))
        self._advance(action)

    def apply_index(self, index: int) -> None:
        """Answer with the option at `index` (canonical order)."""
        self.apply_action(self.decision.options[index])

    def clone(self) -> "State":
        """The same sheet, replayed from its log (a turn in progress is a generator: not copyable)."""
        c = State(self.t)
        for kind, x in self.log:
            (c.apply_chance if kind == "roll" else c.apply_action)(x)
        return c

    def _advance(self, answer) -> None:
        try:
            self.decision = self._gen.send(answer) if answer is not None or self.decision else next(self._gen)
        except StopIteration:
            self.decision = None

    def score(self) -> int:
        return int(scores(self.t, self.flat()[None, :])[0])

    def flat(self) -> np.ndarray:
        parts = [[self.boxes >> b & 1 for b in range(36)], self.scares, self.stash,
                 [int(u) for u in self.unlocked], self.used, [int(x) for x in self.boonus], self.bcount,
                 self.reward, [int(x) for x in self.cauldron], [self.pyramid], [self.lost], [self.missed],
                 [self.turn]]
        return np.array([v for p in parts for v in p], np.int64)

    # -- a turn, as the rulebook tells it ---------------------------------------------------------
    def _turn(self, a: int, b: int):
        if a == b:
            yield from self._doubles()
        else:
            yield from self._plain_turn(a, b)
        self.turn += 1  # end of the turn: check the next turn on the track

    def _doubles(self):
        """Doubles: ignore the values; cross out a box under any child (not scared), no scare.
        Then unlocked bones may be crossed out, a candy of choice in the stash each: one per roll,
        or as many as the player chooses under the rules option bones_per_doubles: any."""
        options = self.any_boxes()
        if options:
            box = yield Decision("any_box", options)
            yield from self._collect(box)
        else:
            self.missed += 1
        while self.ready("bone") and self.open_types():
            choice = yield Decision("bone", [None] + self.open_types())
            if choice is None:
                return
            self.used[POWERS.index("bone")] += 1
            self._add_candy(choice)
            yield from self._resolve()
            if not self.t.bones_any:
                return

    def _plain_turn(self, a: int, b: int):
        dice = (a, b)
        moons = self.ready("full_moon")
        if moons and (yield Decision("moon", [False, True], {"dice": dice})) is True:
            # Full moon: both dice collect, the first from a die of the player's choice, then a
            # child of the player's choice is scared.
            self.used[POWERS.index("full_moon")] += 1
            options = self._die_child(dice)
            if options:
                i, c = yield Decision("moon_first", options, {"dice": dice})
                yield from self._collect(c * 6 + dice[i] - 1)
                yield from self._moon_collect(dice[1 - i])
            yield from self._moon_scare()
            return
        # Collect with one die, scare with the other.
        options = self._die_child(dice)
        if not options:
            # No box can take either die: nothing is collected; the player picks the scare die.
            self.missed += 1
            options = [(0, None), (1, None)]
        i, c = yield Decision("plan", options, {"dice": dice})
        target = dice[1 - i] - 1
        if c is not None:
            yield from self._collect(c * 6 + dice[i] - 1)
            # A full moon circled by this collect may be used at once (the other die collects too,
            # then a child of choice is scared) or kept for a later turn.
            if self.ready("full_moon") > moons and (
                    yield Decision("moon_late", [False, True], {"value": dice[1 - i], "target": target})):
                self.used[POWERS.index("full_moon")] += 1
                yield from self._moon_collect(dice[1 - i])
                yield from self._moon_scare()
                return
        # A die that would scare a child already scared is ignored.
        if not self.scared(target) and not (yield from self._skull(target)):
            self._scare(target)

    def _die_child(self, dice) -> list[tuple[int, int]]:
        """(die index, child) pairs whose box takes that die: die 1's children first."""
        return [(i, c) for i in (0, 1) for c in range(6) if self.available(c * 6 + dice[i] - 1)]

    def _moon_collect(self, d: int):
        """The full moon's other die collects under a child of choice (skipped if no box takes it)."""
        options = [b // 6 for b in self.boxes_for(d)]
        if options:
            c = yield Decision("moon_collect", options, {"value": d})
            yield from self._collect(c * 6 + d - 1)

    def _moon_scare(self):
        """After a full moon's collects: a child of choice who is not scared yet (a skull may skip it)."""
        calm = [c for c in range(6) if not self.scared(c)]
        if calm and not (yield from self._skull(None)):
            c = yield Decision("moon_scare", calm)
            self._scare(c)

    def _skull(self, target):
        """Zombie: an unlocked skull may be crossed out to skip this turn's scare."""
        if not self.ready("skull"):
            return False
        use = yield Decision("skull", [False, True], {"target": target})
        if use:
            self.used[POWERS.index("skull")] += 1
        return use

    def _scare(self, c: int) -> None:
        self.scares[c] += 1  # the third circle is the skull: the child is scared

    # -- collecting -------------------------------------------------------------------------------
    def _collect(self, box: int):
        """Cross out a box, stash its candy (a bat may change it), unlock what it completes, then
        resolve every immediate effect."""
        self.boxes |= 1 << box
        candy = int(self.t.box_candy[box])
        if self.ready("bat"):
            choice = yield Decision("bat", [None] + [k for k in self.open_types() if k != candy],
                                    {"candy": candy})
            if choice is not None:
                self.used[POWERS.index("bat")] += 1
                candy = choice
        self._add_candy(candy)
        self._unlock(box)
        yield from self._resolve()

    def _add_candy(self, k: int) -> None:
        """Check the leftmost empty circle of the candy's row; a column that reaches its number of
        checked circles earns its reward (in any order, once)."""
        if self.stash[k] >= 7:
            return
        self.stash[k] += 1
        col = self.stash[k] - 1
        if self.reward[col] == 0 and sum(n > col for n in self.stash) >= self.t.needs[col]:
            if self.t.rew_star[col]:
                self.reward[col] = 1
                self.pending["star"] += 1
            else:
                self.reward[col] = 3  # waits for the cauldron-or-pyramid choice

    def _unlock(self, box: int) -> None:
        t = self.t
        for s in t.box_syms[box]:
            s = int(s)
            self.rem[s] -= 1
            if self.rem[s] or self.done[s]:
                continue
            self.done[s] = True
            if s < t.n_pow:
                self.unlocked[s] = True  # circle the symbol
                power = POWERS[t.sym_kind[s]]
                if power in IMMEDIATE:  # in a square: used at once
                    self.used[POWERS.index(power)] += 1
                    self.pending[power] += 1
            else:
                c = s - t.n_pow
                self.boonus[c] = True  # cross it out, check the next cell of its row
                row = int(t.sym_kind[s]) - 6
                self.bcount[row] += 1
                if self.bcount[row] == t.boonus_len[row]:
                    self.pending["row"] += 1

    def _resolve(self):
        """Immediate effects, one at a time, in a fixed order (see the module docstring)."""
        p = self.pending
        while True:
            if p["pyramid"]:
                p["pyramid"] -= 1
                if self.pyramid_full():
                    self.lost += 1
                else:
                    self.pyramid += 1  # lowest level first
            elif p["cauldron"]:
                p["cauldron"] -= 1
                options = self.cauldron_open()
                if not options:
                    self.lost += 1
                    continue
                i = yield Decision("cauldron", options)
                self.cauldron[i] = True
                self._add_candy(int(self.t.cauldron[i]))
            elif 3 in self.reward:
                col = self.reward.index(3)
                options = (["cauldron"] if self.cauldron_open() else []) + \
                          (["pyramid"] if not self.pyramid_full() else [])
                if not options:
                    self.reward[col] = 4
                    self.lost += 1
                    continue
                pick = yield Decision("cp", options, {"column": col})
                self.reward[col] = 1 if pick == "cauldron" else 2
                p[pick] += 1
            elif p["row"]:
                p["row"] -= 1
                options = [a for a in self.t.actions if self._can(a)]
                if not options:
                    self.lost += 1
                    continue
                pick = yield Decision("row", options)
                p[pick] += 1
            elif p["star"]:
                p["star"] -= 1
                options = self.any_boxes()
                if not options:
                    self.lost += 1
                    continue
                box = yield Decision("any_box", options)
                yield from self._collect(box)
            else:
                return

    def _can(self, action: str) -> bool:
        if action == "star":
            return bool(self.any_boxes())
        if action == "cauldron":
            return bool(self.cauldron_open())
        return not self.pyramid_full()


def play_one(t: Tables, dice: np.ndarray, u: np.ndarray, name: str, target: int = -1) -> State:
    """One game through the generic driver."""
    return drive(State(t), dice, u, policy(name, t, target))


def reference(doc: TrickySheet, dice, u, policy: str, targets) -> Batch:
    t = tables(doc)
    states = [play_one(t, dice[g], u[g], policy, int(targets[g])) for g in range(len(dice))]
    return finish(t, np.stack([s.flat() for s in states]))


def fast(doc: TrickySheet, dice, u, policy: str, targets) -> Batch:
    from .fast import play

    return play(doc, dice, u, policy, targets)


RULES = Rules(game="tricky-treats", turns=TrickyContent.model_fields["turns"].default, choices_per_turn=K,
              element_ids=element_ids,
              reference=reference, fast=fast,
              new_state=lambda doc: State(tables(doc)), policy=lambda name, doc: policy(name, tables(doc)))
