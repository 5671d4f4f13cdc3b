"""Haunt the Block's switchable mechanics, for the report's mechanic check
(sheetgen.validate.mechanics): each a transform of the layout document into one the model accepts
(a power set to none, a star threshold of one more than the candy rows), read by both engines
as they read any sheet."""

from __future__ import annotations

from ...validate.mechanics import Mechanic, edit
from .board import SWEET_BAR, column_star_id, power_id
from .model import MOON_POWERS, NO_POWER


def _counted(doc):
    """The Stars section sized to what the switched-off sheet can earn (the model's rule)."""
    return edit(doc, stars=doc.content.earnable_stars)


def _star_off(col: int):
    def off(doc):
        th = list(doc.content.thresholds)
        th[col - 1] = len(doc.content.candies) + 1  # the model's "no star under this column"
        return _counted(edit(doc, thresholds=th))
    return off


def _power_off(kids: tuple[str, ...]):
    def off(doc):
        new = [k.model_copy(update={"power": NO_POWER, "amount": 0}) if k.id in kids else k
               for k in doc.content.children]
        return _counted(edit(doc, children=new))
    return off


def mechanics(doc) -> list[Mechanic]:
    c = doc.content
    on = [k for k in c.children if k.power not in (None, NO_POWER)]
    sweet = tuple(k.id for k in on if k.power == "sweetheart")  # a pair: the bar needs both
    out = [Mechanic(f"{k.name} ({k.power.replace('_', ' ')})", "power", _power_off((k.id,)),
                    "the child's power is none",
                    tuple(power_id(k.id, u) for u in range(c.uses)) if k.power in MOON_POWERS else ())
           for k in on if k.power != "sweetheart"]
    if sweet:
        names = " and ".join(k.name for k in on if k.id in sweet)
        out.append(Mechanic(f"{names} (sweethearts)", "power", _power_off(sweet),
                            "both sweethearts' power is none", (SWEET_BAR,)))
    out += [Mechanic(f"stash star {col + 1}", "reward", _star_off(col + 1),
                     "the column has no star (threshold: candy rows + 1), one circle fewer in Stars",
                     (column_star_id(col),)) for col in c.star_columns]
    if c.start_stars:
        out.append(Mechanic("start star", "reward",
                            lambda d: _counted(edit(d, start_stars=d.content.start_stars - 1)),
                            "one star fewer circled at the start (and one fewer circle)"))
    out.append(Mechanic("chocolate bars", "reward", lambda d: edit(d, bar_points=0), "every bar scores 0"))
    return out
