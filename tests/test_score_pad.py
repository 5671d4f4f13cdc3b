"""The ROLL for Your Life score pad: three rounds for four players, totals and the tie showdown,
write-in boxes of at least 5 mm, on A4 and Letter."""

from __future__ import annotations

import pytest

from sheetgen import api
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import Box, walk

from conftest import page_mm
from pdfs import EPS_MM, open_pdf

MM = 72 / 25.4


def writable(pages) -> dict[str, Box]:
    return {it.id: it for page in pages for it, _, _ in walk(page.items)
            if isinstance(it, Box) and it.writable}


def test_pad_has_a_box_per_player_for_every_row_of_every_round():
    loaded = load("roll-score-pad")
    boxes = writable(render_pages(loaded, Options(per_page=1)))
    for p in range(1, 5):
        assert f"player.p{p}" in boxes and f"total.p{p}" in boxes and f"tie.p{p}" in boxes
        for r in (1, 2, 3):
            for row in ("trophies", "treats", "survivor", "total"):
                assert f"round.{r}.{row}.p{p}" in boxes
    assert len(boxes) == 4 * (1 + 3 * 4 + 1 + 1)
    assert "round.4.total.p1" not in boxes and "round.1.total.p5" not in boxes
    assert min(min(b.w, b.h) for b in boxes.values()) >= 5.0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pad_pdf(tmp_path, paper):
    out = tmp_path / f"pad-{paper}.pdf"
    api.render("roll-score-pad", out, Options(paper=paper))
    assert page_mm(out) == [{"a4": (210.0, 297.0), "letter": (215.9, 279.4)}[paper]]
    with open_pdf(out) as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        # two pads per page: every row twice
        for phrase in ("Round 1", "Round 2", "Round 3", "Game total", "Tie showdown"):
            assert text.count(phrase) == 2, phrase
        for phrase in ("Round total", "Trophies", "Special Treats", "Survivor's parts"):
            assert text.count(phrase) == 6, phrase  # once a round
        stroked = [r for r in page.rects if r["stroke"]]
        big = [r for r in stroked if r["height"] / MM >= 5.0 - EPS_MM and r["width"] / MM >= 5.0 - EPS_MM]
        assert len(big) == 2 * 60  # every write-in box, both pads, at least 5 mm


def test_four_pads_to_a_page_is_an_error_not_a_cramped_pad(tmp_path):
    from sheetgen.errors import SheetgenError

    with pytest.raises(SheetgenError, match="at least 14 mm"):
        api.render("roll-score-pad", tmp_path / "x.pdf", Options(per_page=4))
