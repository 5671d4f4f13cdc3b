"""`sheetgen validate` end to end on the shipped roll-and-write sheets, run as a user would (its
command line, in this process: conftest.sheetgen_here).

A game is skipped only while its layout or its rules module is not in the tree yet."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pypdfium2 as pdfium
import pytest
import yaml

from sheetgen import kinds

from conftest import LAYOUTS, ROOT, sheetgen_here as sheetgen

GAMES = {"tricky-treats": "tricky_treats", "haunt-the-block": "haunt_the_block", "boogaloo": "boogaloo"}
N = "3000"  # games per policy: enough for the cover policy to aim at every element


def present(game: str) -> bool:
    return (LAYOUTS / f"{game}.yaml").exists() and (ROOT / "sheetgen/games" / GAMES[game] / "rules.py").exists()


game_param = pytest.mark.parametrize("game", [
    pytest.param(g, marks=pytest.mark.skipif(not present(g), reason=f"{g} layout or rules not in the tree yet"))
    for g in GAMES])


@pytest.fixture(scope="module")
def reports():
    """game -> (exit code, JSON report) of one run per game, shared by the tests below."""
    cache = {}

    def get(game):
        if game not in cache:
            r = sheetgen("validate", game, "--games", N, "--seed", "7", "--json", "--workers", "2")
            assert r.returncode in (0, 1), r.stderr
            cache[game] = (r.returncode, json.loads(r.stdout))
        return cache[game]
    return get


@game_param
def test_shipped_sheet_is_completable(game, reports):
    code, report = reports(game)
    assert report["faults"] == [] and report["completable"] is True and code == 0
    rules = importlib.import_module(kinds.load(game).kind.rules).RULES
    assert report["turns"] == rules.turns
    for sheet in report["sheets"]:
        assert sheet["unreached"] == []
        assert all(e["all"] > 0 for e in sheet["elements"].values())
        for policy in ("random", "greedy", "cover"):
            p = sheet["policies"][policy]
            assert p["stuck"] == {"rolls": 0, "games": 0, "at": []}
            assert p["turns"]["min"] == p["turns"]["max"] == rules.turns
            s = p["score"]
            assert s["min"] <= s["p10"] <= s["p50"] <= s["p90"] <= s["max"]
        # a greedy player does better than one who picks any legal move
        assert sheet["policies"]["greedy"]["score"]["mean"] > sheet["policies"]["random"]["score"]["mean"]


@game_param
def test_elements_are_those_drawn(game, reports):
    """Every element id the rules report is drawn on the sheet (so the heatmap can shade it)."""
    from sheetgen.scene import ids

    loaded = kinds.load(game)
    _, report = reports(game)
    for sheet in report["sheets"]:
        opts = kinds.Options(sheet=sheet["sheet"] if len(report["sheets"]) > 1 else None)
        drawn = {i for page in kinds.render_pages(loaded, opts) for i in ids(page.items)}
        missing = [e for e in sheet["elements"] if e not in drawn]
        assert missing == [], f"sheet {sheet['sheet']}: not drawn: {missing[:10]}"


@game_param
def test_reference_engine_same_report(game):
    """The same seed through the reference engine gives the very same report as the fast engine."""
    args = ("validate", game, "--games", "40", "--seed", "3", "--json", "--sheet", "1")
    fast = sheetgen(*args, "--workers", "1")
    ref = sheetgen(*args, "--engine", "reference", "--workers", "2")
    assert fast.returncode in (0, 1) and ref.returncode == fast.returncode, ref.stderr
    a, b = json.loads(fast.stdout), json.loads(ref.stdout)
    assert (a.pop("engine"), b.pop("engine")) == ("fast", "reference")
    assert a == b


@game_param
def test_human_report_and_heatmap(game, tmp_path, reports):
    pdf = tmp_path / "heat.pdf"
    r = sheetgen("validate", game, "--games", N, "--seed", "7", "--heatmap", str(pdf), "--paper", "letter")
    code, report = reports(game)  # the same games as --json played
    assert r.returncode == code, r.stderr
    assert ("NOT COMPLETABLE" in r.stdout) == (code == 1) and "COMPLETABLE" in r.stdout
    assert "greedy" in r.stdout and "p90" in r.stdout
    for fault in report["faults"]:
        assert fault.split(":")[0] in " ".join(r.stdout.split())
    assert "warning" not in r.stderr  # every element drawn and shaded
    loaded = kinds.load(game)
    rules = importlib.import_module(loaded.kind.rules).RULES
    sheets = len(rules.sheets(loaded.doc)) if rules.sheets else 1
    doc = pdfium.PdfDocument(pdf)  # PDFium reads the text in milliseconds; pdfplumber took seconds
    try:
        assert len(doc) >= sheets
        for page in doc:
            assert round(page.get_width() / (72 / 25.4), 1) in (215.9, 279.4)  # Letter, either way round
        texts = [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()
    assert any("reached in 0%" in t and "100% of games" in t for t in texts)  # the key
    assert all("%" in t for t in texts[:sheets])  # each element's percentage


@game_param
def test_broken_variant_exits_1_and_names_elements(game, tmp_path):
    """A variant made to be broken (variant.generate(..., broken=True)) is rejected, naming what is at fault."""
    loaded = kinds.load(game)
    if not loaded.kind.variant or not (ROOT / "sheetgen/games" / GAMES[game] / "variant.py").exists():
        pytest.skip(f"{game} has no variant generator yet")
    generate = importlib.import_module(loaded.kind.variant).generate
    data = yaml.safe_load((LAYOUTS / f"{game}.yaml").read_text())
    data["content"] = generate(data["content"], np.random.default_rng(5), broken=True)
    path = tmp_path / f"{game}-broken.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    r = sheetgen("validate", str(path), "--games", N, "--json")
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)
    assert report["completable"] is False and report["faults"]


@pytest.mark.parametrize("game", [g for g in GAMES if present(g)] or ["tricky-treats"])
def test_unknown_sheet_exits_2(game):
    if not present(game):
        pytest.skip("no roll-and-write game in the tree yet")
    r = sheetgen("validate", game, "--sheet", "99", "--games", "10")
    assert r.returncode == 2 and "--sheet 99" in r.stderr and len(r.stderr.strip().splitlines()) == 1
