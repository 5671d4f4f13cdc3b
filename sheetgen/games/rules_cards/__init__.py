"""Rules cards for every game: the project's single source of rules text."""

KINDS = {
    "rules-cards": "sheetgen.games.rules_cards.compose",
}
