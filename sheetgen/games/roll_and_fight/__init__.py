"""Roll & Fight: the player board (two to a page)."""

KINDS = {
    "roll-and-fight-board": "sheetgen.games.roll_and_fight.board",
}
