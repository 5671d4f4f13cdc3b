"""Boogaloo's fast engine: the reference engine's decisions, compiled with numba, one game at a time.

A sheet is a few integers per game: the checked boxes as bits of one int64 (box i = bit i), the
candies in each stash row, the stash stars as bits, the Boo-nus rewards filled, the bars. Each
turn takes one box from the dice (or passes), then star after star. Options come in the
reference's order (box order) and greedy values follow policy.value, so the equality tests hold
both engines to the same end states. Shortcuts that keep the same decisions:
- a box's value is its candy's part (points the row gains, and a stash star: the same for every
  box of that candy, computed once per decision) plus its child's part (progress, and on its last
  box the Boo-nus reward and row / column bars);
- a random pick finds its k-th legal box by bit counts instead of listing the options.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from ...validate.engine import Batch
from .board import Board
from .model import BOXES_PER_CHILD
from .policy import COVER_BONUS, K, PROGRESS_VALUE, STAR_VALUE

jit = numba.njit(cache=True, nogil=True)
inline = numba.njit(cache=True, nogil=True, inline="always")  # helpers: inlined where called (much faster)
RANDOM, GREEDY, COVER = range(3)
# cover targets: what kind of element a game aims at (policy.toward)
T_NONE, T_BOX, T_STAR, T_CANDY, T_BOONUS, T_ROW, T_COL = range(7)
i8 = np.int64


class Tables:
    """Per-sheet constants as arrays (see `_play` for their use)."""

    def __init__(self, b: Board):
        n = b.boxes
        if n > 62:
            raise ValueError("the fast engine holds at most 62 boxes on a sheet")
        self.B, self.C, self.S, self.nb = n, len(b.candies), len(b.points), len(b.boonus)
        child = np.arange(n) // BOXES_PER_CHILD
        row, col = child // b.cols, child % b.cols
        bit = [1 << i for i in range(n)]
        self.candy = np.array(b.candy, i8)
        self.child_mask = np.array([sum(bit[j] for j in range(n) if child[j] == child[i]) for i in range(n)], i8)
        self.rowmask = np.array([sum(bit[i] for i in range(n) if row[i] == r) for r in range(b.rows)], i8)
        self.colmask = np.array([sum(bit[i] for i in range(n) if col[i] == c) for c in range(b.cols)], i8)
        self.row_of, self.col_of = row.astype(i8), col.astype(i8)
        self.die_mask = np.zeros((7, 7), i8)
        for a in range(1, 7):
            for d in range(1, 7):
                self.die_mask[a, d] = (1 << n) - 1 if a == d else sum(bit[i] for i in range(n) if b.die[i] in (a, d))
        self.pts = np.array((0,) + b.points, i8)  # points of a row holding k candies
        self.needs = np.array(b.needs, i8)
        self.slot_star = np.array([r == "star" for r in b.boonus], np.bool_)
        self.bar_points = b.bar_points
        self.turns = b.turns


@lru_cache(maxsize=16)
def tables(b: Board) -> Tables:
    return Tables(b)


def cover_targets(t: Tables, ids: list[str], targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the kind of element aimed at (T_*) and its number (box, column, candy, row ...)."""
    kind, arg = _target_tables(tuple(ids))
    on = targets >= 0
    idx = np.where(on, targets, 0)
    return np.where(on, kind[idx], T_NONE), arg[idx]


@lru_cache(maxsize=16)
def _target_tables(ids: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Per element: the kind of target it is, and its number."""
    kind = np.zeros(len(ids), i8)
    arg = np.zeros(len(ids), i8)
    candies = [n.split(".")[1] for n in ids if n.startswith("stash.") and n.endswith(".1")
               and not n.startswith("stash.star.")]
    for e, name in enumerate(ids):
        part = name.split(".")
        if part[0] == "child":
            kind[e], arg[e] = T_BOX, e  # box ids come first, in box order
        elif part[:2] == ["stash", "star"]:
            kind[e], arg[e] = T_STAR, int(part[2])
        elif part[0] == "stash":
            kind[e], arg[e] = T_CANDY, candies.index(part[1])
        elif part[0] == "boonus":
            kind[e] = T_BOONUS
        elif part[:2] == ["bar", "row"]:
            kind[e], arg[e] = T_ROW, int(part[2]) - 1
        elif part[:2] == ["bar", "col"]:
            kind[e], arg[e] = T_COL, int(part[2]) - 1
    return kind, arg


DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
# BIT_AT[(lowest set bit of x) * DEBRUIJN >> 58]: the position of that bit
BIT_AT = np.zeros(64, i8)
for _i in range(64):
    BIT_AT[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i


@jit
def _popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@jit
def _lowest(x):
    """The position of the lowest set bit of x (not 0)."""
    low = np.uint64(x & -x)
    return BIT_AT[(low * DEBRUIJN) >> np.uint64(58)]


@jit
def _nth_bit(x, k):
    """The position of the k-th set bit of x (from bit 0)."""
    for _ in range(k):
        x &= x - 1
    return _lowest(x)


@inline
def _choose(legal, u, pol, prog, boonus, tk, ta, candy, child, row_of, col_of, stash, cval, haunt_extra,
            checked, rowmask, colmask, bar_points):
    """The box a policy takes among the `legal` ones (a bit mask, not empty). cval[c]: the candy's
    part of a box's value; haunt_extra: what the Boo-nus reward of a haunt is worth now."""
    if pol == RANDOM:
        return _nth_bit(legal, np.int64(u * _popcount(legal)))
    best = -(1 << 62)
    pick = -1
    x = legal
    while x:
        b = _lowest(x)
        x &= x - 1
        p = prog[child[b]]
        v = cval[candy[b]] + PROGRESS_VALUE * p
        if p == BOXES_PER_CHILD - 1:  # the child's last box: haunted
            after = checked | (np.int64(1) << b)
            v += haunt_extra
            rm = rowmask[row_of[b]]
            if after & rm == rm:
                v += bar_points
            clm = colmask[col_of[b]]
            if after & clm == clm:
                v += bar_points
        if pol == COVER:
            if tk == T_BOX:
                v += COVER_BONUS * (b == ta)
            elif tk == T_STAR:
                v += COVER_BONUS * (stash[candy[b]] < ta)
            elif tk == T_CANDY:
                v += COVER_BONUS * (candy[b] == ta)
            elif tk == T_BOONUS:
                v += COVER_BONUS * (p + 1)
            elif tk == T_ROW:
                v += COVER_BONUS * (row_of[b] == ta)
            elif tk == T_COL:
                v += COVER_BONUS * (col_of[b] == ta)
        if v > best:
            best, pick = v, b
    return pick


@inline
def _values(cval, stash, levels, stars, pts, needs, S):
    """cval[c]: points a candy c adds to its row, plus STAR_VALUE if it earns a stash star
    (policy.value's candy part: the rows holding k + 1 after it are those already there, and it)."""
    for c in range(cval.shape[0]):
        k = stash[c]
        if k >= S:
            cval[c] = 0
        else:
            star = (not (stars >> k) & 1) and levels[k + 1] + 1 >= needs[k]
            cval[c] = pts[k + 1] - pts[k] + STAR_VALUE * star


@jit
def _play(dice, u, pol, tkind, targ, candy, child_mask, rowmask, colmask, row_of, col_of, die_mask, pts,
          needs, slot_star, bar_points, B, turns, out_state, out_lost, out_unused, out_reached):
    G = dice.shape[0]
    C, S, nb = out_state.shape[1] - 6, needs.shape[0], slot_star.shape[0]
    R, Q = rowmask.shape[0], colmask.shape[0]
    full = (np.int64(1) << B) - 1
    stash = np.zeros(C, np.int64)
    levels = np.zeros(S + 2, np.int64)  # levels[k]: rows holding k candies or more (k >= 1)
    prog = np.zeros(B // BOXES_PER_CHILD, np.int64)  # boxes checked under each child
    child = np.arange(B) // BOXES_PER_CHILD
    cval = np.zeros(C, np.int64)
    for g in range(G):
        checked = np.int64(0)
        stash[:] = 0
        levels[:] = 0
        prog[:] = 0
        stars = np.int64(0)
        boonus = bars = pending = lost = unused = 0
        tk, ta = tkind[g], targ[g]
        greedy = pol != RANDOM
        if greedy:
            _values(cval, stash, levels, stars, pts, needs, S)
        for t in range(turns):
            n = 0
            legal = ~checked & die_mask[dice[g, t, 0], dice[g, t, 1]]
            if legal == 0:
                lost += 1  # a lost turn: no stars can be waiting
                continue
            while True:
                extra = 0
                if greedy and boonus < nb:
                    extra = STAR_VALUE if slot_star[boonus] else bar_points
                box = _choose(legal, u[g, t, n % K], pol, prog, boonus, tk, ta, candy, child, row_of, col_of,
                              stash, cval, extra, checked, rowmask, colmask, bar_points)
                n += 1
                # collect (rules.State.collect)
                checked |= np.int64(1) << box
                c = candy[box]
                if stash[c] < S:
                    stash[c] += 1
                    k = stash[c]
                    levels[k] += 1
                    if not (stars >> (k - 1)) & 1 and levels[k] >= needs[k - 1]:
                        stars |= np.int64(1) << (k - 1)
                        pending += 1
                prog[child[box]] += 1
                if prog[child[box]] == BOXES_PER_CHILD:
                    if boonus < nb:
                        if slot_star[boonus]:
                            pending += 1
                        else:
                            bars += 1
                        boonus += 1
                    rm = rowmask[row_of[box]]
                    if checked & rm == rm:
                        bars += 1
                    clm = colmask[col_of[box]]
                    if checked & clm == clm:
                        bars += 1
                if greedy:
                    _values(cval, stash, levels, stars, pts, needs, S)
                if pending == 0:
                    break
                legal = ~checked & full
                if legal == 0:  # no open box: the stars still to come are lost
                    unused += pending
                    pending = 0
                    break
                pending -= 1
        out_state[g, 0] = checked
        out_state[g, 1:1 + C] = stash
        out_state[g, 1 + C] = stars
        out_state[g, 2 + C] = boonus
        out_state[g, 3 + C] = bars
        out_state[g, 4 + C] = turns
        out_state[g, 5 + C] = pending
        out_lost[g] = lost
        out_unused[g] = unused
        # reached, in element_ids order: boxes, stash circles, stash stars, Boo-nus, row and
        # column bars, turns
        e = 0
        for i in range(B):
            out_reached[g, e] = (checked >> i) & 1
            e += 1
        for c in range(C):
            for k in range(S):
                out_reached[g, e] = stash[c] > k
                e += 1
        for k in range(S):
            out_reached[g, e] = (stars >> k) & 1
            e += 1
        for k in range(nb):
            out_reached[g, e] = boonus > k
            e += 1
        for r in range(R):
            out_reached[g, e] = checked & rowmask[r] == rowmask[r]
            e += 1
        for q in range(Q):
            out_reached[g, e] = checked & colmask[q] == colmask[q]
            e += 1
        for t in range(turns):
            out_reached[g, e] = True
            e += 1


def play_fast(b: Board, ids: list[str], dice, u, policy: str, targets) -> Batch:
    t = tables(b)
    G = len(dice)
    pol = {"random": RANDOM, "greedy": GREEDY, "cover": COVER}[policy]
    if pol == COVER:
        tkind, targ = cover_targets(t, ids, np.asarray(targets))
    else:
        tkind, targ = np.zeros(G, i8), np.zeros(G, i8)
    state = np.zeros((G, t.C + 6), i8)
    lost, unused = np.zeros(G, i8), np.zeros(G, i8)
    reached = np.empty((G, len(ids)), np.bool_)
    _play(np.ascontiguousarray(dice), np.ascontiguousarray(u, np.float64), pol, tkind, targ, t.candy,
          t.child_mask, t.rowmask, t.colmask, t.row_of, t.col_of, t.die_mask, t.pts, t.needs, t.slot_star,
          t.bar_points, t.B, t.turns, state, lost, unused, reached)
    score = t.pts[state[:, 1:1 + t.C]].sum(1) + state[:, 3 + t.C] * t.bar_points
    return Batch(score=score, reached=reached, penalties=lost, unused_powers=unused, stuck=np.zeros(G, i8),
                 turns=np.full(G, t.turns, i8), state=state)
