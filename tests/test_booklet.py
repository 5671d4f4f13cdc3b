"""--booklet: the rules on half-size pages imposed for saddle stitching, the page order read back
from the PDF (each half's printed page number), on A4 and Letter."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from sheetgen.booklet import order, write

from pdfs import open_pdf

PT = 72 / 25.4
SHEET = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}


def test_signature_order():
    assert order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    sides = order(12)
    assert sorted(p for s in sides for p in s) == list(range(1, 13))
    assert all(a + b == 13 for a, b in sides)  # facing halves of a side add up to n + 1


@pytest.mark.parametrize("product,paper,pages", [("ghosts-love-candy-too", "a4", 8),
                                                  ("rollers", "letter", 4)])
def test_booklet_page_order_read_from_the_pdf(product, paper, pages, tmp_path):
    path = write(product, tmp_path / "b.pdf", paper).path
    assert PdfReader(path).viewer_preferences["/Duplex"] == "/DuplexFlipShortEdge"
    found = []
    with open_pdf(path) as pdf:
        for page in pdf.pages:
            assert (round(page.width / PT, 1), round(page.height / PT, 1)) == SHEET[paper]
            halves = []
            for x0 in (0, page.width / 2):
                half = page.crop((x0, 0, x0 + page.width / 2, page.height))
                foot = half.crop((x0, page.height - 14 * PT, x0 + page.width / 2, page.height))
                text = foot.extract_text() or ""
                number = re.findall(r"\b(\d+)\s*$", text)
                title = "RULES BOOKLET" in (half.extract_text() or "")
                halves.append(int(number[-1]) if number else ("title" if title else None))
            found.append(tuple(halves))
    n = 4 * len(found) // 2
    last = max(p for side in found for p in side if isinstance(p, int))
    want = [tuple("title" if p == 1 else None if p > last else p for p in side) for side in order(n)]
    # title page, numbered pages, then at most 3 blanks to fill the last sheet (4 pages)
    assert n == pages and n - 4 < last < n and found == want


def test_booklet_refuses_print_shop(tmp_path, main):
    done = main("kit", "rollers", "--booklet", "--print-shop", "--out", str(tmp_path / "b.pdf"))
    assert done.returncode == 2 and "--booklet" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
