"""Boogaloo (Ghosts Love Candy Too): four roll-and-write sheets, their rules engines and variants."""

KINDS = {
    "boogaloo": "sheetgen.games.boogaloo.compose",
}
