"""The four Boogaloo sheets, parsed back from the PDF and the scene."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest
import yaml
from pypdf import PdfReader

from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import ids

from conftest import layout_fixtures, LAYOUTS, MM
from pdfs import open_pdf, page_texts

ENGINES = ("boogaloo",)  # the one engine played here: conftest waits for it alone


_, a4 = layout_fixtures("boogaloo")


@pytest.fixture(scope="module")
def doc():
    return load("boogaloo").doc


@lru_cache(maxsize=None)
def _sizes(pdf_path) -> list[list[tuple[float, float]]]:
    """Per page, the (w, h) in mm of every drawn shape (rounded boxes, circles); parsed once."""
    with open_pdf(pdf_path) as pdf:
        return [[((o["x1"] - o["x0"]) / MM, (o["bottom"] - o["top"]) / MM) for o in page.curves]
                for page in pdf.pages]


def _curves(pdf_path, w_mm, h_mm):
    """Per page, how many drawn shapes (rounded boxes, circles) are w x h mm."""
    return [sum(1 for w, h in page if abs(w - w_mm) < 0.06 and abs(h - h_mm) < 0.06)
            for page in _sizes(pdf_path)]


def test_three_boxes_per_child_and_13_turns_on_every_page(a4, doc):
    lay = doc.layout
    assert _curves(a4, lay.box_w, lay.box_h) == [36] * 4  # 12 children x 3 candy boxes
    assert _curves(a4, 8.0, 8.0) == [13] * 4  # turn cells
    for page in render_pages(load("boogaloo"), Options()):
        found = ids(page.items)
        for sheet_child in [i for i in found if i.startswith("child.") and i.count(".") == 1]:
            assert sum(i.startswith(sheet_child + ".box.") for i in found) == 3
        assert sum(i.startswith("track.turn.") for i in found) == 13
        stash = [i for i in found if i.startswith("stash.") and i.split(".")[-1].isdigit()
                 and i.split(".")[1] not in ("star", "points")]
        assert len(stash) == 36  # 6 candies x 6 columns
        assert sum(i.startswith("bar.row.") for i in found) == 3
        assert sum(i.startswith("bar.col.") for i in found) == 4
        assert sum(i.startswith("boonus.") and i.split(".")[1].isdigit() for i in found) == 7


def test_children_names_on_their_own_page(a4, doc):
    texts = page_texts(a4)
    assert len(texts) == len(doc.content.sheets) == 4
    assert "Secret Agent" in texts[0] and "Footballer" in texts[0]
    for text, sheet in zip(texts, doc.content.sheets):
        for child in sheet.children:
            assert child.name in text, (sheet.id, child.name)
        for word in ("Boogaloo", sheet.name, "Stash", "Boo-nus", "Turns", "Score", "Name"):
            assert word in text, word
    others = {c.name for s in doc.content.sheets[1:] for c in s.children}
    assert not any(name in texts[0] for name in others)


def test_sheet_option_prints_one_sheet(tmp_path, main, doc):
    out = tmp_path / "s3.pdf"
    res = main("render", "boogaloo", "--sheet", "3", "--out", str(out))
    assert res.returncode == 0, res.stderr
    reader = PdfReader(out)
    assert len(reader.pages) == 1
    text = page_texts(out)[0]
    assert "Sheet 3 of 4" in text and doc.content.sheets[2].children[0].name in text
    assert len(render_pages(load("boogaloo"), Options(sheet=1))) == 1
    bad = main("render", "boogaloo", "--sheet", "5", "--out", str(tmp_path / "x.pdf"))
    assert bad.returncode == 2 and "--sheet 5" in bad.stderr and "use 1 to 4" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_every_sheet_pairs_each_die_with_each_candy_once(doc):
    for sheet in doc.content.sheets:
        pairs = Counter((b.die, b.candy) for c in sheet.children for b in c.boxes)
        assert len(pairs) == 36 and set(pairs.values()) == {1}
        for child in sheet.children:
            assert len({b.die for b in child.boxes}) == 3 and len({b.candy for b in child.boxes}) == 3


def _bad(tmp_path, change):
    data = yaml.safe_load((LAYOUTS / "boogaloo.yaml").read_text())
    change(data["content"])
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(SheetgenError) as err:
        load(path)
    return str(err.value)


def test_bad_layouts_name_the_problem(tmp_path, main):
    def few_gumdrops(c):
        box = c["sheets"][1]["children"][0]["boxes"]
        for b in box:
            if b["candy"] == "gumdrop":
                b["candy"] = "lollipop"
    msg = _bad(tmp_path, few_gumdrops)
    assert "sheet 2" in msg and "gumdrop" in msg and "at least 6 boxes" in msg

    msg = _bad(tmp_path, lambda c: c["sheets"][0]["children"].pop())
    assert "11 children" in msg and "3x4" in msg

    msg = _bad(tmp_path, lambda c: c["sheets"][0]["children"][0]["boxes"].pop())
    assert "boxes" in msg

    msg = _bad(tmp_path, lambda c: c["sheets"][0]["children"][0]["boxes"][0].update(candy="toffee"))
    assert "toffee" in msg and "not in candies" in msg

    msg = _bad(tmp_path, lambda c: c["stash"].update(needs=[7, 5, 4, 3, 2, 1]))
    assert "needs 7" in msg
    res = main("render", str(tmp_path / "bad.yaml"), "--out", str(tmp_path / "x.pdf"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr

    msg = _bad(tmp_path, lambda c: c.update(turns=12))
    assert "turns" in msg and "13" in msg  # the rules' length is pinned: the layout states it


def test_turns_and_nothing_slots_come_from_the_layout(doc):
    """The turn count is read from the layout (board, engines, the printed track); a Boo-nus slot
    'none' is drawn empty and gives nothing in either engine."""
    from sheetgen.games.boogaloo.board import board
    from sheetgen.games.boogaloo.rules import RULES

    one = RULES.sheets(doc)[0][1]
    assert board(one).turns == doc.content.turns == RULES.turns == 13
    c = one.content.model_copy(update={"boonus": ["none"] * len(one.content.boonus)})
    empty = type(one).model_validate({**one.model_dump(), "content": c.model_dump()})
    ids = RULES.element_ids(empty)
    dice, u, targets = RULES.inputs(0, 60, 4, "greedy", len(ids))
    ref = RULES.reference(empty, dice, u, "greedy", targets)
    assert ref.same_as(RULES.fast(empty, dice, u, "greedy", targets))
    base = RULES.reference(one, dice, u, "greedy", targets)
    assert ids == RULES.element_ids(one) and ref.score.mean() < base.score.mean()  # same marks, less score
    assert (ref.reached[:, ids.index("boonus.1")]).any()  # slots are still crossed, for nothing
    from sheetgen.kinds import Options, kind as kind_of
    from sheetgen.scene import Text, walk

    page = kind_of("boogaloo").pages(empty, Options())[0]
    texts = [it.text for it, _, _ in walk(page.items) if isinstance(it, Text)]
    assert texts.count("nothing") == len(one.content.boonus) and any("after turn 13" in t for t in texts)
