"""The Run for Your Life race engine: the rulebook's movement and cage-match examples replayed
card by card and choice by choice on the shipped mat, and the validator's contract."""

from __future__ import annotations

import json

import pytest


from conftest import ROOT, page_mm
from pdfs import page_texts
from sheetgen.games.run_for_your_life import race
from sheetgen.errors import SheetgenError
from sheetgen.games.run_for_your_life.race_validate import heatmap, parse_players, play, run
from sheetgen.kinds import load

MAT = str(ROOT / "layouts" / "run-for-your-life-mat.yaml")


@pytest.fixture(scope="module")
def game():
    return race.make_game(load(MAT).doc, load("dash-n-bash").doc, load("gingerbread-status").doc)


def card(g, kind, *candies, character=None):
    """The index of a card type in the deck."""
    cand = tuple(g.candies.index(c) for c in candies)
    return next(i for i, c in enumerate(g.cards)
                if c.kind == kind and c.candies == cand and c.character == character)


def new(g, players, *pos):
    s = race.State(g, players)
    s.pos = list(pos)
    return s


def test_the_mat_is_what_the_layout_says(game):
    t = game.track
    assert len(t.kinds) == 66 and t.kinds[0] == "start" and t.finish == 65
    assert t.bursts == (12, 30, 47) and t.throw == 12 and t.swirl == 56 and t.zone == 57
    assert t.bridges == {14: 7, 37: 28, 46: 41} and t.where("sweet_toof") == [34]


def test_single_card_goes_to_the_first_space_of_its_candy_forward_or_back(game):
    s = new(game, 2, 3, 0)
    assert s.is_chance_node()
    s.apply_action(card(game, "single", "gumball"))
    assert s.legal_actions() == [("move", (12,)), ("move", (2,))]
    s.apply_action(("move", (2,)))
    assert s.pos == [2, 0] and s.current == 1 and s.is_chance_node()  # Red's turn


def test_same_double_goes_to_the_second_space(game):
    s = new(game, 2, 0, 0)
    s.apply_action(card(game, "double", "chocolate", "chocolate"))
    assert s.legal_actions() == [("move", (10,))]  # chocolate at 5, then 10; none behind


def test_mixed_double_either_order_each_leg_forward_or_back(game):
    s = new(game, 2, 0, 0)
    s.apply_action(card(game, "double", "jujube", "peppermint"))
    # jujube 4 then peppermint 9 (or back to 3); peppermint 3 then jujube 4 (none behind 3)
    assert sorted(s.legal_actions()) == [("move", (3, 4)), ("move", (4, 3)), ("move", (4, 9))]


def test_passing_and_landing_give_one_attack_each_and_damage_goes_by_candy(game):
    s = new(game, 3, 0, 2, 4)
    s.apply_action(card(game, "single", "jujube"))
    s.apply_action(("move", (4,)))
    assert s.legal_actions() == [("attack", 1), ("attack", 2), ("done",)]
    s.apply_action(("attack", 2))
    s.apply_action(card(game, "double", "peppermint", "peppermint"))  # 2 boxes off the head
    assert s.boxes[2][game.candies.index("peppermint")] == 2
    assert s.legal_actions() == [("attack", 1), ("done",)]  # each player once per turn
    s.apply_action(("attack", 1))
    s.apply_action(card(game, "cage"))  # a cage card drawn to attack: 2 boxes, attacker's pick
    assert ("part", 1, "chocolate") in s.legal_actions()
    s.apply_action(("part", 1, "chocolate"))
    assert s.boxes[1][game.candies.index("chocolate")] == 2
    assert s.current_player() == 1 and s.is_chance_node()  # Red's turn


def test_a_destroyed_part_is_a_trophy_and_further_damage_to_it_is_ignored(game):
    s = new(game, 2, 0, 4)
    s.boxes[1][game.candies.index("gumball")] = 1
    s.apply_action(card(game, "single", "jujube"))
    s.apply_action(("move", (4,)))
    s.apply_action(("attack", 1))
    s.apply_action(card(game, "double", "gumball", "gumball"))
    assert s.boxes[1][game.candies.index("gumball")] == 0 and s.trophies == [1, 0]


def test_character_jump_passes_nobody_and_sweet_toof_throws_an_early_leader(game):
    s = new(game, 3, 5, 10, 0)  # nobody has passed the first burst (12)
    s.apply_action(card(game, "character", character="sweet_toof"))
    assert s.legal_actions() == [("jump", 34)]
    s.apply_action(("jump", 34))
    # thrown onto the Pink Gumball burst: a cage match starts, no attack on Red at 10
    assert s.pos[0] == 12 and s.throws == 1 and s.cage_matches == 1
    assert s.legal_actions() == [("summon", 1), ("summon", 2)]


def test_sweet_toof_keeps_you_once_half_the_others_passed_the_first_burst(game):
    s = new(game, 3, 5, 20, 0)
    s.beyond_cage[1] = True
    s.apply_action(card(game, "character", character="sweet_toof"))
    s.apply_action(("jump", 34))
    assert s.pos[0] == 34 and s.throws == 0


def test_cage_card_goes_to_the_nearest_burst_and_a_tie_is_the_players_choice(game):
    s = new(game, 2, 21, 0)
    s.apply_action(card(game, "cage"))
    assert s.legal_actions() == [("jump", 12), ("jump", 30)]


def test_ending_on_a_bridge_entrance_falls_back_to_its_exit(game):
    s = new(game, 2, 11, 0)
    s.apply_action(card(game, "single", "candy_corn"))
    s.apply_action(("move", (14,)))
    assert s.pos[0] == 7


def test_twins_attack_four_times_in_the_danger_zone_and_the_last_space_wins(game):
    s = race.State(game, 2)
    s.pos = [0, 62]
    s.apply_action(card(game, "single", "hard_candy"))
    s.apply_action(("move", (1,)))
    for _ in range(4):  # Red starts a turn in the zone: four Twin attacks
        assert s.is_chance_node() and s.current == 1
        s.apply_action(card(game, "single", "jujube"))
    assert s.boxes[1][game.candies.index("jujube")] == 0 and s.trophies == [0, 0]
    s.apply_action(card(game, "single", "candy_corn"))
    assert s.legal_actions() == [("move", (65,)), ("move", (58,))]
    s.apply_action(("move", (65,)))
    assert s.is_terminal() and s.win_by == "escape" and s.returns() == [0.0, 1.0]


def test_rulebook_cage_match_release_and_multi_match(game):
    """Purple (0) ends on the Hard Candy burst and pulls Red (1) in; Purple's hard candy +
    peppermint card hits Red and releases her: she escapes to the peppermint and comes back,
    pulling Yellow (2) in; the three fight, each announcing a target, until one is left."""
    g = game
    s = new(g, 3, 29, 5, 10)
    s.apply_action(card(g, "single", "hard_candy"))
    s.apply_action(("move", (30,)))
    assert s.legal_actions() == [("summon", 1), ("summon", 2)]
    s.apply_action(("summon", 1))
    assert s.pos[1] == 30 and s.cage["members"] == [0, 1]
    s.apply_action(card(g, "double", "peppermint", "hard_candy"))  # Purple's attack: hits Red
    red = s.boxes[1]
    assert red[g.candies.index("peppermint")] == 3 and red[g.candies.index("hard_candy")] == 3
    assert ("release", (31, 30)) in s.legal_actions()  # peppermint at 31, back to hard candy
    s.apply_action(("release", (31, 30)))
    assert s.legal_actions() == [("summon", 2)]
    s.apply_action(("summon", 2))
    assert s.cage["members"] == [0, 1, 2] and s.pos[2] == 30
    assert s.current_player() == 1 and s.legal_actions() == [("target", 0), ("target", 2)]
    s.apply_action(("target", 2))  # Red announces Yellow, then draws
    s.apply_action(card(g, "single", "gumball"))
    assert s.boxes[2][g.candies.index("gumball")] == 3
    assert s.legal_actions() == [("target", 0), ("target", 1)]  # Yellow's turn
    s.apply_action(("target", 0))
    s.apply_action(card(g, "single", "hard_candy"))  # the space's candy: Yellow is released
    assert s.boxes[0][g.candies.index("hard_candy")] == 3
    assert s.legal_actions() == [("release", (33,)), ("release", (24,))]
    s.apply_action(("release", (24,)))
    assert s.pos[2] == 24 and s.cage["members"] == [0, 1]
    s.apply_action(card(g, "single", "chocolate"))  # Purple hits Red's body
    s.apply_action(card(g, "single", "hard_candy"))  # Red draws the space's candy: out
    s.apply_action(("release", (33,)))
    assert s.cage is None and s.pos == [30, 33, 24] and s.cage_matches == 1
    # the turn order goes on from the player after the one who began the match
    assert s.current == 1 and s.is_chance_node()


def test_every_card_moves_from_every_space_on_the_shipped_mat(game):
    for ci, c in enumerate(game.cards):
        assert all(game.table[ci][x] for x in range(game.track.finish)), c


def test_policies_only_choose_legal_actions_and_games_end(game):
    for pol in ("random", "greedy"):
        for seed in range(3):
            s = play(game, 4, pol, seed)
            assert s.is_terminal() and sum(s.returns()) == pytest.approx(1.0)
            assert s.turns < 1000


def test_validator_report_is_the_same_with_any_number_of_workers():
    a = run(MAT, 300, 7, [2], ["greedy"], workers=1)
    b = run(MAT, 300, 7, [2], ["greedy"], workers=2)
    assert a == b and a["legal_moves"] and a["faults"] == []
    r = a["runs"][0]
    assert r["games"] == 300 and r["escape_share"] + r["trophy_share"] == pytest.approx(1.0)
    assert sum(a["landings"]) == pytest.approx(1.0, abs=1e-3)


def test_heatmap_is_the_mat_with_each_space_share(tmp_path):
    report = run(MAT, 60, 1, [3], ["greedy"], workers=1)
    pdf = heatmap(MAT, report, tmp_path / "heat.pdf")
    assert page_mm(pdf) == [(594.0, 420.0)]
    text = page_texts(pdf)[0]
    assert f"{report['landings'][12]:.1%}" in text and "Pink Gumball" in text


def test_a_mat_without_chocolate_exits_1_naming_it(tmp_path, main):
    text = (ROOT / "layouts" / "run-for-your-life-mat.yaml").read_text()
    bad = tmp_path / "no-chocolate.yaml"
    bad.write_text(text.replace("candy: chocolate", "candy: jujube"))
    res = main("validate", str(bad), "--games", "10", "--json")
    assert res.returncode == 1, res.stderr
    faults = json.loads(res.stdout)["faults"]
    assert "no space on the path shows candy 'chocolate'" in faults[0]
    assert any("card single-chocolate: no legal move from 65 spaces (space 0 (start)" in f for f in faults)
    res = main("render", str(bad), "--out", str(tmp_path / "x.pdf"))  # rendering refuses it
    assert res.returncode == 2 and "chocolate" in res.stderr and "\n" not in res.stderr.strip()
    assert not (tmp_path / "x.pdf").exists()


def test_player_counts_are_read_and_bad_ones_refused():
    assert parse_players("2-6") == [2, 3, 4, 5, 6] and parse_players("2,4,6") == [2, 4, 6]
    for bad in ("7", "1-3", "four"):
        with pytest.raises(SheetgenError, match="--players"):
            parse_players(bad)


def test_special_edition_border_decides_which_candies_enter_the_finish():
    mat, deck = load(MAT).doc, load("dash-n-bash").doc
    g = race.make_game(mat, deck, load("gingerbread-status").doc, challenge=True)
    s = new(g, 2, 56, 0)  # Purple on the Peppermint Swirl
    s.apply_action(card(g, "single", "hard_candy"))
    s.apply_action(("move", (57,)))  # the first step into the Danger Zone: the border is drawn
    for c in ("jujube", "jujube", "gumball"):
        assert s.is_chance_node() and s.border is None
        s.apply_action(card(g, "single", c))
    s.apply_action(card(g, "double", "peppermint", "chocolate"))
    assert s.border == frozenset(g.candies.index(c) for c in ("jujube", "gumball", "peppermint", "chocolate"))
    s.apply_action(card(g, "single", "hard_candy"))  # Red moves off the start
    s.apply_action(("move", (1,)))
    for _ in range(4):
        s.apply_action(card(g, "single", "gumball"))  # the Twins, at Purple's turn
    s.apply_action(card(g, "single", "jujube"))
    assert s.legal_actions() == [("move", (59,)), ("move", (54,))]
    s.apply_action(("move", (59,)))
    s.apply_action(card(g, "single", "candy_corn"))
    s.apply_action(("move", (6,)))
    for _ in range(4):
        s.apply_action(card(g, "single", "chocolate"))
    s.apply_action(card(g, "single", "candy_corn"))  # the finish's own candy is not in the border
    assert s.legal_actions() == [("move", (58,))]  # so candy corn only lies behind: move back
    # a border candy with no space left ahead of it crosses into the finish
    pep = g.cards[card(g, "single", "peppermint")]
    assert race.moves(g, 59, pep, s.border) == [(65,), (56,)] and race.moves(g, 59, pep) == [(56,)]


def test_the_last_cookie_runs_the_gauntlet_from_the_swirl_forward(game):
    s = new(game, 2, 20, 22)
    s.boxes[1] = [0] * 6
    s.boxes[1][game.candies.index("peppermint")] = 1  # one box left, on the head
    s.apply_action(card(game, "single", "peppermint"))
    s.apply_action(("move", (22,)))
    s.apply_action(("attack", 1))
    s.apply_action(card(game, "single", "peppermint"))  # Red's last box: crumbs
    assert s.alive == [True, False] and s.trophies == [1, 0] and s.pos[0] == 56
    s.apply_action(card(game, "single", "hard_candy"))  # alone: forward only (57, not 51)
    assert s.legal_actions() == [("move", (57,))]


def test_a_mat_edited_while_running_is_validated_again(tmp_path):
    """A long-running process sees the mat change: its load follows the files' stamps, not the path."""
    import os

    from sheetgen.games.run_for_your_life.race_validate import legality

    text = (ROOT / "layouts" / "run-for-your-life-mat.yaml").read_text()
    mat = tmp_path / "my-mat.yaml"
    mat.write_text(text)
    assert legality(str(mat)) == []
    mat.write_text(text.replace("candy: chocolate", "candy: jujube"))
    st = mat.stat()
    os.utime(mat, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a new stamp even on a coarse clock
    assert "no space on the path shows candy 'chocolate'" in legality(str(mat))[0]
