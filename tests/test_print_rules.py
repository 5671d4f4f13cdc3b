"""Every layout the project ships obeys the print rules on every page and renders byte-identically."""

from __future__ import annotations

import pytest

from sheetgen import api
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
