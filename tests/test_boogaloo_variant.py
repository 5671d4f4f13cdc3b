"""Boogaloo variants: seeded content that keeps every invariant and loads through the model."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import yaml

from sheetgen.games.boogaloo.compose import KIND, pages
from sheetgen.games.boogaloo.rules import RULES
from sheetgen.games.boogaloo.variant import generate
from sheetgen.kinds import Options

from conftest import LAYOUTS

ENGINES = ("boogaloo",)  # the one engine played here: conftest waits for it alone


@pytest.fixture(scope="module")
def shipped():
    return yaml.safe_load((LAYOUTS / "boogaloo.yaml").read_text())


def _doc(shipped, content):
    return KIND.model.model_validate({**shipped, "content": content})


def test_invariants_hold_for_hundreds_of_seeds(shipped):
    base = shipped["content"]
    groups = [sorted(c["id"] for c in s["children"]) for s in base["sheets"]]
    for seed in range(300):
        c = generate(base, np.random.default_rng(seed))
        doc = _doc(shipped, c)  # loads: the model's own checks pass
        assert [sorted(ch.id for ch in s.children) for s in doc.content.sheets] == groups
        assert c["boonus"] == base["boonus"] and c["stash"] == base["stash"]
        for sheet in doc.content.sheets:
            boxes = [b for ch in sheet.children for b in ch.boxes]
            assert Counter(b.candy for b in boxes) == {k["id"]: 6 for k in base["candies"]}
            assert Counter(b.die for b in boxes) == {d: 6 for d in range(1, 7)}
            assert len({(b.die, b.candy) for b in boxes}) == 36
            for ch in sheet.children:
                assert len({b.die for b in ch.boxes}) == 3 and len({b.candy for b in ch.boxes}) == 3
                assert [b.die for b in ch.boxes] == sorted(b.die for b in ch.boxes)


def test_same_seed_same_content_other_seed_differs(shipped):
    base = shipped["content"]
    a = generate(base, np.random.default_rng(7))
    assert a == generate(base, np.random.default_rng(7))
    assert a != generate(base, np.random.default_rng(8))
    assert base == yaml.safe_load((LAYOUTS / "boogaloo.yaml").read_text())["content"]  # not modified


def test_variant_renders_four_sheets(shipped):
    doc = _doc(shipped, generate(shipped["content"], np.random.default_rng(3)))
    assert len(pages(doc, Options())) == 4


def test_broken_variant_loads_but_last_boonus_rewards_are_never_reached(shipped):
    c = generate(shipped["content"], np.random.default_rng(1), broken=True)
    doc = _doc(shipped, c)
    assert len(doc.content.boonus) == 12
    label, one = RULES.sheets(doc)[0]
    ids = RULES.element_ids(one)
    reached = np.zeros(len(ids), bool)
    for policy in ("greedy", "cover", "random"):
        dice, u, targets = RULES.inputs(0, 8192, 2, policy, len(ids))
        reached |= RULES.fast(one, dice, u, policy, targets).reached.any(0)
    missing = {e for e, r in zip(ids, reached) if not r}
    assert {"boonus.11", "boonus.12"} <= missing


def test_variant_sheets_print_their_stamp(shipped):
    from sheetgen.scene import ids

    info = {"game": "boogaloo", "seed": 3, "id": "abcdef12", "command": "sheetgen variant boogaloo --seed 3"}
    doc = KIND.model.model_validate({**shipped, "content": generate(shipped["content"],
                                                                     np.random.default_rng(3)),
                                     "variant": info})
    for page in pages(doc, Options()):
        found = ids(page.items)
        assert "variant.footer" in found and "variant.qr" in found and "qr" not in found
