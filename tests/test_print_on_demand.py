"""--print-on-demand: one card (or token) per page at trim + 1/8 in bleed, fronts and backs
interleaved; with --print-shop the TrimBox is the card's cut line."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from sheetgen import api
from sheetgen.kinds import Options

from pdfs import page_texts


PT = 72 / 25.4


def _mm(box):
    return [round(float(v) / PT, 3) for v in box]


@pytest.mark.parametrize("name,cards,size", [("special-treat-cards", 44, (63, 88)),
                                              ("special-treat-tokens", 12, (44, 44))])
def test_one_card_a_page_fronts_and_backs_interleaved(name, cards, size, tmp_path):
    path = api.render(name, tmp_path / "pod.pdf", Options(pod=True, print_shop=True)).path
    reader = PdfReader(path)
    assert len(reader.pages) == 2 * cards
    w, h = size[0] + 2 * 3.175, size[1] + 2 * 3.175
    for page in reader.pages:
        assert _mm(page.mediabox) == [0, 0, round(w, 3), round(h, 3)]
        assert _mm(page["/TrimBox"]) == [3.175, 3.175, round(w - 3.175, 3), round(h - 3.175, 3)]
    texts = page_texts(path)
    back = "SPECIAL TREAT"
    assert all(back in t for t in texts[1::2])  # every other page is a back
    if name == "special-treat-cards":
        assert texts[0].count("Jawbreaker") == 1 and "Jawbreaker" in texts[2]
        assert sum("Gingersnap" in t for t in texts[0::2]) >= 1


def test_print_on_demand_refused_for_a_sheet(tmp_path, main):
    out = tmp_path / "x.pdf"
    done = main("render", "tricky-treats", "--print-on-demand", "--out", str(out))
    assert done.returncode == 2 and not out.exists()
    assert len(done.stderr.strip().splitlines()) == 1 and "--print-on-demand" in done.stderr
