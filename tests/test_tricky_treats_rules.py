"""Tricky Treats rules: the rulebook's example replayed, and dice sequences worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.games.tricky_treats import board as B, rules as R
from sheetgen.games.tricky_treats.model import TrickySheet
from sheetgen.kinds import load

SKEL, WITCH, VAMP, MUMMY, WERE, ZOMB = range(6)


@pytest.fixture(scope="module")
def t():
    return R.tables(load("tricky-treats").doc)


def candy(t, name):
    return t.candy_ids.index(name)


def answer(st, *wanted):
    """Answer the pending decisions with these option values, in order."""
    for w in wanted:
        assert st.decision is not None, f"no decision left for {w!r}"
        assert w in st.legal_actions(), (st.decision.kind, w, st.legal_actions())
        st.apply_action(w)


def test_julies_turn(t):
    """Julie takes the Vampire's box 2 (green gummy bear) with the 2; the 5 scares the Werewolf a
    third time: skull, no more Werewolf boxes, but the power she unlocked earlier stays usable."""
    st = R.State(t)
    st.roll(1, 5)
    answer(st, (0, SKEL))  # Skeleton box 1; the 5 scares the Werewolf (1)
    st.roll(2, 5)
    answer(st, (0, SKEL))  # Skeleton box 2: both candies under the first bone
    assert st.ready("bone") == 1 and st.scares[WERE] == 2
    st.roll(2, 5)  # Julie's turn
    assert (0, VAMP) in st.legal_actions() and (1, WERE) in st.legal_actions()
    answer(st, (0, VAMP))
    assert st.decision is None
    assert st.stash[candy(t, "gummy_bear")] == 1 and t.box_candy[VAMP * 6 + 1] == candy(t, "gummy_bear")
    assert st.scares[WERE] == 3 and st.scared(WERE)
    assert all(b // 6 != WERE for b in st.any_boxes())
    # the bone she unlocked earlier is still hers: on doubles she may use it
    st.roll(4, 4)
    answer(st, VAMP * 6 + 3)  # any box on doubles: the Vampire's box 4 (gumball)
    assert st.decision.kind == "bone"
    answer(st, candy(t, "gumdrop"))
    assert st.ready("bone") == 0 and st.stash[candy(t, "gumdrop")] == 1
    assert st.scares == [0, 0, 0, 0, 3, 0]  # no scare on doubles
    ids = t.elements
    reached = B.reached(t, st.flat()[None, :])[0]
    assert reached[ids.index("stash.gummy_bear.1")] and reached[ids.index("child.werewolf.scare.3")]
    assert reached[ids.index("child.skeleton.power.1")] and not reached[ids.index("child.skeleton.power.2")]


def test_sixteen_turns_of_one_and_two_by_hand(t):
    """Dice (1, 2) every turn, always the first legal option (random policy with u = 0).
    Worked out by hand (box candies from the shipped sheet):
    T1-T6 die 1 takes box 1 of Skeleton, Witch, Vampire, Mummy, Werewolf, Zombie; the 2 scares the
    Witch on T1-T3 (skull on T3) and is then ignored. T5's candy corn is the 5th candy type in
    column 1: star -> the first free box, the Skeleton's box 2 (lollipop), which unlocks a bone.
    T7-T10 die 2 takes box 2 of Vampire, Mummy (pyramid at once -> pyramid box 1), Werewolf
    (gumball: 4 circles in column 2 -> cauldron -> cauldron box 1, a gummy bear), Zombie; the 1
    scares the Skeleton on T7-T9 (skull on T9). T11-T16 no box takes a 1 or a 2: 6 missed collects (legal turns, not stuck).
    Stash: orange 2, gumball 2, lollipop 2, gumdrop 2, candy corn 1, gummy bear 3
    = 3+3+3+3+1+6 = 19; no bar; two scared children -10: score 9; the bone is never used."""
    doc = load("tricky-treats").doc
    dice = np.tile(np.array([1, 2], np.int8), (1, 16, 1))
    u = np.zeros((1, 16, R.K))
    for engine in (R.RULES.reference, R.RULES.fast):
        b = engine(doc, dice, u, "random", np.array([-1]))
        assert b.score.tolist() == [9]
        assert b.stuck.tolist() == [0] and b.unused_powers.tolist() == [1] and b.turns.tolist() == [16]
        L = B.layout_of(t)
        s = b.state[0]
        stash = dict(zip(t.candy_ids, s[L["stash"]]))
        assert stash == {"gummy_bear": 3, "wrapped": 2, "lollipop": 2, "candy_corn": 1, "gumdrop": 2,
                         "gumball": 2}
        assert s[L["scares"]].tolist() == [3, 3, 0, 0, 0, 0]
        assert s[L["reward"]].tolist() == [1, 1, 0, 0, 0, 0, 0]
        assert s[L["pyramid"]].tolist() == [1] and s[L["cauldron"]].tolist() == [1, 0, 0, 0, 0, 0]
        assert s[L["missed"]].tolist() == [6]
        boxes = [i for i in range(36) if s[L["boxes"]][i]]
        assert boxes == [0, 1, 6, 12, 13, 18, 19, 24, 25, 30, 31]


def test_scare_of_a_scared_child_is_ignored_and_collect_is_mandatory(t):
    st = R.State(t)
    for _ in range(3):
        st.roll(1, 2)
        answer(st, st.legal_actions()[0])
    assert st.scared(WITCH)
    st.roll(3, 2)
    # the 3 can be collected, so "collect nothing" is not an option
    assert all(c is not None for _, c in st.legal_actions())
    answer(st, (0, SKEL))
    assert st.scares[WITCH] == 3 and st.decision is None
    # the Witch's boxes are closed for the rest of the game, even for a die value she still has
    assert WITCH not in [b // 6 for b in st.boxes_for(4)]


def _werewolf_moon(st):
    """Werewolf boxes 1, 2, 3 (scares fall on the Zombie twice, then the Skeleton): the third
    collect circles a full moon, and the player is asked at once whether to use it."""
    for v, s in [(1, 6), (2, 6), (3, 1)]:
        st.roll(v, s)
        answer(st, (0, WERE))
    assert st.decision.kind == "moon_late" and st.legal_actions() == [False, True]
    assert st.decision.info == {"value": 1, "target": SKEL}


def test_full_moon_collects_with_both_dice_then_scares_a_child_of_choice(t):
    st = R.State(t)
    _werewolf_moon(st)
    answer(st, False)  # keep it: the 1 scares the Skeleton
    assert st.ready("full_moon") == 1 and st.scares == [1, 0, 0, 0, 0, 2]
    st.roll(4, 6)
    answer(st, True)  # use the full moon; the player picks which die collects first
    assert st.decision.kind == "moon_first"
    assert st.legal_actions() == [(0, c) for c in range(6)] + [(1, c) for c in range(6)]
    answer(st, (1, MUMMY))  # the 6 first, under the Mummy (lollipop)
    assert st.decision.kind == "moon_collect" and st.decision.info["value"] == 4
    answer(st, SKEL)  # then the 4 under the Skeleton (gumdrop)
    assert st.decision.kind == "moon_scare" and st.legal_actions() == [0, 1, 2, 3, 4, 5]
    answer(st, VAMP)
    assert st.decision is None
    assert st.scares == [1, 0, 1, 0, 0, 2] and st.ready("full_moon") == 0
    # Werewolf 3 and Mummy 6 are both lollipops
    assert st.stash[candy(t, "gumdrop")] == 1 and st.stash[candy(t, "lollipop")] == 2


def test_full_moon_circled_mid_turn_is_used_at_once(t):
    """The moon the collect circled turns the scare die (a 1) into a second collect."""
    st = R.State(t)
    _werewolf_moon(st)
    answer(st, True)
    assert st.decision.kind == "moon_collect" and st.legal_actions() == [SKEL, WITCH, VAMP, MUMMY, ZOMB]
    answer(st, MUMMY)  # Mummy box 1: a gumdrop
    assert st.decision.kind == "moon_scare"
    answer(st, ZOMB)  # the player's choice, even the Zombie's third scare
    assert st.decision is None and st.scared(ZOMB) and st.scares == [0, 0, 0, 0, 0, 3]
    assert st.ready("full_moon") == 0 and st.used[4] == 1
    assert st.stash[candy(t, "gumdrop")] == 1 and st.boxes >> (MUMMY * 6) & 1
    # score: candy corn, gumball, lollipop, gumdrop one each (4 x 1), a scared child (-5)
    assert st.score() == 4 - 5


def _bones(doc_option):
    """Skeleton boxes 1-4 unlock two bones; then doubles: Vampire box 1 (a second lollipop)."""
    doc = load("tricky-treats").doc
    data = doc.model_dump(mode="json")
    data["content"]["bones_per_doubles"] = doc_option
    t = R.tables(TrickySheet.model_validate(data))
    st = R.State(t)
    for v, s in [(1, 6), (2, 6), (3, 5), (4, 5)]:
        st.roll(v, s)
        answer(st, (0, SKEL))
    assert st.ready("bone") == 2
    st.roll(6, 6)
    answer(st, VAMP * 6)
    assert st.decision.kind == "bone" and st.legal_actions() == [None, 0, 1, 2, 3, 4, 5]
    return t, st


def test_one_bone_per_doubles_by_default(t):
    t, st = _bones("one")
    answer(st, candy(t, "gummy_bear"))
    assert st.decision is None and st.ready("bone") == 1 and st.stash[candy(t, "gummy_bear")] == 2


def test_rules_option_lets_the_player_choose_how_many_bones(t):
    t, st = _bones("any")
    answer(st, candy(t, "gummy_bear"))
    assert st.decision.kind == "bone"  # another one, or stop
    answer(st, candy(t, "wrapped"))
    assert st.decision is None and st.ready("bone") == 0 and st.used[0] == 2
    assert [st.stash[candy(t, k)] for k in ("gummy_bear", "wrapped", "lollipop", "gumdrop")] == [2, 2, 2, 1]
    # wrapped, lollipop, gummy bear 2 each (3 points), gumdrop 1; Zombie and Werewolf twice scared
    assert st.score() == 3 * 3 + 1
    t, st = _bones("any")
    answer(st, candy(t, "gummy_bear"), None)  # stop after one: the other bone is kept
    assert st.decision is None and st.ready("bone") == 1


def test_both_engines_spend_the_bones_the_uniforms_choose():
    """Fixed dice and uniforms through both engines: the random policy takes Skeleton boxes 1-4,
    then on doubles Vampire box 1 and two bones (gummy bear, orange candy); the rest are doubles
    taking the first free box."""
    doc = load("tricky-treats").doc
    data = doc.model_dump(mode="json")
    data["content"]["bones_per_doubles"] = "any"
    doc = TrickySheet.model_validate(data)
    dice = np.full((1, 16, 2), 6, np.int8)
    dice[0, :4] = [(1, 6), (2, 6), (3, 5), (4, 5)]
    u = np.zeros((1, 16, R.K))
    u[0, 4, :3] = [8.5 / 32, 1.5 / 7, 2.5 / 7]  # box 12 of the 32 free, then options 1 and 2 of 7
    ref, fast = (e(doc, dice, u, "random", np.array([-1])) for e in (R.RULES.reference, R.RULES.fast))
    assert fast.same_as(ref)
    t = R.tables(doc)
    L = B.layout_of(t)
    assert ref.state[0][L["used"]][0] == 2 and ref.state[0][L["boxes"]][12] == 1


def test_skull_skips_the_scare(t):
    st = R.State(t)
    for v, scare in ((1, 5), (2, 4), (3, 5)):  # Zombie boxes 1-3 unlock a skull
        st.roll(v, scare)
        answer(st, (0, ZOMB))
        if st.decision is not None:
            assert st.decision.kind == "skull"
            answer(st, False)
    assert st.ready("skull") == 1 and st.scares[WERE] == 2
    st.roll(4, 5)
    answer(st, (0, ZOMB))
    assert st.decision.kind == "skull" and st.decision.info["target"] == WERE
    answer(st, True)
    assert st.scares[WERE] == 2 and st.ready("skull") == 0


def test_bat_changes_a_collected_candy(t):
    st = R.State(t)
    for v in (1, 2, 3):  # Vampire boxes 1-3 unlock a bat
        st.roll(v, 6)
        answer(st, (0, VAMP))
    assert st.ready("bat") == 1
    st.roll(4, 6)
    answer(st, (0, VAMP))  # box 4 is a gumball ...
    assert st.decision.kind == "bat" and st.decision.info["candy"] == candy(t, "gumball")
    answer(st, candy(t, "candy_corn"))  # ... stashed as a candy corn
    assert st.stash[candy(t, "gumball")] == 0 and st.stash[candy(t, "candy_corn")] == 1


def test_cauldron_at_once_and_pyramid_levels_bottom_up(t):
    st = R.State(t)
    st.roll(1, 3)
    answer(st, (0, WITCH))
    st.roll(2, 3)
    answer(st, (0, WITCH))  # Witch boxes 1, 2: a cauldron, used at once
    assert st.decision.kind == "cauldron" and st.legal_actions() == [0, 1, 2, 3, 4, 5]
    answer(st, 5)  # the gumball box of the CAULDRON section
    assert st.cauldron[5] and st.stash[candy(t, "gumball")] == 2  # Witch box 1 is a gumball too
    for v in range(1, 7):  # the Mummy's boxes: three pyramids (other rewards: first option)
        st.roll(v, 6 if v < 6 else 5)
        answer(st, (0, MUMMY))
        while st.decision is not None:
            st.apply_index(0)
    assert st.pyramid == 3
    flat = st.flat()[None, :]
    ids = t.elements
    r = B.reached(t, flat)[0]
    assert r[ids.index("pyramid.bar.1")] and not r[ids.index("pyramid.4")]  # the bottom level (3 boxes)
    assert [e for e in ids if "bar" in e and r[ids.index(e)]] == ["pyramid.bar.1"]  # one bar


def test_boonus_row_gives_an_action_and_column_a_bar(t):
    st = R.State(t)
    st.boxes = sum(1 << b for b in (0, 1, 19, 20))  # Skeleton 1, 2 and Mummy 2, 3 already crossed
    st.rem = [int(n) for n in t.sym_size]
    for b in (0, 1, 19, 20):
        for s in t.box_syms[b]:
            st.rem[s] -= 1
    st.roll(3, 5)
    answer(st, (0, SKEL))  # Skeleton 1-2-3: the first pumpkin
    assert st.bcount == [1, 0, 0]
    st.roll(4, 5)
    answer(st, (0, MUMMY))  # Mummy 2-3-4: the second pumpkin, the row is full: one action
    assert st.decision.kind == "row" and st.legal_actions() == ["star", "cauldron", "pyramid"]
    answer(st, "pyramid")
    assert st.bcount == [2, 0, 0]


def test_stash_rewards_in_any_order(t):
    st = R.State(t)
    st.stash = [6, 0, 0, 0, 0, 0]
    st._add_candy(0)  # a seventh gummy bear: column 7 needs 1 -> its star, before any other column
    assert st.reward == [0, 0, 0, 0, 0, 0, 1] and st.pending["star"] == 1


def test_score_four_of_a_candy_is_ten(t):
    flat = R.State(t).flat()
    L = B.layout_of(t)
    flat[L["stash"]] = [4, 0, 0, 0, 0, 0]
    assert B.scores(t, flat[None, :]).tolist() == [10]
    flat[L["stash"]] = [7, 1, 2, 3, 0, 0]
    flat[L["scares"]] = [3, 3, 0, 1, 2, 0]
    flat[L["pyramid"]] = [5]  # levels 3 and 2 full: two bars
    assert B.scores(t, flat[None, :]).tolist() == [28 + 1 + 3 + 6 + 2 * 5 - 2 * 5]
    assert B.tiebreak(t, flat[None, :]).tolist() == [7]


def test_game_ends_after_sixteen_turns(t):
    st = R.State(t)
    for _ in range(16):
        st.roll(6, 6)
        while st.decision is not None:
            st.apply_index(0)
    assert st.is_terminal() and st.turn == 16


def test_cover_targets_come_from_the_structured_keys(t):
    """The cover policy reads what helps from board.Key, not from the id's text."""
    from sheetgen.games.tricky_treats.policy import Help, helps

    at = t.elements.index
    assert t.keys[at("child.vampire.box.2")] == B.Key("box", VAMP, 2)
    assert helps(t, at("child.vampire.box.2")) == Help(boxes=1 << (VAMP * 6 + 1))
    assert helps(t, at("stash.reward.2.pyramid")) == Help(candies=63, pyramid=True, column=1)
    assert helps(t, at("cauldron.3")) == Help(cauldron=True, cauldron_box=2)
    assert helps(t, at("child.zombie.scare.3")) == Help(scare=ZOMB)
    pumpkins = helps(t, at("boonus.row.pumpkin")).boxes  # Skeleton 1-3 and Mummy 2-4
    assert pumpkins == sum(1 << b for b in (0, 1, 2, MUMMY * 6 + 1, MUMMY * 6 + 2, MUMMY * 6 + 3))
    assert len(set(t.elements)) == len(t.elements) == len(t.keys)
