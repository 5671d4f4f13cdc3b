"""The 12 round Special Treat tokens of ROLL for Your Life, checked on the PDF: count, diameter,
circular cut guides, mirrored face-down side, names and points."""

from __future__ import annotations

import pytest
import yaml

from sheetgen import api
from sheetgen.kinds import Options

from conftest import LAYOUTS
from pdfs import EPS_MM, open_pdf

MM = 72 / 25.4
GUIDE = (0.2, 0.2, 0.2)  # #333333 cut guides


def guides(page) -> list[tuple[float, float, float]]:
    """(cx, cy, diameter) mm of every circular cut guide: unfilled dark grey circles."""
    out = []
    for c in page.curves:
        col = c["stroking_color"]
        if not c["fill"] and col and len(col) == 3 and all(abs(a - b) < 0.01 for a, b in zip(col, GUIDE)):
            out.append(((c["x0"] + c["x1"]) / 2 / MM, (c["top"] + c["bottom"]) / 2 / MM,
                        (c["x1"] - c["x0"]) / MM))
    return sorted(out)


@pytest.fixture(scope="module", params=["a4", "letter"])
def tokens(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("tokens") / f"tokens-{request.param}.pdf"
    api.render("special-treat-tokens", out, Options(paper=request.param))
    return out


def test_twelve_round_tokens_with_cut_guides_and_backs(tokens):
    with open_pdf(tokens) as pdf:
        assert len(pdf.pages) == 2
        front, back = guides(pdf.pages[0]), guides(pdf.pages[1])
        width = pdf.pages[0].width / MM
    assert len(front) == len(back) == 12
    for cx, cy, d in front + back:
        assert abs(d - 44.0) <= 0.05
    # bleed discs (2 mm) never touch: centres at least a diameter + 2 bleeds apart
    for i, a in enumerate(front):
        for b in front[i + 1:]:
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= 44 + 4 - EPS_MM
    # face-down side mirrored for long-edge duplex
    mirrored = sorted((round(width - cx, 2), round(cy, 2)) for cx, cy, _ in front)
    assert mirrored == sorted((round(cx, 2), round(cy, 2)) for cx, cy, _ in back)


def test_every_token_shows_its_name_and_points(tokens):
    data = yaml.safe_load((LAYOUTS / "special-treat-tokens.yaml").read_text())
    expected = sorted((t["name"], t["points"]) for t in data["content"]["tokens"]
                      for _ in range(t.get("count", 1)))
    found = []
    with open_pdf(tokens) as pdf:
        page = pdf.pages[0]
        for cx, cy, d in guides(page):
            r = d / 2
            crop = page.crop(((cx - r) * MM, (cy - r) * MM, (cx + r) * MM, (cy + r) * MM))
            words = crop.extract_words()
            points = [int(w["text"]) for w in words if w["text"] in ("1", "2")]
            assert len(points) == 1  # one points circle per token
            name_line = " ".join(w["text"] for w in words if w["top"] < (cy - r + 11) * MM)
            found.append((name_line, points[0]))
        back_text = pdf.pages[1].extract_text()
    assert sorted(found) == expected
    assert [n for n, _ in found].count("M Dudd") == 2
    assert "Taffy Trip" in [n for n, _ in found]
    assert back_text.count("SPECIAL TREAT") == 12


def test_token_effect_too_long_names_the_token(tmp_path, main):
    data = yaml.safe_load((LAYOUTS / "special-treat-tokens.yaml").read_text())
    data["content"]["tokens"][1]["effect"] = "Sprinkles everywhere! " * 20
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    done = main("render", str(path), "--out", str(tmp_path / "x.pdf"))
    assert done.returncode == 2
    assert "token 'More Sprinkles'" in done.stderr and "effect" in done.stderr


def test_token_set_must_hold_twelve(tmp_path, main):
    data = yaml.safe_load((LAYOUTS / "special-treat-tokens.yaml").read_text())
    data["content"]["tokens"].pop()
    path = tmp_path / "eleven.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    done = main("render", str(path), "--out", str(tmp_path / "x.pdf"))
    assert done.returncode == 2 and "add up to 11" in done.stderr
