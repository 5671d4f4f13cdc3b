"""Roll & Fight: the player board (two to a page) and paper polyhedral dice."""

KINDS = {
    "roll-and-fight-board": "sheetgen.games.roll_and_fight.board",
    "dice-nets": "sheetgen.games.roll_and_fight.nets",
}
