"""The Roll & Fight and Rollers boards: spaces present, sizes, placement, paper, errors."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from sheetgen import api
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, layouts_dir, load, render_pages
from sheetgen.paper import MM, SAFE_MARGIN_MM
from sheetgen.scene import Box, Circle, walk

from pdfs import page_texts


def scene(name: str, paper: str = "a4"):
    opts = Options(paper=paper)
    return render_pages(load(name, opts), opts)


def placed(page):
    """element id -> (primitive, absolute x, absolute y) for every id'd box and circle."""
    return {it.id: (it, dx, dy) for it, dx, dy in walk(page.items)
            if isinstance(it, (Box, Circle)) and it.id}


def bounds(it, dx, dy):
    if isinstance(it, Circle):
        return it.cx + dx - it.r, it.cy + dy - it.r, it.cx + dx + it.r, it.cy + dy + it.r
    return it.x + dx, it.y + dy, it.x + dx + it.w, it.y + dy + it.h


def inside_margin(page):
    for it, dx, dy in walk(page.items):
        if isinstance(it, (Box, Circle)):
            x0, y0, x1, y1 = bounds(it, dx, dy)
            assert x0 >= SAFE_MARGIN_MM - 1e-6 and y0 >= SAFE_MARGIN_MM - 1e-6, it.id
            assert x1 <= page.width - SAFE_MARGIN_MM + 1e-6, it.id
            assert y1 <= page.height - SAFE_MARGIN_MM + 1e-6, it.id


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_roll_and_fight_spaces_fit_a_d20_and_sit_between_crew_and_pile(paper):
    pages = scene("roll-and-fight-board", paper)
    assert len(pages) == 2  # four boards, two per page
    for page in pages:
        inside_margin(page)
        ids = [it.id for it, _, _ in walk(page.items)]
        assert ids.count("space.roll") == 2 and ids.count("space.fight") == 2
    top = [(it, dx, dy) for it, dx, dy in walk(pages[0].items)
           if it.id and dy < pages[0].height / 2]
    by_id = {it.id: (it, dx, dy) for it, dx, dy in top}
    boxes = {k: bounds(*by_id[k]) for k in ("crew", "space.roll", "space.fight", "pile")}
    for k in ("space.roll", "space.fight"):
        x0, y0, x1, y1 = boxes[k]
        assert x1 - x0 >= 30 and y1 - y0 >= 30, f"{k} too small for a d20"
    assert boxes["crew"][2] <= boxes["space.roll"][0] < boxes["space.fight"][0]
    assert boxes["space.fight"][2] <= boxes["pile"][0]
    rounds = [it for it, _, _ in top if it.id.startswith("tracker.round.") and isinstance(it, Circle)]
    assert len(rounds) == 7 and all(c.writable and 2 * c.r >= 5 for c in rounds)
    dice = {it.id for it, _, _ in top if isinstance(it, Box) and re.fullmatch(r"dice\.\w+", it.id)}
    assert dice == {"dice.d4", "dice.d6", "dice.d8", "dice.d10", "dice.d10p", "dice.d12", "dice.d20"}
    assert {"tiebreak", "tiebreak.text"} <= set(by_id)


def test_roll_and_fight_pdf_text_and_paper(tmp_path):
    for paper, size in (("a4", (210, 297)), ("letter", (215.9, 279.4))):
        built = api.render("roll-and-fight-board", tmp_path / f"{paper}.pdf", Options(paper=paper))
        reader = PdfReader(built.path)
        box = reader.pages[0].mediabox
        assert (round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)) == size
        text = reader.pages[0].extract_text()
        for word in ("ROLL", "FIGHT", "CREW", "PILE", "d10%", "fewest sides", "Round"):
            assert text.count(word) >= 2, word  # on both boards of the page


def test_rollers_sections_open_and_close_spaces():
    for paper in ("a4", "letter"):
        page = scene("rollers-board", paper)[0]
        inside_margin(page)
        boxes = placed(page)
        for n in range(1, 6):
            opens = [k for k in boxes if re.fullmatch(rf"section\.{n}\.open\.\d+", k)]
            assert len(opens) == n, f"{n}s section needs {n} OPEN spaces"
            close = boxes[f"section.{n}.close"][0]
            assert close.writable and close.w >= 10
            for k in opens:
                b = boxes[k][0]
                assert b.writable and b.w >= 10 and b.h >= 10
                # OPEN spaces sit inside their section, above its CLOSE space
                sx0, sy0, sx1, sy1 = bounds(*boxes[f"section.{n}"])
                x0, y0, x1, y1 = bounds(*boxes[k])
                assert sx0 <= x0 and x1 <= sx1 and y1 < bounds(*boxes[f"section.{n}.close"])[1]
        points = [k for k in boxes if re.fullmatch(r"points\.\d", k)]
        assert sorted(points) == [f"points.{i}" for i in range(1, 6)]
        assert all(2 * boxes[k][0].r >= 5 for k in points)
        assert {"ref.chips", "ref.star", "ref.zap"} <= set(boxes)
        icons = {it.name for it, _, _ in walk(page.items) if getattr(it, "name", None)}
        assert {"star", "zap"} <= icons


def test_rollers_pdf_is_landscape_and_says_star_zap(tmp_path):
    built = api.render("rollers-board", tmp_path / "r.pdf")
    page = PdfReader(built.path).pages[0]
    assert float(page.mediabox.width) > float(page.mediabox.height)
    text = page.extract_text()
    for word in ("OPEN", "CLOSE", "STAR", "ZAP", "purple chips", "first to 5"):
        assert word in text


def test_rollers_board_shows_the_chips_of_the_chips_layout(tmp_path):
    """The chips are written once, in rollers-chips: the board's reference shows their per-player
    counts, names and values, and the chips sheet holds that many for every player colour."""
    chips = load("rollers-chips").doc.content
    board = api.render("rollers-board", tmp_path / "r.pdf").path
    text = " ".join(page_texts(board)[0].split())
    for k in chips.chips:
        assert f"{k.per_player} × {k.name}, worth {k.value} each" in text
    total = sum(k.per_player * k.value for k in chips.chips)
    assert re.search(rf"starts each round with {total} in chips", text)
    sheet = " ".join(page_texts(api.render("rollers-chips", tmp_path / "c.pdf").path)[0].split())
    first = chips.chips[0]
    assert f"Chips: {chips.count(first)} {first.id} and" in sheet


def test_bad_board_layouts_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {layouts_dir().resolve()}/rollers-board.yaml\n"
                   "content:\n  sections:\n    - {value: 1, open: 1}\n    - {value: 2, open: 3}\n"
                   "    - {value: 3, open: 3}\n    - {value: 4, open: 4}\n    - {value: 5, open: 5}\n")
    with pytest.raises(SheetgenError, match="open: 2"):
        load(bad)
    bad.write_text(f"extends: {layouts_dir().resolve()}/roll-and-fight-board.yaml\n"
                   "layout:\n  space: 20\n")
    with pytest.raises(SheetgenError) as err:
        load(bad)
    assert "layout.space" in str(err.value) and "\n" not in str(err.value)


def test_boards_refuse_spaces_squeezed_below_their_minimum(tmp_path):
    bad = tmp_path / "squeezed.yaml"
    bad.write_text(f"extends: {layouts_dir().resolve()}/roll-and-fight-board.yaml\n"
                   "layout:\n  side: 70\n  margin: 30\n")
    with pytest.raises(SheetgenError, match="too small for a d20"):
        scene(bad)
    bad.write_text(f"extends: {layouts_dir().resolve()}/rollers-board.yaml\n"
                   "layout:\n  orientation: portrait\n  margin: 40\n")
    with pytest.raises(SheetgenError, match="too small for a marker"):
        scene(bad)
