"""Custom Tricky Treats sheets: the same rules, new content from a seed.

Kept: the six children with their numbers and powers, the candy types, the stash points, the
texts. Drawn anew: which candy sits in which box (a Latin square again: each candy once per child
and once per die value), how each child's boxes split between its 2 or 3 power symbols (runs of
2 to 4 neighbouring boxes, so the brackets stay easy to read), which children carry which Boo-nus symbol (two each) and its 3 boxes, the stash
thresholds (within one of the shipped ones), the CAULDRON candies and the PYRAMID levels.

With `params` (values of the parameters in SPACE, as `sheetgen search` draws them), the shuffled
sheet is then turned further: stash thresholds shifted, fewer boxes that unlock powers, the power
groups' number and sizes, the CAULDRON's and PYRAMID's sizes, the Boo-nus links and actions, and
the points of a chocolate bar and of a scared child. The turn count stays 16 (the rules fix it).
"""

from __future__ import annotations

import copy

import numpy as np

from ...variant import Param
from .model import ACTIONS, MAX_CAULDRON, MAX_LEVELS

PYRAMIDS = ([3, 2, 1], [2, 2, 1], [3, 2], [4, 2, 1], [3, 3])
SPLITS = ([2, 2, 2], [3, 3], [2, 4], [4, 2])


def _latin(n: int, rng: np.random.Generator) -> np.ndarray:
    """A random Latin square: a cyclic one with rows, columns and symbols shuffled."""
    base = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
    return rng.permutation(n)[base[rng.permutation(n)][:, rng.permutation(n)]]


SPACE = (
    Param("stash_shift", -2, 1, "circles more (or fewer) every stash reward needs, kept in 1-6"),
    Param("power_boxes", 4, 6, "boxes of each child that unlock a power symbol"),
    Param("power_symbols", 2, 3, "most power symbols a child carries (each gets 2 to this many)"),
    Param("cauldron", 3, MAX_CAULDRON, "CAULDRON boxes"),
    Param("pyramid_boxes", 3, 6, "PYRAMID boxes in all (more are rarely all reached)"),
    Param("pyramid_levels", 1, MAX_LEVELS, "PYRAMID levels (at most one per box; lower levels no smaller)"),
    Param("boonus_boxes", 2, 3, "boxes linked to each child's Boo-nus symbol (4: bars rarely all reached)"),
    Param("boonus_actions", 1, len(ACTIONS), "actions a full Boo-nus row offers"),
    Param("points_bar", 3, 8, "points per chocolate bar"),
    Param("points_scared", 3, 8, "points lost per scared child"),
)


def measure(content: dict) -> dict[str, int]:
    """The SPACE parameters' values on a sheet, from its model's content (`model_dump(mode="json")`;
    a shift is 0: the sheet against itself)."""
    children = content["children"]
    return {"stash_shift": 0,
            "power_boxes": max(sum(len(g["boxes"]) for g in ch["powers"]) for ch in children),
            "power_symbols": max(len(ch["powers"]) for ch in children),
            "cauldron": len(content["cauldron"]), "pyramid_boxes": sum(content["pyramid"]),
            "pyramid_levels": len(content["pyramid"]),
            "boonus_boxes": max(len(ch["boonus"]["boxes"]) for ch in children),
            "boonus_actions": len(content["boonus_actions"]),
            "points_bar": content["points_bar"], "points_scared": content["points_scared"]}


def _groups(total: int, most: int, rng: np.random.Generator) -> list[int]:
    """Sizes of 2 to `most` power groups adding up to `total`, each of 1 to 4 boxes."""
    n = int(rng.integers(2, most + 1))
    while True:
        cuts = np.sort(rng.choice(np.arange(1, total), n - 1, replace=False))
        sizes = np.diff(np.concatenate(([0], cuts, [total])))
        if sizes.max() <= 4:
            return [int(v) for v in sizes]


def turn(out: dict, rng: np.random.Generator, p: dict[str, int]) -> dict:
    """Apply the SPACE parameters `p` to a shuffled sheet (changed in place and returned)."""
    candies = [c["id"] for c in out["candies"]]
    for r in out["stash"]["rewards"]:
        if r["kind"] != "none":  # a reward switched off stays off
            r["needs"] = int(np.clip(r["needs"] + p["stash_shift"], 1, 6))
    for child in sorted(out["children"], key=lambda ch: ch["number"]):
        at = 1 + int(rng.integers(0, 6 - p["power_boxes"] + 1))
        groups = []
        for n in _groups(p["power_boxes"], p["power_symbols"], rng):
            groups.append({"boxes": list(range(at, at + n))})
            at += n
        child["powers"] = groups
        child["boonus"]["boxes"] = sorted(int(v) for v in rng.choice(6, p["boonus_boxes"], replace=False) + 1)
    out["cauldron"] = [candies[k % len(candies)] for k in rng.permutation(p["cauldron"])]
    levels = np.ones(min(p["pyramid_levels"], p["pyramid_boxes"]), np.int64)
    np.add.at(levels, rng.integers(0, len(levels), p["pyramid_boxes"] - len(levels)), 1)
    out["pyramid"] = sorted(levels.tolist(), reverse=True)
    keep = set(rng.permutation(len(ACTIONS))[:p["boonus_actions"]].tolist())
    out["boonus_actions"] = [a for i, a in enumerate(ACTIONS) if i in keep]
    out["points_bar"], out["points_scared"] = p["points_bar"], p["points_scared"]
    return out


def generate(content: dict, rng: np.random.Generator, broken: bool = False,
             params: dict[str, int] | None = None) -> dict:
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
        shift = int(rng.integers(-1, 2))  # drawn for every column, so the dice stay as they were
        if r["kind"] != "none":
            r["needs"] = int(np.clip(r["needs"] + shift, 1, 6))
    out["cauldron"] = [candies[k] for k in rng.permutation(len(candies))]
    out["pyramid"] = list(PYRAMIDS[int(rng.integers(len(PYRAMIDS)))])
    if params is not None:
        turn(out, rng, params)
    if broken:
        # all six candy rows would need 7 circles (42 candies): no game in 16 turns gets there
        out["stash"]["rewards"][6]["needs"] = 6
    return out
