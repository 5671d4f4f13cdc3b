"""`sheetgen variant`: seeded sheets written only when the validator passes them."""

from __future__ import annotations

import pytest

from sheetgen import variant as v
from sheetgen.errors import SheetgenError
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import QR, walk

from conftest import LAYOUTS
from pdfs import page_texts

FAST = v.Settings(games=300)
GAMES = [g for g in v.GAMES if (LAYOUTS / f"{g}.yaml").exists()]


@pytest.fixture(scope="module")
def baselines():
    return {g: v.baseline_mean(g, FAST) for g in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_files_other_seed_other_sheet(game, tmp_path, baselines):
    a = v.make(game, 11, tmp_path / "a", FAST, baseline=baselines[game])
    b = v.make(game, 11, tmp_path / "b", FAST, baseline=baselines[game])
    c = v.make(game, 12, tmp_path / "c", FAST, baseline=baselines[game])
    assert a.yaml_path.read_bytes() == b.yaml_path.read_bytes()
    assert a.pdf_path.read_bytes() == b.pdf_path.read_bytes()
    assert load(a.yaml_path).doc.content != load(c.yaml_path).doc.content
    assert a.variant_id != c.variant_id
    assert abs(a.mean - a.baseline) <= FAST.band * abs(a.baseline)


@pytest.mark.parametrize("game", GAMES)
def test_variant_loads_renders_and_validates_like_any_layout(game, tmp_path, main, baselines):
    out = v.make(game, 5, tmp_path, FAST, baseline=baselines[game])
    pdf = tmp_path / "again.pdf"
    res = main("render", str(out.yaml_path), "--out", str(pdf))
    assert res.returncode == 0, res.stderr
    text = page_texts(pdf)[0]
    assert out.variant_id in text and "seed 5" in text
    # the same games the variant was accepted on: same seed, same count
    res = main("validate", str(out.yaml_path), "--games", "300", "--seed", "5", "--workers", "1", "--json")
    assert res.returncode == 0, res.stdout[-500:] + res.stderr


@pytest.mark.parametrize("game", GAMES)
def test_qr_carries_the_seed(game, tmp_path, baselines):
    out = v.make(game, 42, tmp_path, FAST, baseline=baselines[game])
    loaded = load(out.yaml_path)
    qrs = [it for page in render_pages(loaded, Options()) for it, _, _ in walk(page.items)
           if isinstance(it, QR) and it.id == "variant.qr"]
    assert qrs, "the variant's QR code is drawn"
    assert all(q.data == f"sheetgen variant {game} --seed 42" for q in qrs)


@pytest.mark.parametrize("game", GAMES)
def test_broken_generator_is_rejected(game, tmp_path, baselines):
    broken = v.Settings(games=300, broken=True, max_tries=3)
    with pytest.raises(SheetgenError, match="no completable variant"):
        v.make(game, 3, tmp_path, broken, baseline=baselines[game])
    assert list(tmp_path.glob("*.yaml")) == [] and list(tmp_path.glob("*.pdf")) == []


def test_unknown_game_is_bad_input(main):
    res = main("variant", "rollers", "--seed", "1")
    assert res.returncode == 2
    assert "no variants for 'rollers'" in res.stderr and "tricky-treats" in res.stderr


def test_cli_count_reports_candidates(tmp_path, main):
    game = GAMES[0]
    res = main("variant", game, "--seed", "3", "--count", "2", "--games", "300", "--workers", "2",
              "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert "2/2 variants accepted" in res.stdout
    assert sorted(p.name for p in tmp_path.glob("*.yaml")) == [f"{game}-3.yaml", f"{game}-4.yaml"]
