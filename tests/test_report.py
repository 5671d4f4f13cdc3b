"""`sheetgen report`: the balance report of a sheet, on the toy dice game (tests/validate_toy.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from sheetgen import kinds  # noqa: E402
from sheetgen.cli import app  # noqa: E402

from pdfs import open_pdf


@pytest.fixture(autouse=True)
def toy_kind(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "toy-dice", "validate_toy")


def toy(tmp_path: Path) -> Path:
    path = tmp_path / "toy.yaml"
    path.write_text("kind: toy-dice\ntitle: Toy dice\ncontent:\n  sheets: [[1, 2, 3, 4, 5, 6, 7]]\n"
                    "  penalty: true\n  end_when_full: false\nlayout:\n  paper: a4\n")
    return path


def report(*args: str):
    return CliRunner().invoke(app, ["report", *args])


def test_html_names_the_figures(tmp_path):
    out = tmp_path / "r.html"
    r = report(str(toy(tmp_path)), "--games", "500", "--html", "--out", str(out), "--workers", "1")
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "NOT completable" in text and "box.7" in text  # box 7 has no die face
    assert "0.00 – 0.26 %" in text  # never in 3 x 500 games: Wilson's upper bound
    assert "<td class=\"l\">box</td><td>7</td><td class=\"bad\">6</td>" in text  # the most one game filled
    assert text.count("<svg") == 3  # a histogram per player
    assert "skill gap" in text and "the dice explain" in text


def test_pdf_is_a4_and_the_same_twice(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (a, b):
        r = report(str(toy(tmp_path)), "--games", "200", "--seed", "3", "--out", str(path), "--workers", "1")
        assert r.exit_code == 0, r.output
    assert a.read_bytes() == b.read_bytes()
    with open_pdf(a) as pdf:
        page = pdf.pages[0]
        assert (round(page.width / (72 / 25.4)), round(page.height / (72 / 25.4))) == (210, 297)
        assert "balance report" in page.extract_text()


def test_folder_as_output_is_one_line_error(tmp_path):
    r = report(str(toy(tmp_path)), "--games", "100", "--out", str(tmp_path))
    assert r.exit_code == 2 and "is a folder" in r.output


# --- the heatmap pages and the mechanic check ------------------------------------------------------

def test_pdf_ends_with_the_heatmap_page_percentages_as_text(tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "r.pdf"
    r = report(str(toy(tmp_path)), "--games", "300", "--out", str(out), "--workers", "1")
    assert r.exit_code == 0, r.output
    pages = PdfReader(out).pages
    heat = pages[-1].extract_text()
    assert "reached in 0%" in heat and "100% of games" in heat and "never reached" in heat
    assert sum(w.endswith("%") and w[:-1].isdigit() for w in heat.split()) >= 6  # boxes 1-6 (7: a cross)
    assert "heatmap page" in pages[0].extract_text()  # the report says the heatmap follows
    w, h = (float(x) / (72 / 25.4) for x in pages[-1].mediabox[2:])
    assert (round(w), round(h)) == (210, 297)


def _undercover():
    from sheetgen.games.boogaloo.rules import RULES

    return RULES, RULES.sheets(kinds.load("boogaloo").doc)[0][1]


def test_a_mechanic_switched_off_is_exactly_that_mechanic():
    from sheetgen.games.boogaloo.mechanics import mechanics

    rules, doc = _undercover()
    found = {m.name: m for m in mechanics(doc)}
    off = found["stash star 3"].off(doc)
    assert off.content.stash.needs == [6, 5, 7, 3, 2, 1] and off.content.stash.points == doc.content.stash.points
    assert off.model_dump(exclude={"content": {"stash"}}) == doc.model_dump(exclude={"content": {"stash"}})
    bars = found["Boo-nus bars"].off(doc).content.boonus
    assert bars == ["none" if r == "bar" else r for r in doc.content.boonus] and "star" in bars
    ids = rules.element_ids(off)
    dice, u, targets = rules.inputs(0, 3000, 1, "greedy", len(ids))
    star = ids.index("stash.star.3")
    assert rules.fast(doc, dice, u, "greedy", targets).reached[:, star].any()
    assert not rules.fast(off, dice, u, "greedy", targets).reached[:, star].any()
    few = slice(0, 40)  # both engines read the switched-off sheet alike
    assert rules.reference(off, dice[few], u[few], "greedy", targets[few]).same_as(
        rules.fast(off, dice[few], u[few], "greedy", targets[few]))


def test_a_dead_mechanic_is_flagged_and_a_live_one_is_not():
    from sheetgen.validate.mechanics import Mechanic, check, edit

    rules, doc = _undercover()
    rows = check(rules, doc, [
        Mechanic("printed QR text", "section", lambda d: edit(d, qr="another text"), "changes the QR only"),
        Mechanic("chocolate bars", "reward", lambda d: edit(d, bar_points=0), "bars score 0"),
        Mechanic("stash star 6", "reward", lambda d: edit(d, stash=d.content.stash.model_copy(
            update={"needs": [6, 5, 4, 3, 2, 7]})), "never earned", ("stash.star.6",))], seed=2, games=600)
    dead = {r["name"]: r["dead"] for r in rows}
    assert dead == {"printed QR text": True, "chocolate bars": False, "stash star 6": False}
    qr, bars, star = rows
    assert all(v["score"] == v["score95"] == v["reach"] == 0 for v in qr["policies"].values())
    assert bars["policies"]["greedy"]["score"] < -bars["policies"]["greedy"]["score95"] < 0
    assert star["model"].startswith("refused") and star["played"] and star["still_reached"] == []


def test_validate_json_carries_the_mechanic_check_byte_identical():
    def run():
        return CliRunner().invoke(app, ["validate", "boogaloo", "--sheet", "2", "--games", "300", "--json",
                                        "--workers", "1"])
    a, b = run(), run()
    assert a.exit_code in (0, 1) and a.stdout == b.stdout
    import json

    sheet = json.loads(a.stdout)["sheets"][0]
    names = [m["name"] for m in sheet["mechanics"]]
    assert names[:6] == [f"stash star {k}" for k in range(1, 7)] and "chocolate bars" in names
    assert {m["games"] for m in sheet["mechanics"]} == {300}  # as many as asked for (at most 4,000)
    assert 0 <= sheet["luck"] <= 1


@pytest.mark.parametrize("name", ["tricky-treats", "haunt-the-block", "boogaloo"])
def test_no_section_of_the_report_is_itself_an_element(name):
    """A section groups elements (a row, a track); an id nested under another element's id (the
    old `path.25.start`) made a one-element section named after a path space."""
    from sheetgen.validate.report import groups
    from sheetgen.validate.run import rules_of, sheets_of

    loaded = kinds.load(kinds.resolve(name))
    rules = rules_of(loaded)
    for _, _, doc in sheets_of(loaded, rules):
        ids = rules.element_ids(doc)
        assert not [head for head, _ in groups(ids) if head in ids]
