"""What both rules engines read from a Haunt the Block layout: the block, the children, the
element ids, and the ways one roll can be turned into a move (routes, payments)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, permutations
from typing import NamedTuple

import numpy as np

from .model import ACT_ORDER, MOON_POWERS, SYMBOLS, HauntSheet

# ---- element ids: the only place they are spelled (compose draws them, both engines mark them,
# the heatmap reads them); every index is 0-based, the ids count from 1 as the sheet does
# --fillable (kinds.Kind): the ids in the order a game reaches them, and the boxes written in
PLAY_ORDER = (r"path\.", r"stash\.", r"stars\.", r"bar\.stars", r"power\.", r"boonus\.", r"bar\.",
              r"penalty\.", r"score\.")
WRITTEN = r"score\.|path\.\d+$"


def path_id(space: int) -> str:
    return f"path.{space + 1}"


def start_id(space: int) -> str:
    return f"start.{space + 1}"  # its own section ("start"), not a part of the path's


def stash_id(candy: str, col: int) -> str:
    return f"stash.{candy}.{col + 1}"


def column_star_id(col: int) -> str:
    return f"stash.star.{col + 1}"


def star_id(k: int) -> str:
    return f"stars.{k + 1}"


def boonus_id(symbol: str, k: int) -> str:
    return f"boonus.{symbol}.{k + 1}"


def boonus_bar_id(k: int) -> str:
    return f"boonus.bar.{k + 1}"


SWEET_BAR, STARS_BAR, PUMPKINS_BAR = "bar.romeo_juliet", "bar.stars", "bar.pumpkins"


def power_id(child: str, use: int) -> str:
    return f"power.{child}.{use + 1}"


def penalty_id(candy: str) -> str:
    return f"penalty.{candy}"


# the sheet's other parts with an id (printed, never marked by a rule)
def space_child_id(space: int) -> str:
    return f"{path_id(space)}.child"


def child_caption_id(child: str) -> str:
    return f"child.{child}.caption"


def child_text_id(child: str) -> str:
    return f"child.{child}.text"


def column_points_id(col: int) -> str:
    return f"stash.points.{col + 1}"


def column_need_id(col: int) -> str:
    return f"stash.need.{col + 1}"


def stash_icon_id(candy: str) -> str:
    return f"stash.{candy}.icon"


def star_icon_id(k: int) -> str:
    return f"{star_id(k)}.icon"


def title_id(section: str) -> str:
    return f"{section}.title"


def score_id(part: str) -> str:
    """A final-score box: a candy's id, 'bars' or 'total'."""
    return f"score.{part}"


class Pay(NamedTuple):
    """A move: `d` spaces clockwise, paid with these moon powers (MOON_POWERS order) and `stars`
    stars. Two ways of paying that use the same powers and stars to reach the same space leave
    the very same sheet, so they are one action (the order the powers acted in is not written)."""

    d: int
    powers: tuple[str, ...] = ()
    stars: int = 0

    def key(self) -> tuple:
        """The canonical order of moves: by distance, then fewer stars, then the powers' bits."""
        return self.d, self.stars, power_mask(self.powers)


def power_mask(powers) -> int:
    return sum(1 << MOON_POWERS.index(p) for p in powers)


def mask_powers(mask: int) -> tuple[str, ...]:
    return tuple(p for i, p in enumerate(MOON_POWERS) if mask >> i & 1)


def routes(a: int, b: int, amounts: dict[str, int], order: str) -> set[tuple[int, int, bool, bool]]:
    """Every value the roll (a, b) can become with the sheet's moon powers (`amounts`: power ->
    amount, 0 for those without one), before stars: (value, powers mask, starts from the lower
    die, starts from the higher die). Readings: the move starts from one die; a power acts on
    the move's value, except that the Acrobat may turn over the die the Cheerleader is about to
    add; the Acrobat needs a die, so it cannot act after the Cheerleader; each power acts at
    most once per roll; every value stops at 1. Order 'printed' applies the powers in ACT_ORDER,
    'any' in every order (`HauntContent.power_order`). With the Cheerleader both dice are used,
    so the move counts as starting from the lower and from the higher die."""
    have = [p for p in ACT_ORDER if p in amounts]
    dice, out = (a, b), set()
    for i in (0, 1):
        lower, higher = dice[i] == min(a, b), dice[i] == max(a, b)
        for r in range(len(have) + 1):
            for subset in combinations(have, r):
                mask, both = power_mask(subset), "add_dice" in subset
                for seq in permutations(subset) if order == "any" else (subset,):
                    if both and "flip_die" in seq and seq.index("flip_die") > seq.index("add_dice"):
                        continue
                    for other in ((False, True) if both and "flip_die" in seq else (False,)):
                        v, o = dice[i], dice[1 - i]
                        for p in seq:
                            if p == "flip_die" and other:
                                o = 7 - o
                            elif p == "flip_die":
                                v = max(1, 7 - v)
                            elif p == "add_dice":
                                v += o
                            elif p == "add":
                                v += amounts[p]
                            else:
                                v = max(1, v - amounts[p])
                        out.add((v, mask, lower or both, higher or both))
    return out


def meets(cond, d: int, mask: int, stars: int, lower: bool, higher: bool) -> bool:
    """Whether a move of d spaces paid with `mask` powers and `stars` stars, from a route that
    starts from the lower / higher die, meets a pumpkin's condition. Reading: "the lower die" /
    "the higher die" is the die the move starts from; powers and stars may still change it (the
    rulebook's Bee example adds the other die with the Cheerleader). With doubles either die is
    both the lower and the higher one."""
    if cond is None:
        return True
    k = cond.kind
    if k == "lower_die":
        return lower
    if k == "higher_die":
        return higher
    if k == "plain_die":
        return mask == 0 and stars == 0
    if k == "even":
        return d % 2 == 0
    if k == "odd":
        return d % 2 == 1
    if k == "at_least":
        return d >= cond.value
    return d <= cond.value


@dataclass(frozen=True)
class Board:
    doc: HauntSheet

    @cached_property
    def c(self):
        return self.doc.content

    @property
    def n(self) -> int:
        return len(self.c.path)

    @cached_property
    def candy_ids(self) -> list[str]:
        return [k.id for k in self.c.candies]

    @cached_property
    def space_candy(self) -> np.ndarray:
        """Candy index of each space, -1 for a child."""
        idx = {k: i for i, k in enumerate(self.candy_ids)}
        return np.array([idx[s.candy] if s.candy else -1 for s in self.c.path], np.int64)

    @cached_property
    def space_child(self) -> np.ndarray:
        idx = {k.id: i for i, k in enumerate(self.c.children)}
        return np.array([idx[s.child] if s.child else -1 for s in self.c.path], np.int64)

    @cached_property
    def starts(self) -> list[int]:
        return [i for i, s in enumerate(self.c.path) if s.start]

    @cached_property
    def child_symbol(self) -> list[int]:
        return [SYMBOLS.index(k.symbol) for k in self.c.children]

    @cached_property
    def sym_count(self) -> list[int]:
        return [len(self.c.of_symbol(s)) for s in SYMBOLS]

    @property
    def columns(self) -> int:
        """Boo-nus columns (each earns a chocolate bar)."""
        return max(self.sym_count)

    @cached_property
    def moon_child(self) -> dict[str, int]:
        """Moon power -> index of the child carrying it."""
        return {k.power: i for i, k in enumerate(self.c.children) if k.power in MOON_POWERS}

    def amount(self, power: str) -> int:
        i = self.moon_child.get(power)
        return self.c.children[i].amount if i is not None else 0

    @cached_property
    def pumpkin_conditions(self) -> list:
        """Condition of each pumpkin child, in children order; q = index + 1 (0: no condition)."""
        return [k.condition for k in self.c.children if k.symbol == "pumpkin"]

    @cached_property
    def space_q(self) -> np.ndarray:
        pumpkins = [k.id for k in self.c.children if k.symbol == "pumpkin"]
        return np.array([pumpkins.index(s.child) + 1 if s.child in pumpkins else 0
                         for s in self.c.path], np.int64)

    @cached_property
    def sweethearts(self) -> list[int]:
        return [i for i, k in enumerate(self.c.children) if k.power == "sweetheart"]

    @property
    def turns(self) -> int:
        """Turns in a game (the layout's `turns`): the start, then one roll per number."""
        return self.c.turns

    @property
    def max_move(self) -> int:
        return self.c.longest_move

    @cached_property
    def amounts(self) -> dict[str, int]:
        """The sheet's moon powers and their amounts (0 for a power without one)."""
        return {k.power: k.amount for k in self.c.children if k.power in MOON_POWERS}

    @cached_property
    def routes(self) -> dict[tuple[int, int], list]:
        """(a, b) -> the sorted routes of that roll (`routes`)."""
        return {(a, b): sorted(routes(a, b, self.amounts, self.c.power_order))
                for a in range(1, 7) for b in range(1, 7)}

    @cached_property
    def _payments(self) -> dict:
        return {}

    def payments(self, a: int, b: int, avail: int, have: int) -> dict:
        """(d, pumpkin index + 1 or 0) -> the sorted (stars, powers mask) that move exactly d
        spaces with this roll, powers `avail` (a mask) and `have` stars at hand, meeting that
        pumpkin's condition. Stars act last, each +1 or -1, never below 1; stars spent on one
        roll all go the same way (a +1 and a -1 would only waste two)."""
        key = (a, b, avail, have)
        if key not in self._payments:
            conds = [None] + self.pumpkin_conditions
            out: dict = {}
            for v, mask, lower, higher in self.routes[(a, b)]:
                if mask & ~avail:
                    continue
                for s in range(have + 1):
                    for d in {v + s, v - s}:
                        if d < 1:
                            continue
                        for q, cond in enumerate(conds):
                            if meets(cond, d, mask, s, lower, higher):
                                out.setdefault((d, q), set()).add((s, mask))
            self._payments[key] = {k: sorted(v) for k, v in out.items()}
        return self._payments[key]

    # ---- element ids, as drawn by compose.py --------------------------------------------------
    @cached_property
    def element_ids(self) -> list[str]:
        c = self.c
        ids = [path_id(i) for i in range(self.n)]
        ids += [start_id(i) for i in self.starts]
        ids += [stash_id(k, col) for k in self.candy_ids for col in range(len(c.points))]
        ids += [column_star_id(col) for col in c.star_columns]
        ids += [star_id(k) for k in range(c.stars)]
        ids += [boonus_id(s, k) for s, n in zip(SYMBOLS, self.sym_count) for k in range(n)]
        ids += [boonus_bar_id(k) for k in range(self.columns)]
        if self.sweethearts:
            ids.append(SWEET_BAR)
        ids += [STARS_BAR, PUMPKINS_BAR]
        ids += [power_id(k.id, u) for k in c.children if k.power in MOON_POWERS for u in range(c.uses)]
        ids += [penalty_id(k) for k in self.candy_ids]
        return ids

    @cached_property
    def eid(self) -> dict[str, int]:
        return {e: i for i, e in enumerate(self.element_ids)}


def bar_ids(b: Board) -> list[str]:
    return [boonus_bar_id(k) for k in range(b.columns)] + [SWEET_BAR, STARS_BAR, PUMPKINS_BAR]
