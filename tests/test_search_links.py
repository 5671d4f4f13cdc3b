"""A variant kept by `sheetgen search` is made again, byte for byte, by the command its footer prints
and by what `sheetgen serve` makes from its link (V<seed>.D<candidate>), not by another sheet."""

from __future__ import annotations

import shlex

import pytest
import yaml
from pypdf import PdfReader

from sheetgen import links, variant
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import QR, walk
from sheetgen.search import Plan, search
from sheetgen.search_out import write_all
from sheetgen.search_play import Local

from conftest import qr_urls

GAME = "tricky-treats"
BASE = "http://192.168.1.20:8000"
TINY = Plan(candidates=2, keep=1, first=1000, most=1000, rescore=1000)


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """The YAML and PDF of the variant a tiny search kept (seed 5)."""
    out = tmp_path_factory.mktemp("search")
    s = search(GAME, 5, TINY, [], Local(1, GAME))
    write_all(s, out)
    c = s.kept[0]
    return out / f"{GAME}-5-c{c.index}.yaml", out / f"{GAME}-5-c{c.index}.pdf", c


def test_the_footers_command_makes_the_same_pdf(kept, main, tmp_path):
    yaml_path, pdf, c = kept
    text = PdfReader(pdf).pages[0].extract_text()
    line = next(t for t in text.splitlines() if "make it again: " in t)
    assert line == f"Custom variant {c.id} · make it again: sheetgen variant {GAME} --seed 5 --candidate {c.index}"
    args = shlex.split(line.split("make it again: ", 1)[1])
    res = main(*args[1:], "--games", "200", "--workers", "1", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert (tmp_path / pdf.name).read_bytes() == pdf.read_bytes()


def test_what_serve_makes_from_the_link_is_the_kept_sheet(kept, tmp_path):
    pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR codes: pip install -e '.[test]'")
    pytest.importorskip("pypdfium2", reason="the web extra is not installed: pip install -e '.[test]'")
    from sheetgen import api
    from sheetgen.draw import pdf_bytes
    from sheetgen.web.work import make_variant, render_pdf

    yaml_path, pdf, c = kept
    footer = PdfReader(pdf).pages[0].extract_text().split("make it again: ", 1)[1].splitlines()[0]
    assert qr_urls(pdf) == [footer]  # no base URL: the QR code holds the footer's command
    linked = api.render(str(yaml_path), tmp_path / "linked.pdf", Options(base_url=BASE)).path
    [url] = qr_urls(linked)  # as `sheetgen render --base-url` and serve print it
    assert url == f"{links.base(BASE)}/S/{GAME.upper()}/A.V5.D{c.index}"
    name, tokens = url.rsplit("/", 2)[1:]
    sheet = links.parse(name, tokens)
    # what Store.pdf runs in its workers for that link
    made = make_variant(sheet.name, sheet.seed, str(tmp_path), variant.Settings(games=200), sheet.candidate)
    assert made["id"] == c.id and made["report"]["completable"]
    assert yaml.safe_load(open(made["yaml"])) == yaml.safe_load(open(yaml_path))
    assert render_pdf(made["yaml"], sheet, BASE) == linked.read_bytes()
    again = load(made["yaml"])
    assert pdf_bytes(render_pages(again, Options()), again.doc.title) == pdf.read_bytes()


def test_a_candidate_link_reads_back_and_needs_its_seed():
    sheet = links.Sheet(GAME, seed=5, candidate=12)
    assert sheet.path() == "S/TRICKY-TREATS/A.V5.D12"
    assert links.parse("tricky-treats", "a.v5.d12") == sheet
    with pytest.raises(SheetgenError, match="D3 names a search's candidate but no seed"):
        links.parse(GAME, "A.D3")


def test_a_search_with_param_ranges_prints_its_command_not_a_link(tmp_path):
    import importlib

    from sheetgen.search import drawn

    base, loaded = variant._base("boogaloo")
    gen = importlib.import_module(loaded.kind.variant)
    _, data = drawn("boogaloo", 2, 0, {"bar_points": (4, 4)}, base, gen)
    assert data["variant"]["command"] == "sheetgen variant boogaloo --seed 2 --candidate 0 --param bar_points=4:4"
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(data))
    assert links.described(load(path), Options(base_url=BASE)) is None  # the QR keeps the command


@pytest.mark.parametrize("args, says", [
    (["--param", "x=1:2"], "--param and --candidate go together"),
    (["--candidate", "0", "--band", "0.3"], "--band does not apply to --candidate"),
    (["--candidate", "0", "--param", "x=1:2"], "--param 'x=1:2' names no parameter of tricky-treats"),
])
def test_bad_candidate_options_are_refused(main, tmp_path, args, says):
    res = main("variant", GAME, "--seed", "1", *args, "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and says in res.stderr
    assert "\n" not in res.stderr.strip() and not (tmp_path / "o").exists()
