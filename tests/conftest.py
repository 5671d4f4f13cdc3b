"""Shared test helpers: run the CLI as a user would, and read PDFs. Also: the numba engines are
compiled once per session, in the background, while the tests that play no game run first."""

from __future__ import annotations

import fcntl
import functools
import gc
import hashlib
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import sheetgen as _package  # noqa: F401  sets NUMBA_CACHE_DIR for this process and its children
from sheetgen.cli import GC_THRESHOLD

gc.set_threshold(*GC_THRESHOLD)  # the tests run what they call in-process as the sheetgen script does

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


def _main(args: tuple[str, ...]) -> int:
    """sheetgen.cli.main with ARGS in this process; its exit status."""
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
    return done.value.code


def cli(capsysbinary, *args: str) -> tuple[int, bytes, str]:
    """Run `sheetgen ARGS` in this process: (exit status, stdout bytes, stderr text)."""
    status = _main(args)
    out, err = capsysbinary.readouterr()
    return status, out, err.decode()


def sheetgen_here(*args: str) -> subprocess.CompletedProcess:
    """`sheetgen ARGS` as `sheetgen()` runs it (from the checkout, text output) but in this process,
    through sheetgen.cli.main: no interpreter start-up, and usable in module fixtures (`main` is
    per test). Use `sheetgen()` only for what a fresh process alone shows."""
    import contextlib
    import io

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in "12")
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = _main(args)
    finally:
        os.chdir(here)
    text = [stream.buffer.getvalue().decode() for stream in (out, err)]
    return subprocess.CompletedProcess(["sheetgen", *args], status, *text)


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


def engines_agree(rules, doc, policy: str, games: int, batch: int, seed: int):
    """Both engines of `rules` play the same `games` (inputs batch `batch` of `seed`) on `doc`:
    assert their Batches are identical, naming the fields and first games that differ; the
    reference's Batch."""
    import dataclasses

    import numpy as np

    dice, u, targets = rules.inputs(batch, games, seed, policy, len(rules.element_ids(doc)))
    ref = rules.reference(doc, dice, u, policy, targets)
    fast = rules.fast(doc, dice, u, policy, targets)
    bad = [f.name for f in dataclasses.fields(ref)
           if not np.array_equal(getattr(ref, f.name), getattr(fast, f.name))]
    where = (np.flatnonzero((fast.state != ref.state).any(1))[:10].tolist()
             if ref.state.shape == fast.state.shape else "?")
    assert not bad, f"{rules.game} {policy}: engines differ in {bad}; games {where}"
    assert ref.same_as(fast)
    return ref


def qr_urls(pdf: Path) -> list[str]:
    """The texts of the QR codes on the PDF's first page, read from a 200 dpi rendering."""
    import pypdfium2 as pdfium
    import zxingcpp

    doc = pdfium.PdfDocument(str(pdf))
    image = doc[0].render(scale=200 / 72).to_pil()
    doc.close()
    return [r.text for r in zxingcpp.read_barcodes(image)]


# --- The numba engines, compiled once per session -------------------------------------------------
# On an empty cache (a fresh clone: numba keys its cache by the source's path) each pytest-xdist
# worker and each `sheetgen validate` a test starts would compile the same engines again (about 25 s
# of CPU for the three in one process, 2026-12-01; 43.5 s at load 3 later that day: Boogaloo 7.9,
# Tricky Treats 12.0, Haunt the Block 23.6). Instead the controller starts
# tests/warm_engines.py, which compiles them while holding WARM_LOCK, and each engine's own lock until
# that engine is compiled; modules not in NO_GAMES wait for those locks before their first test (all
# of them, or the engines the module names in ENGINES), and NO_GAMES modules run first (pytest -n 2
# --dist loadfile --no-loadscope-reorder keeps this order).
_CHECKOUT = hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]  # one lock per checkout
WARM_LOCK = Path(os.environ["NUMBA_CACHE_DIR"]) / f".warm-{_CHECKOUT}.lock"
# waits for Boogaloo's engine only (the warmer's first), then runs the installed tool meanwhile
FIRST = ["test_install.py"]
# modules that play no game with a compiled engine of this checkout, heaviest first (CPU s of a
# whole cold run, 2026-12-01)
NO_GAMES = ["test_kit.py", "test_cards.py", "test_build.py", "test_print_rules.py", "test_report.py",
            "test_fillable.py", "test_validate.py", "test_rules_cards.py", "test_robust.py",
            "test_roll_dice.py", "test_booklet.py", "test_print_defects.py", "test_rules_cards_text.py",
            "test_print_on_demand.py", "test_bom.py", "test_status_sheet.py", "test_race.py",
            "test_search_path.py", "test_tokens.py", "test_boards.py", "test_mat.py",
            "test_paper_dice.py", "test_kit_documents.py", "test_bad_layouts.py", "test_printshop.py",
            "test_score_pad.py", "test_lint_sweep.py", "test_draw_fast.py", "test_columns.py",
            "test_pdfs.py"]
# (test_validate, test_report: the validator on its toy game, tests/validate_toy.py; test_race: the
# race engine; test_search_path: the search's files, no game played)
# the others: first those that wait for Boogaloo's or Tricky Treats' engine alone (ENGINES; the warmer
# compiles them first), so the workers play them while it compiles Haunt the Block's (the longest:
# in whole runs both workers sat 7-11 s in the first HEAVY module's set-up, waiting for all three);
# then heaviest first, so that the run ends on short modules; any module not named runs last
HEAVY = ["test_tricky_treats_engines.py", "test_boogaloo_sheet.py", "test_boogaloo_engines.py",
         "test_boogaloo_variant.py", "test_tricky_treats_sheet.py",
         "test_validate_games.py", "test_variant.py", "test_search.py", "test_haunt_the_block_engines.py",
         "test_properties.py", "test_serve_browser.py", "test_search_spaces.py",
         "test_haunt_the_block_variant.py", "test_search_links.py", "test_serve.py",
         "test_haunt_the_block_sheet.py", "test_switched_off.py", "test_protocol.py"]


def cold_engines() -> list[Path]:
    """The compiled (numba) engines of this checkout that numba's cache does not hold yet."""
    from sheetgen import jit

    return [p for p in sorted((ROOT / "sheetgen" / "games").glob("*/fast.py"))
            if "numba" in p.read_text() and not jit.is_cached(SimpleNamespace(__file__=str(p)))]


def engine_lock(engine: str) -> Path:
    """The lock the warmer holds until one engine (its games package: boogaloo...) is compiled."""
    return WARM_LOCK.with_name(f".warm-{_CHECKOUT}-{engine}.lock")


# pytest rewrites the asserts of every module of a plugin's distribution, and with no bytecode
# cache (a fresh clone, PYTHONDONTWRITEBYTECODE) again in each process that collects: hypothesis's
# 74 modules, whose asserts are not the tests', cost ~1.1 CPU s a process (2026-12-01; the other
# plugins' libraries are imported before conftest is)
NOT_REWRITTEN = {"hypothesis"}


def _rewrite_tests_only() -> None:
    from _pytest.assertion.rewrite import AssertionRewritingHook

    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if isinstance(finder, AssertionRewritingHook) and isinstance(marked, set):  # else left alone
            marked -= NOT_REWRITTEN


def pytest_configure(config):
    _rewrite_tests_only()
    cold = [] if hasattr(config, "workerinput") else cold_engines()
    if not cold:
        return  # an xdist worker (the controller started the warmer), or nothing to compile
    if config.args and all(Path(a.split("::")[0]).name in NO_GAMES for a in config.args):
        return  # only modules that play no game were asked for
    try:
        WARM_LOCK.parent.mkdir(parents=True, exist_ok=True)
        lock = open(WARM_LOCK, "a")
    except OSError:  # no writable cache: numba cannot cache either; each process compiles
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # another session of this checkout is compiling them: wait for it
        lock.close()
        return
    engines = {p.parent.name: open(engine_lock(p.parent.name), "a") for p in cold}
    for f in engines.values():  # free: only a warmer, which holds WARM_LOCK, takes them
        fcntl.flock(f, fcntl.LOCK_EX)
    # the warmer inherits the locked files: it closes an engine's when that engine is compiled, and
    # holds WARM_LOCK until it exits, however it exits
    config.sheetgen_warmer = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "warm_engines.py"), str(lock.fileno()), str(LAYOUTS),
         *(f"{name}={f.fileno()}" for name, f in engines.items())],
        pass_fds=(lock.fileno(), *(f.fileno() for f in engines.values())), cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for f in (lock, *engines.values()):
        f.close()


def pytest_unconfigure(config):
    warmer = getattr(config, "sheetgen_warmer", None)
    if warmer is not None and warmer.poll() is None:
        warmer.terminate()  # the session ended (or was stopped) before the engines were compiled
        warmer.wait()


def wait_for_engines(*engines: str) -> None:
    """Return once no warmer is compiling this checkout's engines, or these engines (games packages:
    boogaloo, tricky_treats...); at once when none is."""
    for path in [engine_lock(e) for e in engines] or [WARM_LOCK]:
        try:
            lock = open(path, "r")
        except OSError:  # no warmer ever ran here
            continue
        with lock:
            fcntl.flock(lock, fcntl.LOCK_SH)


@pytest.fixture(scope="module", autouse=True)
def _engines_compiled(request):
    if request.node.path.name not in NO_GAMES:
        wait_for_engines(*getattr(request.module, "ENGINES", ()))


def pytest_collection_modifyitems(items):
    """The install test, the modules that play no game, then the heavy ones; heaviest first within each."""
    rank = {name: i for i, name in enumerate(FIRST + NO_GAMES + HEAVY)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: same order inside
