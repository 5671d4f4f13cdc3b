"""Haunt the Block variants: seeded, keeping every invariant the rules need, loading through the model."""

from __future__ import annotations

from collections import Counter

import numpy as np
import yaml

from sheetgen.games.haunt_the_block.model import HauntSheet
from sheetgen.games.haunt_the_block.rules import RULES
from sheetgen.games.haunt_the_block.variant import generate
from sheetgen.kinds import Options, load
from sheetgen.scene import ids as scene_ids

from conftest import LAYOUTS

SHIPPED = yaml.safe_load((LAYOUTS / "haunt-the-block.yaml").read_text())


def _doc(content) -> HauntSheet:
    return HauntSheet.model_validate({**SHIPPED, "content": content})


def test_invariants_over_many_seeds():
    base = SHIPPED["content"]
    counts = Counter(sp.get("candy") for sp in base["path"])
    for seed in range(300):
        new = generate(base, np.random.default_rng(seed))
        doc = _doc(new)  # loads: 6 starts, 4 pumpkins, enough candy spaces, every child once
        path = new["path"]
        assert len(path) == len(base["path"])
        assert Counter(sp.get("candy") for sp in path) == counts
        assert [("child" in a) for a in path] == [("child" in b) for b in base["path"]]
        flags = [sp.get("start", False) for sp in base["path"]]
        assert [sp.get("start", False) for sp in path] == flags
        kinds = sorted(c["id"] for c in base["candies"])
        assert sorted(sp["candy"] for sp in path if sp.get("start")) == kinds
        seq = [sp["candy"] for sp in path if "candy" in sp]
        assert all(seq[i] != seq[(i + 1) % len(seq)] for i in range(len(seq)))
        assert doc.content.child("bee").condition.kind == "lower_die"
        assert sum(c.symbol == "pumpkin" for c in doc.content.children) == 4
        assert len(RULES.element_ids(doc)) == len(RULES.element_ids(load("haunt-the-block").doc))
    assert base == SHIPPED["content"]  # the input is not touched


def test_seeded_and_different():
    base = SHIPPED["content"]
    a = generate(base, np.random.default_rng(4))
    assert a == generate(base, np.random.default_rng(4))
    assert a != generate(base, np.random.default_rng(5))


def test_variant_renders_with_every_element(tmp_path):
    from sheetgen.kinds import render_pages

    new = generate(SHIPPED["content"], np.random.default_rng(9))
    path = tmp_path / "v.yaml"
    path.write_text(yaml.safe_dump({**SHIPPED, "content": new}, sort_keys=False))
    loaded = load(path)
    drawn = set(scene_ids(render_pages(loaded, Options())[0].items))
    assert set(RULES.element_ids(loaded.doc)) <= drawn


def test_broken_variant_loads_but_cannot_reach_its_last_star():
    doc = _doc(generate(SHIPPED["content"], np.random.default_rng(1), broken=True))
    ids = RULES.element_ids(doc)
    star = ids.index("stash.star.6")
    reached = np.zeros(len(ids), bool)
    for policy in ("random", "greedy", "cover"):
        dice, u, t = RULES.inputs(0, 4000, 1, policy, len(ids))
        reached |= RULES.fast(doc, dice, u, policy, t).reached.any(0)
    assert not reached[star]
    # without that star the eighth Stars circle and the all-stars bar are out of reach too
    assert {i for i, r in zip(ids, reached) if not r} == {"stash.star.6", "stars.8", "bar.stars"}
