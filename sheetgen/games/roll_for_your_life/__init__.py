"""ROLL for Your Life, Candyman!: Special Treat tokens and the score pad."""

KINDS = {
    "special-treat-tokens": "sheetgen.games.roll_for_your_life.tokens",
    "roll-score-pad": "sheetgen.games.roll_for_your_life.score_pad",
    "roll-dice": "sheetgen.games.roll_for_your_life.dice",
}
