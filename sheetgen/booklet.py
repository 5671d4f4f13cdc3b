"""`--booklet`: a kit's rules as a saddle-stitched booklet. The rules are laid out on half-size
pages (A5, or half-letter 5.5 x 8.5 in) by WeasyPrint (`templates/booklet.html.j2`), padded
with blank pages to a multiple of four, and imposed two to a landscape side of A4 (or Letter)
in signature order: sheet k's front holds pages n-2k and 2k+1, its back 2k+2 and n-2k-1. Print
double-sided flipping on the short edge (the PDF says so in its viewer preferences), fold the
stack in half and staple on the fold.
"""

from __future__ import annotations

import io
from pathlib import Path

from .paper import MM, PAPER_MM


def order(n: int) -> list[tuple[int, int]]:
    """(left, right) booklet page numbers (1-based) of each imposed side, n a multiple of 4."""
    sides = []
    for k in range(n // 4):
        sides.append((n - 2 * k, 2 * k + 1))  # front of sheet k
        sides.append((2 * k + 2, n - 2 * k - 1))  # its back
    return sides


def booklet_pages(product: str, paper: str) -> bytes:
    """The rules on half-size pages, not yet imposed."""
    from .documents import document
    from .kit import Kit, products, rules_games
    from .errors import SheetgenError

    if product not in products():
        raise SheetgenError(f"no product named '{product}'", fix=f"use one of: {', '.join(products())}")
    games = [g for g in rules_games() if g.product == product]
    kit = Kit.of(product, paper, 1, games)
    return document("booklet.html.j2", kit=kit)


def impose(pages_pdf: bytes, paper: str) -> bytes:
    """Two half-size pages to each landscape side, in signature order."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    src = PdfReader(io.BytesIO(pages_pdf))
    h, w = (v * MM for v in PAPER_MM[paper])  # landscape: the paper's height is the width
    half = w / 2
    n = -(-len(src.pages) // 4) * 4
    writer = PdfWriter()
    for left, right in order(n):
        side = PageObject.create_blank_page(width=w, height=h)
        for number, x in ((left, 0.0), (right, half)):
            if number <= len(src.pages):  # beyond the last page: a blank page of the book
                page = src.pages[number - 1]
                dy = (h - float(page.mediabox.height)) / 2
                side.merge_transformed_page(page, Transformation().translate(x, dy))
        writer.add_page(side)
    writer.create_viewer_preferences().duplex = "/DuplexFlipShortEdge"
    writer.add_metadata({"/Title": src.metadata.title if src.metadata and src.metadata.title
                         else "Rules booklet", "/Creator": "sheetgen", "/Producer": "sheetgen"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write(product: str, out: str | Path | None = None, paper: str = "a4"):
    """Write the imposed booklet (default `output/<product>-rules-booklet[-letter].pdf`)."""
    import time

    from .api import Built
    from .output import check_target, write_atomic

    t0 = time.perf_counter()
    name = f"{product}-rules-booklet{'' if paper == 'a4' else '-' + paper}.pdf"
    path = check_target(out if out else Path("output") / name)  # before any work
    data = impose(booklet_pages(product, paper), paper)
    path = write_atomic(path, data)  # Path("-") for stdout: count from the bytes, not the file
    import io

    from pypdf import PdfReader

    return Built(path, len(PdfReader(io.BytesIO(data)).pages), len(data), time.perf_counter() - t0)
