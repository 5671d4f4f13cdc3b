"""The validator framework (batches, workers, verdict, report, heatmap, command), tested with the
toy roll-and-write game in validate_toy.py so it does not depend on any real game's engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))  # validate_toy, however pytest imports tests

import validate_toy  # noqa: E402

from sheetgen import kinds  # noqa: E402
from sheetgen.cli import app  # noqa: E402
from sheetgen.validate.engine import BATCH, Batch  # noqa: E402
from sheetgen.validate.report import stats  # noqa: E402
from sheetgen.validate.run import batches, check, run  # noqa: E402

from pdfs import open_pdf

MM = 72 / 25.4
FULL = [1, 2, 3, 4, 5, 6]  # every box can be marked


@pytest.fixture(autouse=True)
def toy_kind(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "toy-dice", "validate_toy")


def toy(tmp_path: Path, *sheets: list[int], penalty: bool = True, end_when_full: bool = False,
        name: str = "toy") -> Path:
    path = tmp_path / f"{name}.yaml"
    rows = ", ".join(str(list(s)) for s in sheets)
    path.write_text(f"kind: toy-dice\ntitle: Toy dice\ncontent:\n  sheets: [{rows}]\n"
                    f"  penalty: {str(penalty).lower()}\n  end_when_full: {str(end_when_full).lower()}\n"
                    f"layout:\n  paper: a4\n")
    return path


def cli(*args: str):
    return CliRunner().invoke(app, ["validate", *args])


# --- the toy's engines agree, so the framework tests below test the framework -------------------

@pytest.mark.parametrize("policy", ["random", "greedy", "cover"])
def test_toy_engines_agree(tmp_path, policy):
    doc = kinds.load(toy(tmp_path, FULL + [7])).doc
    dice, u, targets = validate_toy.RULES.inputs(0, 2000, 5, policy, 7)
    assert validate_toy.reference(doc, dice, u, policy, targets).same_as(
        validate_toy.fast(doc, dice, u, policy, targets))


def test_toy_fixed_dice_by_hand(tmp_path):
    """Rolls 6-6 (wild: greedy takes the 6 box, the wild unused), 1-2 (takes 2), 5-5 (wild: takes
    5, unused), 3-3 (takes 3), 2-1 (takes 1), 2-2 (nothing left but 4: the wild marks it, used)."""
    doc = kinds.load(toy(tmp_path, FULL)).doc
    dice = np.array([[[6, 6], [1, 2], [5, 5], [3, 3], [2, 1], [2, 2]]], np.int8)
    u = np.zeros((1, 6, 1))
    b = validate_toy.reference(doc, dice, u, "greedy", np.array([-1]))
    assert b.reached.tolist() == [[True] * 6]
    assert (b.score[0], b.penalties[0], b.unused_powers[0], b.stuck[0], b.turns[0]) == (21, 0, 2, 0, 6)


# --- batches and determinism ----------------------------------------------------------------------

def test_batches_have_a_fixed_size():
    assert batches(2 * BATCH + 100) == [BATCH, BATCH, 100]
    assert batches(BATCH) == [BATCH]
    assert batches(5) == [5]


def test_same_seed_same_report_whatever_the_workers(tmp_path):
    loaded = kinds.load(toy(tmp_path, FULL + [7], [2, 2, 6]))
    games = 2 * BATCH + 333  # three batches, the last one short
    one = run(loaded, games, seed=11, workers=1)
    two = run(loaded, games, seed=11, workers=2)
    three = run(loaded, games, seed=11, workers=3)
    assert one.to_json() == two.to_json() == three.to_json()
    assert run(loaded, games, seed=12, workers=2).to_json() != one.to_json()


def test_figures_are_those_of_the_games_played(tmp_path):
    """The report's figures equal those computed directly from the engine's batches."""
    loaded = kinds.load(toy(tmp_path, FULL + [7]))
    games = BATCH + 500
    report = run(loaded, games, seed=3, policies=("random",), workers=2)
    R = validate_toy.RULES
    parts = [R.fast(loaded.doc, *R.inputs(b, n, 3, "random", 7)[:2], "random", np.full(n, -1))
             for b, n in enumerate(batches(games))]
    whole = Batch.concat(parts)
    got = report.to_dict()["sheets"][0]
    score = got["policies"]["random"]["score"]
    assert score["mean"] == pytest.approx(whole.score.mean(), abs=1e-4)
    assert score["std"] == pytest.approx(whole.score.std(), abs=1e-4)
    for q in (10, 50, 90):
        assert score[f"p{q}"] == pytest.approx(np.percentile(whole.score, q))
    assert (score["min"], score["max"]) == (whole.score.min(), whole.score.max())
    assert got["policies"]["random"]["penalties"]["mean"] == pytest.approx(whole.penalties.mean(), abs=1e-4)
    assert got["policies"]["random"]["unused_powers"]["games"] == pytest.approx(
        (whole.unused_powers > 0).mean(), abs=1e-4)
    reached = whole.reached.mean(axis=0)
    for i in range(7):
        assert got["elements"][f"box.{i + 1}"]["random"] == pytest.approx(reached[i], abs=1e-6)
    assert report.score_mean("random") == pytest.approx(whole.score.mean(), abs=1e-4)


def test_stats_match_numpy():
    rng = np.random.default_rng(1)
    for n in (1, 2, 7, 1000):
        values = rng.integers(-5, 40, n)
        hist = dict(zip(*np.unique(values, return_counts=True)))
        s = stats({int(k): int(v) for k, v in hist.items()})
        assert s["mean"] == pytest.approx(values.mean(), abs=1e-4)
        assert s["std"] == pytest.approx(values.std(), abs=1e-4)
        for q in (10, 50, 90):
            assert s[f"p{q}"] == pytest.approx(np.percentile(values, q), abs=1e-4)


def test_reference_engine_gives_the_same_report(tmp_path):
    loaded = kinds.load(toy(tmp_path, FULL + [7]))
    fast = run(loaded, 3000, seed=2, workers=1).to_dict()
    ref = run(loaded, 3000, seed=2, engine="reference", workers=2).to_dict()
    assert ref.pop("engine") == "reference" and fast.pop("engine") == "fast"
    assert ref == fast


def test_progress_reaches_the_total(tmp_path):
    seen = []
    run(kinds.load(toy(tmp_path, FULL)), BATCH + 10, workers=2, progress=lambda d, t: seen.append((d, t)))
    total = 3 * (BATCH + 10)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


# --- the verdict -----------------------------------------------------------------------------------

def test_completable_sheet(tmp_path):
    report = check(kinds.load(toy(tmp_path, FULL)), games=2000, seed=0, workers=1)
    assert report.completable and report.faults == [] and report.unreached == []
    assert report.score_mean("greedy") > report.score_mean("random")


def test_unreachable_element_is_named(tmp_path):
    report = check(kinds.load(toy(tmp_path, FULL + [7])), games=2000, seed=0, workers=1)
    assert not report.completable
    assert report.unreached == ["box.7"]
    assert "box.7" in report.faults[0]


def test_no_legal_move_without_penalty_is_a_fault(tmp_path):
    report = check(kinds.load(toy(tmp_path, FULL, penalty=False)), games=2000, seed=0, workers=1)
    assert report.unreached == []
    assert not report.completable
    assert "no legal move" in report.faults[0]
    # the same sheet with a penalty for it is completable
    assert check(kinds.load(toy(tmp_path, FULL, name="p")), games=2000, seed=0, workers=1).completable


def test_game_ending_early_is_a_fault(tmp_path):
    report = check(kinds.load(toy(tmp_path, [1, 2], end_when_full=True)), games=2000, seed=0, workers=1)
    assert not report.completable
    assert "instead of the 6 the rules say" in report.faults[0]
    turns = report.to_dict()["sheets"][0]["policies"]["greedy"]["turns"]
    assert turns["min"] < 6 and turns["max"] == 6


def test_multi_sheet_reports_each_sheet(tmp_path):
    loaded = kinds.load(toy(tmp_path, FULL, FULL + [7]))
    report = check(loaded, games=1000, seed=0, workers=1)
    d = report.to_dict()
    assert [s["sheet"] for s in d["sheets"]] == [1, 2]
    assert [s["completable"] for s in d["sheets"]] == [True, False]
    assert d["faults"] == ["sheet 2 (row 2): 1 element never reached in any playout: box.7"]
    assert run(loaded, 1000, sheet=1, workers=1).completable


def test_cover_with_too_few_games_says_so(tmp_path):
    report = check(kinds.load(toy(tmp_path, FULL)), games=3, seed=0, workers=1)
    assert "aimed at only 3 of the 6 elements" in report.sheets[0].notes[0]
    report = run(kinds.load(toy(tmp_path, FULL + [7])), 100, policies=("greedy",), workers=1)
    assert "cover policy" in report.sheets[0].notes[0] and "was not played" in report.sheets[0].notes[0]


def test_engine_breaking_the_contract_is_reported(tmp_path, monkeypatch):
    loaded = kinds.load(toy(tmp_path, FULL))

    def short(doc, dice, u, policy, targets):
        b = validate_toy.fast(doc, dice, u, policy, targets)
        return Batch(b.score, b.reached[:, :-1], b.penalties, b.unused_powers, b.stuck, b.turns, b.state)

    monkeypatch.setattr(validate_toy, "RULES", validate_toy.RULES.__class__(
        **{**validate_toy.RULES.__dict__, "fast": short}))
    with pytest.raises(RuntimeError, match=r"reached has shape \(50, 5\), expected \(50, 6\)"):
        run(loaded, 50, workers=1)


# --- the command --------------------------------------------------------------------------------

def test_command_exit_0_and_human_report(tmp_path):
    r = cli(str(toy(tmp_path, FULL)), "--games", "2000", "--workers", "1")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "COMPLETABLE" in out and "NOT COMPLETABLE" not in out
    for word in ("random", "greedy", "cover", "p10", "p90", "penalties", "unused powers", "box"):
        assert word in out


def test_command_exit_1_names_the_element(tmp_path):
    r = cli(str(toy(tmp_path, FULL + [7])), "--games", "2000", "--workers", "2")
    assert r.exit_code == 1
    assert "NOT COMPLETABLE" in r.stdout and "box.7" in r.stdout


def test_command_json_shape(tmp_path):
    r = cli(str(toy(tmp_path, FULL + [7])), "--games", "500", "--seed", "4", "--json", "--policy", "greedy")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert list(d) == ["layout", "file", "game", "engine", "games", "seed", "policies", "turns",
                       "completable", "faults", "sheets"]
    assert (d["game"], d["games"], d["seed"], d["policies"], d["completable"]) == ("toy-dice", 500, 4,
                                                                                  ["greedy"], False)
    sheet = d["sheets"][0]
    assert list(sheet) == ["sheet", "label", "completable", "faults", "unreached", "notes", "policies",
                           "sections", "elements", "luck", "mechanics"]
    assert sheet["mechanics"] is None  # the toy game lists no switchable mechanics
    assert sheet["sections"] == {"box": {"size": 7, "most": 6}}  # box 7 is never checked
    assert sheet["unreached"] == ["box.7"]
    assert list(sheet["policies"]) == ["greedy"]
    assert list(sheet["policies"]["greedy"]) == ["games", "score", "penalties", "unused_powers", "stuck",
                                                 "turns", "skill"]
    assert sheet["policies"]["greedy"]["skill"] is None  # no random player to measure it against
    assert list(sheet["policies"]["greedy"]["score"]) == ["mean", "std", "min", "p10", "p50", "p90", "max"]
    assert list(sheet["elements"]) == [f"box.{i}" for i in range(1, 8)]
    assert list(sheet["elements"]["box.1"]) == ["all", "greedy", "low95", "high95"]
    never = sheet["elements"]["box.7"]
    assert never["all"] == never["low95"] == 0
    assert never["high95"] == round(1.96 ** 2 / (500 + 1.96 ** 2), 6)  # Wilson: never in 500 games
    again = cli(str(toy(tmp_path, FULL + [7])), "--games", "500", "--seed", "4", "--json", "--policy",
                "greedy", "--workers", "2")
    assert again.stdout == r.stdout


def _heat_rects(page):
    """Rectangles filled with a step of the heatmap's scale other than white (0 %)."""
    from sheetgen.validate.heatmap import RAMP

    steps = {tuple(round(int(h[i:i + 2], 16) / 255, 2) for i in (1, 3, 5)) for h in RAMP[1:]}
    return [r for r in page.rects if r["fill"] and tuple(round(c, 2) for c in r["non_stroking_color"] or ())
            in steps]


def _inside_safe_edge(page):
    safe = 6.35 * MM
    marks = page.chars + page.rects + page.lines
    assert min(m["x0"] for m in marks) >= safe and max(m["x1"] for m in marks) <= page.width - safe
    assert min(m["top"] for m in marks) >= safe and max(m["bottom"] for m in marks) <= page.height - safe


def test_heatmap_shades_the_sheet(tmp_path):
    pdf = tmp_path / "heat.pdf"
    r = cli(str(toy(tmp_path, FULL + [7])), "--games", "1000", "--heatmap", str(pdf), "--paper", "letter")
    assert r.exit_code == 1
    with open_pdf(pdf) as doc:
        (page,) = doc.pages  # the key sits under the sheet, drawn a little smaller
        assert (round(page.width / MM, 1), round(page.height / MM, 1)) == (215.9, 279.4)
        text = page.extract_text()
        assert "reached in 0%" in text and "100% of games" in text and "never reached" in text
        assert "Toy dice: share of games that reached each element" in text
        assert len(_heat_rects(page)) == 6 + 10  # the boxes reached; the key's steps past 0
        _inside_safe_edge(page)
        labels = [c for c in page.chars if c["text"] == "%" and c["size"] < 6.5]  # the key's are 7 pt
        assert len(labels) == 6 and min(c["size"] for c in labels) >= 5.99  # a percentage on each box reached
        # the never-reached box is crossed (two lines across its 18 mm square, as scaled), and so is the key's
        f = float(page.extract_text().split("greyed, at ")[1].split("%")[0]) / 100
        crosses = [ln for ln in page.lines if abs(abs(ln["x1"] - ln["x0"]) / MM - 18 * f) < 0.3]
        assert len(crosses) == 2


def test_heatmap_of_several_sheets(tmp_path):
    pdf = tmp_path / "heat.pdf"
    r = cli(str(toy(tmp_path, FULL, [1, 7])), "--games", "500", "--heatmap", str(pdf))
    assert r.exit_code == 1
    with open_pdf(pdf) as doc:
        assert len(doc.pages) == 2  # one page a sheet, each with its key
        assert [len(_heat_rects(p)) for p in doc.pages] == [6 + 10, 1 + 10]
        assert "sheet 2 (row 2)" in doc.pages[1].extract_text()
    one = tmp_path / "one.pdf"
    assert cli(str(toy(tmp_path, FULL, [1, 7])), "--games", "500", "--sheet", "1",
               "--heatmap", str(one)).exit_code == 0
    with open_pdf(one) as doc:
        assert len(doc.pages) == 1


@pytest.mark.parametrize("args, message", [
    (["gingerbread-status"], "has no rules to play"),
    (["no-such-layout"], "no layout named"),
    (["{toy}", "--sheet", "3"], "--sheet 3 is out of range"),
    (["{toy}", "--heatmap", "{tmp}"], "is a folder"),
    (["{toy}", "--policy", "lookahead"], "has no lookahead player yet"),
    (["{toy}", "--heatmap", "{tmp}/file.yaml/heat.pdf"], "cannot write the heatmap"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    toy(tmp_path, FULL, name="file")
    args = [a.replace("{toy}", str(toy(tmp_path, FULL))).replace("{tmp}", str(tmp_path)) for a in args]
    r = cli(*args, "--games", "10")
    assert r.exit_code == 2
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("option", [["--games", "0"], ["--policy", "lucky"], ["--engine", "slow"],
                                    ["--workers", "0"]])
def test_bad_options_exit_2(tmp_path, option):
    assert cli(str(toy(tmp_path, FULL)), *option).exit_code == 2
