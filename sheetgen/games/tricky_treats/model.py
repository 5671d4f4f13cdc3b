"""Content and layout schema of a Tricky Treats sheet.

The validators refuse content the rules cannot use: a child without six boxes, a power linked to
a box that does not exist, a candy no box gives, a stash reward that names an unknown kind."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, model_validator

from ...model import Candy, Ident, LayoutFile, PageSetup, Strict, unique_ids

Power = Literal["bone", "cauldron", "bat", "pyramid", "full_moon", "skull"]
Boonus = Literal["pumpkin", "cat", "moon"]
Action = Literal["star", "cauldron", "pyramid"]  # what a full Boo-nus row may offer
POWERS, BOONUS, ACTIONS = get_args(Power), get_args(Boonus), get_args(Action)
IMMEDIATE = ("cauldron", "pyramid")  # powers the rules make you use the moment they unlock
MAX_POWERS, MAX_CAULDRON, MAX_LEVELS = 3, 12, 5  # power symbols per child; CAULDRON boxes; PYRAMID levels


class Link(Strict):
    """A symbol and the die values of the boxes that unlock it (all of them must be checked)."""

    boxes: list[int] = Field(min_length=1, max_length=6)

    @model_validator(mode="after")
    def _values(self):
        if any(v < 1 or v > 6 for v in self.boxes):
            raise ValueError(f"linked boxes {self.boxes} must be die values 1 to 6")
        if len(set(self.boxes)) != len(self.boxes):
            raise ValueError(f"linked boxes {self.boxes} name a box twice")
        return self


class BoonusLink(Link):
    symbol: Boonus


class Child(Strict):
    id: Ident
    name: str = Field(min_length=1)
    number: int = Field(ge=1, le=6, description="the value of the scare die that scares this child")
    power: Power
    boxes: list[Ident] = Field(min_length=6, max_length=6,
                               description="candy id of the boxes for die values 1 to 6")
    powers: list[Link] = Field(max_length=MAX_POWERS, description="2 or 3 power symbols; none ([]) "
                               "switches the child's power off (nothing to unlock, no power text printed)")
    boonus: BoonusLink

    @model_validator(mode="after")
    def _disjoint(self):
        if len(self.powers) == 1:
            raise ValueError(f"child '{self.id}' has 1 power symbol; give it 2 or 3, or none ([]) to switch it off")
        seen = [v for link in self.powers for v in link.boxes]
        if len(seen) != len(set(seen)):
            raise ValueError(f"child '{self.id}': a box may unlock only one power symbol ({seen})")
        return self


class Reward(Strict):
    """The reward under a stash column: a star, a cauldron/pyramid choice, or none (the column
    gives no reward: the mechanic switched off)."""

    kind: Literal["star", "cauldron_pyramid", "none"]
    needs: int | None = Field(None, ge=1, le=6, description="checked circles in the column that earn "
                              "it; required unless kind is none (then leave it out)")

    @model_validator(mode="after")
    def _needs(self):
        if (self.kind == "none") != (self.needs is None):
            raise ValueError(f"a '{self.kind}' reward {'takes no' if self.kind == 'none' else 'needs a'} "
                             "'needs' (checked circles, 1 to 6)")
        return self


class Stash(Strict):
    points: list[int] = Field(min_length=7, max_length=7, description="points per column")
    rewards: list[Reward] = Field(min_length=7, max_length=7)

    @model_validator(mode="after")
    def _rising(self):
        if any(b <= a for a, b in zip(self.points, self.points[1:])) or self.points[0] < 1:
            raise ValueError(f"stash points {self.points} must be positive and rise column by column")
        return self


class PowerText(Strict):
    name: str
    text: str = Field(min_length=1, description="the power, in a few words, printed under the child")


class TrickyContent(Strict):
    turns: int = Field(16, ge=16, le=16, description="the rules play 16 turns")
    candies: list[Candy] = Field(min_length=6, max_length=6)
    children: list[Child] = Field(min_length=6, max_length=6)
    power_texts: dict[Power, PowerText]
    stash: Stash
    cauldron: list[Ident] = Field(min_length=1, max_length=MAX_CAULDRON, description="candy of each CAULDRON box")
    pyramid: list[int] = Field(min_length=1, max_length=MAX_LEVELS,
                               description="boxes per PYRAMID level, bottom level first")
    boonus_actions: list[Action] = Field(
        list(ACTIONS), min_length=1, max_length=len(ACTIONS),
        description="actions a full Boo-nus row offers, each once")
    points_bar: int = Field(5, ge=0, description="points per chocolate bar")
    points_scared: int = Field(5, ge=0, description="points lost per scared child")
    bones_per_doubles: Literal["one", "any"] = Field(
        "one", description="rules option: how many unlocked bones a player may cross out on one doubles "
        "roll; the rulebook speaks of a single bone ('one'); 'any' lets the player spend as many as "
        "they hold, one candy of choice each, and choose how many")

    @model_validator(mode="after")
    def _links(self):
        unique_ids(self.candies, "candy")
        unique_ids(self.children, "child")
        known = {c.id for c in self.candies}
        numbers = sorted(ch.number for ch in self.children)
        if numbers != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"children numbers {numbers} must be 1 to 6, once each (one per die value)")
        powers = [ch.power for ch in self.children]
        if sorted(powers) != sorted(POWERS):
            raise ValueError(f"children powers {powers} must be {', '.join(POWERS)}, once each")
        for ch in self.children:
            for v, candy in enumerate(ch.boxes, 1):
                if candy not in known:
                    raise ValueError(f"child '{ch.id}' box {v} names candy '{candy}', which is not in candies")
        for candy in known:
            n = sum(ch.boxes.count(candy) for ch in self.children)
            if n < 3:
                raise ValueError(f"candy '{candy}' is in {n} boxes; give it at least 3 so its stash row can fill")
        for i, candy in enumerate(self.cauldron):
            if candy not in known:
                raise ValueError(f"cauldron box {i + 1} names candy '{candy}', which is not in candies")
        if len(set(self.boonus_actions)) != len(self.boonus_actions):
            raise ValueError(f"boonus_actions {self.boonus_actions} name an action twice; list each once")
        missing = [p for p in POWERS if p not in self.power_texts]
        if missing:
            raise ValueError(f"power_texts lacks {', '.join(missing)}")
        symbols = {ch.boonus.symbol for ch in self.children}
        if symbols != set(BOONUS):
            raise ValueError(f"Boo-nus symbols {sorted(symbols)} must use each of pumpkin, cat and moon")
        return self

    def candy(self, cid: str) -> Candy:
        return next(c for c in self.candies if c.id == cid)

    def boonus_rows(self) -> list[tuple[str, int]]:
        """(symbol, cells) of each Boo-nus row: one cell per child carrying that symbol."""
        return [(s, sum(ch.boonus.symbol == s for ch in self.children)) for s in BOONUS]


class TrickyLayout(PageSetup):
    orientation: Literal["portrait", "landscape"] = "landscape"
    box: float = Field(8.0, ge=6.0, le=12.0, description="candy box width, mm")
    rules_summary: bool = Field(True, description="print the short how-to-play text")


class TrickySheet(LayoutFile):
    content: TrickyContent
    layout: TrickyLayout = TrickyLayout()

    def counts(self) -> dict[str, int]:
        c = self.content
        return {"turns": c.turns, "bar": c.points_bar, "scared": c.points_scared}
