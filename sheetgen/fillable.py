"""`--fillable`: a sheet played in a PDF reader. Every writable element of the scene (and every
name line) gets an AcroForm field (reportlab's `canvas.acroForm`) exactly over what is drawn:
a checkbox for a box or circle the player marks, a text field for a box the player writes a
number in (scores, Haunt the Block's path) and for names. The fields are transparent, so the
sheet looks the same until it is filled.

Tab order follows play: fields are added to each page (its /Annots) sheet by sheet, and within
a sheet the name first, then in the order of the kind's `play_order` (id patterns, declared
where the game spells its ids: the elements a turn touches first come first), then in the order
they are drawn. The boxes its `written` pattern names are text fields. The field's tooltip is
its element id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib.colors import black, transparent
from reportlab.pdfbase.pdfdoc import PDFArray

from .errors import SheetgenError
from .paper import MM
from .scene import Box, Circle, Group, Line, Page, walk
from .widgets import NAME_LINE as NAME

NAME_H = 5.5  # height of a name field above its line, mm


@dataclass(frozen=True)
class Field:
    name: str  # unique in the document
    element: str  # the scene element id
    kind: str  # "check" or "text"
    shape: str  # "square" or "circle" (checkboxes)
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 in page mm, origin top left


def check_kind(kind: str) -> None:
    """Only sheets written on in play (the kinds a kit prints --copies times) take form fields."""
    from .kinds import KINDS
    from .kit import consumable

    if not consumable(kind):
        written = sorted(k for k in KINDS if consumable(k))
        raise SheetgenError(f"--fillable does not apply to a {kind} layout",
                            fix=f"use it with a sheet written on in play: {', '.join(written)}")


def _rank(order: tuple[str, ...], eid: str) -> int:
    if eid == NAME:
        return -1
    return next((i for i, p in enumerate(order) if re.match(p, eid)), len(order))


def _sheets(page: Page) -> list[list]:
    """The page's sheets: each top-level group is one imposed sheet; loose items come last."""
    groups = [[it] for it in page.items if isinstance(it, Group)]
    loose = [it for it in page.items if not isinstance(it, Group)]
    return groups + [loose] if groups else [page.items]


def fields(page: Page, kind: str, page_no: int) -> list[Field]:
    """The fields of one page, in tab order."""
    from .kinds import kind as kind_of

    k = kind_of(kind)
    written = re.compile(k.written) if k.written else None
    out: list[Field] = []
    for s, items in enumerate(_sheets(page)):
        found = []
        for n, (it, dx, dy) in enumerate(walk(items)):
            if isinstance(it, Line) and it.id == NAME:
                (x0, y), (x1, _) = it.points[0], it.points[-1]
                found.append((it.id, "text", "square", (x0 + dx, y + dy - NAME_H, x1 + dx, y + dy), n))
            elif getattr(it, "writable", False) and isinstance(it, Circle):
                r = (it.cx - it.r + dx, it.cy - it.r + dy, it.cx + it.r + dx, it.cy + it.r + dy)
                found.append((it.id, "check", "circle", r, n))
            elif getattr(it, "writable", False) and isinstance(it, Box):
                r = (it.x + dx, it.y + dy, it.x + it.w + dx, it.y + it.h + dy)
                found.append((it.id, "text" if written and written.match(it.id) else "check", "square", r, n))
        found.sort(key=lambda f: (_rank(k.play_order, f[0]), f[4]))
        for eid, ftype, shape, rect, _ in found:
            name = f"p{page_no + 1}-s{s + 1}-{eid.replace('.', '-')}"
            out.append(Field(name, eid, ftype, shape, rect))
    return out


def add_fields(c, page: Page, kind: str, page_no: int) -> None:
    """Put the page's fields on the canvas (call before showPage)."""
    form = c.acroForm
    clear = dict(borderWidth=0, fillColor=transparent, borderColor=transparent, textColor=black,
                 fieldFlags="", annotationFlags="print")
    for f in fields(page, kind, page_no):
        x0, y0, x1, y1 = f.rect
        x, y, w, h = x0 * MM, (page.height - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM
        if f.kind == "check":
            form.checkbox(name=f.name, tooltip=f.element, x=x, y=y, size=min(w, h), shape=f.shape,
                          buttonStyle="cross", **clear)
            if abs(w - h) > 0.01:  # reportlab makes square boxes: widen the widget to the box
                c._doc.idToObject[form.fields[-1].name].dict["Rect"] = PDFArray((x, y, x + w, y + h))
        else:
            form.textfield(name=f.name, tooltip=f.element, x=x, y=y, width=w, height=h,
                           fontName="Helvetica", fontSize=min(14, max(7, h / MM * 1.6)),
                           maxlen=40, **clear)
