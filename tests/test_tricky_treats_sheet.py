"""The Tricky Treats sheet: counts from the scene and the PDF, names, paper sizes, reruns, errors."""

from __future__ import annotations


import pytest

from sheetgen.kinds import load
from sheetgen.scene import Box, Circle, Icon

from conftest import edit_error, layout_fixtures, matching, MM
from pdfs import open_pdf, page_texts

ENGINES = ("tricky_treats",)  # the one engine played here: conftest waits for it alone

CHILDREN = ["Skeleton", "Witch", "Vampire", "Mummy", "Werewolf", "Zombie"]
POWERS = ["Bone", "Cauldron", "Bat", "Pyramid", "Full moon", "Skull"]


scene, a4 = layout_fixtures("tricky-treats")


def test_scene_counts(scene):
    boxes = matching(scene, r"child\.\w+\.box\.[1-6]")
    assert len(boxes) == 36 and all(isinstance(scene[i], Box) and scene[i].writable for i in boxes)
    scares = matching(scene, r"child\.\w+\.scare\.[1-3]")
    assert len(scares) == 18 and all(isinstance(scene[i], Circle) for i in scares)
    skulls = matching(scene, r"child\.\w+\.scare\.3\.skull")
    assert len(skulls) == 6 and all(scene[i].name == "skull" for i in skulls)
    stash = matching(scene, r"stash\.(?!points)\w+\.[1-7]")
    assert len(stash) == 42 and all(isinstance(scene[i], Circle) and scene[i].writable for i in stash)
    assert len(matching(scene, r"track\.turn\.\d+")) == 16
    assert len(matching(scene, r"child\.\w+\.power\.\d")) == 15
    assert len(matching(scene, r"child\.\w+\.boonus")) == 6
    assert len(matching(scene, r"cauldron\.\d")) == 6 and len(matching(scene, r"pyramid\.\d")) == 6
    assert len(matching(scene, r"pyramid\.bar\.\d")) == 3 and len(matching(scene, r"boonus\.bar\.\d")) == 2
    assert {scene[f"score.{k}"].writable for k in ("stash", "bars", "scared", "total")} == {True}


def test_every_candy_box_shows_its_candy_icon(scene):
    doc = load("tricky-treats").doc
    for ch in doc.content.children:
        for v, cid in enumerate(ch.boxes, 1):
            icon = scene[f"child.{ch.id}.box.{v}.candy"]
            candy = doc.content.candy(cid)
            assert isinstance(icon, Icon) and icon.name == candy.icon and icon.fill == candy.colour
    # the rulebook's example: the Vampire's box 2 is the green gummy bear
    assert scene["child.vampire.box.2.candy"].name == "gummy_bear"


def test_immediate_powers_in_squares(scene):
    for child, square in [("witch", True), ("mummy", True), ("skeleton", False), ("zombie", False)]:
        assert isinstance(scene[f"child.{child}.power.1.frame"], Box) == square


def test_every_engine_element_is_drawn(scene):
    from sheetgen.games.tricky_treats.rules import element_ids

    missing = [e for e in element_ids(load("tricky-treats").doc) if e not in scene]
    assert missing == []


def test_pdf_counts(a4):
    with open_pdf(a4) as pdf:
        page = pdf.pages[0]
        rects, curves = page.rects, page.curves
    # candy boxes: rounded 8 x 12.4 mm (drawn as curves because of their rounded corners)
    tall = [c for c in curves if abs(c["width"] - 8 * MM) < 0.3 and abs(c["height"] - 12.4 * MM) < 0.3]
    assert len(tall) == 36
    # write-in circles are white: stash circles 5.8 mm across, scare circles 5.5 mm
    white = [c for c in curves if tuple(c["non_stroking_color"] or ()) == (1, 1, 1)]
    stash = [c for c in white if abs(c["width"] - 5.8 * MM) < 0.2 and abs(c["height"] - 5.8 * MM) < 0.2]
    scare = [c for c in white if abs(c["width"] - 5.5 * MM) < 0.2 and abs(c["height"] - 5.5 * MM) < 0.2]
    assert len(stash) == 42 and len(scare) == 18
    def squares(side):
        return [r for r in rects if abs(r["width"] - side * MM) < 0.2 and abs(r["height"] - side * MM) < 0.2]

    assert len(squares(8.5)) == 6  # the black number squares
    assert len(squares(9.2)) == 6  # the frames of the powers used at once (3 cauldrons, 3 pyramids)


def test_names_printed(a4):
    text = page_texts(a4)[0]
    for word in CHILDREN + POWERS + ["STASH", "CAULDRON", "PYRAMID", "BOO-NUS", "TURNS", "SCORE", "Name"]:
        assert word in text, word
    for n in (1, 3, 6, 10, 15, 21, 28):
        assert str(n) in text


@pytest.mark.parametrize("old,new,key", [
    ("number: 6", "number: 5", "numbers"),
    ("boxes: [1, 2, 3]}", "boxes: [1, 2, 9]}", "die values 1 to 6"),
    ("power: skull", "power: bone", "powers"),
    ("gummy_bear, gumdrop, gumball, candy_corn, lollipop, wrapped]", "gummy_bear, gumdrop, gumball]", "6"),
    ("- {kind: star, needs: 5}", "- {kind: diamond, needs: 5}", "content.stash.rewards.0.kind"),
    ("boonus_actions: [star, cauldron, pyramid]", "boonus_actions: [star, star, pyramid]", "each once"),
])
def test_bad_content_is_one_clear_line(tmp_path, old, new, key):
    err = edit_error(tmp_path, "tricky-treats", old, new)
    assert key in err, err
