"""Seeded custom variants of Haunt the Block: the same rules, a different block.

Kept: the path length and the places of the child and starting spaces (so the sheet's geometry
holds), how many spaces each candy has, one start per candy, the children and their symbols, 4
pumpkins and 6 starts. Changed: which candy sits on each space and start, which child stands on
each child space, the three pumpkin conditions other than the Bee's, the Giant's and Turtle's
amounts.

With `params` (values of the parameters in SPACE, as `sheetgen search` draws them) the stash
thresholds, the stars circled at the start (and so the Stars section), the moon powers' uses, the chocolate bar's points and the largest
add/subtract amount change too. The path and its 31 turns stay (the sheet's geometry and the rules
fix them)."""

from __future__ import annotations

import copy

import numpy as np

from ...variant import Param

# conditions a pumpkin other than the Bee may get (the Bee keeps "use the lower die")
POOL = ({"kind": "higher_die"}, {"kind": "plain_die"}, {"kind": "even"}, {"kind": "odd"},
        {"kind": "at_least", "value": 5}, {"kind": "at_most", "value": 4})


def _fill(fixed: list[str | None], bag: list[str], rng: np.random.Generator, gap: int):
    """Fill the None slots of a ring of candy spaces from `bag` so that no candy repeats among
    `gap` neighbours; None when a random attempt runs into a dead end."""
    left = {k: bag.count(k) for k in sorted(set(bag))}
    seq = list(fixed)
    n = len(seq)
    for i in range(n):
        if seq[i] is not None:
            continue
        near = {seq[(i + j) % n] for j in range(-gap + 1, gap) if j}
        opts = [k for k in left if left[k] and k not in near]
        if not opts:
            return None
        k = opts[int(rng.integers(len(opts)))]
        left[k] -= 1
        seq[i] = k
    ok = all(seq[i] != seq[(i + j) % n] for i in range(n) for j in range(1, gap))
    return seq if ok else None


def _spread(fixed: list[str | None], bag: list[str], rng: np.random.Generator) -> list[str]:
    """No candy twice among three neighbours if possible, else two, else any order."""
    for gap in (3, 2):
        for _ in range(300):
            if (seq := _fill(fixed, bag, rng, gap)) is not None:
                return seq
    return _fill(fixed, bag, rng, 1)


SPACE = (
    Param("threshold_shift", -2, 0, "candy rows fewer each stash star needs (kept at least 1)"),
    Param("start_stars", 0, 2, "stars circled at the start"),
    Param("uses", 1, 3, "uses of each moon power"),
    Param("bar_points", 3, 8, "points per chocolate bar"),
    Param("amount_max", 1, 3, "largest amount of the add and subtract powers (each drawn from 1 to it)"),
)


def measure(content: dict) -> dict[str, int]:
    """The SPACE parameters' values on a sheet, from its model's content (`model_dump(mode="json")`;
    a shift is 0: the sheet against itself)."""
    amounts = [ch["amount"] for ch in content["children"] if ch.get("power") in ("add", "subtract")]
    return {"threshold_shift": 0, "start_stars": content["start_stars"], "uses": content["uses"],
            "bar_points": content["bar_points"], "amount_max": max(amounts, default=1)}


def turn(new: dict, rng: np.random.Generator, p: dict[str, int]) -> dict:
    """Apply the SPACE parameters `p` to a shuffled block (changed in place and returned)."""
    n = len(new["candies"])
    # a column without a star (threshold n + 1) keeps none
    new["thresholds"] = [t if t > n else int(np.clip(t + p["threshold_shift"], 1, n)) for t in new["thresholds"]]
    new["start_stars"] = p["start_stars"]  # the Stars section: one circle per star that can be earned
    new["stars"] = p["start_stars"] + sum(t <= n for t in new["thresholds"]) + sum(
        ch.get("power") == "star" for ch in new["children"])
    new["uses"], new["bar_points"] = p["uses"], p["bar_points"]
    for ch in new["children"]:
        if ch.get("power") in ("add", "subtract"):
            ch["amount"] = int(rng.integers(1, p["amount_max"] + 1))
    return new


def generate(content: dict, rng: np.random.Generator, broken: bool = False,
             params: dict[str, int] | None = None) -> dict:
    new = copy.deepcopy(content)
    path = new["path"]
    cand = [i for i, sp in enumerate(path) if "candy" in sp]
    kids = [i for i, sp in enumerate(path) if "child" in sp]
    starts = [i for i in cand if path[i].get("start")]
    start_candies = [path[i]["candy"] for i in starts]
    start_candies = [start_candies[k] for k in rng.permutation(len(starts))]
    bag = [path[i]["candy"] for i in cand]
    for k in start_candies:
        bag.remove(k)
    given = dict(zip(starts, start_candies))
    for i, candy in zip(cand, _spread([given.get(i) for i in cand], bag, rng)):
        path[i]["candy"] = candy
    names = [path[i]["child"] for i in kids]
    for i, child in zip(kids, (names[k] for k in rng.permutation(len(names)))):
        path[i]["child"] = child
    pool = [POOL[k] for k in rng.permutation(len(POOL))]
    for ch in new["children"]:
        if ch["symbol"] == "pumpkin" and ch.get("condition", {}).get("kind") != "lower_die":
            ch["condition"] = dict(pool.pop())
        if ch.get("power") in ("add", "subtract"):
            ch["amount"] = int(rng.integers(1, 4))
    if params is not None:
        turn(new, rng, params)
    if broken:
        # the last stash column then needs every row full: more candies than 31 turns can give
        new["thresholds"][-1] = len(new["candies"])
    return new
