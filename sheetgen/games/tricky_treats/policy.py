"""Tricky Treats' policies and their named weights (both engines read the weights from here).

Greedy: a box is worth CANDY_WEIGHT x the points its candy adds, plus SYMBOL_STEP per unfinished
symbol it belongs to and SYMBOL_DONE more per symbol it completes; a plan loses the cost of its
scare (SCARE_STEP per earlier scare, THIRD_SCARE for a third, SKULL_SCARE if a skull can skip it).
Cover is greedy plus BIG for every option that helps its target element (`helps`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...validate.driver import ladder
from .board import Tables
from .model import BOONUS

if TYPE_CHECKING:
    from .rules import Decision, State

K = 8  # uniforms per turn for the random policy (slots reused modulo K)
BIG = 10_000  # the cover policy's bonus for an action that helps its target
CANDY_WEIGHT = 10  # a point a candy adds
SYMBOL_STEP = 3  # a box toward a power or Boo-nus symbol not yet complete
SYMBOL_DONE = 30  # ... and the box that completes it
SCARE_STEP = 5  # a first or second scare costs SCARE_STEP x (scares + 1)
THIRD_SCARE = 400  # a third scare (the child is lost)
SKULL_SCARE = 40  # a third scare a skull can still skip
PYRAMID_LEVEL = 50  # a pyramid box is worth PYRAMID_LEVEL / boxes left in its level
BAT_COST = 3  # changing a candy with a bat
MOON_SCARE_STEP = 10  # full moon scare: MOON_SCARE_STEP per scare, less the child's empty boxes


# ---- cover targets ------------------------------------------------------------------------------

@dataclass
class Help:
    """What helps a cover game toward its target element."""

    boxes: int = 0  # bit mask of helpful boxes
    candies: int = 0  # bit mask of helpful candy types
    scare: int = -1  # a child to scare
    cauldron: bool = False  # prefer a cauldron when choosing
    pyramid: bool = False
    cauldron_box: int = -1
    column: int = -1  # only this stash column's cauldron/pyramid choice counts (-1: any)

    @property
    def star(self) -> bool:
        return bool(self.boxes or self.candies)


def helps(t: Tables, e: int) -> Help:
    """What helps toward element number e (its structured key, board.Key)."""
    if e < 0:
        return Help()
    k = t.keys[e]
    if k.kind == "box":
        return Help(boxes=1 << (k.a * 6 + k.b - 1))
    if k.kind == "scare":
        return Help(scare=k.a)
    if k.kind == "power":
        syms = [s for s in range(t.n_pow) if t.sym_child[s] == k.a]
        return Help(boxes=int(t.sym_mask[syms[k.b - 1]]))
    if k.kind == "boonus_symbol":
        return Help(boxes=int(t.sym_mask[t.n_pow + k.a]))
    if k.kind == "reward":
        return Help(candies=63, cauldron=k.what == "cauldron", pyramid=k.what == "pyramid",
                    column=k.a if k.what != "star" else -1)
    if k.kind == "stash":
        return Help(candies=1 << k.a)
    if k.kind == "cauldron":
        return Help(cauldron=True, cauldron_box=k.a)
    if k.kind in ("pyramid", "pyramid_bar"):
        return Help(pyramid=True)
    if k.kind in ("boonus_cell", "boonus_row", "boonus_bar"):
        kind = 6 + BOONUS.index(k.what) if k.what else None  # a bar: any Boo-nus symbol
        mask = 0
        for s in range(t.n_pow, t.n_sym):
            if kind is None or t.sym_kind[s] == kind:
                mask |= int(t.sym_mask[s])
        return Help(boxes=mask)
    return Help()


def gain(t: Tables, st: State, k: int) -> int:
    """Points a candy of type k adds to the stash now."""
    n = st.stash[k]
    return 0 if n >= 7 else int(t.points[n + 1] - t.points[n])


def box_value(t: Tables, st: State, b: int, h: Help) -> int:
    v = CANDY_WEIGHT * gain(t, st, int(t.box_candy[b]))
    for s in t.box_syms[b]:
        if not st.done[s]:
            v += SYMBOL_STEP + (SYMBOL_DONE if st.rem[s] == 1 else 0)
    if h.boxes >> b & 1:
        v += BIG
    if h.candies >> int(t.box_candy[b]) & 1:
        v += BIG
    return v


def scare_cost(t: Tables, st: State, c: int, h: Help) -> int:
    if st.scared(c):
        return 0
    if c == h.scare:
        return -BIG
    if st.scares[c] == 2:
        return SKULL_SCARE if st.ready("skull") else THIRD_SCARE
    return SCARE_STEP * (st.scares[c] + 1)


def cauldron_value(t: Tables, st: State, h: Help) -> int:
    return max((CANDY_WEIGHT * gain(t, st, int(t.cauldron[i])) for i in st.cauldron_open()), default=0)


def pyramid_value(t: Tables, st: State) -> int:
    if st.pyramid_full():
        return 0
    level_end = int(t.pyr_cum[np.searchsorted(t.pyr_cum, st.pyramid, side="right")])
    return PYRAMID_LEVEL // (level_end - st.pyramid)


def values(t: Tables, st: State, d: Decision, h: Help) -> list[int]:
    """Greedy values of the options of a decision (cover adds BIG to what helps its target)."""
    kind, opts = d.kind, d.options
    if kind == "plan":
        dice = d.info["dice"]
        return [(box_value(t, st, c * 6 + dice[i] - 1, h) if c is not None else 0)
                - scare_cost(t, st, dice[1 - i] - 1, h) for i, c in opts]
    if kind == "moon":
        dice = d.info["dice"]
        best = [max((box_value(t, st, b, h) for b in st.boxes_for(v)), default=None) for v in dice]
        plan = max(((box_value(t, st, c * 6 + dice[i] - 1, h) - scare_cost(t, st, dice[1 - i] - 1, h))
                    for i in (0, 1) for c in range(6) if st.available(c * 6 + dice[i] - 1)), default=None)
        calm = [scare_cost(t, st, c, h) for c in range(6) if not st.scared(c)]
        if best[0] is None or best[1] is None or plan is None:
            return [1, 0]
        moon = best[0] + best[1] - (min(calm) if calm else 0)
        return [plan, moon]
    if kind == "moon_first":
        dice = d.info["dice"]
        return [box_value(t, st, c * 6 + dice[i] - 1, h) for i, c in opts]
    if kind == "moon_late":  # keep the full moon (scare with the die) or use it now
        best = max((box_value(t, st, b, h) for b in st.boxes_for(d.info["value"])), default=0)
        calm = [scare_cost(t, st, c, h) for c in range(6) if not st.scared(c)]
        return [-scare_cost(t, st, d.info["target"], h), best - (min(calm) if calm else 0)]
    if kind == "moon_collect":
        return [box_value(t, st, c * 6 + d.info["value"] - 1, h) for c in opts]
    if kind == "moon_scare":
        return [BIG if c == h.scare else -(MOON_SCARE_STEP * st.scares[c] + 6 - child_checked(st, c)) for c in opts]
    if kind == "skull":
        target = d.info["target"]
        if target is None:  # full moon: the scare is a choice, a skull only helps if every choice hurts
            calm = [c for c in range(6) if not st.scared(c)]
            bad = all(st.scares[c] == 2 for c in calm) and h.scare not in calm
        else:
            bad = st.scares[target] == 2 and target != h.scare
        return [0, 1 if bad else -1]
    if kind == "any_box":
        return [box_value(t, st, b, h) for b in opts]
    if kind == "bat":
        candy = d.info["candy"]
        keep = gain(t, st, candy) + (BIG if h.candies >> candy & 1 else 0)
        return [keep] + [gain(t, st, k) - BAT_COST + (BIG if h.candies >> k & 1 else 0) for k in opts[1:]]
    if kind == "bone":
        return [0] + [gain(t, st, k) + (BIG if h.candies >> k & 1 else 0) for k in opts[1:]]
    if kind == "cauldron":
        return [CANDY_WEIGHT * gain(t, st, int(t.cauldron[i])) + (BIG if (i == h.cauldron_box or
                h.candies >> int(t.cauldron[i]) & 1) else 0) for i in opts]
    if kind in ("cp", "row"):
        col = d.info.get("column", -1)
        here = h.column in (-1, col) if kind == "cp" else h.column == -1
        out = []
        for o in opts:
            if o == "star":
                out.append(max(box_value(t, st, b, h) for b in st.any_boxes()) + (BIG if h.star else 0))
            elif o == "cauldron":
                out.append(cauldron_value(t, st, h) + (BIG if h.cauldron and here else 0))
            else:
                out.append(pyramid_value(t, st) + (BIG if h.pyramid and here else 0))
        return out
    raise ValueError(kind)


def child_checked(st: State, c: int) -> int:
    return bin(st.boxes >> (c * 6) & 63).count("1")


def policy(name: str, t: Tables, target: int = -1):
    """choose(state, legal, u) -> action, for the driver: the shared ladder (driver.ladder) over
    greedy (the highest value, the first on ties: the canonical order breaks them)."""
    help_of = {}
    seen = [None, None]  # the decision last valued, and its values (lookahead asks per action)

    def greedy(st: State, legal: list, u: float, target: int | None = None):
        e = -1 if target is None else target
        if e not in help_of:
            help_of[e] = helps(t, e)
        return legal[int(np.argmax(values(t, st, st.decision, help_of[e])))]

    def value(st: State, action) -> int:
        d = st.decision
        if seen[0] is not d:
            seen[0], seen[1] = d, values(t, st, d, Help())
        return seen[1][next(i for i, o in enumerate(d.options) if o is action or o == action)]

    return ladder(name, greedy, value, target)
