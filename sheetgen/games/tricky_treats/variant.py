"""Custom Tricky Treats sheets: the same rules, new content from a seed.

Kept: the six children with their numbers and powers, the candy types, the stash points, the
texts. Drawn anew: which candy sits in which box (a Latin square again: each candy once per child
and once per die value), how each child's boxes split between its 2 or 3 power symbols (runs of
2 to 4 neighbouring boxes, so the brackets stay easy to read), which children carry which Boo-nus symbol (two each) and its 3 boxes, the stash
thresholds (within one of the shipped ones), the CAULDRON candies and the PYRAMID levels.
"""

from __future__ import annotations

import copy

import numpy as np

PYRAMIDS = ([3, 2, 1], [2, 2, 1], [3, 2], [4, 2, 1], [3, 3])
SPLITS = ([2, 2, 2], [3, 3], [2, 4], [4, 2])


def _latin(n: int, rng: np.random.Generator) -> np.ndarray:
    """A random Latin square: a cyclic one with rows, columns and symbols shuffled."""
    base = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
    return rng.permutation(n)[base[rng.permutation(n)][:, rng.permutation(n)]]


def generate(content: dict, rng: np.random.Generator, broken: bool = False) -> dict:
    out = copy.deepcopy(content)
    candies = [c["id"] for c in out["candies"]]
    square = _latin(len(candies), rng)
    boonus = [str(s) for s in rng.permutation(["pumpkin", "pumpkin", "cat", "cat", "moon", "moon"])]
    for i, child in enumerate(sorted(out["children"], key=lambda ch: ch["number"])):
        child["boxes"] = [candies[k] for k in square[i]]
        sizes = SPLITS[int(rng.integers(len(SPLITS)))]
        groups, at = [], 1
        for n in sizes:
            groups.append(list(range(at, at + n)))
            at += n
        child["powers"] = [{"boxes": g} for g in groups]
        child["boonus"] = {"symbol": boonus[i], "boxes": sorted(int(v) for v in rng.choice(6, 3, replace=False) + 1)}
    for r in out["stash"]["rewards"]:
        r["needs"] = int(np.clip(r["needs"] + rng.integers(-1, 2), 1, 6))
    out["cauldron"] = [candies[k] for k in rng.permutation(len(candies))]
    out["pyramid"] = list(PYRAMIDS[int(rng.integers(len(PYRAMIDS)))])
    if broken:
        # all six candy rows would need 7 circles (42 candies): no game in 16 turns gets there
        out["stash"]["rewards"][6]["needs"] = 6
    return out
