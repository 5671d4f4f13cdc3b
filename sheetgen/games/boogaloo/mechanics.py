"""Boogaloo's switchable mechanics, for the report's mechanic check (sheetgen.validate.mechanics):
each a transform of a one-sheet layout document, read by both engines as they read any sheet."""

from __future__ import annotations

from ...validate.mechanics import Mechanic, edit
from .board import board, stash_star_id


def _star_off(k: int):
    def off(doc):
        needs = list(doc.content.stash.needs)
        needs[k - 1] = len(doc.content.candies) + 1  # more candy rows than there are: never earned
        return edit(doc, stash=doc.content.stash.model_copy(update={"needs": needs}))
    return off


def _slots_off(which: tuple[str, ...]):
    def off(doc):
        return edit(doc, boonus=["none" if r in which else r for r in doc.content.boonus])
    return off


def mechanics(doc) -> list[Mechanic]:
    b = board(doc)
    out = [Mechanic(f"stash star {k}", "reward", _star_off(k),
                    f"column {k}'s star needs more candy rows than there are", (stash_star_id(k),))
           for k in range(1, len(b.points) + 1)]
    if "star" in b.boonus:
        out.append(Mechanic("Boo-nus stars", "reward", _slots_off(("star",)), "each star slot gives nothing"))
    if "bar" in b.boonus:
        out.append(Mechanic("Boo-nus bars", "reward", _slots_off(("bar",)), "each bar slot gives nothing"))
    out.append(Mechanic("Boo-nus track", "section", _slots_off(("star", "bar")), "every slot gives nothing"))
    out.append(Mechanic("chocolate bars", "reward", lambda d: edit(d, bar_points=0),
                        "every bar (row, column, Boo-nus) scores 0"))
    return out
