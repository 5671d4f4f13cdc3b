"""The rules text cut into two columns before layout (sheetgen.columns) and its use by kit.settle."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from sheetgen import columns, documents, kit

LINE = columns.TEXT * columns.LEADING * columns.PT


def test_forced_breaks_and_long_text_make_lines():
    assert columns.line_count("Roll.", 80) == 1
    assert columns.line_count("Roll.<br/> <b>Scare:</b> the other die.", 80) == 2
    text = "one two three four five six seven eight nine ten " * 6
    lines = columns.line_count(text, 40)
    assert lines > columns.line_count(text, 80) > 1
    # every line but the last is at most the measure wide: the words of one line do not fit 40 mm
    assert columns.width(text.strip(), "", columns.TEXT) > 40 * (lines - 1)


def test_a_long_word_is_hyphenated_to_fill_the_line():
    words = "a " * 20 + "extraordinarily"
    width = columns.width("a " * 20, "", columns.TEXT)
    # a little wider than the short words: the long word whole goes to the next line, but a
    # hyphenated piece of it fits on the first, and the rest makes the second
    assert columns.line_count(words, width + 3) == 2
    assert columns.line_count(words, width + columns.width("extraordinarily", "", columns.TEXT) + 1) == 1


def test_two_equal_sections_go_one_to_a_column():
    text = "Roll the dice. " * 40
    s = columns.split("", [("Goal", text), ("Turn", text)], "a4")
    assert [[(b.heading, b.text) for b in col] for col in s.columns] == [[("Goal", text)], [("Turn", text)]]
    measure = (210 - 30 - 7) / 2
    section = (columns.HEAD * columns.HEAD_LEADING * columns.PT + columns.HEAD_BELOW
               + columns.line_count(text, measure) * LINE)
    # the second column keeps the section's margin above, as CSS columns keep it
    assert s.height == pytest.approx(section + columns.HEAD_ABOVE + columns.SPARE)


def test_one_section_is_cut_after_a_sentence_or_a_forced_break():
    text = "<b>Open:</b> mark a space. " * 12 + "<br/> " + "<b>Close:</b> one more die. " * 12
    s = columns.split("Two dice.", [("Use the dice", text.strip())], "a4")
    first, second = s.columns
    assert first[0].needs and first[0].text == "Two dice." and first[1].heading == "Use the dice"
    assert len(second) == 1 and second[0].heading is None  # the section goes on, no heading again
    a, b = first[1].text, second[0].text  # cut after a sentence (a space) or at the <br/>
    assert text.strip() in (a + " " + b, a + "<br/>" + b)  # nothing lost, nothing added
    assert first[1].text.endswith(".") and second[0].text.lstrip().startswith("<b>")


def test_a_cut_never_opens_bold_in_one_column_and_closes_it_in_the_other():
    text = "<b>" + "Roll the dice. Then mark them. " * 30 + "</b>"
    for col in columns.split("", [("Goal", text)], "a4").columns:
        for b in col:
            assert b.text.count("<b>") == b.text.count("</b>")


def _kit(product: str, paper: str) -> kit.Kit:
    """A kit whose components are stand-ins (the front only needs their titles and pages)."""
    return kit.start(product, paper, 1, render=lambda c, p, n: kit.Part(c.title, 2, "component"))


def _count_layouts(monkeypatch) -> list:
    calls = []
    layout = documents.layout
    monkeypatch.setattr(documents, "layout", lambda html, *a: calls.append(html) or layout(html, *a))
    return calls


def test_the_cut_text_is_laid_out_once_in_two_columns_on_one_page(monkeypatch):
    k = _kit("roll-and-fight", "letter")
    calls = _count_layouts(monkeypatch)
    kit.settle(k)
    assert len(calls) == 1 and 'class="body split"' in calls[0]
    doc = documents.layout(calls[0])
    g = k.games[0].id
    page = next(p for p in doc.pages if f"part-rules-{g}" in p.anchors)
    (x1, y1, *_), (x2, y2, *_) = page.anchors[f"end-rules-{g}-1"], page.anchors[f"end-rules-{g}-2"]
    mm = 25.4 / 96
    assert x1 * mm < 15 + 89.45 < 15 + 89.45 + 7 < x2 * mm  # Letter: 15 mm margins, 7 mm gap
    assert abs(y1 - y2) * mm < 4 * LINE  # balanced to a few lines
    pdf = PdfReader(io.BytesIO(documents.pdf(doc)))
    words = pdf.pages[list(doc.pages).index(page)].extract_text()
    assert "Throwdown".upper() in words and "highest sum wins" in words.replace("\n", " ")


def test_columns_that_run_off_the_page_fall_back_to_weasyprints_balance(monkeypatch):
    monkeypatch.setattr(columns, "BOTTOM_MARGIN", 250.0)  # every column "ends below the margin"
    short = _kit("roll-and-fight", "a4")
    calls = _count_layouts(monkeypatch)
    kit.settle(short)
    assert len(calls) == 2 and "body split" in calls[0] and "body split" not in calls[1]
    monkeypatch.setattr(columns, "fits_page", lambda *a: False)  # never cut: CSS columns
    plain = kit.settle(_kit("roll-and-fight", "a4"))
    assert short.front == plain.front


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rules_too_long_for_a_page_are_left_to_weasyprint(paper):
    s = columns.fitted("", [("Goal", "roll the dice " * 1000)], paper)
    assert not columns.fits_page(s.height, paper) and not columns.fits_page(s.even, paper)
    assert s.leading == columns.LEADING  # no closer setting makes it fit: the usual one


def test_text_that_fits_keeps_the_usual_line_height():
    s = columns.fitted("Two dice.", [("Goal", "Roll the dice. " * 30)], "a4")
    assert s.leading == columns.LEADING and columns.fits_page(s.height, "a4")


@pytest.mark.parametrize("product", ["roll-for-your-life", "run-for-your-life"])
def test_rules_at_the_page_edge_are_laid_out_once_on_one_page(monkeypatch, product):
    # on Letter both games' columns come within a few mm of the page: ROLL's fit it when the text
    # is measured as shaped (kerned), Run's when set a little closer (columns.TIGHTER)
    k = _kit(product, "letter")
    calls = _count_layouts(monkeypatch)
    kit.settle(k)
    assert len(calls) == 1 and "body split" in calls[0] and k.rules[0].pages == 1
    closer = f'class="body split" style="line-height: {columns.TIGHTER[0]}"' in calls[0]
    assert closer == (product == "run-for-your-life")
