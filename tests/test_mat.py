"""The game mat and the meeples: tiles placed by their crosses rebuild the poster, page sizes and
counts of the PDFs, the deck/mat check at load, and the kit taking both."""

from __future__ import annotations

import pytest

from conftest import LAYOUTS, edit_error, page_mm
from pdfs import page_texts
from sheetgen import api
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import Box, Circle, Group, Icon, Line, walk

MAT = "run-for-your-life-mat"


def scene(name: str, **given):
    opts = Options(**given)
    return render_pages(load(name, opts), opts)


def centres(page) -> dict[int, tuple[float, float]]:
    """Space number -> centre on the page, for every space whose centre the page's clip shows."""
    out = {}
    for it in page.items:
        clip = it.clip if isinstance(it, Group) and it.clip else None
        for prim, dx, dy in walk([it]):
            if isinstance(prim, Circle) and prim.id.startswith("space.") and prim.id.count(".") == 1:
                x, y = prim.cx + dx, prim.cy + dy
                if clip:
                    cx, cy, cw, ch = clip[0] + it.dx, clip[1] + it.dy, clip[2], clip[3]
                    if not (cx <= x <= cx + cw and cy <= y <= cy + ch):
                        continue  # on another tile
                out[int(prim.id.split(".")[1])] = (x, y)
    return out


def marks(page) -> dict[str, tuple[float, float]]:
    """Alignment cross id -> its centre on the page (the middle of its horizontal stroke)."""
    return {it.id: ((it.points[0][0] + it.points[1][0]) / 2, it.points[0][1])
            for it, dx, dy in walk(page.items) if isinstance(it, Line) and it.id.startswith("cross.")}


@pytest.mark.parametrize("name", [MAT, f"{MAT}-letter"])
def test_tiles_placed_by_their_crosses_rebuild_the_poster_within_half_a_mm(name):
    poster = centres(scene(name, poster="a2")[0])
    tiles = scene(name)[1:]
    names = [p.label.split()[-1] for p in tiles]
    place = {names[0]: (0.0, 0.0)}  # A1 where it is printed; the others laid on it by the crosses
    crosses = {n: marks(p) for n, p in zip(names, tiles)}
    while len(place) < len(tiles):
        before = len(place)
        for n in names:
            if n in place:
                continue
            for m, (ox, oy) in list(place.items()):
                shared = crosses[n].keys() & crosses[m].keys()
                if shared:
                    k = sorted(shared)[0]
                    (ax, ay), (bx, by) = crosses[m][k], crosses[n][k]
                    place[n] = (ox + ax - bx, oy + ay - by)
                    break
        assert len(place) > before, "some tiles share no cross with the others"
    a1 = next(it for it, _, _ in walk(tiles[0].items) if it.id == "tile.A1.window")
    seen: dict[int, list] = {}
    for n, page in zip(names, tiles):
        ox, oy = place[n]
        for i, (x, y) in centres(page).items():
            seen.setdefault(i, []).append((x + ox - a1.x, y + oy - a1.y))
    assert sorted(seen) == sorted(poster)  # every space on some tile
    worst = max(abs(x - poster[i][0]) + abs(y - poster[i][1]) for i, pts in seen.items() for x, y in pts)
    assert worst <= 0.5
    # the poster's frame starts at its margin: the offset is real, so compare against it too
    assert poster[0][0] > 100 and poster[65][1] < 100


def test_pdf_page_sizes_and_counts(tmp_path):
    a4 = api.render(MAT, tmp_path / "a4.pdf").path
    assert page_mm(a4) == [(210.0, 297.0)] * 9  # the map and 2 x 4 tiles
    letter = api.render(f"{MAT}-letter", tmp_path / "l.pdf").path
    assert page_mm(letter) == [(215.9, 279.4)] * 9
    big = api.render(MAT, tmp_path / "p.pdf", Options(poster="a2")).path
    assert page_mm(big) == [(594.0, 420.0)]
    a3 = api.render(MAT, tmp_path / "a3.pdf", Options(poster="a3", tiles=True)).path
    assert page_mm(a3) == [(297.0, 210.0)] * 5  # landscape A4 holds an A3 poster in 2 x 2
    text = page_texts(a4)[1]
    assert "Tile A1" in text and "GLUE" in text
    assert "how to put it together" in page_texts(a4)[0]


def test_mat_shows_every_kind_of_space():
    page = scene(MAT, poster="a3")[0]
    ids = [it.id for it, _, _ in walk(page.items)]
    assert sum(i.startswith("space.") and i.count(".") == 1 for i in ids) == 66
    assert sum(i.endswith(".burst") for i in ids) == 3
    assert ids.count("bridge") == 3 and "zone" in ids and "finish.border" in ids


def test_a_candy_missing_from_the_mat_is_refused_at_load(tmp_path):
    bad = tmp_path / "zone.yaml"
    bad.write_text((LAYOUTS / f"{MAT}.yaml").read_text().replace("danger_zone: 9", "danger_zone: 10"))
    with pytest.raises(SheetgenError, match="space 55"):  # the swirl must move with the zone
        load(bad)
    text_err = edit_error(tmp_path, MAT, "{character: sweet_toof}", "{candy: jujube}")
    assert "character 'sweet_toof'" in text_err and "content.path" in text_err


def test_meeples_six_colours_six_icons_and_spares(tmp_path):
    page, = scene("gingerbread-meeples")
    outlines = [it.id for it, _, _ in walk(page.items) if isinstance(it, Box) and it.id.endswith(".outline")]
    assert len(outlines) == 12 and sum(o.startswith("spare.") for o in outlines) == 6
    icons = {it.name for it, _, _ in walk(page.items) if isinstance(it, Icon)}
    assert len(icons) == 6
    assert page_mm(api.render("gingerbread-meeples-letter", tmp_path / "m.pdf").path) == [(215.9, 279.4)]


def test_a_mat_that_disagrees_with_its_deck_loads_but_is_not_drawn(tmp_path):
    from sheetgen.games.run_for_your_life.race_validate import legality

    bad = tmp_path / "toof.yaml"
    bad.write_text((LAYOUTS / f"{MAT}.yaml").read_text().replace("{character: sweet_toof}", "{candy: jujube}", 1))
    loaded = load(bad)  # the model has no deck check, and no switch to turn one off
    faults = legality(str(bad))
    assert faults[0].startswith("no space on the path shows character 'sweet_toof'")
    with pytest.raises(SheetgenError) as exc:
        render_pages(loaded, Options())
    assert exc.value.message == faults[0] and exc.value.key == "content.path" and exc.value.line


def meeple_outlines(path, **opts) -> list[list[str]]:
    """The cut outline of each meeple, page by page."""
    pages = render_pages(load(path), Options(**opts))
    return [[it.id for it, _, _ in walk(p.items) if isinstance(it, Box) and it.id.endswith(".outline")]
            for p in pages]


def test_meeples_are_packed_onto_pages_and_printed_copies_times(tmp_path):
    (one,) = meeple_outlines(LAYOUTS / "gingerbread-meeples.yaml")
    assert len(one) == 12 and one[:6] == [f"meeple.{c}.1.outline" for c in
                                         ("red", "blue", "green", "yellow", "purple", "orange")]
    two = meeple_outlines(LAYOUTS / "gingerbread-meeples.yaml", copies=2)
    assert [len(p) for p in two] == [15, 9]  # five rows of three fill an A4 page
    flat = [o for p in two for o in p]
    assert sum(o.startswith("meeple.") for o in flat) == 12 and sum(o.startswith("spare.") for o in flat) == 12
    assert flat[12] == "spare.red.1.outline" and len(set(flat)) == 24
    big = tmp_path / "big.yaml"  # the largest meeples the model allows, on Letter
    big.write_text(f"extends: {LAYOUTS / 'gingerbread-meeples.yaml'}\n"
                   "layout: {paper: letter, width: 40, height: 50, tab: 20}\n")
    assert [len(p) for p in meeple_outlines(big)] == [6, 6]  # three rows of two, then a new page


def test_the_kit_takes_the_mat_and_the_meeples():
    from sheetgen.kit import components

    kinds = [c.kind for c in components("run-for-your-life")]
    assert "run-for-your-life-mat" in kinds and "gingerbread-meeples" in kinds


@pytest.mark.parametrize("name", [MAT, f"{MAT}-letter"])
def test_crosses_cover_no_poster_text_and_the_poster_is_linted_whole(name):
    """The lint skips the seam marks over a tile's art (a layer), so the crosses keep off the
    poster's text themselves; the whole poster is linted as one page instead."""
    from sheetgen.games.run_for_your_life.mat import poster_items
    from sheetgen.lint import bounds, touching
    from sheetgen.scene import Page, Text

    pages = scene(name)
    checked = 0
    for page in pages[1:]:
        art = page.items[0]
        assert isinstance(art, Group) and art.layer
        texts = [bounds(it, dx, dy) for it, dx, dy in walk([art]) if isinstance(it, Text)]
        for x, y in marks(page).values():
            checked += 1
            assert all(x + 3 <= a or x - 3 >= c or y + 3 <= b or y - 3 >= d for a, b, c, d in texts)
    assert checked >= 20
    doc = load(name).doc
    for size in ("a1", "a2", "a3"):
        geo, items = poster_items(doc, size)
        assert touching(Page(geo.width, geo.height, items)) == []
