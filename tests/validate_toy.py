"""A tiny roll-and-write game for testing the validator framework (not a real game).

Each sheet is a row of boxes, each showing a value. A turn rolls two dice: mark one unmarked
box showing either die. Doubles are wild: any unmarked box showing 1 to 6 (a box showing 7 can
never be marked). With no box to mark, the player crosses a penalty box if the sheet has
`penalty: true`; otherwise the roll leaves them stuck. Score: the values marked, minus 2 per
penalty. `unused_powers` counts doubles whose wild was not needed (the box matched the die anyway).
With `end_when_full: true` the game stops as soon as every box is marked.

Layouts: `kind: toy-dice`, `content: {sheets: [[1, 2, 3], ...], penalty: true, end_when_full: false}`.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from sheetgen.kinds import Kind, Options
from sheetgen.model import LayoutFile, Strict
from sheetgen.paper import page_size
from sheetgen.scene import Box, Page, Text
from sheetgen.validate.engine import Batch, Rules

TURNS = 6


class ToyContent(Strict):
    sheets: list[list[int]] = Field(min_length=1)
    penalty: bool = True
    end_when_full: bool = False


class ToySheet(LayoutFile):
    content: ToyContent


def pages(doc: ToySheet, opts: Options) -> list[Page]:
    w, h = page_size(doc.layout.paper, doc.layout.orientation)
    m = doc.layout.margin
    out = []
    for n, values in enumerate(doc.content.sheets, 1):
        if opts.sheet and n != opts.sheet:
            continue
        page = Page(w, h, label=f"Sheet {n}")
        page.add(Text(m, m + 8, f"{doc.title}, sheet {n}", 14, bold=True, id="title"))
        for i, v in enumerate(values):
            x = m + i * 22
            page.add(Box(x, m + 20, 18, 18, id=f"box.{i + 1}", writable=True),
                     Text(x + 9, m + 32, str(v), 12, align="center", id=f"box.{i + 1}.value"))
        out.append(page)
    return out


def element_ids(doc: ToySheet) -> list[str]:
    return [f"box.{i + 1}" for i in range(len(doc.content.sheets[0]))]


def sheets(doc: ToySheet):
    many = len(doc.content.sheets) > 1
    return [(f"row {n}" if many else "", doc.model_copy(update={"content": doc.content.model_copy(update={"sheets": [s]})}))
            for n, s in enumerate(doc.content.sheets, 1)]


def reference(doc, dice, u, policy, targets) -> Batch:
    values = doc.content.sheets[0]
    n_el = len(values)
    G = len(dice)
    score, pen, unused, stuck, turns = (np.zeros(G, np.int64) for _ in range(5))
    reached = np.zeros((G, n_el), bool)
    for g in range(G):
        marked = [False] * n_el
        for t in range(TURNS):
            a, b = int(dice[g, t, 0]), int(dice[g, t, 1])
            turns[g] += 1
            legal = [i for i in range(n_el) if not marked[i]
                     and (values[i] in (a, b) or (a == b and values[i] <= 6))]
            if not legal:
                if doc.content.penalty:
                    pen[g] += 1
                else:
                    stuck[g] += 1
            else:
                if policy == "random":
                    pick = legal[int(u[g, t, 0] * len(legal))]
                elif policy == "cover" and targets[g] in legal:
                    pick = int(targets[g])
                else:  # greedy: the highest value, the leftmost on ties
                    pick = max(legal, key=lambda i: (values[i], -i))
                marked[pick] = True
                if a == b and values[pick] == a:
                    unused[g] += 1
            if doc.content.end_when_full and all(marked):
                break
        reached[g] = marked
        score[g] = sum(v for v, m in zip(values, marked) if m) - 2 * pen[g]
    state = np.concatenate([reached.astype(np.int64), score[:, None]], axis=1)
    return Batch(score, reached, pen, unused, stuck, turns, state)


def fast(doc, dice, u, policy, targets) -> Batch:
    values = np.array(doc.content.sheets[0], np.int64)
    n_el = len(values)
    G = len(dice)
    marked = np.zeros((G, n_el), bool)
    pen, unused, stuck, turns = (np.zeros(G, np.int64) for _ in range(4))
    live = np.ones(G, bool)
    rows = np.arange(G)
    greedy_key = values * (n_el + 1) - np.arange(n_el)
    for t in range(TURNS):
        a, b = dice[:, t, 0].astype(np.int64), dice[:, t, 1].astype(np.int64)
        dbl = a == b
        turns += live
        legal = ~marked & ((values == a[:, None]) | (values == b[:, None])
                           | (dbl[:, None] & (values <= 6)))
        legal &= live[:, None]
        n = legal.sum(1)
        none = live & (n == 0)
        if doc.content.penalty:
            pen += none
        else:
            stuck += none
        if policy == "random":
            k = (u[:, t, 0] * n).astype(np.int64)
            pick = (np.cumsum(legal, 1) > k[:, None]).argmax(1)
        else:
            pick = np.where(legal, greedy_key, -(10 ** 9)).argmax(1)
            if policy == "cover":
                aim = legal[rows, np.clip(targets, 0, n_el - 1)] & (targets >= 0)
                pick = np.where(aim, targets, pick)
        moved = n > 0
        marked[rows[moved], pick[moved]] = True
        unused += moved & dbl & (values[pick] == a)
        if doc.content.end_when_full:
            live &= ~marked.all(1)
    score = (marked * values).sum(1) - 2 * pen
    state = np.concatenate([marked.astype(np.int64), score[:, None]], axis=1)
    return Batch(score, marked, pen, unused, stuck, turns, state)


RULES = Rules(game="toy-dice", turns=TURNS, choices_per_turn=1, element_ids=element_ids,
              reference=reference, fast=fast, sheets=sheets)
KIND = Kind("toy-dice", ToySheet, pages, product="tests", rules="validate_toy")
