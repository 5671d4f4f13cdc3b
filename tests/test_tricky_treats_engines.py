"""Both Tricky Treats engines play the same games to the same end, and variants keep the rules'
invariants."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.games.tricky_treats import rules as R
from sheetgen.games.tricky_treats.model import TrickySheet
from sheetgen.games.tricky_treats.variant import generate
from sheetgen.kinds import load
from sheetgen.validate.engine import POLICIES

from conftest import LONG, engines_agree, games

ENGINES = ("tricky_treats",)  # the one engine played here: conftest waits for it alone


@pytest.fixture(scope="module")
def shipped():
    return load("tricky-treats").doc


def variant(doc, seed, broken=False):
    data = doc.model_dump(mode="json")
    data["content"] = generate(data["content"], np.random.default_rng(seed), broken)
    return TrickySheet.model_validate(data)


def _same(doc, games, seed, policy):
    return engines_agree(R.RULES, doc, policy, games, seed, 11)


@pytest.mark.parametrize("policy", POLICIES)
def test_engines_agree_on_the_shipped_sheet(shipped, policy):
    n = games(400, 2000)
    ref = _same(shipped, n, 0, policy)
    assert (ref.turns == 16).all() and ref.reached.shape == (n, len(R.element_ids(shipped)))


@pytest.mark.parametrize("seed", [1, 2, 3, 4] if LONG else [2])
@pytest.mark.parametrize("policy", POLICIES)
def test_engines_agree_on_variants(shipped, seed, policy):
    _same(variant(shipped, seed), games(150, 500), seed, policy)


@pytest.mark.parametrize("change", [
    {"cauldron": ["gummy_bear", "wrapped"] * 6, "pyramid": [1, 1, 1, 1, 1], "boonus_actions": ["pyramid"]},
    {"cauldron": ["gumball"], "pyramid": [9], "boonus_actions": ["cauldron", "star"]},
    {"bones_per_doubles": "any"},
])
@pytest.mark.parametrize("policy", POLICIES)
def test_engines_agree_at_the_models_limits(shipped, change, policy):
    """The most CAULDRON boxes and PYRAMID levels a layout may have, and the fewest, with other
    Boo-nus actions: the fast engine's fixed-size tables hold them all."""
    data = shipped.model_dump(mode="json")
    data["content"].update(change)
    _same(TrickySheet.model_validate(data), games(150, 500), 5, policy)


def test_greedy_beats_random_and_cover_reaches_everything(shipped):
    n = len(R.element_ids(shipped))
    out = {}
    for policy in POLICIES:
        dice, u, targets = R.RULES.inputs(0, 8192, 5, policy, n)
        out[policy] = R.RULES.fast(shipped, dice, u, policy, targets)
    assert out["greedy"].score.mean() > out["random"].score.mean() + 20
    assert out["cover"].reached.any(0).all()


def test_variants_keep_the_invariants(shipped):
    seen = set()
    for seed in range(300):
        doc = variant(shipped, seed)
        c = doc.content
        kids = sorted(c.children, key=lambda ch: ch.number)
        # a Latin square: each candy once per child and once per die value
        for ch in kids:
            assert sorted(ch.boxes) == sorted(k.id for k in c.candies)
        for v in range(6):
            assert len({ch.boxes[v] for ch in kids}) == 6
        for ch in kids:
            assert 2 <= len(ch.powers) <= 3
            linked = sorted(v for link in ch.powers for v in link.boxes)
            assert linked == [1, 2, 3, 4, 5, 6]  # every box unlocks exactly one power symbol
            assert len(ch.boonus.boxes) == 3
        assert sorted(ch.boonus.symbol for ch in kids) == ["cat", "cat", "moon", "moon", "pumpkin", "pumpkin"]
        assert all(1 <= r.needs <= 6 for r in c.stash.rewards)
        seen.add(tuple(tuple(ch.boxes) for ch in kids))
    assert len(seen) > 250  # seeds give different sheets


def test_same_seed_same_content(shipped):
    assert variant(shipped, 42).model_dump() == variant(shipped, 42).model_dump()
    assert variant(shipped, 42).model_dump() != variant(shipped, 43).model_dump()


def test_broken_variant_leaves_an_element_unreachable(shipped):
    doc = variant(shipped, 7, broken=True)
    ids = R.element_ids(doc)
    dice, u, targets = R.RULES.inputs(0, 8192, 3, "cover", len(ids))
    b = R.RULES.fast(doc, dice, u, "cover", targets)
    never = [i for i, hit in zip(ids, b.reached.any(0)) if not hit]
    assert "stash.reward.7.star" in never
