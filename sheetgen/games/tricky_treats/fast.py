"""Tricky Treats fast engine: the reference engine's decisions, compiled with numba.

Why compiled and not numpy: a Tricky Treats turn is a chain of small effects (a star checks a
box, the box unlocks a cauldron, the cauldron's candy fills a stash column, the column gives a
star...). Vectorised across games with numpy, each link costs a few numpy calls on the handful
of games that need it, and that fixed cost capped the engine near 200k games/s (greedy, one
core). Compiled, each game follows its own chain at machine speed.

The sheet is one numpy record (`TAB`, built once per sheet and cached) and the game
being played another (`GAME`); compiled functions take both by reference, so calls cost little.
Each function mirrors a part of rules.State. Options come in the reference's canonical order and
greedy values follow rules.values, so the equality tests (tests/test_tricky_treats_engines.py)
hold both engines to the same end states. Shortcuts that keep the same decisions:
- the boxes that can still be crossed out are one 36-bit mask (`free`), so a random pick finds
  its r-th option by bit counts (popcount and validate.bits.select) instead of listing the
  options (a plan's: the free boxes for die 1, then die 2, gathered into one 12-bit mask);
- greedy keeps every box's value as a key, value * 64 + 63 - box (`GAME.key`), so the first box
  of highest value is the highest key: a decision among boxes is a max over keys (36 for a star
  or doubles, 6 per die for a plan), with no branch per option. A key changes only by steps: a
  candy's stash growing adds the points its next candy adds to that candy's boxes, a box taken
  adds its child's change in symbol values (a table by the child's free boxes, `symb`) and shuts
  the box (`SHUT`, far below any value), a child scared shuts its boxes. A game starts from the
  blank sheet's keys (`TAB.key0`); cover adds its target's bonus to the boxes that help it;
- pyramid boxes are checked the moment they are earned (they ask nothing and come first in the
  reference's queue);
- the random policy skips greedy's bookkeeping (keys, option values), greedy and cover
  copy no uniforms, and a stash column's count (candies past it) is kept as candies come.
Speed: a random game's branches are unpredictable, so what its picks lead to (which die and
box, a reward earned, a symbol unlocked, a third scare) is computed without branches; rare
paths (a bat, a skull, effects waiting, greedy's argmax and die/child values) are calls made
only when needed, so that the common path is small enough for LLVM to inline. Hot indices are
unsigned (`U`): numba then emits no negative-index fix-up. The end state is int8: a call's arrays
(it, reached, scores) then stay under glibc's trim threshold, and their pages are reused instead of
returned and faulted in again on every call (~4 us a page on this VM).
Compile time: the whole suite pays a cold compile in CI, and numba's cost is mostly per compiled
function and per overload, so tiny helpers are written in place, arguments never vary in type
(no literal-typed copies), and only `_play` is cached (its cache holds the helpers). The end
state is read by board._finish_rows, compiled on its own: numba caches a caller with its callees'
code and would not see a change in another file.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...validate.bits import popcount, select
from .model import ACTIONS, IMMEDIATE, MAX_CAULDRON, MAX_LEVELS, MAX_POWERS, POWERS, TrickySheet
from .board import Tables, finish, layout_of, tables
from .policy import (BAT_COST, BIG, CANDY_WEIGHT, K, MOON_SCARE_STEP, PYRAMID_LEVEL, SCARE_STEP, SKULL_SCARE,
                     SYMBOL_DONE, SYMBOL_STEP, THIRD_SCARE, Help, helps)

BONE, CAULDRON, BAT, PYRAMID, MOON, SKULL = range(6)
STAR_ACT, CAULDRON_ACT, PYRAMID_ACT = range(3)  # ACTIONS
NEG = -(1 << 40)  # value of a box that cannot be taken
SHUT = -(1 << 56)  # a taken or closed box's key (candy steps added to it keep it far below any other)
DUMMY = (1 << 40) | (1 << 41)  # a mask no box completes
ALL36 = (1 << 36) - 1
COLS = sum(1 << (6 * c) for c in range(6))  # bit 0 of each child's 6 bits
GATHER = sum(1 << (30 - 5 * c) for c in range(6))  # moves bit 6c to bit 30 + c; products never overlap
i8 = np.int64
U = np.uint64  # hot indices are made unsigned: numba then emits no negative-index fix-up
PARTS = ("boxes", "scares", "stash", "unlocked", "used", "boonus", "bcount", "reward", "cauldron",
         "pyramid", "lost", "missed", "turn")  # of the end state (rules.layout_of)
(A_BOXES, A_SCARES, A_STASH, A_UNLOCKED, A_USED, A_BOONUS, A_BCOUNT, A_REWARD, A_CAULDRON, A_PYRAMID,
 A_LOST, A_MISSED, A_TURN) = range(len(PARTS))

# The sheet, as the compiled functions read it (one record: passed by reference, cheap to call with).
TAB = np.dtype([
    ("symb", np.int16, 6 * 64 * 6),  # a free box's symbol value, by child, the child's free boxes, die value
    ("key0", i8, 36),  # each box's key on a blank sheet (GAME.key)
    ("cmask", i8, 6),  # the boxes of each candy
    ("bc", i8, 36), ("gt", i8, 8),  # candy of each box; points the (n+1)-th candy of a type adds
    ("pm", i8, 36), ("pk", i8, 36),  # each box's power symbol: its boxes (DUMMY: none) and power
    ("bm", i8, 36), ("brow", i8, 36),  # each box's Boo-nus symbol: its boxes and row
    ("rowmask", i8, 3), ("imm", i8, 6),  # boxes of each Boo-nus row; powers used at once
    ("pyr_cum", i8, MAX_LEVELS), ("n_lev", i8), ("top", i8),  # boxes full at each level; levels; boxes
    ("caul", i8, MAX_CAULDRON), ("n_caul", i8), ("needs", i8, 7), ("rew_star", i8, 7),
    ("actions", i8, len(ACTIONS)), ("n_act", i8),  # sizes: the most the model allows
    ("sym_mask", i8, 6 * MAX_POWERS + 6), ("sym_kind", i8, 6 * MAX_POWERS + 6), ("n_pow", i8),
    ("turns", i8), ("bones_any", i8), ("pop6", i8, 64),  # set bits of a 6-bit mask
    ("at", i8, len(PARTS))], align=True)  # where each part of the end state starts

# One game during play: the sheet's marks, effects waiting, and the decision being made.
GAME = np.dtype([
    ("boxes", i8), ("free", i8),  # the boxes crossed out; those that still can be
    ("scares", i8, 6), ("stash", i8, 6), ("used", i8, 6), ("ready", i8, 6),
    ("over", i8, 7),  # candies whose stash holds more than n, per n (kept by _add_candy)
    ("key", i8, 36),  # each box's greedy value * 64 + 63 - box (SHUT: not free), kept up to date
    ("reward", i8, 7),  # 0 not earned, 1 star / cauldron chosen, 2 pyramid, 3 waiting, 4 lost
    ("caul", i8), ("pyr", i8), ("lost", i8), ("missed", i8), ("turn", i8),
    ("pc", i8), ("pcp", i8), ("pr", i8), ("ps", i8),  # effects waiting: cauldron boxes, columns'
    # cauldron/pyramid choices, Boo-nus rows, stars
    ("greedy", np.bool_), ("cover", np.bool_),  # the policy
    ("k", i8), ("u", np.float64, K),  # this turn's decisions so far, and its uniforms
    ("h_boxes", i8), ("h_cand", i8), ("h_scare", i8), ("h_caul", i8), ("h_pyr", i8), ("h_cbox", i8),
    ("h_col", i8), ("h_star", i8),  # what helps toward the cover target (rules.Help)
    ("opts", i8, 16), ("vals", i8, 16)], align=True)  # a decision's options (12 at most) and values


def build(t: Tables) -> np.ndarray:
    """The sheet's TAB record (in an array of one)."""
    S, P = t.n_sym, t.n_pow
    symb = np.zeros((6, 64, 6), np.int16)
    for c in range(6):
        masks = [(int(t.sym_mask[s]) >> (6 * c)) & 63 for s in range(S)]
        for f in range(64):
            for v in range(6):
                if f >> v & 1:  # box v is free: a step per symbol it belongs to, more if it is the last
                    symb[c, f, v] = sum(SYMBOL_STEP + (SYMBOL_DONE if bin(m & f).count("1") == 1 else 0)
                                        for m in masks if m >> v & 1)
    tab = np.zeros(1, TAB)
    r = tab[0]
    r["symb"], r["bc"], r["gt"] = symb.reshape(-1), t.box_candy, np.append(np.diff(t.points), 0)
    box = np.arange(36)
    r["key0"] = (symb[box // 6, 63, box % 6] + CANDY_WEIGHT * r["gt"][0]) * 64 + 63 - box
    r["pm"], r["bm"] = DUMMY, DUMMY
    r["cmask"] = [sum(1 << int(b) for b in np.flatnonzero(t.box_candy == k)) for k in range(6)]
    for s in range(S):
        m = int(t.sym_mask[s])
        if s >= P:
            r["rowmask"][t.sym_kind[s] - 6] |= m
        for b in range(36):
            if m >> b & 1:
                if s < P:
                    r["pm"][b], r["pk"][b] = m, t.sym_kind[s]
                else:
                    r["bm"][b], r["brow"][b] = m, t.sym_kind[s] - 6
    r["imm"] = [p in IMMEDIATE for p in POWERS]
    for name, vals in (("pyr_cum", t.pyr_cum), ("caul", t.cauldron), ("sym_mask", t.sym_mask),
                       ("sym_kind", t.sym_kind), ("actions", [ACTIONS.index(a) for a in t.actions])):
        r[name][:len(vals)] = vals
    r["n_lev"], r["top"], r["n_caul"], r["n_act"] = len(t.pyr_cum), t.pyr_cum[-1], len(t.cauldron), len(t.actions)
    r["needs"], r["rew_star"] = t.needs, t.rew_star
    r["n_pow"], r["turns"], r["bones_any"] = P, t.turns, t.bones_any
    r["at"] = [layout_of(t)[name].start for name in PARTS]
    assert list(r["at"][:4]) == [0, 36, 42, 48], "_flat writes boxes, scares and stash at fixed places"
    r["pop6"] = [bin(m).count("1") for m in range(64)]
    return tab


def help_table(t: Tables) -> np.ndarray:
    """[E + 1, 8] what helps toward each element (rules.Help), then a row of nothing (target -1)."""
    hs = [helps(t, e) for e in range(len(t.elements))] + [Help()]
    return np.array([[h.boxes, h.candies, h.scare, h.cauldron, h.pyramid, h.cauldron_box, h.column,
                      h.star] for h in hs], i8)


jit = numba.njit(nogil=True)  # helpers: compiled into _play (whose cache holds them)


# -- questions the rules ask ---------------------------------------------------------------------
@jit
def _candy_step(tb, s, k, n):
    """Candy k's stash grew from n: its boxes' keys follow the points its next candy adds (taken
    boxes' too, which stay far below: a loop of the same length for a candy predicts its exit)."""
    step = CANDY_WEIGHT * (tb.gt[U(n + 1)] - tb.gt[U(n)]) * 64
    left = tb.cmask[U(k)]
    while left:
        b = trailing_zeros(left)
        left &= left - 1
        s.key[U(b)] += step


@jit
def _child_step(tb, s, box):
    """Box taken: its key is shut, and its child's other boxes' keys follow their symbol values
    (rules.box_value: a symbol with one box left is worth more)."""
    c = np.int64(U(box) // U(6))  # (unsigned: no sign fix-ups)
    f = (s.free >> (6 * c)) & 63
    old, new = U((c * 64 + (f | (1 << (box - 6 * c)))) * 6), U((c * 64 + f) * 6)
    for j in range(6):
        s.key[U(6 * c + j)] += np.int64(tb.symb[new + U(j)] - tb.symb[old + U(j)]) * 64
    s.key[U(box)] = SHUT


@jit
def _box_value(tb, s, b):
    """rules.box_value, NEG where the box cannot be taken."""
    if not (s.free >> b) & 1:
        return NEG
    return s.key[U(b)] >> 6


@jit
def _scare_cost(s, c):
    """rules.scare_cost."""
    n = s.scares[U(c)]
    if n >= 3:
        return 0
    if c == s.h_scare:
        return -BIG
    if n == 2:
        return SKULL_SCARE if s.ready[SKULL] > 0 else THIRD_SCARE
    return SCARE_STEP * (n + 1)


@jit
def _cauldron_value(tb, s):
    best = 0
    if not s.greedy:  # values only guide greedy
        return best
    left = ~s.caul & ((np.int64(1) << tb.n_caul) - 1)  # the cauldron boxes not checked
    while left:
        i = trailing_zeros(left)
        left &= left - 1
        best = max(best, CANDY_WEIGHT * tb.gt[U(s.stash[U(tb.caul[U(i)])])])
    return best


@jit
def _pyramid_value(tb, s):
    """policy.pyramid_value: PYRAMID_LEVEL shared among the boxes left in the level being filled."""
    if not s.greedy:
        return 0
    for lv in range(tb.n_lev):
        if tb.pyr_cum[lv] > s.pyr:
            return PYRAMID_LEVEL // (tb.pyr_cum[lv] - s.pyr)
    return 0


# -- decisions -----------------------------------------------------------------------------------
@jit
def _choose(s, n):
    """Option index among the n in s.opts (greedy: the first of the highest s.vals; random:
    floor(u * n) with this turn's next uniform)."""
    k = s.k
    s.k = k + 1
    if s.greedy:
        return _argmax(s, n)
    return np.int64(s.u[U(k % K)] * n)


@jit
def _argmax(s, n):
    best = 0
    for i in range(1, n):
        if s.vals[U(i)] > s.vals[U(best)]:
            best = i
    return best


@jit
def _any_box(tb, s):
    """Doubles and stars: a decision among every available box (-1: none, no decision)."""
    if not s.greedy:  # the r-th available box
        n = popcount(s.free)
        if n == 0:
            return -1
        return select(s.free, _choose(s, n))
    box, _ = _best_box(tb, s)
    s.k += box >= 0
    return box


@jit
def _best_box(tb, s):
    """The first available box of highest greedy value, and that value (-1 and NEG: none): the
    highest key (a key is value * 64 + 63 - box: the first box wins a tie)."""
    if s.free == 0:
        return -1, NEG
    best = SHUT
    for b in range(36):
        best = max(best, s.key[b])
    return 63 - (best & 63), best >> 6


# -- collecting and effects ----------------------------------------------------------------------
@jit
def _pyramid(tb, s):
    """Check the next pyramid box (lowest level first); none left: it is lost."""
    if s.pyr >= tb.top:
        s.lost += 1
    else:
        s.pyr += 1


@jit
def _add_candy(tb, s, k):
    """Check the candy's next stash circle; a column reaching its number earns its reward."""
    n = s.stash[U(k)]
    if n >= 7:
        return
    s.stash[U(k)] = n + 1
    s.over[U(n)] += 1
    if s.greedy:
        _candy_step(tb, s, k, n)
    # without branches: column n earns its reward the first time enough candies pass it
    earn = np.int64((s.reward[U(n)] == 0) & (s.over[U(n)] >= tb.needs[U(n)]))
    star = tb.rew_star[U(n)]
    s.reward[U(n)] += earn * (3 - 2 * star)  # 1: a star; 3: waits for the cauldron-or-pyramid choice
    s.ps += earn * star
    s.pcp += earn * (1 - star)


@jit
def _unlock(tb, s, box):
    """The box's power and Boo-nus symbols, when now complete."""
    bx, pm, bm, kind = s.boxes, tb.pm[U(box)], tb.bm[U(box)], tb.pk[U(box)]
    done = np.int64(bx & pm == pm)  # without branches (a random game's are unpredictable)
    now = done * tb.imm[U(kind)]  # used at once: a cauldron box to choose, or the next pyramid box
    s.used[U(kind)] += now
    s.ready[U(kind)] += done - now
    cauldron = now * (kind == CAULDRON)
    s.pc += cauldron
    pyramid, full = now - cauldron, np.int64(s.pyr >= tb.top)  # asks nothing: checked at once
    s.lost += pyramid * full
    s.pyr += pyramid * (1 - full)
    rm = tb.rowmask[U(tb.brow[U(box)])]
    s.pr += np.int64((bx & bm == bm) & (bx & rm == rm))


@jit
def _collect(tb, s, box):
    """Cross out the box, stash its candy (a bat may change it), unlock what it completes."""
    s.boxes |= np.int64(1) << box
    s.free &= ~(np.int64(1) << box)
    if s.greedy:
        _child_step(tb, s, box)
    candy = tb.bc[U(box)]
    if s.ready[BAT] > 0:
        candy = _bat(tb, s, candy)
    _add_candy(tb, s, candy)
    _unlock(tb, s, box)


@jit
def _bat(tb, s, candy):
    """An unlocked bat may change the candy collected: the candy kept."""
    s.opts[0], s.vals[0] = -1, tb.gt[U(s.stash[U(candy)])] + BIG * ((s.h_cand >> candy) & 1)
    n = np.int64(1)
    for k in range(6):
        if s.stash[k] < 7 and k != candy:
            s.opts[n], s.vals[n] = k, tb.gt[U(s.stash[U(k)])] - BAT_COST + BIG * ((s.h_cand >> k) & 1)
            n += 1
    i = _choose(s, n)
    if i > 0:
        s.used[BAT] += 1
        s.ready[BAT] -= 1
        candy = s.opts[U(i)]
    return candy


@jit
def _cauldron(tb, s):
    """A cauldron box of choice (the options: the boxes not checked, in order): its candy goes
    to the stash."""
    free = ~s.caul & ((np.int64(1) << tb.n_caul) - 1)
    if free == 0:
        s.lost += 1
        return
    left, i = free, np.int64(-1)
    if s.greedy:  # the first of highest value
        s.k += 1
        best_v = NEG
        while left:
            j = trailing_zeros(left)
            left &= left - 1
            hit = j == s.h_cbox or (s.h_cand >> tb.caul[U(j)]) & 1
            x = CANDY_WEIGHT * tb.gt[U(s.stash[U(tb.caul[U(j)])])] + (BIG if hit else 0)
            if x > best_v:
                i, best_v = j, x
    else:  # the r-th
        i = select(free, _choose(s, popcount(free)))
    s.caul |= np.int64(1) << i
    _add_candy(tb, s, tb.caul[U(i)])


@jit
def _action(tb, s, a):
    """Queue (or do) a cauldron/pyramid choice or Boo-nus row action."""
    if a == STAR_ACT:
        s.ps += 1
    elif a == CAULDRON_ACT:
        s.pc += 1
    else:
        _pyramid(tb, s)


@jit
def _column(tb, s, col):
    """A stash column's reward: a cauldron or a pyramid box."""
    here = s.h_col == -1 or s.h_col == col
    n = np.int64(0)
    if s.caul != (1 << tb.n_caul) - 1:
        s.opts[n], s.vals[n] = CAULDRON_ACT, _cauldron_value(tb, s) + (BIG if s.h_caul and here else 0)
        n += 1
    if s.pyr < tb.top:
        s.opts[n], s.vals[n] = PYRAMID_ACT, _pyramid_value(tb, s) + (BIG if s.h_pyr and here else 0)
        n += 1
    if n == 0:
        s.reward[U(col)] = 4
        s.lost += 1
        return
    a = s.opts[U(_choose(s, n))]
    s.reward[U(col)] = 1 if a == CAULDRON_ACT else 2
    _action(tb, s, a)


@jit
def _row(tb, s):
    """A full Boo-nus row: one of its actions."""
    generic = s.h_col == -1
    n = np.int64(0)
    for j in range(tb.n_act):
        a = tb.actions[j]
        if a == STAR_ACT:
            if s.free == 0:
                continue
            v = (_best_box(tb, s)[1] if s.greedy else 0) + (BIG if s.h_star else 0)
        elif a == CAULDRON_ACT:
            if s.caul == (1 << tb.n_caul) - 1:
                continue
            v = _cauldron_value(tb, s) + (BIG if s.h_caul and generic else 0)
        else:
            if s.pyr >= tb.top:
                continue
            v = _pyramid_value(tb, s) + (BIG if s.h_pyr and generic else 0)
        s.opts[n], s.vals[n] = a, v
        n += 1
    if n == 0:
        s.lost += 1
        return
    _action(tb, s, s.opts[U(_choose(s, n))])


@jit
def _resolve(tb, s):
    """The immediate effects waiting, if any (_effects)."""
    if s.pc | s.pcp | s.pr | s.ps:
        _effects(tb, s)


@jit
def _effects(tb, s):
    """Immediate effects, one at a time, in the reference's order: cauldron boxes, stash columns'
    cauldron/pyramid choices (leftmost first), Boo-nus row actions, stars."""
    while True:
        if s.pc > 0:
            s.pc -= 1
            _cauldron(tb, s)
        elif s.pcp > 0:
            s.pcp -= 1
            col = 0
            while s.reward[U(col)] != 3:  # the leftmost waiting column
                col += 1
            _column(tb, s, col)
        elif s.pr > 0:
            s.pr -= 1
            _row(tb, s)
        elif s.ps > 0:
            s.ps -= 1
            box = _any_box(tb, s)
            if box < 0:
                s.lost += 1
            else:
                _collect(tb, s, box)
        else:
            return


# -- a turn --------------------------------------------------------------------------------------
@jit
def _scare(s, c):
    """Check a scare circle; the third is the skull: the child is scared, its boxes closed."""
    n = s.scares[U(c)] + 1
    s.scares[U(c)] = n
    s.free &= ~((np.int64(63) << (6 * c)) & -np.int64(n == 3))
    if n == 3 and s.greedy:
        for j in range(6):
            s.key[U(6 * c + j)] = SHUT


@jit
def _skull(s, target):
    """Zombie: an unlocked skull may skip this turn's scare (target -1: the full moon's scare)."""
    return s.ready[SKULL] > 0 and _skull_choice(s, target)


@jit
def _skull_choice(s, target):
    if target < 0:  # every child the full moon may scare has 2 scares, and none is the target
        bad = True
        for c in range(6):
            n = s.scares[c]
            if n < 3 and (n != 2 or c == s.h_scare):
                bad = False
    else:
        bad = s.scares[U(target)] == 2 and target != s.h_scare
    s.vals[0], s.vals[1] = 0, 1 if bad else -1
    if _choose(s, np.int64(2)) == 1:
        s.used[SKULL] += 1
        s.ready[SKULL] -= 1
        return True
    return False


@jit
def _doubles(tb, s):
    """Any box, no scare; then an unlocked bone may give a candy of choice."""
    box = _any_box(tb, s)
    if box >= 0:
        _collect(tb, s, box)
        _resolve(tb, s)
    else:
        s.missed += 1
    while s.ready[BONE] > 0:  # bones: one per roll, or as many as chosen (tb.bones_any)
        s.opts[0], s.vals[0] = -1, 0
        n = np.int64(1)
        for k in range(6):
            if s.stash[k] < 7:
                s.opts[n], s.vals[n] = k, tb.gt[U(s.stash[U(k)])] + BIG * ((s.h_cand >> k) & 1)
                n += 1
        if n == 1:
            return
        i = _choose(s, n)
        if i == 0:
            return
        s.used[BONE] += 1
        s.ready[BONE] -= 1
        _add_candy(tb, s, s.opts[U(i)])
        _resolve(tb, s)
        if not tb.bones_any:
            return


@jit
def _moon_values(tb, s, a, b):
    """rules.values for the full moon decision: [plain plan, full moon]."""
    best_a = best_b = plan = NEG
    for c in range(6):
        va, vb = _box_value(tb, s, 6 * c + a - 1), _box_value(tb, s, 6 * c + b - 1)
        best_a, best_b = max(best_a, va), max(best_b, vb)
        if va > NEG:
            plan = max(plan, va - _scare_cost(s, b - 1))
        if vb > NEG:
            plan = max(plan, vb - _scare_cost(s, a - 1))
    if best_a == NEG or best_b == NEG:
        s.vals[0], s.vals[1] = 1, 0
        return
    calm = 1 << 40
    for c in range(6):
        if s.scares[c] < 3:
            calm = min(calm, _scare_cost(s, c))
    s.vals[0], s.vals[1] = plan, best_a + best_b - (0 if calm == 1 << 40 else calm)


@jit
def _die_child(tb, s, a, b, plan):
    """A (die, child) decision, as 6 * die index + child: children whose box takes die 1, then
    die 2 (greedy: box value, less the cost of the other die's scare for a plan). -1: no box
    takes either die (no decision)."""
    # bit c: child c's box for the die is free (one multiply gathers bits 0, 6, ..., 30)
    m1 = ((((s.free >> (a - 1)) & COLS) * GATHER) >> 30) & 63
    m2 = ((((s.free >> (b - 1)) & COLS) * GATHER) >> 30) & 63
    both = m1 | (m2 << 6)  # bit 6 * die index + child: the options in order
    n = popcount(both)
    if n == 0:
        return -1
    if s.greedy:
        return _die_child_greedy(tb, s, a, b, plan, m1, m2)
    return select(both, _choose(s, n))


@jit
def _die_child_greedy(tb, s, a, b, plan, m1, m2):
    """The first option of highest value: each die's best box is its highest key; die 1's wins
    a tie (its options come first)."""
    k1, k2 = SHUT, SHUT
    for c in range(6):
        k1, k2 = max(k1, s.key[U(6 * c + a - 1)]), max(k2, s.key[U(6 * c + b - 1)])
    v1, v2 = k1 >> 6, k2 >> 6
    if plan:
        v1, v2 = v1 - _scare_cost(s, b - 1), v2 - _scare_cost(s, a - 1)
    s.k += 1
    if m1 and (m2 == 0 or v1 >= v2):
        return (63 - (k1 & 63)) // 6
    return 6 + (63 - (k2 & 63)) // 6


@jit
def _moon_collect(tb, s, d):
    """The full moon's other die collects under a child of choice (none takes it: skipped)."""
    n = np.int64(0)
    for c in range(6):
        if (s.free >> (6 * c + d - 1)) & 1:
            s.opts[n], s.vals[n] = c, _box_value(tb, s, 6 * c + d - 1)
            n += 1
    if n:
        _collect(tb, s, 6 * s.opts[U(_choose(s, n))] + d - 1)
        _resolve(tb, s)


@jit
def _moon_scare(tb, s):
    """After a full moon's collects: a child of choice not yet scared (a skull may skip it)."""
    calm = 0
    for c in range(6):
        calm += s.scares[c] < 3
    if calm == 0 or _skull(s, np.int64(-1)):
        return
    n = np.int64(0)
    for c in range(6):
        sc = s.scares[c]
        if sc < 3:
            checked = tb.pop6[(s.boxes >> (6 * c)) & 63]
            s.opts[n], s.vals[n] = c, BIG if c == s.h_scare else -(MOON_SCARE_STEP * sc + 6 - checked)
            n += 1
    _scare(s, s.opts[U(_choose(s, n))])


@jit
def _moon_late(tb, s, d, target):
    """A full moon circled by this turn's collect: keep it (0) or use it now (1): rules.values."""
    if s.greedy:
        best = NEG
        for c in range(6):
            best = max(best, _box_value(tb, s, 6 * c + d - 1))
        calm = 1 << 40
        for c in range(6):
            if s.scares[c] < 3:
                calm = min(calm, _scare_cost(s, c))
        s.vals[0] = -_scare_cost(s, target)
        s.vals[1] = (0 if best == NEG else best) - (0 if calm == 1 << 40 else calm)
    return _choose(s, np.int64(2)) == 1


@jit
def _plain(tb, s, a, b):
    """Not doubles: the full moon if chosen, else collect with one die and scare with the other."""
    moons = s.ready[MOON]
    if moons > 0:
        if s.greedy:
            _moon_values(tb, s, a, b)
        if _choose(s, np.int64(2)) == 1:  # both dice collect, the first from a die of choice
            s.used[MOON] += 1
            s.ready[MOON] -= 1
            o = _die_child(tb, s, a, b, np.int64(0))
            if o >= 0:
                second = o >= 6
                d = b if second else a
                other = a + b - d
                _collect(tb, s, 6 * (o - 6 * second) + d - 1)
                _resolve(tb, s)
                _moon_collect(tb, s, other)
            _moon_scare(tb, s)
            return
    o = _die_child(tb, s, a, b, np.int64(1))
    if o >= 0:
        second = o >= 6  # (o - 6 * second: o % 6 without a division)
        d = b if second else a
        other = a + b - d
        _collect(tb, s, 6 * (o - 6 * second) + d - 1)
        _resolve(tb, s)
        if s.ready[MOON] > moons and _moon_late(tb, s, other, other - 1):  # a full moon circled now
            s.used[MOON] += 1
            s.ready[MOON] -= 1
            _moon_collect(tb, s, other)
            _moon_scare(tb, s)
            return
    else:  # no box takes either die: nothing collected, the player picks the scare die
        s.missed += 1
        s.vals[0], s.vals[1] = -_scare_cost(s, b - 1), -_scare_cost(s, a - 1)
        other = b if _choose(s, np.int64(2)) == 0 else a
    if s.scares[U(other - 1)] < 3 and not _skull(s, other - 1):
        _scare(s, other - 1)


@jit
def _flat(tb, s, out):
    """The end state, each part where rules.layout_of puts it: boxes, scares and stash first (at
    fixed places: plain stores), the rest at tb.at (unsigned indices: no negative-index checks)."""
    bx, n_pow, at = s.boxes, tb.n_pow, tb.at
    for b in range(36):
        out[b] = (bx >> b) & 1
    for j in range(6):
        out[36 + j], out[42 + j] = s.scares[j], s.stash[j]
    rest = out[48:]  # the first part whose place depends on the sheet (unlocked)
    o_used, o_bn, o_bc = np.uint64(at[A_USED] - 48), np.uint64(at[A_BOONUS] - 48), np.uint64(at[A_BCOUNT] - 48)
    o_rw, o_ca = np.uint64(at[A_REWARD] - 48), np.uint64(at[A_CAULDRON] - 48)
    for j in range(6):
        rest[o_used + np.uint64(j)] = s.used[j]
    for i in range(n_pow):
        m = tb.sym_mask[i]
        rest[i] = bx & m == m
    for r in range(3):
        rest[o_bc + np.uint64(r)] = 0
    for c in range(6):  # each child's Boo-nus symbol, and the count of each row
        m = tb.sym_mask[n_pow + c]
        done = bx & m == m
        rest[o_bn + np.uint64(c)] = done
        rest[o_bc + np.uint64(tb.sym_kind[n_pow + c] - 6)] += done
    for j in range(7):
        rest[o_rw + np.uint64(j)] = s.reward[j]
    for i in range(tb.n_caul):
        rest[o_ca + np.uint64(i)] = (s.caul >> i) & 1
    rest[np.uint64(at[A_PYRAMID] - 48)], rest[np.uint64(at[A_LOST] - 48)] = s.pyr, s.lost
    rest[np.uint64(at[A_MISSED] - 48)], rest[np.uint64(at[A_TURN] - 48)] = s.missed, s.turn


@numba.njit(cache=True, nogil=True)
def _play(tab, games, dice, u, targets, help_, out):
    """Play every game: dice [G, T, 2], uniforms [G, T, K], cover targets [G] (help_table's
    rows); end states into out. games[1] is a blank sheet (and the policy), copied to games[0]
    for each game."""
    tb, s = tab[0], games[0]
    nothing = help_.shape[0] - 1
    for g in range(dice.shape[0]):
        games[0] = games[1]
        e = targets[g] if s.cover and targets[g] >= 0 else nothing
        s.h_boxes, s.h_cand, s.h_scare, s.h_caul = help_[e, 0], help_[e, 1], help_[e, 2], help_[e, 3]
        s.h_pyr, s.h_cbox, s.h_col, s.h_star = help_[e, 4], help_[e, 5], help_[e, 6], help_[e, 7]
        if s.h_cand | s.h_boxes:  # cover: the bonus of the boxes and candies that help its target
            for b in range(36):  # (added to the blank sheet's keys)
                s.key[b] += BIG * 64 * (((s.h_cand >> tb.bc[b]) & 1) + ((s.h_boxes >> b) & 1))
        for turn in range(tb.turns):
            a, b = np.int64(dice[g, turn, 0]), np.int64(dice[g, turn, 1])
            s.k = 0
            if not s.greedy:  # greedy reads no uniforms
                for j in range(K):
                    s.u[j] = u[g, turn, j]
            if a == b:
                _doubles(tb, s)
            else:
                _plain(tb, s, a, b)
            s.turn += 1
        _flat(tb, s, out[g])


@lru_cache(maxsize=16)
def _tables(doc_json: str):
    """The sheet's Tables, TAB record and help table, built once: the validator plays one sheet in
    many batches."""
    t = tables(TrickySheet.model_validate_json(doc_json))
    return t, build(t), help_table(t)


def play(doc, dice, u, policy: str, targets):
    t, tab, table = _tables(doc.model_dump_json())
    games = np.zeros(2, GAME)  # the game being played, and a blank sheet
    games["free"], games["greedy"], games["cover"] = ALL36, policy != "random", policy == "cover"
    games["key"] = tab["key0"][0]  # no candy stashed, no help: _play's start values
    # int8: every part is a small count (under 64 in any game); a smaller end state keeps a call's
    # memory under glibc's trim threshold, so its pages are not returned and faulted again each call
    out = np.empty((len(dice), layout_of(t)["_size"].stop), np.int8)
    _play(tab, games, np.ascontiguousarray(dice), np.ascontiguousarray(u, np.float64),
          np.ascontiguousarray(targets, np.int64), table, out)
    return finish(t, out)  # compiled too, but on its own (a compiled call across files would be
    # cached with the other file's code and not see it change)
