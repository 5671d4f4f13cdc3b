"""Tricky Treats fast engine: the reference engine's decisions, vectorised across games with numpy.

Every method mirrors one in rules.State and takes `idx`, the games it applies to. A decision
(`_pick`) lays its options out as columns in the reference's canonical order with a legality mask,
so "the r-th legal option" (random) and "the first best option" (greedy, cover) are the same
choices the reference makes. Both engines end in the same flat state (rules.layout_of).
"""

from __future__ import annotations

import numpy as np

from .model import POWERS
from .rules import BIG, K, Help, Tables, finish, helps, layout_of, tables

BONE, CAULDRON, BAT, PYRAMID, MOON, SKULL = range(6)
NEG = -(1 << 40)


class Games:
    def __init__(self, t: Tables, dice: np.ndarray, u: np.ndarray, policy: str, targets: np.ndarray):
        G = len(dice)
        self.t, self.G, self.policy = t, G, policy
        self.dice = dice.astype(np.int64)
        self.u = u
        S = t.n_sym
        self.boxes = np.zeros(G, np.int64)
        self.scares = np.zeros((G, 6), np.int64)
        self.stash = np.zeros((G, 6), np.int64)
        self.unlocked = np.zeros((G, t.n_pow), bool)
        self.used = np.zeros((G, 6), np.int64)
        self.ready = np.zeros((G, 6), np.int64)  # unlocked minus used, per power
        self.done = np.zeros((G, S + 1), bool)
        self.done[:, S] = True
        self.rem = np.tile(t.sym_size, (G, 1))
        self.bcount = np.zeros((G, 3), np.int64)
        self.reward = np.zeros((G, 7), np.int64)
        self.caul = np.zeros((G, len(t.cauldron)), bool)
        self.pyramid = np.zeros(G, np.int64)
        self.lost = np.zeros(G, np.int64)
        self.stuck = np.zeros(G, np.int64)
        self.turn = 0
        self.p_pyr = np.zeros(G, np.int64)
        self.p_cau = np.zeros(G, np.int64)
        self.p_row = np.zeros(G, np.int64)
        self.p_star = np.zeros(G, np.int64)
        self.k = np.zeros(G, np.int64)
        gain = np.diff(t.points)  # gain of the (n+1)-th candy, n = 0..6
        self.gain_tab = np.append(gain, 0).astype(np.int64)
        self.box_bits = np.int64(1) << np.arange(36, dtype=np.int64)
        self.greedy = policy != "random"
        # cover help, per game
        hs: list[Help] = []
        uniq: dict[int, Help] = {}
        if policy == "cover":
            for e in set(int(e) for e in targets):
                uniq[e] = helps(t, e)
            hs = [uniq[int(e)] for e in targets]
        self.h_boxes = np.array([h.boxes for h in hs] or np.zeros(G), np.int64)
        self.h_candies = np.array([h.candies for h in hs] or np.zeros(G), np.int64)
        self.h_scare = np.array([h.scare for h in hs] or np.full(G, -1), np.int64)
        self.h_caul = np.array([h.cauldron for h in hs] or np.zeros(G), bool)
        self.h_pyr = np.array([h.pyramid for h in hs] or np.zeros(G), bool)
        self.h_cbox = np.array([h.cauldron_box for h in hs] or np.full(G, -1), np.int64)
        self.h_col = np.array([h.column for h in hs] or np.full(G, -1), np.int64)
        self.h_star = (self.h_boxes != 0) | (self.h_candies != 0)

    # -- decisions ---------------------------------------------------------------------------------
    def _pick(self, idx, legal, values=None):
        """Choose a column for each game in idx; -1 where no option is legal (no decision then)."""
        n = legal.sum(1)
        has = n > 0
        if self.greedy:
            v = np.where(legal, values(), NEG)
            choice = v.argmax(1)
        else:
            u = self.u[idx, self.turn, self.k[idx] % K]
            r = (u * n).astype(np.int64)
            choice = (legal.cumsum(1) > r[:, None]).argmax(1)
        self.k[idx] += has
        return np.where(has, choice, -1)

    # -- questions ---------------------------------------------------------------------------------
    def _available(self, idx, b):
        """[n, m] boxes b: empty and their child not scared."""
        empty = (self.boxes[idx][:, None] >> b) & 1 == 0
        calm = np.take_along_axis(self.scares[idx], b // 6, 1) < 3
        return empty & calm

    def _gain(self, idx):
        return self.gain_tab[self.stash[idx]]

    def _box_value(self, idx, b):
        t = self.t
        cand = t.box_candy[b]
        v = 10 * np.take_along_axis(self._gain(idx), cand, 1)
        syms = t.box_syms[b]  # [n, m, 2]
        rows = idx[:, None, None]
        d = self.done[rows, syms]
        r = self.rem[rows, syms]
        v = v + (~d * (3 + 30 * (r == 1))).sum(-1)
        if self.policy == "cover":
            v = v + BIG * ((self.h_boxes[idx][:, None] >> b) & 1)
            v = v + BIG * ((self.h_candies[idx][:, None] >> cand) & 1)
        return v

    def _scare_cost(self, idx, c):
        """c: [n] child per game."""
        sc = self.scares[idx, c]
        return np.where(sc >= 3, 0, np.where(c == self.h_scare[idx], -BIG,
                        np.where(sc == 2, np.where(self.ready[idx, SKULL] > 0, 40, 400), 5 * (sc + 1))))

    def _scare_cost_all(self, idx):
        return np.stack([self._scare_cost(idx, np.full(len(idx), c)) for c in range(6)], 1)

    def _checked(self, idx):
        return np.bitwise_count((self.boxes[idx][:, None] >> (6 * np.arange(6))) & 63).astype(np.int64)

    def _pyr_full(self, idx):
        return self.pyramid[idx] >= self.t.pyr_cum[-1]

    def _cauldron_value(self, idx):
        g = np.take_along_axis(self._gain(idx), np.broadcast_to(self.t.cauldron, (len(idx), len(self.t.cauldron))), 1)
        return np.where(~self.caul[idx], 10 * g, NEG).max(1).clip(0)

    def _pyramid_value(self, idx):
        t = self.t
        p = self.pyramid[idx]
        lv = np.searchsorted(t.pyr_cum, p, side="right")
        end = t.pyr_cum[np.minimum(lv, len(t.pyr_cum) - 1)]
        return np.where(p >= t.pyr_cum[-1], 0, 50 // np.maximum(end - p, 1))

    # -- a turn ------------------------------------------------------------------------------------
    def play(self):
        for turn in range(self.t.turns):
            self.turn = turn
            self.k[:] = 0
            a, b = self.dice[:, turn, 0], self.dice[:, turn, 1]
            dbl = a == b
            self._doubles(np.flatnonzero(dbl))
            self._plain(np.flatnonzero(~dbl), a, b)

    def _doubles(self, idx):
        if not idx.size:
            return
        allb = np.broadcast_to(np.arange(36), (len(idx), 36))
        legal = self._available(idx, allb)
        box = self._pick(idx, legal, lambda: self._box_value(idx, allb))
        ok = box >= 0
        self.stuck[idx[~ok]] += 1
        self._collect(idx[ok], box[ok])
        self._resolve(idx[ok])
        bone = idx[self.ready[idx, BONE] > 0]
        opened = self.stash[bone] < 7
        bone = bone[opened.any(1)]
        if bone.size:
            legal = np.concatenate([np.ones((len(bone), 1), bool), self.stash[bone] < 7], 1)
            pick = self._pick(bone, legal, lambda: self._bone_values(bone))
            use = pick > 0
            g = bone[use]
            self.used[g, BONE] += 1
            self.ready[g, BONE] -= 1
            self._add_candy(g, pick[use] - 1)
            self._resolve(g)

    def _bone_values(self, idx):
        hc = (self.h_candies[idx][:, None] >> np.arange(6)) & 1
        return np.concatenate([np.zeros((len(idx), 1), np.int64), self._gain(idx) + BIG * hc], 1)

    def _plain(self, idx, a, b):
        if not idx.size:
            return
        moon_idx = idx[self.ready[idx, MOON] > 0]
        moon = np.zeros(self.G, bool)
        if moon_idx.size:
            legal = np.ones((len(moon_idx), 2), bool)
            pick = self._pick(moon_idx, legal, lambda: self._moon_values(moon_idx, a, b))
            moon[moon_idx[pick == 1]] = True
        m = idx[moon[idx]]
        self._moon_turn(m, a, b)
        self._plan_turn(idx[~moon[idx]], a, b)

    def _plan_cols(self, idx, a, b):
        c6 = np.arange(6)
        bidx = np.concatenate([c6 * 6 + (a[idx] - 1)[:, None], c6 * 6 + (b[idx] - 1)[:, None]], 1)
        return bidx

    def _plan_values(self, idx, a, b, bidx):
        v = self._box_value(idx, bidx)
        ca = self._scare_cost(idx, b[idx] - 1)  # die 1 collects, die 2 scares
        cb = self._scare_cost(idx, a[idx] - 1)
        return v - np.repeat(np.stack([ca, cb], 1), 6, axis=1)

    def _moon_values(self, idx, a, b):
        bidx = self._plan_cols(idx, a, b)
        legal = self._available(idx, bidx)
        v = self._box_value(idx, bidx)
        pv = self._plan_values(idx, a, b, bidx)
        best0 = np.where(legal[:, :6], v[:, :6], NEG).max(1)
        best1 = np.where(legal[:, 6:], v[:, 6:], NEG).max(1)
        plan = np.where(legal, pv, NEG).max(1)
        calm = self.scares[idx] < 3
        mc = np.where(calm, self._scare_cost_all(idx), 1 << 41).min(1)
        mc = np.where(calm.any(1), mc, 0)
        none = ~legal[:, :6].any(1) | ~legal[:, 6:].any(1)
        return np.where(none[:, None], np.array([[1, 0]]), np.stack([plan, best0 + best1 - mc], 1))

    def _plan_turn(self, idx, a, b):
        if not idx.size:
            return
        bidx = self._plan_cols(idx, a, b)
        legal = self._available(idx, bidx)
        none = ~legal.any(1)
        if none.any():
            legal = legal.copy()
            legal[none, 0] = True  # (die 1 collects nothing, die 2 scares)
            legal[none, 6] = True  # (die 2 collects nothing, die 1 scares)
            self.stuck[idx[none]] += 1
        def vals():
            v = self._plan_values(idx, a, b, bidx)
            nothing = np.stack([-self._scare_cost(idx, b[idx] - 1), -self._scare_cost(idx, a[idx] - 1)], 1)
            v[none, 0], v[none, 6] = nothing[none, 0], nothing[none, 1]
            return v
        pick = self._pick(idx, legal, vals)
        first = pick < 6
        col = np.take_along_axis(bidx, pick[:, None], 1)[:, 0]
        g = ~none
        self._collect(idx[g], col[g])
        self._resolve(idx[g])
        target = np.where(first, b[idx], a[idx]) - 1
        calm = self.scares[idx, target] < 3
        self._skull_then_scare(idx[calm], target[calm])

    def _skull_then_scare(self, idx, target):
        sk = self.ready[idx, SKULL] > 0
        s_idx, s_t = idx[sk], target[sk]
        skip = np.zeros(len(idx), bool)
        if s_idx.size:
            def vals():
                bad = (self.scares[s_idx, s_t] == 2) & (s_t != self.h_scare[s_idx])
                return np.stack([np.zeros(len(s_idx), np.int64), np.where(bad, 1, -1)], 1)
            pick = self._pick(s_idx, np.ones((len(s_idx), 2), bool), vals)
            use = pick == 1
            self.used[s_idx[use], SKULL] += 1
            self.ready[s_idx[use], SKULL] -= 1
            skip[np.flatnonzero(sk)[use]] = True
        self.scares[idx[~skip], target[~skip]] += 1

    def _moon_turn(self, idx, a, b):
        if not idx.size:
            return
        self.used[idx, MOON] += 1
        self.ready[idx, MOON] -= 1
        c6 = np.arange(6)
        for die in (a, b):
            d = die[idx]
            bidx = c6[None, :] * 6 + (d - 1)[:, None]
            legal = self._available(idx, bidx)
            pick = self._pick(idx, legal, lambda: self._box_value(idx, bidx))
            ok = pick >= 0
            g = idx[ok]
            self._collect(g, bidx[ok, pick[ok]])
            self._resolve(g)
        calm = self.scares[idx] < 3
        g = idx[calm.any(1)]
        if not g.size:
            return
        skip = np.zeros(len(g), bool)
        sk = self.ready[g, SKULL] > 0
        s_idx = g[sk]
        if s_idx.size:
            def vals():
                c = self.scares[s_idx] < 3
                two = (self.scares[s_idx] == 2) | ~c
                hs = self.h_scare[s_idx]
                hcalm = (hs >= 0) & np.take_along_axis(c, np.maximum(hs, 0)[:, None], 1)[:, 0]
                bad = two.all(1) & ~hcalm
                return np.stack([np.zeros(len(s_idx), np.int64), np.where(bad, 1, -1)], 1)
            pick = self._pick(s_idx, np.ones((len(s_idx), 2), bool), vals)
            use = pick == 1
            self.used[s_idx[use], SKULL] += 1
            self.ready[s_idx[use], SKULL] -= 1
            skip[np.flatnonzero(sk)[use]] = True
        g = g[~skip]
        if not g.size:
            return
        legal = self.scares[g] < 3
        def vals():
            v = -(10 * self.scares[g] + 6 - self._checked(g))
            return np.where(np.arange(6)[None, :] == self.h_scare[g][:, None], BIG, v)
        pick = self._pick(g, legal, vals)
        self.scares[g, pick] += 1

    # -- collecting --------------------------------------------------------------------------------
    def _collect(self, idx, box):
        if not idx.size:
            return
        t = self.t
        self.boxes[idx] |= self.box_bits[box]
        candy = t.box_candy[box]
        bat = self.ready[idx, BAT] > 0
        if bat.any():
            g, cd = idx[bat], candy[bat]
            k6 = np.arange(6)[None, :]
            legal = np.concatenate([np.ones((len(g), 1), bool), (self.stash[g] < 7) & (k6 != cd[:, None])], 1)
            def vals():
                gain = self._gain(g)
                hc = (self.h_candies[g][:, None] >> k6) & 1
                keep = np.take_along_axis(gain, cd[:, None], 1) + BIG * np.take_along_axis(hc, cd[:, None], 1)
                return np.concatenate([keep, gain - 3 + BIG * hc], 1)
            pick = self._pick(g, legal, vals)
            use = pick > 0
            self.used[g[use], BAT] += 1
            self.ready[g[use], BAT] -= 1
            candy = candy.copy()
            candy[np.flatnonzero(bat)[use]] = pick[use] - 1
        self._add_candy(idx, candy)
        self._unlock(idx, box)

    def _add_candy(self, idx, k):
        t = self.t
        ok = self.stash[idx, k] < 7
        idx, k = idx[ok], k[ok]
        if not idx.size:
            return
        self.stash[idx, k] += 1
        col = self.stash[idx, k] - 1
        count = (self.stash[idx] > col[:, None]).sum(1)
        earn = (self.reward[idx, col] == 0) & (count >= t.needs[col])
        g, c = idx[earn], col[earn]
        star = t.rew_star[c]
        self.reward[g, c] = np.where(star, 1, 3)
        self.p_star[g[star]] += 1

    def _unlock(self, idx, box):
        t = self.t
        for m in range(2):
            s = t.box_syms[box, m]
            self.rem[idx, s] -= 1
            new = (self.rem[idx, s] == 0) & ~self.done[idx, s]
            g, s = idx[new], s[new]
            if not g.size:
                continue
            self.done[g, s] = True
            pw = s < t.n_pow
            gp, sp = g[pw], s[pw]
            self.unlocked[gp, sp] = True
            kind = t.sym_kind[sp]
            imm = (kind == CAULDRON) | (kind == PYRAMID)
            self.used[gp[imm], kind[imm]] += 1
            self.p_cau[gp[kind == CAULDRON]] += 1
            self.p_pyr[gp[kind == PYRAMID]] += 1
            self.ready[gp[~imm], kind[~imm]] += 1
            gb, sb = g[~pw], s[~pw]
            row = t.sym_kind[sb] - 6
            self.bcount[gb, row] += 1
            full = self.bcount[gb, row] == t.boonus_len[row]
            self.p_row[gb[full]] += 1

    def _resolve(self, idx):
        t = self.t
        while idx.size:
            waiting = self.reward[idx] == 3
            cat = np.select([self.p_pyr[idx] > 0, self.p_cau[idx] > 0, waiting.any(1), self.p_row[idx] > 0,
                             self.p_star[idx] > 0], [0, 1, 2, 3, 4], 5)
            idx, waiting, cat = idx[cat < 5], waiting[cat < 5], cat[cat < 5]
            if not idx.size:
                return
            g = idx[cat == 0]
            if g.size:
                self.p_pyr[g] -= 1
                full = self._pyr_full(g)
                self.lost[g[full]] += 1
                self.pyramid[g[~full]] += 1
            g = idx[cat == 1]
            if g.size:
                self.p_cau[g] -= 1
                legal = ~self.caul[g]
                def vals():
                    cc = np.broadcast_to(t.cauldron, legal.shape)
                    v = 10 * np.take_along_axis(self._gain(g), cc, 1)
                    hit = (np.arange(len(t.cauldron))[None, :] == self.h_cbox[g][:, None]) | \
                          ((self.h_candies[g][:, None] >> cc) & 1 == 1)
                    return v + BIG * hit
                pick = self._pick(g, legal, vals)
                none = pick < 0
                self.lost[g[none]] += 1
                g, pick = g[~none], pick[~none]
                self.caul[g, pick] = True
                self._add_candy(g, t.cauldron[pick])
            sel = cat == 2
            g = idx[sel]
            if g.size:
                col = waiting[sel].argmax(1)
                legal = np.stack([(~self.caul[g]).any(1), ~self._pyr_full(g)], 1)
                def vals():
                    here = (self.h_col[g] == -1) | (self.h_col[g] == col)
                    return np.stack([self._cauldron_value(g) + BIG * (self.h_caul[g] & here),
                                     self._pyramid_value(g) + BIG * (self.h_pyr[g] & here)], 1)
                pick = self._pick(g, legal, vals)
                none = pick < 0
                self.reward[g[none], col[none]] = 4
                self.lost[g[none]] += 1
                self.reward[g[~none], col[~none]] = pick[~none] + 1
                self.p_cau[g[pick == 0]] += 1
                self.p_pyr[g[pick == 1]] += 1
            g = idx[cat == 3]
            if g.size:
                self.p_row[g] -= 1
                allb = np.broadcast_to(np.arange(36), (len(g), 36))
                cols = []
                for act in t.actions:
                    cols.append(self._available(g, allb).any(1) if act == "star" else
                                (~self.caul[g]).any(1) if act == "cauldron" else ~self._pyr_full(g))
                legal = np.stack(cols, 1)
                def vals():
                    out = []
                    generic = self.h_col[g] == -1
                    for act in t.actions:
                        if act == "star":
                            v = np.where(self._available(g, allb), self._box_value(g, allb), NEG).max(1)
                            out.append(v + BIG * self.h_star[g])
                        elif act == "cauldron":
                            out.append(self._cauldron_value(g) + BIG * (self.h_caul[g] & generic))
                        else:
                            out.append(self._pyramid_value(g) + BIG * (self.h_pyr[g] & generic))
                    return np.stack(out, 1)
                pick = self._pick(g, legal, vals)
                none = pick < 0
                self.lost[g[none]] += 1
                for i, act in enumerate(t.actions):
                    hit = g[pick == i]
                    {"star": self.p_star, "cauldron": self.p_cau, "pyramid": self.p_pyr}[act][hit] += 1
            g = idx[cat == 4]
            if g.size:
                self.p_star[g] -= 1
                allb = np.broadcast_to(np.arange(36), (len(g), 36))
                legal = self._available(g, allb)
                pick = self._pick(g, legal, lambda: self._box_value(g, allb))
                none = pick < 0
                self.lost[g[none]] += 1
                self._collect(g[~none], pick[~none])

    def flat(self) -> np.ndarray:
        t = self.t
        bits = (self.boxes[:, None] >> np.arange(36)) & 1
        one = lambda x: x[:, None]
        parts = [bits, self.scares, self.stash, self.unlocked, self.used, self.done[:, t.n_pow:t.n_sym],
                 self.bcount, self.reward, self.caul, one(self.pyramid), one(self.lost), one(self.stuck),
                 np.full((self.G, 1), self.t.turns)]
        out = np.concatenate([p.astype(np.int64) for p in parts], 1)
        assert out.shape[1] == layout_of(t)["_size"].stop
        return out


def play(doc, dice, u, policy: str, targets) -> "Batch":  # noqa: F821
    t = tables(doc)
    g = Games(t, np.asarray(dice), np.asarray(u), policy, np.asarray(targets))
    g.play()
    return finish(t, g.flat())
