"""Shared drawing pieces: colour tints, headings, name lines, rows of boxes and circles."""

from __future__ import annotations

from functools import lru_cache

from .draw import text_width_mm
from .scene import Box, Circle, Item, Line, Style, Text

THIN = Style(width=0.25)
GREY = "#bdbdbd"


@lru_cache(maxsize=1024)  # a sheet tints the same few colours for every box
def tint(colour: str, amount: float) -> str:
    """Mix a #rrggbb colour with white; amount 0 is white, 1 the colour itself."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - v) * amount) for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in mixed)


NAME_LINE = "name.line"  # the id of every sheet's name line (--fillable makes it a text field)


def name_line(x: float, y: float, w: float, label: str = "Name", size: float = 9) -> list[Item]:
    lw = text_width_mm(label, size, bold=True) + 1.5
    return [Text(x, y, label, size, bold=True, id="name.label"),
            Line(((x + lw, y + 0.5), (x + w, y + 0.5)), THIN, id=NAME_LINE)]


def heading(x: float, y: float, text: str, size: float = 10, align: str = "left", id: str = "") -> Text:
    return Text(x, y, text, size, bold=True, align=align, id=id)


def box_row(x: float, y: float, n: int, size: float, gap: float, id_prefix: str,
            style: Style = THIN, start: int = 1) -> list[Item]:
    """n writable boxes left to right, ids `prefix.start` … ."""
    return [Box(x + i * (size + gap), y, size, size, style, id=f"{id_prefix}.{start + i}",
                writable=True) for i in range(n)]


def circle_row(x: float, y: float, n: int, r: float, gap: float, id_prefix: str,
               style: Style = THIN, start: int = 1) -> list[Item]:
    """n writable circles left to right (x is the left edge), ids `prefix.start` … ."""
    return [Circle(x + r + i * (2 * r + gap), y + r, r, style, id=f"{id_prefix}.{start + i}",
                   writable=True) for i in range(n)]


def variant_stamp(variant, x: float, y: float, w: float, qr_size: float = 14.0) -> list[Item]:
    """Footer for a generated variant: its id and seed in text, and a QR code of the command that
    makes it again. (x, y) is the bottom-left corner of a w mm wide strip, qr_size mm tall."""
    from .scene import QR

    if variant is None:
        return []
    said = f"seed {variant.seed} · " if variant.candidate is None else ""  # else the command says it
    return [QR(x + w - qr_size, y - qr_size, qr_size, variant.command, id="variant.qr"),
            Text(x, y - 1, f"Custom variant {variant.id} · {said}make it again: {variant.command}", 6.5,
                 id="variant.footer")]
