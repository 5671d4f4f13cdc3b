"""Haunt the Block's switchable mechanics, for the report's mechanic check
(sheetgen.validate.mechanics): each a transform of the layout document, read by both engines as
they read any sheet. Some need a value the layout model does not accept yet (a star threshold
above the candy rows, a power set to none); the check reports those as not played."""

from __future__ import annotations

from ...validate.mechanics import Mechanic, edit


def _star_off(col: int):
    def off(doc):
        th = list(doc.content.thresholds)
        th[col - 1] = len(doc.content.candies) + 1  # more candy rows than there are: never earned
        return edit(doc, thresholds=th)
    return off


def _power_off(child: str):
    def off(doc):
        kids = [k.model_copy(update={"power": None, "amount": 0}) if k.id == child else k
                for k in doc.content.children]
        return edit(doc, children=kids)
    return off


def mechanics(doc) -> list[Mechanic]:
    c = doc.content
    out = [Mechanic(f"{k.name} ({k.power.replace('_', ' ')})", "power", _power_off(k.id), "the child's power is removed",
                    tuple(f"power.{k.id}.{u + 1}" for u in range(c.uses)) if k.symbol == "moon" else ())
           for k in c.children if k.power]
    out += [Mechanic(f"stash star {col}", "reward", _star_off(col), "needs more candy rows than there are",
                     (f"stash.star.{col}",)) for col in range(1, len(c.points) + 1)]
    if c.start_stars:
        out.append(Mechanic("start star", "reward",
                            lambda d: edit(d, start_stars=d.content.start_stars - 1, stars=d.content.stars - 1),
                            "one star fewer circled at the start (and one fewer circle)"))
    out.append(Mechanic("chocolate bars", "reward", lambda d: edit(d, bar_points=0), "every bar scores 0"))
    return out
