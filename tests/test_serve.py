"""Sheet links in QR codes, and the `sheetgen serve` app's caching, limits and confinement
(through Starlette's test client; the browser test drives a real server)."""

from __future__ import annotations

import pytest
import yaml
import qrcode

from sheetgen import api, links
from sheetgen.draw import QUIET, qr_matrix
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import QR, walk

from conftest import LAYOUTS, MM
from pdfs import open_pdf

BASE = "http://192.168.1.20:8000"


def qr_data(layout: str, opts: Options) -> set[str]:
    pages = render_pages(load(layout, opts), opts)
    return {it.data for p in pages for it, _, _ in walk(p.items) if isinstance(it, QR)}


def test_a_link_names_every_option_and_reads_back():
    sheet = links.Sheet("rules-cards", "letter", True, 3, 2, 4, "haunt-the-block", 17)
    assert sheet.path() == "S/RULES-CARDS/L.I.C3.N2.S4.GHAUNT-THE-BLOCK.V17"
    assert links.parse("RULES-CARDS", "L.I.C3.N2.S4.GHAUNT-THE-BLOCK.V17") == sheet
    assert links.parse("rules-cards", "l.i.c3.n2.s4.ghaunt-the-block.v17") == sheet
    with pytest.raises(SheetgenError, match="'X' is not a sheet option"):
        links.parse("gingerbread-status", "A.X")
    with pytest.raises(SheetgenError, match="not an http"):
        links.base("ftp://example.org")
    assert links.base("http://club.example.org/") == "HTTP://CLUB.EXAMPLE.ORG"


def test_a_variants_link_names_its_seed_unless_made_with_another_band(tmp_path):
    import importlib

    from sheetgen import variant

    base, loaded = variant._base("tricky-treats")
    gen = importlib.import_module(loaded.kind.variant).generate
    found, made = [], []
    for band in (variant.Settings.band, 0.3):
        data = variant.candidate("tricky-treats", 7, 0, variant.Settings(band=band), base, gen)
        path = tmp_path / f"v{band}.yaml"
        path.write_text(yaml.safe_dump(data))
        found.append(links.described(load(path), Options()))
        made.append(data["variant"].get("band"))
    assert found[0] == links.Sheet("tricky-treats", seed=7) and found[1] is None
    assert made == [None, 0.3]  # the band is written only when it is not the default


def test_with_a_base_url_qr_codes_hold_the_sheets_link_and_stay_small():
    opts = Options(paper="letter", copies=2, base_url=BASE)
    url = "HTTP://192.168.1.20:8000/S/GINGERBREAD-STATUS/L.C2"
    assert qr_data("gingerbread-status", opts) == {url}
    assert qr_data("gingerbread-status-letter", Options(copies=2, base_url=BASE)) == {
        BASE.upper() + "/S/GINGERBREAD-STATUS-LETTER/L.C2"}  # the paper it prints on, said in full
    assert qr_data("boogaloo", Options(sheet=3, base_url=BASE)) == {BASE.upper() + "/S/BOOGALOO/A.S3"}
    old = load("gingerbread-status").doc.content.qr
    assert qr_data("gingerbread-status", Options()) == {old}  # no base URL: today's text
    # upper case: stored in alphanumeric (and numeric) mode, no bytes, so the code is no larger
    modes = {c.mode for c in qrcode.util.optimal_data_chunks(url)}
    assert qrcode.util.MODE_8BIT_BYTE not in modes and qrcode.util.MODE_ALPHA_NUM in modes
    assert len(qr_matrix(url)) <= len(qr_matrix(old))


def test_a_layout_can_set_the_base_url(tmp_path):
    path = tmp_path / "club.yaml"
    path.write_text(f"extends: {LAYOUTS / 'gingerbread-status.yaml'}\n"
                    "layout:\n  base_url: http://club.example.org\n")
    assert qr_data(str(path), Options()) == {"HTTP://CLUB.EXAMPLE.ORG/S/CLUB/A"}


def test_render_and_build_take_a_base_url(tmp_path, main):
    res = main("render", "gingerbread-status", "--base-url", BASE, "--out", str(tmp_path / "g.pdf"))
    assert res.returncode == 0, res.stderr
    res = main("render", "gingerbread-status", "--base-url", "nowhere", "--out", str(tmp_path / "h.pdf"))
    assert res.returncode == 2 and "base URL 'nowhere' is not an http(s) address" in res.stderr
    assert not (tmp_path / "h.pdf").exists()
    from sheetgen import build, kinds

    _, pages = build._pages(("layout", kinds.resolve("gingerbread-status"), links.base(BASE)))
    codes = {it.data for p in pages for it, _, _ in walk(p.items) if isinstance(it, QR)}
    assert codes == qr_data("gingerbread-status", Options(base_url=links.base(BASE)))
    assert codes and all(c.startswith(links.base(BASE)) for c in codes), codes


def test_the_qr_code_has_a_four_module_quiet_zone_on_white(tmp_path):
    out = api.render("gingerbread-status", tmp_path / "g.pdf", Options(base_url=BASE)).path
    data = qr_data("gingerbread-status", Options(base_url=BASE)).pop()
    n = len(qr_matrix(data))
    with open_pdf(out) as pdf:
        page = pdf.pages[0]
        white = [r for r in page.rects if r["fill"] and r["non_stroking_color"] in ((1, 1, 1), [1, 1, 1], (1,), [1])
                 and abs(r["width"] - 20 * MM) < 0.01]
        assert white, "a white square behind the code"
        w = white[0]
        cell = w["width"] / (n + 2 * QUIET)
        black = [r for r in page.rects if r["fill"] and r["non_stroking_color"] in ((0, 0, 0), [0, 0, 0], (0,), [0])
                 and w["x0"] - 0.01 <= r["x0"] and r["x1"] <= w["x1"] + 0.01
                 and w["top"] - 0.01 <= r["top"] and r["bottom"] <= w["bottom"] + 0.01]
    assert abs(min(r["x0"] for r in black) - (w["x0"] + QUIET * cell)) < 0.01
    assert abs(max(r["x1"] for r in black) - (w["x1"] - QUIET * cell)) < 0.01
    assert abs(min(r["top"] for r in black) - (w["top"] + QUIET * cell)) < 0.01


# -- the app -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """An httpx client of a real server on 127.0.0.1 whose QR codes link to BASE."""
    pytest.importorskip("starlette")
    httpx = pytest.importorskip("httpx")
    from serve_server import Server

    server = Server(tmp_path_factory.mktemp("cache"), base_url=BASE)
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c
    server.close()


def test_pdfs_are_cached_by_content_with_etags(client, tmp_path):
    r = client.get("/S/GINGERBREAD-STATUS/L.C2/sheet.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    cli = api.render("gingerbread-status", tmp_path / "g.pdf", Options(paper="letter", copies=2, base_url=BASE))
    assert r.content == cli.path.read_bytes()  # the page's PDF is the command's PDF
    again = client.get("/s/gingerbread-status/l.c2/sheet.pdf", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    png = client.get("/s/gingerbread-status/l.c2/2.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert client.get("/s/gingerbread-status/l.c2/3.png").status_code == 404


@pytest.mark.parametrize("url, status, words", [
    ("/go?name=gingerbread-status&copies=21", 422, "copies: Input should be less than or equal to 20"),
    ("/go?name=gingerbread-status&per_page=3", 422, "sheets per page are 1, 2 or 4"),
    ("/go?name=gingerbread-status&paper=a3", 422, "paper"),
    ("/go?name=gingerbread-status&bleed=3", 422, "bleed: Extra inputs are not permitted"),
    ("/variant/boogaloo?seed=1000000", 422, "seed: Input should be less than or equal to 999999"),
    ("/s/gingerbread-status/a.v3", 422, "'gingerbread-status' has no variants"),
    ("/s/tricky-treats/a.d3", 404, "D3 names a search's candidate but no seed"),
    ("/go?name=tricky-treats&candidate=2", 422, "candidate: a search's candidate needs the search's seed"),
    ("/kit/rollers.pdf?copies=6", 422, "copies: Input should be less than or equal to 5"),
    ("/s/rollers-board/a.c20/sheet.pdf", 413, "that is 100 pages; the server makes at most 60"),
    ("/s/boogaloo/a.s9/sheet.pdf", 422, "--sheet"),
    ("/s/boogaloo/a.n4/sheet.pdf", 422, "--per-page does not apply to 'boogaloo'"),
    ("/s/nothing/a", 404, "no layout named 'nothing'"),
    ("/s/..%2F..%2Fetc%2Fpasswd/a", 404, ""),
    ("/s/gingerbread-status/a%2F..%2F..", 404, ""),
    ("/game/%2E%2E", 404, "no game named"),
])
def test_bad_requests_get_one_clear_line(client, url, status, words):
    r = client.get(url)
    assert r.status_code == status, r.text
    assert words in r.text and "Traceback" not in r.text and r.text.count("\n") <= 1


def test_the_form_goes_to_the_sheets_own_page(client):
    r = client.get("/go?name=rules-cards&paper=letter&copies=1&per_page=&sheet=&game=rollers",
                   follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/s/rules-cards/l.grollers"
    page = client.get(r.headers["location"]).text
    assert "HTTP://192.168.1.20:8000/S/RULES-CARDS/L.GROLLERS" in page


def test_a_full_queue_is_answered_503_with_a_retry_time(client, monkeypatch):
    from sheetgen.web import work

    monkeypatch.setattr(work, "QUEUE", 0)  # every new job finds the queue full
    r = client.get("/s/roll-score-pad/l.c4/sheet.pdf")
    assert r.status_code == 503 and r.headers["retry-after"] == "5"
    assert r.text == "the server is busy; try again in a few seconds\n"
    monkeypatch.undo()
    assert client.get("/s/roll-score-pad/l.c4/sheet.pdf").status_code == 200


def test_serve_without_the_web_extra_says_how_to_install_it(main, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the extra were not installed
    res = main("serve")
    assert res.returncode == 2
    assert res.stderr.strip() == ("sheetgen: error: the web server is not installed (uvicorn is missing) "
                                  "(fix: pip install 'sheetgen[web]')")
