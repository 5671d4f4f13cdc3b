"""Nothing breaks it: each kind of bad input or fault is one line and exit 2 (or a correct write),
and the user's files stay as they were. Run in-process through `sheetgen.cli.main` (cheap); the
subprocess path is covered by conftest's render_error in test_bad_layouts."""

from __future__ import annotations

import errno
import os
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import LAYOUTS, cli

GOOD = (LAYOUTS / "gingerbread-status.yaml").read_text()


def one_line(capsysbinary, *args: str, out: Path | None = None) -> str:
    """Exit 2, one line on stderr, no traceback; no output and no temporary file left."""
    status, _, err = cli(capsysbinary, *args)
    assert status == 2, err
    err = err.strip()
    assert err.startswith("sheetgen: error:") and "\n" not in err and "Traceback" not in err, err
    if out is not None:
        assert list(out.parent.glob(f".{out.name}*.part")) == []
    return err


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


# -- files and folders ---------------------------------------------------------------------------
def test_layout_that_is_a_folder(capsysbinary, tmp_path):
    (tmp_path / "dir.yaml").mkdir()
    assert "is a folder" in one_line(capsysbinary, "render", str(tmp_path / "dir.yaml"))


def test_layout_not_utf8(capsysbinary, tmp_path):
    bad = write(tmp_path / "latin.yaml", GOOD.replace("Ju Ju", "J\u00fc J\u00fc").encode("latin-1"))
    err = one_line(capsysbinary, "render", str(bad))
    assert "not UTF-8" in err and "latin.yaml:" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_layout_unreadable(capsysbinary, tmp_path):
    bad = write(tmp_path / "locked.yaml", GOOD)
    bad.chmod(0)
    assert "permission denied" in one_line(capsysbinary, "render", str(bad))


def test_extends_a_folder(capsysbinary, tmp_path):
    (tmp_path / "parent.yaml").mkdir()
    bad = write(tmp_path / "child.yaml", "extends: parent.yaml\ntitle: x\n")
    err = one_line(capsysbinary, "render", str(bad))
    assert "child.yaml:1" in err and "folder" in err and "'extends'" in err


def test_out_is_a_folder_or_under_a_file(capsysbinary, tmp_path):
    assert "is a folder" in one_line(capsysbinary, "render", "tricky-treats", "--out", str(tmp_path))
    write(tmp_path / "file", "x")
    err = one_line(capsysbinary, "render", "tricky-treats", "--out", str(tmp_path / "file" / "x.pdf"))
    assert "is a file, not a folder" in err and "x.pdf" in err


@pytest.mark.parametrize("code, words", [(errno.EROFS, "read-only"), (errno.EACCES, "Permission"),
                                         (errno.ENOSPC, "space")])
def test_out_file_system_faults_keep_the_old_file(capsysbinary, tmp_path, monkeypatch, code, words):
    """Read-only file system, no write permission, full disk: one line, old file unchanged."""
    import sheetgen.output as output

    out = write(tmp_path / "keep.pdf", b"old contents")

    def fail(*a, **k):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(output.os, "replace", fail)
    err = one_line(capsysbinary, "render", "tricky-treats", "--out", str(out), out=out)
    assert words in err and "keep.pdf" in err
    assert out.read_bytes() == b"old contents"


def device(tmp_path: Path, name: str, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (7). As root, a node of our own in
    tmp_path, so a regression replaces that node and never the system's; else the system's (which
    a user cannot replace)."""
    if os.geteuid() != 0:
        return Path("/dev") / name
    node = tmp_path / name
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return node


def test_full_device(capsysbinary, tmp_path):
    full = device(tmp_path, "full", 7)
    assert "No space left" in one_line(capsysbinary, "render", "tricky-treats", "--out", str(full))


# -- special outputs ----------------------------------------------------------------------------
def test_dev_null_stays_a_device(capsysbinary, tmp_path):
    null = device(tmp_path, "null", 3)
    status, _, err = cli(capsysbinary, "render", "tricky-treats", "--out", str(null))
    assert status == 0, err
    assert stat.S_ISCHR(os.stat(null).st_mode)


def test_out_dash_writes_the_pdf_to_stdout(capsysbinary):
    status, out, err = cli(capsysbinary, "render", "tricky-treats", "--out", "-")
    assert status == 0, err
    assert out.startswith(b"%PDF-") and out.rstrip().endswith(b"%%EOF")
    assert "wrote -" in err  # the summary goes to stderr, not into the PDF


def test_symlink_target_is_written_link_kept(capsysbinary, tmp_path):
    target = write(tmp_path / "real" / "sheet.pdf", b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(target)
    status, _, err = cli(capsysbinary, "render", "tricky-treats", "--out", str(link))
    assert status == 0, err
    assert link.is_symlink() and target.read_bytes().startswith(b"%PDF-")


def test_pipe_is_written_through(capsysbinary, tmp_path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    status, _, err = cli(capsysbinary, "render", "tricky-treats", "--out", str(fifo))
    reader.join(30)
    assert status == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got and got[0].startswith(b"%PDF-")


# -- runaway input ------------------------------------------------------------------------------
BOMB = "kind: gingerbread-status\na: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi")) + "title: *i\n"


def test_alias_bomb_refused(capsysbinary, tmp_path):
    t0 = time.process_time()
    err = one_line(capsysbinary, "render", str(write(tmp_path / "bomb.yaml", BOMB)))
    assert "aliases" in err and "bomb.yaml" in err
    assert len(BOMB) < 700


def test_large_file_refused(capsysbinary, tmp_path):
    big = write(tmp_path / "big.yaml", "kind: gingerbread-status\nlist:\n" + "  - 1\n" * 200_000)
    assert "larger than" in one_line(capsysbinary, "render", str(big))


def test_deep_nesting_refused(capsysbinary, tmp_path):
    deep = write(tmp_path / "deep.yaml", "kind: gingerbread-status\nx: " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nesting deeper" in one_line(capsysbinary, "render", str(deep))


# -- duplicate keys, numbers ----------------------------------------------------------------------
def test_duplicate_key_names_both_lines(capsysbinary, tmp_path):
    bad = write(tmp_path / "dup.yaml", GOOD.replace("title:", "title: First\ntitle:", 1))
    err = one_line(capsysbinary, "render", str(bad))
    line = GOOD[:GOOD.index("title:")].count("\n") + 1
    assert f"lines {line} and {line + 1}" in err and "'title'" in err


@pytest.mark.parametrize("value", ["nan,0", "inf,0", "0,-inf", "1e9,0", "x"])
def test_back_offset_must_be_finite_and_small(capsysbinary, value):
    assert "--back-offset" in one_line(capsysbinary, "render", "special-treat-cards",
                                       f"--back-offset={value}")


def test_layout_numbers_must_be_finite(capsysbinary, tmp_path):
    bad = write(tmp_path / "nan.yaml", "extends: gingerbread-status\nlayout:\n  margin: .nan\n")
    err = one_line(capsysbinary, "render", str(bad))
    assert "nan.yaml:3" in err and "layout.margin" in err and "finite" in err


def test_bleed_nan_refused(capsysbinary):
    assert "--bleed" in one_line(capsysbinary, "render", "special-treat-cards", "--bleed", "nan")


# -- text reaching a renderer ---------------------------------------------------------------------
CARDS = (LAYOUTS / "special-treat-cards.yaml").read_text()
FIRST_TEXT = "Crack it on a cookie you pass or land on."


@pytest.mark.parametrize("markup", ['<img src="/etc/hostname"/>', '<a href="x">y</a>',
                                    '<link href="x">y</link>', '<font size="90">y</font>'])
def test_card_markup_outside_the_small_set_refused(capsysbinary, tmp_path, markup):
    assert FIRST_TEXT in CARDS
    bad = write(tmp_path / "cards.yaml", CARDS.replace(FIRST_TEXT, FIRST_TEXT + " " + markup))
    out = tmp_path / "cards.pdf"
    err = one_line(capsysbinary, "render", str(bad), "--out", str(out), out=out)
    assert "Jawbreaker" in err and "not allowed" in err and not out.exists()


@pytest.mark.parametrize("placeholder", ["{dice}", "{turns.__class__.__init__.__doc__}", "{turns!r}"])
def test_summary_placeholders_only_the_sheets(capsysbinary, tmp_path, placeholder):
    """A local rules-cards.yaml (on --layouts, overriding the shipped one) with a bad placeholder."""
    rules = (LAYOUTS / "rules-cards.yaml").read_text()
    assert "{turns} turns" in rules
    mine = write(tmp_path / "mine" / "rules-cards.yaml", rules.replace("{turns} turns", placeholder, 1))
    err = one_line(capsysbinary, "render", "tricky-treats", "--layouts", str(mine.parent))
    assert "rules-cards.yaml:" in err and "summary" in err and "{turns}" in err
    assert "Initialize self" not in err


# -- reaching outside -----------------------------------------------------------------------------
def test_extends_outside_the_layout_folders_refused(capsysbinary, tmp_path):
    write(tmp_path / "outside" / "base.yaml", GOOD)
    inside = write(tmp_path / "inside" / "a.yaml", "extends: ../outside/base.yaml\ntitle: x\n")
    err = one_line(capsysbinary, "render", str(inside))
    assert "outside the layout folders" in err and "a.yaml:1" in err
    absolute = write(tmp_path / "inside" / "b.yaml", f"extends: {tmp_path}/outside/base.yaml\n")
    assert "outside the layout folders" in one_line(capsysbinary, "render", str(absolute))
    # on the search path it is allowed
    status, _, err = cli(capsysbinary, "render", str(inside), "--layouts", str(tmp_path / "outside"),
                         "--out", str(tmp_path / "ok.pdf"))
    assert status == 0, err


def test_extends_by_name_from_anywhere(capsysbinary, tmp_path):
    mine = write(tmp_path / "my.yaml", "extends: tricky-treats\ntitle: Mine\n")
    status, _, err = cli(capsysbinary, "render", str(mine), "--out", str(tmp_path / "my.pdf"))
    assert status == 0, err


def test_local_file_may_override_and_extend_the_shipped_one(capsysbinary, tmp_path):
    write(tmp_path / "layouts" / "tricky-treats.yaml", "extends: tricky-treats\ntitle: House Rules\n")
    from sheetgen import api

    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert api.load("tricky-treats").doc.title == "House Rules"
        rows = {r.name: r.source for r in api.listing()}
    finally:
        os.chdir(old)
    assert rows["tricky-treats"] == "./layouts" and rows["boogaloo"] == "shipped"


# -- blast radius ----------------------------------------------------------------------------------
def test_one_broken_file_affects_only_itself(capsysbinary, tmp_path):
    folder = tmp_path / "mine"
    write(folder / "broken.yaml", "kind: [unclosed\n")
    status, out, err = cli(capsysbinary, "list", "--layouts", str(folder))
    assert status == 0, err
    row = next(line for line in out.decode().splitlines() if line.startswith("broken"))
    assert "error:" in row and "broken.yaml:" in row
    status, _, err = cli(capsysbinary, "kit", "rollers", "--layouts", str(folder),
                         "--out", str(tmp_path / "kit.pdf"))
    assert status == 0, err
    assert "broken.yaml" in one_line(capsysbinary, "render", "broken", "--layouts", str(folder))


# -- leftovers ------------------------------------------------------------------------------------
def test_interrupted_write_leaves_no_part_file(tmp_path, monkeypatch):
    import sheetgen.output as output

    def interrupt(*a):
        raise KeyboardInterrupt

    monkeypatch.setattr(output.os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        output.write_atomic(tmp_path / "x.pdf", b"data")
    assert list(tmp_path.iterdir()) == []


def test_stale_part_files_swept_fresh_ones_kept(capsysbinary, tmp_path):
    stale = write(tmp_path / ".out.pdf.abc123.part", b"half")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    fresh = write(tmp_path / ".out.pdf.def456.part", b"another run, still writing")
    status, _, err = cli(capsysbinary, "render", "tricky-treats", "--out", str(tmp_path / "out.pdf"))
    assert status == 0, err
    assert not stale.exists() and fresh.exists()


def test_sigterm_unwinds_like_ctrl_c(capsysbinary, tmp_path, monkeypatch):
    """SIGTERM during a write: the temporary file goes, the old file stays, exit 143, one line."""
    import signal

    import sheetgen.output as output

    out = write(tmp_path / "keep.pdf", b"old")
    monkeypatch.setattr(output.os, "replace", lambda *a: os.kill(os.getpid(), signal.SIGTERM))
    status, _, err = cli(capsysbinary, "render", "tricky-treats", "--out", str(out))
    assert status == 143 and err.strip() == "sheetgen: interrupted"
    assert out.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["keep.pdf"]


def test_kind_of_the_wrong_type(capsysbinary, tmp_path):
    """Found by the property suite: `kind: []` was a TypeError."""
    bad = write(tmp_path / "k.yaml", "kind: []\ntitle: x\n")
    assert "k.yaml:1" in one_line(capsysbinary, "render", str(bad))


# -- silent damage --------------------------------------------------------------------------------
def test_long_title_off_the_page_is_an_error(capsysbinary, tmp_path):
    text = (LAYOUTS / "tricky-treats.yaml").read_text()
    bad = write(tmp_path / "title.yaml", text.replace("title: Tricky Treats", "title: Tricky Treats"
                                                      + " and friends" * 12, 1))
    err = one_line(capsysbinary, "render", str(bad), "--out", str(tmp_path / "t.pdf"))
    assert "title.yaml:" in err and "'title'" in err and "printer-safe margin" in err


def test_long_candy_name_over_the_qr_code_is_an_error(capsysbinary, tmp_path):
    bad = write(tmp_path / "candy.yaml", GOOD.replace("name: Peppermint Swirl",
                                                      "name: Peppermint Swirl Supreme Deluxe Twist", 1))
    err = one_line(capsysbinary, "render", str(bad), "--out", str(tmp_path / "c.pdf"))
    assert "key.peppermint.name" in err and "touches qr" in err


def test_text_running_into_text_is_found():
    from sheetgen import lint
    from sheetgen.errors import SheetgenError
    from sheetgen.scene import Page, Text

    page = Page(210, 297)
    page.add(Text(20, 50, "A very long candy name indeed", 9, id="key.a.name"),
             Text(50, 50, "Next", 9, id="key.b.name"), Text(20, 80, "Alone", 9, id="key.c.name"))
    found = lint.problems(page, text_only=True)
    assert len(found) == 1 and found[0].startswith("key.a.name: text touches key.b.name at"), found
    with pytest.raises(SheetgenError, match="key.a.name.*touches key.b.name"):
        lint.check([page])
