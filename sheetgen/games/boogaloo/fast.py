"""Boogaloo's fast engine: the reference engine's rules, vectorised over games with numpy.

Each game's sheet is a few integers: the checked boxes as bits of one uint64 (box i = bit i), the
stash as 4-bit counts per candy, `levels` as 4-bit counts of rows holding at least 1, 2, ... candies,
and the stash stars as bits. Every game advances in lockstep: each turn, one box from the dice, then
star after star while any game still holds one (the others sit that step out). The choices are the
reference's (random, greedy, cover), computed for every box at once where a policy needs values.
"""

from __future__ import annotations

import numpy as np

from ...validate.engine import Batch
from .model import BOXES_PER_CHILD, TURNS
from .rules import COVER_BONUS, K, PROGRESS_VALUE, STAR_VALUE, Board

U = np.uint64
NEG = -(1 << 30)
POP16 = np.unpackbits(np.arange(1 << 16, dtype=">u2").view(np.uint8)).reshape(-1, 16).sum(1).astype(np.int64)
# SEL16[16 * x + k]: position of the k-th set bit (from bit 0) of the 16-bit x (0 when there is none)
_SEL = np.zeros((1 << 16, 16), np.int64)
for _k in range(16):
    _x = np.arange(1 << 16)
    for _ in range(_k):
        _x &= _x - 1  # drop the lowest set bit k times
    _SEL[:, _k] = np.where(_x, np.log2(np.maximum(_x & -_x, 1)).astype(np.int64), 0)
SEL16 = _SEL.ravel()
MASK16 = U(0xFFFF)


def pick_random(legal: np.ndarray, u: np.ndarray, chunks: int) -> np.ndarray:
    """Bit number floor(u * n) among the n set bits of each `legal`, counting from bit 0: the
    random policy's legal[floor(u * n)] in box order."""
    parts = [((legal >> U(16 * j)) & MASK16).astype(np.int64) for j in range(chunks)]
    counts = [POP16[p] for p in parts]
    k = (u * sum(counts)).astype(np.int64)
    part, base = parts[0], np.zeros(len(legal), np.int64)
    for j in range(1, chunks):  # move on to chunk j while k is past the bits before it
        on = k >= counts[j - 1]
        k = np.where(on, k - counts[j - 1], k)
        part = np.where(on, parts[j], part)
        base += on
        if j + 1 < chunks:
            counts[j] = np.where(on, counts[j], 1 << 20)
    return 16 * base + SEL16[16 * part + np.minimum(k, 15)]


class Tables:
    """Per-sheet constants as arrays."""

    def __init__(self, b: Board):
        n = b.boxes
        self.B, self.C, self.S = n, len(b.candies), len(b.points)
        self.chunks = (n + 15) // 16
        self.full = U((1 << n) - 1)
        self.candy = np.array(b.candy, np.int64)
        self.child = np.arange(n) // BOXES_PER_CHILD
        row, col = self.child // b.cols, self.child % b.cols
        bit = [1 << i for i in range(n)]
        rows = [sum(bit[i] for i in range(n) if row[i] == r) for r in range(b.rows)]
        cols = [sum(bit[i] for i in range(n) if col[i] == c) for c in range(b.cols)]
        self.rowmask, self.colmask = np.array(rows, U), np.array(cols, U)
        self.row_of, self.col_of = row, col
        self.row_rest = np.array([rows[row[i]] & ~bit[i] for i in range(n)], U)  # the row but the box
        self.col_rest = np.array([cols[col[i]] & ~bit[i] for i in range(n)], U)
        self.bits = np.arange(n, dtype=U)
        self.bit = np.array(bit, U)
        self.candy_shift = (4 * self.candy).astype(U)
        self.child_mask = np.array([sum(bit[j] for j in range(n) if self.child[j] == self.child[i])
                                    for i in range(n)], U)
        self.row_mask, self.col_mask = self.rowmask[row], self.colmask[col]  # per box
        # die_mask[a, b]: boxes a roll (a, b) may check (doubles: every box)
        self.die_mask = np.zeros((7, 7), U)
        for a in range(1, 7):
            for d in range(1, 7):
                self.die_mask[a, d] = self.full if a == d else \
                    sum(bit[i] for i in range(n) if b.die[i] in (a, d))
        pts = np.array((0,) + b.points, np.int64)
        self.points = pts  # points of a row holding k candies
        self.gain = np.append(np.diff(pts), 0)  # points a row gains going from k to k+1 candies
        self.needs = np.array(b.needs + (1 << 20,), np.int64)  # column S: no star past the end
        self.needs_u = self.needs.astype(U)
        self.nb = len(b.boonus)
        self.slot_star = np.array([r == "star" for r in b.boonus] + [False])
        self.slot_bar = np.array([r == "bar" for r in b.boonus] + [False])
        self.slot_star_u, self.slot_bar_u = self.slot_star.astype(U), self.slot_bar.astype(U)
        self.rows, self.cols = b.rows, b.cols
        self.bar_points = b.bar_points


class Games:
    """The state of G games: one uint64 row per field, so a step played by some games only can
    take their columns and put them back in one operation each."""

    FIELDS = ("checked", "stash", "levels", "stars", "boonus", "bars", "pending", "stuck", "unused")

    def __init__(self, t: Tables, G: int, state: np.ndarray | None = None):
        self.t = t
        self.G = G
        self.s = np.zeros((len(self.FIELDS), G), U) if state is None else state
        for i, name in enumerate(self.FIELDS):
            setattr(self, name, self.s[i])  # views: update them in place

    def take(self, g: np.ndarray) -> "Games":
        """The games g alone (a copy), to play a step that only they take."""
        return Games(self.t, len(g), self.s[:, g])

    def put(self, g: np.ndarray, sub: "Games") -> None:
        self.s[:, g] = sub.s

    def collect(self, box: np.ndarray, act: np.ndarray | None = None) -> None:
        """Check box[g] in every game where act[g] (every game if act is None)."""
        t = self.t
        if act is None:
            grow_ok = True
            self.checked |= t.bit[box]
        else:
            grow_ok = act
            self.checked |= np.where(act, t.bit[box], U(0))
        sh = t.candy_shift[box]
        k = (self.stash >> sh) & U(15)  # candies in the row before
        grow = (k < U(t.S)) & grow_ok
        gu = grow.astype(U)
        self.stash += gu << sh
        ksh = k << U(2)
        self.levels += gu << ksh  # one more row holds k+1 or more
        rows = (self.levels >> ksh) & U(15)
        star = grow & (((self.stars >> k) & U(1)) == U(0)) & (rows >= t.needs_u[k])
        su = star.astype(U)
        self.stars |= su << k
        self.pending += su
        cm = t.child_mask[box]
        haunt = (self.checked & cm) == cm
        h = np.flatnonzero(haunt if act is None else haunt & act)  # games that haunted a child
        if len(h):
            hb, slot = box[h], self.boonus[h]
            checked = self.checked[h]
            rm, clm = t.row_mask[hb], t.col_mask[hb]
            self.pending[h] += t.slot_star_u[slot]
            self.bars[h] += t.slot_bar_u[slot] + ((checked & rm) == rm) + ((checked & clm) == clm)
            self.boonus[h] += slot < U(t.nb)

    def unpacked(self):
        """[G, B] views: box checked, candies in its row, boxes checked under its child."""
        t = self.t
        checked = ((self.checked[:, None] >> t.bits) & U(1)).astype(bool)
        k = ((self.stash[:, None] >> (4 * t.candy).astype(U)) & U(15)).astype(np.int64)
        kids = checked.reshape(self.G, -1, BOXES_PER_CHILD).sum(2)
        return checked, k, kids[:, t.child]

    def values(self, k: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Greedy's value of every box in every game (the reference's `value`), [G, B]."""
        t = self.t
        rows = ((self.levels[:, None] >> (4 * k).astype(U)) & U(15)).astype(np.int64)
        free = ((self.stars[:, None] >> k.astype(U)) & U(1)) == 0
        star = (free & (rows + 1 >= t.needs[k])).astype(np.int64)
        haunt = p == BOXES_PER_CHILD - 1
        c = self.checked[:, None]
        bars = (haunt & t.slot_bar[self.boonus][:, None]).astype(np.int64) \
            + ((c & t.row_rest) == t.row_rest) + ((c & t.col_rest) == t.col_rest)
        stars = star + (haunt & t.slot_star[self.boonus][:, None])
        return t.gain[k] + bars * t.bar_points + STAR_VALUE * stars + PROGRESS_VALUE * p

    def counts(self) -> np.ndarray:
        """[G, C] candies per stash row (4 bits each: low then high half of each byte)."""
        b = self.stash.astype("<u8").view(np.uint8).reshape(self.G, 8)
        return np.stack([b & 15, b >> 4], 2).reshape(self.G, 16)[:, :self.t.C].astype(np.int64)


def cover_plan(t: Tables, ids: list[str], targets: np.ndarray):
    """Per game: a fixed [G, B] preference (box, stash circle, row, column targets), the stash
    column whose star is aimed at (0 = none) and whether a Boo-nus reward is aimed at."""
    static = np.zeros((len(ids), t.B), np.int64)
    star_col = np.zeros(len(ids), np.int64)
    boonus = np.zeros(len(ids), bool)
    candies = [n.split(".")[1] for n in ids if n.startswith("stash.") and n.endswith(".1")
               and not n.startswith("stash.star.")]
    for e, name in enumerate(ids):
        part = name.split(".")
        if part[0] == "child":
            static[e, e] = 1  # box ids come first, in box order
        elif part[:2] == ["stash", "star"]:
            star_col[e] = int(part[2])
        elif part[0] == "stash":
            static[e] = t.candy == candies.index(part[1])
        elif part[0] == "boonus":
            boonus[e] = True
        elif part[:2] == ["bar", "row"]:
            static[e] = t.row_of == int(part[2]) - 1
        elif part[:2] == ["bar", "col"]:
            static[e] = t.col_of == int(part[2]) - 1
    on = targets >= 0
    idx = np.where(on, targets, 0)
    return static[idx] * on[:, None], star_col[idx] * on, boonus[idx] & on


def choose(games: Games, legal: np.ndarray, policy: str, u: np.ndarray, plan) -> np.ndarray:
    """The box each game picks among its legal ones (a bit mask each; 0 picks box 0, masked later)."""
    t = games.t
    if policy == "random":
        return pick_random(legal, u, t.chunks)
    _, k, p = games.unpacked()
    v = games.values(k, p)
    if policy == "cover":
        static, star_col, boonus = plan
        v = v + COVER_BONUS * (static + (k < star_col[:, None]) + boonus[:, None] * (p + 1))
    ok = ((legal[:, None] >> t.bits) & U(1)).astype(bool)
    return np.where(ok, v, NEG).argmax(1)


def _bits(x: np.ndarray, n: int) -> np.ndarray:
    """[G, n] bool: bit i of each x."""
    return np.unpackbits(x.astype("<u8").view(np.uint8).reshape(len(x), 8), axis=1,
                         bitorder="little")[:, :n].astype(bool)


def play_fast(b: Board, ids: list[str], dice, u, policy: str, targets) -> Batch:
    t = Tables(b)
    G = len(dice)
    games = Games(t, G)
    plan = cover_plan(t, ids, np.asarray(targets)) if policy == "cover" else None
    rolls = t.die_mask.ravel()[7 * dice[:, :, 0].astype(np.intp) + dice[:, :, 1]]  # [G, T]: boxes a roll may check
    for turn in range(TURNS):
        legal = ~games.checked & rolls[:, turn]
        box = choose(games, legal, policy, u[:, turn, 0], plan)
        if (legal != 0).all():
            games.collect(box)
        else:  # a roll matching no open box checks nothing
            can = legal != 0
            games.stuck += ~can
            games.collect(box, can)
        n = 1
        while True:  # stars, one at a time, played by the games that hold one
            g = np.flatnonzero(games.pending)
            if not len(g):
                break
            sub = games.take(g)
            legal = ~sub.checked & t.full
            if (legal != 0).all():
                sub.pending -= U(1)
                act = None
            else:  # no open box left: the stars are lost
                act = legal != 0
                sub.unused += np.where(act, U(0), sub.pending)
                sub.pending[:] = np.where(act, sub.pending - act, U(0))
            part = plan and tuple(x[g] for x in plan)
            sub.collect(choose(sub, legal, policy, u[g, turn, n % K], part), act)
            games.put(g, sub)
            n += 1
    checked = _bits(games.checked, t.B)
    stash = games.counts()
    stars = _bits(games.stars, t.S)
    row_bars = (games.checked[:, None] & t.rowmask) == t.rowmask
    col_bars = (games.checked[:, None] & t.colmask) == t.colmask
    turns = np.full(G, TURNS, np.int64)
    reached = np.concatenate([checked, (stash[:, :, None] >= np.arange(1, t.S + 1)).reshape(G, -1), stars,
                              games.boonus[:, None] >= np.arange(1, t.nb + 1, dtype=U), row_bars, col_bars,
                              np.ones((G, TURNS), bool)], 1)
    boonus, bars, pending = (x.astype(np.int64) for x in (games.boonus, games.bars, games.pending))
    state = np.concatenate([checked, stash, stars, boonus[:, None], row_bars, col_bars,
                            bars[:, None], turns[:, None], pending[:, None]], 1).astype(np.int64)
    score = t.points[stash].sum(1) + bars * t.bar_points
    return Batch(score=score, reached=reached, penalties=np.zeros(G, np.int64),
                 unused_powers=games.unused.astype(np.int64), stuck=games.stuck.astype(np.int64),
                 turns=turns, state=state)
