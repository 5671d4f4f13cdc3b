"""Haunt the Block: the fast engine gives the very same games as the reference engine, on the
shipped sheet and on generated variants, under every policy."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from sheetgen.games.haunt_the_block.model import HauntSheet
from sheetgen.games.haunt_the_block.rules import RULES
from sheetgen.games.haunt_the_block.variant import generate
from sheetgen.kinds import load
from sheetgen.validate.engine import POLICIES

from conftest import LAYOUTS, LONG, engines_agree, games


@pytest.mark.parametrize("policy", POLICIES)
def test_shipped_sheet_same_games(policy):
    doc = load("haunt-the-block").doc
    n = games(150, 700)
    ref = engines_agree(RULES, doc, policy, n, 11, 11)
    assert ref.reached.shape == (n, len(RULES.element_ids(doc)))
    assert (ref.turns == 31).all() and (ref.stuck == 0).all()
    assert ref.penalties.sum() > 0  # penalties do happen and are counted


@pytest.mark.parametrize("seed", range(6) if LONG else (1, 5))  # 5: a broken variant
def test_variants_same_games(seed):
    data = yaml.safe_load((LAYOUTS / "haunt-the-block.yaml").read_text())
    data["content"] = generate(data["content"], np.random.default_rng(seed), broken=seed == 5)
    doc = HauntSheet.model_validate(data)
    for policy in POLICIES:
        engines_agree(RULES, doc, policy, games(50, 120), seed, seed)


@pytest.mark.parametrize("policy", POLICIES)
def test_any_power_order_same_games(policy):
    """The rules option power_order: any (more payments per move) plays the same in both engines."""
    doc = load("haunt-the-block").doc
    doc = doc.model_copy(update={"content": doc.content.model_copy(update={"power_order": "any"})})
    engines_agree(RULES, doc, policy, games(40, 400), 4, 4)


def test_letter_sheet_plays_the_same():
    a, b = load("haunt-the-block").doc, load("haunt-the-block-letter").doc
    ids = RULES.element_ids(a)
    dice, u, t = RULES.inputs(0, 200, 1, "greedy", len(ids))
    assert RULES.fast(a, dice, u, "greedy", t).same_as(RULES.fast(b, dice, u, "greedy", t))


def test_greedy_beats_random():
    doc = load("haunt-the-block").doc
    n = len(RULES.element_ids(doc))
    scores = {}
    for p in POLICIES:
        dice, u, t = RULES.inputs(0, 4000, 2, p, n)
        scores[p] = RULES.fast(doc, dice, u, p, t).score.mean()
    assert scores["greedy"] > scores["random"] + 10


def test_a_game_of_the_wrong_length_is_a_fault(monkeypatch):
    """Both engines report the turns they really played: a State that stops one number early,
    or a compiled engine told to play 30 turns, makes the validator's wrong-length fault fire."""
    from sheetgen.games.haunt_the_block import fast as F, rules as R
    from sheetgen.validate.run import run

    loaded = load("haunt-the-block")
    assert not [f for f in run(loaded, 40, policies=("greedy",), engine="reference", workers=1).faults
                if "instead of" in f]
    monkeypatch.setattr(R.State, "is_terminal", lambda s: s.turn > s.b.turns - 1)
    report = run(loaded, 40, policies=("greedy",), engine="reference", workers=1)
    assert "40 games ended after 30 turns instead of the 31 the rules say" in report.faults
    monkeypatch.undo()
    sheet = F.sheet

    def short(doc_json):
        b, ints, arrays, nbars = sheet(doc_json)
        ints = ints.copy()
        ints[-1] = 30  # the turns the compiled loop plays
        return b, ints, arrays, nbars

    monkeypatch.setattr(F, "sheet", short)
    report = run(loaded, 40, policies=("random",), workers=1)
    assert "40 games ended after 30 turns instead of the 31 the rules say" in report.faults
