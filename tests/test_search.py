"""`sheetgen search`: seeds from the root only, common dice, successive halving, fresh-dice re-score,
the same bytes on 1 process, 2 processes and a Dask cluster, clean stop on Ctrl-C, bad input."""

from __future__ import annotations

import csv
import json
import math
import re

import numpy as np
import pytest
from pypdf import PdfReader

from sheetgen.errors import SheetgenError
from sheetgen.search import RESCORE, RUNGS, UNIT, Plan, Target, parse_target, search
from sheetgen.search_out import write_all
from sheetgen.search_play import Local, Unit, play_unit, seed_of

from pdfs import page_texts

GAME = "tricky-treats"
SMALL = Plan(candidates=8, keep=1, first=1000, most=2000, rescore=1000)


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def one(tmp_path_factory):
    """A small search in this process, and its files."""
    back = Local(1, GAME)
    s = search(GAME, 5, SMALL, [], back)
    out = tmp_path_factory.mktemp("one")
    write_all(s, out)
    return s, out


def test_two_processes_write_the_same_bytes(one, tmp_path):
    s1, out1 = one
    back = Local(2, GAME)
    try:
        s2 = search(GAME, 5, SMALL, [], back)
    finally:
        back.close()
    write_all(s2, tmp_path)
    assert files(tmp_path) == files(out1)
    assert len(s1.kept) == 1 and f"{GAME}-5-c{s1.kept[0].index}.pdf" in files(out1)


def test_dask_local_cluster_writes_the_same_bytes(one, tmp_path):
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")
    from sheetgen.search_play import Cluster

    import dask

    _, out1 = one
    # worker processes forked from this one (Dask spawns by default: each would import the stack
    # and load the engines again, ~2 CPU s each); they still get every task by pickle over TCP
    with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}), \
            distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                     dashboard_address=":0") as cluster:
        back = Cluster(cluster.scheduler_address, GAME)
        try:
            assert "2 workers" in back.label
            s = search(GAME, 5, SMALL, [], back)
        finally:
            back.close()
    write_all(s, tmp_path)
    assert files(tmp_path) == files(out1)


def test_selection_figures_are_the_common_batches_replayed(one):
    """Every candidate at a rung plays batches (RUNGS, 0..): replaying them reproduces the figures;
    the re-score plays other dice (RESCORE branch)."""
    s, _ = one
    c = s.finalists[0]
    scores = []
    for b in range(SMALL.most // UNIT):
        p = play_unit(s.seed, Unit(c.index, GAME, c.doc, ("greedy",), (RUNGS, b), UNIT))
        scores += [v for v, n in p.tallies["greedy"][0].score.items() for _ in range(n)]
    assert c.fig.games == SMALL.most and math.isclose(np.mean(scores), c.fig.mean, rel_tol=1e-12)
    assert s.shipped.fig.games == SMALL.most  # the shipped sheet played the same batches
    assert c.final.games == SMALL.rescore and c.final.mean != c.fig.mean
    assert seed_of(5, (RUNGS, 0)) != seed_of(5, (RESCORE, 0)) != seed_of(6, (RESCORE, 0))
    assert seed_of(5, (RUNGS, 3)) == seed_of(5, (RUNGS, 3))


def test_halving_cuts_and_outputs_tell_what_it_saved(one):
    s, out = one
    assert [r["candidates"] for r in s.rungs][0] == 8
    assert [r["games_each"] for r in s.rungs] == [1000, 2000][:len(s.rungs)]
    rows = list(csv.DictReader((out / "candidates.csv").open()))
    assert len(rows) == 8 and sum(r["kept"] == "True" for r in rows) == 1
    kept = next(r for r in rows if r["kept"] == "True")
    assert kept["completable"] == "True" and float(kept["final.mean_ci"]) > 0
    doc = json.loads((out / "search.json").read_text())
    assert doc["games_played"] == s.played <= doc["games_planned"] < doc["games_without_halving"]
    assert doc["kept"][0]["rescored"]["games"] == 1000 and "mean" in doc["rescore_shift"]
    text = page_texts(out / "report.pdf")[0]
    assert "successive halving saved" in text and "Kept variants" in text
    yaml_text = (out / f"{GAME}-5-c{s.kept[0].index}.yaml").read_text()
    assert yaml_text.startswith("# Kept by: sheetgen search tricky-treats --seed 5")


def test_plan_rungs_and_games():
    p = Plan(candidates=1000, keep=3, first=1000, eta=2, most=32_000, rescore=20_000)
    assert p.rungs() == [(1000, 1000), (500, 2000), (250, 4000), (125, 8000), (63, 16000), (32, 32000)]
    halving = 1000 * 1000 + 500 * 1000 + 250 * 2000 + 125 * 4000 + 63 * 8000 + 32 * 16000
    assert p.games(1) == halving + 32_000 + 1000 * 1000 + 6 * 20_000 * 3
    assert p.games(1, halving=False) == 1000 * 32_000 + 32_000 + 1000 * 1000 + 6 * 20_000 * 3
    assert p.within(p.games(1) - 1, 1).most == 16_000
    with pytest.raises(SheetgenError, match="--budget"):
        p.within(1000, 1)


def test_targets():
    t = parse_target("mean", "60:80")
    assert t.term(70) == 0 and t.term(80) == 1 and t.term(60) == 1 and t.term(90) == 2
    assert parse_target("skill_gap", "30:").term(31) == 0 and parse_target("skill_gap", "30:").term(27) > 1
    assert Target("spread", None, 10).term(12) > 1
    for bad in ("80:60", "60", "a:b", ":"):
        with pytest.raises(SheetgenError, match="is not a range"):
            parse_target("mean", bad)


def test_ctrl_c_keeps_the_finished_rungs(tmp_path, monkeypatch):
    import sheetgen.search_play as play

    monkeypatch.setattr(play, "TASK_GAMES", 2000)  # rung 2's 4 candidates: 2 tasks of 2

    class StopsInRung2(Local):
        calls = 0

        def run(self, root, tasks, done, fn=None):
            self.calls += 1
            if self.calls == 2:  # the first task of rung 2 finishes, then Ctrl-C
                super().run(root, tasks[:1], done)
                raise KeyboardInterrupt
            super().run(root, tasks, done)

    s = search(GAME, 5, SMALL, [], StopsInRung2(1, GAME))
    assert s.stopped.startswith("stopped by Ctrl-C during rung 2") and len(s.rungs) == 1 and not s.kept
    rung2 = [c for c in s.candidates if c.rung == 1]
    assert len(rung2) == 2 and all(c.fig.games == 2000 for c in rung2)  # the finished ones have figures
    assert all(c.fig.games == 1000 for c in s.candidates if c.rung == 0)
    write_all(s, tmp_path)
    doc = json.loads((tmp_path / "search.json").read_text())
    assert doc["stopped"] == s.stopped and len(doc["candidates"]) == 8 and doc["kept"] == []
    assert not list(tmp_path.glob("*.yaml"))


@pytest.mark.parametrize("kw, says", [
    ({"mean": "75:60"}, "--mean '75:60' is not a range"),
    ({"params": ["nope=1:2"]}, "names no parameter of tricky-treats"),
    ({"params": ["cauldron=1:40"]}, "outside cauldron's range 3:12"),
    ({"length": "10:20"}, "always lasts 16 turns"),
    ({"plan": Plan(first=1500)}, "multiple of 1000"),
    ({"budget": 5000}, "--budget 5,000 games is below"),
])
def test_bad_input_is_refused_before_anything_is_written(kw, says, tmp_path):
    from sheetgen.search_cli import run

    with pytest.raises(SheetgenError, match=re.escape(says)):
        run(GAME, out=tmp_path / "o", **kw)
    assert not (tmp_path / "o").exists()


def test_cli_bad_input_is_one_line_and_exit_2(main, tmp_path):
    res = main("search", "rollers", "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "no variants for 'rollers'" in res.stderr
    assert "\n" not in res.stderr.strip() and "Traceback" not in res.stderr and not (tmp_path / "o").exists()


def test_space_lists_the_declared_parameters():
    from sheetgen.search_cli import space_text

    text = space_text("boogaloo")
    assert "boonus_length" in text and "3:7" in text and "shipped 7" in text


def test_run_writes_kept_variants_and_exit_status(tmp_path, capsys):
    from sheetgen.search_cli import run

    plan = Plan(candidates=1, keep=1, first=1000, most=1000, rescore=1000)
    status = run("boogaloo", 2, plan, params=["bar_points=4:4"], workers=1, out=tmp_path)
    said = capsys.readouterr().out
    assert status == 0 and "1/1 kept from 1 candidate " in said and "games played" in said
    kept = json.loads((tmp_path / "search.json").read_text())["kept"][0]
    from sheetgen.kinds import load

    doc = load(tmp_path / f"boogaloo-2-c{kept['index']}.yaml").doc
    assert doc.content.bar_points == 4  # the narrowed parameter
    assert doc.variant.command.endswith("--param bar_points=4:4")
    assert len(PdfReader(tmp_path / f"boogaloo-2-c{kept['index']}.pdf").pages) == 4


def test_a_finalist_that_cannot_be_printed_is_not_kept():
    """A title the model takes but the sheet cannot print (it runs off the page) is refused."""
    import yaml

    from sheetgen.search import Candidate, _undrawable

    from conftest import LAYOUTS

    base = yaml.safe_load((LAYOUTS / "haunt-the-block.yaml").read_text())
    shipped = Candidate(-1, "shipped", {}, base)
    assert _undrawable(shipped, shipped) is None
    wide = {**base, "title": "A very long title " * 20}
    assert "does not print" in _undrawable(Candidate(0, "abc", {}, wide), shipped)
