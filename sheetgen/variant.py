"""Custom variants: seeded random sheets that are written only once the validator passes them.

For each seed, candidates are drawn one after another from `numpy.random.default_rng([seed, n])`
and the game's `generate()`; the first candidate that is completable and whose greedy mean score
lies within `band` of the shipped sheet's is written as a layout YAML and its PDF.
"""

from __future__ import annotations

import hashlib
import importlib
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from . import pools
from .errors import SheetgenError
from .kinds import Loaded, load, resolve
from .layout import load_raw, to_yaml
from .output import check_folder, write_atomic

GAMES = ("tricky-treats", "haunt-the-block", "boogaloo")


@dataclass(frozen=True)
class Param:
    """A number a designer may turn in a game's variants and its inclusive range. Each game's
    variant.py lists its parameters in `SPACE` and reads their values off a sheet with `measure`
    (so the shipped values come from the shipped layout); the layout model still checks every sheet."""

    name: str
    low: int
    high: int
    help: str


def draw_params(space: tuple[Param, ...], rng: np.random.Generator,
                ranges: dict[str, tuple[int, int]] | None = None) -> dict[str, int]:
    """One value per parameter, uniform in its range (or in the narrower range given for it)."""
    ranges = ranges or {}
    return {p.name: int(rng.integers(ranges.get(p.name, (p.low, p.high))[0],
                                     ranges.get(p.name, (p.low, p.high))[1] + 1)) for p in space}


def parse_ranges(space: tuple[Param, ...], texts: list[str], game: str) -> dict[str, tuple[int, int]]:
    """`NAME=LO:HI` or `NAME=V` (fixed) per text, each inside the parameter's declared range."""
    known = {p.name: p for p in space}
    out = {}
    for text in texts:
        name, eq, value = text.partition("=")
        p = known.get(name.strip())
        if p is None or not eq:
            raise SheetgenError(f"--param '{text}' names no parameter of {game}", key="--param",
                                fix="write NAME=LO:HI with NAME one of: " + ", ".join(known))
        try:
            lo, _, hi = value.partition(":")
            rng = (int(lo), int(hi or lo))
        except ValueError:
            raise SheetgenError(f"--param '{text}': '{value}' is not LO:HI or a whole number",
                                key="--param", fix=f"e.g. {p.name}={p.low}:{p.high}") from None
        if not p.low <= rng[0] <= rng[1] <= p.high:
            raise SheetgenError(f"--param '{text}' is outside {p.name}'s range {p.low}:{p.high}",
                                key="--param", fix=f"use {p.low} <= LO <= HI <= {p.high}")
        out[p.name] = rng
    return out


@dataclass(frozen=True)
class Settings:
    band: float = 0.15  # accepted greedy mean: within +-band of the shipped sheet's
    games: int = 2000  # playouts per policy for each candidate
    max_tries: int = 50
    broken: bool = False  # ask the generator for content it knows breaks the rules (tests)


@dataclass(frozen=True)
class Outcome:
    game: str
    seed: int
    variant_id: str
    tried: int
    yaml_path: Path
    pdf_path: Path
    mean: float
    baseline: float
    report: object = field(default=None, compare=False, repr=False)  # the validator's Report


def shipped_values(loaded: Loaded) -> dict[str, int]:
    """The SPACE parameters' values on a loaded sheet (its variant module's `measure`)."""
    return importlib.import_module(loaded.kind.variant).measure(loaded.doc.model_dump(mode="json")["content"])


def _base(game: str) -> tuple[dict, Loaded]:
    if game not in GAMES:
        raise SheetgenError(f"no variants for '{game}'", key="GAME", fix=f"use one of: {', '.join(GAMES)}")
    path = resolve(game)
    data, _ = load_raw(path)
    return data, load(path)


def command(game: str, seed: int, s: Settings) -> str:
    extra = "" if s.band == Settings.band else f" --band {s.band:g}"
    return f"sheetgen variant {game} --seed {seed}{extra}"


def command_drawn(game: str, seed: int, candidate: int, ranges: dict) -> str:
    """The command that makes candidate `candidate` of the search of `seed` again, alone."""
    params = "".join(f" --param {k}={lo}:{hi}" for k, (lo, hi) in sorted(ranges.items()))
    return f"sheetgen variant {game} --seed {seed} --candidate {candidate}{params}"


def variant_id(game: str, seed: int, content: dict) -> str:
    text = yaml.safe_dump([game, seed, content], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def candidate(game: str, seed: int, tries: int, s: Settings, base: dict, gen) -> dict:
    """The layout data of candidate number `tries` for this seed."""
    rng = np.random.default_rng([seed, tries])
    content = gen(base["content"], rng, s.broken)
    vid = variant_id(game, seed, content)
    return {
        "kind": base["kind"],
        "title": base["title"],
        "description": f"Custom variant {vid} of {base['title']} (seed {seed})",
        "content": content,
        "layout": base.get("layout", {}),
        "variant": {"game": game, "seed": seed, "id": vid, "command": command(game, seed, s),
                    **({} if s.band == Settings.band else {"band": s.band})},
    }


def baseline_mean(game: str, s: Settings, workers: int = 1) -> float:
    """The shipped sheet's greedy mean score, the centre of the accepted band."""
    from .validate.run import check

    return check(_base(game)[1], s.games, 0, workers).score_mean("greedy")


def make(game: str, seed: int, out_dir: Path, s: Settings = Settings(), workers: int = 1,
         baseline: float | None = None) -> Outcome:
    """Generate, validate and write one variant; raise SheetgenError when no candidate passes."""
    base, loaded = _base(game)
    gen = importlib.import_module(loaded.kind.variant).generate
    if baseline is None:
        baseline = baseline_mean(game, s, workers)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = f"{game}-{seed}"
    for tries in range(1, s.max_tries + 1):
        data = candidate(game, seed, tries, s, base, gen)
        text = to_yaml(data)
        report = _check(text, out_dir, name, s, seed, workers)
        mean = report.score_mean("greedy")
        if report.completable and abs(mean - baseline) <= s.band * abs(baseline):
            yaml_path, pdf = write(text, out_dir, name)
            return Outcome(game, seed, data["variant"]["id"], tries, yaml_path, pdf, mean, baseline, report)
    raise SheetgenError(f"no completable variant of {game} within ±{s.band:.0%} of the shipped "
                        f"sheet's greedy mean after {s.max_tries} candidates (seed {seed})",
                        fix="try another --seed or a wider --band")


def make_drawn(game: str, seed: int, number: int, out_dir: Path, ranges: dict | None = None,
               s: Settings = Settings(), workers: int = 1) -> Outcome:
    """Candidate `number` of `sheetgen search GAME --seed SEED` (with its --param `ranges`), drawn
    alone and written once the validator finds it completable (no band: the search chose it)."""
    from .search import drawn

    base, loaded = _base(game)
    gen = importlib.import_module(loaded.kind.variant)
    data = drawn(game, seed, number, ranges or {}, base, gen)[1]
    text = to_yaml(data)
    name = f"{game}-{seed}-c{number}"
    out_dir.mkdir(parents=True, exist_ok=True)
    report = _check(text, out_dir, name, s, seed, workers)
    if not report.completable:
        raise SheetgenError(f"candidate {number} of the {game} search of seed {seed} is not completable",
                            fix="use a candidate that search kept (its search.json lists them)")
    yaml_path, pdf = write(text, out_dir, name)
    return Outcome(game, seed, data["variant"]["id"], 1, yaml_path, pdf, report.score_mean("greedy"),
                   math.nan, report)


def _check(text: str, out_dir: Path, name: str, s: Settings, seed: int, workers: int):
    """The validator's report on a candidate's layout text (the layout model checks it first)."""
    from .validate.run import check

    tmp = out_dir / f".{name}.candidate.yaml"
    write_atomic(tmp, text)
    try:
        return check(load(tmp), s.games, seed, workers)
    finally:
        tmp.unlink(missing_ok=True)


def write(text: str, out_dir: Path, name: str) -> tuple[Path, Path]:
    """Write a variant's layout YAML and its PDF (the footer and QR carry its `variant.command`)."""
    from .api import render

    yaml_path = write_atomic(out_dir / f"{name}.yaml", text)
    try:
        pdf = render(yaml_path, out_dir / f"{name}.pdf").path
    except SheetgenError:
        yaml_path.unlink()  # no layout without its PDF
        raise
    return yaml_path, pdf


def _one(args) -> Outcome | str:
    game, seed, out_dir, s, baseline = args
    try:
        return make(game, seed, out_dir, s, workers=1, baseline=baseline)
    except SheetgenError as exc:
        return str(exc)


def make_many(game: str, seeds: list[int], out_dir: Path, s: Settings, workers: int, progress=None):
    """Variants for several seeds, one per worker process; yields Outcome or an error string."""
    check_folder(out_dir, "variants folder")  # before the baseline's games
    baseline = baseline_mean(game, s, workers)
    jobs = [(game, seed, out_dir, s, baseline) for seed in seeds]
    if workers <= 1 or len(jobs) == 1:
        for job in jobs:
            yield _one(job)
            if progress:
                progress()
        return
    with pools.pool(workers) as pool:
        for result in pool.map(_one, jobs):
            if progress:
                progress()
            yield result
