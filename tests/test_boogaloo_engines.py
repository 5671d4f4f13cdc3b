"""Boogaloo's fast engine plays exactly like the reference engine: same inputs, same Batch."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from sheetgen.games.boogaloo.compose import KIND
from sheetgen.games.boogaloo.rules import RULES
from sheetgen.games.boogaloo.variant import generate
from sheetgen.kinds import load

from conftest import LAYOUTS, LONG, engines_agree

ENGINES = ("boogaloo",)  # the one engine played here: conftest waits for it alone

# games per policy: the reference needs a few ms a greedy game, so greedy and cover play fewer
GAMES = {"random": 2000, "greedy": 600, "cover": 600} if LONG else {"random": 400, "greedy": 100, "cover": 100}


def _same(doc, policy, games, seed):
    return engines_agree(RULES, doc, policy, games, seed, 11)


def _variants(n):
    content = yaml.safe_load((LAYOUTS / "boogaloo.yaml").read_text())["content"]
    base = load("boogaloo").doc
    for seed in range(n):
        c = generate(content, np.random.default_rng(seed))
        doc = KIND.model.model_validate({**base.model_dump(exclude={"content"}), "content": c})
        yield from RULES.sheets(doc)


@pytest.mark.parametrize("policy", ["random", "greedy", "cover"])
def test_shipped_sheets_fast_equals_reference(policy):
    for n, (label, doc) in enumerate(RULES.sheets(load("boogaloo").doc)):
        games = GAMES[policy] if n == 0 else GAMES[policy] // 4
        b = _same(doc, policy, games, n)
        assert (b.turns == 13).all() and (b.stuck == 0).all()


@pytest.mark.parametrize("policy", ["random", "greedy", "cover"])
def test_random_variants_fast_equals_reference(policy):
    for n, (label, doc) in enumerate(list(_variants(2))[::3 if LONG else 5]):  # 3 (2) sheets from 2 seeds
        _same(doc, policy, GAMES[policy] // 4, 100 + n)


def test_policies_differ_and_cover_reaches_everything():
    """Greedy beats random by far; over a few thousand cover games every element is reached."""
    label, doc = RULES.sheets(load("boogaloo").doc)[0]
    n_el = len(RULES.element_ids(doc))
    means = {}
    reached = np.zeros(n_el, bool)
    for policy in ("random", "greedy", "cover"):
        dice, u, targets = RULES.inputs(0, 4000, 5, policy, n_el)
        b = RULES.fast(doc, dice, u, policy, targets)
        means[policy] = b.score.mean()
        reached |= b.reached.any(0)
    assert means["greedy"] > 1.8 * means["random"]
    missing = [e for e, r in zip(RULES.element_ids(doc), reached) if not r]
    assert not missing
