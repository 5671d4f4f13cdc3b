"""The rules columns' height worked out before layout (sheetgen.balance) and its use by kit.settle."""

from __future__ import annotations

import pytest

from sheetgen import balance, documents, kit


def test_forced_breaks_and_long_text_make_lines():
    assert balance.line_count("Roll.", 80) == 1
    assert balance.line_count("Roll.<br/> <b>Scare:</b> the other die.", 80) == 2
    text = "one two three four five six seven eight nine ten " * 6
    lines = balance.line_count(text, 40)
    assert lines == balance.line_count(text, 40.0) > balance.line_count(text, 80) > 1
    # every line but the last is at most the measure wide: the words of one line do not fit 40 mm
    assert balance.width(text.strip(), "", balance.TEXT) > 40 * (lines - 1)


def test_a_long_word_is_hyphenated_to_fill_the_line():
    words = "a " * 20 + "extraordinarily"
    width = balance.width("a " * 20, "", balance.TEXT)
    # the line is a little wider than the short words: without hyphenation the long word would
    # go to the next line whole; a hyphenated piece of it fits on the first line
    assert balance.line_count(words, width + 3) == 2
    assert balance.line_count(words, width + balance.width("extraordinarily", "", balance.TEXT) + 1) == 1


def test_the_split_balances_two_equal_sections():
    text = "word " * 200
    line = balance.TEXT * balance.LEADING * balance.PT
    measure = (210 - 30 - 7) / 2  # an A4 column
    section = (balance.HEAD * balance.HEAD_LEADING * balance.PT + balance.HEAD_BELOW
               + balance.line_count(text, measure) * line)
    two = balance.column_height("", [("Goal", text), ("Turn", text)], "a4")
    assert two == pytest.approx(section + line)  # a section in each column, and a line to spare
    one = balance.column_height("", [("Goal", text)], "a4")
    assert section / 2 < one - line < section / 2 + line  # one section halved, to a line
    head = section - balance.line_count(text, measure) * line
    assert balance.column_height("", [("Goal", "Short.")], "a4") == pytest.approx(head + 2 * line)


def _kit(product: str, paper: str) -> kit.Kit:
    """A kit whose components are stand-ins (the front only needs their titles and pages)."""
    return kit.start(product, paper, 1, render=lambda c, p, n: kit.Part(c.title, 2, "component"))


def _count_layouts(monkeypatch) -> list:
    calls = []
    layout = documents.layout
    monkeypatch.setattr(documents, "layout", lambda html, *a: calls.append(html) or layout(html, *a))
    return calls


def test_the_worked_out_height_holds_the_text_in_one_layout(monkeypatch):
    k = _kit("roll-and-fight", "a4")
    heights = kit._column_heights(k)
    assert set(heights) == {g.id for g in k.games}
    calls = _count_layouts(monkeypatch)
    kit.settle(k)
    assert len(calls) == 1 and "column-fill: auto" in calls[0]
    doc = documents.layout(calls[0])
    starts = {a: i for i, p in reversed(list(enumerate(doc.pages))) for a in p.anchors}
    g = k.games[0].id
    assert starts[f"end-rules-{g}"] == starts[f"part-rules-{g}"]  # on the rules' first page
    x = doc.pages[starts[f"end-rules-{g}"]].anchors[f"end-rules-{g}"][0] * 25.4 / 96
    assert 105 < x <= 195  # in the second column (A4: 15 mm margins, columns 86.5 mm, gap 7 mm)


def test_a_height_too_short_falls_back_to_weasyprints_balance(monkeypatch):
    monkeypatch.setattr(balance, "column_height", lambda *a: 30.0)  # fits nothing
    short = _kit("roll-and-fight", "a4")
    calls = _count_layouts(monkeypatch)
    kit.settle(short)
    assert len(calls) == 2 and "column-fill: auto" in calls[0] and "column-fill" not in calls[1]
    monkeypatch.setattr(balance, "fits_page", lambda *a, **k: False)  # WeasyPrint balances
    plain = kit.settle(_kit("roll-and-fight", "a4"))
    assert short.front == plain.front


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rules_too_long_for_a_page_are_left_to_weasyprint(paper):
    long = [("Goal", "word " * 3000)]
    assert not balance.fits_page(balance.column_height("", long, paper), paper)
