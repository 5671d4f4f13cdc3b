"""`sheetgen report`: the balance report of a sheet, on the toy dice game (tests/validate_toy.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pdfplumber
import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from sheetgen import kinds  # noqa: E402
from sheetgen.cli import app  # noqa: E402


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
    with pdfplumber.open(a) as pdf:
        page = pdf.pages[0]
        assert (round(page.width / (72 / 25.4)), round(page.height / (72 / 25.4))) == (210, 297)
        assert "balance report" in page.extract_text()


def test_folder_as_output_is_one_line_error(tmp_path):
    r = report(str(toy(tmp_path)), "--games", "100", "--out", str(tmp_path))
    assert r.exit_code == 2 and "is a folder" in r.output
