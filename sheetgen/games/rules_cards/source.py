"""The rules text of one game, read from the `rules-cards` layout, the single source of rules text:
the rules cards, the kit booklets and the sheets' facts line and how-to all come from it."""

from __future__ import annotations

from ...errors import SheetgenError
from ...kinds import load, load_shared, resolve

LAYOUT = "rules-cards"  # a name on the search path: a local copy may override the shipped one


def games() -> dict:
    """Every game of the rules-cards layout, by id."""
    try:
        path = resolve(LAYOUT)
    except SheetgenError:
        raise SheetgenError(f"no {LAYOUT}.yaml on the layout search path: it holds every game's "
                            "rules text", fix="restore layouts/rules-cards.yaml") from None
    return {g.id: g for g in load_shared(path).doc.content.games}


def rules_game(game_id: str):
    """One game's rules entry (name, players, time, age, needs, sections, summary)."""
    found = games()
    if game_id not in found:
        raise SheetgenError(f"the rules-cards layout has no game '{game_id}'",
                            fix=f"add it there (games: {', '.join(found)})")
    return found[game_id]


def _error(game_id: str, key: tuple, message: str, fix: str) -> SheetgenError:
    """An error at a key of one game's entry in the rules-cards layout (its file and line)."""
    path = resolve(LAYOUT)
    found = games()
    if game_id not in found:  # a game made in code: no line to name
        return SheetgenError(message, fix=fix)
    key = ("content", "games", list(found).index(game_id), *key)
    where = load(path).lines.get(key, (str(path), None))
    return SheetgenError(message, file=where[0], line=where[1],
                         key=".".join(map(str, key)), fix=fix)


def summary(game_id: str, **values) -> list[str]:
    """The game's short how-to paragraphs for its sheet, with {placeholders} filled from the sheet."""
    from ...text import fill

    out = []
    for i, p in enumerate(rules_game(game_id).summary):
        try:
            out.append(fill(p, values))
        except ValueError as exc:
            raise _error(game_id, ("summary", i), f"{game_id} summary: {exc}", "use only the placeholders named") from None
    return out


def part_counts(name: str) -> dict[str, int]:
    """The counts of the pieces a layout prints (`LayoutFile.counts`), by layout name."""
    return load_shared(name).doc.counts()


def _needs(game) -> list[tuple[str, str | None, dict[str, int]]]:
    """(text, part, the part's counts) of each thing the game needs, the text filled in; part None
    (no counts): from home. A bad part or placeholder is named at its line in the rules layout."""
    from ...text import fill

    out = []
    for i, n in enumerate(game.needs):
        if isinstance(n, str):
            out.append((n, None, {}))
            continue
        try:
            counts = part_counts(n.part)
            out.append((fill(n.text, counts), n.part, counts))
        except ValueError as exc:
            raise _error(game.id, ("needs", i, "text"), f"{game.id} needs: {exc}",
                         f"use only the counts of '{n.part}'") from None
        except SheetgenError as exc:
            if exc.file:  # the part's own layout is at fault
                raise
            raise _error(game.id, ("needs", i, "part"), f"{game.id} needs: {exc.message}",
                         exc.fix or "name a layout on the search path") from None
    return out


def needs(game) -> list[tuple[str, str | None]]:
    """(text, part) of each thing the game needs, its part's counts filled in; part None: from
    home."""
    return [(text, part) for text, part, _ in _needs(game)]


def numbers(game) -> dict[str, int]:
    """What the game's sections may name ({bar}, {danger_zone}...): the counts of the parts it
    needs. A name that two parts count differently is left out: neither is meant."""
    out: dict[str, int] = {}
    clash: set[str] = set()
    for _, _, counts in _needs(game):
        for name, value in counts.items():
            if out.setdefault(name, value) != value:
                clash.add(name)
    return {k: v for k, v in out.items() if k not in clash}


def filled(game):
    """The game with {placeholders} in its sections' text filled from its parts (`numbers`), so a
    layout's numbers are printed from the layout and never restated in the rules text."""
    from ...text import fill

    values = numbers(game)
    sections = []
    for i, sec in enumerate(game.sections):
        try:
            sections.append(sec.model_copy(update={"text": fill(sec.text, values)}))
        except ValueError as exc:
            raise _error(game.id, ("sections", i, "text"), f"{game.id} section '{sec.heading}': {exc}",
                         "use only the counts of the parts the game needs") from None
    return game.model_copy(update={"sections": sections})


def product_needs(games: list) -> list[tuple[str, str | None]]:
    """What a kit's games need, each once, in the games' order (the kit's cover lists these)."""
    out: list[tuple[str, str | None]] = []
    for g in games:
        out += [n for n in needs(g) if n not in out]
    return out
