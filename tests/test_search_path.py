"""Issue 12 in-process: the search path, new/show, default output names, options that do not
apply, "did you mean", command-line conventions and the first-compile notice."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import LAYOUTS
from test_robust import cli, one_line


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """Run in an empty folder outside the checkout."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_sheet_2_does_not_replace_the_build_file(capsysbinary, elsewhere):
    assert cli(capsysbinary, "render", "boogaloo")[0] == 0  # what `build` writes
    status, out, err = cli(capsysbinary, "render", "boogaloo", "--sheet", "2")
    assert status == 0 and "output/boogaloo-sheet-2.pdf (1 page" in out.decode(), err
    assert len(PdfReader("output/boogaloo.pdf").pages) == 4
    assert len(PdfReader("output/boogaloo-sheet-2.pdf").pages) == 1


@pytest.mark.parametrize("args, name", [
    (["rules-cards", "--game", "haunt-the-block"], "rules-cards-haunt-the-block.pdf"),
    (["tricky-treats", "--paper", "letter"], "tricky-treats-letter.pdf"),
    (["tricky-treats-letter", "--paper", "letter"], "tricky-treats-letter.pdf"),  # no change: no suffix
    (["gingerbread-status", "--copies", "2", "--ink-saver"], "gingerbread-status-ink-saver-2-copies.pdf"),
])
def test_default_names_follow_content_options(args, name):
    from sheetgen import api
    from sheetgen.kinds import Options, load

    flags = {"--game": "game", "--paper": "paper", "--copies": "copies"}
    kw, it = {}, iter(args[1:])
    for a in it:
        if a == "--ink-saver":
            kw["ink_saver"] = True
        else:
            kw[flags[a]] = int(next(it)) if a == "--copies" else next(it)
    opts = Options(**kw)
    assert api.default_name(load(args[0], opts), opts) == name


@pytest.mark.parametrize("args, flag", [
    (["tricky-treats", "--sheet", "2"], "--sheet"),
    (["boogaloo", "--bleed", "3"], "--bleed"),
    (["haunt-the-block", "--no-backs"], "--no-backs"),
    (["special-treat-cards", "--game", "boogaloo"], "--game"),
])
def test_option_that_does_not_apply_is_refused(capsysbinary, tmp_path, args, flag):
    out = tmp_path / "x.pdf"
    err = one_line(capsysbinary, "render", *args, "--out", str(out), out=out)
    assert f"{flag} does not apply" in err and not out.exists()


def test_did_you_mean(capsysbinary, tmp_path):
    assert "did you mean 'tricky-treats'" in one_line(capsysbinary, "render", "tricky-treets")
    assert "did you mean 'rollers'" in one_line(capsysbinary, "kit", "roller")
    bad = tmp_path / "typo.yaml"
    bad.write_text("extends: gingerbread-status\nlayout:\n  margn: 9\n")
    err = one_line(capsysbinary, "render", str(bad))
    assert "typo.yaml:3" in err and "layout.margn" in err and "did you mean 'margin'" in err
    bad.write_text("extends: gingerbread-status\nlayout:\n  paper: leter\n")
    assert "did you mean 'letter'" in one_line(capsysbinary, "render", str(bad))


def test_pinned_value_names_what_it_must_be(capsysbinary, tmp_path):
    bad = tmp_path / "t.yaml"
    bad.write_text("extends: tricky-treats\ncontent:\n  turns: 12\n")
    err = one_line(capsysbinary, "render", str(bad))
    assert "t.yaml:3" in err and "content.turns must be 16" in err


def test_compose_error_names_file_line_and_key(capsysbinary, tmp_path):
    bad = tmp_path / "narrow.yaml"
    bad.write_text("extends: haunt-the-block\nlayout:\n  across: 30\n")
    err = one_line(capsysbinary, "render", str(bad))
    assert "narrow.yaml:3" in err and "layout.across" in err


def test_new_and_show(capsysbinary, elsewhere):
    status, _, err = cli(capsysbinary, "new", "my-treats", "--from", "tricky-treats")
    assert status == 0, err
    text = Path("my-treats.yaml").read_text()
    assert text.count("\nextends: tricky-treats\n") == 1 and "#   paper: a4" in text
    assert cli(capsysbinary, "render", "my-treats.yaml")[0] == 0
    assert "--force" in one_line(capsysbinary, "new", "my-treats", "--from", "tricky-treats")
    assert cli(capsysbinary, "new", "my-treats", "--from", "boogaloo", "--force")[0] == 0
    status, out, _ = cli(capsysbinary, "show", "tricky-treats-letter")
    assert status == 0 and out.decode() == (LAYOUTS / "tricky-treats-letter.yaml").read_text()
    status, out, _ = cli(capsysbinary, "show", "tricky-treats-letter", "--resolved")
    assert "extends" not in out.decode() and "paper: letter" in out.decode() and "children:" in out.decode()
    Path("shown.yaml").write_text("mine")
    assert "--force" in one_line(capsysbinary, "show", "boogaloo", "--out", "shown.yaml")
    assert Path("shown.yaml").read_text() == "mine"


def test_sheetgen_path_and_layouts_option(capsysbinary, tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    for folder, title in ((a, "From A"), (b, "From B")):
        folder.mkdir()
        (folder / "house.yaml").write_text(f"extends: gingerbread-status\ntitle: {title}\n")
    monkeypatch.setenv("SHEETGEN_PATH", f"{b}{os.pathsep}{a}")
    status, out, _ = cli(capsysbinary, "list", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert status == 0 and rows["house"]["source"] == "SHEETGEN_PATH" and rows["house"]["path"].startswith(str(b))
    assert rows["rollers"]["source"] == "kit" and rows["tricky-treats"]["source"] == "shipped"
    status, out, _ = cli(capsysbinary, "--layouts", str(a), "show", "house")  # global option first
    assert "From A" in out.decode()
    status, out, _ = cli(capsysbinary, "show", "house", "--layouts", str(a))  # or on the command
    assert "From A" in out.decode()


def test_command_line_conventions(capsysbinary):
    from sheetgen import __version__

    status, out, _ = cli(capsysbinary, "--version")
    assert status == 0 and out.decode().strip() == f"sheetgen {__version__}"
    status, out, _ = cli(capsysbinary, "render", "-h")
    help_text = out.decode()
    assert status == 0 and "--layouts DIR" in help_text
    status, out, _ = cli(capsysbinary, "-h")
    lines = out.decode().splitlines()
    assert "--install-completion" in out.decode()
    validate = next(line for line in lines if line.strip().startswith("validate"))
    assert len(validate) > 80 and validate.rstrip().endswith("2 on bad input.")  # not a terminal: not wrapped
    err = one_line(capsysbinary, "render", "tricky-treats", "--copies", "0")
    assert "--copies" in err and "render -h" in err


def test_render_json_figures(capsysbinary, tmp_path):
    status, out, _ = cli(capsysbinary, "render", "tricky-treats", "--out", str(tmp_path / "t.pdf"), "--json")
    figures = json.loads(out)
    assert status == 0 and figures["pages"] == 1 and figures["bytes"] == (tmp_path / "t.pdf").stat().st_size


def test_numba_cache_is_per_user_and_first_compile_is_announced(tmp_path, monkeypatch):
    import sheetgen
    from sheetgen import jit

    assert os.environ["NUMBA_CACHE_DIR"].startswith(sheetgen.cache_dir())
    assert "site-packages" not in os.environ["NUMBA_CACHE_DIR"]
    rules = "sheetgen.games.tricky_treats.rules"
    # numba reads NUMBA_CACHE_DIR once, when first imported: import the engines (and numba) before
    # pointing it at tmp_path, or this process's later games compile into tmp_path from scratch
    assert jit.compiled_module(rules) and jit.compiled_module("sheetgen.games.boogaloo.rules")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    line = jit.notice(rules, "fast")
    assert line and "compiling" in line and f"about {jit.COMPILE_SECONDS} s" in line
    src = Path(jit.compiled_module(rules).__file__)
    # numba's index for this file, as numba writes it: its version, then (source stamp, overloads)
    folder = tmp_path / f"{src.parent.name}_{hashlib.sha1(str(src.parent).encode()).hexdigest()}"
    other = tmp_path / f"{src.parent.name}_0123"  # the same package in another checkout or a venv
    for where, source in ((other, src.read_bytes()), (folder, src.read_bytes() + b"# edited")):
        where.mkdir(exist_ok=True)
        stamp = hashlib.sha256(source).digest()
        (where / f"{src.stem}._free-128.py311.nbi").write_bytes(
            pickle.dumps("0.68.1") + pickle.dumps((stamp, {})))
        assert jit.notice(rules, "fast")  # another path's code, or code of an older source: compiles
    (folder / f"{src.stem}._free-128.py311.nbi").write_bytes(
        pickle.dumps("0.68.1") + pickle.dumps((hashlib.sha256(src.read_bytes()).digest(), {})))
    assert jit.notice(rules, "fast") is None  # cached: silent
    assert jit.notice("sheetgen.games.boogaloo.rules", "fast")  # compiled too now, not cached here
    assert jit.notice(rules, "reference") is None


def test_numba_cache_folder_changes_with_what_the_engines_inline(tmp_path):
    import shutil

    import sheetgen

    package = Path(sheetgen.__file__).parent
    assert os.environ["NUMBA_CACHE_DIR"].endswith("numba-" + sheetgen.engines_digest())
    copy = tmp_path / "sheetgen"
    for part in ("validate", "games"):
        shutil.copytree(package / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    first = sheetgen.engines_digest(str(copy))
    assert first == sheetgen.engines_digest()
    (copy / "games" / "rules_cards" / "flow.py").write_text("# no engine here\n")
    assert sheetgen.engines_digest(str(copy)) == first
    for edited in ("games/tricky_treats/policy.py", "validate/bits.py", "games/boogaloo/board.py"):
        (copy / edited).write_text((copy / edited).read_text() + "\n# edited\n")
        assert sheetgen.engines_digest(str(copy)) != first, edited
        first = sheetgen.engines_digest(str(copy))
