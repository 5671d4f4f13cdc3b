"""The Haunt the Block sheet: counts from the scene and the PDF, names, paper sizes, reruns, errors."""

from __future__ import annotations

import re

import pytest

from sheetgen.kinds import Options, load, render_pages
from sheetgen.lint import problems
from sheetgen.scene import Box, Circle

from conftest import edit_error, layout_fixtures, matching, render_error, LAYOUTS, MM
from pdfs import open_pdf, page_texts

CHILDREN = ["Bee", "Robot", "Scarecrow", "Dinosaur", "Pirate", "Black Cat", "Romeo", "Juliet",
            "Cheerleader", "Acrobat", "Giant", "Turtle"]


scene, a4 = layout_fixtures("haunt-the-block")


def test_scene_counts(scene):
    path = matching(scene, r"path\.\d+")
    assert len(path) == 48 >= 31
    assert all(isinstance(scene[i], Box) and scene[i].writable and scene[i].w >= 8 for i in path)
    starts = matching(scene, r"start\.\d+")
    assert len(starts) == 6 and all(scene[i].name == "start" for i in starts)
    assert len(matching(scene, r"boonus\.pumpkin\.\d")) == 4
    assert len(matching(scene, r"boonus\.(cat|moon)\.\d")) == 8
    assert len(matching(scene, r"boonus\.bar\.\d")) == 4
    stars = matching(scene, r"stars\.\d")
    assert len(stars) == 8 and all(isinstance(scene[i], Circle) for i in stars)
    # the first star is already circled: a bold solid ring, the others dashed
    assert scene["stars.1"].style.width > scene["stars.2"].style.width and scene["stars.2"].style.dash
    assert len(matching(scene, r"stash\.(?!points|star|need)\w+\.\d")) == 36
    assert len(matching(scene, r"stash\.star\.\d")) == 6
    assert [scene[f"stash.need.{k}"].text for k in range(1, 7)] == ["6", "5", "4", "3", "2", "1"]
    assert len(matching(scene, r"power\.\w+\.[12]")) == 8  # four moons, two use-circles each
    assert len(matching(scene, r"penalty\.\w+")) == 6
    for bar in ("bar.romeo_juliet", "bar.stars", "bar.pumpkins"):
        assert isinstance(scene[bar], Circle)
    assert all(scene[f"score.{k}"].writable for k in ("bars", "total", "peppermint"))


def test_children_show_their_symbol_and_power(scene):
    doc = load("haunt-the-block").doc
    for i, sp in enumerate(doc.content.path):
        if sp.child:
            assert scene[f"child.{sp.child}.text"].markup.startswith("<b>")
    assert "Use the lower die" in scene["child.bee.text"].markup
    assert "Add both dice" in scene["child.cheerleader.text"].markup
    bee = next(i for i, sp in enumerate(doc.content.path, 1) if sp.child == "bee")
    assert isinstance(scene[f"path.{bee}"], Box)


def test_every_engine_element_is_drawn(scene):
    from sheetgen.games.haunt_the_block.rules import element_ids

    missing = [e for e in element_ids(load("haunt-the-block").doc) if e not in scene]
    assert missing == []


def test_pdf_counts(a4):
    with open_pdf(a4) as pdf:
        curves = pdf.pages[0].curves
    # path spaces: rounded 14 mm squares (curves because of the rounded corners)
    spaces = [c for c in curves if abs(c["width"] - 14 * MM) < 0.3 and abs(c["height"] - 14 * MM) < 0.3]
    assert len(spaces) == 48
    stash = [c for c in curves if abs(c["width"] - 6.6 * MM) < 0.2 and abs(c["height"] - 6.6 * MM) < 0.2]
    assert len(stash) == 36 + 6  # stash circles and the star under each column


def test_names_printed(a4):
    text = page_texts(a4)[0]
    for word in CHILDREN + ["STASH", "STARS", "BOO-NUS", "CHOCOLATE BARS", "FINAL SCORE", "TOTAL",
                            "Name", "Haunt the Block", "Use the lower die"]:
        assert word in text, word
    for n in (1, 3, 6, 10, 15, 21):
        assert str(n) in text


def test_print_rules_on_both_papers():
    """Text, write-in marks and the safe margin (sheetgen.lint), also when --paper swaps the paper."""
    for paper in ("a4", "letter"):
        loaded = load("haunt-the-block", Options(paper=paper))
        page = render_pages(loaded, Options())[0]
        assert problems(page, loaded.doc.layout.margin) == [], paper


@pytest.mark.parametrize("old,new,key", [
    ("- {candy: gumball, start: true}  # 9", "- {candy: gumball}  # 9", "starting spaces"),
    ("condition: {kind: even}", "condition: {kind: at_least}", "needs a value"),
    ("- {child: turtle}  # 46", "- {child: bee}  # 46", "twice"),
    ("thresholds: [6, 5, 4, 3, 2, 1]", "thresholds: [8, 5, 4, 3, 2, 1]", "7: the column has no star"),
    ("{id: giant, name: Giant, symbol: moon, power: add, amount: 2}",
     "{id: giant, name: Giant, symbol: moon, power: add_dice}", "share a power"),
    ("across: 15", "across: 30", "layout"),
])
def test_bad_content_is_one_clear_line(tmp_path, old, new, key):
    err = edit_error(tmp_path, "haunt-the-block", old, new)
    assert key in err, err


def test_short_path_is_rejected(tmp_path):
    """A path with too few candy spaces for 31 numbers cannot load."""
    text = (LAYOUTS / "haunt-the-block.yaml").read_text()
    lines = [ln for ln in text.splitlines() if not re.search(r"\{candy: \w+\}  # (2|4|5|7|8|11)$", ln)]
    path = tmp_path / "short.yaml"
    path.write_text("\n".join(lines) + "\n")
    err = render_error(path, tmp_path / "s.pdf")
    assert "candy spaces" in err, err


def test_how_to_states_the_power_order(tmp_path, scene):
    """The how-to names the printed chain, or says any order under power_order: any."""
    assert "in this order: Acrobat, then Cheerleader, then Giant, then Turtle, then stars" in scene["how"].markup
    text = (LAYOUTS / "haunt-the-block.yaml").read_text().replace("power_order: printed", "power_order: any")
    (tmp_path / "any-order.yaml").write_text(text)
    from sheetgen.scene import walk

    pages = render_pages(load(str(tmp_path / "any-order.yaml")), Options())
    how = next(it for it, _, _ in walk(pages[0].items) if it.id == "how")
    assert "combine on one roll in any order you like, then stars" in how.markup
