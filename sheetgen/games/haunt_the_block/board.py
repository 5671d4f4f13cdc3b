"""What both rules engines read from a Haunt the Block layout: the block, the children, the
element ids, and the ways one roll can be turned into a move (plans)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from .model import MOON_POWERS, SYMBOLS, HauntSheet

FREE = -2  # plan code of a doubles write into a candy space: no die, no power, no star

# A roll becomes a move in a fixed order (printed on the sheet): the Acrobat turns a die over,
# the Cheerleader adds the dice, the Giant adds / the Turtle takes away, then stars +1 / -1.
# A core says which dice make the value and which of the first two powers act.
#          name          dice    flip  sum
CORES = (("die 1",       (0,),   None, False),
         ("die 2",       (1,),   None, False),
         ("die 1 over",  (0,),   0,    False),
         ("die 2 over",  (1,),   1,    False),
         ("both",        (0, 1), None, True),
         ("both, 1 over", (0, 1), 0,   True),
         ("both, 2 over", (0, 1), 1,   True))
MODS = (None, "add", "subtract")
COMBOS = tuple((c, m) for c in range(len(CORES)) for m in range(len(MODS)))


def core_value(core: int, a: int, b: int) -> int:
    _, dice, flip, both = CORES[core]
    d = [a, b]
    if flip is not None:
        d[flip] = 7 - d[flip]
    return d[0] + d[1] if both else d[dice[0]]


@lru_cache(maxsize=None)
def combo_powers(combo: int) -> tuple[str, ...]:
    """Moon powers a combo uses, in MOON_POWERS order."""
    core, mod = COMBOS[combo]
    _, _, flip, both = CORES[core]
    used = {"flip_die": flip is not None, "add_dice": both, "add": MODS[mod] == "add",
            "subtract": MODS[mod] == "subtract"}
    return tuple(p for p in MOON_POWERS if used[p])


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
        return {k.power: i for i, k in enumerate(self.c.children) if k.symbol == "moon"}

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
    def max_move(self) -> int:
        return self.c.longest_move

    # ---- element ids, as drawn by compose.py --------------------------------------------------
    @cached_property
    def element_ids(self) -> list[str]:
        c = self.c
        ids = [f"path.{i + 1}" for i in range(self.n)]
        ids += [f"path.{i + 1}.start" for i in self.starts]
        ids += [f"stash.{k}.{col + 1}" for k in self.candy_ids for col in range(len(c.points))]
        ids += [f"stash.star.{col + 1}" for col in range(len(c.points))]
        ids += [f"stars.{k + 1}" for k in range(c.stars)]
        ids += [f"boonus.{s}.{k + 1}" for s, n in zip(SYMBOLS, self.sym_count) for k in range(n)]
        ids += [f"boonus.bar.{k + 1}" for k in range(self.columns)]
        if self.sweethearts:
            ids.append("bar.romeo_juliet")
        ids += ["bar.stars", "bar.pumpkins"]
        ids += [f"power.{k.id}.{u + 1}" for k in c.children if k.symbol == "moon" for u in range(c.uses)]
        ids += [f"penalty.{k}" for k in self.candy_ids]
        return ids

    @cached_property
    def eid(self) -> dict[str, int]:
        return {e: i for i, e in enumerate(self.element_ids)}


def bar_ids(b: Board) -> list[str]:
    return [f"boonus.bar.{k + 1}" for k in range(b.columns)] + \
        ["bar.romeo_juliet", "bar.stars", "bar.pumpkins"]


def meets(cond, combo: int | None, d: int, a: int, b: int, stars: int) -> bool:
    """Whether a move of d spaces made by `combo` with `stars` stars meets a pumpkin's condition.
    Reading: "the lower die" / "the higher die" means the move starts from that die as rolled;
    powers and stars may still change it (the rulebook's Bee example adds the other die with the
    Cheerleader). With doubles either die is both the lower and the higher one."""
    if cond is None:
        return True
    k = cond.kind
    if k in ("lower_die", "higher_die"):
        if combo is None:
            return False
        dice = CORES[COMBOS[combo][0]][1]
        want = (0 if a <= b else 1) if k == "lower_die" else (0 if a >= b else 1)
        other = 1 - want
        return want in dice or (a == b and other in dice)
    if k == "plain_die":
        return combo is not None and COMBOS[combo] in ((0, 0), (1, 0)) and stars == 0
    if k == "even":
        return d % 2 == 0
    if k == "odd":
        return d % 2 == 1
    if k == "at_least":
        return d >= cond.value
    return d <= cond.value

