"""Custom dice and the other cut-outs of ROLL for Your Life and Rollers: the face set's simulation
figures as the layout states them, stickers and cubes counted on the PDF, the plain-dice reading
on the rules cards, limbs big enough to pick up, chips and markers as the rules count them."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from sheetgen import api
from sheetgen.games.roll_for_your_life.odds import simulate
from sheetgen.games.rules_cards.model import plain
from sheetgen.games.rules_cards.source import rules_game
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import walk

from conftest import LAYOUTS, edit_error
from pdfs import pdf_text

PARTS = load("gingerbread-cookies").doc.content.parts.model_dump()  # a cookie's parts, as the cookies layout has them


def test_simulation_figures_are_the_ones_the_layout_states():
    doc = load("roll-dice").doc
    c = doc.content
    got = simulate([f.icon for f in c.faces], PARTS, games=c.odds.games, seed=c.odds.seed)
    assert (got.throws, got.slow, got.sweet, got.foul) == (c.odds.throws, c.odds.slow, c.odds.sweet,
                                                           c.odds.foul)
    comment = (LAYOUTS / "roll-dice.yaml").read_text()
    for figure in (f"{got.throws} throws", f"{got.slow * 100:.1f} %", f"{got.sweet * 100:.1f} %",
                   f"{got.foul * 100:.1f} %"):
        assert figure in comment, figure
    assert 1 < got.throws < 4 and 0 < got.sweet < 0.3 and 0 < got.foul < 1


def test_simulation_is_seeded_and_a_dead_face_slows_the_race():
    faces = ["cookie_arm", "cookie_arm", "cookie_leg", "cookie_leg", "peppermint", "peppermint"]
    assert simulate(faces, PARTS, games=5, seed=3) == simulate(faces, PARTS, games=5, seed=3)
    blank = simulate(faces[:5] + ["Blank"], PARTS, games=20, seed=3)
    assert blank.throws > simulate(faces, PARTS, games=20, seed=3).throws


@pytest.mark.parametrize("layout,dice", [("roll-dice", 16), ("rollers-dice", 6)])
def test_six_stickers_and_a_cube_per_die(layout, dice, tmp_path):
    doc = load(layout).doc
    pages = render_pages(load(layout), Options())
    ids = [it.id for p in pages for it, _, _ in walk(p.items) if it.id]
    assert len([i for i in ids if re.fullmatch(r"die\.\w+\.\d+\.sticker\.[1-6]", i)]) == 6 * dice
    assert len([i for i in ids if re.fullmatch(r"cube\.\w+\.\d+\.face\.[1-6]", i)]) == 6 * dice
    assert sum(d.count for d in doc.content.dice) == dice
    out = api.render(layout, tmp_path / "d.pdf", Options(paper="letter")).path
    assert pdf_text(out).split().count("cube") == dice


def test_rules_cards_read_plain_dice_as_the_dice_layout_maps_them():
    faces = load("roll-dice").doc.content.faces
    by_name: dict[str, list[int]] = {}
    for f in faces:
        by_name.setdefault(f.name, []).append(f.value)
    text = " ".join(plain(s.text) for s in rules_game("roll-for-your-life").sections)
    for name, values in by_name.items():
        assert f"{min(values)}–{max(values)} {name}" in text, name


def test_limbs_are_at_least_25_mm_and_each_part_is_labelled():
    pages = render_pages(load("gingerbread-cookies"), Options())
    groups = [it for p in pages for it in p.items if getattr(it, "id", "").startswith("cookie.")]
    assert len(groups) == 24
    for g in groups:
        if ".arm." in g.id or ".leg." in g.id:
            (w, h) = max((it.w, it.h) for it in g.items if hasattr(it, "w"))
            assert max(w, h) >= 25, g.id


def test_a_short_limb_is_refused(tmp_path):
    err = edit_error(tmp_path, "gingerbread-cookies", "  parts: {head: 1, body: 1, arm: 2, leg: 2}",
                     "  parts: {head: 1, body: 1, arm: 2, leg: 2}\n  sizes: {arm: [20, 15]}")
    assert "25 mm" in err and "bad.yaml" in err


def test_rollers_chips_and_markers_as_the_rules_count_them():
    doc = load("rollers-chips").doc
    pages = render_pages(load("rollers-chips"), Options())
    ids = Counter(re.sub(r"\.\d+$", "", it.id) for p in pages for it in p.items if getattr(it, "id", ""))
    assert ids["chip.purple"] == 50 and ids["chip.white"] == 25  # 10 and 5 for each of 5 players
    assert [ids[f"marker.{m.id}"] for m in doc.content.markers] == [15] * 5
    assert [ids[f"point.{m.id}"] for m in doc.content.markers] == [5] * 5
    assert len({(m.colour, m.icon) for m in doc.content.markers}) == 5
    assert len({m.icon for m in doc.content.markers}) == 5  # not colour alone


def test_a_die_with_a_value_twice_is_refused(tmp_path):
    err = edit_error(tmp_path, "roll-dice", "{value: 2, name: Arm, icon: cookie_arm}",
                     "{value: 1, name: Arm, icon: cookie_arm}")
    assert "values 1 to 6" in err and "bad.yaml" in err


def test_a_paper_die_with_seven_sides_is_refused(tmp_path):
    err = edit_error(tmp_path, "paper-dice", "{id: d8, name: d8, sides: 8,", "{id: d8, name: d8, sides: 7,")
    assert "4, 8, 10, 12 or 20" in err and "sides" in err
