"""The content and layout schema of a Haunt the Block sheet, read by the composer and the rules."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...model import Candy, IconName, Ident, LayoutFile, PageSetup, Strict, unique_ids

SYMBOLS = ("pumpkin", "cat", "moon")
CAT_POWERS = ("candy_of_choice", "star", "sweetheart")
NO_POWER = "none"  # a cat or moon child whose power is switched off: its space only fills its Boo-nus symbol
MOON_POWERS = ("add_dice", "flip_die", "add", "subtract")
ACT_ORDER = ("flip_die", "add_dice", "add", "subtract")  # the printed order moon powers act on one roll
POWER_ORDERS = ("printed", "any")
CONDITIONS = ("lower_die", "higher_die", "plain_die", "even", "odd", "at_least", "at_most")


class Condition(Strict):
    """What a pumpkin child asks of the move that lands on it."""

    kind: Literal["lower_die", "higher_die", "plain_die", "even", "odd", "at_least", "at_most"]
    value: int | None = Field(None, ge=1, le=20, description="for at_least / at_most: spaces")

    @model_validator(mode="after")
    def _value(self):
        needs = self.kind in ("at_least", "at_most")
        if needs and self.value is None:
            raise ValueError(f"condition '{self.kind}' needs a value (number of spaces)")
        if not needs and self.value is not None:
            raise ValueError(f"condition '{self.kind}' takes no value; remove it")
        return self


class Child(Strict):
    id: Ident
    name: str = Field(min_length=1, max_length=14)
    symbol: Literal["pumpkin", "cat", "moon"]
    icon: IconName | None = Field(None, description="emblem in the space; default the symbol")
    condition: Condition | None = Field(None, description="pumpkins only")
    power: Literal["candy_of_choice", "star", "sweetheart", "add_dice", "flip_die", "add",
                   "subtract", "none"] | None = Field(
        None, description="cats and moons; 'none' switches the power off (the space still checks its "
        "Boo-nus symbol; a moon gets no use circles)")
    amount: int = Field(0, ge=0, le=3, description="for add / subtract: how much")

    @model_validator(mode="after")
    def _fits_symbol(self):
        s = self.symbol
        if s == "pumpkin" and (self.condition is None or self.power is not None):
            raise ValueError(f"pumpkin child '{self.id}' needs a condition and no power")
        if s == "cat" and self.power not in CAT_POWERS + (NO_POWER,):
            raise ValueError(f"cat child '{self.id}' needs a power among {', '.join(CAT_POWERS)}")
        if s == "moon" and self.power not in MOON_POWERS + (NO_POWER,):
            raise ValueError(f"moon child '{self.id}' needs a power among {', '.join(MOON_POWERS)}")
        if s != "pumpkin" and self.condition is not None:
            raise ValueError(f"only pumpkin children have a condition; remove it from '{self.id}'")
        if (self.power in ("add", "subtract")) != (self.amount > 0):
            raise ValueError(f"child '{self.id}': amount (1-3) goes with power add / subtract only")
        return self

    @property
    def emblem(self) -> str:
        return self.icon or self.symbol


def condition_text(c: Condition) -> str:
    return {"lower_die": "Use the lower die", "higher_die": "Use the higher die",
            "plain_die": "A die as rolled: no star, no power",
            "even": "Move an even number of spaces", "odd": "Move an odd number of spaces",
            "at_least": f"Move {c.value} or more spaces",
            "at_most": f"Move {c.value} or fewer spaces"}[c.kind]


def power_text(ch: Child, partner: str = "the other heart") -> str:
    """The words printed under a child: its pumpkin condition or its power."""
    if ch.condition is not None:
        return condition_text(ch.condition)
    return {"candy_of_choice": "At once: 1 candy of your choice",
            "star": "At once: circle a star",
            "sweetheart": f"With {partner} too: a chocolate bar",
            "add_dice": "Add both dice together",
            "flip_die": "Turn a die upside down",
            "add": f"Add {ch.amount} to a die",
            "subtract": f"Take {ch.amount} from a die",
            NO_POWER: "No power"}[ch.power]


class Space(Strict):
    """One space of the block: a candy (maybe a starting space) or a child."""

    candy: Ident | None = None
    start: bool = False
    child: Ident | None = None

    @model_validator(mode="after")
    def _one(self):
        if (self.candy is None) == (self.child is None):
            raise ValueError("a space is either 'candy: <id>' or 'child: <id>'")
        if self.start and self.candy is None:
            raise ValueError("a starting space must be a candy space")
        return self


class HauntContent(Strict):
    candies: list[Candy] = Field(min_length=3, max_length=8)
    points: list[int] = Field(min_length=2, max_length=8, description="stash points per column")
    thresholds: list[int] = Field(min_length=2, max_length=8,
                                  description="candy rows needed in each column for its star; one "
                                  "more than there are candies: the column has no star")
    stars: int = Field(8, ge=2, le=10, description="stars in the Stars section: as many as can be "
                       "earned (the start, one per stash column, one per star-power child)")
    start_stars: int = Field(1, ge=0, le=8, description="stars circled at the start")
    uses: int = Field(2, ge=1, le=3, description="uses of each moon power")
    bar_points: int = Field(5, ge=0, le=20)
    starts: int = Field(6, ge=1, le=8, description="starting spaces the path must have")
    pumpkins: int = Field(4, ge=1, le=6, description="pumpkin children the path must have")
    children: list[Child] = Field(min_length=3, max_length=16)
    path: list[Space] = Field(min_length=1, max_length=80)
    turns: int = Field(31, ge=31, le=31, description="the rules play 31 turns: the start writes 1, "
                       "then one roll per number up to 31")
    power_order: Literal["printed", "any"] = Field(
        "printed", description="rules option (the rulebook lets moon powers be used whenever and combined): "
        "'printed' = on one roll the powers act in the order printed on the sheet (Acrobat, "
        "Cheerleader, Giant, Turtle), then stars; 'any' = the powers act in any order the player "
        "likes (the Acrobat turns a die over before the Cheerleader adds it), then stars")

    @model_validator(mode="after")
    def _playable(self):
        unique_ids(self.candies, "candy")
        unique_ids(self.children, "child")
        ncol, ncandy = len(self.points), len(self.candies)
        if len(self.thresholds) != ncol:
            raise ValueError(f"thresholds has {len(self.thresholds)} entries but points has {ncol}; "
                             "give one star threshold per stash column")
        if any(b <= a for a, b in zip(self.points, self.points[1:])) or self.points[0] < 0:
            raise ValueError("points must grow from column to column")
        for k, t in enumerate(self.thresholds):
            if not 1 <= t <= ncandy + 1:
                raise ValueError(f"thresholds[{k}] = {t}: a star needs 1 to {ncandy} candy rows "
                                 f"({ncandy + 1}: the column has no star)")
        if self.start_stars > self.stars:
            raise ValueError("start_stars cannot exceed stars")
        if self.stars != (earnable := self.earnable_stars):
            raise ValueError(f"stars is {self.stars} but {earnable} can be earned (start_stars, one "
                             "per stash column with a star, one per star-power child); give stars: "
                             f"{earnable}, one circle each")
        candies = {c.id for c in self.candies}
        kids = {c.id: c for c in self.children}
        seen: list[str] = []
        for i, sp in enumerate(self.path):
            if sp.candy is not None and sp.candy not in candies:
                raise ValueError(f"path space {i + 1} names candy '{sp.candy}', which is not in candies")
            if sp.child is not None:
                if sp.child not in kids:
                    raise ValueError(f"path space {i + 1} names child '{sp.child}', not in children")
                if sp.child in seen:
                    raise ValueError(f"child '{sp.child}' is on the path twice; give it one space")
                seen.append(sp.child)
        if missing := [c for c in kids if c not in seen]:
            raise ValueError(f"children {', '.join(missing)} have no space on the path")
        if (n := sum(sp.start for sp in self.path)) != self.starts:
            raise ValueError(f"the path has {n} starting spaces; the rules need {self.starts}")
        if (n := sum(c.symbol == "pumpkin" for c in self.children)) != self.pumpkins:
            raise ValueError(f"there are {n} pumpkin children; the rules need {self.pumpkins}")
        for s in SYMBOLS:
            if not any(c.symbol == s for c in self.children):
                raise ValueError(f"no child carries a {s}; the Boo-nus section needs each symbol")
        powers = [c.power for c in self.children if c.symbol == "moon" and c.power != NO_POWER]
        if len(set(powers)) != len(powers):
            raise ValueError("two moon children share a power; give each moon a different power")
        if (n := sum(c.power == "sweetheart" for c in self.children)) not in (0, 2):
            raise ValueError(f"{n} sweetheart children: the chocolate bar needs exactly two")
        ncandy_spaces = sum(sp.candy is not None for sp in self.path)
        if ncandy_spaces < self.turns:
            raise ValueError(f"the path has {ncandy_spaces} candy spaces; it needs at least {self.turns} so "
                             "that doubles and penalties always find an empty one")
        if len(self.path) <= self.longest_move:
            raise ValueError(f"the path has {len(self.path)} spaces but a move can reach "
                             f"{self.longest_move}; make the path longer")
        return self

    @property
    def earnable_stars(self) -> int:
        """Stars a game can circle: start_stars, one per stash column with a star, one per
        star-power child (Stars must hold exactly this many circles)."""
        return self.start_stars + len(self.star_columns) + sum(c.power == "star" for c in self.children)

    @property
    def star_columns(self) -> list[int]:
        """The stash columns with a star (0-based): those whose threshold the candy rows can meet."""
        return [k for k, t in enumerate(self.thresholds) if t <= len(self.candies)]

    @property
    def longest_move(self) -> int:
        add = max([c.amount for c in self.children if c.power == "add"], default=0)
        return 12 + add + self.stars

    def child(self, cid: str) -> Child:
        return next(c for c in self.children if c.id == cid)

    def of_symbol(self, symbol: str) -> list[Child]:
        return [c for c in self.children if c.symbol == symbol]


class HauntLayout(PageSetup):
    orientation: Literal["portrait", "landscape"] = "landscape"
    across: int = Field(15, ge=6, le=24, description="spaces along the top and bottom edges")
    space: float = Field(14.0, ge=8.0, le=20.0, description="side of a path space, mm")


class HauntSheet(LayoutFile):
    content: HauntContent
    layout: HauntLayout = HauntLayout()

    def counts(self) -> dict[str, int]:
        c = self.content
        return {"turns": c.turns, "starts": c.starts, "start_stars": c.start_stars, "uses": c.uses,
                "pumpkins": c.pumpkins, "bar": c.bar_points}
