"""The rules text of one game, read from the `rules-cards` layout, the single source of rules text:
the rules cards, the kit booklets and the sheets' facts line and how-to all come from it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...errors import SheetgenError
from ...kinds import load, resolve

LAYOUT = "rules-cards"  # a name on the search path: a local copy may override the shipped one


@lru_cache(maxsize=8)
def _games(path: Path, stamp: int) -> dict:
    return {g.id: g for g in load(path).doc.content.games}


def games() -> dict:
    """Every game of the rules-cards layout, by id."""
    try:
        path = resolve(LAYOUT)
    except SheetgenError:
        raise SheetgenError(f"no {LAYOUT}.yaml on the layout search path: it holds every game's "
                            "rules text", fix="restore layouts/rules-cards.yaml") from None
    return _games(path, path.stat().st_mtime_ns)


def rules_game(game_id: str):
    """One game's rules entry (name, players, time, age, needs, sections, summary)."""
    found = games()
    if game_id not in found:
        raise SheetgenError(f"the rules-cards layout has no game '{game_id}'",
                            fix=f"add it there (games: {', '.join(found)})")
    return found[game_id]


def summary(game_id: str, **values) -> list[str]:
    """The game's short how-to paragraphs for its sheet, with {placeholders} filled from the sheet."""
    from ...text import fill

    out = []
    for i, p in enumerate(rules_game(game_id).summary):
        try:
            out.append(fill(p, values))
        except ValueError as exc:
            path = resolve(LAYOUT)
            n = list(games()).index(game_id)
            loaded = load(path)
            key = ("content", "games", n, "summary", i)
            raise SheetgenError(f"{game_id} summary: {exc}", file=loaded.lines.get(key, (str(path),))[0],
                                line=loaded.lines.get(key, (None, None))[1],
                                key=".".join(map(str, key)), fix="use only the placeholders named") from None
    return out
