"""Run for Your Life, Candyman!: status sheets, Special Treat cards, Dash N Bash deck."""

KINDS = {
    "gingerbread-status": "sheetgen.games.run_for_your_life.status",
}
