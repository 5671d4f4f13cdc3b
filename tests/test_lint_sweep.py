"""The lint's sort-and-sweep search for overlapping rectangles finds exactly the pairs a full
text-by-element comparison finds, in the same order, and `touching` reports the same errors."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.lint import overlapping, touching
from sheetgen.scene import Box, Circle, Line, Page, Style, Text


def every_pair(box, rows, tol):
    """The reference: each text row against each element, the overlap test written plainly."""
    found = []
    for n in rows:
        for m in range(len(box)):
            a, b = box[n], box[m]
            if min(a[2], b[2]) - max(a[0], b[0]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol:
                found.append((int(n), m))
    return found


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("limit", [250_000, 7])  # 7: the texts are taken in halves
def test_sweep_finds_the_pairs_of_a_full_comparison(seed, limit):
    rng = np.random.default_rng(seed)
    n = 120
    x0 = rng.choice([rng.uniform(0, 100, n), rng.integers(0, 20, n).astype(float)], axis=0)
    y0 = rng.integers(0, 30, n).astype(float)  # many shared edges and equal starts
    w = rng.choice([0.0, 0.05, 0.3, 2.0, 10.0, 90.0], n)  # empty, at the tolerance, page-wide
    h = rng.choice([0.05, 1.0, 4.0, 40.0], n)
    box = np.column_stack([x0, y0, x0 + w, y0 + h])
    box[5] = box[9]  # the same rectangle twice
    rows = np.flatnonzero(rng.random(n) < 0.4)
    n_, m_ = overlapping(box, rows, 0.05, limit)
    got = list(zip(n_.tolist(), m_.tolist()))
    assert got == every_pair(box, rows, 0.05)
    assert len(got) > len(rows)  # the scenes do overlap (each text meets itself, and more)


def test_sweep_with_nothing_overlapping():
    box = np.array([[0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 3.0, 1.0], [1.0, 0.0, 2.0, 1.0]])  # edge to edge
    n, m = overlapping(box, np.array([0, 1]), 0.05)
    assert list(zip(n.tolist(), m.tolist())) == [(0, 0), (1, 1)]


def test_touching_on_a_crowded_page_reports_each_touch_in_page_order():
    page = Page(297, 210)
    for i in range(12):  # a row of labelled boxes and rings, each label well inside: fine
        x = 10 + 22 * i
        page.add(Box(x, 20, 20, 10, id=f"box.{i}"), Text(x + 2, 27, f"{i}", 8, id=f"label.{i}"),
                 Circle(x + 10, 50, 6, Style(fill="#ffffff"), id=f"ring.{i}"),
                 Text(x + 10, 52, f"{i}", 8, align="center", id=f"num.{i}"))
    page.add(Text(30, 29, "spills over the boxes", 8, id="spill"),  # from box.0's edge into box.2
             Line(((10, 80), (280, 80)), id="rule"), Text(100, 81, "on the rule", 8, id="ruled"),
             Text(150, 90, "clear of everything", 8, id="clear"))
    # each pair once, from the text drawn first; box.0 only meets spill at its edge
    assert touching(page) == ["label.1: text touches spill at (34.0,26.9)",
                              "spill: text touches box.1 at (32.0,26.9)",
                              "spill: text touches box.2 at (54.0,26.9)",
                              "ruled: text touches rule at (100.0,79.8)"]
