"""Tricky Treats' static facts, read from the layout: the sheet as arrays (`Tables`), the element ids
(the only place they are spelled), and the flat end state both engines write and the validator reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from functools import cached_property, lru_cache

import numpy as np

from ...validate.engine import Batch
from .model import BOONUS, IMMEDIATE, POWERS, TrickySheet


# ---- static tables (shared by both engines) ----------------------------------------------------

NEVER = 7  # a stash column has 6 circles (one per candy): a reward kind none needs 7, never earned

@dataclass
class Tables:
    """The sheet's content as arrays. Children are indexed by their number - 1; box b is child
    b // 6, die value b % 6 + 1. Symbols: the power symbols (child order, then left to right),
    then one Boo-nus symbol per child, then a dummy that no box completes."""

    turns: int
    child_ids: list[str]
    candy_ids: list[str]
    box_candy: np.ndarray  # [36] candy index
    n_pow: int  # power symbols
    sym_child: np.ndarray  # [S]
    sym_kind: np.ndarray  # [S] power index (POWERS) for powers, 6 + Boo-nus index for Boo-nus symbols
    sym_mask: np.ndarray  # [S] int64 bit mask of linked boxes
    sym_size: np.ndarray  # [S + 1] number of linked boxes (dummy: huge)
    box_syms: np.ndarray  # [36, 2] symbols a box belongs to (dummy-padded)
    boonus_len: np.ndarray  # [3] cells in each Boo-nus row
    points: np.ndarray  # [8] points for 0..7 candies
    rew_star: np.ndarray  # [7] bool: star (else cauldron/pyramid)
    needs: np.ndarray  # [7]
    cauldron: np.ndarray  # [NCa] candy index
    pyr_cum: np.ndarray  # [L] boxes checked when each level is full
    actions: list[str]  # Boo-nus row actions
    points_bar: int
    points_scared: int
    bones_any: bool = False  # rules option bones_per_doubles: "any" (several bones on one doubles roll)
    elements: list[str] = field(default_factory=list)  # element ids, in the validator's order
    keys: list = field(default_factory=list)  # the same elements as `Key`s

    @cached_property
    def spec(self) -> tuple:
        """The end-state reader's arrays (`reach_spec`), built once per sheet."""
        return reach_spec(self)

    @property
    def n_sym(self) -> int:
        return len(self.sym_child)


def tables(doc: TrickySheet) -> Tables:
    c = doc.content
    kids = sorted(c.children, key=lambda ch: ch.number)
    candy_ids = [k.id for k in c.candies]
    box_candy = np.array([candy_ids.index(kid.boxes[v]) for kid in kids for v in range(6)], np.int64)
    s_child, s_kind, s_mask = [], [], []
    for i, kid in enumerate(kids):
        for link in kid.powers:
            s_child.append(i)
            s_kind.append(POWERS.index(kid.power))
            s_mask.append(sum(1 << (i * 6 + v - 1) for v in link.boxes))
    n_pow = len(s_child)
    for i, kid in enumerate(kids):
        s_child.append(i)
        s_kind.append(6 + BOONUS.index(kid.boonus.symbol))
        s_mask.append(sum(1 << (i * 6 + v - 1) for v in kid.boonus.boxes))
    n_sym = len(s_child)
    sym_size = np.array([bin(m).count("1") for m in s_mask] + [1 << 30], np.int64)
    box_syms = np.full((36, 2), n_sym, np.int64)
    for b in range(36):
        found = [s for s in range(n_sym) if s_mask[s] >> b & 1]
        box_syms[b, :len(found)] = found
    t = Tables(
        turns=c.turns, child_ids=[k.id for k in kids], candy_ids=candy_ids, box_candy=box_candy,
        n_pow=n_pow, sym_child=np.array(s_child, np.int64), sym_kind=np.array(s_kind, np.int64),
        sym_mask=np.array(s_mask, np.int64), sym_size=sym_size, box_syms=box_syms,
        boonus_len=np.array([n for _, n in c.boonus_rows()], np.int64),
        points=np.array([0] + c.stash.points, np.int64),
        rew_star=np.array([r.kind == "star" for r in c.stash.rewards]),
        needs=np.array([NEVER if r.kind == "none" else r.needs for r in c.stash.rewards], np.int64),
        cauldron=np.array([candy_ids.index(k) for k in c.cauldron], np.int64),
        pyr_cum=np.cumsum(c.pyramid).astype(np.int64), actions=list(c.boonus_actions),
        points_bar=c.points_bar, points_scared=c.points_scared, bones_any=c.bones_per_doubles == "any")
    pairs = _elements(doc, t)
    t.keys, t.elements = [k for k, _ in pairs], [e for _, e in pairs]
    return t


# ---- element ids: the only place they are spelled ------------------------------------------------
# compose draws them, the validator and heatmap read `Tables.elements`; the cover policy reads the
# structured `Tables.keys` (nothing parses an id back).

# --fillable (kinds.Kind): the ids in the order a game reaches them, and the boxes written in
PLAY_ORDER = (r"child\.[^.]+\.box\.", r"stash\.", r"child\.[^.]+\.scare\.", r"cauldron\.", r"pyramid\.",
              r"boonus\.", r"track\.", r"score\.")
WRITTEN = r"score\."


def id_child(kid: str) -> str:
    return f"child.{kid}"


def id_box(kid: str, v: int) -> str:
    return f"{id_child(kid)}.box.{v}"


def id_scare(kid: str, j: int) -> str:
    return f"{id_child(kid)}.scare.{j}"


def id_power(kid: str, j: int) -> str:
    return f"{id_child(kid)}.power.{j}"


def id_boonus_symbol(kid: str) -> str:
    return f"{id_child(kid)}.boonus"


def id_stash(candy: str, n: int) -> str:
    return f"stash.{candy}.{n}"


def id_reward(i: int, what: str) -> str:
    """Column i's reward: what is "star", "cauldron" or "pyramid"."""
    return f"stash.reward.{i}.{what}"


def id_cauldron(i: int) -> str:
    return f"cauldron.{i}"


def id_pyramid(n: int) -> str:
    return f"pyramid.{n}"


def id_pyramid_bar(level: int) -> str:
    return f"pyramid.bar.{level}"


def id_boonus_cell(symbol: str, j: int) -> str:
    return f"boonus.{symbol}.{j}"


def id_boonus_row(symbol: str) -> str:
    return f"boonus.row.{symbol}"


def id_boonus_bar(j: int) -> str:
    return f"boonus.bar.{j}"


def id_turn(n: int) -> str:
    return f"track.turn.{n}"


class Key(NamedTuple):
    """An element, structured: its kind and numbers (0-based child, candy, column or box index;
    1-based counts), and `what` (a reward's kind, a Boo-nus symbol)."""

    kind: str
    a: int = 0
    b: int = 0
    what: str = ""


def _elements(doc: TrickySheet, t: Tables) -> list[tuple[Key, str]]:
    c = doc.content
    kids = sorted(c.children, key=lambda ch: ch.number)
    out = [(Key("box", i, v), id_box(k.id, v)) for i, k in enumerate(kids) for v in range(1, 7)]
    out += [(Key("scare", i, j), id_scare(k.id, j)) for i, k in enumerate(kids) for j in (1, 2, 3)]
    out += [(Key("power", i, j), id_power(k.id, j)) for i, k in enumerate(kids) for j in range(1, len(k.powers) + 1)]
    out += [(Key("boonus_symbol", i), id_boonus_symbol(k.id)) for i, k in enumerate(kids)]
    out += [(Key("stash", i, n), id_stash(cid, n)) for i, cid in enumerate(t.candy_ids) for n in range(1, 8)]
    for i, r in enumerate(c.stash.rewards):
        for what in {"star": ["star"], "none": []}.get(r.kind, ["cauldron", "pyramid"]):
            out.append((Key("reward", i, what=what), id_reward(i + 1, what)))
    out += [(Key("cauldron", i), id_cauldron(i + 1)) for i in range(len(c.cauldron))]
    out += [(Key("pyramid", n), id_pyramid(n)) for n in range(1, int(t.pyr_cum[-1]) + 1)]
    out += [(Key("pyramid_bar", lv), id_pyramid_bar(lv)) for lv in range(1, len(t.pyr_cum) + 1)]
    for s, n in c.boonus_rows():
        out += [(Key("boonus_cell", j, what=s), id_boonus_cell(s, j)) for j in range(1, n + 1)]
    out += [(Key("boonus_row", what=s), id_boonus_row(s)) for s in BOONUS]
    out += [(Key("boonus_bar", j), id_boonus_bar(j)) for j in range(1, int(t.boonus_len.max()) + 1)]
    out += [(Key("turn", n), id_turn(n)) for n in range(1, c.turns + 1)]
    return out


def element_ids(doc: TrickySheet) -> list[str]:
    return tables(doc).elements


# ---- the flat end state, and what is read from it (same code for both engines) ------------------
# boxes 36 | scares 6 | stash 6 | unlocked n_pow | used 6 (per power) | boonus done 6 |
# boonus count 3 | reward state 7 (0 not earned, 1 star / cauldron chosen, 2 pyramid chosen,
# 3 waiting for the choice, 4 lost) | cauldron NCa | pyramid 1 | lost 1 | missed 1 | turn 1

def layout_of(t: Tables) -> dict[str, slice]:
    sizes = [("boxes", 36), ("scares", 6), ("stash", 6), ("unlocked", t.n_pow), ("used", 6),
             ("boonus", 6), ("bcount", 3), ("reward", 7), ("cauldron", len(t.cauldron)),
             ("pyramid", 1), ("lost", 1), ("missed", 1), ("turn", 1)]
    out, at = {}, 0
    for name, n in sizes:
        out[name] = slice(at, at + n)
        at += n
    out["_size"] = slice(0, at)
    return out


def scores(t: Tables, state: np.ndarray) -> np.ndarray:
    """Final scores [G] of end states [G, S]."""
    return finish(t, state).score


def tiebreak(t: Tables, state: np.ndarray) -> np.ndarray:
    """Ties go to the stash that reaches furthest toward column 7."""
    return state[:, layout_of(t)["stash"]].max(1)


def reach_spec(t: Tables) -> tuple:
    """What the end state says, as arrays for `_finish_rows`, built from the elements' keys (so
    it follows their order): per element the state column it reads and the least value that
    marks it (`>=`); the few read otherwise (`eq`: a stash column's reward choice, an exact value;
    `bar`: a Boo-nus column, every row long enough holding more than `thr` cells); per element its
    points when marked (a stash circle its column's step, a bar, a scared child); the columns
    whose sum is the unused powers (`plus` less `minus`); the missed-collect and turn columns."""
    L = layout_of(t)
    at = lambda k, i=0: L[k].start + i
    rows = {s: i for i, s in enumerate(BOONUS)}
    kid_syms = [[s for s in range(t.n_pow) if t.sym_child[s] == c] for c in range(6)]
    cols, thr, weight, eq, bar = [], [], [], [], []
    for e, k in enumerate(t.keys):
        w = 0
        if k.kind == "box":
            col, v = at("boxes", k.a * 6 + k.b - 1), 1
        elif k.kind == "scare":
            col, v, w = at("scares", k.a), k.b, -t.points_scared if k.b == 3 else 0
        elif k.kind == "power":
            col, v = at("unlocked", kid_syms[k.a][k.b - 1]), 1
        elif k.kind == "boonus_symbol":
            col, v = at("boonus", k.a), 1
        elif k.kind == "stash":
            col, v, w = at("stash", k.a), k.b, int(t.points[k.b] - t.points[k.b - 1])
        elif k.kind == "reward":
            col, v = at("reward", k.a), 2 if k.what == "pyramid" else 1
            eq.append(e)
        elif k.kind == "cauldron":
            col, v = at("cauldron", k.a), 1
        elif k.kind == "pyramid":
            col, v = at("pyramid"), k.a
        elif k.kind == "pyramid_bar":
            col, v, w = at("pyramid"), int(t.pyr_cum[k.a - 1]), t.points_bar
        elif k.kind == "boonus_cell":
            col, v = at("bcount", rows[k.what]), k.a
        elif k.kind == "boonus_row":
            col, v = at("bcount", rows[k.what]), int(t.boonus_len[rows[k.what]])
        elif k.kind == "boonus_bar":
            col, v, w = at("bcount"), k.a - 1, t.points_bar
            bar.append(e)
        else:  # turn
            col, v = at("turn"), k.a
        cols.append(col)
        thr.append(v)
        weight.append(w)
    optional = [p not in IMMEDIATE for p in POWERS]
    plus = [at("unlocked", i) for i in range(t.n_pow) if optional[t.sym_kind[i]]] + [at("lost")]
    minus = [at("used", p) for p in range(6) if optional[p]]
    scored = [e for e, w in enumerate(weight) if w]
    arr = lambda x: np.array(x, np.int64)
    return (arr(cols), arr(thr), arr(eq), arr(bar), arr(scored), arr([weight[e] for e in scored]),
            arr(t.boonus_len), arr(plus), arr(minus), arr([at("missed"), at("turn")]))


def _finish_rows(spec, state, reached, res):
    """End states [G, S]: the elements each marked into reached [G, E]; score, unused powers,
    missed collects and turns into res [G, 4]."""
    cols, thr, eq, bar, scored, weight, blen, plus, minus, misc = spec
    u = np.uint64  # the hot loops index unsigned: no negative-index checks (a quarter faster)
    for g in range(state.shape[0]):
        row, got = state[g], reached[g]
        for e in range(len(cols)):
            got[u(e)] = row[u(cols[e])] >= thr[e]
        for e in eq:
            got[e] = row[cols[e]] == thr[e]
        for e in bar:
            full = True
            for r in range(len(blen)):
                full &= blen[r] <= thr[e] or row[cols[e] + r] > thr[e]
            got[e] = full
        score = 0
        for i in range(len(scored)):
            score += weight[i] * got[u(scored[i])]
        unused = 0
        for c in plus:
            unused += row[c]
        for c in minus:
            unused -= row[c]
        res[g, 0], res[g, 1], res[g, 2], res[g, 3] = score, unused, row[misc[0]], row[misc[1]]


@lru_cache(maxsize=1)
def _compiled_reader():
    """_finish_rows compiled (and cached on disk) at its first use: importing the board (to draw
    a sheet) does not import numba."""
    import numba

    return numba.njit(cache=True, nogil=True)(_finish_rows)


def reached(t: Tables, state: np.ndarray) -> np.ndarray:
    """Every mark on the sheet is permanent, so what a game reached is read from its end state."""
    return finish(t, state).reached


def finish(t: Tables, state: np.ndarray) -> Batch:
    reached = np.empty((len(state), len(t.elements)), np.bool_)
    res = np.empty((len(state), 4), np.int64)
    _compiled_reader()(t.spec, state, reached, res)
    return Batch(score=res[:, 0], reached=reached, penalties=res[:, 2],  # missed collects
                 unused_powers=res[:, 1],
                 stuck=np.zeros(len(state), np.int64),  # every roll leaves a legal move
                 turns=res[:, 3], state=state)
