"""The one game protocol (sheetgen.validate.driver): every roll-and-write game's State played by the
same random-play loop, with actions drawn at random from `legal_actions()` (not through a policy)."""

from __future__ import annotations

import random

import pytest

from sheetgen.games.boogaloo import board as boogaloo_board, rules as boogaloo
from sheetgen.games.haunt_the_block import board as haunt_board, rules as haunt
from sheetgen.games.tricky_treats import board as tricky_board, rules as tricky
from sheetgen.kinds import load
from sheetgen.validate.driver import play, random_choice

import numpy as np


def _states():
    doc = load("boogaloo").doc
    sheet = boogaloo.RULES.sheets(doc)[0][1]
    return {
        "tricky-treats": (lambda: tricky.State(tricky_board.tables(load("tricky-treats").doc)), 16, 16),
        "haunt-the-block": (lambda: haunt.State(haunt_board.Board(load("haunt-the-block").doc)), 30, 31),
        "boogaloo": (lambda: boogaloo.State(boogaloo_board.board(sheet)), 13, 13),
    }


GAMES = _states()


def random_game(new, seed: int):
    """Play one game choosing uniformly among the legal actions; returns (state, log)."""
    rng = random.Random(seed)
    s = new()
    log, rolls, turns = [], 0, set()
    while not s.is_terminal():
        turns.add(s.turn_index())
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and len(outcomes) == 36
            dice = rng.choice([o for o, _ in outcomes])
            s.apply_chance(dice)
            log.append(("roll", dice))
            rolls += 1
            continue
        legal = s.legal_actions()
        assert legal, f"seed {seed}: no legal action at turn {s.turn_index()}"
        a = rng.choice(legal)
        s.apply_action(a)
        log.append(("act", a))
        assert len(log) < 2000
    return s, log, rolls, turns


@pytest.mark.parametrize("game", list(GAMES))
def test_random_play_follows_the_protocol(game):
    new, rolls_expected, turns_expected = GAMES[game]
    scores = []
    for seed in range(12):
        s, log, rolls, turns = random_game(new, seed)
        assert rolls == rolls_expected and turns == set(range(turns_expected))
        assert not s.is_chance_node() and s.legal_actions() == []
        scores.append(s.score())
        # the same chance outcomes and actions replayed give the same sheet
        again = new()
        for kind, x in log:
            (again.apply_chance if kind == "roll" else again.apply_action)(x)
        assert again.is_terminal() and again.score() == s.score()
    assert min(scores) >= 0 and len(set(scores)) > 3  # the games differ


@pytest.mark.parametrize("game", list(GAMES))
def test_driver_plays_the_uniforms_it_is_given(game):
    """The driver's random policy with u = 0 takes the first legal action every time."""
    new, _, turns = GAMES[game]
    rng = np.random.default_rng(5)
    dice = rng.integers(1, 7, size=(turns, 2))
    first = play(new(), dice, np.zeros((turns, 4)), random_choice)
    by_hand = new()
    while not by_hand.is_terminal():
        t = by_hand.turn_index()
        if by_hand.is_chance_node():
            by_hand.apply_chance((int(dice[t, 0]), int(dice[t, 1])))
        else:
            by_hand.apply_action(by_hand.legal_actions()[0])
    assert first.score() == by_hand.score()


class Toy:
    """Two turns: take 1 point now ("small"), or nothing now and 3 points next turn ("big")."""

    def __init__(self):
        self.turn, self.rolled, self.points, self.big = 0, False, 0, False

    def clone(self):
        c = Toy()
        c.__dict__.update(self.__dict__)
        return c

    def is_chance_node(self):
        return not self.rolled and not self.is_terminal()

    def apply_chance(self, dice):
        self.rolled = True

    def legal_actions(self):
        return ["small", "big"] if self.turn == 0 else ["cash"]

    def apply_action(self, a):
        self.points += {"small": 1, "big": 0, "cash": 3 * self.big}[a]
        self.big |= a == "big"
        self.turn, self.rolled = self.turn + 1, False

    def is_terminal(self):
        return self.turn >= 2

    def score(self):
        return self.points

    def turn_index(self):
        return self.turn


def test_lookahead_sees_what_greedy_cannot():
    from sheetgen.validate.driver import lookahead

    def greedy(s, legal, u):
        return max(legal, key=lambda a: {"small": 1, "big": 0, "cash": 0}[a])

    dice, u = np.ones((2, 2), np.int64), np.full((2, 1), 0.5)
    assert play(Toy(), dice, u, greedy).score() == 1
    values = lambda s, legal: [{"small": 1, "big": 0, "cash": 0}[a] for a in legal]
    assert play(Toy(), dice, u, lookahead(greedy, values)).score() == 3


class PaidToy(Toy):
    """Toy with a second way of paying for "small" ("small.paid": the same move, worth less to greedy)."""

    def clone(self):
        c = PaidToy()
        c.__dict__.update(self.__dict__)
        return c

    def legal_actions(self):
        return ["small", "small.paid", "big"] if self.turn == 0 else ["cash"]

    def apply_action(self, a):
        super().apply_action(a.split(".")[0])


def test_lookahead_tries_one_action_per_family():
    from sheetgen.validate.driver import lookahead

    worth = {"small": 2, "small.paid": 1, "big": 0, "cash": 0}
    greedy = lambda s, legal, u: max(legal, key=worth.get)  # noqa: E731
    values = lambda s, legal: [worth[a] for a in legal]  # noqa: E731
    dice, u = np.ones((2, 2), np.int64), np.full((2, 1), 0.5)
    # two tries spent on two payments of one move: "big" is never tried
    assert play(PaidToy(), dice, u, lookahead(greedy, values, width=2)).score() == 1
    same_move = lambda s, a: a.split(".")[0]  # noqa: E731
    assert play(PaidToy(), dice, u, lookahead(greedy, values, width=2, family=same_move)).score() == 3



def test_decision_weight_is_best_minus_worst_final_score():
    from sheetgen.validate.driver import decision_weights

    def greedy(s, legal, u):
        return legal[0]

    weights = decision_weights(Toy(), np.ones((2, 2), np.int64), greedy, rollouts=2, seed=0)
    assert weights == [(0, 2.0)]  # small ends on 1, big on 3; the second turn offers no choice
