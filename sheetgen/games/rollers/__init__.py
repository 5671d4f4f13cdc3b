"""Rollers: the game board (the 1s to 5s sections, points circles and a dice reference)."""

KINDS = {
    "rollers-board": "sheetgen.games.rollers.board",
}
