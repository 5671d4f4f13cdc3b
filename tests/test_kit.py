"""Kits parsed as PDFs: bookmarks, page counts, contents numbers, paper sizes, determinism.

The kits are those of one `sheetgen build` per session (conftest's `build_out`), which makes them
in parallel from component drawings it shares. Expectations come from the same discovery the kits
use (kit.components), rendered here part by part, so the tests hold whichever components the
layouts folder holds."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import lru_cache

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from sheetgen import kit
from sheetgen.cli import app
from sheetgen.draw import pdf_bytes
from sheetgen.kinds import Options, load, render_pages
from sheetgen.paper import MM, PAPER_MM

PRODUCTS = ["ghosts-love-candy-too", "run-for-your-life", "roll-for-your-life", "roll-and-fight",
            "rollers"]
CASES = [(p, "a4") for p in PRODUCTS] + [(p, "letter") for p in PRODUCTS]
# The page-by-page check (each part rendered on its own and its first page's text compared) on
# Letter for the kits whose parts paginate differently there, so a kit numbered from its A4 parts
# fails; the other Letter kits paginate as on A4: their bookmarks are held to the A4 kit's, their
# paper and cover by the tests below.
PAGE_CASES = [(p, "a4") for p in PRODUCTS] + [("run-for-your-life", "letter"), ("roll-for-your-life", "letter")]


@pytest.fixture(scope="module")
def reader(build_out):
    """reader(product, paper): the kit (copies 1) that `sheetgen build` made, parsed once."""
    return lru_cache(maxsize=None)(
        lambda product, paper: PdfReader(build_out / kit.default_name(product, paper)))


def outline(r: PdfReader) -> list[tuple[int, str, int]]:
    """(depth, title, 1-based page) of every bookmark, in order."""
    out = []

    def walk(items, depth):
        for it in items:
            if isinstance(it, list):
                walk(it, depth + 1)
            else:
                out.append((depth, it.title, r.get_destination_page_number(it) + 1))
    walk(r.outline, 0)
    return out


def texts(pdf, numbers) -> list[str]:
    """The text of the given pages (1-based) of a PDF (path or bytes), as PDFium reads it: for the
    page-by-page comparisons, where pypdf took most of this module's time (it parses every font of
    every icon form again on each page)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[n - 1].get_textpage().get_text_range() for n in numbers]
    finally:
        doc.close()


@lru_cache(maxsize=None)
def expected_parts(product: str, paper: str) -> list[tuple[str, int, str]]:
    """(title, pages, first page text) of each component, rendered here on its own."""
    out = []
    for c in kit.components(product):
        copies = 1
        opts = Options(paper=paper, copies=copies, game=c.game)
        pages = render_pages(load(c.path, opts), opts)
        out.append((c.title, len(pages), texts(pdf_bytes(pages, c.title), [1])[0]))
    return out


def test_every_product_of_the_brief_is_discovered():
    assert set(PRODUCTS) <= set(kit.products())
    for product in PRODUCTS:
        assert kit.components(product), f"{product} has no components"


def test_reprints_are_not_components_but_a_layout_extending_another_is():
    used = {c.path.name for p in kit.products() for c in kit.components(p)}
    reprints = {p.name for p in kit.known_layouts() if re.search(r"^reprint: true$", p.read_text(), re.M)}
    assert {"tricky-treats-letter.yaml", "gingerbread-status-ink-saver.yaml"} <= reprints
    assert not used & reprints
    extending = {p.name for p in kit.known_layouts() if re.search(r"^extends:", p.read_text(), re.M)}
    assert extending - reprints == {"cookie-spares.yaml"} and "cookie-spares.yaml" in used


@pytest.mark.parametrize("product,paper", PAGE_CASES)
def test_kit_pages_bookmarks_and_contents(product, paper, reader, build_out):
    r = reader(product, paper)
    marks = outline(r)
    games = [g for g in kit.rules_games() if g.product == product]
    parts = expected_parts(product, paper)
    # bookmarks: cover, contents, rules (one per game, in order), then one per component
    # (kits put double-sided parts last, so components are compared as a set)
    assert [t for _, t, _ in marks[:3 + len(games)]] == ["Cover", "Contents", "Rules",
                                                         *[g.name for g in games]]
    assert marks[0] == (0, "Cover", 1) and marks[1][:2] == (0, "Contents") and marks[1][2] >= 2
    assert marks[3 + len(games)][:2] == (0, "Components")
    comps = marks[4 + len(games):]
    by_title = {t: (n, text) for t, n, text in parts}
    assert len(by_title) == len(parts) and sorted(t for _, t, _ in comps) == sorted(by_title)
    rules = [p for _, _, p in marks[3:3 + len(games)]]
    assert rules[0] == marks[2][2] > marks[1][2] and rules == sorted(rules)
    for g, page in zip(games, rules):
        text = r.pages[page - 1].extract_text()
        assert g.name in text and "rules" in text.lower()
    # page count: front (cover + contents + rules) plus every part rendered on its own
    front = comps[0][2] - 1
    assert front >= 2 + len(games)
    assert len(r.pages) == front + sum(n for _, n, _ in parts)
    # each component bookmark points at that component's own first page, parts back to back
    start = front + 1
    kit_texts = texts(build_out / kit.default_name(product, paper), [page for _, _, page in comps])
    for (depth, title, page), text in zip(comps, kit_texts):
        n, first_text = by_title[title]
        assert depth == 1 and page == start, title
        assert text == first_text, title
        start += n
    # the contents page lists the same page numbers as the bookmarks
    contents = r.pages[marks[1][2] - 1].extract_text(extraction_mode="layout")  # as laid out
    listed = [(t, int(n)) for t, n in re.findall(r"^\s*(\S.*?)[\s.]{2,}(\d+)\s*$", contents, re.M)
              if "print-and-play kit" not in t]  # not the page's footer
    assert listed == [(t, p) for d, t, p in marks if t not in ("Rules", "Components")]


@pytest.mark.parametrize("product", [p for p in PRODUCTS if (p, "letter") not in PAGE_CASES])
def test_letter_kit_bookmarks_are_the_a4_kits(product, reader):
    letter, a4 = reader(product, "letter"), reader(product, "a4")
    assert len(letter.pages) == len(a4.pages), f"{product} paginates differently on Letter: add it to PAGE_CASES"
    assert outline(letter) == outline(a4)


@pytest.mark.parametrize("product,paper", CASES)
def test_kit_pages_are_on_the_chosen_paper(product, paper, reader):
    w, h = PAPER_MM[paper]
    for page in reader(product, paper).pages:
        size = sorted((round(float(page.mediabox.width) / MM, 1), round(float(page.mediabox.height) / MM, 1)))
        assert size == sorted((w, h))


@pytest.mark.parametrize("product", PRODUCTS)
def test_cover_says_what_to_print_and_how(product, reader):
    r = reader(product, "a4")
    text = " ".join(r.pages[0].extract_text().split())
    assert "100 % scale" in text and "A4" in text
    for title, _, _ in expected_parts(product, "a4"):
        assert title in text
    games = [g for g in kit.rules_games() if g.product == product]
    for g in games:
        assert g.players in text and g.time in text
    duplex = re.findall(r"Pages (\d+)–(\d+): double-sided, flip on the long edge", text)
    marks = outline(r)
    if any(t.startswith("Rules cards") for _, t, _ in marks):
        assert duplex, "cards with backs must be printed double-sided"
        first, last = map(int, duplex[0])
        assert last == len(r.pages)  # double-sided parts come last, in one range
    letter = " ".join(reader(product, "letter").pages[0].extract_text().split())
    assert "US Letter" in letter
    fonts = {str(f.get_object()["/BaseFont"]) for f in r.pages[0]["/Resources"]["/Font"].values()}
    assert fonts and all("+Sheetgen-Lato" in f for f in fonts), fonts  # the bundled files (a family name no system font has), subset


def test_same_options_give_the_same_bytes_across_processes(tmp_path, build_out):
    out = tmp_path / "rf.pdf"
    subprocess.run([sys.executable, "-m", "sheetgen", "kit", "roll-and-fight", "--paper", "a4",
                    "--copies", "1", "--out", str(out)], check=True, capture_output=True)
    # `sheetgen kit` in a fresh process, `kit.make` here and the parallel build: the same bytes
    assert out.read_bytes() == kit.merge(kit.make("roll-and-fight", "a4", 1))
    assert out.read_bytes() == (build_out / "roll-and-fight-kit.pdf").read_bytes()


def test_back_pages_are_flagged_and_make_a_part_double_sided():
    """A part prints double-sided when its pages carry backs: the flagged pages are exactly those
    that --no-backs leaves out, and a sheet without backs has none."""
    seen = set()
    for c in kit.components("ghosts-love-candy-too"):
        part, pages = kit.component_pages(c, "a4", 1)
        fronts = render_pages(load(c.path, Options(paper="a4")),
                              Options(paper="a4", game=c.game, backs=False))
        flagged = [p for p in pages if p.back]
        assert part.duplex == bool(flagged), c.title
        assert len(fronts) == len(pages) - len(flagged), c.title
        if flagged:  # each back follows its page of fronts
            assert all(not pages[i - 1].back for i, p in enumerate(pages) if p.back), c.title
        seen.add(part.duplex)
    assert seen == {True, False}


def test_copies_multiply_sheets_but_not_boards_or_cards():
    parts = [(kit.render_component(c, "a4", 1), kit.render_component(c, "a4", 2))
             for c in kit.components("run-for-your-life")]
    for one, two in parts:
        if two.copies == 2:
            assert two.pages > one.pages, two.title
        else:
            assert two.pages == one.pages, two.title
    assert {two.copies for _, two in parts} == {1, 2}


def test_unknown_product_is_a_one_line_error():
    result = CliRunner().invoke(app, ["kit", "monopoly"])
    assert result.exit_code == 2
    assert "no product named 'monopoly'" in result.output and "rollers" in result.output
