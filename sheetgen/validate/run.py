"""Playing a sheet many times: seeded fixed-size batches, run in worker processes, then summed.

Games are cut into batches of `engine.BATCH` (the last one smaller). Batch b always plays the
same dice (`Rules.inputs` seeds it with [seed, b]) and batch results are summed in batch order,
so the same seed gives the same report whatever the number of workers.
"""

from __future__ import annotations

import importlib
import time
from concurrent.futures import as_completed
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import pools
from ..errors import SheetgenError
from ..kinds import KINDS, Loaded, kind
from .engine import BATCH, LADDER, POLICIES, SLOW, Batch, Rules
from .report import Report, SheetReport, Tally, groups

Progress = Callable[[int, int], None]  # progress(games done, games in all)


def rules_of(loaded: Loaded) -> Rules:
    """The rules engine of a layout's kind; a layout without one is bad input."""
    if not loaded.kind.rules:
        with_rules = sorted(n for n in KINDS if kind(n).rules)
        raise SheetgenError(f"layout '{loaded.name}' is a {loaded.kind.name}, which has no rules to play",
                            fix="validate a roll-and-write sheet"
                                + (f" (kinds with rules: {', '.join(with_rules)})" if with_rules else ""))
    try:
        return importlib.import_module(loaded.kind.rules).RULES
    except ModuleNotFoundError as exc:
        if exc.name != loaded.kind.rules:
            raise
        raise SheetgenError(f"the rules engine of {loaded.kind.name} ({loaded.kind.rules}) is not installed",
                            fix="update sheetgen, or validate another layout") from None


def sheets_of(loaded: Loaded, rules: Rules, sheet: int | None = None) -> list[tuple[int, str, object]]:
    """(number, label, doc) of each sheet to play: one for most layouts, or `--sheet N` only."""
    found = rules.sheets(loaded.doc) if rules.sheets else [("", loaded.doc)]
    numbered = [(n, label, doc) for n, (label, doc) in enumerate(found, 1)]
    if sheet is None:
        return numbered
    if not 1 <= sheet <= len(numbered):
        raise SheetgenError(f"--sheet {sheet} is out of range: '{loaded.name}' has {len(numbered)} "
                            f"sheet{'s' if len(numbered) != 1 else ''}", fix=f"use 1 to {len(numbered)}")
    return [numbered[sheet - 1]]


@dataclass(frozen=True)
class Task:
    """One batch: `games` games of sheet `sheet` (an index into the docs) under one policy."""

    sheet: int
    policy: str
    batch: int
    games: int


@dataclass(frozen=True)
class Job:
    """What every task of a run shares; sent once to each worker process."""

    rules: str  # module holding RULES
    engine: str  # "fast" or "reference"
    seed: int
    docs: tuple  # one layout document per sheet
    elements: tuple  # element ids per sheet


def play(job: Job, task: Task) -> Tally:
    """Play one batch and sum it up."""
    rules: Rules = importlib.import_module(job.rules).RULES
    elements = job.elements[task.sheet]
    inputs = rules.inputs(task.batch, task.games, job.seed, task.policy, len(elements))
    return play_batch(rules, job.docs[task.sheet], elements, task.policy, job.engine, inputs,
                      task.games, task.batch)[1]


def play_batch(rules: Rules, doc, elements, policy: str, engine: str, inputs, games: int,
               batch: int = 0) -> tuple[Batch, Tally]:
    """Play `games` games of one sheet on `inputs` (dice, u, targets): the checked Batch and its
    Tally. The validator and `sheetgen search` both play through here."""
    dice, u, targets = inputs
    b = getattr(rules, "reference" if policy in SLOW else engine)(doc, dice, u, policy, targets)
    _check(b, games, len(elements), f"{rules.game} {engine} engine")
    sections = [[i for _, i in items] for _, items in groups(list(elements))]
    return b, Tally.of(b, sections, batch)


def _check(b: Batch, games: int, n_el: int, who: str) -> None:
    """An engine that breaks the contract is a bug in the engine: say exactly what is wrong."""
    for name in ("score", "penalties", "unused_powers", "stuck", "turns"):
        if np.shape(getattr(b, name)) != (games,):
            raise RuntimeError(f"{who}: {name} has shape {np.shape(getattr(b, name))}, expected ({games},)")
    if np.shape(b.reached) != (games, n_el):
        raise RuntimeError(f"{who}: reached has shape {np.shape(b.reached)}, expected ({games}, {n_el}) "
                           f"(one column per element id)")


_JOB: Job | None = None  # set in each worker process by _start


def _start(job: Job) -> None:
    global _JOB
    _JOB = job


def _play_here(task: Task) -> Tally:
    return play(_JOB, task)


def batches(games: int) -> list[int]:
    """Sizes of the batches `games` games are cut into."""
    full, rest = divmod(games, BATCH)
    return [BATCH] * full + ([rest] if rest else [])


def run(loaded: Loaded, games: int, seed: int = 0, policies: tuple[str, ...] = POLICIES,
        engine: str = "fast", workers: int | None = None, progress: Progress | None = None,
        sheet: int | None = None) -> Report:
    """Play `games` games per policy (and per sheet) and judge whether the sheet is completable."""
    if games < 1:
        raise SheetgenError(f"--games {games} is too few", fix="play at least 1 game")
    if engine not in ("fast", "reference"):
        raise SheetgenError(f"unknown engine '{engine}'", fix="use fast or reference")
    bad = [p for p in policies if p not in LADDER]
    if bad or not policies:
        raise SheetgenError(f"unknown policy '{(bad or [''])[0]}'", fix=f"use {', '.join(LADDER)}, all or ladder")
    rules = rules_of(loaded)
    if any(p in SLOW for p in policies) and not rules.policy:
        raise SheetgenError(f"{rules.game} has no lookahead player yet", fix=f"use {', '.join(POLICIES)} or all")
    sheets = sheets_of(loaded, rules, sheet)
    elements = tuple(tuple(rules.element_ids(doc)) for _, _, doc in sheets)
    for ids in elements:
        if len(set(ids)) != len(ids):
            twice = sorted({e for e in ids if ids.count(e) > 1})
            raise RuntimeError(f"{rules.game}: element_ids repeats {', '.join(twice[:5])}")
    job = Job(loaded.kind.rules, engine, seed, tuple(doc for _, _, doc in sheets), elements)
    tasks = [Task(s, p, b, size) for s in range(len(sheets)) for p in policies
             for b, size in enumerate(batches(games))]
    total = games * len(policies) * len(sheets)
    workers = min(pools.count(workers), len(tasks))
    t0 = time.perf_counter()
    tallies = _run_tasks(job, tasks, workers, progress, total)
    seconds = time.perf_counter() - t0
    reports = []
    for s, (number, label, _) in enumerate(sheets):
        per_policy = {}
        for p in policies:
            parts = [t for task, t in zip(tasks, tallies) if task.sheet == s and task.policy == p]
            per_policy[p] = Tally.sum(parts)
        reports.append(SheetReport(number, label, list(elements[s]), per_policy, rules.turns))
    return Report(layout=loaded.name, file=str(loaded.path), game=rules.game, engine=engine, games=games,
                  seed=seed, policies=tuple(policies), turns=rules.turns, sheets=reports,
                  workers=workers, seconds=seconds)


def _run_tasks(job: Job, tasks: list[Task], workers: int, progress: Progress | None,
               total: int) -> list[Tally]:
    done = 0
    results: list[Tally | None] = [None] * len(tasks)
    if progress:
        progress(0, total)
    if workers == 1:
        for i, task in enumerate(tasks):
            results[i] = play(job, task)
            done += task.games
            if progress:
                progress(done, total)
        return results
    # the first task here: it compiles (or loads) the engine once, and the forked workers inherit it
    results[0] = play(job, tasks[0])
    done += tasks[0].games
    if progress:
        progress(done, total)
    with pools.pool(workers, _start, (job,)) as pool:
        futures = {pool.submit(_play_here, task): i for i, task in enumerate(tasks) if i}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            done += tasks[i].games
            if progress:
                progress(done, total)
    return results


def check(loaded: Loaded, games: int = 20_000, seed: int = 0, workers: int | None = None) -> Report:
    """The gate a generated variant must pass: every policy, fast engine, no progress output.
    Use `report.completable` and `report.score_mean("greedy")`."""
    return run(loaded, games, seed, POLICIES, "fast", workers)
