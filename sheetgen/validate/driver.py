"""One driver for every roll-and-write game: it plays any game's `State` with any policy.

The protocol (OpenSpiel-shaped) each game's `rules.State` implements:
- `is_chance_node()`: the dice are to be rolled; `chance_outcomes()` lists ((a, b), probability);
  `apply_chance((a, b))` rolls them;
- `legal_actions()`: the player's options as values, in the game's canonical order; never empty
  (a roll the rules let pass is an action too);
- `apply_action(action)`: one of those values;
- `is_terminal()`, `score()`, `turn_index()` (the row of the dice and uniforms the turn reads).

A policy is `choose(state, legal, u) -> action`, u a uniform in [0, 1) (the random policy takes
legal[floor(u * n)]); the k-th decision of a turn reads u[turn, k % K].
"""

from __future__ import annotations

from typing import Callable, Protocol

OUTCOMES = tuple(((a, b), 1 / 36) for a in range(1, 7) for b in range(1, 7))


class State(Protocol):
    def is_chance_node(self) -> bool: ...
    def apply_chance(self, dice: tuple[int, int]) -> None: ...
    def legal_actions(self) -> list: ...
    def apply_action(self, action) -> None: ...
    def is_terminal(self) -> bool: ...
    def score(self) -> int: ...
    def turn_index(self) -> int: ...


Choose = Callable[[State, list, float], object]


def random_choice(state, legal: list, u: float):
    """The random policy of every game: option floor(u * n) of the n legal ones."""
    return legal[int(u * len(legal))]


def play(state: State, dice, u, choose: Choose):
    """Play `state` to its end: dice [T, 2] per turn, u [T, K] uniforms per turn. Returns the state."""
    K = u.shape[1]
    k = 0
    while not state.is_terminal():
        t = state.turn_index()
        if state.is_chance_node():
            state.apply_chance((int(dice[t, 0]), int(dice[t, 1])))
            k = 0
            continue
        legal = state.legal_actions()
        assert legal, f"no legal action at turn {t}: the protocol offers a pass instead"
        state.apply_action(choose(state, legal, float(u[t, k % K])))
        k += 1
    return state
