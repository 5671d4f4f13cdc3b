"""The fast Haunt the Block engine: the reference engine's decisions, compiled with numba, one game at
a time. Every way to pay every move for every (roll, powers at hand, stars at hand, distance,
pumpkin) comes from tables built once per sheet (`tables`), so listing the moves of a turn is a
lookup per distance: how many payments there are and the cheapest one. A turn visits only the
distances its key can reach whose space is empty (bit words, 32 distances each). A payment is
coded stars * 16 + powers mask, so ascending codes are the reference's order.

Options come in the reference's canonical order and greedy values follow policy.value, so the
equality tests hold both engines to the same end states (`Batch.state` is written here in the
order of `State.vector`, as int16: every entry is a small count)."""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...validate.engine import Batch
from . import board as ids
from .board import Board, bar_ids
from .model import MOON_POWERS, SYMBOLS, HauntSheet
from .policy import CHILD_GAIN, GAIN_WEIGHT, POWER_COST, STAR_COST, K

jit = numba.njit(cache=True, nogil=True, error_model="numpy")
i8 = np.int64
BIG = 1 << 40
NOPAY = 255  # tables: no payment
HIT = 1 << 30  # cover: what hitting the target adds to a value (hits first, then greedy's order)
RANDOM, GREEDY, COVER = range(3)
P = len(MOON_POWERS)
M = 1 << P  # power masks


@lru_cache(maxsize=32)
def tables(doc_json: str):
    """The Board and, per cell = (key * Q + q) * (D + 1) + d, with key = ((a-1) * 6 + b-1) * M +
    powers at hand) * (S + 1) + stars at hand and q = 0 or 1 + a pumpkin's index: the number of
    payments (`npay`) and the first cheapest one (`cheap`, NOPAY if none), a byte each. A key's
    cells are side by side, so a turn reads a few cache lines; a roll and its mirror pay alike, so the engine reads
    a <= b only. The payments themselves: the ascending list of a roll's payments with every power
    and star at hand, per (q, roll, d), in `flat` from `off`; a cell's are those it can afford.
    The tables depend only on the routes, the pumpkins' conditions, the stars and the longest move,
    so sheets that share those (a sheet and most of its mechanic-check copies) share them."""
    b = Board(HauntSheet.model_validate_json(doc_json))
    conds = [None] + b.pumpkin_conditions
    key = (routes_key(b), tuple(c.model_dump_json() if c is not None else "" for c in conds))
    return b, _tables(key, b, conds, b.c.stars, b.max_move)


def routes_key(b: Board) -> tuple:
    return tuple(tuple(b.routes[(a, bd)]) for a in range(1, 7) for bd in range(1, 7))


_TABLES: dict = {}  # (routes, conditions, S, D) -> tables


def _tables(key: tuple, b: Board, conds: list, S: int, D: int):
    if (key, S, D) in _TABLES:
        return _TABLES[key, S, D]
    if len(_TABLES) >= 32:
        _TABLES.clear()
    Q, NC = len(conds), (S + 1) * M
    code = np.arange(NC)
    c_stars, c_mask = code // M, code % M
    c_npow = np.array([bin(m).count("1") for m in range(M)])[c_mask]
    cost = POWER_COST * c_npow + STAR_COST * c_stars
    avail, have = np.arange(M)[:, None, None], np.arange(S + 1)[None, :, None]
    valid = ((c_mask & ~avail) == 0) & (c_stars <= have)  # [M, S+1, NC]
    pres = reachable(key, b, conds, S, D)
    words = []  # per cell: payments | the first cheapest << 8
    for roll in range(36):  # [M, S+1, Q, D+1, NC]: the payments of each cell, in cell order
        if roll // 6 > roll % 6:  # a > b: never read (the engine reads a roll as its a <= b mirror)
            words.append(np.full(M * (S + 1) * Q * (D + 1), NOPAY << 8))
            continue
        have_it = (valid[:, :, None, None, :] & pres[:, roll][None, None]).reshape(-1, NC)
        cnt = have_it.sum(1)
        best = np.argmin(np.where(have_it, cost, BIG), 1)
        words.append(np.where(cnt > 0, best, NOPAY) << 8 | cnt)
    words = np.concatenate(words)
    # a roll's payments with every power and star at hand, per (q, roll, d): a cell's payments are
    # those of its powers and stars (`fits`), in the same order
    lists = pres.reshape(-1, NC)
    flat = np.nonzero(lists)[1]
    off = np.concatenate([[0], np.cumsum(lists.sum(1))])
    # per key: the distances some payment reaches (a pumpkin's condition only removes payments)
    # as bits: distance d is bit (d - 1) % 32 of word (d - 1) // 32
    free = (words.reshape(-1, Q, D + 1)[:, 0, 1:] & 255) > 0
    reach = bits32(free)
    _TABLES[key, S, D] = ((words & 255).astype(np.uint8), (words >> 8).astype(np.uint8), off.astype(np.int32),
                          flat.astype(np.uint8), reach, cost.astype(i8), c_stars.astype(i8), c_mask.astype(i8))
    return _TABLES[key, S, D]


_REACHABLE: dict = {}  # (routes, conditions, D) -> (S, pres): sheets that differ in stars share it


def reachable(key: tuple, b: Board, conds: list, S: int, D: int) -> np.ndarray:
    """pres[q, roll, d, code]: whether some route of the roll pays distance d with code = stars * M +
    powers, meeting condition q. Codes with fewer stars are a prefix, so a table made for more
    stars serves a sheet with fewer (the mechanic check plays many such sheets)."""
    key = key, D
    if key not in _REACHABLE or _REACHABLE[key][0] < S:
        if len(_REACHABLE) >= 32:
            _REACHABLE.clear()
        pres = np.zeros((len(conds), 36, D + 1, (S + 1) * M), bool)
        for a in range(1, 7):
            for bd in range(a, 7):  # a <= b: the engine reads a roll as its mirror with a <= b
                for (d, q), pays in b.payments(a, bd, M - 1, S).items():  # the rules' payments
                    if d <= D:
                        for stars, mask in pays:
                            pres[q, (a - 1) * 6 + bd - 1, d, stars * M + mask] = True
        _REACHABLE[key] = S, pres
    return _REACHABLE[key][1][..., :(S + 1) * M]


def bits32(flags):
    """Rows of flags as rows of 32-bit words (int64, never negative), two words of padding."""
    flags = np.asarray(flags, bool)
    nw = flags.shape[-1] // 32 + 3
    pad = np.zeros(flags.shape[:-1] + (nw * 32,), bool)
    pad[..., :flags.shape[-1]] = flags
    return (pad.reshape(flags.shape[:-1] + (nw, 32)).astype(i8) << np.arange(32)).sum(-1)


@lru_cache(maxsize=32)
def sheet(doc_json: str):
    """The sheet's facts as the compiled code reads them: (ints, arrays...)."""
    b, tabs = tables(doc_json)
    c = b.c
    n, C, ncol, S = b.n, len(c.candies), len(c.points), c.stars
    eid = b.eid
    e_start = np.full(n, -1)
    for i in b.starts:
        e_start[i] = eid[ids.start_id(i)]
    e_stash = np.full((C, ncol + 1), -1)
    for k, cid in enumerate(b.candy_ids):
        e_stash[k, :ncol] = [eid[ids.stash_id(cid, j)] for j in range(ncol)]
    maxs = max(b.sym_count)
    e_boon = np.full((3, maxs + 1), -1)
    for s, name in enumerate(SYMBOLS):
        e_boon[s, :b.sym_count[s]] = [eid[ids.boonus_id(name, j)] for j in range(b.sym_count[s])]
    e_power = np.full((P, c.uses + 1), -1)
    for k, p in enumerate(MOON_POWERS):
        if p in b.moon_child:
            kid = c.children[b.moon_child[p]].id
            e_power[k, :c.uses] = [eid[ids.power_id(kid, j)] for j in range(c.uses)]
    kinds = {"pumpkin": 0, "candy_of_choice": 1, "star": 2, "sweetheart": 3, "none": 5}  # moons 4
    pts0 = np.concatenate([[0], c.points])  # points of a row with k candies
    bars = bar_ids(b)
    ints = np.array([n, C, ncol, S, b.max_move, len(b.pumpkin_conditions) + 1, c.uses,
                     c.start_stars, c.pumpkins, c.bar_points, b.columns, eid.get(ids.SWEET_BAR, -1),
                     eid[ids.STARS_BAR], eid[ids.PUMPKINS_BAR], len(b.element_ids), b.turns], i8)
    row = b.max_move + 1  # cells per pumpkin and key (tables)
    assert tabs[4].shape[1] > (n - 2) >> 5  # a reach word for every 32 distances of a turn
    twice = lambda a: np.tile(a, 2).astype(i8)  # noqa: E731 (the block twice: space + distance, no wrapping)
    arrays = (twice(b.space_candy), twice(b.space_child), twice(b.space_q * row), twice(b.space_q),
              twice(np.where(b.space_candy >= 0, b.space_candy, len(c.candies))),
              np.arange(2 * n) % n, bits32(twice(b.space_candy >= 0)), bits32(np.ones(2 * n, bool)),
              np.array(b.child_symbol, i8),
              np.array([kinds.get(k.power or k.symbol, 4) for k in c.children], i8),
              np.array([MOON_POWERS.index(k.power) if k.power in MOON_POWERS else 0 for k in c.children], i8),
              np.array(b.sym_count, i8), np.concatenate([np.diff(pts0), [0]]).astype(i8), pts0.astype(i8),
              np.array(c.thresholds, i8), np.array(b.starts, i8),
              np.array([eid[ids.path_id(i)] for i in range(n)], i8), e_start.astype(i8), e_stash.astype(i8),
              np.array([eid.get(ids.column_star_id(j), -1) for j in range(ncol)], i8),  # -1: no star
              np.array([eid[ids.star_id(j)] for j in range(S)], i8), e_boon.astype(i8),
              np.array([eid[ids.boonus_bar_id(j)] for j in range(b.columns)], i8), e_power.astype(i8),
              np.array([eid[ids.penalty_id(k)] for k in b.candy_ids], i8), *tabs)
    return b, ints, arrays, len(bars)


@jit
def _put(x, i, a, m):
    """Copy a[:m] into x from i; the next free index."""
    for k in range(m):
        x[i + k] = a[k]
    return i + m


@jit
def _open(reach, key, candw, emp, s0, base, lim, dbl):
    """Bits j: distance base + j + 1 is reachable (doubles: or a candy space) and empty; s0 is
    the first of these spaces on the block laid out twice."""
    w, sh = s0 >> 5, s0 & 31
    bits = reach[key, base >> 5]  # padded: every chunk of the block has a word
    if dbl:
        bits |= (candw[w] >> sh) | (candw[w + 1] << (32 - sh))
    bits &= (emp[w] >> sh) | (emp[w + 1] << (32 - sh))
    return bits & ((1 << min(32, lim - base)) - 1)


@jit
def _play(dice, u, pol, tgt, ints, sp_candy, sp_child, sp_q, sp_qi, sp_rg, wrap, candw, emp0, ch_sym,
          ch_kind, ch_moon, sym_count, gain_of, pts0, thr, starts, e_path, e_start, e_stash, e_colstar, e_stars,
          e_boon, e_bcol, e_power, e_pen,
          npay, cheap, off, flat, reach, cost, c_stars, c_mask,
          out_score, out_pen, out_unused, out_turns, out_x, out_r):
    n, C, ncol, S, D, Q, uses = ints[0], ints[1], ints[2], ints[3], ints[4], ints[5], ints[6]
    T, nbcol = ints[15], ints[10]
    W = n - 1
    # one game's sheet, reset per game
    num = np.zeros(n, np.int64)
    stash = np.zeros(C, np.int64)
    crossed = np.zeros(C, np.int64)
    colstar = np.zeros(ncol, np.int64)
    colcnt = np.zeros(ncol + 1, np.int64)  # rows whose stash reaches each column
    boon = np.zeros(3, np.int64)
    unl = np.zeros(P, np.int64)
    puses = np.zeros(P, np.int64)
    bcol = np.zeros(nbcol + 1, np.int64)
    rg = np.zeros(C + 1, np.int64)  # greedy value of one more candy of each row; rg[C]: a child
    # this turn's options: distance, cell, count (random) / value, payment (greedy, cover)
    o_cnt = np.zeros(n, np.int64)  # this turn's payments per listed distance (random)
    o_d = np.zeros(n, np.int64)  # the listed distances (random)
    emp = np.zeros_like(emp0)  # bits: the empty spaces, the block twice (no wrapping)
    for g in range(dice.shape[0]):
        r = out_r[g]
        num[:] = 0
        emp[:] = emp0
        stash[:] = 0
        crossed[:] = 0
        colstar[:] = 0
        colcnt[:] = 0
        boon[:] = 0
        unl[:] = 0
        puses[:] = 0
        bcol[:] = 0
        for k in range(C):
            rg[k] = GAIN_WEIGHT * gain_of[0]
        rg[C] = GAIN_WEIGHT * CHILD_GAIN
        circled, used, pumpkins, sweet, pen, amask, rj, bst, bpk = ints[7], 0, 0, 0, 0, 0, 0, 0, 0
        for j in range(ints[7]):
            r[e_stars[j]] = True
        tg = tgt[g]
        cover = pol == COVER and tg >= 0
        tg_space = -1  # the space whose path box is the target
        for i in range(n):
            if cover and e_path[i] == tg:
                tg_space = i
        p = pol if cover or pol == RANDOM else GREEDY
        pos, number, owed = 0, 1, False
        for t in range(T):
            if t == 0:  # turn 1: the start
                ns = starts.shape[0]
                if p == RANDOM:
                    dest = starts[np.int64(u[g, 0, 0] * ns)]
                else:
                    bestv, dest = -BIG, -1
                    for i in range(ns):
                        sp = starts[i]
                        sc = sp_candy[sp]
                        h = cover and (e_path[sp] == tg or e_start[sp] == tg or e_stash[sc, stash[sc]] == tg)
                        v = rg[sc]
                        if v + HIT * h > bestv:
                            bestv, dest = v + HIT * h, sp
                r[e_start[dest]] = True
            else:
                a, bd = min(dice[g, t, 0], dice[g, t, 1]), max(dice[g, t, 0], dice[g, t, 1])
                dbl = a == bd
                have = circled - used
                key = (((a - 1) * 6 + bd - 1) * M + amask) * (S + 1) + have
                kb = key * Q * (D + 1)
                roll = ((a - 1) * 6 + bd - 1) * (D + 1)
                tk = -1  # the power whose next use-circle is the cover target
                aim = False  # whether some move this turn can mark the target (else: greedy)
                if cover:
                    for q in range(P):
                        if (amask >> q) & 1 and e_power[q, puses[q]] == tg:
                            tk = q
                    aim = tk >= 0 or (tg_space >= 0 and num[tg_space] == 0)
                    for q in range(C):
                        aim = aim or e_stash[q, stash[q]] == tg
                    for q in range(3):
                        aim = aim or e_boon[q, boon[q]] == tg
                md, bpay, k = -1, 0, 0  # the distance moved (-1: none) and its payment
                lim = W if dbl else D  # doubles: any empty candy space too
                bestv, tot, m = -BIG, 0, 0
                if p == RANDOM:  # each reachable empty space's payments (doubles: a candy space's free write)
                    for base in range(0, lim, 32):
                        bits = _open(reach, key, candw, emp, pos + 1 + base, base, lim, dbl)
                        while bits:
                            d = base + trailing_zeros(bits) + 1
                            bits &= bits - 1
                            cell = sp_q[pos + d] + kb + (d if d <= D else 0)
                            e = np.int64(npay[cell]) + (dbl and sp_candy[pos + d] >= 0 and cheap[cell] != 0)
                            o_d[m] = d
                            o_cnt[m] = e
                            m += 1 if e else 0
                            tot += e
                for base in range(0, lim if p != RANDOM else 0, 32):  # greedy, cover
                    bits = _open(reach, key, candw, emp, pos + 1 + base, base, lim, dbl)
                    while bits:
                        d = base + trailing_zeros(bits) + 1
                        bits &= bits - 1
                        at = pos + d  # the space, on the block laid out twice
                        cand = sp_candy[at]
                        cell = sp_q[at] + kb + (d if d <= D else 0)
                        isc = dbl and cand >= 0
                        pay = 0 if isc else np.int64(cheap[cell])
                        if pay == NOPAY:
                            continue
                        g0 = rg[sp_rg[at]]
                        v = g0 - cost[pay]
                        if aim:
                            dest = wrap[at]
                            s = ch_sym[sp_child[dest]] if cand < 0 else 0
                            nxt = e_stash[cand, stash[cand]] if cand >= 0 else e_boon[s, boon[s]]
                            if e_path[dest] == tg or nxt == tg:
                                v += HIT
                            elif tk >= 0 and d <= D:  # the first cheapest payment with the target power
                                # (a doubles write beyond the longest move is free: no power pays it)
                                lst = sp_qi[dest] * 36 * (D + 1) + roll + d
                                for i in range(off[lst], off[lst + 1]):
                                    code = np.int64(flat[i])
                                    if (c_mask[code] >> tk) & 1 and c_mask[code] & ~amask == 0 \
                                            and c_stars[code] <= have and g0 - cost[code] + HIT > v:
                                        v, pay = g0 - cost[code] + HIT, code
                        if v > bestv:
                            bestv, md, bpay = v, d, pay
                if tot > 0:  # random: the k-th payment of the turn
                    k = np.int64(u[g, t, 0] * tot)
                    j = 0
                    while k >= o_cnt[j]:
                        k -= o_cnt[j]
                        j += 1
                    md = o_d[j]
                    if dbl and sp_candy[pos + md] >= 0 and (md > D or cheap[kb + md] != 0):
                        k -= 1  # the free write
                if p == RANDOM and md > 0 and k >= 0:  # the k-th payment of that distance
                    dest = wrap[pos + md]
                    cell = sp_q[dest] + kb + md
                    if npay[cell] == 1:
                        bpay = np.int64(cheap[cell])
                    else:
                        lst = sp_qi[dest] * 36 * (D + 1) + roll + md
                        for i in range(off[lst], off[lst + 1]):  # ascending: stars, then powers
                            code = np.int64(flat[i])
                            if c_mask[code] & ~amask == 0:
                                if k == 0:
                                    bpay = code
                                    break
                                k -= 1
                if md > 0:
                    msk = c_mask[bpay]
                    if msk:
                        for q in range(P):
                            if (msk >> q) & 1:
                                puses[q] += 1
                                if puses[q] == uses:
                                    amask &= ~(1 << q)
                                r[e_power[q, puses[q] - 1]] = True
                    used += c_stars[bpay]
                    dest = wrap[pos + md]
                else:  # no move at all: the penalty
                    pen += 1
                    slot = 0
                    if p == RANDOM:
                        can = 0
                        for k in range(C):
                            can += 1 - crossed[k]
                        if can:
                            k = np.int64(u[g, t, 0] * can)
                            for i in range(C):
                                if not crossed[i]:
                                    if k == 0:
                                        break
                                    k -= 1
                    else:
                        bestv, i = -BIG, -1
                        for k in range(C):
                            if not crossed[k]:
                                h = cover and e_pen[k] == tg
                                v = -pts0[stash[k]]
                                if v + HIT * h > bestv:
                                    bestv, i = v + HIT * h, k
                        can = 1 if i >= 0 else 0
                    if can:
                        crossed[i] = 1
                        rg[i] = 0
                        r[e_pen[i]] = True
                        slot = 1
                    uu = u[g, t, slot % K]
                    if p == RANDOM:
                        m = 0
                        for j in range(W):
                            dest = wrap[pos + j + 1]
                            if sp_candy[dest] >= 0 and num[dest] == 0:
                                o_cnt[m] = dest
                                m += 1
                        dest = o_cnt[np.int64(uu * m)]
                    else:
                        bestv = -BIG
                        for j in range(W):
                            sp = wrap[pos + j + 1]
                            cand = sp_candy[sp]
                            if cand >= 0 and num[sp] == 0:
                                h = cover and (e_path[sp] == tg or e_stash[cand, stash[cand]] == tg)
                                v = rg[cand]
                                if v + HIT * h > bestv:
                                    bestv, dest = v + HIT * h, sp
            # write the number and take what the space gives
            num[dest] = number
            emp[dest >> 5] &= ~(1 << (dest & 31))
            emp[(dest + n) >> 5] &= ~(1 << ((dest + n) & 31))
            pos = dest
            r[e_path[dest]] = True
            cand = sp_candy[dest]
            owed = False
            if cand < 0:
                ch = sp_child[dest]
                s = ch_sym[ch]
                if boon[s] < sym_count[s]:
                    boon[s] += 1
                    col = boon[s]
                    r[e_boon[s, col - 1]] = True
                    done = True
                    for q in range(3):
                        if sym_count[q] >= col and boon[q] < col:
                            done = False
                    if done:
                        bcol[col - 1] = 1
                        r[e_bcol[col - 1]] = True
                kind = ch_kind[ch]
                if kind == 0:
                    pumpkins += 1
                    if pumpkins == ints[8]:
                        bpk = 1
                        r[ints[13]] = True
                elif kind == 1:
                    owed = True
                elif kind == 2:
                    cand = -2  # circle a star below
                elif kind == 3:
                    sweet += 1
                    if sweet == 2:
                        rj = 1
                        if ints[11] >= 0:
                            r[ints[11]] = True
                elif kind == 4:
                    unl[ch_moon[ch]] = 1
                    amask |= 1 << ch_moon[ch]
            if owed:  # the Pirate: a candy of choice
                if p == RANDOM:
                    cand = np.int64(u[g, t, 1 % K] * C)
                else:
                    bestv = -BIG
                    for k in range(C):
                        h = cover and e_stash[k, stash[k]] == tg
                        v = rg[k]
                        if v + HIT * h > bestv:
                            bestv, cand = v + HIT * h, k
            if cand >= 0:  # collect: the leftmost empty circle of the row; a column may earn a star
                col = stash[cand]
                if col < ncol:
                    stash[cand] = col + 1
                    rg[cand] = 0 if crossed[cand] else GAIN_WEIGHT * gain_of[col + 1]
                    r[e_stash[cand, col]] = True
                    colcnt[col] += 1
                    if not colstar[col] and colcnt[col] >= thr[col]:
                        colstar[col] = 1
                        r[e_colstar[col]] = True
                        cand = -2
            if cand == -2 and circled < S:  # circle a star
                circled += 1
                r[e_stars[circled - 1]] = True
                if circled == S:
                    bst = 1
                    r[ints[12]] = True
            number += 1
        # the end: score and the state in State.vector's order
        score, unused = 0, circled - used
        for k in range(C):
            if not crossed[k]:
                score += pts0[stash[k]]
        nbars = rj + bst + bpk
        for k in range(nbcol):
            nbars += bcol[k]
        for q in range(P):
            unused += unl[q] * (uses - puses[q])
        out_score[g] = score + ints[9] * nbars
        out_pen[g] = pen
        out_unused[g] = unused
        out_turns[g] = num[pos]
        x = out_x[g]
        i = _put(x, _put(x, _put(x, 0, num, n), stash, C), crossed, C)
        i = _put(x, i, colstar, ncol)
        x[i] = circled
        x[i + 1] = used
        i = _put(x, _put(x, _put(x, _put(x, i + 2, boon, 3), unl, P), puses, P), bcol, nbcol)
        x[i] = rj
        x[i + 1] = bst
        x[i + 2] = bpk
        x[i + 3] = pumpkins
        x[i + 4] = sweet
        x[i + 5] = pos
        x[i + 6] = pen
        x[i + 7] = circled - used


def fast(doc, dice, u, policy, targets) -> Batch:
    b, ints, arrays, nbars = sheet(doc.model_dump_json())
    c = b.c
    G, n, C, ncol = len(dice), b.n, len(c.candies), len(c.points)
    pol = {"random": RANDOM, "greedy": GREEDY, "cover": COVER}[policy]
    tgt = np.asarray(targets, i8) if pol == COVER else np.full(G, -1, i8)
    width = n + 2 * C + ncol + 2 + 3 + 2 * P + nbars + 5
    out = Batch(np.empty(G, i8), np.zeros((G, len(b.element_ids)), np.bool_), np.empty(G, i8), np.empty(G, i8),
                np.zeros(G, i8), np.empty(G, i8), np.empty((G, width), np.int16))
    _play(np.ascontiguousarray(dice), np.ascontiguousarray(u, np.float64), pol, tgt, ints, *arrays,
          out.score, out.penalties, out.unused_powers, out.turns, out.state, out.reached)
    return out
