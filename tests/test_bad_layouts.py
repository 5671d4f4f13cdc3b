"""Bad layouts: one line on stderr naming file, line and key; exit 2; no traceback; no file."""

from __future__ import annotations

import json
import textwrap

import pytest

from conftest import LAYOUTS, render_error

GOOD = (LAYOUTS / "gingerbread-status.yaml").read_text()


def _case(tmp_path, text: str, name: str = "bad.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _extends(body: str) -> str:
    return f"extends: {LAYOUTS / 'gingerbread-status.yaml'}\n" + textwrap.dedent(body)


CASES = {
    "yaml syntax": ("kind: gingerbread-status\ntitle: [unclosed\nlayout:\n  paper: a4\n", 3, "line 2"),
    "unknown key": (_extends("layout:\n  paper: a4\n  colour_mode: fancy\n"), 4, "layout.colour_mode"),
    "wrong type": (_extends("layout:\n  box: large\n"), 3, "layout.box"),
    "out of range": (_extends("title: Mine\nlayout:\n  margin: 2\n"), 4, "layout.margin"),
    "box too small": (_extends("layout:\n  box: 4\n"), 3, "layout.box"),
    "bad paper": (_extends("layout:\n  paper: a5\n"), 3, "layout.paper"),
    "unknown candy": (GOOD.replace("candy: jujube", "candy: jellybean"), None, "content"),
    "missing extends": ("extends: nowhere.yaml\ntitle: x\n", 1, "extends"),
    "unknown kind": ("kind: gingerbred\ntitle: x\n", 1, "kind"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_layout_is_one_clear_line(tmp_path, name):
    text, line, key = CASES[name]
    path = _case(tmp_path, text)
    err = render_error(path, tmp_path / "out.pdf")
    assert "bad.yaml" in err
    if line is not None:
        assert f"bad.yaml:{line}" in err, err
    if key:
        assert key in err, err  # the key, or for YAML syntax the line where the construct opened
    assert "fix:" in err


def test_extends_cycle(tmp_path):
    _case(tmp_path, "extends: b.yaml\ntitle: a\n", "a.yaml")
    _case(tmp_path, "extends: a.yaml\ntitle: b\n", "b.yaml")
    err = render_error(tmp_path / "a.yaml", tmp_path / "o.pdf")
    assert "cycle" in err and "a.yaml" in err and "b.yaml" in err


def test_unknown_layout_name(main):
    res = main("render", "no-such-layout")
    assert res.returncode == 2
    assert "no layout named 'no-such-layout'" in res.stderr and "gingerbread-status" in res.stderr


def test_extends_adjusts_numbers(tmp_path):
    from sheetgen.kinds import load

    path = _case(tmp_path, _extends("layout:\n  margin: '+= 2'\n  box: '-= 0.5'\n"))
    doc = load(path).doc
    assert (doc.layout.margin, doc.layout.box) == (10, 5.5)


def test_letter_layout_overrides_only_paper():
    from sheetgen.kinds import load

    a4, letter = load("gingerbread-status").doc, load("gingerbread-status-letter").doc
    assert (a4.layout.paper, letter.layout.paper) == ("a4", "letter")
    assert a4.content == letter.content


def test_schema_lists_every_kind(main):
    from sheetgen.kinds import KINDS

    res = main("schema")
    assert res.returncode == 0
    schema = json.loads(res.stdout)
    kinds = {d["properties"]["kind"]["const"] for d in schema["$defs"].values()
             if "kind" in d.get("properties", {}) and "const" in d["properties"]["kind"]}
    assert kinds == set(KINDS)


def test_list_names_every_layout(main):
    res = main("list")
    assert res.returncode == 0
    rows = [line.split() for line in res.stdout.splitlines()]
    names = [r[0] for r in rows if r[1] != "kit"]
    assert names == sorted(p.stem for p in LAYOUTS.glob("*.yaml") if not p.name.startswith("_"))
    assert {r[1] for r in rows} == {"shipped", "kit"} and "ghosts-love-candy-too" in [r[0] for r in rows]


def test_paper_option_applies_without_a_layout_section(tmp_path):
    from sheetgen.kinds import Options, load

    body = GOOD[:GOOD.index("\nlayout:")] + "\n"
    path = _case(tmp_path, body, "nolayout.yaml")
    assert load(path, Options(paper="letter")).doc.layout.paper == "letter"


def test_error_survives_a_worker_process():
    import pickle

    from sheetgen.errors import SheetgenError

    err = pickle.loads(pickle.dumps(SheetgenError("bad", file="a.yaml", line=3, key="k", fix="do x")))
    assert str(err) == "a.yaml:3: key 'k': bad (fix: do x)"
