"""ROLL for Your Life, Candyman!: cookies, icon dice, crown, cane and fun cut-outs, Special Treat
tokens and the score pad."""

KINDS = {
    "special-treat-tokens": "sheetgen.games.roll_for_your_life.tokens",
    "roll-score-pad": "sheetgen.games.roll_for_your_life.score_pad",
    "roll-dice": "sheetgen.games.roll_for_your_life.dice",
    "cookies": "sheetgen.games.roll_for_your_life.cookies",
    "candy-props": "sheetgen.games.roll_for_your_life.props",
}
