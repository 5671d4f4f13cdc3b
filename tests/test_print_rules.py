"""Every layout the project ships obeys the print rules on every page and renders byte-identically."""

from __future__ import annotations

import pytest

from sheetgen import api

from conftest import page_mm, sheetgen_here as sheetgen
from sheetgen.kinds import Options, known_layouts, load, render_pages
from sheetgen.lint import problems


@pytest.mark.parametrize("path", known_layouts(), ids=lambda p: p.stem)
def test_layout_obeys_print_rules(path):
    loaded = load(path)
    pages = render_pages(loaded, Options())
    found = [p for page in pages for p in problems(page, loaded.doc.layout.margin)]
    assert found == [], found[:10]


@pytest.mark.parametrize("path", known_layouts(), ids=lambda p: p.stem)
def test_same_layout_same_bytes(path, tmp_path):
    a = api.render(path, tmp_path / "a.pdf").path.read_bytes()
    b = api.render(path, tmp_path / "b.pdf").path.read_bytes()
    assert a == b


@pytest.mark.parametrize("name,pages", [("tricky-treats", 1), ("haunt-the-block", 1), ("boogaloo", 4)])
def test_sheets_landscape_on_a4_and_letter(name, pages, tmp_path):
    """A roll-and-write sheet is landscape A4; `--paper letter` and its -letter layout give Letter."""
    assert page_mm(api.render(name, tmp_path / "a4.pdf").path) == [(297.0, 210.0)] * pages
    out = tmp_path / "l.pdf"
    res = sheetgen("render", name, "--paper", "letter", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert f"({pages} page{'s' if pages > 1 else ''}," in res.stdout
    assert page_mm(out) == [(279.4, 215.9)] * pages
    assert page_mm(api.render(f"{name}-letter", tmp_path / "l2.pdf").path) == [(279.4, 215.9)] * pages
