"""The contract between the validator and each game's rules engines.

A game's `rules.py` exposes `RULES = Rules(...)`. Both of its engines take the same inputs and
return a `Batch`; tests feed both the same inputs and require identical batches.

Inputs, for G games:
- `dice`: int8 [G, T, 2], the two dice of each turn (T = the game's turn count);
- `u`: float64 [G, T, K] uniforms in [0, 1): the k-th decision of turn t under the "random"
  policy picks legal action number floor(u * n_legal) in the engine's canonical order (K =
  `Rules.choices_per_turn`; a turn needing more decisions reuses slots modulo K);
- `policy`: "random", "greedy" or "cover" (and "lookahead", reference engine only);
- `targets`: int [G], for "cover": the index (into `element_ids(doc)`) of the element that game
  aims at; -1 elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

import numpy as np

POLICIES = ("random", "greedy", "cover")  # what `--policy all` and the variant gate play
LADDER = ("random", "greedy", "lookahead", "cover")  # weakest to strongest, then cover
SLOW = ("lookahead",)  # policies only the reference engine plays (rollouts from any state)


@dataclass
class Batch:
    """Results of G games. `reached[g, e]` is True when game g marked element e."""

    score: np.ndarray  # int64 [G]
    reached: np.ndarray  # bool [G, E]
    # int64 [G]: penalties the rules name (Haunt the Block), or turns lost because no box could take
    # the roll (Tricky Treats, Boogaloo: the rulebooks name no penalty; our reading is a lost turn)
    penalties: np.ndarray
    unused_powers: np.ndarray  # int64 [G]: powers or stars earned but never used
    stuck: np.ndarray  # int64 [G]: rolls that left no legal move where the rules name no penalty
    turns: np.ndarray  # int64 [G]: turns played before the game ended
    state: np.ndarray  # integer [G, S]: the end state, flattened in a fixed order (for comparisons)

    def __len__(self) -> int:
        return len(self.score)

    def same_as(self, other: "Batch") -> bool:
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    @staticmethod
    def concat(parts: list["Batch"]) -> "Batch":
        return Batch(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Batch)))


Engine = Callable[..., Batch]  # engine(doc, dice, u, policy, targets) -> Batch


@dataclass(frozen=True)
class Rules:
    game: str  # e.g. "tricky-treats"
    turns: int  # turns in a game (16, 31, 13)
    choices_per_turn: int  # K
    element_ids: Callable  # element_ids(doc) -> list[str], ids as drawn in the scene
    reference: Engine  # readable, one game at a time, clause by clause
    fast: Engine  # the same games, fast: numpy across games, or compiled (Tricky Treats)
    sheets: Callable | None = None  # sheets(doc) -> [(label, doc with one sheet)] for multi-sheet layouts
    new_state: Callable | None = None  # new_state(doc) -> a State at the start (the driver's protocol)
    policy: Callable | None = None  # policy(name, doc) -> choose(state, legal, u), for the driver

    def inputs(self, batch: int, games: int, seed: int, policy: str, n_elements: int):
        """Seeded inputs for batch number `batch` of `games` games. Batches have a fixed size
        (BATCH) so the same seed gives the same games however many workers share them."""
        rng = np.random.default_rng([seed, batch])
        dice = rng.integers(1, 7, size=(games, self.turns, 2), dtype=np.int8)
        u = rng.random((games, self.turns, self.choices_per_turn))
        idx = batch * BATCH + np.arange(games)
        targets = idx % n_elements if policy == "cover" and n_elements else np.full(games, -1)
        return dice, u, targets.astype(np.int64)


BATCH = 8192
