"""Haunt the Block reference engine: the rulebook's examples replayed, and games worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.games.haunt_the_block.board import COMBOS, FREE, Board
from sheetgen.games.haunt_the_block.rules import RULES, State, play
from sheetgen.kinds import load

CHEER = COMBOS.index((4, 0))  # both dice added (Cheerleader), no Giant/Turtle


@pytest.fixture(scope="module")
def board():
    return Board(load("haunt-the-block").doc)


def space(board, child):
    return next(i for i, sp in enumerate(board.c.path) if sp.child == child)


def at(board, pos, number, **kw) -> State:
    """A sheet whose last number is `number - 1` on space index `pos`."""
    s = State(board)
    s.numbers[pos] = number - 1
    s.pos, s.turn, s.phase = pos, number, "roll"
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def test_arthur_moves_three_from_his_12(board):
    """Arthur picks the die showing 3: three spaces on from his 12 he writes 13 and takes the candy."""
    s = at(board, 12, 13)  # his 12 is on the Robot (space 13); three on is a peppermint
    target = 15
    candy = int(board.space_candy[target])
    s.begin_turn((3, 5))
    moves = dict(s.legal_actions())
    assert moves[3] == (COMBOS.index((0, 0)), 0)  # die 1 as rolled, no star
    s.apply_action((3, moves[3]))
    assert s.numbers[target] == 13 and s.pos == target
    assert s.stash[candy] == 1 and f"stash.{board.candy_ids[candy]}.1" in s.reached


def test_cheerleader_meets_the_bee(board):
    """Dice 1 and 3: the Bee wants the lower die; the Cheerleader adds 1 + 3 = 4 to reach it."""
    bee = space(board, "bee")
    s = at(board, bee - 4, 10)
    s.unlocked["add_dice"] = True
    s.begin_turn((1, 3))
    moves = dict(s.legal_actions())
    assert moves[4] == (CHEER, 0)
    s.apply_action((4, moves[4]))
    assert s.numbers[bee] == 10 and s.power_uses["add_dice"] == 1
    assert {"power.cheerleader.1", "boonus.pumpkin.1", f"path.{bee + 1}"} <= s.reached
    # without the Cheerleader the Bee is out of reach: 3 + 1 star uses the higher die
    s = at(board, bee - 4, 10)
    s.begin_turn((1, 3))
    assert 4 not in dict(s.legal_actions())
    # ... but any other space four on may take the star
    s = at(board, 20, 10)
    s.begin_turn((1, 3))
    assert dict(s.legal_actions())[4] == (COMBOS.index((1, 0)), 1)


def test_juliet_then_romeo(board):
    """Arthur writes 18 on Juliet: a cat in Boo-nus at once, the bar only once Romeo has a number."""
    juliet, romeo = space(board, "juliet"), space(board, "romeo")
    s = at(board, juliet - 2, 18)
    s.begin_turn((2, 6))
    s.apply_action((2, dict(s.legal_actions())[2]))
    assert s.numbers[juliet] == 18 and s.boonus == [0, 1, 0]
    assert "boonus.cat.1" in s.reached and "bar.romeo_juliet" not in s.reached
    s.turn, s.pos = 19, romeo - 5
    s.begin_turn((5, 6))
    s.apply_action((5, dict(s.legal_actions())[5]))
    assert "bar.romeo_juliet" in s.reached and s.score() == 5


def test_fourth_candy_in_third_column_earns_a_star(board):
    s = State(board)
    s.stash = [3, 3, 3, 2, 0, 0]
    s.collect(3)
    assert s.col_star[2] and s.circled == 2 and "stars.2" in s.reached and "stash.star.3" in s.reached


def test_powers_combine_never_below_one_twice_each(board):
    s = at(board, 20, 10, used_stars=1)
    s.unlocked.update(flip_die=True, add_dice=True, subtract=True)
    s.dice = (1, 2)
    # Acrobat turns the 1 into a 6, the Cheerleader adds the 2: eight spaces, two powers
    assert s.plan_for(8, 28) == (COMBOS.index((5, 0)), 0)
    # dice 2 and 5: the Turtle takes 2 from the 2, and the value stops at 1
    s.dice = (2, 5)
    assert s.plan_for(1, 21) == (COMBOS.index((0, 2)), 0)
    s.power_uses["subtract"] = 2  # both circles checked
    assert s.plan_for(1, 21) is None


def test_doubles_any_candy_space(board):
    s = at(board, 0, 2)
    s.begin_turn((4, 4))
    moves = dict(s.legal_actions())
    far = max(d for d in moves)
    assert moves[far] == (FREE, 0) and far > 12
    assert all(board.space_candy[(0 + d) % board.n] >= 0 for d, p in moves.items() if p == (FREE, 0))


def test_penalty_cross_then_write(board):
    """No space either die (stars, powers) can reach: cross a final-score candy, then write the
    turn's number in an empty candy space of your choice and collect it."""
    s = at(board, 0, 5, used_stars=1)
    s.numbers[1] = 2
    s.numbers[2] = 3
    s.begin_turn((1, 2))
    assert s.penalties == 1 and s.phase == "cross" and s.legal_actions() == list(range(6))
    s.apply_action(1)  # gumball
    assert s.crossed[1] and "penalty.gumball" in s.reached and s.phase == "write"
    assert s.legal_actions()[0] == 3  # the first empty candy space clockwise
    s.apply_action(3)
    assert s.numbers[3] == 5 and s.stash[2] == 1 and s.phase == "roll" and s.turn == 6
    s.stash[1] = 4
    assert s.score() == 1  # the crossed gumball row scores nothing


def test_a_whole_game_of_double_ones(board):
    """Dice 1-1 every turn, always the first legal action (u = 0): one space a turn from space 1,
    so 1..31 land on spaces 1..31. Worked out by hand:
    stash peppermint 6 (spaces 1, 8, the Pirate's pick, 12, 16, 20; space 26's is lost), gummy bear 3,
    candy corn 5, toffee 3, lollipop 3, gumball 3 -> 21 + 6 + 15 + 6 + 6 + 6 = 60 points;
    column stars 1, 2, 3, 5, 6 (column 4 needs 3 rows of 4: only 2) + the Black Cat + the start
    = 7 stars of the 8 circles: one short of the all-stars bar; Boo-nus pumpkins 3, cats 3, moons 2
    -> columns 1, 2; 2 bars = 10 -> 70."""
    dice = np.ones((31, 2), np.int8)
    u = np.zeros((31, 2))
    s = play(board, dice, u, "random", None)
    assert s.numbers[:31] == list(range(1, 32)) and not any(s.numbers[31:])
    assert s.stash == [6, 3, 5, 3, 3, 3]
    assert s.col_star == [True, True, True, False, True, True]
    assert s.circled == 7 and s.used_stars == 0 and s.boonus == [3, 3, 2]
    assert s.bars == {"boonus.bar.1", "boonus.bar.2"}
    assert s.score() == 70 and s.tie_break() == 7 and s.unused_powers() == 7 + 2 + 2
    assert s.penalties == 0
    batch = RULES.reference(board.doc, dice[None], u[None], "random", np.array([-1]))
    assert batch.score.tolist() == [70] and batch.turns.tolist() == [31]
    assert batch.stuck.tolist() == [0]


def test_dinosaur_wants_an_even_move(board):
    dino = space(board, "dinosaur")
    s = at(board, dino - 1, 20, used_stars=1)
    s.begin_turn((1, 1))
    moves = dict(s.legal_actions())
    assert 1 not in moves and 2 in moves  # one space is odd; the next space is a candy (doubles)
    s = at(board, dino - 2, 20, used_stars=1)
    s.begin_turn((2, 5))
    assert dict(s.legal_actions())[2] == (COMBOS.index((0, 0)), 0)


def test_scarecrow_wants_a_plain_die(board):
    sc = space(board, "scarecrow")
    s = at(board, sc - 3, 20)  # one star at hand
    s.begin_turn((2, 5))
    assert 3 not in dict(s.legal_actions())  # 2 + star is not a plain die
    s.begin_turn((3, 5))
    assert dict(s.legal_actions())[3] == (COMBOS.index((0, 0)), 0)


def test_a_whole_game_of_double_sixes(board):
    """Dice 6-6 every turn, always the first legal action: the nearest empty candy space (doubles),
    or a child one space on when five stars can turn a 6 into a 1. Worked out by hand: children
    are passed by until space 29 (six stars circled by then: the start, columns 1, 2, 3, 6, 5),
    the Black Cat takes five of them and circles the eighth and last; 31 lands on space 40.
    Stash peppermint 6, gummy bear 4, candy corn 6, toffee 4, lollipop 5, gumball 5:
    21 + 10 + 21 + 10 + 15 + 15 = 92, plus the all-stars bar (8 circled, 3 unused) = 97."""
    s = play(board, np.full((31, 2), 6, np.int8), np.zeros((31, 2)), "random", None)
    written = [i for i, v in enumerate(s.numbers) if v]
    assert written == [0, 1, 3, 4, 6, 7, 8, 10, 11, 13, 14, 15, 16, 18, 19, 20, 22, 23, 24, 25, 27,
                       28, 29, 30, 31, 32, 34, 35, 37, 38, 39]
    assert [s.numbers[i] for i in written] == list(range(1, 32))
    assert s.stash == [6, 5, 6, 4, 5, 4]  # candy order: peppermint gumball corn gummy lollipop toffee
    assert all(s.col_star) and s.circled == 8 and s.used_stars == 5
    assert s.boonus == [0, 1, 0] and s.bars == {"bar.stars"}
    assert s.score() == 97 and s.tie_break() == 3 and s.unused_powers() == 3 and s.penalties == 0
