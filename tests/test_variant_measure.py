"""Each game's `measure` reads its SPACE parameters off a sheet: what `turn` writes, it reads back,
and the shipped sheet's values (the search's "shipped" candidate) lie in each parameter's range."""

from __future__ import annotations

import copy
import importlib

import numpy as np
import pytest

from sheetgen.kinds import load
from sheetgen.variant import GAMES, draw_params

AT_MOST = {"power_symbols", "pyramid_levels", "amount_max"}  # turn draws up to the value
SHIFTS = {"stash_shift", "threshold_shift", "needs_shift"}  # relative to the sheet they turn


def _game(name: str):
    loaded = load(name)
    return loaded, importlib.import_module(loaded.kind.variant)


@pytest.mark.parametrize("name", GAMES)
def test_the_shipped_values_are_read_from_the_layout_and_in_range(name):
    loaded, gen = _game(name)
    shipped = gen.measure(loaded.doc.model_dump(mode="json")["content"])
    assert set(shipped) == {p.name for p in gen.SPACE}
    for p in gen.SPACE:
        assert p.low <= shipped[p.name] <= p.high, p.name
    assert all(shipped[s] == 0 for s in SHIFTS & set(shipped))


@pytest.mark.parametrize("name", GAMES)
def test_measure_reads_back_what_turn_writes(name):
    loaded, gen = _game(name)
    model = loaded.kind.model
    rng = np.random.default_rng(7)
    for _ in range(25):
        params = draw_params(gen.SPACE, rng)
        data = loaded.doc.model_dump(mode="json")
        data["content"] = gen.turn(copy.deepcopy(data["content"]), rng, params)
        got = gen.measure(model.model_validate(data).model_dump(mode="json")["content"])
        for p in gen.SPACE:
            if p.name in SHIFTS:
                continue
            if p.name in AT_MOST:
                assert got[p.name] <= params[p.name], p.name
            elif name == "boogaloo" and p.name == "boonus_stars":
                assert got[p.name] == min(params[p.name], params["boonus_length"])
            else:
                assert got[p.name] == params[p.name], p.name
