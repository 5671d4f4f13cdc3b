"""What --fillable and --print-shop add to a drawn PDF, as hooks the drawer calls
(`sheetgen.draw.pdf_bytes(..., hooks=...)`): canvas options, per-page extras, a last pass."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import SheetgenError


@dataclass
class Hooks:
    kind: str
    fillable: bool = False
    print_shop: bool = False
    canvas: dict = field(default_factory=dict)

    def page(self, c, page, n: int) -> None:
        if self.fillable:
            from .fillable import add_fields

            add_fields(c, page, self.kind, n)

    def finish(self, data: bytes, pages) -> bytes:
        if self.print_shop:
            from .printshop import finish

            return finish(data, pages)
        return data


def hooks_for(kind: str, opts) -> Hooks | None:
    """The hooks the options ask for (None when they ask for none); refuses what does not apply."""
    fillable, shop = opts.fillable, opts.print_shop
    if not (fillable or shop):
        return None
    if fillable and shop:
        raise SheetgenError("--fillable and --print-shop do not go together",
                            fix="a fillable sheet is for a screen; drop one of the two")
    hooks = Hooks(kind, fillable, shop)
    if fillable:
        from .fillable import check_kind

        check_kind(kind)
    if shop:
        from .printshop import canvas_options

        hooks.canvas = canvas_options()
    return hooks


def shop_colours(kind: str) -> Hooks:
    """CMYK colours only (a kit part: the kit gets its print-shop boxes once, merged)."""
    from .printshop import canvas_options

    return Hooks(kind, canvas=canvas_options())


def shop_finish(data: bytes) -> bytes:
    """Page boxes, output intent and PDF/X keys on a whole (merged) document."""
    from .printshop import finish

    return finish(data, [])
