"""Tricky Treats fast engine: the reference engine's decisions, vectorised across games with numpy.

Speed comes from
- keeping every game's state in arrays over the games (fields first, games last) and bit masks:
  the 36 boxes are one int64, and so are the boxes whose symbol is not yet complete (`nd*`) and
  the boxes that would complete a symbol (`lb*`), which is all the greedy value of a box needs;
- letting games move through their turns independently (`play`), so one game's long chain of
  stars and cauldrons does not hold the others up;
- laying each decision's options out in the reference's canonical order, so "the first best
  option" (greedy, cover) and "the r-th legal option" (random) are the reference's choices.
Each method mirrors a part of rules.State and takes `g`, the games it applies to.
"""

from __future__ import annotations

import numpy as np

from .rules import BIG, K, Help, Tables, finish, helps, layout_of, tables

BONE, CAULDRON, BAT, PYRAMID, MOON, SKULL = range(6)
NEG = -(1 << 40)
ALL36 = (1 << 36) - 1
DUMMY_MASK = (1 << 40) | (1 << 41)  # two bits no box has: never one missing, never complete


def _bit(mask, b):
    return (mask >> b) & 1


def _bits36(mask):
    """[n, 36] int32 bits of n box masks."""
    return np.unpackbits(np.ascontiguousarray(mask).view(np.uint8).reshape(-1, 8), axis=1,
                         bitorder="little")[:, :36].astype(np.int32)


class Games:
    def __init__(self, t: Tables, dice: np.ndarray, u: np.ndarray, policy: str, targets: np.ndarray):
        G = len(dice)
        self.t, self.G, self.policy = t, G, policy
        self.greedy = policy != "random"
        self.cover = policy == "cover"
        self.A = np.ascontiguousarray(dice[:, :, 0].T, dtype=np.int64)  # [T, G]
        self.B = np.ascontiguousarray(dice[:, :, 1].T, dtype=np.int64)
        self.U = np.ascontiguousarray(u).reshape(-1) if not self.greedy else None  # [G, T, K] flat
        self.TK = u.shape[1] * K
        z = lambda *s: np.zeros(s + (G,), np.int64)
        self.boxes, self.scared_boxes, self.done, self.caul = z(), z(), z(), z()
        self.scares, self.stash, self.colcnt = z(6), z(6), z(7)
        self.ready, self.used, self.bcount, self.reward = z(6), z(6), z(3), z(7)
        self.pyramid, self.lost, self.missed = z(), z(), z()
        self.p_pyr, self.p_cau, self.p_row, self.p_star, self.k = z(), z(), z(), z(), z()
        self.p_cp, self.pend = z(), z()  # cauldron/pyramid choices waiting; all pending effects
        # tables
        S = t.n_sym
        self.smask = np.append(t.sym_mask, DUMMY_MASK).astype(np.int64)
        self.skind = np.append(t.sym_kind, 0).astype(np.int64)
        self.bsym = t.box_syms
        self.bc = t.box_candy
        self.gt = np.append(np.diff(t.points), 0).astype(np.int64)  # gain of the (n+1)-th candy
        self.gain = np.full((6, G), self.gt[0], np.int64)  # gain of each candy's next circle
        self.gain_f = self.gain.reshape(-1)
        self.bct = self.bc.reshape(6, 6)  # candy of child c's box for die value v + 1
        self.col = sum(1 << (6 * c) for c in range(6))
        ones = t.sym_size[:S] == 1
        self.ndp = np.full(G, np.bitwise_or.reduce(t.sym_mask[:t.n_pow]), np.int64)
        self.ndb = np.full(G, np.bitwise_or.reduce(t.sym_mask[t.n_pow:]), np.int64)
        self.lbp = np.full(G, np.bitwise_or.reduce(np.where(ones[:t.n_pow], t.sym_mask[:t.n_pow], 0)), np.int64)
        self.lbb = np.full(G, np.bitwise_or.reduce(np.where(ones[t.n_pow:], t.sym_mask[t.n_pow:], 0)), np.int64)
        self.caul_all = (1 << len(t.cauldron)) - 1
        # cover help, per game
        hs: list[Help] = []
        if self.cover:
            uniq = {e: helps(t, e) for e in set(int(e) for e in targets)}
            hs = [uniq[int(e)] for e in targets]
        arr = lambda f, d: np.array([f(h) for h in hs], np.int64) if hs else np.full(G, d, np.int64)
        self.h_boxes = arr(lambda h: h.boxes, 0)
        self.h_cand = arr(lambda h: h.candies, 0)
        self.h_scare = arr(lambda h: h.scare, -1)
        self.h_caul = arr(lambda h: h.cauldron, 0)
        self.h_pyr = arr(lambda h: h.pyramid, 0)
        self.h_cbox = arr(lambda h: h.cauldron_box, -1)
        self.h_col = arr(lambda h: h.column, -1)
        self.h_star = ((self.h_boxes != 0) | (self.h_cand != 0)).astype(np.int64)
        self.tn = np.zeros(G, np.int64)  # each game's turn: games need not move in step
        self.ph = np.zeros(G, np.int64)  # where each game is in its turn (see play)
        self.tk = np.zeros(G, np.int64)  # this turn's kind: doubles, full moon or plan
        self.target = np.zeros(G, np.int64)  # the child the plan's second die scares
        self.a = np.zeros(G, np.int64)  # this turn's dice
        self.b = np.zeros(G, np.int64)

    # -- helpers -----------------------------------------------------------------------------------
    def _at(self, arr2d, row, g):
        """arr2d[row[i], g[i]] for each game."""
        return arr2d.reshape(-1)[row * self.G + g]

    def _add_at(self, arr2d, row, g, v=1):
        flat = arr2d.reshape(-1)
        flat[row * self.G + g] += v

    def _pick(self, g, legal, value=None, values=None):
        """Choose among options in canonical order: `legal` is a list of 1-D masks or an [m, n]
        array; `value(j)` gives option j's greedy values, or `values()` all of them as [m, n].
        Returns the option number per game, -1 where no option is legal (no decision then)."""
        if len(g) > 1024:  # many games: one 1-D step per option is cheaper than 2-D reductions
            legal = list(legal)
            n = legal[0].astype(np.int64)
            for lg in legal[1:]:
                n = n + lg
            pick = np.full(len(g), -1, np.int64)
            if self.greedy:
                vals = values() if values is not None else None
                best = np.full(len(g), NEG, np.int64)
                for j, lg in enumerate(legal):
                    v = vals[j] if vals is not None else value(j)
                    up = lg & (v > best)
                    best = np.where(up, v, best)
                    pick = np.where(up, j, pick)
            else:
                r = self._r(g, n)
                cnt = np.zeros(len(g), np.int64)
                for j, lg in enumerate(legal):
                    pick = np.where(lg & (cnt == r), j, pick)
                    cnt = cnt + lg
            self.k[g] += n > 0
            return pick
        L = legal if isinstance(legal, np.ndarray) else np.stack(legal)
        n = L.sum(0)
        if self.greedy:
            V = values() if values is not None else np.stack([value(j) for j in range(len(L))])
            pick = np.where(L, V, NEG).argmax(0)
        else:
            pick = (L.cumsum(0) > self._r(g, n)).argmax(0)
        self.k[g] += n > 0
        return np.where(n > 0, pick, -1)

    def _r(self, g, n):
        """The random policy's choice: option number floor(u * n) of the decision now."""
        u = self.U[g * self.TK + self.tn[g] * K + self.k[g] % K]
        return (u * n).astype(np.int64)

    def _hc_bits(self, g):
        """[6, n]: 1 where a candy type helps the cover target."""
        return (self.h_cand[g][None, :] >> np.arange(6)[:, None]) & 1

    def _avail(self, g):
        return ~(self.boxes[g] | self.scared_boxes[g]) & ALL36

    def _gains(self, g):
        return self.gain[:, g]  # [6, n]





    def _scare_cost(self, g, c):
        sc = self._at(self.scares, c, g)
        return np.where(sc >= 3, 0, np.where(c == self.h_scare[g], -BIG,
                        np.where(sc == 2, np.where(self.ready[SKULL, g] > 0, 40, 400), 5 * (sc + 1))))

    # -- a game ------------------------------------------------------------------------------------
    def play(self):
        """Games move through their turns independently, so that one game's long chain of effects
        does not hold the others up. Each round, every game does what its phase asks:
        START: roll; the first collect (doubles: any box; full moon: die 1; else the plan);
        RESOLVE1 / RESOLVE2: one pending effect (the phase ends when none is left);
        STEP2: doubles: the bone; full moon: die 2;   SCARE: the scare, then the next turn.
        A game with nothing pending plays a whole turn in one round. Each game still does its own
        steps in the reference's order, so the results are the same."""
        START, R1, STEP2, R2, SCARE, OVER = range(6)
        T, G = self.t.turns, self.G
        A, B = self.A.reshape(-1), self.B.reshape(-1)
        ph = self.ph
        while True:
            g = np.flatnonzero(ph == START)
            if g.size:
                self._start(g, A, B)
                ph[g] = R1
            r = np.flatnonzero((ph == R1) | (ph == R2))
            self._resolve_step(r)
            r = r[self.pend[r] == 0]
            ph[r] += 1  # R1 -> STEP2, R2 -> SCARE
            g = np.flatnonzero(ph == STEP2)
            if g.size:
                self._step2(g)
                ph[g] = R2
                g = g[self.pend[g] == 0]
                ph[g] = SCARE
            g = np.flatnonzero(ph == SCARE)
            if g.size:
                self._scare_step(g)
                self.tn[g] += 1
                self.k[g] = 0
                ph[g] = np.where(self.tn[g] >= T, OVER, START)
            elif not (ph != OVER).any():
                return

    def _start(self, g, A, B):
        D_, M_, P_ = 0, 1, 2
        at = self.tn[g] * self.G + g
        self.a[g], self.b[g] = A[at], B[at]
        a, b = self.a, self.b
        dbl = a[g] == b[g]
        D, P = g[dbl], g[~dbl]
        M = self._moon_choice(P, a, b)
        if M.size:
            P = P[~np.isin(P, M)]
        self.tk[D], self.tk[M], self.tk[P] = D_, M_, P_
        boxD = self._any_box(D) if D.size else D
        self.missed[D[boxD < 0]] += 1
        boxM = self._moon_pick(M, a) if M.size else M
        boxP, target = self._plan_pick(P, a, b)
        self.target[P] = target
        g, box = np.concatenate([D, M, P]), np.concatenate([boxD, boxM, boxP])
        ok = box >= 0
        self._collect(g[ok], box[ok])

    def _step2(self, g):
        """Doubles: the bone; full moon: the second die."""
        kind = self.tk[g]
        w, k = self._bone(g[kind == 0])
        self._add_candy(w, k)
        M = g[kind == 1]
        if M.size:
            box = self._moon_pick(M, self.b)
            ok = box >= 0
            self._collect(M[ok], box[ok])

    def _scare_step(self, g):
        kind = self.tk[g]
        P = g[kind == 2]
        if P.size:
            target = self.target[P]
            calm = self._at(self.scares, target, P) < 3
            self._skull_then_scare(P[calm], target[calm])
        M = g[kind == 1]
        if M.size:
            self._moon_scare(M)

    def _bone(self, g):
        """Doubles: one unlocked bone may be crossed out for a candy of choice. Returns the games
        that use one and their candies."""
        bone = g[self.ready[BONE, g] > 0]
        if bone.size:
            bone = bone[(self.stash[:, bone] < 7).any(0)]
        if not bone.size:
            return bone, bone
        legal = np.vstack([np.ones((1, len(bone)), bool), self.stash[:, bone] < 7])
        pick = self._pick(bone, legal, values=lambda: np.vstack([
            np.zeros((1, len(bone)), np.int64), self._gains(bone) + BIG * self._hc_bits(bone)]))
        use = pick > 0
        w = bone[use]
        self.used[BONE, w] += 1
        self.ready[BONE, w] -= 1
        return w, pick[use] - 1

    def _box_values_all(self, g, legal=None):
        """[n, 36] greedy values of every box (rules.box_value) for the games g, as int16 (they
        are at most 136, or 20,136 with the cover bonus); -1 where `legal` is False."""
        n = len(g)
        masks = np.stack([self.ndp[g], self.ndb[g], self.lbp[g], self.lbb[g]], 1)
        bits = np.unpackbits(masks.view(np.uint8).reshape(n, 32), axis=1, bitorder="little")
        bits = bits.reshape(n, 4, 64)[:, :, :36]
        bonus = 3 * (bits[:, 0] + bits[:, 1]).astype(np.int16) + 30 * (bits[:, 2] + bits[:, 3]).astype(np.int16)
        v = 10 * self.gain[:, g].astype(np.int16).T[:, self.bc] + bonus
        if self.cover:
            v += BIG * (_bits36(self.h_boxes[g]) + ((self.h_cand[g][:, None] >> self.bc) & 1)).astype(np.int16)
        if legal is not None:
            v[~legal] = -1
        return v

    def _any_box(self, g):
        """Doubles and stars: any available box, in box order (one 2-D step over the 36 boxes)."""
        legal = _bits36(self._avail(g)).astype(bool)
        n = legal.sum(1)
        if self.greedy:
            pick = self._box_values_all(g, legal).argmax(1)
        else:
            pick = (legal.cumsum(1) > self._r(g, n)[:, None]).argmax(1)
        self.k[g] += n > 0
        return np.where(n > 0, pick, -1)

    def _best_box_value(self, g):
        return self._box_values_all(g, _bits36(self._avail(g)).astype(bool)).max(1).astype(np.int64)

    def _moon_choice(self, g, a, b):
        """Games that cross out a full moon this turn."""
        m = g[self.ready[MOON, g] > 0]
        if not m.size:
            return m
        vals = self._moon_values(m, a, b) if self.greedy else None
        pick = self._pick(m, [np.ones(len(m), bool)] * 2, lambda j: vals[j])
        m = m[pick == 1]
        self.used[MOON, m] += 1
        self.ready[MOON, m] -= 1
        return m





    def _die_values(self, g, d):
        """[6, n]: greedy value (rules.box_value) of each child's box for die value d (per game)."""
        sh = d - 1
        c6 = (6 * np.arange(6))[:, None]
        w = (((self.ndp[g] >> sh) & self.col) + ((self.ndb[g] >> sh) & self.col)
             + 10 * (((self.lbp[g] >> sh) & self.col) + ((self.lbb[g] >> sh) & self.col)))  # 3 * field = bonus
        k = self.bct[:, sh]  # candy of each child's box for this die
        v = 10 * self.gain_f[k * self.G + g] + 3 * ((w >> c6) & 63)
        if self.cover:
            v += BIG * (((self.h_boxes[g] >> (sh + c6)) & 1) + ((self.h_cand[g] >> k) & 1))
        return v

    def _die_legal(self, g, d):
        """[6, n]: whether each child's box for die value d is free and its child not scared."""
        free = ~(self.boxes[g] | self.scared_boxes[g])
        return (free >> ((6 * np.arange(6))[:, None] + d - 1)) & 1 != 0

    def _moon_values(self, g, a, b):
        """Greedy: [plan's best value, full moon's value] (see rules.values, "moon")."""
        da, db = a[g], b[g]
        V0, V1 = self._die_values(g, da), self._die_values(g, db)
        L0, L1 = self._die_legal(g, da), self._die_legal(g, db)
        best0 = np.where(L0, V0, NEG).max(0)
        best1 = np.where(L1, V1, NEG).max(0)
        cost0, cost1 = self._scare_cost(g, db - 1), self._scare_cost(g, da - 1)
        plan = np.maximum(np.where(L0, V0 - cost0, NEG).max(0), np.where(L1, V1 - cost1, NEG).max(0))
        sc = self.scares[:, g]
        c6 = np.arange(6)[:, None]
        cost = np.where(sc >= 3, 0, np.where(c6 == self.h_scare[g], -BIG, np.where(
            sc == 2, np.where(self.ready[SKULL, g] > 0, 40, 400), 5 * (sc + 1))))
        calm = sc < 3
        mc = np.where(calm.any(0), np.where(calm, cost, 1 << 41).min(0), 0)
        none = (best0 == NEG) | (best1 == NEG)
        return [np.where(none, 1, plan), np.where(none, 0, best0 + best1 - mc)]

    def _plan_pick(self, g, a, b):
        """Collect with one die, scare with the other: the 12 (die, child) options at once.
        Greedy keys pack value and option: key = 16 * value + (15 - option), so the largest key
        is the best value and, among equals, the first option in canonical order."""
        if not g.size:
            return g, g
        da, db = a[g], b[g]
        free = ~(self.boxes[g] | self.scared_boxes[g])
        fields = [(free >> (d - 1)) & self.col for d in (da, db)]  # free boxes per die, at bits 6c
        legal = [(f & (1 << (6 * c))) != 0 for f in fields for c in range(6)]
        any_ = (fields[0] | fields[1]) != 0
        none = ~any_
        if none.any():
            self.missed[g[none]] += 1
            legal[0] = legal[0] | none  # (die 1 collects nothing, die 2 scares)
            legal[6] = legal[6] | none  # (die 2 collects nothing, die 1 scares)
        if self.greedy:
            cost = (self._scare_cost(g, db - 1), self._scare_cost(g, da - 1))  # die 1 collects: die 2 scares
            keys = np.empty((12, len(g)), np.int64)
            for i, d in enumerate((da, db)):
                keys[6 * i:6 * i + 6] = 16 * (self._die_values(g, d) - cost[i]) + (15 - 6 * i - np.arange(6))[:, None]
            if none.any():  # a "collect nothing" option carries its scare cost only
                keys[0, none] = 15 - 16 * cost[0][none]
                keys[6, none] = 9 - 16 * cost[1][none]
            best = np.where(np.stack(legal), keys, NEG).max(0)
            pick = 15 - (best & 15)
            self.k[g] += 1
        else:
            pick = self._pick(g, legal)
        first = pick < 6
        box = np.where(any_, np.where(first, da - 1, db - 1) + 6 * (pick % 6), -1)
        return box, np.where(first, db, da) - 1

    def _skull_then_scare(self, g, target):
        sk = self.ready[SKULL, g] > 0
        skip = np.zeros(len(g), bool)
        if sk.any():
            s, st = g[sk], target[sk]
            if self.greedy:
                bad = (self._at(self.scares, st, s) == 2) & (st != self.h_scare[s])
                v1 = np.where(bad, 1, -1)
            pick = self._pick(s, [np.ones(len(s), bool)] * 2,
                              lambda j: np.zeros(len(s), np.int64) if j == 0 else v1)
            use = pick == 1
            self.used[SKULL, s[use]] += 1
            self.ready[SKULL, s[use]] -= 1
            skip[np.flatnonzero(sk)[use]] = True
        self._scare(g[~skip], target[~skip])

    def _scare(self, g, c):
        self._add_at(self.scares, c, g)
        now = self._at(self.scares, c, g) == 3
        self.scared_boxes[g[now]] |= np.int64(63) << (6 * c[now])

    def _moon_pick(self, g, die):
        """Full moon: the child whose box takes this die (-1: no box can)."""
        d = die[g]
        pick = self._pick(g, self._die_legal(g, d), values=lambda: self._die_values(g, d))
        return np.where(pick >= 0, 6 * pick + d - 1, -1)

    def _moon_scare(self, g):
        """Full moon: after collecting, scare a child of choice who is not scared (a skull may skip it)."""
        calm = self.scares[:, g] < 3
        g = g[calm.any(0)]
        if not g.size:
            return
        skip = np.zeros(len(g), bool)
        sk = self.ready[SKULL, g] > 0
        if sk.any():
            s = g[sk]
            if self.greedy:
                sc = self.scares[:, s]
                bad = ((sc == 2) | (sc >= 3)).all(0)
                hs = self.h_scare[s]
                hcalm = (hs >= 0) & (self._at(self.scares, np.maximum(hs, 0), s) < 3)
                v1 = np.where(bad & ~hcalm, 1, -1)
            pick = self._pick(s, [np.ones(len(s), bool)] * 2,
                              lambda j: np.zeros(len(s), np.int64) if j == 0 else v1)
            use = pick == 1
            self.used[SKULL, s[use]] += 1
            self.ready[SKULL, s[use]] -= 1
            skip[np.flatnonzero(sk)[use]] = True
        g = g[~skip]
        if not g.size:
            return
        sc = self.scares[:, g]
        legal = list(sc < 3)
        if self.greedy:
            checked = np.bitwise_count((self.boxes[g][None, :] >> (6 * np.arange(6))[:, None]) & 63).astype(np.int64)
            hs = self.h_scare[g]
        pick = self._pick(g, legal, lambda c: np.where(hs == c, BIG, -(10 * sc[c] + 6 - checked[c])))
        self._scare(g, pick)

    def _collect(self, g, box):
        if not g.size:
            return
        self.boxes[g] |= np.int64(1) << box
        candy = self.bc[box]
        bat = self.ready[BAT, g] > 0
        if bat.any():
            w, cd = g[bat], candy[bat]
            open_ = self.stash[:, w] < 7
            legal = np.vstack([np.ones((1, len(w)), bool), open_ & (np.arange(6)[:, None] != cd[None, :])])
            def values():
                gains = self._gains(w) + BIG * self._hc_bits(w)
                keep = gains.reshape(-1)[cd * len(w) + np.arange(len(w))]
                return np.vstack([keep[None, :], gains - 3])
            pick = self._pick(w, legal, values=values)
            use = pick > 0
            self.used[BAT, w[use]] += 1
            self.ready[BAT, w[use]] -= 1
            candy = candy.copy()
            candy[np.flatnonzero(bat)[use]] = pick[use] - 1
        self._add_candy(g, candy)
        self._unlock(g, box)

    def _add_candy(self, g, k):
        t = self.t
        at = k * self.G + g
        n = self.stash.reshape(-1)[at]
        ok = n < 7
        if not ok.all():
            g, k, n, at = g[ok], k[ok], n[ok], at[ok]
            if not g.size:
                return
        self.stash.reshape(-1)[at] = n + 1
        self.gain_f[at] = self.gt[n + 1]
        cat = n * self.G + g
        cc = self.colcnt.reshape(-1)
        cc[cat] += 1
        earn = cc[cat] == t.needs[n]  # the column reaches its number just now
        if earn.any():
            w, col = g[earn], n[earn]
            star = t.rew_star[col]
            self.reward.reshape(-1)[col * self.G + w] = np.where(star, 1, 3)
            self.p_star[w[star]] += 1
            self.p_cp[w[~star]] += 1
            self.pend[w] += 1

    def _unlock(self, g, box):
        """Symbols the box belongs to (a power and a Boo-nus symbol, both handled in one pass):
        a symbol now one box short marks that box in lb*; a full one is circled or crossed out."""
        t = self.t
        s = self.bsym[box].reshape(-1)
        w = np.repeat(g, 2)
        mask = self.smask[s]
        missing = mask & ~self.boxes[w]
        fin = missing == 0
        ev = fin | (np.bitwise_count(missing) == 1)
        if not ev.any():
            return
        e = np.flatnonzero(ev)
        w, s, mask, missing, fin = w[e], s[e], mask[e], missing[e], fin[e]
        pw = s < t.n_pow
        for nd, lb, part in ((self.ndp, self.lbp, pw), (self.ndb, self.lbb, ~pw)):
            x = fin & part
            if x.any():
                nd[w[x]] &= ~mask[x]
                lb[w[x]] &= ~mask[x]
            y = ~fin & part
            lb[w[y]] |= missing[y]
        if not fin.any():
            return
        w, s = w[fin], s[fin]
        np.bitwise_or.at(self.done, w, np.int64(1) << s)
        kind = self.skind[s]
        p = s < t.n_pow
        wp, kp = w[p], kind[p]
        imm = (kp == CAULDRON) | (kp == PYRAMID)
        self._add_at(self.used, kp[imm], wp[imm])
        self.p_cau[wp[kp == CAULDRON]] += 1
        self.p_pyr[wp[kp == PYRAMID]] += 1
        self._add_at(self.ready, kp[~imm], wp[~imm])
        wb, row = w[~p], kind[~p] - 6
        self._add_at(self.bcount, row, wb)
        full = self._at(self.bcount, row, wb) == t.boonus_len[row]
        self.p_row[wb[full]] += 1
        np.add.at(self.pend, np.concatenate([wp[imm], wb[full]]), 1)

    def _cauldron_value(self, g):
        gains = self._gains(g)
        best = np.zeros(len(g), np.int64)
        for i, k in enumerate(self.t.cauldron):
            best = np.where(_bit(self.caul[g], i) == 0, np.maximum(best, 10 * gains[k]), best)
        return best

    def _pyramid_value(self, g):
        t = self.t
        p = self.pyramid[g]
        lv = np.searchsorted(t.pyr_cum, p, side="right")
        end = t.pyr_cum[np.minimum(lv, len(t.pyr_cum) - 1)]
        return np.where(p >= t.pyr_cum[-1], 0, 50 // np.maximum(end - p, 1))

    def _resolve_step(self, g):
        """One pending effect for each game of g that has one, in the reference's fixed order
        (all pending pyramid boxes first, at once: they ask nothing)."""
        t = self.t
        top = int(t.pyr_cum[-1])
        if g.size:
            g = g[self.pend[g] > 0]
            if not g.size:
                return
            pp = self.p_pyr[g]
            if pp.any():  # pyramid boxes come first and ask nothing: all of them at once
                add = np.minimum(pp, top - self.pyramid[g])
                self.pyramid[g] += add
                self.lost[g] += pp - add
                self.pend[g] -= pp
                self.p_pyr[g] = 0
                g = g[self.pend[g] > 0]
                if not g.size:
                    return
            self.pend[g] -= 1
            cat = np.where(self.p_cau[g] > 0, 1, np.where(self.p_cp[g] > 0, 2, np.where(self.p_row[g] > 0, 3, 4)))
            count = np.bincount(cat, minlength=5)
            w = g[cat == 1] if count[1] else g[:0]
            if w.size:
                self.p_cau[w] -= 1
                nca = np.arange(len(t.cauldron))[:, None]
                legal = (self.caul[w][None, :] >> nca) & 1 == 0
                pick = self._pick(w, legal, values=lambda: 10 * self._gains(w)[t.cauldron] + BIG * (
                    (nca == self.h_cbox[w][None, :]) | (self._hc_bits(w)[t.cauldron] == 1)))
                none = pick < 0
                self.lost[w[none]] += 1
                w, pick = w[~none], pick[~none]
                self.caul[w] |= np.int64(1) << pick
                self._add_candy(w, t.cauldron[pick])
            w = g[cat == 2] if count[2] else g[:0]
            if w.size:
                self.p_cp[w] -= 1
                col = (self.reward[:, w] == 3).argmax(0)
                legal = [self.caul[w] != self.caul_all, self.pyramid[w] < top]
                if self.greedy:
                    here = (self.h_col[w] == -1) | (self.h_col[w] == col)
                    cv = [self._cauldron_value(w) + BIG * (self.h_caul[w] & here),
                          self._pyramid_value(w) + BIG * (self.h_pyr[w] & here)]
                pick = self._pick(w, legal, lambda j: cv[j])
                none = pick < 0
                self.lost[w[none]] += 1
                self.reward.reshape(-1)[col * self.G + w] = np.where(none, 4, pick + 1)
                self.p_cau[w[pick == 0]] += 1
                self.p_pyr[w[pick == 1]] += 1
                self.pend[w[pick >= 0]] += 1
            w = g[cat == 3] if count[3] else g[:0]
            if w.size:
                self.p_row[w] -= 1
                legal, vals = [], []
                for act in t.actions:
                    if act == "star":
                        legal.append(self._avail(w) != 0)
                    elif act == "cauldron":
                        legal.append(self.caul[w] != self.caul_all)
                    else:
                        legal.append(self.pyramid[w] < top)
                    if self.greedy:
                        generic = self.h_col[w] == -1
                        if act == "star":
                            vals.append(self._best_box_value(w) + BIG * self.h_star[w])
                        elif act == "cauldron":
                            vals.append(self._cauldron_value(w) + BIG * (self.h_caul[w] & generic))
                        else:
                            vals.append(self._pyramid_value(w) + BIG * (self.h_pyr[w] & generic))
                pick = self._pick(w, legal, lambda j: vals[j])
                self.lost[w[pick < 0]] += 1
                for i, act in enumerate(t.actions):
                    {"star": self.p_star, "cauldron": self.p_cau, "pyramid": self.p_pyr}[act][w[pick == i]] += 1
                self.pend[w[pick >= 0]] += 1
            w = g[cat == 4] if count[4] else g[:0]
            if w.size:
                self.p_star[w] -= 1
                box = self._any_box(w)
                none = box < 0
                self.lost[w[none]] += 1
                self._collect(w[~none], box[~none])

    def flat(self) -> np.ndarray:
        t = self.t
        L = layout_of(t)
        out = np.empty((self.G, L["_size"].stop), np.int64)
        bits = lambda x, n: np.unpackbits(x.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :n]
        sym = bits(self.done, t.n_sym)
        for name, val in (("boxes", bits(self.boxes, 36)), ("scares", self.scares.T), ("stash", self.stash.T),
                          ("unlocked", sym[:, :t.n_pow]), ("used", self.used.T), ("boonus", sym[:, t.n_pow:]),
                          ("bcount", self.bcount.T), ("reward", self.reward.T),
                          ("cauldron", bits(self.caul, len(t.cauldron))), ("pyramid", self.pyramid[:, None]),
                          ("lost", self.lost[:, None]), ("missed", self.missed[:, None]), ("turn", t.turns)):
            out[:, L[name]] = val
        return out


def play(doc, dice, u, policy: str, targets):
    t = tables(doc)
    games = Games(t, np.asarray(dice), np.asarray(u), policy, np.asarray(targets))
    games.play()
    return finish(t, games.flat())
