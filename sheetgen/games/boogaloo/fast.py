"""Boogaloo's fast engine: the reference engine's decisions, compiled with numba, one game at a time.

A sheet is a few integers per game: the checked boxes as bits of one int64 (box i = bit i), the
candies in each stash row, the stash stars as bits, the Boo-nus rewards filled, the bars. Each
turn takes one box from the dice (or passes), then star after star. Options come in the
reference's order (box order) and greedy values follow policy.value, so the equality tests hold
both engines to the same end states. Shortcuts that keep the same decisions:
- a box's value is its candy's part (points the row gains, and a stash star: the same for every
  box of that candy, computed once per decision) plus its child's part (progress, kept per box so
  a decision reads it in one step, and on its last box the Boo-nus reward and row / column bars);
- the cover policy's bonus (policy.toward) is looked up in tables built once per sheet from the
  targets board.py decodes (`cover_tables`), so cover and greedy run the same loop;
- a random pick finds its k-th legal box by bit counts instead of listing the options.
Speed: hot indices are unsigned (`U`): numba then emits no negative-index fix-up. The score is
summed in the compiled loop and the outputs are allocated empty (every entry is written), so a call
makes no large numpy temporaries: its arrays stay under glibc's trim threshold, and their pages are
reused instead of returned and faulted in again on every call.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...validate.bits import popcount, select
from ...validate.engine import Batch
from .board import T_BOONUS, T_BOX, T_CANDY, T_COL, T_ROW, T_STAR, Board, elements, targets as decode
from .model import BOXES_PER_CHILD
from .policy import COVER_BONUS, K, PROGRESS_VALUE, STAR_VALUE

jit = numba.njit(cache=True, nogil=True)
inline = numba.njit(cache=True, nogil=True, inline="always")  # helpers: inlined where called (much faster)
RANDOM, GREEDY, COVER = range(3)
i8 = np.int64
U = np.uint64  # hot indices are made unsigned: numba then emits no negative-index fix-up


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
        self.slot_bar = np.array([r == "bar" for r in b.boonus], np.bool_)
        self.bar_points = b.bar_points
        self.turns = b.turns


@lru_cache(maxsize=16)
def tables(b: Board) -> Tables:
    return Tables(b)


@lru_cache(maxsize=16)
def cover_tables(b: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """policy.toward's bonus per element aimed at (row E: none), split for the compiled loop:
    fixed[e, b], the part set by box b itself (its own id, candy, row or column; for the Boo-nus,
    the 1 of progress + 1); per_box[e], the bonus per box already checked under its child (Boo-nus);
    star_t[e], the stash column a star target needs (a box gets the bonus while its candy row holds
    fewer: added to the candy's part)."""
    t = tables(b)
    E = len(elements(b))
    kind, arg = decode(b, np.arange(E))
    fixed = np.zeros((E + 1, t.B), i8)
    for k, what in ((T_BOX, np.arange(t.B)), (T_CANDY, t.candy), (T_ROW, t.row_of), (T_COL, t.col_of)):
        on = np.flatnonzero(kind == k)
        fixed[on] = COVER_BONUS * (what[None, :] == arg[on, None])
    boon = np.append(kind == T_BOONUS, False)
    fixed[boon] = COVER_BONUS
    per_box = np.where(boon, COVER_BONUS, 0).astype(i8)
    star_t = np.append(np.where(kind == T_STAR, arg, 0), 0).astype(i8)
    return fixed, per_box, star_t


@inline
def _choose(legal, u, pol, prog, candy, row_of, col_of, cval, fixed, per_box, haunt_extra,
            checked, rowmask, colmask, bar_points):
    """The box a policy takes among the `legal` ones (a bit mask, not empty). cval[c]: the candy's
    part of a box's value; prog[b]: boxes checked under b's child; per_box: the worth of each of
    them (PROGRESS_VALUE, plus the cover bonus of a Boo-nus target); fixed[b]: b's own cover bonus
    (cover_tables; zero for greedy); haunt_extra: what the Boo-nus reward of a haunt is worth now."""
    if pol == RANDOM:
        return select(legal, np.int64(u * popcount(legal)))
    best = -(1 << 62)
    pick = -1
    x = legal
    while x:
        b = trailing_zeros(x)
        x &= x - 1
        p = prog[U(b)]
        v = cval[U(candy[U(b)])] + per_box * p + fixed[U(b)]
        if p == BOXES_PER_CHILD - 1:  # the child's last box: haunted
            after = checked | (np.int64(1) << b)
            v += haunt_extra
            rm = rowmask[U(row_of[U(b)])]
            if after & rm == rm:
                v += bar_points
            clm = colmask[U(col_of[U(b)])]
            if after & clm == clm:
                v += bar_points
        if v > best:
            best, pick = v, b
    return pick


@inline
def _values(cval, stash, levels, stars, pts, needs, S, star_t):
    """cval[c]: points a candy c adds to its row, plus STAR_VALUE if it earns a stash star
    (policy.value's candy part: the rows holding k + 1 after it are those already there, and it),
    plus the cover bonus of a star target needing column star_t (0: none)."""
    for c in range(cval.shape[0]):
        k = stash[c]
        if k >= S:
            cval[c] = 0
        else:
            star = (not (stars >> k) & 1) and levels[U(k + 1)] + 1 >= needs[U(k)]
            cval[c] = pts[U(k + 1)] - pts[U(k)] + STAR_VALUE * star + COVER_BONUS * (k < star_t)


@jit
def _play(dice, u, pol, aim, fixed, per_box, star_t, candy, child_mask, rowmask, colmask, row_of, col_of, die_mask,
          pts, needs, slot_star, slot_bar, bar_points, B, turns, out_state, out_score, out_lost, out_unused,
          out_reached):
    G = dice.shape[0]
    C, S, nb = out_state.shape[1] - 6, needs.shape[0], slot_star.shape[0]
    R, Q = rowmask.shape[0], colmask.shape[0]
    full = (np.int64(1) << B) - 1
    stash = np.zeros(C, np.int64)
    levels = np.zeros(S + 2, np.int64)  # levels[k]: rows holding k candies or more (k >= 1)
    prog = np.zeros(B, np.int64)  # per box: boxes checked under its child
    cval = np.zeros(C, np.int64)
    # greedy's worth of the next Boo-nus reward, per rewards filled (nothing once all are)
    slot_value = np.zeros(nb + 1, np.int64)
    for k in range(nb):
        slot_value[k] = STAR_VALUE if slot_star[k] else bar_points if slot_bar[k] else 0
    for g in range(G):
        checked = np.int64(0)
        stash[:] = 0
        levels[:] = 0
        prog[:] = 0
        stars = np.int64(0)
        boonus = bars = pending = lost = unused = 0
        a = aim[g]  # the row of the cover tables (zero bonus for greedy)
        fx, pb, st = fixed[a], PROGRESS_VALUE + per_box[a], star_t[a]
        greedy = pol != RANDOM
        if greedy:
            _values(cval, stash, levels, stars, pts, needs, S, st)
        for t in range(turns):
            n = 0
            legal = ~checked & die_mask[U(dice[g, t, 0]), U(dice[g, t, 1])]
            if legal == 0:
                lost += 1  # a lost turn: no stars can be waiting
                continue
            while True:
                box = _choose(legal, u[g, t, U(n % K)], pol, prog, candy, row_of, col_of, cval, fx,
                              pb, slot_value[boonus], checked, rowmask, colmask, bar_points)
                n += 1
                # collect (rules.State.collect)
                checked |= np.int64(1) << box
                kc = U(candy[U(box)])  # the candy
                if stash[kc] < S:
                    stash[kc] += 1
                    k = stash[kc]
                    levels[U(k)] += 1
                    if not (stars >> (k - 1)) & 1 and levels[U(k)] >= needs[U(k - 1)]:
                        stars |= np.int64(1) << (k - 1)
                        pending += 1
                first = box - box % BOXES_PER_CHILD
                for j in range(first, first + BOXES_PER_CHILD):
                    prog[U(j)] += 1
                if prog[U(box)] == BOXES_PER_CHILD:
                    if boonus < nb:
                        if slot_star[boonus]:
                            pending += 1
                        elif slot_bar[boonus]:
                            bars += 1
                        boonus += 1
                    rm = rowmask[U(row_of[U(box)])]
                    if checked & rm == rm:
                        bars += 1
                    clm = colmask[U(col_of[U(box)])]
                    if checked & clm == clm:
                        bars += 1
                if greedy:
                    _values(cval, stash, levels, stars, pts, needs, S, st)
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
        score = bars * bar_points
        for c in range(C):
            score += pts[stash[c]]
        out_score[g] = score
        out_lost[g] = lost
        out_unused[g] = unused
        # reached, in element_ids order: boxes, stash circles, stash stars, Boo-nus, row and
        # column bars, turns
        e = 0
        for i in range(B):
            out_reached[g, U(e)] = (checked >> i) & 1
            e += 1
        for c in range(C):
            for k in range(S):
                out_reached[g, U(e)] = stash[c] > k
                e += 1
        for k in range(S):
            out_reached[g, U(e)] = (stars >> k) & 1
            e += 1
        for k in range(nb):
            out_reached[g, U(e)] = boonus > k
            e += 1
        for r in range(R):
            out_reached[g, U(e)] = checked & rowmask[r] == rowmask[r]
            e += 1
        for q in range(Q):
            out_reached[g, U(e)] = checked & colmask[q] == colmask[q]
            e += 1
        for t in range(turns):
            out_reached[g, U(e)] = True
            e += 1


def play_fast(b: Board, dice, u, policy: str, targets) -> Batch:
    t = tables(b)
    G = len(dice)
    pol = {"random": RANDOM, "greedy": GREEDY, "cover": COVER}[policy]
    fixed, per_box, star_t = cover_tables(b)
    targets = np.asarray(targets, i8)
    aim = np.where((targets >= 0) & (pol == COVER), targets, len(per_box) - 1)
    state = np.empty((G, t.C + 6), i8)  # every entry written by _play
    score, lost, unused = np.empty(G, i8), np.empty(G, i8), np.empty(G, i8)
    n_el = t.B + t.C * t.S + t.S + t.nb + len(t.rowmask) + len(t.colmask) + t.turns
    reached = np.empty((G, n_el), np.bool_)
    _play(np.ascontiguousarray(dice), np.ascontiguousarray(u, np.float64), pol, aim, fixed, per_box, star_t, t.candy,
          t.child_mask, t.rowmask, t.colmask, t.row_of, t.col_of, t.die_mask, t.pts, t.needs, t.slot_star,
          t.slot_bar, t.bar_points, t.B, t.turns, state, score, lost, unused, reached)
    return Batch(score=score, reached=reached, penalties=lost, unused_powers=unused, stuck=np.zeros(G, i8),
                 turns=np.full(G, t.turns, i8), state=state)
