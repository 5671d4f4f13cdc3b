"""Issue 19's print defects, checked on the PDFs and scenes: one title size per Dash N Bash deck,
Special Treat text right under its divider, the lower lollipop of a card back turned over."""

from __future__ import annotations

import pytest

from sheetgen import api
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import Icon, walk

from pdfs import open_pdf

MM = 72 / 25.4


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("decks")
    return {n: api.render(n, tmp / f"{n}.pdf").path
            for n in ("dash-n-bash", "special-treat-cards")}


def test_dash_n_bash_titles_share_one_size(decks):
    with open_pdf(decks["dash-n-bash"]) as pdf:
        sizes = {round(w["size"], 2) for page in pdf.pages[0::2]
                 for w in page.extract_words(extra_attrs=["size", "fontname"])
                 if w["fontname"].endswith("Lato-Bold") and w["text"] != "Attacking?"}
        text = " ".join(p.extract_text() for p in pdf.pages[0::2])
    assert "Peppermint Swirl + Gumball" in text  # the longest title is there, in full
    assert len(sizes) == 1 and 9.5 <= sizes.pop() <= 12.5


def test_special_treat_text_starts_under_the_divider(decks):
    with open_pdf(decks["special-treat-cards"]) as pdf:
        gaps = []
        for page in pdf.pages[0::2]:
            words = page.extract_words()
            for ln in page.lines:
                if abs(ln["top"] - ln["bottom"]) > 0.01 or abs(ln["linewidth"] - 0.25 * MM) > 0.01:
                    continue
                below = [w["top"] for w in words if ln["x0"] - 1 <= w["x0"] <= ln["x1"]
                         and w["top"] > ln["top"]]
                gaps.append((min(below) - ln["top"]) / MM)
    assert len(gaps) == 44 and max(gaps) < 4.0, max(gaps)


def test_the_lower_icon_of_a_card_back_is_upside_down():
    pages = render_pages(load("special-treat-cards"), Options())
    cards = [g for g in pages[1].items[0].items if g.id.endswith(".back")]
    assert len(cards) == 8
    for card in cards:
        icons = sorted((it.cy, it.rotate) for it, _, _ in walk(card.items) if isinstance(it, Icon))
        assert [r for _, r in icons] == [0.0, 180.0]  # upper upright, lower turned over


def test_lint_catches_text_touching_another_element():
    from sheetgen.lint import problems
    from sheetgen.scene import Box, Circle, Page, Text

    page = Page(210, 297)
    page.add(Box(20, 20, 30, 10), Text(22, 27, "inside its box", 8))  # a label: fine
    page.add(Text(60, 50, "runs into the circle", 8, id="t"), Circle(85, 49, 3, id="c"))
    assert [p for p in problems(page) if "touches" in p] == ["t: text touches c at (82.0,47.9)"]
    page.items[-1] = Circle(95, 49, 3, id="c")  # clear of the text
    assert not [p for p in problems(page) if "touches" in p]


def test_lint_follows_the_real_shape_of_lines_and_circles():
    from sheetgen.lint import problems
    from sheetgen.scene import Circle, Group, Line, Page, Style, Text

    def touches(*items):
        page = Page(210, 297)
        page.add(*items)
        return [p for p in problems(page) if "touches" in p]

    tri = Line(((20, 60), (60, 60), (40, 25)), closed=True, id="tri")
    label = Text(40, 55, "4", 10, align="center", id="label")  # inside the triangle
    assert touches(tri, label) == []
    # the neighbour triangle, point down, shares the edge (60,60)-(40,25): its box holds the label
    # too, but none of its segments meets it
    twin = Line(((40, 25), (80, 25), (60, 60)), closed=True, id="twin")
    assert touches(tri, twin, label) == []
    across = Text(33, 44, "crossing the edge", 8, id="across")  # runs over the right-hand edge
    assert touches(tri, across) == ["across: text touches tri at (33.0,41.9)"]
    diagonal = Line(((100, 100), (140, 140)), id="diag")
    assert touches(diagonal, Text(105, 122, "over the line", 8, id="t")) == [
        "t: text touches diag at (105.0,119.9)"]
    assert touches(diagonal, Text(101, 135, "under it", 8, id="t")) == []  # in its box, off the line
    # a line's width counts: this text clears the centre line by 0.2 mm, a 1 mm line reaches it
    flat = Text(100, 150, "under a flat line", 8, id="t")
    top = 150 - 8 * 0.75 / 2.834645669 - 0.2
    thick = Line(((95, top), (160, top)), Style(width=1.0), id="thick")
    assert touches(Line(((95, top), (160, top)), Style(width=0.1)), flat) == []
    assert touches(thick, flat) == ["t: text touches thick at (100.0,147.9)"]
    # a circle's box corner is not the circle
    corner = Text(60, 230, "corner", 8, id="t")
    assert touches(corner, Circle(74, 237, 8)) == []  # boxes overlap, the circle passes 0.75 mm off
    assert touches(corner, Circle(72, 236, 8, id="c")) == ["t: text touches c at (64.0,228.0)"]
    # a road drawn under a filled disc does not reach the disc's number; over an unfilled ring it does
    road, num = Line(((150, 200), (150, 260)), id="road"), Text(150, 218, "12", 8, align="center", id="n")
    assert touches(road, Circle(150, 220, 10, Style(fill="#ffffff")), num) == []
    assert touches(road, Circle(150, 220, 10), num) == ["n: text touches road at (149.8,215.9)"]
    # a layer (a poster window) is linted on its own: the seam drawn over it crosses its art
    seam = Line(((148, 150), (148, 190)), id="seam")
    assert touches(Group((Text(140, 170, "poster", 8, id="p"),), layer=True), seam) == []
    assert touches(Group((Text(140, 170, "poster", 8, id="p"),)), seam) == ["p: text touches seam at (147.8,167.9)"]


@pytest.mark.parametrize("name", ["haunt-the-block", "haunt-the-block-letter"])
def test_haunt_the_block_stars_and_children(name):
    from sheetgen.lint import problems

    loaded = load(name)
    c = loaded.doc.content
    page = render_pages(loaded, Options())[0]
    assert not problems(page, loaded.doc.layout.margin)  # the subtitle clears the Boo-nus pumpkin
    ids = {it.id: it for it, _, _ in walk(page.items) if it.id}
    earnable = c.start_stars + len(c.thresholds) + sum(k.power == "star" for k in c.children)
    stars = [i for i in ids if i.startswith("stars.") and i[6:].isdigit()]
    assert earnable == 8 and len(stars) == 8
    named = {ids[f"path.{n + 1}.child"].text for n, sp in enumerate(c.path) if sp.child}
    assert named == {k.name for k in c.children}  # every child space shows its child


def test_haunt_the_block_rejects_too_few_star_circles(tmp_path):
    from conftest import edit_error

    err = edit_error(tmp_path, "haunt-the-block", "  stars: 8", "  stars: 6")
    assert "stars is 6 but 8 can be earned" in err and "stars: 8" in err


def _texts(name: str) -> str:
    from sheetgen.games.rules_cards.model import plain
    from sheetgen.scene import Para, Text

    page = render_pages(load(name), Options())[0]
    return " ".join(plain(it.markup) if isinstance(it, Para) else it.text
                    for it, _, _ in walk(page.items) if isinstance(it, (Para, Text)))


def test_tricky_treats_sheet_says_one_thing_about_stars_and_rewards():
    text = _texts("tricky-treats")
    assert text.count("Star:") == 1 and "Star: cross out any box under a child who is not scared" in text
    assert "Doubles: cross out any box under a child who is not scared" in text
    assert "as many checks as its number" not in text and "reach its needs number" in text


def test_rollers_board_reminder_comes_from_the_rules_cards():
    from sheetgen.games.rules_cards.source import summary
    from sheetgen.scene import Para

    page = render_pages(load("rollers-board"), Options())[0]
    reminders = {it.id: it.markup for it, _, _ in walk(page.items)
                 if isinstance(it, Para) and it.id.endswith(".collect")}
    assert len(reminders) == 5
    assert reminders["section.3.collect"] == summary("rollers", n=3, chips="3 chips")[0]
    assert all("has not closed" in m and "still open" not in m for m in reminders.values())


def test_status_sheet_parts_have_tear_lines_and_light_extended_boxes():
    from sheetgen.lint import bounds
    from sheetgen.scene import Box, Circle

    page = render_pages(load("gingerbread-status"), Options(per_page=1))[0]
    found = {it.id: (it, bounds(it, dx, dy)) for it, dx, dy in walk(page.items) if it.id}
    parts = ["head", "body", "left_arm", "right_arm", "left_leg", "right_leg"]
    tears = []
    for p in parts:
        part, pb = found[f"part.{p}"]
        tear, tb = found[f"part.{p}.tear"]
        assert tear.style.dash and tb[0] < pb[0] and tb[1] < pb[1] and tb[2] > pb[2] and tb[3] > pb[3]
        # a cookie, not rectangles: a round head, rounded limbs and body
        assert isinstance(part, Circle) if p == "head" else (isinstance(part, Box) and part.radius >= 7)
        tears.append(tb)
    for i, a in enumerate(tears):  # every part tears off on its own: no two tear lines cross
        for b in tears[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    ext = [it for it, _ in found.values() if it.id.startswith("part.") and it.id.endswith(".extended")]
    assert len(ext) == 12
    for box in ext:
        grey = int(box.style.fill[1:3], 16) / 255
        assert grey >= 0.85 and box.style.dash  # pencil shows on it; a pattern, not colour alone
