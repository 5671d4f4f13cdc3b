"""`sheetgen validate` refuses the options that do not apply to what it validates, in one line:
the game mat's (players, race rules) on a roll-and-write sheet, a sheet's (engine, sheet, paper)
on the mat. Nothing is played (the refusal comes first)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("layout, flag, value, applies", [
    ("tricky-treats", "--players", "4", "the game mat"),
    ("boogaloo", "--race-rules", "classic", "the game mat"),
    ("run-for-your-life-mat", "--engine", "reference", "roll-and-write sheets"),
    ("run-for-your-life-mat", "--sheet", "2", "roll-and-write sheets"),
    ("run-for-your-life-mat", "--paper", "letter", "roll-and-write sheets"),
])
def test_an_option_for_the_other_kind_of_game_is_refused(main, layout, flag, value, applies):
    res = main("validate", layout, flag, value, "--games", "10")
    assert res.returncode == 2 and res.stdout == ""
    line = res.stderr.strip()
    assert "\n" not in line and f"{flag} does not apply to validating '{layout}'" in line
    assert f"drop {flag}; it applies to {applies}" in line
