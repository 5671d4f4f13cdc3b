"""Run for Your Life, Candyman!: status sheets, Special Treat cards, Dash N Bash deck, the game mat
and the gingerbread meeples."""

KINDS = {
    "gingerbread-status": "sheetgen.games.run_for_your_life.status",
    "special-treat-cards": "sheetgen.games.run_for_your_life.cards:TREAT_KIND",
    "dash-n-bash": "sheetgen.games.run_for_your_life.cards:DASH_KIND",
    "run-for-your-life-mat": "sheetgen.games.run_for_your_life.mat",
    "gingerbread-meeples": "sheetgen.games.run_for_your_life.meeples",
}
