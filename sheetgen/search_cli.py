"""`sheetgen search GAME`: the command (registered in cli.py), a thin layer over sheetgen.search."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .errors import SheetgenError
from .output import check_folder
from .search import Plan, parse_target, search
from .search_out import fig_text, summary, write_all
from .search_play import backend


def space_text(game: str) -> str:
    import importlib

    from .variant import _base, shipped_values

    _, loaded = _base(game)
    gen = importlib.import_module(loaded.kind.variant)
    shipped = shipped_values(loaded)
    return "\n".join(f"{p.name:<16} {p.low:>3}:{p.high:<3} shipped {shipped[p.name]:<3} {p.help}"
                     for p in gen.SPACE)


def run(game: str, seed: int = 0, plan: Plan = Plan(), mean: str | None = None, spread: str | None = None,
        skill_gap: str | None = None, length: str | None = None, params: list[str] | None = None,
        budget: int | None = None, workers: int = 0, scheduler: str | None = None,
        out: Path | None = None, as_json: bool = False) -> int:
    """Run the search as the command does and write its files; returns the exit status (0: K kept,
    1: fewer, 130: stopped by Ctrl-C). Bad input raises SheetgenError (exit 2)."""
    import importlib
    import json

    from .variant import _base, parse_ranges

    _, loaded = _base(game)
    if length is not None:
        raise SheetgenError(f"--length: {game} always lasts {importlib.import_module(loaded.kind.rules).RULES.turns} "
                            "turns (its rules fix the length), so there is no length to aim at",
                            key="--length", fix="leave out --length for this game")
    targets = [parse_target(n, v) for n, v in (("mean", mean), ("spread", spread), ("skill_gap", skill_gap)) if v]
    space = importlib.import_module(loaded.kind.variant).SPACE
    ranges = parse_ranges(space, params or [], game)
    plan.check()
    plan = plan.within(budget, 2 if skill_gap else 1)
    out = check_folder(out or Path("output/search") / f"{game}-{seed}", "search output")  # before any work
    err = Console(stderr=True)
    back = backend(workers, scheduler, loaded.kind.name)
    t0 = time.perf_counter()
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                      TimeRemainingColumn(), console=err, transient=True,
                      disable=not sys.stderr.isatty()) as bar:
            task = bar.add_task(f"searching {game}", total=None)

            def progress(done: int, total: int, what: str) -> None:
                bar.update(task, completed=done, total=max(total, done) or None, description=what)

            s = search(game, seed, plan, targets, back, ranges, progress)
    finally:
        label = back.label
        back.close()
    seconds = time.perf_counter() - t0
    paths = write_all(s, out)
    sm = summary(s)
    if as_json:
        print(json.dumps({**sm, "seconds": round(seconds, 2), "ran_on": label, "files": [str(p) for p in paths]},
                         indent=1))
    else:
        for n, c in enumerate(s.kept, 1):
            print(f"kept {n}: candidate {c.index} id {c.id}: {fig_text(c.final)} "
                  f"(selection mean {c.fig.mean:.2f}){'' if c.final_loss <= 1 else ' (outside a target)'}")
        shift = ", ".join(f"{k} {v:+.3f}" for k, v in sm["rescore_shift"].items() if v is not None)
        drawn = f"{plan.candidates} candidate{'s' if plan.candidates != 1 else ''}"
        print(f"{len(s.kept)}/{plan.keep} kept from {drawn} in {seconds:.1f} s on {label}: "
              f"{s.played:,} games played; without successive halving {sm['games_without_halving']:,} "
              f"({1 - sm['games_planned'] / sm['games_without_halving']:.0%} saved); re-score shift {shift or 'n/a'}")
        print(f"wrote {len(paths)} files to {out}/ (report.pdf, candidates.csv, search.json"
              f"{', the kept variants' if s.kept else ''})")
    if s.stopped:
        err.print(f"{s.stopped}; wrote what had finished", highlight=False)
        return 130
    return 0 if len(s.kept) == plan.keep else 1
