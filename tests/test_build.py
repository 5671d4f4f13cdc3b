"""`sheetgen build`: incremental by content digest, parallel, and the same bytes either way.

The incremental tests build a small layouts folder (kits left out: they are tested in
test_kit.py); the plan of the shipped folder checks that kits reuse the component drawings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from sheetgen import build, kinds, kit
from sheetgen.kinds import known_layouts

from conftest import LAYOUTS

SMALL = ["gingerbread-status", "gingerbread-status-letter", "roll-score-pad"]


@pytest.fixture
def small(tmp_path, monkeypatch) -> Path:
    """A layouts folder of three small layouts, used as the layouts folder; no kits."""
    folder = tmp_path / "layouts"
    folder.mkdir()
    for name in SMALL:
        shutil.copy(LAYOUTS / f"{name}.yaml", folder)
    monkeypatch.setenv("SHEETGEN_PATH", str(folder))
    monkeypatch.setattr(kinds, "known_layouts", lambda: sorted(folder.glob("*.yaml")))
    monkeypatch.setattr(kit, "products", lambda: [])
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}


def status(results) -> dict[str, str]:
    return {r.path.name: r.status for r in results}


def test_second_build_changes_nothing_and_loads_nothing(small, tmp_path, monkeypatch):
    out = tmp_path / "out"
    first = build.run(out, workers=1)
    assert status(first) == {f"{n}.pdf": "built" for n in SMALL}
    made = files(out)
    for name, data in made.items():
        assert data.startswith(b"%PDF") and len(PdfReader(out / name).pages) == 1
    manifest = json.loads((out / build.MANIFEST).read_text())
    assert set(manifest["outputs"]) == set(made)
    assert str((small / "gingerbread-status.yaml").resolve()) in manifest["inputs"]  # extends' parent

    def no_plan(*args):
        raise AssertionError("an unchanged build must not load layouts")

    monkeypatch.setattr(build, "plan", no_plan)
    again = build.run(out, workers=1)
    assert set(status(again).values()) == {"unchanged"} and files(out) == made


def test_one_changed_layout_rebuilds_what_uses_it_and_matches_a_full_build(small, tmp_path):
    out, scratch, parallel = tmp_path / "out", tmp_path / "scratch", tmp_path / "parallel"
    build.run(out, workers=1)
    before = files(out)
    base = small / "gingerbread-status.yaml"
    text = base.read_text()
    assert "title: Gingerbread Status\n" in text
    base.write_text(text.replace("title: Gingerbread Status\n", "title: Gingerbread Stats\n"))
    # the Letter file extends the base: both change; the score pad does not
    assert status(build.run(out, workers=1)) == {"gingerbread-status.pdf": "built",
                                                 "gingerbread-status-letter.pdf": "built",
                                                 "roll-score-pad.pdf": "unchanged"}
    after = files(out)
    assert after["roll-score-pad.pdf"] == before["roll-score-pad.pdf"]
    assert after["gingerbread-status.pdf"] != before["gingerbread-status.pdf"]
    assert "Gingerbread Stats" in PdfReader(out / "gingerbread-status.pdf").metadata.title
    build.run(scratch, workers=1)
    build.run(parallel, workers=2)
    assert files(scratch) == after == files(parallel)


def test_missing_output_force_and_removed_layout(small, tmp_path):
    out = tmp_path / "out"
    build.run(out, workers=1)
    made = files(out)
    (out / "roll-score-pad.pdf").unlink()
    (out / "gingerbread-status.pdf").write_bytes(b"edited by hand")
    assert status(build.run(out, workers=1)) == {"gingerbread-status.pdf": "built",
                                                 "gingerbread-status-letter.pdf": "unchanged",
                                                 "roll-score-pad.pdf": "built"}
    assert files(out) == made
    assert set(status(build.run(out, force=True, workers=1)).values()) == {"built"}
    assert files(out) == made
    (small / "roll-score-pad.yaml").unlink()
    assert set(status(build.run(out, workers=1))) == {"gingerbread-status.pdf",
                                                      "gingerbread-status-letter.pdf"}
    assert not (out / "roll-score-pad.pdf").exists()


def test_kits_reuse_the_component_drawings(tmp_path):
    plan = build.plan(tmp_path, "code")
    layouts = {o.name: o for o in plan.outputs if o.spec}
    kits = {o.name: o for o in plan.outputs if o.kit}
    assert list(layouts) == [f"{p.stem}.pdf" for p in known_layouts()]
    assert set(kits) == {kit.default_name(p, paper) for p in kit.products() for paper in kit.PAPER_NAMES}
    parts = [part for o in kits.values() for part in o.kit.components]
    # an A4 kit's sheet is the layout as shipped, a Letter kit's the -letter layout: drawn once
    reused = {part.key for part in parts} & {o.digest for o in layouts.values()}
    assert layouts["tricky-treats.pdf"].digest in reused
    assert layouts["tricky-treats-letter.pdf"].digest in reused
    assert len(plan.specs) == len({o.digest for o in layouts.values()} | {p.key for p in parts})
    assert len(plan.specs) <= len(layouts) + len(parts) - len(reused)


def test_a_broken_layout_costs_only_its_own_output(small, tmp_path):
    """One layout that does not load is one failed output with its one-line error; the others
    are built, and its file from an earlier build is left as it was."""
    out = tmp_path / "out"
    build.run(out, workers=1)
    before = (out / "roll-score-pad.pdf").read_bytes()
    (small / "roll-score-pad.yaml").write_text("kind: roll-score-pad\ntitle: [unclosed\n")
    results = build.run(out, workers=1)
    assert {r.path.name: r.status for r in results} == {
        "gingerbread-status.pdf": "unchanged", "gingerbread-status-letter.pdf": "unchanged",
        "roll-score-pad.pdf": "failed"}
    failed = next(r for r in results if r.status == "failed")
    assert "roll-score-pad.yaml:3: YAML syntax error" in failed.error and "\n" not in failed.error
    assert (out / "roll-score-pad.pdf").read_bytes() == before
    again = build.run(out, workers=1)  # not taken as unchanged while a layout fails
    assert [r.status for r in again if r.path.name == "roll-score-pad.pdf"] == ["failed"]
