"""Boogaloo's reference engine against the rulebook: Peter's example and hand-worked games."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.games.boogaloo.rules import PASS, RULES, State, board, element_ids, reference
from sheetgen.kinds import load
from sheetgen.scene import ids
from sheetgen.kinds import Options, render_pages

# Sheet 1 (Undercover), boxes in sheet order: child i has boxes 3i, 3i+1, 3i+2.
SECRET_AGENT_4 = 4  # Secret Agent: die 4, gummy bear
FOOTBALLER = (18, 19, 20)  # gummy bear (2), gumball (3), lollipop (4)
CANDIES = ["gumdrop", "peppermint", "gumball", "candy_corn", "gummy_bear", "lollipop"]


@pytest.fixture(scope="module")
def sheets():
    return RULES.sheets(load("boogaloo").doc)


@pytest.fixture(scope="module")
def undercover(sheets):
    return sheets[0][1]


def _turn(s: State, a: int, b: int, box: int) -> None:
    s.roll(a, b)
    assert box in s.legal_actions()
    s.apply_action(box)


def test_sheets_split_into_four_with_their_own_ids(sheets):
    assert [label for label, _ in sheets] == ["Undercover", "Fairy Tale", "Space Squad", "Party Time"]
    pages = render_pages(load("boogaloo"), Options())
    for (label, doc), page in zip(sheets, pages):
        assert len(doc.content.sheets) == 1
        drawn = set(ids(page.items))
        elements = element_ids(doc)
        assert len(elements) == len(set(elements)) == 36 + 36 + 6 + 7 + 3 + 4 + 13
        assert set(elements) <= drawn, set(elements) - drawn
    with pytest.raises(ValueError, match="one sheet at a time"):
        board(load("boogaloo").doc)


def test_peter_secret_agent_star_and_boonus(undercover):
    """The rulebook's example: a 4 under the Secret Agent is the third candy in the stash's fourth
    column, so Peter gets a star action; he uses it on the Footballer's last box, which haunts him
    and takes the first Boo-nus reward (a star action); the next haunt takes the chocolate bar."""
    s = State(board(undercover))
    before = [(6, 2, 2), (6, 5, 7), (4, 1, 17), (2, 3, 27),  # gumdrop x4
              (1, 1, 6), (4, 4, 12), (3, 6, 28), (6, 1, 32),  # peppermint x4
              (3, 5, 11), (6, 6, 23), (2, 1, 18),  # gummy bear x3 (one under the Footballer)
              (4, 5, 20)]  # lollipop under the Footballer
    for a, b, box in before:
        _turn(s, a, b, box)
        assert s.phase() == "end"
    assert s.stash == [4, 4, 0, 0, 3, 1] and not any(s.stars) and s.boonus == 0
    assert s.progress(6) == 2  # the Footballer has two of his three boxes
    # Turn 13: Peter chooses the 4 for the Secret Agent's gummy bear.
    s.roll(4, 2)
    assert SECRET_AGENT_4 in s.legal_actions()
    s.apply_action(SECRET_AGENT_4)
    assert s.stash[CANDIES.index("gummy_bear")] == 4  # the first circle left empty in that row
    assert s.stars == [False, False, False, True, False, False]  # third row to reach column 4
    assert s.phase() == "star" and s.pending == 1
    assert len(s.legal_actions()) == 36 - 13  # a star takes any open box
    s.apply_action(FOOTBALLER[1])  # the third and last candy under the Footballer
    assert s.boonus == 1 and s.pending == 1 and s.bars == 0  # first reward: a star action
    assert s.b.boonus[:2] == ("star", "bar")
    s.apply_action(8)  # Ballerina's candy corn: her last box, so she is haunted too
    assert s.boonus == 2 and s.bars == 1  # the next reward was the chocolate bar
    # ... and with a candy corn every row now holds a candy: the first column's star
    assert s.stars[0] and s.pending == 1
    s.apply_action(5)  # Secret Agent's peppermint (5th peppermint: column 5 needs 2 rows)
    assert s.phase() == "end" and s.pending == 0
    assert s.is_terminal()
    # stash: gumdrop 4 (10), peppermint 5 (15), gumball 1 (1), candy corn 1 (1), gummy bear 4 (10),
    # lollipop 1 (1) = 38; one chocolate bar = 5
    assert s.stash == [4, 5, 1, 1, 4, 1]
    assert s.score() == 38 + 5


def test_doubles_first_open_box_every_turn(undercover):
    """13 doubles with u = 0: the random policy takes the first open box each time, stars too.
    Worked by hand (see the comments) from the sheet's boxes."""
    ids_ = element_ids(undercover)
    dice = np.ones((1, 13, 2), np.int8)
    u = np.zeros((1, 13, RULES.choices_per_turn))
    b = reference(undercover, dice, u, "random", np.array([-1]))
    # turns 1-13 take boxes 0..18 in order; the stars (Astronaut haunted: Boo-nus star; all six
    # candies: column 1; Ballerina: Boo-nus star; five rows at 2: column 2; Skateboarder: Boo-nus
    # star; four rows at 3: column 3) take the next box each
    reached = dict(zip(ids_, b.reached[0]))
    checked = [i for i, e in enumerate(ids_[:36]) if reached[e]]
    assert checked == list(range(19))
    assert [reached[f"stash.star.{k}"] for k in range(1, 7)] == [True, True, True, False, False, False]
    assert [reached[f"boonus.{k}"] for k in range(1, 8)] == [True] * 6 + [False]
    assert reached["bar.row.1"] and not reached["bar.row.2"] and not any(reached[f"bar.col.{c}"] for c in range(1, 5))
    # stash: gumball 2 (3), candy corn 4 (10), gumdrop 4 (10), lollipop 3 (6), gummy bear 3 (6),
    # peppermint 3 (6) = 41; bars: Boo-nus 2, 4, 6 and row 1 = 4 x 5
    assert int(b.score[0]) == 41 + 20
    assert (int(b.penalties[0]), int(b.unused_powers[0]), int(b.turns[0])) == (0, 0, 13)
    assert RULES.fast(undercover, dice, u, "random", np.array([-1])).same_as(b)


def test_roll_matching_no_open_box_is_a_lost_turn(undercover):
    """A roll whose two values have no open box left checks nothing: a lost turn, not a stuck one."""
    s = State(board(undercover))
    ones_and_twos = [i for i, d in enumerate(s.b.die) if d in (1, 2)]
    for box in ones_and_twos:  # doubles: any box
        _turn(s, 6, 6, box)
        while s.phase() == "star":  # spend stars on boxes showing 6
            s.apply_action(next(i for i in s.legal_actions() if s.b.die[i] == 6))
    s.roll(1, 2)
    assert s.legal_actions() == [PASS]
    s.apply_action(PASS)
    assert s.lost_turns == 1 and s.phase() == "end"


def test_row_and_column_bars(undercover):
    """Haunting the last child of a full row and a full column at once circles both bars."""
    s = State(board(undercover))
    row1 = range(0, 12)
    col4 = [i for i in range(36) if (i // 3) % 4 == 3]
    for box in sorted(set(row1) | set(col4)):
        if box != 11:  # the Detective's last box closes row 1 and column 4
            s.collect(box)
    bars = s.bars
    assert not s.row_bars[0] and not s.col_bars[3]
    s.collect(11)
    assert s.row_bars == [True, False, False] and s.col_bars == [False, False, False, True]
    haunts = s.boonus
    assert s.bars - bars == 2 + (s.b.boonus[haunts - 1] == "bar")


def test_star_without_open_box_is_lost(undercover):
    """Stars are used at once; one that finds no open box is lost (counted as unused)."""
    s = State(board(undercover))
    for box in range(35):
        s.collect(box)
    s.pending = 0
    s.roll(3, 3)
    s.apply_action(35)  # doubles: the last open box
    assert s.phase() == "end"
    s.pending = 2  # say two stars were still to come
    assert s.phase() == "star" and s.legal_actions() == [PASS]
    s.apply_action(PASS)
    assert s.unused == 2 and s.pending == 0 and s.phase() == "end"
