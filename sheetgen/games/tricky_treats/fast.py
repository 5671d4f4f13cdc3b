"""Tricky Treats fast engine: the reference engine's decisions, vectorised across games with numpy.

Games move through their turns independently (`Games.play`): each round, every game does what
its phase asks (start of turn, pending effects, second step, scare), so that one game's long
chain of stars and cauldrons does not hold the others up. Each step runs on the compacted
games that need it; each game still does its own steps in the reference's order.

Speed comes from lookup tables built once per sheet (`Sheet`, cached per document):
- symbols belong to one child, so the symbol part of a box's greedy value, or "illegal", depends
  only on that child's free boxes (6 bits: none free once scared): one table lookup (`symb`),
  with the option number already packed in for greedy keys (`symbp`, `symb64`); the cover
  policy reads one copy of these tables per target, its bonus for helpful boxes added in;
- a box's power and Boo-nus symbols are two bit masks (`pm`, `bm`), complete when all their
  boxes are checked, so unlocking is one compare; what was unlocked is read from the boxes at
  the end (`flat`);
- greedy decisions pack value and option into one key (`value * 64 + 63 - option`), so one max
  over the option axis gives the first best option; random ones count legal options;
- small counters are int8, keys int32; pyramid boxes are checked the moment they are earned
  (they ask nothing and come first in the reference's queue).
Each method mirrors a part of rules.State and takes `g`, the games it applies to (an index
array, or `slice(None)` for every game).
"""

from __future__ import annotations

import gc

import numpy as np

from .model import IMMEDIATE, POWERS
from .rules import BIG, K, Help, Tables, finish, helps, layout_of, tables

assert K & (K - 1) == 0  # slot k % K is k & (K - 1)
BONE, CAULDRON, BAT, PYRAMID, MOON, SKULL = range(6)
ALL36 = (1 << 36) - 1
NEG = -(1 << 22)  # value of an illegal box
THR = NEG // 2  # values below this are illegal
NEGK = -(1 << 60)  # key of an illegal option
DUMMY_MASK = (1 << 40) | (1 << 41)  # two bits no box has: never complete
ALL = slice(None)
PRIORITY = ("cauldron", "choice", "row", "star")  # the order pending effects are taken in
START, R1, STEP2, R2, SCARE, OVER = range(6)  # a game's phase in its turn
COST = np.array([5, 5, 10, 10, 400, 40, 0, 0], np.int32)  # scare cost by 2 * scares + skull ready
COLS = sum(1 << (6 * c) for c in range(6))  # bit v of each child's 6 bits
GATHER = sum(1 << (30 - 5 * c) for c in range(6))  # multiplier moving bit 6c to bit 30 + c


def _by_child(x):
    """Bits 0, 6, ..., 30 of x as a 6-bit mask (bit c: child c); products never overlap."""
    return (((x & COLS) * GATHER) >> 30) & 63


def _nth_bits(width):
    """[2^width * 16]: position of the r-th set bit (r < 16) of each mask, -1 past the last."""
    out = np.full((1 << width, 16), -1, np.int64)
    for m in range(1 << width):
        bits = [i for i in range(width) if m >> i & 1]
        out[m, :len(bits)] = bits
    return out.reshape(-1)


C6 = np.arange(6)[:, None]  # child (or candy) number down the first axis
SHIFT6, ROW384 = 6 * C6, 384 * C6  # a child's bits in a box mask; its rows in the `symb` table
V6 = np.arange(6)[None, :, None]  # die value - 1 down the second axis
OPT = [(63 - np.arange(m))[:, None] for m in range(64)]  # options packed in greedy keys
NTH12 = _nth_bits(12)  # plan options: 12 bits; also a child's 6 boxes (masks below 64)
DIE_OFF = np.array([[63], [57]], np.int32)  # 63 - 6 * die: the plan's option, packed in a key


class Sheet:
    """Per-sheet lookup tables."""

    def __init__(self, t: Tables):
        self.t = t
        S, P = t.n_sym, t.n_pow
        self.bc = t.box_candy.astype(np.intp)  # [36]
        gt = np.append(np.diff(t.points), 0).astype(np.int64)  # gain of the (n+1)-th candy
        self.gt = gt
        self.gt10 = (10 * gt).astype(np.int32)
        # symbol part of a box's greedy value, per child and free boxes of that child (none free:
        # scared); NEG where the box is not free
        symb = np.full((6, 64, 6), NEG, np.int64)
        for c in range(6):
            masks = [(int(t.sym_mask[s]) >> (6 * c)) & 63 for s in range(S)]
            for f in range(64):
                checked = ~f & 63
                for v in range(6):
                    if f >> v & 1:
                        symb[c, f, v] = sum(3 + (30 if bin(m & ~checked).count("1") == 1 else 0)
                                            for m in masks if m >> v & 1)
        self.symb = symb.reshape(-1).astype(np.int32)
        cv = np.arange(6 * 64 * 6)
        self.boxof = (cv // 384) * 6 + cv % 6  # box of a `symb` index
        self.candyof = self.bc[self.boxof]  # its candy
        # greedy keys with the option packed in the low bits (see Games._plan and _any_box)
        self.symbp = (self.symb * 64 - cv // 384).astype(np.int32)
        self.symb64 = (self.symb * 64 + 63 - self.boxof).astype(np.int32)
        # symbols of each box: power mask and kind, Boo-nus mask and row
        self.pm = np.full(36, DUMMY_MASK, np.int64)
        self.pk = np.zeros(36, np.intp)
        self.bm = np.full(36, DUMMY_MASK, np.int64)
        self.brow = np.zeros(36, np.intp)
        for s in range(S):
            m = int(t.sym_mask[s])
            for b in range(36):
                if m >> b & 1:
                    if s < P:
                        self.pm[b], self.pk[b] = m, t.sym_kind[s]
                    else:
                        self.bm[b], self.brow[b] = m, t.sym_kind[s] - 6
        self.rowmask = np.zeros(3, np.int64)
        for s in range(P, S):
            self.rowmask[t.sym_kind[s] - 6] |= int(t.sym_mask[s])
        self.imm = np.array([p in IMMEDIATE for p in POWERS])
        self.top = int(t.pyr_cum[-1])
        pyv = []
        for p in range(self.top + 1):
            if p >= self.top:
                pyv.append(0)
            else:
                end = int(t.pyr_cum[np.searchsorted(t.pyr_cum, p, side="right")])
                pyv.append(50 // (end - p))
        self.pyv = np.array(pyv, np.int64)
        self.caul = t.cauldron.astype(np.intp)
        self.caul_all = (1 << len(t.cauldron)) - 1
        self.needs = t.needs.astype(np.int64)
        self.rew_star = t.rew_star
        self.rew_code = np.where(t.rew_star, 1, 3)  # a column's reward state when earned (3: to choose)


class Games:
    def __init__(self, sh: Sheet, dice: np.ndarray, u: np.ndarray, policy: str, targets: np.ndarray):
        t = sh.t
        G = len(dice)
        self.sh, self.t, self.G, self.policy = sh, t, G, policy
        self.greedy = policy != "random"
        self.cover = policy == "cover"
        self.ar = np.arange(G)
        self.A = np.ascontiguousarray(dice[:, :, 0].T, dtype=np.int64)  # [T, G]
        self.B = np.ascontiguousarray(dice[:, :, 1].T, dtype=np.int64)
        self.U = np.ascontiguousarray(u).reshape(-1) if not self.greedy else None  # [G, T, K] flat
        self.ut = np.arange(G) * (u.shape[1] * K)  # flat index of each game's slots this turn in U
        z = lambda *s: np.zeros(s + (G,), np.int64)
        self.boxes, self.caul = z(), z()
        self.free = np.full(G, ALL36, np.int64)
        z8 = lambda n: np.zeros((n, G), np.int8)  # small counters: a small working set
        self.scares, self.stash, self.colcnt = z8(6), z8(6), z8(7)
        self.ready, self.used, self.reward = z8(6), z8(6), z8(7)
        self.gain10 = np.full((6, G), 10 * sh.gt[0], np.int32)  # 10 x gain of each candy's next circle
        self.gain64 = 64 * self.gain10  # the same, scaled for keys
        self.candyG = sh.candyof * G
        # flat indices of rows in [n, G] arrays: x.take(rows + g) is x[rows][:, g], in one pass
        self.R6G, self.R7G, self.caulG = C6 * G, np.arange(7)[:, None] * G, sh.caul[:, None] * G  # flat index of a `symb` index's candy row in [6, G] arrays
        self.pyramid, self.lost, self.missed = z(), z(), z()
        self.p_cau, self.p_row, self.p_star, self.p_cp = z(), z(), z(), z()
        self.pend, self.k = z(), z()
        # cover help, per game: one Help per distinct target, spread to its games
        uniq, inv = np.unique(targets, return_inverse=True) if self.cover else ([], None)
        hs: list[Help] = [helps(t, int(e)) for e in uniq]
        arr = lambda f, d: np.array([f(h) for h in hs], np.int64)[inv] if hs else np.full(G, d, np.int64)
        self.h_boxes = arr(lambda h: h.boxes, 0)
        self.h_cand = arr(lambda h: h.candies, 0)
        self.h_scare = arr(lambda h: h.scare, -1)
        self.h_caul = arr(lambda h: h.cauldron, 0)
        self.h_pyr = arr(lambda h: h.pyramid, 0)
        self.h_cbox = arr(lambda h: h.cauldron_box, -1)
        self.h_col = arr(lambda h: h.column, -1)
        self.h_star = ((self.h_boxes != 0) | (self.h_cand != 0)).astype(np.int64)
        # the `symb` tables this policy reads; for cover, one copy per target with its bonus added
        # (BIG for a box that helps the target, BIG more if its candy does), `toff` the game's copy
        self.symb, self.symbp, self.symb64, self.toff = sh.symb, sh.symbp, sh.symb64, None
        if self.cover:
            b = np.arange(36)
            hb = np.array([h.boxes for h in hs], np.int64)[:, None]
            hc = np.array([h.candies for h in hs], np.int64)[:, None]
            bonus = (BIG * (((hb >> b) & 1) + ((hc >> sh.bc) & 1)))[:, sh.boxof]  # [targets, 2304]
            self.symb = (sh.symb + bonus).reshape(-1).astype(np.int32)
            self.symbp = (sh.symbp + 64 * bonus).reshape(-1).astype(np.int32)
            self.symb64 = (sh.symb64 + 64 * bonus).reshape(-1).astype(np.int32)
            self.toff = (inv * len(sh.symb)).astype(np.int64)
        self.tn = np.zeros(G, np.int64)  # each game's turn: games need not move in step
        self.tk = np.zeros(G, np.int8)  # this turn's kind: doubles, full moon or plan
        self.target = np.zeros(G, np.int64)  # the child the plan's second die scares
        self.b = np.zeros(G, np.int64)  # this turn's second die

    # -- decisions ---------------------------------------------------------------------------------
    def _r(self, g, n):
        """The random policy's choice: option number floor(u * n) of the decision now."""
        u = self.U.take(self.ut[g] + (self.k[g] & (K - 1)))
        return (u * n).astype(np.int64)

    def _pick(self, g, legal, vals):
        """The option chosen per game among [m, n] `legal` options in canonical order (greedy:
        the first of highest `vals`; random: the r-th legal one); -1 where none is legal."""
        if self.greedy:
            m = len(legal)
            key = np.where(legal, vals * 64 + OPT[m], NEGK).max(0)
            return np.where(key > NEGK, 63 - (key & 63), -1)
        if len(legal) <= 8:  # the legal options as a bit mask, then its r-th set bit (none: -1)
            mask = np.packbits(legal, axis=0, bitorder="little")[0]
            cnt = np.bitwise_count(mask)
            r = self._r(g, cnt)
            self.k[g] += cnt > 0
            return NTH12.take(mask.astype(np.intp) * 16 + r)
        cnt = legal.sum(0)
        r = self._r(g, cnt)
        pick = (np.cumsum(legal, 0) <= r).sum(0)
        self.k[g] += cnt > 0
        return np.where(cnt > 0, pick, -1)

    def _hc(self, g, k):
        """1 where candy k (broadcast) helps the cover target."""
        return (self.h_cand[g] >> k) & 1

    # -- greedy values -----------------------------------------------------------------------------
    def _state(self, g):
        """[6, n] index of each child's row in the `symb` table: its free boxes."""
        return ((self.free[g] >> SHIFT6) & 63) * 6 + ROW384

    def _own(self, g, idx):
        """`symb` indices moved to the game's own copy of the tables (cover)."""
        return idx if self.toff is None else idx + self.toff[g]

    def _die_vals(self, g, dm1):
        """Values (rules.box_value, about NEG where illegal) of each child's box for the die values
        dm1 + 1: [m, 6, n] for dm1 [m, n]."""
        sh = self.sh
        idx = self._state(g)[None, :, :] + dm1[:, None, :]
        sym = self.symb.take(self._own(g, idx))
        if not self.greedy:
            return sym
        return sym + self.gain10.take(self.candyG.take(idx) + self.ar[g])

    def _box_vals(self, g):
        """[36, n] values of every box (about NEG where illegal)."""
        sh = self.sh
        n = len(g)
        sym = self.symb.take(self._own(g, self._state(g))[:, None, :] + V6).reshape(36, n)
        if not self.greedy:
            return sym
        return sym + self.gain10[:, g][sh.bc]

    def _cost(self, g, c):
        """rules.scare_cost of scaring child c ([m, n])."""
        sc = self.scares.take(c * self.G + self.ar[g])
        sk = self.ready[SKULL][g] > 0
        cost = COST.take(2 * sc + sk)
        if self.cover:
            cost = np.where((c == self.h_scare[g]) & (sc < 3), -BIG, cost)
        return cost

    def _cauldron_value(self, g):
        open_ = (self.caul[g] >> np.arange(len(self.sh.caul))[:, None]) & 1 == 0
        return np.where(open_, self.gain10.take(self.caulG + g), 0).max(0)

    # -- a game ------------------------------------------------------------------------------------
    def play(self):
        """Games move through their turns independently, so that one game's long chain of effects
        does not hold the others up. Each round, every game does what its phase asks:
        START: roll; the first collect (doubles: any box; full moon: die 1; else the plan);
        R1 / R2: the pending effects first in line (`_resolve_step`; the phase ends when none is left);
        STEP2: doubles: the bone; full moon: die 2;   SCARE: the scare, then the next turn.
        A game with nothing pending plays a whole turn in one round."""
        T, G = self.t.turns, self.G
        ph = np.zeros(G, np.int8)
        while True:
            if ph[0] == START and not ph.any():
                self._start(ALL)
                ph[:] = R1
            else:
                g = (ph == START).nonzero()[0]
                if g.size:
                    self._start(g)
                    ph[g] = R1
            self._resolve_some(ph)
            ph += ((ph == R1) | (ph == R2)) & (self.pend == 0)  # done: R1 -> STEP2, R2 -> SCARE
            g = (ph == STEP2).nonzero()[0]
            if g.size:
                self._step2(g)
                ph[g] = R2
                ph += (ph == R2) & (self.pend == 0)  # R2 -> SCARE
            g = (ph == SCARE).nonzero()[0]
            if g.size:
                self._scare_step(g)
                self.tn[g] += 1
                self.k[g] = 0
                self.ut[g] += K
                ph[g] = np.where(self.tn[g] >= T, OVER, START)
            elif (ph == OVER).all():
                return

    def _resolve_some(self, ph):
        """One resolve step for the games whose effects are pending."""
        r = (((ph == R1) | (ph == R2)) & (self.pend > 0)).nonzero()[0]
        if r.size:
            self._resolve_step(r)

    def _start(self, g):
        """Roll; the full moon decision; the first collect."""
        G = self.G
        ready, used = self.ready, self.used
        gi = self.ar[g]
        at = self.tn[g] * G + gi
        a, b = self.A.take(at), self.B.take(at)
        n = len(a)
        dbl = a == b
        moon = np.zeros(n, bool)
        m = (~dbl & (ready[MOON][g] > 0)).nonzero()[0]
        if m.size:
            mi = m[self._moon_choice(gi[m], a[m], b[m]) == 1]
            M = gi[mi]
            used[MOON][M] += 1
            ready[MOON][M] -= 1
            moon[mi] = True
        plain = ~(dbl | moon)
        box, target, none = self._plan(g, a, b)
        if not self.greedy:
            self.k[g] += plain
        miss = none & plain
        if miss.any():
            self.missed[gi[miss]] += 1
        box[~plain] = -1
        self.target[g] = target
        self.tk[g] = np.where(dbl, 0, np.where(moon, 1, 2))
        self.b[g] = b
        D = dbl.nonzero()[0]
        if D.size:
            bd = self._any_box(gi[D])
            box[D] = bd
            self.missed[gi[D[bd < 0]]] += 1
        M = moon.nonzero()[0]
        if M.size:
            box[M] = self._moon_pick(gi[M], a[M])
        has = box >= 0
        if has.all():
            self._collect(g, box)
        else:
            self._collect(gi[has], box[has])

    def _step2(self, g):
        """Doubles: the bone; full moon: the second die."""
        kind = self.tk[g]
        D = g[kind == 0]
        if D.size:
            self._bone(D)
        M = g[kind == 1]
        if M.size:
            bm = self._moon_pick(M, self.b[M])
            ok = bm >= 0
            self._collect(M[ok], bm[ok])

    def _scare_step(self, g):
        G = self.G
        ready, used = self.ready, self.used
        kind = self.tk[g]
        P = g[kind == 2]
        target = self.target[P]
        sel = self.scares.take(target * G + P) < 3
        P, target = P[sel], target[sel]
        sk = ready[SKULL][P] > 0
        if sk.any():
            s, st = P[sk], target[sk]
            v1 = None
            if self.greedy:
                bad = (self.scares.take(st * G + s) == 2) & (st != self.h_scare[s])
                v1 = np.array([np.zeros(len(s), np.int64), np.where(bad, 1, -1)])
            use = self._pick(s, np.ones((2, len(s)), bool), v1) == 1
            used[SKULL][s[use]] += 1
            ready[SKULL][s[use]] -= 1
            keep = np.ones(len(P), bool)
            keep[sk.nonzero()[0][use]] = False
            P, target = P[keep], target[keep]
        self._scare(P, target)
        M = g[kind == 1]
        if M.size:
            self._moon_scare(M)

    def _plan(self, g, a, b):
        """Collect with one die, scare with the other: the 12 (die, child) options of every game.
        Returns the box (-1: none can take either die), the child the other die scares, and
        whether no box could be taken."""
        G = len(a)
        dm1 = np.array([a - 1, b - 1])
        if self.greedy:
            # key = 64 * (box value - scare cost) + 63 - option, option = 6 * die + child
            sh = self.sh
            idx = self._state(g)[None, :, :] + dm1[:, None, :]
            key = self.symbp.take(self._own(g, idx)) + self.gain64.take(self.candyG.take(idx) + self.ar[g])
            cost = self._cost(g, np.array([b - 1, a - 1]))  # die 1 collects: die 2 scares
            key += (DIE_OFF - 64 * cost)[:, None, :]
            key = key.reshape(12, G).max(0)
            none = key < THR * 32
            if none.any():
                w = none.nonzero()[0]
                key[w] = np.maximum(63 - 64 * cost[0, w], 57 - 64 * cost[1, w])
            pick = 63 - (key & 63)
        else:
            # the legal options as a 12-bit mask (bit 6 * die + child), then its r-th set bit
            free = self.free[g]
            mask = _by_child(free >> (a - 1)) | (_by_child(free >> (b - 1)) << 6)
            cnt = np.bitwise_count(mask).astype(np.int64)
            none = cnt == 0
            r = self._r(g, np.where(none, 2, cnt))
            pick = np.where(none, 6 * r, NTH12.take(mask * 16 + r))
        first = pick < 6
        box = np.where(none, -1, np.where(first, a, b) - 1 + 6 * (pick % 6))
        return box, np.where(first, b, a) - 1, none

    def _any_box(self, g):
        """Doubles and stars: any available box, in box order."""
        if self.greedy:
            sh = self.sh
            n = len(g)
            key = self.symb64.take(self._own(g, self._state(g))[:, None, :] + V6).reshape(36, n)
            key += self.gain64[:, g][sh.bc]
            key = key.max(0)
            return np.where(key < THR * 32, -1, 63 - (key & 63))
        # random: the r-th free box, found child by child
        n = len(g)
        free = self.free[g]
        cnt = np.bitwise_count(free).astype(np.int64)
        r = self._r(g, cnt)
        self.k[g] += cnt > 0
        rows = (free[None, :] >> SHIFT6) & 63  # [6, n] free boxes per child
        cum = np.cumsum(np.bitwise_count(rows), 0, dtype=np.int64)
        c = (cum <= r).sum(0)  # the child holding the r-th free box
        ar = np.arange(n)
        before = np.where(c > 0, cum.take(np.maximum(c - 1, 0) * n + ar, mode="clip"), 0)
        row = rows.take(np.minimum(c, 5) * n + ar)
        box = 6 * c + NTH12.take(row * 16 + r - before, mode="clip")
        return np.where(cnt > 0, box, -1)

    def _moon_choice(self, g, a, b):
        """The full moon decision: 1 where the game crosses one out this turn."""
        vals = None
        if self.greedy:
            v = self._die_vals(g, np.array([a - 1, b - 1]))
            best = v.max(1)  # [2, n]
            none = (best < THR).any(0)
            cost = self._cost(g, np.array([b - 1, a - 1]))
            plan = np.maximum(best[0] - cost[0], best[1] - cost[1])
            calm = self.scares.take(self.R6G + g) < 3
            costs = self._cost(g, np.broadcast_to(C6, calm.shape))
            mc = np.where(calm.any(0), np.where(calm, costs, 1 << 20).min(0), 0)
            vals = np.array([np.where(none, 1, plan), np.where(none, 0, best[0] + best[1] - mc)])
        return self._pick(g, np.ones((2, len(g)), bool), vals)

    def _moon_pick(self, g, d):
        """Full moon: the box of the child of choice that takes die value d (-1: none can)."""
        v = self._die_vals(g, (d - 1)[None, :])[0]
        pick = self._pick(g, v > THR, v)
        return np.where(pick >= 0, 6 * pick + d - 1, -1)

    def _moon_scare(self, g):
        """Full moon: after collecting, scare a child of choice who is not scared (a skull may skip it)."""
        G = self.G
        calm = self.scares.take(self.R6G + g) < 3
        g = g[calm.any(0)]
        if not g.size:
            return
        sk = self.ready[SKULL][g] > 0
        if sk.any():
            s = g[sk]
            v1 = None
            if self.greedy:
                sc = self.scares.take(self.R6G + s).astype(np.int64)
                bad = (sc >= 2).all(0)
                hs = self.h_scare[s]
                hcalm = (hs >= 0) & (self.scares.take(np.maximum(hs, 0) * G + s) < 3)
                v1 = np.array([np.zeros(len(s), np.int64), np.where(bad & ~hcalm, 1, -1)])
            use = self._pick(s, np.ones((2, len(s)), bool), v1) == 1
            self.used[SKULL][s[use]] += 1
            self.ready[SKULL][s[use]] -= 1
            g = np.concatenate([g[~sk], s[~use]])
            if not g.size:
                return
        sc = self.scares.take(self.R6G + g).astype(np.int64)
        vals = None
        if self.greedy:
            checked = np.bitwise_count((self.boxes[g][None, :] >> SHIFT6) & 63).astype(np.int64)
            vals = np.where(C6 == self.h_scare[g], BIG, -(10 * sc + 6 - checked))
        self._scare(g, self._pick(g, sc < 3, vals))

    def _scare(self, g, c):
        at = c * self.G + g
        flat = self.scares.reshape(-1)
        flat[at] += 1
        now = flat[at] == 3
        if now.any():
            w, cw = g[now], c[now]
            self.free[w] &= ~(np.int64(63) << (6 * cw))

    def _bone(self, g):
        """Doubles: one unlocked bone may be crossed out for a candy of choice."""
        w = g[self.ready[BONE][g] > 0]
        if not w.size:
            return
        open_ = self.stash.take(self.R6G + w) < 7
        w, open_ = w[open_.any(0)], open_[:, open_.any(0)]
        if not w.size:
            return
        n = len(w)
        legal = np.concatenate([np.ones((1, n), bool), open_])
        vals = None
        if self.greedy:
            gains = self.gain10.take(self.R6G + w) // 10
            if self.cover:
                gains = gains + BIG * self._hc(w, C6)
            vals = np.concatenate([np.zeros((1, n), gains.dtype), gains])
        pick = self._pick(w, legal, vals)
        use = pick > 0
        w = w[use]
        self.used[BONE][w] += 1
        self.ready[BONE][w] -= 1
        self._add_candy(w, pick[use] - 1)

    # -- collecting --------------------------------------------------------------------------------
    def _collect(self, g, box):
        """Cross out the box (no effects resolved: the caller resolves them)."""
        sh, G = self.sh, self.G
        gi = self.ar[g]
        bit = np.int64(1) << box
        bx = self.boxes[g] | bit
        self.boxes[g] = bx
        self.free[g] &= ~bit
        candy = sh.bc.take(box)
        bat = self.ready[BAT][g] > 0
        if bat.any():
            e = bat.nonzero()[0]
            w, cd = gi.take(e), candy.take(e)
            n = len(w)
            k6 = C6
            legal = np.concatenate([np.ones((1, n), bool), (self.stash.take(self.R6G + w) < 7) & (k6 != cd)])
            vals = None
            if self.greedy:
                gains = self.gain10.take(self.R6G + w) // 10
                if self.cover:
                    gains = gains + BIG * self._hc(w, k6)
                keep = gains.reshape(-1)[cd * n + np.arange(n)]
                vals = np.concatenate([keep[None, :], gains - 3])
            pick = self._pick(w, legal, vals)
            use = pick > 0
            self.used[BAT][w[use]] += 1
            self.ready[BAT][w[use]] -= 1
            candy[e[use]] = pick[use] - 1
        self._add_candy(gi, candy)
        self._unlock(gi, box, bx)

    def _add_candy(self, g, k):
        """Check the candy's next stash circle; a column reaching its number earns its reward."""
        sh, G = self.sh, self.G
        at = k * G + g
        n = self.stash.take(at).astype(np.intp)
        ok = n < 7
        if not ok.all():
            g, at, n = g[ok], at[ok], n[ok]
        n1 = n + 1
        self.stash.reshape(-1)[at] = n1
        if self.greedy:  # the random policy reads no values
            gn = sh.gt10.take(n1)
            self.gain10.reshape(-1)[at] = gn
            self.gain64.reshape(-1)[at] = 64 * gn
        cat = n * G + g
        cc = self.colcnt.reshape(-1)
        cnt = cc.take(cat) + 1
        cc[cat] = cnt
        earn = cnt == sh.needs.take(n)  # the column reaches its number just now
        if earn.any():
            e = earn.nonzero()[0]
            w, col = g.take(e), n.take(e)
            star = sh.rew_star.take(col)
            self.reward.reshape(-1)[col * G + w] = sh.rew_code.take(col)
            self.p_star[w] += star
            self.p_cp[w] += ~star
            self.pend[w] += 1

    def _unlock(self, g, box, bx):
        """The box's power and Boo-nus symbols, when now complete: a power is circled (or, in a
        square, used at once), a Boo-nus symbol checks its row, a full row gives an action."""
        sh, G = self.sh, self.G
        pm = sh.pm.take(box)
        fp = (bx & pm) == pm
        if fp.any():
            e = fp.nonzero()[0]
            w, kind = g.take(e), sh.pk.take(box.take(e))
            imm = sh.imm[kind]
            wi, ki = w[imm], kind[imm]
            self.used.reshape(-1)[ki * G + wi] += 1
            wc = wi[ki == CAULDRON]
            self.p_cau[wc] += 1
            self.pend[wc] += 1
            self._pyramid(wi[ki == PYRAMID])
            self.ready.reshape(-1)[kind[~imm] * G + w[~imm]] += 1
        bm = sh.bm.take(box)
        fb = (bx & bm) == bm
        if fb.any():
            w, bxw = g[fb], bx[fb]
            rm = sh.rowmask[sh.brow.take(box[fb])]
            w = w[(bxw & rm) == rm]
            self.p_row[w] += 1
            self.pend[w] += 1

    def _resolve_step(self, g):
        """Pending effects of the games g, in the reference's fixed order: cauldron boxes, then
        cauldron/pyramid choices, then Boo-nus row actions, then stars (pyramid boxes ask
        nothing and come first: they are checked the moment they are earned). Each game takes,
        in this sequence, every effect that is first in its queue when its turn comes."""
        queues = {"cauldron": (self.p_cau, self._cauldron), "choice": (self.p_cp, self._cp),
                  "row": (self.p_row, self._row), "star": (self.p_star, self._star)}
        done = True  # games with nothing left drop out after a step that did something
        for kind in ("cauldron", "choice", "cauldron", "row", "cauldron", "choice", "star"):
            if done:
                g = g[self.pend[g] > 0]
                if not g.size:
                    return
            first = queues[kind][0][g] > 0
            for ahead in PRIORITY[:PRIORITY.index(kind)]:  # effects that come before this kind
                first &= queues[ahead][0][g] == 0
            w = g[first]
            done = w.size > 0
            if done:
                queues[kind][1](w)

    def _star(self, w):
        """A star: any free box (none left: the star is lost)."""
        self.p_star[w] -= 1
        self.pend[w] -= 1
        box = self._any_box(w)
        none = box < 0
        self.lost[w[none]] += 1
        self._collect(w[~none], box[~none])

    def _pyramid(self, w):
        """Check the next pyramid box (lowest level first); none left: the box is lost."""
        full = self.pyramid[w] >= self.sh.top
        self.lost[w[full]] += 1
        self.pyramid[w[~full]] += 1

    def _cauldron(self, w):
        sh = self.sh
        self.p_cau[w] -= 1
        self.pend[w] -= 1
        nca = np.arange(len(sh.caul))[:, None]
        legal = (self.caul[w] >> nca) & 1 == 0
        vals = None
        if self.greedy:
            vals = self.gain10.take(self.caulG + w)
            if self.cover:
                vals = vals + BIG * ((nca == self.h_cbox[w]) | (self._hc(w, sh.caul[:, None]) == 1))
        pick = self._pick(w, legal, vals)
        none = pick < 0
        self.lost[w[none]] += 1
        w, pick = w[~none], pick[~none]
        self.caul[w] |= np.int64(1) << pick
        self._add_candy(w, sh.caul[pick])

    def _cp(self, w):
        """A stash column's reward: a cauldron or a pyramid box (leftmost waiting column first)."""
        sh, G = self.sh, self.G
        self.p_cp[w] -= 1
        self.pend[w] -= 1
        col = (self.reward.take(self.R7G + w) == 3).argmax(0)
        legal = np.array([self.caul[w] != sh.caul_all, self.pyramid[w] < sh.top])
        vals = None
        if self.greedy:
            vals = np.array([self._cauldron_value(w), sh.pyv[self.pyramid[w]]])
            if self.cover:
                here = (self.h_col[w] == -1) | (self.h_col[w] == col)
                vals = vals + BIG * np.array([self.h_caul[w] & here, self.h_pyr[w] & here])
        pick = self._pick(w, legal, vals)
        none = pick < 0
        self.lost[w[none]] += 1
        self.reward.reshape(-1)[col * G + w] = np.where(none, 4, pick + 1)
        self.p_cau[w[pick == 0]] += 1
        self.pend[w[pick == 0]] += 1
        self._pyramid(w[pick == 1])

    def _row(self, w):
        """A full Boo-nus row: one of its actions."""
        sh = self.sh
        self.p_row[w] -= 1
        self.pend[w] -= 1
        legal, vals = [], []
        generic = self.h_col[w] == -1
        for act in self.t.actions:
            if act == "star":
                legal.append(self.free[w] != 0)
                if self.greedy:
                    vals.append(self._box_vals(w).max(0)
                                + (BIG * self.h_star[w] if self.cover else 0))
            elif act == "cauldron":
                legal.append(self.caul[w] != sh.caul_all)
                if self.greedy:
                    vals.append(self._cauldron_value(w)
                                + (BIG * (self.h_caul[w] & generic) if self.cover else 0))
            else:
                legal.append(self.pyramid[w] < sh.top)
                if self.greedy:
                    vals.append(sh.pyv[self.pyramid[w]]
                                + (BIG * (self.h_pyr[w] & generic) if self.cover else 0))
        pick = self._pick(w, np.array(legal), np.array(vals) if self.greedy else None)
        self.lost[w[pick < 0]] += 1
        for i, act in enumerate(self.t.actions):
            if act == "pyramid":
                self._pyramid(w[pick == i])
            else:
                x = w[pick == i]
                (self.p_star if act == "star" else self.p_cau)[x] += 1
                self.pend[x] += 1

    def flat(self) -> np.ndarray:
        """The end state [G, S] (int16, built field by field as rows of its transpose)."""
        t = self.t
        L = layout_of(t)
        out = np.empty((L["_size"].stop, self.G), np.int16)
        bits = lambda x, n: (x[None, :] >> np.arange(n)[:, None]) & 1
        m = t.sym_mask[:, None]
        sym = (self.boxes[None, :] & m) == m
        rows = t.sym_kind[t.n_pow:] - 6
        bcount = [sym[t.n_pow:][rows == r].sum(0) for r in range(3)]
        for name, val in (("boxes", bits(self.boxes, 36)), ("scares", self.scares), ("stash", self.stash),
                          ("unlocked", sym[:t.n_pow]), ("used", self.used), ("boonus", sym[t.n_pow:]),
                          ("bcount", bcount), ("reward", self.reward),
                          ("cauldron", bits(self.caul, len(t.cauldron))), ("pyramid", self.pyramid),
                          ("lost", self.lost), ("missed", self.missed), ("turn", t.turns)):
            out[L[name]] = val
        return out.T


_SHEETS: dict[int, tuple] = {}  # id(doc) -> (doc, Sheet): the validator plays one sheet in many batches


def sheet(doc) -> Sheet:
    hit = _SHEETS.get(id(doc))
    if hit is None or hit[0] is not doc:
        if len(_SHEETS) > 64:
            _SHEETS.clear()
        hit = _SHEETS[id(doc)] = (doc, Sheet(tables(doc)))
    return hit[1]


def play(doc, dice, u, policy: str, targets):
    sh = sheet(doc)
    games = Games(sh, np.asarray(dice), np.asarray(u), policy, np.asarray(targets))
    collecting = gc.isenabled()
    gc.disable()  # the play makes no reference cycles; the collector would only scan its temporaries
    try:
        games.play()
    finally:
        if collecting:
            gc.enable()
    return finish(sh.t, games.flat())
