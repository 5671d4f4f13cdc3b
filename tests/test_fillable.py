"""--fillable: AcroForm fields read back with pypdf, one per writable element (and name line),
each exactly over its element, in play order; a Tricky Treats sheet filled and rendered."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from pypdf import PdfReader, PdfWriter

from sheetgen import api
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import Box, Circle, Line, walk


PT = 72 / 25.4
FILL = Options(fillable=True)


def _expected(name: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(element id, rect in PDF points) of every writable element and name line of the scene."""
    out = []
    for page in render_pages(load(name), Options()):
        for it, dx, dy in walk(page.items):
            if isinstance(it, Circle) and it.writable:
                x0, y0, x1, y1 = it.cx - it.r, it.cy - it.r, it.cx + it.r, it.cy + it.r
            elif isinstance(it, Box) and it.writable:
                x0, y0, x1, y1 = it.x, it.y, it.x + it.w, it.y + it.h
            elif isinstance(it, Line) and it.id == "name.line":
                x0, x1, y1 = it.points[0][0], it.points[-1][0], it.points[0][1]
                y0 = y1 - 5.5
            else:
                continue
            h = page.height
            out.append((it.id, ((x0 + dx) * PT, (h - y1 - dy) * PT, (x1 + dx) * PT, (h - y0 - dy) * PT)))
    return out


def _widgets(path):
    """(tooltip = element id, field type, rect) of every widget, page by page in /Annots order."""
    out = []
    for page in PdfReader(path).pages:
        for ref in page.get("/Annots", []):
            a = ref.get_object()
            out.append((a["/TU"], a["/FT"], tuple(float(v) for v in a["/Rect"])))
    return out


@pytest.fixture(scope="module")
def tricky(tmp_path_factory):
    return api.render("tricky-treats", tmp_path_factory.mktemp("f") / "tt.pdf", FILL).path


@pytest.mark.parametrize("name", ["tricky-treats", "haunt-the-block", "gingerbread-status",
                                  "roll-score-pad", "boogaloo"])
def test_one_field_exactly_over_each_writable_element(name, tmp_path):
    path = tricky_path = api.render(name, tmp_path / "f.pdf", FILL).path
    got = _widgets(tricky_path)
    want = _expected(name)
    assert len(got) == len(want) == len(PdfReader(path).get_fields())
    rects = {}
    for eid, rect in want:
        rects.setdefault(eid, []).append(rect)
    for eid, _, rect in got:  # each field is over one element with its id, to 0.01 pt
        assert any(all(abs(a - b) < 0.01 for a, b in zip(rect, r)) for r in rects[eid]), eid


def test_boxes_and_circles_are_checkboxes_numbers_and_names_text(tricky):
    kinds = {eid: ft for eid, ft, _ in _widgets(tricky)}
    assert kinds["child.skeleton.box.1"] == kinds["stash.gumball.3"] == "/Btn"
    assert kinds["child.zombie.scare.3"] == kinds["track.turn.16"] == "/Btn"
    assert kinds["name.line"] == kinds["score.total"] == kinds["score.stash"] == "/Tx"


def test_tab_order_follows_play(tricky):
    order = [eid for eid, _, _ in _widgets(tricky)]
    assert order[0] == "name.line" and order[1] == "child.skeleton.box.1"
    first = {p: next(i for i, e in enumerate(order) if e.startswith(p))
             for p in ("child.", "stash.", "child.skeleton.scare", "cauldron.", "boonus.", "track.",
                       "score.")}
    assert list(first.values()) == sorted(first.values())  # collect, stash, scare, ..., score
    assert order[-1] == "score.total"


def test_filled_sheet_reads_back_and_renders(tricky, tmp_path):
    names = {a["/TU"]: a["/T"] for p in PdfReader(tricky).pages for a in
             (r.get_object() for r in p["/Annots"])}
    values = {names["name.line"]: "Ada", names["child.witch.box.3"]: "/Yes",
              names["stash.lollipop.1"]: "/Yes", names["child.vampire.scare.1"]: "/Yes",
              names["score.total"]: "42"}
    writer = PdfWriter(clone_from=tricky)
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
    filled = tmp_path / "filled.pdf"
    writer.write(filled)
    fields = PdfReader(filled).get_fields()
    assert {k: fields[k].get("/V") for k in values} == values
    assert fields[names["stash.lollipop.2"]].get("/V") in (None, "/Off")
    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils not installed: filled values checked, not rendered")
    from PIL import Image, ImageStat

    for pdf, stem in ((tricky, "empty"), (filled, "filled")):
        subprocess.run(["pdftoppm", "-png", "-r", "40", "-singlefile", str(pdf), str(tmp_path / stem)],
                       check=True)
    empty, full = (Image.open(tmp_path / f"{s}.png").convert("L") for s in ("empty", "filled"))
    page = PdfReader(tricky).pages[0]
    scale = 40 / 72

    def ink(img, eid):
        r = next(a["/Rect"] for a in (x.get_object() for x in page["/Annots"]) if a["/TU"] == eid)
        x0, y0, x1, y1 = (float(v) * scale for v in r)
        h = float(page.mediabox.height) * scale
        box = img.crop((int(x0) + 1, int(h - y1) + 1, int(x1) - 1, int(h - y0) - 1))
        return 255 - ImageStat.Stat(box).mean[0]  # mean darkness inside the field

    for eid in ("stash.lollipop.1", "child.vampire.scare.1", "score.total"):
        assert ink(full, eid) > ink(empty, eid) + 8, eid  # the mark or number is drawn
    assert abs(ink(full, "stash.lollipop.2") - ink(empty, "stash.lollipop.2")) < 1


def test_fillable_refused_where_it_does_not_apply(tmp_path, main):
    out = tmp_path / "x.pdf"
    done = main("render", "special-treat-cards", "--fillable", "--out", str(out))
    assert done.returncode == 2 and not out.exists()
    assert len(done.stderr.strip().splitlines()) == 1 and "--fillable" in done.stderr
