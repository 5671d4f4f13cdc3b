"""Custom Boogaloo sheets: the same children and rules, with boxes dealt afresh from a seed.

Invariants kept (the model checks them too): every sheet keeps its group of children and its grid;
every child has 3 boxes with 3 different die values and 3 different candies; on each sheet every
candy is in exactly as many boxes as its stash row has circles (so every circle can be reached) and
every die value is on the same number of boxes; each (die, candy) pair appears at most once a sheet.

With `params` (values of the parameters in SPACE, as `sheetgen search` draws them) the Boo-nus
track's length and stars, the stash's columns and star needs and the chocolate bar's points change
too. The grid, the children and the 13 turns stay (the rules fix the turns).
"""

from __future__ import annotations

import copy

import numpy as np

from ...variant import Param

DICE = 6
SPACE = (
    Param("boonus_length", 3, 7, "rewards on the Boo-nus track (7: about what a strong game reaches)"),
    Param("boonus_stars", 1, 6, "of them stars (the rest chocolate bars; a star comes first)"),
    Param("stash_columns", 3, 6, "stash columns (points 1, 3, 6, 10, 15, 21 from the left)"),
    Param("needs_shift", -2, 0, "candy rows fewer each stash star needs (kept at least 1)"),
    Param("bar_points", 3, 8, "points per chocolate bar"),
)


def measure(content: dict) -> dict[str, int]:
    """The SPACE parameters' values on a sheet, from its model's content (`model_dump(mode="json")`;
    a shift is 0: the sheet against itself)."""
    return {"boonus_length": len(content["boonus"]), "boonus_stars": content["boonus"].count("star"),
            "stash_columns": len(content["stash"]["points"]), "needs_shift": 0,
            "bar_points": content["bar_points"]}


def turn(out: dict, rng: np.random.Generator, p: dict[str, int]) -> dict:
    """Apply the SPACE parameters `p` to a dealt layout (changed in place and returned)."""
    n, stars = p["boonus_length"], min(p["boonus_stars"], p["boonus_length"])
    where = {0} | set((1 + rng.permutation(n - 1))[:stars - 1].tolist())
    out["boonus"] = ["star" if k in where else "bar" for k in range(n)]
    cols = p["stash_columns"]
    needs, points = out["stash"]["needs"], out["stash"]["points"]  # the shipped sheet's columns
    out["stash"] = {"points": list(points[:cols]),
                    "needs": [int(np.clip(v + p["needs_shift"], 1, len(out["candies"]))) for v in needs[:cols]]}
    out["bar_points"] = p["bar_points"]
    return out


def deal(rng: np.random.Generator, candies: list[str], n_children: int) -> list[list[dict]]:
    """Boxes for n_children children, 3 each. The boxes come in blocks of len(candies) (one of each
    candy), and block j gives candy c the die sigma((tau(c) + j) mod 6): inside a block the dice
    differ, and across blocks a candy never meets the same die twice. A child's boxes go left to
    right by die value."""
    k = len(candies)
    if k != DICE or (3 * n_children) % k:
        raise ValueError("dealing needs 6 candies and a number of boxes that is a multiple of 6")
    sigma = rng.permutation(DICE) + 1
    tau = rng.permutation(DICE)
    boxes = []
    for j in range(3 * n_children // k):
        for c in rng.permutation(k):
            boxes.append({"die": int(sigma[(tau[c] + j) % DICE]), "candy": candies[c]})
    return [sorted(boxes[3 * i:3 * i + 3], key=lambda b: b["die"]) for i in range(n_children)]


def generate(content: dict, rng: np.random.Generator, broken: bool = False,
             params: dict[str, int] | None = None) -> dict:
    """A new content mapping: each sheet's children shuffled across its grid and its boxes dealt
    again. broken=True makes the Boo-nus track one reward per child long: the last rewards need more
    haunted children than 13 turns and every possible star can give, so no game reaches them."""
    out = copy.deepcopy(content)
    candies = [c["id"] for c in out["candies"]]
    for sheet in out["sheets"]:
        kids = sheet["children"]
        order = rng.permutation(len(kids))
        dealt = deal(rng, candies, len(kids))
        sheet["children"] = [{**kids[i], "boxes": boxes} for i, boxes in zip(order, dealt)]
    if params is not None:
        turn(out, rng, params)
    if broken:
        n = len(out["sheets"][0]["children"])
        out["boonus"] = [out["boonus"][i % len(out["boonus"])] for i in range(n)]
    return out
