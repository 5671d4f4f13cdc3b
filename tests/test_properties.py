"""Property-based contract (Hypothesis): any mutation of any shipped layout, and any mix of render
options, gives either a valid PDF or one line naming the file (and key), never a traceback, a new
file or a changed --out file. The same for the options of kit, variant and build, which must also
refuse a bad --out before the costly work.

Bounded for the normal run (SHEETGEN_PROPERTY_EXAMPLES examples per property, default 12, 4 for
kit and variant; no shrinking database); run longer with e.g. `SHEETGEN_PROPERTY_EXAMPLES=500
python -m pytest -q tests/test_properties.py --hypothesis-show-statistics`.
"""

from __future__ import annotations

import copy
import io
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from conftest import LAYOUTS

EXAMPLES = int(os.environ.get("SHEETGEN_PROPERTY_EXAMPLES", "12"))
CHECK = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 12,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when there: this runs at collection
RAW = {p.stem: yaml.load(p.read_text(encoding="utf-8"), Loader=_LOADER) for p in sorted(LAYOUTS.glob("*.yaml"))}
OLD = b"%PDF-1.4 the user's own file\n"

NASTY = ['<img src="/etc/hostname"/>', '<a href="x">y</a>', "<link>x</link>", "{dice}",
         "{turns.__class__.__init__.__doc__}", "{", "}", "&", "&bogus;", "<b>", "W" * 120,
         "word " * 300, "", " ", "\u202e", "ü" * 40, "#zzzzzz", "a4", "letter", "-= 1e9", "+= nan"]
VALUES = st.one_of(st.integers(-10**9, 10**9), st.floats(allow_nan=True, allow_infinity=True),
                   st.text(max_size=60), st.sampled_from(NASTY), st.booleans(), st.none(),
                   st.lists(st.integers(-5, 50), max_size=4),
                   st.dictionaries(st.sampled_from(["id", "name", "count", "x"]), st.integers(-3, 30),
                                   max_size=3))


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def _parent(data, path):
    for p in path[:-1]:
        data = data[p]
    return data


@st.composite
def mutated_layout(draw):
    name = draw(st.sampled_from(sorted(RAW)))
    data = copy.deepcopy(RAW[name])
    for _ in range(draw(st.integers(1, 3))):
        where = [p for p in paths(data) if p]
        path = draw(st.sampled_from(where))
        parent, key = _parent(data, path), path[-1]
        op = draw(st.sampled_from(["tweak", "tweak", "set", "delete", "add"]))
        old = parent[key]
        if op == "tweak" and isinstance(old, bool):
            parent[key] = not old
        elif op == "tweak" and isinstance(old, (int, float)):  # same type, any size or sign
            parent[key] = draw(st.one_of(st.integers(-3, 3).map(lambda d: old + d),
                                         st.floats(-1e4, 1e4), st.integers(-10**6, 10**6)))
        elif op == "tweak" and isinstance(old, str):  # longer, markup, placeholders, empty
            parent[key] = draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=40),
                                         st.just(old * 3), st.just(old + " " + old)))
        elif op in ("set", "tweak"):
            parent[key] = draw(VALUES)
        elif op == "delete":
            del parent[key]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["colour_mode", "extra", "titel", "count"]))] = draw(VALUES)
        else:
            parent.append(draw(VALUES))
    return name, data


def check_outcome(run, out: Path, layout: Path | None = None):
    """Call run(); either a valid PDF at `out`, or one SheetgenError line, `out` untouched."""
    from pypdf import PdfReader

    from sheetgen.errors import SheetgenError

    out.write_bytes(OLD)
    try:
        built = run()
    except SheetgenError as exc:
        text = str(exc)
        assert "\n" not in text and text, text
        if layout is not None:  # a layout's fault names its file and line
            assert exc.file and Path(exc.file).name.endswith(".yaml") and exc.line, text
        assert out.read_bytes() == OLD
        assert [p.name for p in out.parent.iterdir() if p.name.endswith(".part")] == []
        return "error"
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and len(PdfReader(out).pages) == built.pages >= 1
    return "pdf"


@CHECK
@given(case=mutated_layout())
def test_any_mutated_layout_renders_or_gives_one_line(tmp_path_factory, case):
    from sheetgen import api

    name, data = case
    folder = tmp_path_factory.mktemp("mut")
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    event(check_outcome(lambda: api.render(path, folder / "out.pdf"), folder / "out.pdf", layout=path))
    assert sorted(p.name for p in folder.iterdir()) == sorted([path.name, "out.pdf"])


OPTIONS = st.fixed_dictionaries({}, optional={
    "paper": st.sampled_from(["a4", "letter"]),
    "copies": st.integers(-1, 4),
    "per_page": st.sampled_from([0, 1, 2, 3, 4, 9]),
    "ink_saver": st.booleans(),
    "sheet": st.integers(-1, 6),
    "game": st.sampled_from(["tricky-treats", "boogaloo", "rollers", "nope", ""]),
    "bleed": st.floats(allow_nan=True, allow_infinity=True),
    "back_offset": st.sampled_from(["0,0", "0.5,-0.3", "nan,0", "inf,0", "1e9,0", "3", "a,b", "-10,10"]),
    "no_backs": st.booleans(),
})
FLAGS = {"per_page": "--per-page", "back_offset": "--back-offset", "no_backs": "--no-backs",
         "ink_saver": "--ink-saver"}


@CHECK
@given(name=st.sampled_from(sorted(RAW)), options=OPTIONS)
def test_any_render_options_give_a_pdf_or_one_line(tmp_path_factory, capsysbinary, name, options):
    """Through the command line, as a user types them: exit 0 and a PDF, or exit 2 and one line."""
    from test_robust import cli

    folder = tmp_path_factory.mktemp("opt")
    out = folder / "out.pdf"
    out.write_bytes(OLD)
    args = ["render", name, "--out", str(out)]
    for key, value in options.items():
        flag = FLAGS.get(key, f"--{key}")
        if isinstance(value, bool):
            args += [flag] if value else []
        else:
            args.append(f"{flag}={value}")
    status, _, err = cli(capsysbinary, *args)
    event(f"exit {status}")
    assert status in (0, 2), (args, err)
    if status == 2:
        assert err.count("\n") == 1 and "Traceback" not in err, (args, err)
        assert out.read_bytes() == OLD
    else:
        from pypdf import PdfReader

        assert len(PdfReader(out).pages) >= 1
    assert sorted(p.name for p in folder.iterdir()) == ["out.pdf"]


VALIDATE = st.fixed_dictionaries({"games": st.integers(-2, 40)}, optional={
    "seed": st.integers(-1, 2**40),
    "policy": st.sampled_from(["random", "greedy", "cover", "all", "best"]),
    "engine": st.sampled_from(["fast", "reference", "turbo"]),
    "sheet": st.integers(-1, 5),
    "paper": st.sampled_from(["a4", "letter", "a5"]),
    "workers": st.integers(-1, 1),
})


@settings(CHECK, max_examples=max(4, EXAMPLES // 2))
@given(name=st.one_of(st.sampled_from(["tricky-treats", "haunt-the-block", "boogaloo"]),
                     st.sampled_from(sorted(RAW))), options=VALIDATE)
def test_any_validate_options_give_a_verdict_or_one_line(capsysbinary, name, options):
    """Any layout (most have no rules: one line) and any validate options: 0 or 1 with a JSON
    report, or 2 and one line."""
    import json

    from test_robust import cli

    args = ["validate", name, "--json", *[f"--{k}={v}" for k, v in options.items()]]
    status, out, err = cli(capsysbinary, *args)
    event(f"exit {status}")
    assert status in (0, 1, 2), (args, err)
    if status == 2:
        assert err.count("\n") == 1 and "Traceback" not in err, (args, err)
    else:
        assert json.loads(out)["games"] == options["games"], args


# kit, variant and build options. A kit costs 1-3 s and a variant about 1 s, so these properties
# draw mostly bad options (refused before any work) and run EXPENSIVE examples (default 4).
EXPENSIVE = int(os.environ.get("SHEETGEN_PROPERTY_EXAMPLES", "4"))
PRODUCTS = ["rollers", "ghosts-love-candy-too", "roll-and-fight", "roll-for-your-life", "run-for-your-life"]
NEAR = ["roller", "Rollers", "rollers ", "rollers-kit", "tricky-treats", "../rollers", "rollers.yaml"]
OUTS = ["new", "existing", "folder", "under-a-file", "-", "none"]


def out_args(kind: str, folder: Path) -> list[str]:
    """--out as the user may give it; "existing" holds OLD, "a-file" is a file to put things under."""
    (folder / "existing").write_bytes(OLD)
    (folder / "a-file").write_bytes(OLD)
    return {"new": ["--out", str(folder / "new" / "x.pdf")], "existing": ["--out", str(folder / "existing")],
            "folder": ["--out", str(folder)], "under-a-file": ["--out", str(folder / "a-file" / "x.pdf")],
            "-": ["--out", "-"], "none": []}[kind]


def check_contract(capsysbinary, folder: Path, args: list[str], allowed=(0, 2), no_work=()):
    """Run the command in `folder`: on exit 2 one 'sheetgen: error:' line, no new or changed file.
    The functions named in `no_work` (the costly work) must not be called: refused before it."""
    import contextlib
    import importlib
    from unittest import mock

    from test_robust import cli

    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    cwd = os.getcwd()
    os.chdir(folder)  # default outputs (output/...) land in the temporary folder
    try:
        with contextlib.ExitStack() as stack:
            spies = []
            for name in no_work:
                module, attr = name.rsplit(".", 1)
                real = getattr(importlib.import_module(module), attr)
                spies.append(stack.enter_context(mock.patch(name, wraps=real)))
            status, out, err = cli(capsysbinary, *args)
    finally:
        os.chdir(cwd)
    assert not any(spy.called for spy in spies), (args, "work done before refusing", err)
    event(f"{args[0]} exit {status}")
    assert status in allowed, (args, err)
    assert "Traceback" not in err, (args, err)
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("sheetgen: error:"), (args, err)
        assert sorted(p for p in folder.rglob("*") if p.is_file()) == sorted(before), args
        assert all(p.read_bytes() == data for p, data in before.items()), args
    return status, out


@settings(CHECK, max_examples=EXPENSIVE)
@given(product=st.one_of(st.sampled_from(NEAR + NASTY), st.text(max_size=20), st.sampled_from(PRODUCTS)),
       paper=st.sampled_from(["a4", "letter", "a5", "A4", ""]),
       copies=st.one_of(st.integers(-2, 60), st.sampled_from(["x", "1.5", "", "nan", "1e3"])),
       out=st.sampled_from(OUTS), print_shop=st.booleans(), booklet=st.booleans())
# the booklet on stdout was written, then failed; a bad --out was refused only after the rendering
@example(product="rollers", paper="a4", copies=1, out="-", print_shop=False, booklet=True)
@example(product="rollers", paper="a4", copies=1, out="under-a-file", print_shop=False, booklet=True)
def test_any_kit_options_give_a_pdf_or_one_line(tmp_path_factory, capsysbinary, product, paper, copies,
                                               out, print_shop, booklet):
    folder = tmp_path_factory.mktemp("kit")
    args = ["kit", product, f"--paper={paper}", f"--copies={copies}", *out_args(out, folder)]
    args += ["--print-shop"] * print_shop + ["--booklet"] * booklet
    work = ("sheetgen.kit.make", "sheetgen.booklet.booklet_pages")
    bad_out = work if out in ("folder", "under-a-file") else ()
    status, stdout = check_contract(capsysbinary, folder, args, no_work=bad_out)
    if status == 0:  # a real product and valid options: the PDF where asked
        from pypdf import PdfReader

        target = {"new": folder / "new" / "x.pdf", "existing": folder / "existing"}.get(out)
        data = stdout if out == "-" else (target.read_bytes() if target else None)
        if data is None:
            (pdf,) = (folder / "output").glob("*.pdf")
            data = pdf.read_bytes()
        assert data.startswith(b"%PDF-") and len(PdfReader(io.BytesIO(data)).pages) >= 1, args


@settings(CHECK, max_examples=EXPENSIVE)
@given(game=st.one_of(st.sampled_from(["tricky-treats", "boogaloo", "haunt-the-block"]),
                      st.sampled_from(["rollers", "nope", "", "Tricky-Treats", *NASTY[:6]])),
       seed=st.one_of(st.integers(-2, 2**40), st.sampled_from(["x", "1.5", ""])),
       count=st.sampled_from(["1", "0", "-1", "1001", "x"]),
       band=st.sampled_from(["0.15", "nan", "inf", "-inf", "-0.1", "1.5", "x"]),
       games=st.sampled_from(["50", "49", "0", "-5", "x"]),
       out=st.sampled_from(["new", "existing", "under-a-file"]))
@example(game="boogaloo", seed=1, count="1", band="0.15", games="50", out="under-a-file")  # played first
def test_any_variant_options_give_variants_or_one_line(tmp_path_factory, capsysbinary, game, seed,
                                                       count, band, games, out):
    """Mostly refused options; a real variant (exit 0, or 1 when rejected) only for a real game with
    every option valid, at 50 games."""
    folder = tmp_path_factory.mktemp("var")
    (folder / "existing").write_bytes(OLD)
    (folder / "a-file").write_bytes(OLD)
    where = {"new": folder / "new", "existing": folder / "existing", "under-a-file": folder / "a-file" / "v"}
    args = ["variant", game, f"--seed={seed}", f"--count={count}", f"--band={band}", f"--games={games}",
            "--workers=1", "--out", str(where[out])]
    bad_out = ("sheetgen.variant.baseline_mean",) if out != "new" else ()
    status, stdout = check_contract(capsysbinary, folder, args, allowed=(0, 1, 2), no_work=bad_out)
    written = {p.suffix for p in (folder / "new").glob("*")}
    assert written == ({".yaml", ".pdf"} if status == 0 else set()), (args, written)  # 1: none written


@CHECK
@given(out=st.sampled_from(["existing", "under-a-file", "deep-under-a-file"]),
       workers=st.sampled_from(["0", "1", "-1", "x", "1.5", ""]), force=st.booleans())
def test_bad_build_options_give_one_line_before_any_work(tmp_path_factory, capsysbinary, out, workers, force):
    """Only refused options: a build --out that is, or is under, a file; a bad --workers."""
    folder = tmp_path_factory.mktemp("build")
    (folder / "existing").write_bytes(OLD)
    target = {"existing": folder / "existing", "under-a-file": folder / "existing" / "out",
              "deep-under-a-file": folder / "existing" / "a" / "b"}[out]
    args = ["build", "--out", str(target), f"--workers={workers}"] + ["--force"] * force
    status, _ = check_contract(capsysbinary, folder, args, allowed=(2,), no_work=("sheetgen.build.run",))
    assert status == 2
