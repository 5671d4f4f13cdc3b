"""The fast Haunt the Block engine: the same rules as rules.py, played for G games at once with
numpy. Each turn works on [G, n-1] arrays (one column per distance clockwise). The cheapest plan
for every (dice, powers at hand, stars at hand, distance, pumpkin condition) comes from a table
built once per sheet, so a turn is a handful of gathers."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...validate.engine import Batch
from .board import CHILD_GAIN, COMBOS, FREE, MODS, Board, combo_powers, core_value, meets
from .model import MOON_POWERS, SYMBOLS, TURNS
from .rules import K

NONE = -1
BIG = 1 << 40
SHIFT = 64  # plan code = combo * SHIFT + (stars + SHIFT // 2)


@lru_cache(maxsize=32)
def _tables(doc_json: str):
    """The Board, and plan[a-1, b-1, powers at hand (bits), stars at hand, d, q]: the cheapest
    plan code (as State.plan_for chooses it) or NONE; q = 0, or 1 + the pumpkin's index."""
    from .model import HauntSheet

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
    uses = np.zeros((len(COMBOS) + 1, len(MOON_POWERS)), bool)  # last row: FREE / none
    for combo in range(len(COMBOS)):
        for p in combo_powers(combo):
            uses[combo, MOON_POWERS.index(p)] = True
    return b, plan.astype(np.int16), uses


def fast(doc, dice, u, policy, targets) -> Batch:
    b, table, combo_uses = _tables(doc.model_dump_json())
    c = b.c
    G, n, C, ncol = len(dice), b.n, len(c.candies), len(c.points)
    S, D, E = c.stars, b.max_move, len(b.element_ids)
    P = len(MOON_POWERS)
    eid = b.eid
    gi = np.arange(G)
    tgt = np.asarray(targets, np.int64) if policy == "cover" else np.full(G, -2, np.int64)

    # element index tables (-1 = no such element / beyond the last)
    e_path = np.array([eid[f"path.{i + 1}"] for i in range(n)])
    e_start = np.full(n, -1)
    for i in b.starts:
        e_start[i] = eid[f"path.{i + 1}.start"]
    e_stash = np.full((C, ncol + 1), -1)
    for k, cid in enumerate(b.candy_ids):
        e_stash[k, :ncol] = [eid[f"stash.{cid}.{j + 1}"] for j in range(ncol)]
    e_colstar = np.array([eid[f"stash.star.{j + 1}"] for j in range(ncol)])
    e_stars = np.array([eid[f"stars.{j + 1}"] for j in range(S)])
    maxs = max(b.sym_count)
    e_boon = np.full((3, maxs + 1), -1)
    for s, name in enumerate(SYMBOLS):
        e_boon[s, :b.sym_count[s]] = [eid[f"boonus.{name}.{j + 1}"] for j in range(b.sym_count[s])]
    e_bcol = np.array([eid[f"boonus.bar.{j + 1}"] for j in range(b.columns)])
    e_power = np.full((P, c.uses + 1), -1)
    for k, p in enumerate(MOON_POWERS):
        if p in b.moon_child:
            kid = c.children[b.moon_child[p]].id
            e_power[k, :c.uses] = [eid[f"power.{kid}.{j + 1}"] for j in range(c.uses)]
    e_pen = np.array([eid[f"penalty.{k}"] for k in b.candy_ids])
    e_rj = eid.get("bar.romeo_juliet", -1)
    e_bstars, e_bpk = eid["bar.stars"], eid["bar.pumpkins"]

    sp_candy, sp_child, sp_q = b.space_candy, b.space_child, b.space_q
    kids = c.children
    ch_sym = np.array(b.child_symbol)
    ch_kind = np.array([{"pumpkin": 0, "candy_of_choice": 1, "star": 2, "sweetheart": 3}.get(
        k.power or k.symbol, 4) for k in kids])
    ch_moon = np.array([MOON_POWERS.index(k.power) if k.symbol == "moon" else 0 for k in kids])
    sym_count = np.array(b.sym_count)
    points = np.array(c.points)
    pts0 = np.concatenate([[0], points])  # pts0[k]: points of a row with k candies
    gain_of = np.concatenate([np.diff(pts0), [0]])  # gain_of[k]: points the (k+1)th candy adds
    thr = np.array(c.thresholds)

    # state
    numbers = np.zeros((G, n), np.int8)
    pos = np.zeros(G, np.int64)
    stash = np.zeros((G, C), np.int64)
    crossed = np.zeros((G, C), bool)
    colstar = np.zeros((G, ncol), bool)
    circled = np.full(G, c.start_stars, np.int64)
    used = np.zeros(G, np.int64)
    boon = np.zeros((G, 3), np.int64)
    unlocked = np.zeros((G, P), bool)
    puses = np.zeros((G, P), np.int64)
    bcol = np.zeros((G, b.columns), bool)
    bar_rj, bar_st, bar_pk = (np.zeros(G, bool) for _ in range(3))
    pumpkins = np.zeros(G, np.int64)
    sweet = np.zeros(G, np.int64)
    penalties = np.zeros(G, np.int64)
    reached = np.zeros((G, E), bool)
    reached[:, e_stars[:c.start_stars]] = True

    rg = np.full((G, C), gain_of[0], np.int64)  # points one more candy adds to each row
    pmask = np.zeros(G, np.int64)  # bit k: moon power k unlocked and not used up
    rflat = rg.reshape(-1)

    def rowgain(g):
        """[len(g), C] points one more candy adds to each row."""
        return rg[g]

    def circle_star(g):
        g = g[circled[g] < S]
        circled[g] += 1
        reached[g, e_stars[circled[g] - 1]] = True
        full = g[circled[g] == S]
        bar_st[full] = True
        reached[full, e_bstars] = True

    def collect(g, k):
        ok = stash[g, k] < ncol
        g, k = g[ok], k[ok]
        col = stash[g, k]
        stash[g, k] = col + 1
        rg[g, k] = np.where(crossed[g, k], 0, gain_of[col + 1])
        reached[g, e_stash[k, col]] = True
        rows = (stash[g] >= (col + 1)[:, None]).sum(1)
        earn = ~colstar[g, col] & (rows >= thr[col])
        g, col = g[earn], col[earn]
        colstar[g, col] = True
        reached[g, e_colstar[col]] = True
        circle_star(g)

    def land(g, space, number):
        """Write and take what the space gives; returns the games owed a Pirate candy."""
        numbers[g, space] = number
        pos[g] = space
        reached[g, e_path[space]] = True
        cand = sp_candy[space]
        isc = cand >= 0
        collect(g[isc], cand[isc])
        g, ch = g[~isc], sp_child[space[~isc]]
        s = ch_sym[ch]
        room = boon[g, s] < sym_count[s]
        gr, sr = g[room], s[room]
        boon[gr, sr] += 1
        col = boon[gr, sr]
        reached[gr, e_boon[sr, col - 1]] = True
        need = sym_count[None, :] >= col[:, None]
        done = ((boon[gr] >= col[:, None]) | ~need).all(1)
        bcol[gr[done], col[done] - 1] = True
        reached[gr[done], e_bcol[col[done] - 1]] = True
        kind = ch_kind[ch]
        pk = g[kind == 0]
        pumpkins[pk] += 1
        full = pk[pumpkins[pk] == c.pumpkins]
        bar_pk[full] = True
        reached[full, e_bpk] = True
        circle_star(g[kind == 2])
        sw = g[kind == 3]
        sweet[sw] += 1
        both = sw[sweet[sw] == 2]
        bar_rj[both] = True
        if e_rj >= 0:
            reached[both, e_rj] = True
        mo = kind == 4
        unlocked[g[mo], ch_moon[ch[mo]]] = True
        pmask[g[mo]] |= 1 << ch_moon[ch[mo]]
        return g[kind == 1]

    def pick(g, legal, value, hit, slot, t):
        """Index of each game's chosen action (canonical columns)."""
        if policy == "random":
            cnt = legal.sum(1)
            k = (u[g, t, slot % K] * cnt).astype(np.int64)
            return np.argmax(np.cumsum(legal, 1) > k[:, None], 1)
        allowed = legal
        if policy == "cover":
            h = hit & legal
            allowed = legal & (h | ~h.any(1)[:, None])
        return np.argmax(np.where(allowed, value, -BIG), 1)

    def pirate(g, t, slot):
        if not len(g):
            return
        legal = np.ones((len(g), C), bool)
        hit = (e_stash[np.arange(C)[None, :], stash[g]] == tgt[g, None]) if cover else None
        k = pick(g, legal, rowgain(g), hit, slot, t)
        collect(g, k)

    ncode = len(COMBOS) * SHIFT + 2  # plan codes -2 (FREE), -1 (NONE), 0.. ; index code + 2
    codes = np.arange(ncode) - 2
    real = codes >= 0
    cmb = np.where(real, codes // SHIFT, len(COMBOS))
    stars_of = np.where(real, np.abs(codes % SHIFT - SHIFT // 2), 0)
    uses_of = combo_uses[cmb]  # [code, P]
    cost_of = uses_of.sum(1) + stars_of
    ubits_of = (uses_of << np.arange(len(MOON_POWERS))).sum(1)
    Q = len(b.pumpkin_conditions) + 1
    cover = policy == "cover"
    W = n - 1  # columns: distances 1..n-1 clockwise
    dist = np.arange(1, n)
    DEST = (np.arange(n)[:, None] + dist[None, :]) % n  # [pos, column] -> space
    QD = np.where(dist <= D, np.minimum(dist, D) * Q + sp_q[DEST], -1)  # offset in the plan table

    def per_pos(width):
        """Contiguous [pos, column] tables for the first `width` columns (rows taken by np.take)."""
        d = DEST[:, :width]
        return (np.ascontiguousarray(d, np.int32), sp_candy[d] >= 0,
                np.ascontiguousarray(np.maximum(sp_candy[d], 0), np.int32),
                np.ascontiguousarray(np.maximum(QD[:, :width], 0), np.int32), QD[:, :width] < 0,
                np.ascontiguousarray(ch_sym[np.maximum(sp_child[d], 0)], np.int32))

    TABS = {w: per_pos(w) for w in {min(D, W), W}}
    flat = table.ravel()
    nflat = numbers.reshape(-1)

    def moves(g, w, a, bd):
        """For games g and the first w columns: dest, legal, value, hit and plan codes."""
        p = pos[g]
        dest, isc, cand, qd, far, symd = (np.take(x, p, axis=0) for x in TABS[w])
        mask = pmask[g]
        base = ((((a - 1) * 6 + bd - 1) * 16 + mask) * (S + 1) + circled[g] - used[g]) * (D + 1) * Q
        plan = flat[base.astype(np.int32)[:, None] + qd]
        if w > D:  # past the longest move only doubles reach, and they reach any empty candy space
            plan = np.where(far, NONE, plan)
            plan = np.where(isc, FREE, plan)
        empty = nflat[(g * n).astype(np.int32)[:, None] + dest] == 0
        legal = empty & (plan != NONE)
        gain = np.where(isc, rflat[(g * C).astype(np.int32)[:, None] + cand], CHILD_GAIN)
        value = 10 * gain - cost_of[plan + 2]
        hit = None
        if cover:
            tg = tgt[g, None]
            hit = e_path[dest] == tg
            nxt = np.where(isc, e_stash.ravel()[cand * (ncol + 1) + stash.ravel()[(g * C)[:, None] + cand]],
                           e_boon.ravel()[symd * (maxs + 1) + boon.ravel()[(g * 3)[:, None] + symd]])
            hit |= nxt == tg
            # the power (if any) whose next use-circle is this game's target
            tk = np.full(len(g), -1)
            for k in range(P):
                tk = np.where(e_power[k][puses[g, k]] == tgt[g], k, tk)
            aim = tk >= 0
            if aim.any():
                hit |= aim[:, None] & ((ubits_of[plan + 2] >> np.maximum(tk, 0)[:, None]) & 1).astype(bool)
        return dest, legal, value, hit, plan, isc

    def hits_of(g, ids):
        return (ids == tgt[g, None]) if cover else None

    # turn 1: the start
    starts = np.array(b.starts)
    sc = sp_candy[starts]
    gain = np.where(crossed[:, sc], 0, gain_of[stash[:, sc]])
    hit = None
    if cover:
        hit = (e_path[starts][None, :] == tgt[:, None]) | (e_start[starts][None, :] == tgt[:, None])
        hit |= e_stash[sc, 0][None, :] == tgt[:, None]
    k = pick(gi, np.ones((G, len(starts)), bool), 10 * gain, hit, 0, 0)
    reached[gi, e_start[starts[k]]] = True
    land(gi, starts[k], 1)

    for t in range(1, TURNS):
        number = t + 1
        a = dice[:, t, 0].astype(np.int64)
        bd = dice[:, t, 1].astype(np.int64)
        dbl = a == bd
        for g, w in ((gi[~dbl], min(D, W)), (gi[dbl], W)):
            if not len(g):
                continue
            dest, legal, value, hit, plan, _ = moves(g, w, a[g], bd[g])
            movers = legal.any(1)
            m = g[movers]
            if len(m):
                k = pick(m, legal[movers], value[movers], hit[movers] if cover else None, 0, t)
                code = plan[movers, k]
                for p in range(P):
                    gp = m[uses_of[code + 2, p]]
                    puses[gp, p] += 1
                    pmask[gp[puses[gp, p] == c.uses]] &= ~(1 << p)
                    reached[gp, e_power[p][puses[gp, p] - 1]] = True
                used[m] += stars_of[code + 2]
                owed = land(m, dest[movers, k], number)
                pirate(owed, t, 1)
            g = g[~movers]
            if not len(g):
                continue
            penalties[g] += 1
            can = ~crossed[g]
            has = can.any(1)
            gc = g[has]
            if len(gc):
                kk = pick(gc, can[has], -pts0[stash[gc]], hits_of(gc, e_pen[None, :]), 0, t)
                crossed[gc, kk] = True
                rg[gc, kk] = 0
                reached[gc, e_pen[kk]] = True
            for sl in (0, 1):
                gs = g[has == bool(sl)]
                if not len(gs):
                    continue
                dest, isc, cand = (np.take(x, pos[gs], axis=0) for x in TABS[W][:3])
                ok = isc & (nflat[(gs * n)[:, None] + dest] == 0)
                gain = rflat[(gs * C)[:, None] + cand]
                hit = None
                if cover:
                    tg = tgt[gs, None]
                    hit = (e_path[dest] == tg) | (e_stash[cand, stash[gs[:, None], cand]] == tg)
                ch = pick(gs, ok, 10 * gain, hit, sl, t)
                land(gs, dest[np.arange(len(gs)), ch], number)

    score = (np.where(crossed, 0, pts0[stash])).sum(1) + c.bar_points * (
        bcol.sum(1) + bar_rj + bar_st + bar_pk)
    tie = circled - used
    unused = tie + (unlocked * (c.uses - puses)).sum(1)
    state = np.concatenate([numbers, stash, crossed, colstar, circled[:, None], used[:, None], boon,
                            unlocked, puses, bcol, bar_rj[:, None], bar_st[:, None], bar_pk[:, None],
                            pumpkins[:, None], sweet[:, None], pos[:, None], penalties[:, None],
                            tie[:, None]], 1).astype(np.int64)
    return Batch(score.astype(np.int64), reached, penalties, unused.astype(np.int64),
                 np.zeros(G, np.int64), np.full(G, TURNS, np.int64), state)

