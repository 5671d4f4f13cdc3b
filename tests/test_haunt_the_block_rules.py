"""Haunt the Block reference engine: the rulebook's examples replayed, and games worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.games.haunt_the_block.board import Board, Pay
from sheetgen.games.haunt_the_block.policy import greedy
from sheetgen.games.haunt_the_block.rules import RULES, State, play
from sheetgen.kinds import load


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
    three = [m for m in s.legal_actions() if m.d == 3]
    assert three == [Pay(3)]  # the die as rolled; no star, no power at hand that reaches it otherwise
    s.apply_action(Pay(3))
    assert s.numbers[target] == 13 and s.pos == target
    assert s.stash[candy] == 1 and f"stash.{board.candy_ids[candy]}.1" in s.reached


def test_cheerleader_meets_the_bee(board):
    """Dice 1 and 3: the Bee wants the lower die; the Cheerleader adds 1 + 3 = 4 to reach it."""
    bee = space(board, "bee")
    s = at(board, bee - 4, 10)
    s.unlocked["add_dice"] = True
    s.begin_turn((1, 3))
    assert [m for m in s.legal_actions() if m.d == 4] == [Pay(4, ("add_dice",))]
    s.apply_action(Pay(4, ("add_dice",)))
    assert s.numbers[bee] == 10 and s.power_uses["add_dice"] == 1
    assert {"power.cheerleader.1", "boonus.pumpkin.1", f"path.{bee + 1}"} <= s.reached
    # without the Cheerleader the Bee is out of reach: 3 + 1 star uses the higher die
    s = at(board, bee - 4, 10)
    s.begin_turn((1, 3))
    assert not [m for m in s.legal_actions() if m.d == 4]
    # ... but any other space four on may take the star
    s = at(board, 20, 10)
    s.begin_turn((1, 3))
    assert [m for m in s.legal_actions() if m.d == 4] == [Pay(4, (), 1)]


def test_juliet_then_romeo(board):
    """Arthur writes 18 on Juliet: a cat in Boo-nus at once, the bar only once Romeo has a number."""
    juliet, romeo = space(board, "juliet"), space(board, "romeo")
    s = at(board, juliet - 2, 18)
    s.begin_turn((2, 6))
    s.apply_action(Pay(2))
    assert s.numbers[juliet] == 18 and s.boonus == [0, 1, 0]
    assert "boonus.cat.1" in s.reached and "bar.romeo_juliet" not in s.reached
    s.turn, s.pos = 19, romeo - 5
    s.begin_turn((5, 6))
    s.apply_action(Pay(5))
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
    assert (0, 3) in s.payments(8, 28)  # (stars, mask: add_dice | flip_die)
    # dice 2 and 5: the Turtle takes 2 from the 2, and the value stops at 1; or the Acrobat
    # turns the 5 into a 2 first (mask 2 | 8)
    s.dice = (2, 5)
    assert s.payments(1, 21) == [(0, 8), (0, 10)]
    s.power_uses["subtract"] = 2  # both circles checked
    assert s.payments(1, 21) == []


def _giant_and_turtle(order: str) -> State:
    """Dice 2 and 5, Giant (+2) and Turtle (-2) at hand, no star; the seven spaces ahead of
    space 13 hold no pumpkin."""
    doc = load("haunt-the-block").doc
    content = doc.content.model_copy(update={"power_order": order})
    s = at(Board(doc.model_copy(update={"content": content})), 12, 10, used_stars=1)
    s.unlocked.update(add=True, subtract=True)
    s.begin_turn((2, 5))
    return s


GT = ("add", "subtract")


def test_every_payment_is_an_action_printed_order():
    """Printed order: Giant, then Turtle. From the 2: 2, 4 (Giant), 1 (Turtle, stops at 1),
    2 (+2 then -2); from the 5: 5, 7, 3, 5. Same powers to the same space are one action."""
    s = _giant_and_turtle("printed")
    assert s.legal_actions() == [Pay(1, ("subtract",)), Pay(2), Pay(2, GT), Pay(3, ("subtract",)),
                                 Pay(4, ("add",)), Pay(5), Pay(5, GT), Pay(7, ("add",))]


def test_every_payment_is_an_action_any_order():
    """Any order adds the Turtle first: 2 - 2 stops at 1, then + 2 = 3 spaces with both powers."""
    s = _giant_and_turtle("any")
    moves = s.legal_actions()
    assert moves == [Pay(1, ("subtract",)), Pay(2), Pay(2, GT), Pay(3, ("subtract",)), Pay(3, GT),
                     Pay(4, ("add",)), Pay(5), Pay(5, GT), Pay(7, ("add",))]
    target = 12 + 3
    candy = int(s.b.space_candy[target])
    s.apply_action(Pay(3, GT))
    assert s.numbers[target] == 10 and s.pos == target and s.stash[candy] == 1
    assert s.power_uses == {"add_dice": 0, "flip_die": 0, "add": 1, "subtract": 1}
    assert {"power.giant.1", "power.turtle.1", f"path.{target + 1}"} <= s.reached
    assert s.unused_powers() == 0 + 1 + 1 and s.phase == "roll" and s.turn == 11


def test_acrobat_before_or_after_the_giant():
    """Dice 5 and 6 from space 13: printed order turns the 5 over (2) then adds 2: 4 spaces;
    in any order the Giant may go first, 7 turned over stops at 1: one space, the same powers."""
    for order, extra in (("printed", []), ("any", [Pay(1, ("flip_die", "add"))])):
        s = _giant_and_turtle(order)
        s.unlocked.update(flip_die=True, subtract=False)
        s.phase, s.turn = "roll", 10
        s.begin_turn((5, 6))
        both = [m for m in s.legal_actions() if m.powers == ("flip_die", "add")]
        assert both == extra + [Pay(3, ("flip_die", "add")), Pay(4, ("flip_die", "add"))], order


def test_greedy_pays_the_cheapest_way(board):
    """Greedy's choice, not the engine's: of the ways to reach a space it takes the fewest
    powers and stars (policy.POWER_COST, STAR_COST)."""
    s = _giant_and_turtle("printed")
    legal = s.legal_actions()
    pick = greedy(s, legal, 0.0)
    assert pick.powers in ((), ("add",), ("subtract",)) and not pick.stars
    assert greedy(s, [Pay(5, GT), Pay(5)], 0.0) == Pay(5)


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
    ds = {m.d for m in s.legal_actions()}
    assert 1 not in ds and 2 in ds  # one space is odd; the next space is a candy (doubles)
    s = at(board, dino - 2, 20, used_stars=1)
    s.begin_turn((2, 5))
    assert [m for m in s.legal_actions() if m.d == 2] == [Pay(2)]


def test_scarecrow_wants_a_plain_die(board):
    sc = space(board, "scarecrow")
    s = at(board, sc - 3, 20)  # one star at hand
    s.begin_turn((2, 5))
    assert not [m for m in s.legal_actions() if m.d == 3]  # 2 + star is not a plain die
    s.begin_turn((3, 5))
    assert [m for m in s.legal_actions() if m.d == 3] == [Pay(3)]


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
