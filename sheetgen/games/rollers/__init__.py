"""Rollers: the game board, the STAR and ZAP dice, chips and board markers."""

KINDS = {
    "rollers-board": "sheetgen.games.rollers.board",
    "rollers-dice": "sheetgen.games.rollers.dice",
    "rollers-chips": "sheetgen.games.rollers.chips",
}
