"""Content and layout schema of Boogaloo layouts: several sheets that share one set of rules."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import Field, model_validator

from ...model import Candy, Colour, HEX, Ident, LayoutFile, PageSetup, Strict, unique_ids

BOXES_PER_CHILD = 3  # "the 3 candies under a child"
Reward = Literal["star", "bar", "none"]  # "none": a slot that gives nothing


class CandyBox(Strict):
    """One box under a child: the die value that checks it and the candy it gives."""

    die: int = Field(ge=1, le=6)
    candy: Ident


class Child(Strict):
    id: Ident
    name: str = Field(min_length=1, max_length=22)
    boxes: list[CandyBox] = Field(min_length=BOXES_PER_CHILD, max_length=BOXES_PER_CHILD)


class Sheet(Strict):
    """One of the sheets: a group of children, laid out row by row in the grid."""

    id: Ident
    name: str = Field(min_length=1, max_length=30)
    children: list[Child]


class Grid(Strict):
    rows: int = Field(3, ge=2, le=4)
    columns: int = Field(4, ge=2, le=5)


class Stash(Strict):
    """Column k of the stash scores points[k-1] for a row whose rightmost check is in it, and its
    star is earned once needs[k-1] candy rows each hold at least k candies."""

    points: list[int] = Field(min_length=1, max_length=8)
    needs: list[int] = Field(min_length=1, max_length=8)

    @model_validator(mode="after")
    def _shape(self):
        if len(self.points) != len(self.needs):
            raise ValueError(f"stash has {len(self.points)} points but {len(self.needs)} needs; "
                             "give one of each per column")
        if any(b <= a for a, b in zip(self.points, self.points[1:])) or self.points[0] < 1:
            raise ValueError("stash points must be positive and grow from column to column")
        if any(n < 1 for n in self.needs):
            raise ValueError("every stash column needs at least 1 candy row for its star")
        return self


class BoogalooContent(Strict):
    turns: int = Field(13, ge=13, le=13, description="the rules play 13 turns")
    candies: list[Candy] = Field(min_length=3, max_length=8)
    stash: Stash
    boonus: list[Reward] = Field(min_length=1, max_length=16,
                                 description="Boo-nus rewards, filled left to right, one per haunted child "
                                             "(none: a slot that gives nothing)")
    bar_points: int = Field(5, ge=0, le=20, description="points per chocolate bar")
    grid: Grid = Grid()
    sheets: list[Sheet] = Field(min_length=1, max_length=8)
    qr: str = Field("pip install sheetgen && sheetgen render boogaloo", min_length=1)

    @model_validator(mode="after")
    def _links(self):
        unique_ids(self.candies, "candy")
        unique_ids(self.sheets, "sheet")
        cols = len(self.stash.points)
        if max(self.stash.needs) > len(self.candies):
            raise ValueError(f"a stash column needs {max(self.stash.needs)} candy rows but there are "
                             f"only {len(self.candies)} candies; lower stash.needs")
        known = {c.id for c in self.candies}
        per_sheet = self.grid.rows * self.grid.columns
        for n, sheet in enumerate(self.sheets, 1):
            where = f"sheet {n} ({sheet.id})"
            if len(sheet.children) != per_sheet:
                raise ValueError(f"{where} has {len(sheet.children)} children but the grid "
                                 f"{self.grid.rows}x{self.grid.columns} holds {per_sheet}")
            unique_ids(sheet.children, f"{where}: child")
            if len(self.boonus) > per_sheet:
                raise ValueError(f"{len(self.boonus)} Boo-nus rewards but only {per_sheet} children "
                                 "to haunt on a sheet; shorten boonus")
            counts: Counter = Counter()
            dice: Counter = Counter()
            for child in sheet.children:
                for box in child.boxes:
                    if box.candy not in known:
                        raise ValueError(f"{where}: child '{child.id}' names candy '{box.candy}', "
                                         "which is not in candies")
                    counts[box.candy] += 1
                    dice[box.die] += 1
            for candy in self.candies:
                if counts[candy.id] < cols:
                    raise ValueError(f"{where}: candy '{candy.id}' is in {counts[candy.id]} boxes but its "
                                     f"stash row has {cols} circles; give it at least {cols} boxes")
            missing = [d for d in range(1, 7) if not dice[d]]
            if missing:
                raise ValueError(f"{where}: no box takes die value {missing[0]}; every value 1-6 "
                                 "needs at least one box")
        return self


class BoogalooLayout(PageSetup):
    orientation: Literal["portrait", "landscape"] = "landscape"
    box_w: float = Field(11.0, ge=10.0, le=16.0, description="candy box width, mm")
    box_h: float = Field(20.0, ge=13.0, le=22.0, description="candy box height, mm")
    points_colour: Colour = Field("#2a9d3f", pattern=HEX, description="stash points circles")
    accent: Colour = Field("#5b3c88", pattern=HEX, description="headings and banners")


class BoogalooSheet(LayoutFile):
    content: BoogalooContent
    layout: BoogalooLayout = BoogalooLayout()

    def counts(self) -> dict[str, int]:
        return {"sheets": len(self.content.sheets), "turns": self.content.turns, "bar": self.content.bar_points}
