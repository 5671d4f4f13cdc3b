"""Shared test helpers: run the CLI as a user would, and read PDFs."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = ROOT / "layouts"
LONG = os.environ.get("SHEETGEN_LONG") == "1"  # engine comparisons at full length (slow)


def games(short: int, long: int) -> int:
    """Games an engine-equality test plays: `long` with SHEETGEN_LONG=1, else `short`."""
    return long if LONG else short
MM = 72 / 25.4


def sheetgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run `sheetgen ARGS` in a fresh process; returns the completed process (text output)."""
    return subprocess.run([sys.executable, "-m", "sheetgen", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT)


@pytest.fixture
def run():
    return sheetgen


def cli(capsysbinary, *args: str) -> tuple[int, bytes, str]:
    """Run `sheetgen ARGS` in this process: (exit status, stdout bytes, stderr text)."""
    import signal

    from sheetgen import cli as command, resources

    resources.reset_layout_dirs()
    old, handler = sys.argv, signal.getsignal(signal.SIGTERM)
    sys.argv = ["sheetgen", *args]
    try:
        with pytest.raises(SystemExit) as done:
            command.main()
    finally:
        sys.argv = old
        signal.signal(signal.SIGTERM, handler)  # the command installs its own
        resources.reset_layout_dirs()
    out, err = capsysbinary.readouterr()
    return done.value.code, out, err.decode()


@pytest.fixture
def main(capsysbinary, monkeypatch):
    """`main(ARGS...)`: `sheetgen ARGS` run in this process through sheetgen.cli.main, from the
    checkout as `run` does; returns a CompletedProcess (text output). No interpreter start-up:
    use `run` only for what a fresh process alone shows."""
    monkeypatch.chdir(ROOT)

    def call(*args: str) -> subprocess.CompletedProcess:
        status, out, err = cli(capsysbinary, *args)
        return subprocess.CompletedProcess(["sheetgen", *args], status, out.decode(), err)

    return call


def render_error(layout: Path, out: Path) -> str:
    """Render a bad layout through the command line: exit 2, one line on stderr with no traceback,
    and no output file or temporary file left behind. Returns that line. The command runs in this
    process (typer's test runner: no interpreter start-up per case); `run` starts a real process."""
    from typer.testing import CliRunner

    from sheetgen.cli import app

    res = CliRunner().invoke(app, ["render", str(layout), "--out", str(out)])
    assert res.exit_code == 2, (res.stderr, res.exception)
    err = res.stderr.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert not out.exists() and list(out.parent.glob(f".{out.name}*")) == []
    return err


def edit_error(tmp_path: Path, layout: str, old: str, new: str) -> str:
    """Render a shipped layout with one text edit (`old`, which must be in it, becomes `new`) and
    return its one-line error (see render_error)."""
    text = (LAYOUTS / f"{layout}.yaml").read_text()
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new, 1))
    return render_error(path, tmp_path / "bad.pdf")


def layout_fixtures(layout: str):
    """Module fixtures for a layout's tests: `scene` (its one page's elements by id) and `a4` (the
    layout rendered once, as shipped; the PDF's path). Use: `scene, a4 = layout_fixtures(NAME)`."""

    @pytest.fixture(scope="module", name="scene")
    def scene():
        return scene_by_id(layout)

    @pytest.fixture(scope="module", name="a4")
    def a4(shipped):
        return shipped(layout)

    return scene, a4


def page_mm(pdf_path: Path) -> list[tuple[float, float]]:
    from pypdf import PdfReader

    return [(round(float(p.mediabox.width) / MM, 2), round(float(p.mediabox.height) / MM, 2))
            for p in PdfReader(pdf_path).pages]


def scene_by_id(layout: str) -> dict:
    """The elements of a one-page layout's scene, by element id."""
    from sheetgen.kinds import Options, load, render_pages
    from sheetgen.scene import walk

    pages = render_pages(load(layout), Options())
    assert len(pages) == 1
    return {it.id: it for it, _, _ in walk(pages[0].items) if it.id}


def matching(scene: dict, pattern: str) -> list[str]:
    """Ids in the scene that match a regular expression in full."""
    import re

    return [i for i in scene if re.fullmatch(pattern, i)]


@pytest.fixture(scope="session")
def shipped(tmp_path_factory):
    """`shipped(NAME)`: the path of the PDF `sheetgen render NAME` writes (default options),
    rendered at most once per test session. Do not modify the file."""
    from sheetgen import api

    folder = tmp_path_factory.mktemp("shipped")

    @functools.lru_cache(maxsize=None)
    def render(layout: str) -> Path:
        return api.render(layout, folder / f"{layout}.pdf").path

    return render


@pytest.fixture(scope="session")
def build_out(tmp_path_factory) -> Path:
    """The output folder of one `sheetgen build` (every layout and kit, both papers; parallel),
    made at most once per test session. Do not modify its files."""
    from sheetgen import build

    out = tmp_path_factory.mktemp("build")
    build.run(out)
    return out


@functools.lru_cache(maxsize=None)
def page_texts(pdf_path: Path) -> tuple[str, ...]:
    """Every page's text as pypdf extracts it, read once per session: for files that do not change
    (`shipped`, `build_out`). Extraction is slow: pypdf reads every placement of a form again."""
    from pypdf import PdfReader

    return tuple(page.extract_text() for page in PdfReader(pdf_path).pages)


def qr_urls(pdf: Path) -> list[str]:
    """The texts of the QR codes on the PDF's first page, read from a 200 dpi rendering."""
    import pypdfium2 as pdfium
    import zxingcpp

    doc = pdfium.PdfDocument(str(pdf))
    image = doc[0].render(scale=200 / 72).to_pil()
    doc.close()
    return [r.text for r in zxingcpp.read_barcodes(image)]
