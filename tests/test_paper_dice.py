"""Roll & Fight paper dice: the drawn nets have exact edges, numbers as on real dice, no face on
top of another, and as many nets as the layout says (counted in the PDF)."""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest

from sheetgen import api
from sheetgen.solids import _overlap, numbering, solid
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import Line, walk

from pdfs import open_pdf

LAYOUT = "paper-dice"


@pytest.fixture(scope="module")
def doc():
    return load(LAYOUT).doc


@pytest.fixture(scope="module")
def faces(doc):
    """(die id, set, value) -> the face polygon as drawn, in page mm."""
    out = {}
    for page in render_pages(load(LAYOUT), Options()):
        for it, dx, dy in walk(page.items):
            m = re.fullmatch(r"net\.(\w+)\.(\d+)\.face\.(\d+)", it.id or "")
            if m and isinstance(it, Line):
                out[(m[1], int(m[2]), int(m[3]))] = [(x + dx, y + dy) for x, y in it.points]
    return out


def test_every_drawn_edge_has_its_true_length_to_a_tenth_of_a_mm(doc, faces):
    dice = {d.id: d for d in doc.content.dice}
    assert len(faces) == doc.content.sets * sum(d.sides for d in dice.values())
    for (die_id, _, value), poly in faces.items():
        die = dice[die_id]
        s = solid(die.sides)
        f = numbering(die.sides).index(value)
        true = [s.length(a, b) * die.edge for a, b in s.edges(f)]
        drawn = [math.dist(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
        assert len(drawn) == len(true) == {4: 3, 8: 3, 20: 3, 10: 4, 12: 5}[die.sides]
        assert max(abs(a - b) for a, b in zip(drawn, true)) < 0.1, (die_id, value, drawn)
        if die.sides != 10:  # regular faces: every edge the same
            assert max(drawn) - min(drawn) < 0.1 and abs(drawn[0] - die.edge) < 0.1
        else:  # kites: two short edges of `edge`, two long ones
            assert sorted(round(d, 1) for d in drawn)[:2] == [die.edge, die.edge]


def test_opposite_faces_sum_as_on_real_dice():
    for sides, total in ((6, 7), (8, 9), (12, 13), (20, 21)):
        s, values = solid(sides), numbering(sides)
        assert sorted(values) == list(range(1, sides + 1))
        for f in range(sides):
            g = s.opposite[f]
            assert g is not None and values[f] + values[g] == total
            assert len(s.neighbours(f)) == len(s.faces[f])  # each edge shared with one face
    assert solid(4).opposite == (None,) * 4


def test_d10_reads_0_to_9_and_the_d10_percent_00_to_90(doc, faces):
    dice = {d.id: d for d in doc.content.dice}
    s, values = solid(10), numbering(10)
    assert sorted(values) == list(range(1, 11))
    for die_id, total in (("d10", 9), ("d10p", 90)):
        die = dice[die_id]
        labels = [int(die.label(v).rstrip(".")) for v in values]
        assert sorted(labels) == [k * total // 9 for k in range(10)]
        assert {labels[f] + labels[s.opposite[f]] for f in range(10)} == {total}


def test_faces_of_a_net_never_overlap(faces):
    nets: dict = {}
    for (die_id, n, _), poly in faces.items():
        nets.setdefault((die_id, n), []).append(np.array(poly))
    for polys in nets.values():
        for i, p in enumerate(polys):
            assert not any(_overlap(p, q, tol=1e-3) for q in polys[i + 1:])


def test_pdf_holds_one_net_per_die_and_set(doc, tmp_path):
    out = api.render(LAYOUT, tmp_path / "dice.pdf", Options()).path
    with open_pdf(out) as pdf:
        words = Counter(w["text"] for p in pdf.pages for w in p.extract_words())
    for die in doc.content.dice:
        assert words[die.name] == doc.content.sets, die.name


def test_d4_prints_each_corner_value_on_the_three_faces_that_meet_there():
    pages = render_pages(load(LAYOUT), Options())
    corners = Counter()
    faces: dict[str, set] = {}
    for page in pages:
        for it, dx, dy in walk(page.items):
            m = re.fullmatch(r"net\.d4\.1\.face\.(\d)\.corner\.(\d)", it.id or "")
            if m:
                corners[m[2]] += 1
                faces.setdefault(m[1], set()).add(m[2])
    assert corners == {str(v): 3 for v in range(1, 5)}
    assert all(len(v) == 3 for v in faces.values()) and len(faces) == 4


def test_same_layout_gives_the_same_pdf(tmp_path):
    a = api.render(LAYOUT, tmp_path / "a.pdf", Options()).path.read_bytes()
    b = api.render(LAYOUT, tmp_path / "b.pdf", Options()).path.read_bytes()
    assert a == b
