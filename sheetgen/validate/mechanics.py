"""The mechanic check: each power, reward and section of a sheet switched off in turn, played on
the same dice as the sheet itself (paired), per policy, with the fast engine.

A game lists its switchable mechanics in `sheetgen/games/<game>/mechanics.py` as `mechanics(doc)`:
named transforms of a one-sheet layout document (a reward replaced by nothing, a power's links
removed, a section emptied), so the engines need no flags. The check plays the sheet and each
transformed sheet on the same inputs and reports, per policy, the change in mean score and in
reach (the share of the rest of the sheet a game marks: the element ids both sheets have, less
the mechanic's own) with 95 % bounds on the paired differences. A mechanic whose removal moves neither, for any policy,
beyond its bound and by at least 1 % of the mean score or 0.5 percentage points of reach, is dead
weight.

A transform should give a layout the model accepts: the models have "off" values for this (a
Tricky Treats child with no power symbols, a reward of kind none; a Haunt the Block power none, a
star threshold of one more than the candy rows; a Boogaloo Boo-nus slot none). One the model
refuses (e.g. a Boogaloo star need above the number of candy rows) is played when the game's
engines read the document as it is (Boogaloo's do: such a star is never earned), and said so
("refused"); when an engine re-validates the layout (Tricky Treats', Haunt the Block's fast
engines), the mechanic is listed as not played: its model needs an "off" value.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from pydantic import ValidationError

from .engine import POLICIES, Rules
from .report import bound95

GAMES = 4000  # games per policy for the sheet and for each mechanic switched off
# a change counts when it is beyond its 95 % bound AND at least this big (paired dice find even
# a tenth of a point "significant"; a designer calls that nothing)
SCORE_SHARE = 0.01  # of the policy's mean score
REACH_PP = 0.5  # percentage points of the sheet's elements


@dataclass(frozen=True)
class Mechanic:
    name: str  # as a designer calls it: "stash star 3", "Boo-nus bars"
    kind: str  # "power", "reward", "penalty" or "section"
    off: Callable  # off(doc) -> the same one-sheet layout document without the mechanic
    how: str  # what the transform does, in words
    elements: tuple[str, ...] = field(default_factory=tuple)  # ids no game can reach once it is off


def edit(doc, **content):
    """The layout document with these content fields replaced (not validated: see `accepted`)."""
    return doc.model_copy(update={"content": doc.content.model_copy(update=content)})


def accepted(doc) -> str | None:
    """None if the layout model accepts the document as a printable layout, else its first error
    (layout.validate's message: key and what is wrong)."""
    from ..errors import SheetgenError
    from ..layout import validate

    try:
        validate(type(doc), doc.model_dump(), {}, "")
    except SheetgenError as exc:
        return f"{exc.key}: {exc.message}" if exc.key else exc.message
    return None


def mechanics_of(rules_module: str) -> Callable | None:
    """The game's `mechanics(doc)`, from the rules module itself or its sibling `mechanics`."""
    mod = importlib.import_module(rules_module)
    if hasattr(mod, "mechanics"):
        return mod.mechanics
    pkg, _, _ = rules_module.rpartition(".")
    try:
        return importlib.import_module(f"{pkg}.mechanics").mechanics if pkg else None
    except ModuleNotFoundError as exc:
        if exc.name != f"{pkg}.mechanics":
            raise
        return None


def _play(rules: Rules, doc, inputs, policy: str, ids: list[str]):
    """Scores, and which of `ids` each game reached (an id the sheet lacks: never)."""
    dice, u, targets = inputs
    where = {e: i for i, e in enumerate(rules.element_ids(doc))}
    if policy == "cover":  # aim at the same element, by id (one the sheet lacks: no target)
        targets = np.array([where.get(ids[t], -1) if t >= 0 else -1 for t in targets], np.int64)
    b = rules.fast(doc, dice, u, policy, targets)
    reached = np.zeros((len(b.score), len(ids)), bool)
    for j, e in enumerate(ids):
        if e in where:
            reached[:, j] = b.reached[:, where[e]]
    return b.score.astype(float), reached


def check(rules: Rules, doc, found: list[Mechanic], seed: int = 0, games: int = GAMES,
          policies: tuple[str, ...] = POLICIES) -> list[dict]:
    """One row per mechanic: per policy the mean change in score and in reach (percentage points)
    with 95 % bounds, whether the model accepts the transformed layout, and the dead-weight flag."""
    ids = rules.element_ids(doc)
    inputs = {p: rules.inputs(0, games, seed, p, len(ids)) for p in policies}
    base = {p: _play(rules, doc, inputs[p], p, ids) for p in policies}
    rows = []
    for m in found:
        off = m.off(doc)
        refused = accepted(off)
        row = {"name": m.name, "kind": m.kind, "how": m.how, "games": games,
               "model": "accepted" if refused is None else "refused", "refused": refused}
        try:
            played = {p: _play(rules, off, inputs[p], p, ids) for p in policies}
            # reach of the rest of the sheet: the ids both sheets have, less the mechanic's own
            have = set(rules.element_ids(off))
            rest = np.array([e in have and e not in m.elements for e in ids])
        except ValidationError:  # the engine re-validates the layout: the model needs an "off" value
            rows.append({**row, "played": False, "policies": {}, "dead": None, "still_reached": []})
            continue
        per = {}
        leaks = set()
        for p in policies:
            (s0, r0), (s1, r1) = base[p], played[p]
            ds = s1 - s0
            dr = 100 * (r1[:, rest].mean(1) - r0[:, rest].mean(1)) if rest.any() else np.zeros(games)
            per[p] = {"score": round(float(ds.mean()), 4), "score95": round(bound95(ds), 4),
                      "reach": round(float(dr.mean()), 4), "reach95": round(bound95(dr), 4)}
            leaks |= {e for j, e in enumerate(ids) if e in m.elements and r1[:, j].any()}
        moved = any((abs(v["score"]) > max(v["score95"], SCORE_SHARE * abs(base[p][0].mean())))
                    or (abs(v["reach"]) > max(v["reach95"], REACH_PP)) for p, v in per.items())
        rows.append({**row, "played": True, "policies": per, "dead": not moved,
                     "still_reached": sorted(leaks)})  # stays empty unless the transform is wrong
    return rows


def sheet_mechanics(rules_module: str, rules: Rules, doc, seed: int = 0, games: int = GAMES,
                    policies: tuple[str, ...] = POLICIES) -> list[dict] | None:
    """The mechanic check of one sheet, or None when its game lists no mechanics."""
    listing = mechanics_of(rules_module)
    return check(rules, doc, listing(doc), seed, games, policies) if listing else None
