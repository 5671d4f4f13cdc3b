"""Typed models shared by every layout kind."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from .paper import SAFE_MARGIN_MM


class Strict(BaseModel):
    """A model that refuses unknown keys, so a typo in a layout is an error, not a silent default.
    Every float is finite: NaN and infinity are refused wherever a number is read."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


Colour = str  # "#rrggbb"
HEX = r"^#[0-9a-fA-F]{6}$"


class PageSetup(Strict):
    paper: Literal["a4", "letter"] = "a4"
    orientation: Literal["portrait", "landscape"] = "portrait"
    margin: float = Field(8.0, ge=SAFE_MARGIN_MM, le=40, description="printer-safe margin, mm")
    ink_saver: bool = Field(False, description="outline colour areas instead of filling them")
    base_url: str | None = Field(None, pattern=r"^https?://[^?#\s]+$",
                                 description="QR codes link to this sheet at this `sheetgen serve` address")


class VariantInfo(Strict):
    """Set on layouts written by `sheetgen variant`: printed in the footer and the QR code."""

    game: str
    seed: int = Field(ge=0)
    id: str = Field(pattern=r"^[0-9a-f]{6,12}$")
    command: str = Field(description="the command that makes this variant again")
    band: float | None = Field(None, ge=0, le=1, description="the --band it was made with, when "
                               "not the default (its link cannot say it)")
    candidate: int | None = Field(None, ge=0, description="set on a variant kept by `sheetgen search`: "
                                  "its candidate number in the search of `seed`")
    ranges: dict[str, list[int]] | None = Field(None, description="the search's --param ranges, when "
                                                "given (its link cannot say them)")


class LayoutFile(Strict):
    """Top level of every layout file. Kinds narrow `content` and `layout`."""

    kind: str
    title: str = Field(min_length=1)
    description: str = Field("", description="one line shown by 'sheetgen list'")
    content: Strict
    layout: PageSetup = PageSetup()
    variant: VariantInfo | None = None
    reprint: bool = Field(False, description="a Letter or ink-saver version of the layout it extends: "
                          "kits leave it out (they print their parts on the paper asked with --paper)")

    def counts(self) -> dict[str, int]:
        """The layout's numbers by name: how many of each piece it prints ({cards}, {tokens}...)
        and the rules' numbers it sets ({bar}, {uses}...). Its description, the kits' lists of what
        to play with and the rules text of the games that need it fill them in."""
        return {}


def _known_icon(name: str) -> str:
    from .icons import ICONS

    if name not in ICONS:
        raise ValueError(f"unknown icon '{name}'; use one of: {', '.join(sorted(ICONS))}")
    return name


IconName = Annotated[str, AfterValidator(_known_icon)]
Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]


class Candy(Strict):
    """A candy type: shown by colour AND icon, so it reads in greyscale too."""

    id: Ident
    name: str = Field(min_length=1)
    alias: str = ""
    icon: IconName
    colour: Colour = Field(pattern=HEX)


def unique_ids(items, what: str) -> None:
    seen: set[str] = set()
    for it in items:
        if it.id in seen:
            raise ValueError(f"{what} id '{it.id}' is used twice; give each a different id")
        seen.add(it.id)


def counts_add_up(items, expected: int, what: str, size_key: str) -> None:
    """A deck or set lists `count` per item; the counts must make the size the layout states."""
    total = sum(it.count for it in items)
    if total != expected:
        raise ValueError(f"the {what} counts add up to {total}, but {size_key} is {expected}; "
                         f"change a count or {size_key}")
