"""`sheetgen serve` in a real browser: Debian's Chromium driven by Playwright against a server on
127.0.0.1. Home page, a game, one of its sheets on Letter paper, preview, download; the QR code
printed on the download is decoded (zxing-cpp) and followed to the same PDF bytes; a variant is
made and its report shown.
Screenshots go to the test's tmp folder (and to $SHEETGEN_SCREENSHOTS when set)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import page_mm, qr_urls

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LETTER = (215.9, 279.4)

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[test]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install -e '.[test]'")
if not CHROMIUM.exists():
    pytest.skip("Chromium is missing: apt-get install -y chromium (.ci/run does it)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from serve_server import Server

    s = Server(tmp_path_factory.mktemp("cache"))
    yield s
    s.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=str(CHROMIUM), args=ARGS,
            headless=True, accept_downloads=True, viewport={"width": 1100, "height": 900})
        yield context
        context.close()


def shoot(page, shots: Path, name: str) -> Path:
    path = shots / name
    page.screenshot(path=str(path), full_page=True)
    if out := os.environ.get("SHEETGEN_SCREENSHOTS"):
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(out) / name)
    return path


def images_loaded(page) -> int:
    """How many <img> on the page finished loading with a real picture (fails on a broken one)."""
    page.wait_for_function("[...document.images].every(i => i.complete)")
    sizes = page.eval_on_selector_all("img", "els => els.map(i => i.naturalWidth)")
    assert all(w > 0 for w in sizes), f"a preview did not load: {sizes}"
    return len(sizes)


def download(page, selector: str, tmp: Path) -> Path:
    with page.expect_download() as info:
        page.click(selector)
    path = tmp / info.value.suggested_filename
    info.value.save_as(path)
    return path


def test_print_a_sheet_on_letter_and_follow_its_qr_code(server, browser, shots, tmp_path):
    from pypdf import PdfReader

    from sheetgen import api
    from sheetgen.kinds import Options

    page = browser.new_page()
    page.goto(server.url + "/")
    assert "Gingerbread Status" in page.inner_text("main")
    shoot(page, shots, "home.png")

    page.click("a.game[data-product=run-for-your-life]")
    page.wait_for_url("**/game/run-for-your-life")
    assert "Gingerbread Status" in page.inner_text("main") and images_loaded(page) >= 3
    shoot(page, shots, "game.png")

    page.click("h3 a[href='/s/gingerbread-status/a']")  # the component's own page, on A4
    page.wait_for_url("**/s/gingerbread-status/a")
    page.check("#paper-letter")
    page.fill("input[name=copies]", "3")
    page.click("#preview")
    page.wait_for_url("**/s/gingerbread-status/l.c3")
    first = download(page, "#download", tmp_path)
    # the same PDF as `sheetgen render gingerbread-status --paper letter --copies 3 --base-url URL`
    cli = api.render("gingerbread-status", tmp_path / "cli.pdf",
                     Options(paper="letter", copies=3, base_url=server.url)).path
    assert first.read_bytes() == cli.read_bytes()
    pages = len(PdfReader(first).pages)
    assert pages == 3 and page_mm(first) == [LETTER] * pages
    assert images_loaded(page) == pages  # a preview of every page
    shoot(page, shots, "sheet-letter.png")

    urls = qr_urls(first)
    assert urls and set(urls) == {server.url.upper() + "/S/GINGERBREAD-STATUS/L.C3"}
    page.goto(urls[0])
    assert images_loaded(page) == pages
    (tmp_path / "again").mkdir()
    again = download(page, "#download", tmp_path / "again")
    assert again.read_bytes() == first.read_bytes()


def test_a_variant_is_made_checked_and_printable(server, browser, shots, tmp_path):
    page = browser.new_page()
    page.route("**/*.png", lambda route: route.abort())  # the game page's previews: not tested here
    page.goto(server.url + "/game/ghosts-love-candy-too")
    page.unroute("**/*.png")
    page.fill("#seed-haunt-the-block", "5")
    page.click("#make-haunt-the-block")
    page.wait_for_url("**/s/haunt-the-block/a.v5")
    assert page.inner_text("#verdict") == "completable"
    assert "greedy" in page.inner_text("table.report")
    assert images_loaded(page) == 1
    shoot(page, shots, "variant.png")
    pdf = download(page, "#download", tmp_path)
    assert qr_urls(pdf) == [server.url.upper() + "/S/HAUNT-THE-BLOCK/A.V5"]


def test_a_refused_request_shows_why(server, browser):
    page = browser.new_page()
    response = page.goto(server.url + "/go?name=gingerbread-status&copies=500")
    assert response.status == 422
    assert "copies" in page.inner_text("#error") and "20" in page.inner_text("#error")
