"""Mechanics switched off in the layout (a Tricky Treats child with no power symbols, a stash
reward of kind none; a Haunt the Block power set to none, a column without a star): the models
accept them, refuse half-written ones, both engines play such sheets the same, the rules give
nothing for them, and the sheet draws them as nothing."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from sheetgen.games.haunt_the_block import board as HB
from sheetgen.games.haunt_the_block import mechanics as HM
from sheetgen.games.haunt_the_block.model import HauntSheet
from sheetgen.games.haunt_the_block.rules import RULES as H_RULES
from sheetgen.games.haunt_the_block.rules import State as HState
from sheetgen.games.tricky_treats import board as TB
from sheetgen.games.tricky_treats import mechanics as TM
from sheetgen.games.tricky_treats.model import TrickySheet
from sheetgen.games.tricky_treats.rules import RULES as T_RULES
from sheetgen.games.tricky_treats.rules import State as TState
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import walk
from sheetgen.validate.engine import POLICIES

from conftest import engines_agree, games, matching


def _off(loaded, picks):
    """The loaded layout with the named mechanics switched off, re-validated through its model."""
    doc = loaded.doc
    for m in picks(loaded.doc):
        doc = m.off(doc)
    return type(loaded.doc).model_validate(doc.model_dump())


def _named(listing, *names):
    return lambda doc: [m for m in listing(doc) if m.name.split(" (")[0] in names]


@pytest.fixture(scope="module")
def tt():
    loaded = load("tricky-treats")
    # the Skeleton's bone and the Vampire's bat off, the star of column 1 and the choice of column 4
    off = _off(loaded, _named(TM.mechanics, "Bone", "Bat", "stash reward 1", "stash reward 4"))
    return loaded, off


@pytest.fixture(scope="module")
def htb():
    loaded = load("haunt-the-block")
    off = _off(loaded, _named(HM.mechanics, "Black Cat", "Acrobat", "Romeo and Juliet", "stash star 2"))
    return loaded, off


def _scene(loaded, doc) -> dict:
    pages = render_pages(dataclasses.replace(loaded, doc=doc), Options())  # the print lint runs too
    return {it.id: it for it, _, _ in walk(pages[0].items) if it.id}


# ---- the models ----------------------------------------------------------------------------------

def test_tricky_treats_model_accepts_off_values_and_refuses_half_ones(tt):
    shipped, off = tt
    kids = {k.id: k for k in off.content.children}
    assert kids["skeleton"].powers == [] and kids["vampire"].powers == []
    assert [r.kind for r in off.content.stash.rewards][:4] == ["none", "cauldron_pyramid", "star", "none"]
    data = shipped.doc.model_dump(mode="json")
    data["content"]["stash"]["rewards"][0] = {"kind": "none", "needs": 5}
    with pytest.raises(ValidationError, match="takes no 'needs'"):
        TrickySheet.model_validate(data)
    data["content"]["stash"]["rewards"][0] = {"kind": "star"}
    with pytest.raises(ValidationError, match="needs a 'needs'"):
        TrickySheet.model_validate(data)
    data = shipped.doc.model_dump(mode="json")
    data["content"]["children"][0]["powers"] = [{"boxes": [1, 2]}]
    with pytest.raises(ValidationError, match=r"1 power symbol; give it 2 or 3, or none \(\[\]\)"):
        TrickySheet.model_validate(data)


def test_haunt_the_block_model_accepts_off_values_and_refuses_half_ones(htb):
    shipped, off = htb
    c = off.content
    assert [k.power for k in c.children if k.id in ("black_cat", "acrobat", "romeo", "juliet")] == ["none"] * 4
    assert c.thresholds[1] == len(c.candies) + 1 and c.star_columns == [0, 2, 3, 4, 5]
    assert c.stars == shipped.doc.content.stars - 2  # the Black Cat's star and column 2's
    data = off.model_dump(mode="json")
    data["content"]["thresholds"][1] = len(c.candies) + 2
    with pytest.raises(ValidationError, match=r"1 to 6 candy rows \(7: the column has no star\)"):
        HauntSheet.model_validate(data)
    data = off.model_dump(mode="json")
    data["content"]["stars"] += 1  # a circle no star can fill
    with pytest.raises(ValidationError, match="one per stash column with a star"):
        HauntSheet.model_validate(data)
    data = shipped.doc.model_dump(mode="json")
    data["content"]["children"][6]["power"] = "none"  # Romeo alone: Juliet's bar needs two
    with pytest.raises(ValidationError, match="1 sweetheart children"):
        HauntSheet.model_validate(data)


@pytest.mark.parametrize("layout", ["tricky-treats", "haunt-the-block"])
def test_every_listed_mechanic_switches_off_to_a_layout_the_model_accepts(layout):
    """So the report's mechanic check plays each one (the fast engines re-validate the layout)."""
    from sheetgen.validate.mechanics import accepted

    doc = load(layout).doc
    listing = {"tricky-treats": TM, "haunt-the-block": HM}[layout].mechanics(doc)
    assert len(listing) == {"tricky-treats": 18, "haunt-the-block": 15}[layout]
    assert [(m.name, accepted(m.off(doc))) for m in listing if accepted(m.off(doc))] == []


# ---- the rules give nothing for a mechanic switched off -------------------------------------------

def test_tricky_treats_rules_give_nothing_switched_off(tt):
    shipped, off = tt
    for doc, star in ((shipped.doc, 1), (off, 0)):
        s = TState(TB.tables(doc))
        s.stash = [1, 1, 1, 1, 0, 0]
        s._add_candy(4)  # five rows reach column 1, which needs 5: its star (when it has one)
        assert (s.reward[0], s.pending["star"]) == (star, star)
    t = TB.tables(off)
    assert t.n_pow == TB.tables(shipped.doc).n_pow - 5  # the Skeleton's 3 bones, the Vampire's 2 bats
    s = TState(t)
    for b in range(6):  # every box of the Skeleton (child 1): no power symbol to unlock
        s._unlock(b)
    assert not any(s.unlocked) and s.done[t.n_pow]  # only its Boo-nus symbol is done
    ids = set(TB.element_ids(off))
    assert not ids & {TB.id_power("skeleton", 1), TB.id_reward(1, "star"), TB.id_reward(4, "pyramid")}


def test_haunt_the_block_rules_give_nothing_switched_off(htb):
    shipped, off = htb
    cat = next(i for i, k in enumerate(off.content.children) if k.id == "black_cat")
    acro = next(i for i, k in enumerate(off.content.children) if k.id == "acrobat")
    for doc, on in ((shipped.doc, True), (off, False)):
        s = HState(HB.Board(doc))
        s.haunt(cat)
        assert s.circled == doc.content.start_stars + on and s.boonus[1] == 1
        s.haunt(acro)
        assert s.unlocked["flip_die"] == on and s.boonus[2] == 1
        s.stash = [2, 2, 2, 2, 1, 1]
        s.collect(4)  # five rows reach column 2, which needs 5 on the shipped sheet
        assert s.col_star[1] == on
    b = HB.Board(off)
    assert "flip_die" not in b.amounts and b.sweethearts == []
    assert not set(b.element_ids) & {HB.column_star_id(1), HB.power_id("acrobat", 0), HB.SWEET_BAR}


# ---- both engines play a switched-off sheet the same ----------------------------------------------

@pytest.mark.parametrize("policy", POLICIES)
def test_tricky_treats_engines_agree_switched_off(tt, policy):
    engines_agree(T_RULES, tt[1], policy, games(40, 400), 3, 7)


@pytest.mark.parametrize("policy", POLICIES)
def test_haunt_the_block_engines_agree_switched_off(htb, policy):
    engines_agree(H_RULES, htb[1], policy, games(30, 300), 3, 7)


# ---- the sheets draw an off mechanic as nothing -----------------------------------------------------

def test_tricky_treats_sheet_draws_off_mechanics_as_nothing(tt):
    loaded, off = tt
    scene = _scene(loaded, off)
    assert [e for e in TB.element_ids(off) if e not in scene] == []
    assert not any(i.startswith(("child.skeleton.power.", "child.vampire.power.", "stash.reward.1.star",
                                 "stash.reward.4.cauldron", "stash.reward.4.pyramid")) for i in scene)
    assert scene["stash.reward.1.needs"].text == "\u2013" and scene["stash.reward.2.needs"].text == "4"
    assert "child.witch.power.text" in scene  # a child that keeps its power keeps its text


def test_haunt_the_block_sheet_draws_off_mechanics_as_nothing(htb):
    loaded, off = htb
    scene = _scene(loaded, off)
    assert [e for e in HB.Board(off).element_ids if e not in scene] == []
    assert HB.column_star_id(1) not in scene and scene[HB.column_need_id(1)].text == "\u2013"
    assert not any(i.startswith("power.acrobat.") for i in scene) and HB.SWEET_BAR not in scene
    assert "No power" in scene[HB.child_text_id("acrobat")].markup
    assert len(matching(scene, r"stars\.\d+")) == off.content.stars == 6


def test_haunt_the_block_cover_aims_no_power_at_a_free_doubles_write():
    """Regression (found by the switched-off equality test at SHEETGEN_LONG=1): with doubles, a candy
    space beyond the longest move is written for free; the fast engine's cover, aiming at a moon
    power's use circle, read that distance's payments from the next roll's list and took the move
    for a hit. These shipped-sheet games went differently in the two engines."""
    doc = load("haunt-the-block").doc
    ids = H_RULES.element_ids(doc)
    for seed, picked in ((4, [102]), (5, [129, 265])):
        dice, u, targets = H_RULES.inputs(seed, 300, 7, "cover", len(ids))
        dice, u, targets = dice[picked], u[picked], targets[picked]
        assert all(ids[t].startswith("power.") for t in targets)
        ref = H_RULES.reference(doc, dice, u, "cover", targets)
        assert H_RULES.fast(doc, dice, u, "cover", targets).same_as(ref)


def test_variants_keep_a_switched_off_reward_or_star_off(tt, htb):
    import numpy as np

    from sheetgen.games.haunt_the_block.variant import generate as h_generate
    from sheetgen.games.tricky_treats.variant import generate as t_generate

    data = tt[1].model_dump(mode="json")
    data["content"] = t_generate(data["content"], np.random.default_rng(3))
    rewards = TrickySheet.model_validate(data).content.stash.rewards
    assert [r.kind for r in rewards][:4] == ["none", "cauldron_pyramid", "star", "none"]
    data = htb[1].model_dump(mode="json", exclude_none=True)  # as a layout file reads
    params = {"threshold_shift": -1, "start_stars": 1, "uses": 2, "bar_points": 5, "amount_max": 3}
    data["content"] = h_generate(data["content"], np.random.default_rng(3), params=params)
    c = HauntSheet.model_validate(data).content
    assert c.star_columns == [0, 2, 3, 4, 5] and c.stars == 1 + 5  # the Black Cat's star is off too
