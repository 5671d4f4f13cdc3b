"""The fast Haunt the Block engine: the reference engine's decisions, compiled with numba, one game at
a time. The cheapest plan for every (dice, powers at hand, stars at hand, distance, pumpkin
condition) comes from a table built once per sheet (`plans`), so a move is a lookup per distance.

A game's sheet is one flat int64 row (`x`, offsets below); the sheet's facts are a tuple of arrays
(`Sheet`). Options come in the reference's canonical order and greedy values follow policy.value,
so the equality tests hold both engines to the same end states.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from ...validate.engine import Batch
from .board import COMBOS, MODS, Board, combo_powers, core_value, meets
from .model import MOON_POWERS, SYMBOLS, TURNS, HauntSheet
from .policy import CHILD_GAIN, GAIN_WEIGHT, K

jit = numba.njit(cache=True, nogil=True)
inline = numba.njit(cache=True, nogil=True, inline="always")  # helpers: inlined where called (much faster)
i8 = np.int64
NONE, FREE_CODE = -1, -2  # plan codes: no plan; a doubles write (board.FREE)
BIG = 1 << 40
SHIFT = 64  # plan code = combo * SHIFT + (stars + SHIFT // 2)
RANDOM, GREEDY, COVER = range(3)
P = len(MOON_POWERS)
# a game's row x: numbers on the path | stash | crossed | column stars | Boo-nus | unlocked | power
# uses | Boo-nus bars | scalars (the model's limits size each part)
MAXN, MAXC, MAXCOL, MAXSYM = 80, 8, 8, 16
NUM, STASH = 0, MAXN
CROSSED = STASH + MAXC
COLSTAR = CROSSED + MAXC
BOON = COLSTAR + MAXCOL
UNL = BOON + 3
PUSES = UNL + P
BCOL = PUSES + P
POS, CIRCLED, USED, PUMPKINS, SWEET, PEN, PMASK, BAR_RJ, BAR_ST, BAR_PK = range(BCOL + MAXSYM, BCOL + MAXSYM + 10)
X = BAR_PK + 1


@lru_cache(maxsize=32)
def plans(doc_json: str):
    """The Board, and plan[a-1, b-1, powers at hand (bits), stars at hand, d, q]: the cheapest
    plan code (as State.plan_for chooses it) or NONE; q = 0, or 1 + the pumpkin's index."""
    b = Board(HauntSheet.model_validate_json(doc_json))
    S, D = b.c.stars, b.max_move
    conds = [None] + b.pumpkin_conditions
    shape = (6, 6, 16, S + 1, D + 1, len(conds))
    best = np.full(shape, BIG, np.int64)
    plan = np.full(shape, NONE, np.int64)
    d = np.arange(D + 1)
    have = np.arange(S + 1)[None, None, None, :, None, None]
    for combo, (core, mod) in enumerate(COMBOS):
        powers = combo_powers(combo)
        if any(p not in b.moon_child for p in powers):
            continue
        need = sum(1 << MOON_POWERS.index(p) for p in powers)
        masks = np.array([(m & need) == need for m in range(16)])[None, None, :, None, None, None]
        v = np.zeros((6, 6, 1), np.int64)
        for a in range(1, 7):
            for bd in range(1, 7):
                x = core_value(core, a, bd)
                if mod:
                    x = max(1, x + (b.amount("add") if MODS[mod] == "add" else -b.amount("subtract")))
                v[a - 1, bd - 1, 0] = x
        stars = np.abs(d[None, None, :] - v)  # [6, 6, D+1]
        ok = np.zeros((6, 6, D + 1, len(conds)), bool)
        for a in range(1, 7):
            for bd in range(1, 7):
                for x in range(1, D + 1):
                    st = int(stars[a - 1, bd - 1, x])
                    ok[a - 1, bd - 1, x] = [meets(q, combo, x, a, bd, st) for q in conds]
        key = ((len(powers) + stars) * 16 + stars) * 32 + combo
        key6 = key[:, :, None, None, :, None]
        valid = masks & (stars[:, :, None, None, :, None] <= have) & ok[:, :, None, None, :, :]
        better = valid & (key6 < best)
        best = np.where(better, key6, best)
        code = combo * SHIFT + (d[None, None, :] - v) + SHIFT // 2
        plan = np.where(better, code[:, :, None, None, :, None], plan)
    return b, plan.astype(np.int16)


@lru_cache(maxsize=32)
def sheet(doc_json: str):
    """The sheet's facts as the compiled code reads them: (ints, arrays...)."""
    b, plan = plans(doc_json)
    c = b.c
    n, C, ncol, S = b.n, len(c.candies), len(c.points), c.stars
    eid = b.eid
    ncode = len(COMBOS) * SHIFT + 2  # codes -2 (FREE), -1 (NONE), 0..; index code + 2
    codes = np.arange(ncode) - 2
    real = codes >= 0
    uses_of = np.zeros((ncode, P), bool)
    for i in np.flatnonzero(real):
        for p in combo_powers(int(codes[i] // SHIFT)):
            uses_of[i, MOON_POWERS.index(p)] = True
    stars_of = np.where(real, np.abs(codes % SHIFT - SHIFT // 2), 0)
    ubits = (uses_of << np.arange(P)).sum(1)
    e_start = np.full(n, -1)
    for i in b.starts:
        e_start[i] = eid[f"path.{i + 1}.start"]
    e_stash = np.full((C, ncol + 1), -1)
    for k, cid in enumerate(b.candy_ids):
        e_stash[k, :ncol] = [eid[f"stash.{cid}.{j + 1}"] for j in range(ncol)]
    maxs = max(b.sym_count)
    e_boon = np.full((3, maxs + 1), -1)
    for s, name in enumerate(SYMBOLS):
        e_boon[s, :b.sym_count[s]] = [eid[f"boonus.{name}.{j + 1}"] for j in range(b.sym_count[s])]
    e_power = np.full((P, c.uses + 1), -1)
    for k, p in enumerate(MOON_POWERS):
        if p in b.moon_child:
            kid = c.children[b.moon_child[p]].id
            e_power[k, :c.uses] = [eid[f"power.{kid}.{j + 1}"] for j in range(c.uses)]
    # per (dice, powers, stars) key: the distances some plan reaches (ascending; a pumpkin's
    # condition only removes plans, so these are all a move without dice doubles can cover)
    D, Q = b.max_move, len(b.pumpkin_conditions) + 1
    free = plan.reshape(-1, D + 1, Q)[:, :, 0] != NONE
    nreach = free.sum(1).astype(i8)
    reach = np.zeros((len(free), D), i8)
    for key in np.flatnonzero(nreach):
        ds = np.flatnonzero(free[key])
        reach[key, :len(ds)] = ds
    kinds = {"pumpkin": 0, "candy_of_choice": 1, "star": 2, "sweetheart": 3}
    pts0 = np.concatenate([[0], c.points])  # points of a row with k candies
    ints = np.array([n, C, ncol, S, b.max_move, len(b.pumpkin_conditions) + 1, c.uses,
                     c.start_stars, c.pumpkins, c.bar_points, b.columns, eid.get("bar.romeo_juliet", -1),
                     eid["bar.stars"], eid["bar.pumpkins"], len(b.element_ids)], i8)
    arrays = (np.ascontiguousarray(plan.ravel()), b.space_candy.astype(i8), b.space_child.astype(i8),
              b.space_q.astype(i8), np.array(b.child_symbol, i8),
              np.array([kinds.get(k.power or k.symbol, 4) for k in c.children], i8),
              np.array([MOON_POWERS.index(k.power) if k.symbol == "moon" else 0 for k in c.children], i8),
              np.array(b.sym_count, i8), np.concatenate([np.diff(pts0), [0]]).astype(i8), pts0.astype(i8),
              np.array(c.thresholds, i8), (uses_of.sum(1) + stars_of).astype(i8), ubits.astype(i8),
              stars_of.astype(i8), np.array(b.starts, i8),
              np.array([eid[f"path.{i + 1}"] for i in range(n)], i8), e_start.astype(i8), e_stash.astype(i8),
              np.array([eid[f"stash.star.{j + 1}"] for j in range(ncol)], i8),
              np.array([eid[f"stars.{j + 1}"] for j in range(S)], i8), e_boon.astype(i8),
              np.array([eid[f"boonus.bar.{j + 1}"] for j in range(b.columns)], i8), e_power.astype(i8),
              np.array([eid[f"penalty.{k}"] for k in b.candy_ids], i8), reach, nreach)
    return b, ints, arrays


@inline
def _circle_star(x, r, ints, e_stars, e_bstars):
    S = ints[3]
    if x[CIRCLED] < S:
        x[CIRCLED] += 1
        r[e_stars[x[CIRCLED] - 1]] = True
        if x[CIRCLED] == S:
            x[BAR_ST] = 1
            r[e_bstars] = True


@inline
def _collect(x, r, k, ints, thr, e_stash, e_colstar, e_stars):
    C, ncol = ints[1], ints[2]
    col = x[STASH + k]
    if col >= ncol:
        return
    x[STASH + k] = col + 1
    r[e_stash[k, col]] = True
    rows = 0
    for j in range(C):
        if x[STASH + j] >= col + 1:
            rows += 1
    if not x[COLSTAR + col] and rows >= thr[col]:
        x[COLSTAR + col] = 1
        r[e_colstar[col]] = True
        _circle_star(x, r, ints, e_stars, ints[12])


@inline
def _land(x, r, space, number, ints, sp_candy, sp_child, ch_sym, ch_kind, ch_moon, sym_count, thr, e_path,
          e_stash, e_colstar, e_stars, e_boon, e_bcol):
    """Write and take what the space gives; True when the Pirate owes a candy of choice."""
    x[NUM + space] = number
    x[POS] = space
    r[e_path[space]] = True
    cand = sp_candy[space]
    if cand >= 0:
        _collect(x, r, cand, ints, thr, e_stash, e_colstar, e_stars)
        return False
    ch = sp_child[space]
    s = ch_sym[ch]
    if x[BOON + s] < sym_count[s]:
        x[BOON + s] += 1
        col = x[BOON + s]
        r[e_boon[s, col - 1]] = True
        done = True
        for t in range(3):
            if sym_count[t] >= col and x[BOON + t] < col:
                done = False
        if done:
            x[BCOL + col - 1] = 1
            r[e_bcol[col - 1]] = True
    kind = ch_kind[ch]
    if kind == 0:
        x[PUMPKINS] += 1
        if x[PUMPKINS] == ints[8]:
            x[BAR_PK] = 1
            r[ints[13]] = True
    elif kind == 1:
        return True
    elif kind == 2:
        _circle_star(x, r, ints, e_stars, ints[12])
    elif kind == 3:
        x[SWEET] += 1
        if x[SWEET] == 2:
            x[BAR_RJ] = 1
            if ints[11] >= 0:
                r[ints[11]] = True
    else:
        x[UNL + ch_moon[ch]] = 1
        x[PMASK] |= 1 << ch_moon[ch]
    return False


@inline
def _pick(pol, legal, value, hit, n, u):
    """The index of the option taken among the first n: random the k-th legal one; greedy the
    best value, the first on ties; cover the same among those that hit the target, if any do."""
    if pol == RANDOM:
        cnt = 0
        for i in range(n):
            cnt += legal[i]
        k = np.int64(u * cnt)
        for i in range(n):
            if legal[i]:
                if k == 0:
                    return i
                k -= 1
        return -1
    any_hit = False
    if pol == COVER:
        for i in range(n):
            if legal[i] and hit[i]:
                any_hit = True
                break
    best, pick = -BIG, -1
    for i in range(n):
        if legal[i] and (not any_hit or hit[i]) and value[i] > best:
            best, pick = value[i], i
    return pick


@inline
def _rowgain(x, k, ints, gain_of):
    if x[CROSSED + k]:
        return 0
    return gain_of[x[STASH + k]]


@jit
def _play(dice, u, pol, tgt, ints, plan, sp_candy, sp_child, sp_q, ch_sym, ch_kind, ch_moon, sym_count, gain_of,
          pts0, thr, cost_of, ubits, stars_of, starts, e_path, e_start, e_stash, e_colstar, e_stars, e_boon,
          e_bcol, e_power, e_pen, reach, nreach, out_x, out_r):
    n, C, S, D, Q, uses = ints[0], ints[1], ints[3], ints[4], ints[5], ints[6]
    W = n - 1
    legal = np.zeros(n, np.bool_)
    hit = np.zeros(n, np.bool_)
    value = np.zeros(n, np.int64)
    code = np.zeros(n, np.int64)
    dist = np.zeros(n, np.int64)  # the distance of each option
    rg = np.zeros(C + 1, np.int64)  # this turn's greedy value of each candy's space; rg[C]: a child's
    for g in range(dice.shape[0]):
        x = out_x[g]
        r = out_r[g]
        x[:] = 0
        r[:] = False
        x[CIRCLED] = ints[7]
        for j in range(ints[7]):
            r[e_stars[j]] = True
        tg = tgt[g]
        cover = pol == COVER and tg >= 0
        p = pol if cover or pol == RANDOM else GREEDY
        # turn 1: the start
        ns = starts.shape[0]
        for i in range(ns):
            sc = sp_candy[starts[i]]
            legal[i] = True
            value[i] = GAIN_WEIGHT * _rowgain(x, sc, ints, gain_of)
            hit[i] = cover and (e_path[starts[i]] == tg or e_start[starts[i]] == tg or e_stash[sc, 0] == tg)
        k = _pick(p, legal, value, hit, ns, u[g, 0, 0])
        r[e_start[starts[k]]] = True
        _land(x, r, starts[k], 1, ints, sp_candy, sp_child, ch_sym, ch_kind, ch_moon, sym_count, thr, e_path,
              e_stash, e_colstar, e_stars, e_boon, e_bcol)
        for t in range(1, TURNS):
            number = t + 1
            a, bd = dice[g, t, 0], dice[g, t, 1]
            dbl = a == bd
            have = x[CIRCLED] - x[USED]
            key = (((a - 1) * 6 + bd - 1) * 16 + x[PMASK]) * (S + 1) + have
            base = key * (D + 1) * Q
            pos = x[POS]
            tk = -1  # the power whose next use-circle is the cover target
            if cover:
                for q in range(P):
                    if e_power[q, x[PUSES + q]] == tg:
                        tk = q
            for k in range(C):
                rg[k] = GAIN_WEIGHT * _rowgain(x, k, ints, gain_of)
            rg[C] = GAIN_WEIGHT * CHILD_GAIN
            m = 0  # options listed
            for j in range(W if dbl else nreach[key]):
                d = j + 1 if dbl else reach[key, j]
                dest = (pos + d) % n
                if x[NUM + dest] != 0:
                    continue
                cand = sp_candy[dest]
                if dbl and cand >= 0:
                    c = FREE_CODE
                elif d <= D:
                    c = plan[base + d * Q + sp_q[dest]]
                else:
                    c = NONE
                if c == NONE:
                    continue
                dist[m], code[m], legal[m] = d, c, True
                value[m] = rg[cand if cand >= 0 else C] - cost_of[c + 2]
                if cover:
                    s = ch_sym[sp_child[dest]] if cand < 0 else 0
                    nxt = e_stash[cand, x[STASH + cand]] if cand >= 0 else e_boon[s, x[BOON + s]]
                    hit[m] = e_path[dest] == tg or nxt == tg or (tk >= 0 and (ubits[c + 2] >> tk) & 1 == 1)
                m += 1
            nlegal = m
            if nlegal:
                j = _pick(p, legal, value, hit, m, u[g, t, 0])
                c = code[j]
                for q in range(P):
                    if (ubits[c + 2] >> q) & 1:
                        x[PUSES + q] += 1
                        if x[PUSES + q] == uses:
                            x[PMASK] &= ~(1 << q)
                        r[e_power[q, x[PUSES + q] - 1]] = True
                x[USED] += stars_of[c + 2]
                owed = _land(x, r, (pos + dist[j]) % n, number, ints, sp_candy, sp_child, ch_sym, ch_kind, ch_moon,
                             sym_count, thr, e_path, e_stash, e_colstar, e_stars, e_boon, e_bcol)
                if owed:  # the Pirate: a candy of choice
                    for k in range(C):
                        legal[k] = True
                        value[k] = _rowgain(x, k, ints, gain_of)
                        hit[k] = cover and e_stash[k, x[STASH + k]] == tg
                    k = _pick(p, legal, value, hit, C, u[g, t, 1 % K])
                    _collect(x, r, k, ints, thr, e_stash, e_colstar, e_stars)
                continue
            # no move at all: the penalty
            x[PEN] += 1
            slot = 0
            can = 0
            for k in range(C):
                legal[k] = not x[CROSSED + k]
                can += legal[k]
                value[k] = -pts0[x[STASH + k]]
                hit[k] = cover and e_pen[k] == tg
            if can:
                k = _pick(p, legal, value, hit, C, u[g, t, 0])
                x[CROSSED + k] = 1
                r[e_pen[k]] = True
                slot = 1
            for j in range(W):
                dest = (pos + j + 1) % n
                cand = sp_candy[dest]
                legal[j] = cand >= 0 and x[NUM + dest] == 0
                if legal[j]:
                    value[j] = GAIN_WEIGHT * _rowgain(x, cand, ints, gain_of)
                    hit[j] = cover and (e_path[dest] == tg or e_stash[cand, x[STASH + cand]] == tg)
            j = _pick(p, legal, value, hit, W, u[g, t, slot % K])
            _land(x, r, (pos + j + 1) % n, number, ints, sp_candy, sp_child, ch_sym, ch_kind, ch_moon, sym_count,
                  thr, e_path, e_stash, e_colstar, e_stars, e_boon, e_bcol)


def fast(doc, dice, u, policy, targets) -> Batch:
    b, ints, arrays = sheet(doc.model_dump_json())
    c = b.c
    G, n, C, ncol = len(dice), b.n, len(c.candies), len(c.points)
    pol = {"random": RANDOM, "greedy": GREEDY, "cover": COVER}[policy]
    tgt = np.asarray(targets, i8) if pol == COVER else np.full(G, -1, i8)
    x = np.empty((G, X), i8)
    reached = np.empty((G, len(b.element_ids)), np.bool_)
    _play(np.ascontiguousarray(dice), np.ascontiguousarray(u, np.float64), pol, tgt, ints, *arrays, x, reached)
    stash, crossed = x[:, STASH:STASH + C], x[:, CROSSED:CROSSED + C]
    bcol = x[:, BCOL:BCOL + b.columns]
    pts0 = arrays[9]
    score = np.where(crossed, 0, pts0[stash]).sum(1) + c.bar_points * (
        bcol.sum(1) + x[:, BAR_RJ] + x[:, BAR_ST] + x[:, BAR_PK])
    tie = x[:, CIRCLED] - x[:, USED]
    unlocked, puses = x[:, UNL:UNL + P], x[:, PUSES:PUSES + P]
    unused = tie + (unlocked * (c.uses - puses)).sum(1)
    state = np.concatenate([x[:, NUM:NUM + n], stash, crossed, x[:, COLSTAR:COLSTAR + ncol],
                            x[:, [CIRCLED, USED]], x[:, BOON:BOON + 3], unlocked, puses, bcol,
                            x[:, [BAR_RJ, BAR_ST, BAR_PK, PUMPKINS, SWEET, POS, PEN]], tie[:, None]], 1)
    return Batch(score.astype(i8), reached, x[:, PEN].copy(), unused.astype(i8), np.zeros(G, i8),
                 np.full(G, TURNS, i8), state.astype(i8))
