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
- Full moon: die 1 then die 2 each collect under a child of the player's choice (a die whose value
  no box can take is skipped), then the player scares a child who is not yet scared (the choice is
  the player's, but not a child already scared).
- Immediate effects wait in a queue and resolve one at a time in a fixed order: pyramid boxes,
  cauldron boxes, cauldron/pyramid choices of stash columns (left first), Boo-nus row actions, stars.
- A pyramid or cauldron earned when its section is full, or a star with no box left, is lost (it is
  counted among `unused_powers`).
- The Boo-nus section fills left to right in each row; a column's bar is circled when all its cells
  are checked, a row's action is taken when the row is full.
- Tie-break: the furthest stash column reached (`tiebreak`); a further tie is shared.

Policies (`choose`, `values`): random takes option floor(u * n) of the n legal ones; greedy takes
the option of highest value, the first on ties. A box is worth 10 x the points its candy adds, plus
3 per unfinished symbol it belongs to and 30 more per symbol it completes; a plan loses the cost of
its scare (5 per earlier scare, 400 for a skull, 40 if a skull power can skip it). Cover is greedy
plus 10,000 for every option that helps its target element (`helps`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...validate.engine import Batch, Rules
from .model import BOONUS, IMMEDIATE, POWERS, TrickySheet

K = 8  # uniforms per turn for the random policy (slots reused modulo K)
BIG = 10_000  # the cover policy's bonus for an action that helps its target


# ---- static tables (shared by both engines) ----------------------------------------------------

@dataclass
class Tables:
    """The sheet's content as arrays. Children are indexed by their number - 1; box b is child
    b // 6, die value b % 6 + 1. Symbols: the power symbols (child order, then left to right),
    then one Boo-nus symbol per child, then a dummy that no box completes."""

    turns: int
    child_ids: list[str]
    candy_ids: list[str]
    box_candy: np.ndarray  # [36] candy index
    n_pow: int  # power symbols
    sym_child: np.ndarray  # [S]
    sym_kind: np.ndarray  # [S] power index (POWERS) for powers, 6 + Boo-nus index for Boo-nus symbols
    sym_mask: np.ndarray  # [S] int64 bit mask of linked boxes
    sym_size: np.ndarray  # [S + 1] number of linked boxes (dummy: huge)
    box_syms: np.ndarray  # [36, 2] symbols a box belongs to (dummy-padded)
    boonus_len: np.ndarray  # [3] cells in each Boo-nus row
    points: np.ndarray  # [8] points for 0..7 candies
    rew_star: np.ndarray  # [7] bool: star (else cauldron/pyramid)
    needs: np.ndarray  # [7]
    cauldron: np.ndarray  # [NCa] candy index
    pyr_cum: np.ndarray  # [L] boxes checked when each level is full
    actions: list[str]  # Boo-nus row actions
    points_bar: int
    points_scared: int
    elements: list[str] = field(default_factory=list)

    @property
    def n_sym(self) -> int:
        return len(self.sym_child)


def tables(doc: TrickySheet) -> Tables:
    c = doc.content
    kids = sorted(c.children, key=lambda ch: ch.number)
    candy_ids = [k.id for k in c.candies]
    box_candy = np.array([candy_ids.index(kid.boxes[v]) for kid in kids for v in range(6)], np.int64)
    s_child, s_kind, s_mask = [], [], []
    for i, kid in enumerate(kids):
        for link in kid.powers:
            s_child.append(i)
            s_kind.append(POWERS.index(kid.power))
            s_mask.append(sum(1 << (i * 6 + v - 1) for v in link.boxes))
    n_pow = len(s_child)
    for i, kid in enumerate(kids):
        s_child.append(i)
        s_kind.append(6 + BOONUS.index(kid.boonus.symbol))
        s_mask.append(sum(1 << (i * 6 + v - 1) for v in kid.boonus.boxes))
    n_sym = len(s_child)
    sym_size = np.array([bin(m).count("1") for m in s_mask] + [1 << 30], np.int64)
    box_syms = np.full((36, 2), n_sym, np.int64)
    for b in range(36):
        found = [s for s in range(n_sym) if s_mask[s] >> b & 1]
        box_syms[b, :len(found)] = found
    t = Tables(
        turns=c.turns, child_ids=[k.id for k in kids], candy_ids=candy_ids, box_candy=box_candy,
        n_pow=n_pow, sym_child=np.array(s_child, np.int64), sym_kind=np.array(s_kind, np.int64),
        sym_mask=np.array(s_mask, np.int64), sym_size=sym_size, box_syms=box_syms,
        boonus_len=np.array([n for _, n in c.boonus_rows()], np.int64),
        points=np.array([0] + c.stash.points, np.int64),
        rew_star=np.array([r.kind == "star" for r in c.stash.rewards]),
        needs=np.array([r.needs for r in c.stash.rewards], np.int64),
        cauldron=np.array([candy_ids.index(k) for k in c.cauldron], np.int64),
        pyr_cum=np.cumsum(c.pyramid).astype(np.int64), actions=list(c.boonus_actions),
        points_bar=c.points_bar, points_scared=c.points_scared)
    t.elements = _element_ids(doc, t)
    return t


def _element_ids(doc: TrickySheet, t: Tables) -> list[str]:
    c = doc.content
    kids = sorted(c.children, key=lambda ch: ch.number)
    out = [f"child.{k.id}.box.{v}" for k in kids for v in range(1, 7)]
    out += [f"child.{k.id}.scare.{j}" for k in kids for j in (1, 2, 3)]
    out += [f"child.{k.id}.power.{j}" for k in kids for j in range(1, len(k.powers) + 1)]
    out += [f"child.{k.id}.boonus" for k in kids]
    out += [f"stash.{cid}.{n}" for cid in t.candy_ids for n in range(1, 8)]
    for i, r in enumerate(c.stash.rewards, 1):
        out += [f"stash.reward.{i}.star"] if r.kind == "star" else [f"stash.reward.{i}.cauldron",
                                                                     f"stash.reward.{i}.pyramid"]
    out += [f"cauldron.{i}" for i in range(1, len(c.cauldron) + 1)]
    out += [f"pyramid.{n}" for n in range(1, int(t.pyr_cum[-1]) + 1)]
    out += [f"pyramid.bar.{lv}" for lv in range(1, len(t.pyr_cum) + 1)]
    for s, n in c.boonus_rows():
        out += [f"boonus.{s}.{j}" for j in range(1, n + 1)]
    out += [f"boonus.row.{s}" for s in BOONUS]
    out += [f"boonus.bar.{j}" for j in range(1, int(t.boonus_len.max()) + 1)]
    out += [f"track.turn.{n}" for n in range(1, c.turns + 1)]
    return out


def element_ids(doc: TrickySheet) -> list[str]:
    return tables(doc).elements


# ---- the flat end state, and what is read from it (same code for both engines) ------------------
# boxes 36 | scares 6 | stash 6 | unlocked n_pow | used 6 (per power) | boonus done 6 |
# boonus count 3 | reward state 7 (0 not earned, 1 star / cauldron chosen, 2 pyramid chosen,
# 3 waiting for the choice, 4 lost) | cauldron NCa | pyramid 1 | lost 1 | missed 1 | turn 1

def layout_of(t: Tables) -> dict[str, slice]:
    sizes = [("boxes", 36), ("scares", 6), ("stash", 6), ("unlocked", t.n_pow), ("used", 6),
             ("boonus", 6), ("bcount", 3), ("reward", 7), ("cauldron", len(t.cauldron)),
             ("pyramid", 1), ("lost", 1), ("missed", 1), ("turn", 1)]
    out, at = {}, 0
    for name, n in sizes:
        out[name] = slice(at, at + n)
        at += n
    out["_size"] = slice(0, at)
    return out


def boonus_bars(t: Tables, state: np.ndarray) -> list[np.ndarray]:
    """Per Boo-nus column j, [G] bool: full (every row long enough has more than j cells checked)."""
    cnt = state[:, layout_of(t)["bcount"]]
    out = []
    for j in range(int(t.boonus_len.max())):
        full = [cnt[:, s] > j for s in range(3) if t.boonus_len[s] > j]
        out.append(np.logical_and.reduce(full) if len(full) > 1 else full[0])
    return out


def bars(t: Tables, state: np.ndarray) -> np.ndarray:
    """Chocolate bars per game: full pyramid levels plus full Boo-nus columns."""
    pyr = (state[:, layout_of(t)["pyramid"]] >= t.pyr_cum[None, :]).sum(1)
    return pyr + np.sum(boonus_bars(t, state), axis=0)


def scores(t: Tables, state: np.ndarray) -> np.ndarray:
    L = layout_of(t)
    stash = t.points[state[:, L["stash"]]].sum(1)
    scared = (state[:, L["scares"]] >= 3).sum(1)
    return stash + t.points_bar * bars(t, state) - t.points_scared * scared


def tiebreak(t: Tables, state: np.ndarray) -> np.ndarray:
    """Ties go to the stash that reaches furthest toward column 7."""
    return state[:, layout_of(t)["stash"]].max(1)


def _reach_spec(t: Tables):
    """Per element, in `elements` order: the state column it reads and the least value that marks
    it (`>=`); stash reward choices need an exact value (`==`); Boo-nus bars read several columns."""
    cached = t.__dict__.get("_reach")
    if cached is not None:
        return cached
    L = layout_of(t)
    at = lambda k, i=0: L[k].start + i
    cols, thr, eq, bar = [], [], [], []
    ge = lambda c, v: (cols.append(c), thr.append(v))
    for b in range(36):
        ge(at("boxes", b), 1)
    for c in range(6):
        for j in (1, 2, 3):
            ge(at("scares", c), j)
    for i in range(t.n_pow):
        ge(at("unlocked", i), 1)
    for c in range(6):
        ge(at("boonus", c), 1)
    for k in range(6):
        for n in range(1, 8):
            ge(at("stash", k), n)
    for i in range(7):
        for v in ((1,) if t.rew_star[i] else (1, 2)):
            eq.append(len(cols))
            ge(at("reward", i), v)
    for i in range(len(t.cauldron)):
        ge(at("cauldron", i), 1)
    for n in list(range(1, int(t.pyr_cum[-1]) + 1)) + [int(x) for x in t.pyr_cum]:
        ge(at("pyramid"), n)
    for s in range(3):
        for n in range(1, int(t.boonus_len[s]) + 1):
            ge(at("bcount", s), n)
    for s in range(3):
        ge(at("bcount", s), int(t.boonus_len[s]))
    for j in range(int(t.boonus_len.max())):
        bar.append(len(cols))
        ge(at("bcount"), 0)  # placeholder, filled from every row's count
    for n in range(1, t.turns + 1):
        ge(at("turn"), n)
    spec = (np.array(cols, np.intp), np.array(thr, np.int16), np.array(eq, np.intp), np.array(bar, np.intp))
    t.__dict__["_reach"] = spec
    return spec


def reached(t: Tables, state: np.ndarray) -> np.ndarray:
    """Every mark on the sheet is permanent, so what a game reached is read from its end state."""
    cols, thr, eq, bar = _reach_spec(t)
    v = state[:, cols]
    out = v >= thr
    out[:, eq] = v[:, eq] == thr[eq]
    for e, full in zip(bar, boonus_bars(t, state)):
        out[:, e] = full
    return out


def finish(t: Tables, state: np.ndarray) -> Batch:
    L = layout_of(t)
    unlocked = state[:, L["unlocked"]]
    kinds = t.sym_kind[:t.n_pow]
    per_kind = np.stack([unlocked[:, kinds == p].sum(1) for p in range(6)], axis=1)
    optional = np.array([p not in IMMEDIATE for p in POWERS])
    unused = ((per_kind - state[:, L["used"]]) * optional[None, :]).sum(1) + state[:, L["lost"]][:, 0]
    return Batch(score=scores(t, state).astype(np.int64), reached=reached(t, state),
                 penalties=state[:, L["missed"]][:, 0].astype(np.int64),  # missed collects
                 unused_powers=unused.astype(np.int64),
                 stuck=np.zeros(len(state), np.int64),  # every roll leaves a legal move
                 turns=state[:, L["turn"]][:, 0].astype(np.int64), state=state)


# ---- cover targets ------------------------------------------------------------------------------

@dataclass
class Help:
    """What helps a cover game toward its target element."""

    boxes: int = 0  # bit mask of helpful boxes
    candies: int = 0  # bit mask of helpful candy types
    scare: int = -1  # a child to scare
    cauldron: bool = False  # prefer a cauldron when choosing
    pyramid: bool = False
    cauldron_box: int = -1
    column: int = -1  # only this stash column's cauldron/pyramid choice counts (-1: any)

    @property
    def star(self) -> bool:
        return bool(self.boxes or self.candies)


def helps(t: Tables, e: int) -> Help:
    if e < 0:
        return Help()
    name = t.elements[e]
    part = name.split(".")
    kids = t.child_ids
    if part[0] == "child":
        c = kids.index(part[1])
        if part[2] == "box":
            return Help(boxes=1 << (c * 6 + int(part[3]) - 1))
        if part[2] == "scare":
            return Help(scare=c)
        if part[2] == "power":
            syms = [s for s in range(t.n_pow) if t.sym_child[s] == c]
            return Help(boxes=int(t.sym_mask[syms[int(part[3]) - 1]]))
        return Help(boxes=int(t.sym_mask[t.n_pow + c]))
    if part[0] == "stash" and part[1] == "reward":
        col = int(part[2]) - 1
        return Help(candies=63, cauldron=part[3] == "cauldron", pyramid=part[3] == "pyramid",
                    column=col if part[3] != "star" else -1)
    if part[0] == "stash":
        return Help(candies=1 << t.candy_ids.index(part[1]))
    if part[0] == "cauldron":
        return Help(cauldron=True, cauldron_box=int(part[1]) - 1)
    if part[0] == "pyramid":
        return Help(pyramid=True)
    if part[0] == "boonus":
        if part[1] in BOONUS or part[1] == "row":
            sym = part[2] if part[1] == "row" else part[1]
            kind = 6 + BOONUS.index(sym)
        else:
            kind = None
        mask = 0
        for s in range(t.n_pow, t.n_sym):
            if kind is None or t.sym_kind[s] == kind:
                mask |= int(t.sym_mask[s])
        return Help(boxes=mask)
    return Help()


# ---- the reference engine -----------------------------------------------------------------------

@dataclass
class Decision:
    kind: str  # plan, moon, moon_collect, moon_scare, skull, any_box, bat, bone, cauldron, cp, row
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

    # -- OpenSpiel-like interface -----------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.turn >= self.t.turns and self.decision is None

    def roll(self, a: int, b: int) -> None:
        """Chance: the dice of the next turn."""
        assert self.decision is None and not self.is_terminal()
        self._gen = self._turn(a, b)
        self._advance(None)

    def legal_actions(self) -> list:
        return list(self.decision.options) if self.decision else []

    def apply_action(self, index: int) -> None:
        """Answer the current decision with the option at `index` (canonical order)."""
        self._advance(self.decision.options[index])

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
        Then one unlocked bone may be crossed out for a candy of choice in the stash."""
        options = self.any_boxes()
        if options:
            box = yield Decision("any_box", options)
            yield from self._collect(box)
        else:
            self.missed += 1
        if self.ready("bone") and self.open_types():
            choice = yield Decision("bone", [None] + self.open_types())
            if choice is not None:
                self.used[POWERS.index("bone")] += 1
                self._add_candy(choice)
                yield from self._resolve()

    def _plain_turn(self, a: int, b: int):
        dice = (a, b)
        moon = False
        if self.ready("full_moon"):
            moon = (yield Decision("moon", [False, True], {"dice": dice})) is True
        if moon:
            # Full moon: each die collects (die 1 first), then a child of the player's choice is scared.
            self.used[POWERS.index("full_moon")] += 1
            for d in dice:
                options = [b // 6 for b in self.boxes_for(d)]
                if options:
                    c = yield Decision("moon_collect", options, {"value": d})
                    yield from self._collect(c * 6 + d - 1)
            calm = [c for c in range(6) if not self.scared(c)]
            if calm and not (yield from self._skull(None)):
                c = yield Decision("moon_scare", calm)
                self._scare(c)
            return
        # Collect with one die, scare with the other.
        options = [(i, c) for i in (0, 1) for c in range(6) if self.available(c * 6 + dice[i] - 1)]
        if not options:
            # No box can take either die: nothing is collected; the player picks the scare die.
            self.missed += 1
            options = [(0, None), (1, None)]
        i, c = yield Decision("plan", options, {"dice": dice})
        if c is not None:
            yield from self._collect(c * 6 + dice[i] - 1)
        target = dice[1 - i] - 1
        # A die that would scare a child already scared is ignored.
        if not self.scared(target) and not (yield from self._skull(target)):
            self._scare(target)

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


# ---- policies (reference side) ------------------------------------------------------------------

def gain(t: Tables, st: State, k: int) -> int:
    """Points a candy of type k adds to the stash now."""
    n = st.stash[k]
    return 0 if n >= 7 else int(t.points[n + 1] - t.points[n])


def box_value(t: Tables, st: State, b: int, h: Help) -> int:
    v = 10 * gain(t, st, int(t.box_candy[b]))
    for s in t.box_syms[b]:
        if not st.done[s]:
            v += 3 + (30 if st.rem[s] == 1 else 0)
    if h.boxes >> b & 1:
        v += BIG
    if h.candies >> int(t.box_candy[b]) & 1:
        v += BIG
    return v


def scare_cost(t: Tables, st: State, c: int, h: Help) -> int:
    if st.scared(c):
        return 0
    if c == h.scare:
        return -BIG
    if st.scares[c] == 2:
        return 40 if st.ready("skull") else 400
    return 5 * (st.scares[c] + 1)


def cauldron_value(t: Tables, st: State, h: Help) -> int:
    return max((10 * gain(t, st, int(t.cauldron[i])) for i in st.cauldron_open()), default=0)


def pyramid_value(t: Tables, st: State) -> int:
    if st.pyramid_full():
        return 0
    level_end = int(t.pyr_cum[np.searchsorted(t.pyr_cum, st.pyramid, side="right")])
    return 50 // (level_end - st.pyramid)


def values(t: Tables, st: State, d: Decision, h: Help) -> list[int]:
    """Greedy values of the options of a decision (cover adds BIG to what helps its target)."""
    kind, opts = d.kind, d.options
    if kind == "plan":
        dice = d.info["dice"]
        return [(box_value(t, st, c * 6 + dice[i] - 1, h) if c is not None else 0)
                - scare_cost(t, st, dice[1 - i] - 1, h) for i, c in opts]
    if kind == "moon":
        dice = d.info["dice"]
        best = [max((box_value(t, st, b, h) for b in st.boxes_for(v)), default=None) for v in dice]
        plan = max(((box_value(t, st, c * 6 + dice[i] - 1, h) - scare_cost(t, st, dice[1 - i] - 1, h))
                    for i in (0, 1) for c in range(6) if st.available(c * 6 + dice[i] - 1)), default=None)
        calm = [scare_cost(t, st, c, h) for c in range(6) if not st.scared(c)]
        if best[0] is None or best[1] is None or plan is None:
            return [1, 0]
        moon = best[0] + best[1] - (min(calm) if calm else 0)
        return [plan, moon]
    if kind == "moon_collect":
        return [box_value(t, st, c * 6 + d.info["value"] - 1, h) for c in opts]
    if kind == "moon_scare":
        return [BIG if c == h.scare else -(10 * st.scares[c] + 6 - child_checked(st, c)) for c in opts]
    if kind == "skull":
        target = d.info["target"]
        if target is None:  # full moon: the scare is a choice, a skull only helps if every choice hurts
            calm = [c for c in range(6) if not st.scared(c)]
            bad = all(st.scares[c] == 2 for c in calm) and h.scare not in calm
        else:
            bad = st.scares[target] == 2 and target != h.scare
        return [0, 1 if bad else -1]
    if kind == "any_box":
        return [box_value(t, st, b, h) for b in opts]
    if kind == "bat":
        candy = d.info["candy"]
        keep = gain(t, st, candy) + (BIG if h.candies >> candy & 1 else 0)
        return [keep] + [gain(t, st, k) - 3 + (BIG if h.candies >> k & 1 else 0) for k in opts[1:]]
    if kind == "bone":
        return [0] + [gain(t, st, k) + (BIG if h.candies >> k & 1 else 0) for k in opts[1:]]
    if kind == "cauldron":
        return [10 * gain(t, st, int(t.cauldron[i])) + (BIG if (i == h.cauldron_box or
                h.candies >> int(t.cauldron[i]) & 1) else 0) for i in opts]
    if kind in ("cp", "row"):
        col = d.info.get("column", -1)
        here = h.column in (-1, col) if kind == "cp" else h.column == -1
        out = []
        for o in opts:
            if o == "star":
                out.append(max(box_value(t, st, b, h) for b in st.any_boxes()) + (BIG if h.star else 0))
            elif o == "cauldron":
                out.append(cauldron_value(t, st, h) + (BIG if h.cauldron and here else 0))
            else:
                out.append(pyramid_value(t, st) + (BIG if h.pyramid and here else 0))
        return out
    raise ValueError(kind)


def child_checked(st: State, c: int) -> int:
    return bin(st.boxes >> (c * 6) & 63).count("1")


def choose(t: Tables, st: State, policy: str, u: float, h: Help) -> int:
    d = st.decision
    if policy == "random":
        return int(u * len(d.options))
    vals = values(t, st, d, h)
    return int(np.argmax(vals))  # first of the best: the canonical order breaks ties


def play_one(t: Tables, dice: np.ndarray, u: np.ndarray, policy: str, target: int = -1) -> State:
    st = State(t)
    h = helps(t, target) if policy == "cover" else Help()
    for turn in range(t.turns):
        st.roll(int(dice[turn, 0]), int(dice[turn, 1]))
        k = 0
        while st.decision is not None:
            st.apply_action(choose(t, st, policy, float(u[turn, k % K]), h))
            k += 1
    return st


def reference(doc: TrickySheet, dice, u, policy: str, targets) -> Batch:
    t = tables(doc)
    states = [play_one(t, dice[g], u[g], policy, int(targets[g])) for g in range(len(dice))]
    return finish(t, np.stack([s.flat() for s in states]))


def fast(doc: TrickySheet, dice, u, policy: str, targets) -> Batch:
    from .fast import play

    return play(doc, dice, u, policy, targets)


RULES = Rules(game="tricky-treats", turns=16, choices_per_turn=K, element_ids=element_ids,
              reference=reference, fast=fast)
