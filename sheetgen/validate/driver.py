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

import numpy as np

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


def rollout(state: State, dice, choose: Choose, horizon: int | None = None) -> State:
    """Play on from `state` with `choose`, the k-th roll from now being dice[k] (dice [H, 2]),
    until the game ends or `horizon` more rolls have been made."""
    rolls = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if horizon is not None and rolls >= horizon:
                break
            state.apply_chance((int(dice[rolls, 0]), int(dice[rolls, 1])))
            rolls += 1
            continue
        state.apply_action(choose(state, state.legal_actions(), 0.0))
    return state


def rollout_scores(state: State, action, greedy: Choose, futures) -> list[int]:
    """The final scores of greedy games from `state` after `action`, one on each of futures [R, H, 2]."""
    out = []
    for dice in futures:
        s = state.clone()
        s.apply_action(action)
        out.append(rollout(s, dice, greedy).score())
    return out


def lookahead(greedy: Choose, values: Callable, rollouts: int = 8, width: int = 3, turns: int = 40,
              family: Callable | None = None) -> Choose:
    """The lookahead policy: greedy's `width` best actions (by `values(state, legal)`) each played
    on by `rollouts` greedy games to the end, every action meeting the same dice. Greedy's own pick
    stays unless another action's final score beats it on those dice by more than one standard
    error (rollouts are few: a plain best mean would mostly follow the noise). The dice come from
    the decision's uniform u, so the same inputs give the same games. With `family(state, action)`
    only the best action of each family is tried (e.g. one payment per space reached), so the
    `width` tries go to different moves, not to ways of paying for one."""
    def choose(state, legal: list, u: float):
        if len(legal) == 1:
            return legal[0]
        v = values(state, legal)
        order = sorted(range(len(legal)), key=lambda i: -v[i])  # stable: first on ties
        if family is not None:
            seen: set = set()
            order = [i for i in order if not ((f := family(state, legal[i])) in seen or seen.add(f))]
        order = order[:width]
        rng = np.random.default_rng(int(u * 2 ** 53))
        futures = rng.integers(1, 7, size=(rollouts, turns, 2))
        finals = np.array([rollout_scores(state, legal[i], greedy, futures) for i in order])
        gain = finals - finals[0]  # paired with greedy's pick
        mean = gain.mean(1)
        se = gain.std(1, ddof=1) / np.sqrt(rollouts)
        best = int(np.argmax(np.where(mean > se, mean, 0)))
        return legal[order[best]]
    return choose


def decision_weights(state: State, dice, greedy: Choose, rollouts: int, seed: int,
                     turns: int = 40) -> list[tuple[int, float]]:
    """Play one greedy game on dice [T, 2]; at each decision with a choice, how much the expected
    final score (greedy rollouts on shared dice) differs between the best and the worst legal
    action. Returns (turn, weight) per decision."""
    rng = np.random.default_rng(seed)
    out = []
    while not state.is_terminal():
        t = state.turn_index()
        if state.is_chance_node():
            state.apply_chance((int(dice[t, 0]), int(dice[t, 1])))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            futures = rng.integers(1, 7, size=(rollouts, turns, 2))
            means = [float(np.mean(rollout_scores(state, a, greedy, futures))) for a in legal]
            out.append((t, max(means) - min(means)))
        state.apply_action(greedy(state, legal, 0.0))
    return out


def ladder(name: str, greedy, value, target=None, family=None) -> Choose:
    """The named policy of a game whose greedy player is `greedy(state, legal, u, target=None)` and
    whose move values are `value(state, action)`: random, greedy, lookahead (trying one action per
    `family`, see `lookahead`) or cover (of `target`)."""
    if name == "random":
        return random_choice
    if name == "greedy":
        return greedy
    if name == "lookahead":
        return lookahead(greedy, lambda state, legal: [value(state, a) for a in legal], family=family)
    return lambda state, legal, u: greedy(state, legal, u, target)
