"""Tricky Treats (Ghosts Love Candy Too): the roll-and-write sheet, its rules engines and variants."""

KINDS = {
    "tricky-treats": "sheetgen.games.tricky_treats.compose",
}
