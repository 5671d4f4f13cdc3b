"""The six Rollers dice (five purple with a STAR for 6, one black with a ZAP for 6): stickers,
paper cubes and the plain-dice mapping, drawn by sheetgen.dice."""

from ...dice import DiceSheet, pages
from ...kinds import Kind

KIND = Kind("rollers-dice", DiceSheet, pages, product="rollers")
