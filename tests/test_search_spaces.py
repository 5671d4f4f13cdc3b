"""The variant parameter spaces: every draw loads through the layout model, the drawn values are
the ones on the sheet, and both rules engines still agree on the sheets they make."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import yaml

from sheetgen.kinds import kind
from sheetgen.variant import GAMES, draw_params

from conftest import LAYOUTS, engines_agree


def _game(game):
    k = kind(game)
    gen = importlib.import_module(k.variant)
    base = yaml.safe_load((LAYOUTS / f"{game}.yaml").read_text())
    return k, gen, base


def _draw(gen, base, seed, ranges=None):
    rng = np.random.default_rng(seed)
    p = draw_params(gen.SPACE, rng, ranges)
    return p, gen.generate(base["content"], rng, False, p)


@pytest.mark.parametrize("game", GAMES)
def test_every_draw_loads_and_shows_its_values(game):
    k, gen, base = _game(game)
    seen = {p.name: set() for p in gen.SPACE}
    for seed in range(120):
        p, content = _draw(gen, base, seed)
        doc = k.model.model_validate({**base, "content": content})  # the model's invariants hold
        c = doc.content
        for name, v in p.items():
            seen[name].add(v)
        if game == "tricky-treats":
            assert len(c.cauldron) == p["cauldron"] and sum(c.pyramid) == p["pyramid_boxes"]
            assert list(c.pyramid) == sorted(c.pyramid, reverse=True) and len(c.pyramid) <= p["pyramid_levels"]
            assert len(c.boonus_actions) == p["boonus_actions"] and c.points_bar == p["points_bar"]
            for ch in c.children:
                assert sum(len(g.boxes) for g in ch.powers) == p["power_boxes"]
                assert 2 <= len(ch.powers) <= p["power_symbols"] and len(ch.boonus.boxes) == p["boonus_boxes"]
        elif game == "boogaloo":
            assert len(c.boonus) == p["boonus_length"] and c.boonus[0] == "star"
            assert c.boonus.count("star") == min(p["boonus_stars"], p["boonus_length"])
            assert len(c.stash.points) == p["stash_columns"] and c.bar_points == p["bar_points"]
        else:
            assert c.uses == p["uses"] and c.start_stars == p["start_stars"]
            assert c.stars == c.start_stars + len(c.points) + sum(ch.power == "star" for ch in c.children)
            assert all(ch.amount <= p["amount_max"] for ch in c.children)
    for prm in gen.SPACE:  # the whole declared range is drawn, nothing outside it
        assert seen[prm.name] == set(range(prm.low, prm.high + 1)), prm.name
    assert yaml.safe_load((LAYOUTS / f"{game}.yaml").read_text()) == base  # the shipped data untouched


@pytest.mark.parametrize("game", GAMES)
def test_both_engines_agree_on_drawn_sheets(game):
    k, gen, base = _game(game)
    rules = importlib.import_module(k.rules).RULES
    for seed in (1,):
        _, content = _draw(gen, base, seed)
        doc = k.model.model_validate({**base, "content": content})
        sheets = [d for _, d in rules.sheets(doc)][:1] if rules.sheets else [doc]
        for one in sheets:
            for policy in ("random", "greedy", "cover"):
                engines_agree(rules, one, policy, 8, seed, 3)


def test_narrowed_ranges_are_kept():
    _, gen, base = _game("tricky-treats")
    for seed in range(20):
        p, content = _draw(gen, base, seed, {"cauldron": (12, 12), "stash_shift": (-1, 0)})
        assert p["cauldron"] == 12 and len(content["cauldron"]) == 12 and -1 <= p["stash_shift"] <= 0
