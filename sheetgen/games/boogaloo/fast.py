"""Boogaloo's fast engine: the reference engine's rules, vectorised over games with numpy.

Each game's sheet is a few integers: the checked boxes as bits of one uint64 (box i = bit i), the
stash as 4-bit counts per candy, `levels` as 4-bit counts of rows holding at least 1, 2, ... candies,
and the stash stars as bits. Every game advances in lockstep: each turn, one box from the dice, then
star after star while any game still holds one (the others sit that step out). The choices are the
reference's (random, greedy, cover), computed for every box at once where a policy needs values.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...validate.engine import Batch
from .model import BOXES_PER_CHILD, TURNS
from .rules import COVER_BONUS, K, PROGRESS_VALUE, STAR_VALUE, Board

U = np.uint64
NEG = -(1 << 30)
CHUNK = 12  # bits looked up at once: 4096-entry tables stay in the CPU cache
POP = np.array([bin(i).count("1") for i in range(1 << CHUNK)], np.int8)
# SEL[CHUNK * x + k]: position of the k-th set bit (from bit 0) of the CHUNK-bit x (0 if none)
SEL = np.zeros((1 << CHUNK, CHUNK), np.int8)
for _x in range(1 << CHUNK):
    for _k, _bit in enumerate(i for i in range(CHUNK) if _x >> i & 1):
        SEL[_x, _k] = _bit
SEL = SEL.ravel()
LOW = U((1 << CHUNK) - 1)


def pick_random(legal: np.ndarray, u: np.ndarray, chunks: int) -> np.ndarray:
    """Bit number floor(u * n) among the n set bits of each `legal`, counting from bit 0: the
    random policy's legal[floor(u * n)] in box order. The chunk of CHUNK bits holding it is the
    number of chunk boundaries with at most k set bits below them; SEL finds it in the chunk."""
    k = (u * np.bitwise_count(legal)).astype(np.uint8)
    j = np.zeros(len(legal), np.uint8)
    for c in range(1, chunks):
        j += k >= np.bitwise_count(legal & U((1 << (CHUNK * c)) - 1))
    sh = (j * np.uint8(CHUNK)).astype(U)
    part = (legal >> sh) & LOW
    kk = k - np.bitwise_count(legal & ((U(1) << sh) - U(1)))
    return CHUNK * j.astype(np.intp) + SEL[(part * U(CHUNK) + kk).astype(np.intp)]


class Tables:
    """Per-sheet constants as arrays."""

    def __init__(self, b: Board):
        n = b.boxes
        self.B, self.C, self.S = n, len(b.candies), len(b.points)
        self.chunks = -(-n // CHUNK)
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
        self.gain = np.append(np.diff(pts), [0] * (16 - self.S))  # points a row gains from k to k+1 candies
        if max(b.candy.count(c) for c in range(len(b.candies))) > 15:
            raise ValueError("the fast engine counts at most 15 boxes of one candy on a sheet")
        self.needs = np.array(b.needs + (1 << 20,) * (16 - self.S), np.int64)  # no star past the end
        self.needs_u = self.needs.astype(U)
        self.nb = len(b.boonus)
        self.slot_star = np.array([r == "star" for r in b.boonus] + [False])
        self.slot_bar = np.array([r == "bar" for r in b.boonus] + [False])
        self.slot_star_u, self.slot_bar_u = self.slot_star.astype(U), self.slot_bar.astype(U)
        self.rows, self.cols = b.rows, b.cols
        # can a game check every box? Only then may a star find no open box (each turn and each
        # star checks one box, and every stash column and Boo-nus reward gives at most one star)
        self.can_fill = TURNS + self.S + self.nb >= n
        self.bar_points = b.bar_points


class Games:
    """The state of G games: one uint64 row per field, so a step played by some games only can
    take their columns and put them back in one operation each."""

    FIELDS = ("checked", "stash", "levels", "stars", "boonus", "bars", "pending", "lost_turns", "unused")

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
        """Check box[g] in every game where act[g] (every game if act is None). A stash row keeps
        counting past its last circle (never on a shipped sheet): `counts()` stops it there, and no
        column past the last has a star or points."""
        t = self.t
        one = U(1) if act is None else act.astype(U)
        self.checked |= t.bit[box] if act is None else t.bit[box] * one
        sh = t.candy_shift[box]
        k = (self.stash >> sh) & U(15)  # candies in the row before
        self.stash += one << sh
        ksh = k << U(2)
        self.levels += one << ksh  # one more row holds k+1 or more
        rows = (self.levels >> ksh) & U(15)
        star = ((~self.stars >> k) & one) & (rows >= t.needs_u[k])
        self.stars |= star << k
        self.pending += star
        cm = t.child_mask[box]
        haunt = (self.checked & cm) == cm
        h = _rows(haunt if act is None else haunt & act)  # games that haunted a child
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
        n = np.stack([b & 15, b >> 4], 2).reshape(self.G, 16)[:, :self.t.C]
        return np.minimum(n, np.uint8(self.t.S))


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


def _rows(x: np.ndarray) -> np.ndarray:
    """Indices where x is non-zero (np.flatnonzero for 1-d arrays, one call less)."""
    return x.nonzero()[0]


@lru_cache(maxsize=16)
def tables(b: Board) -> Tables:
    return Tables(b)


def _stars(games: Games, g: np.ndarray, ids: np.ndarray, policy: str, u: np.ndarray, plan, n: int) -> None:
    """Decision n of a turn for the games g (rows of `games`; `ids` are their numbers in the batch),
    which each hold a star; then, for those that still hold one, decision n + 1, and so on.
    u is the turn's [G, K] uniforms for the whole batch, plan the cover plan."""
    if not len(g):
        return
    t = games.t
    sub = games.take(g)
    legal = ~sub.checked & t.full
    if not t.can_fill or (legal != 0).all():
        sub.pending -= U(1)
        act = None
    else:  # no open box left: the stars are lost
        act = legal != 0
        sub.unused += np.where(act, U(0), sub.pending)
        sub.pending[:] = np.where(act, sub.pending - act, U(0))
    part = plan and tuple(x[ids] for x in plan)
    sub.collect(choose(sub, legal, policy, u[ids, n % K], part), act)
    still = _rows(sub.pending)
    _stars(sub, still, ids[still], policy, u, plan, n + 1)
    games.put(g, sub)


def play_fast(b: Board, ids: list[str], dice, u, policy: str, targets) -> Batch:
    t = tables(b)
    G = len(dice)
    games = Games(t, G)
    plan = cover_plan(t, ids, np.asarray(targets)) if policy == "cover" else None
    dice = np.asarray(dice, np.int8)
    rolls = t.die_mask.ravel()[(7 * dice[:, :, 0] + dice[:, :, 1]).T]  # [T, G]: boxes each roll may check
    u = np.asarray(u)
    first = np.ascontiguousarray(u[:, :, 0].T)  # [T, G]: each turn's first decision
    for turn in range(TURNS):
        legal = ~games.checked & rolls[turn]
        box = choose(games, legal, policy, first[turn], plan)
        if (legal != 0).all():
            games.collect(box)
        else:  # a roll matching no open box checks nothing: a lost turn
            can = legal != 0
            games.lost_turns += ~can
            games.collect(box, can)
        g = _rows(games.pending)
        _stars(games, g, g, policy, u[:, turn], plan, 1)
    stash = games.counts()
    E = t.B + t.C * t.S + t.S + t.nb + t.rows + t.cols + TURNS
    reached = np.empty((E, G), bool)  # built row by row, returned transposed
    at = 0
    circles = (stash.T[:, None, :] > np.arange(t.S, dtype=np.uint8)[:, None]).reshape(-1, G)
    for part in ((games.checked >> t.bits[:, None]) & U(1), circles,
                 (games.stars >> t.bits[:t.S, None]) & U(1), games.boonus > np.arange(t.nb, dtype=U)[:, None],
                 (games.checked & t.rowmask[:, None]) == t.rowmask[:, None],
                 (games.checked & t.colmask[:, None]) == t.colmask[:, None]):
        reached[at:at + part.shape[0]] = part
        at += part.shape[0]
    reached[at:] = True  # every turn is played
    reached = reached.T
    turns = np.full(G, TURNS, np.int64)
    state = np.empty((G, t.C + 6), np.int64)
    state[:, 0] = games.checked
    state[:, 1:1 + t.C] = stash
    state[:, 1 + t.C:] = np.stack([games.stars, games.boonus, games.bars, turns, games.pending], 1)
    score = t.points[stash].sum(1) + state[:, 3 + t.C] * t.bar_points
    return Batch(score=score, reached=reached, penalties=games.lost_turns.astype(np.int64),
                 unused_powers=games.unused.astype(np.int64), stuck=np.zeros(G, np.int64),
                 turns=turns, state=state)
