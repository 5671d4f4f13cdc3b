"""The icon dice of ROLL for Your Life, Candyman!: stickers, paper cubes and the plain-dice
mapping (see sheetgen.dice); the faces are chosen in the layout, backed by `odds`."""

from pydantic import Field

from ...dice import DiceContent, DiceSheet, pages
from ...kinds import Kind
from ...model import Strict


class Figures(Strict):
    """What `odds.simulate(faces, parts, games=games, seed=seed)` gives, with the cookies layout's
    parts; a test recomputes them."""

    games: int = Field(ge=1)
    seed: int = Field(ge=0)
    throws: float
    slow: float
    sweet: float
    foul: float


class RollDiceContent(DiceContent):
    odds: Figures


class RollDice(DiceSheet):
    content: RollDiceContent


KIND = Kind("roll-dice", RollDice, pages, product="roll-for-your-life")
