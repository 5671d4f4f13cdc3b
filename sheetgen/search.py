"""`sheetgen search GAME`: many candidate variants compared fairly, the best re-scored on fresh dice.

1. Candidate i is drawn from `SeedSequence(seed, spawn_key=(0, i))`: parameter values from the
   game's SPACE (sheetgen/games/*/variant.py), then its shuffles; the layout model checks it, as it
   checks any layout, and refuses what breaks the rules' invariants.
2. Successive halving on common random numbers: at rung r every candidate still in plays the same
   batches of dice (branch 1 of the root seed, batch b = games b*UNIT to (b+1)*UNIT), so candidates
   differ by their sheets, not their luck. After each rung the worse half (1/eta) is cut, and the
   others play eta times as many games, up to `Plan.most` each. A roll left without a legal move or
   a game of the wrong length removes a candidate at once. The first rung also plays the cover
   policy and removes candidates with an element no game reached (a screen; the verdict comes at 3).
3. The finalists are re-scored on fresh dice (branch 2) with every policy: that verdict
   (completable) and those figures are the ones reported, with 95 % confidence intervals, and the
   shift from the selection figures shows how much picking the best of many noisy estimates
   flattered them. The best completable finalists that print (text fits) are kept.

Every figure comes from integer sums, merged in batch order, so a seed gives byte-identical
results on one process, many, or a Dask cluster.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from pydantic import ValidationError

from . import variant as V
from .errors import SheetgenError
from .search_play import Played, Unit, run_all, verdict
from .validate.engine import POLICIES
from .validate.report import Tally

CANDIDATES, RUNGS, RESCORE = 0, 1, 2  # branches of the root seed
UNIT = 1000  # games in a batch of dice
Z95 = 1.959964


@dataclass(frozen=True)
class Target:
    """A range a figure must lie in; either end may be open."""

    name: str  # "mean", "spread" or "skill_gap"
    lo: float | None
    hi: float | None

    def term(self, x: float | None) -> float:
        """0 to 1 inside the range (0 at its centre when both ends are given), above 1 outside."""
        if x is None or math.isnan(x):
            return math.inf
        if self.lo is not None and self.hi is not None:
            return abs(x - (self.lo + self.hi) / 2) / max((self.hi - self.lo) / 2, 1e-9)
        bound = self.lo if self.lo is not None else self.hi
        off = bound - x if self.lo is not None else x - bound  # how far outside (<= 0: inside)
        return 0.0 if off <= 0 else 1 + off / (max(abs(bound), 1) / 10)

    def words(self) -> str:
        name = self.name.replace("_", " ")
        if self.lo is not None and self.hi is not None:
            return f"{name} {self.lo:g} to {self.hi:g}"
        return f"{name} at least {self.lo:g}" if self.lo is not None else f"{name} at most {self.hi:g}"

    def __str__(self) -> str:
        lo, hi = ("" if v is None else f"{v:g}" for v in (self.lo, self.hi))
        return f"{self.name} {lo}:{hi}"


def parse_target(name: str, text: str) -> Target:
    lo, colon, hi = text.partition(":")
    try:
        a = float(lo) if lo.strip() else None
        b = float(hi) if hi.strip() else None
    except ValueError:
        a = b = None
        colon = ""
    if not colon or (a is None and b is None) or (a is not None and b is not None and a > b):
        raise SheetgenError(f"--{name.replace('_', '-')} '{text}' is not a range LO:HI", key=f"--{name}",
                            fix="write e.g. 60:75, or 60: or :75 for an open end")
    return Target(name, a, b)


@dataclass(frozen=True)
class Plan:
    candidates: int = 200
    keep: int = 3
    first: int = 1000  # games each candidate plays at the first rung (a multiple of UNIT)
    eta: int = 2  # 1/eta of the candidates go on to the next rung, playing eta times the games
    most: int = 32_000  # games a candidate plays at most before the re-score
    rescore: int = 20_000  # fresh games per policy for each finalist
    finalists: int = 0  # 0: twice keep

    def check(self) -> None:
        for name in ("first", "most", "rescore"):
            v = getattr(self, name)
            if v < UNIT or v % UNIT:
                raise SheetgenError(f"--{name} {v} must be a positive multiple of {UNIT} games",
                                    key=f"--{name}", fix=f"use e.g. {max(UNIT, v // UNIT * UNIT)}")
        if self.most < self.first:
            raise SheetgenError(f"--most {self.most} is below --first {self.first}", key="--most",
                                fix="let the last rung play at least as many games as the first")
        if self.eta < 2:
            raise SheetgenError(f"--eta {self.eta} cuts nothing", key="--eta", fix="use 2 or 3")
        if self.keep > self.candidates:
            raise SheetgenError(f"--keep {self.keep} is more than --candidates {self.candidates}",
                                key="--keep", fix="keep at most as many as you draw")

    @property
    def n_final(self) -> int:
        return min(self.candidates, self.finalists or 2 * self.keep)

    def rungs(self) -> list[tuple[int, int]]:
        """(candidates, games each so far) of each rung."""
        n, g = self.candidates, self.first
        out = [(n, g)]
        while n > self.n_final and g < self.most:
            n, g = max(self.n_final, math.ceil(n / self.eta)), min(g * self.eta, self.most)
            out.append((n, g))
        return out

    def games(self, per_rung: int, halving: bool = True) -> int:
        """Games the plan plays (every candidate kept by the model): halving, or all candidates
        playing `most` games (halving=False); `per_rung` policies at the rungs."""
        if halving:
            rungs, prev = self.rungs(), 0
            total = 0
            for n, g in rungs:
                total += n * (g - prev)
                prev = g
        else:
            total = self.candidates * self.most
        screen = self.candidates * self.first  # the first rung's cover games (reach screen)
        return (total + self.most) * per_rung + screen + self.n_final * self.rescore * len(POLICIES)

    def within(self, budget: int | None, per_rung: int) -> "Plan":
        """The plan, its deepest rungs cut (halving `most`) until it fits `budget` games."""
        plan = self
        while budget and plan.games(per_rung) > budget and plan.most // 2 >= plan.first:
            plan = Plan(**{**plan.__dict__, "most": plan.most // 2 // UNIT * UNIT})
        if budget and plan.games(per_rung) > budget:
            raise SheetgenError(f"--budget {budget:,} games is below what {plan.candidates} candidates need "
                                f"({plan.games(per_rung):,} games with --first {plan.first})", key="--budget",
                                fix="raise --budget or lower --candidates, --first or --rescore")
        return plan


@dataclass(frozen=True)
class Figures:
    """A candidate's figures over `games` games (each sheet plays them), 95 % half-widths."""

    games: int
    mean: float
    mean_ci: float
    spread: float  # standard deviation of the greedy score
    spread_ci: float
    gap: float | None = None  # skill gap: greedy - random, on the same dice
    gap_ci: float | None = None
    turns: float = 0.0

    def value(self, name: str) -> float | None:
        return {"mean": self.mean, "spread": self.spread, "skill_gap": self.gap}[name]

    def row(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _moments(hist: dict[int, int]) -> tuple[int, float, float, float]:
    n = sum(hist.values())
    s1 = sum(v * c for v, c in hist.items())
    mean = s1 / n
    m2 = sum(c * (v - mean) ** 2 for v, c in sorted(hist.items())) / n
    m4 = sum(c * (v - mean) ** 4 for v, c in sorted(hist.items())) / n
    return n, mean, m2, m4


def figures(tallies: dict[str, list[Tally]], gap: tuple[int, int, int]) -> Figures:
    score: dict[int, int] = {}
    turns: dict[int, int] = {}
    for t in tallies["greedy"]:
        for v, c in t.score.items():
            score[v] = score.get(v, 0) + c
        for v, c in t.turns.items():
            turns[v] = turns.get(v, 0) + c
    n, mean, m2, m4 = _moments(score)
    sd = math.sqrt(m2 * n / (n - 1)) if n > 1 else 0.0
    se_sd = math.sqrt(max(m4 - m2 * m2, 0.0) / n) / (2 * sd) if sd > 0 else 0.0
    g = gci = None
    if gap[0]:
        k, s1, s2 = gap
        g = s1 / k
        var = (s2 - s1 * s1 / k) / (k - 1) if k > 1 else 0.0
        gci = Z95 * math.sqrt(max(var, 0.0) / k)
    return Figures(n // len(tallies["greedy"]), mean, Z95 * sd / math.sqrt(n), sd, Z95 * se_sd, g, gci,
                   _moments(turns)[1])


@dataclass
class Candidate:
    index: int  # -1: the shipped sheet
    id: str
    params: dict[str, int]
    data: dict  # the layout (written as YAML when kept)
    doc: str = ""  # the validated document as JSON (what the engines play)
    rejected: str = ""  # why the model refused it, or the fault that removed it
    rung: int = -1  # last rung it played
    parts: dict = field(default_factory=dict)  # key -> Played, this rung's and the re-score's
    tallies: dict[str, list[Tally]] = field(default_factory=dict)
    gap: tuple[int, int, int] = (0, 0, 0)
    fig: Figures | None = None  # at the last rung it played
    loss: float = math.inf
    final: Figures | None = None  # re-scored on fresh dice
    final_loss: float = math.inf
    completable: bool | None = None
    faults: list[str] = field(default_factory=list)
    kept: bool = False

    def take(self, branch: int) -> tuple[dict[str, list[Tally]], tuple[int, int, int]]:
        """This branch's finished units summed in batch order (and removed from `parts`)."""
        tallies: dict[str, list[Tally]] = {}
        gap = (0, 0, 0)
        for k in sorted(k for k in self.parts if k[0] == branch):
            p: Played = self.parts.pop(k)
            tallies, gap = add(tallies, gap, p.tallies, p.gap)
        return tallies, gap


def add(a: dict[str, list[Tally]], ga: tuple, b: dict[str, list[Tally]], gb: tuple):
    out = dict(a)
    for pol, ts in b.items():
        out[pol] = ts if pol not in a else [Tally.sum([x, y]) for x, y in zip(a[pol], ts)]
    return out, tuple(x + y for x, y in zip(ga, gb))


@dataclass
class Search:
    game: str
    seed: int
    plan: Plan
    targets: list[Target]
    command: str
    space: tuple
    ranges: dict
    policies: tuple[str, ...]
    shipped: Candidate
    candidates: list[Candidate]
    rungs: list[dict] = field(default_factory=list)  # per rung: candidates, games each, games played
    played: int = 0  # games played in all (a game of a layout with several sheets plays each once)
    stopped: str = ""  # set when Ctrl-C stopped the search

    @property
    def kept(self) -> list[Candidate]:
        return sorted((c for c in self.candidates if c.kept), key=lambda c: (c.final_loss, c.index))

    @property
    def finalists(self) -> list[Candidate]:
        return [c for c in self.candidates if c.final is not None]

    def shift(self, name: str) -> float | None:
        """Mean re-score shift (re-scored - selection figure) of a figure over the finalists."""
        vals = [c.final.value(name) - c.fig.value(name) for c in self.finalists
                if c.fig and c.fig.value(name) is not None and c.final.value(name) is not None]
        return sum(vals) / len(vals) if vals else None


Progress = Callable[[int, int, str], None]  # progress(games done, games planned, what is going on)


def drawn(game: str, seed: int, i: int, ranges: dict, base: dict, gen) -> tuple[dict[str, int], dict]:
    """Candidate i of the search of `seed`: its parameter values and its layout data. Nothing else
    (not the plan, not the targets) goes in, so `sheetgen variant --candidate` and the sheet's link
    make exactly this sheet again (its `variant.command` says how)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CANDIDATES, i)))
    params = V.draw_params(gen.SPACE, rng, ranges)
    content = gen.generate(base["content"], rng, False, params)
    vid = hashlib.sha256(json.dumps([game, seed, i, content], sort_keys=True).encode()).hexdigest()[:8]
    info = {"game": game, "seed": seed, "id": vid, "command": V.command_drawn(game, seed, i, ranges),
            "candidate": i, **({"ranges": {k: list(v) for k, v in sorted(ranges.items())}} if ranges else {})}
    return params, {"kind": base["kind"], "title": base["title"],
                    "description": f"Search variant {vid} of {base['title']} (seed {seed}, candidate {i})",
                    "content": content, "layout": base.get("layout", {}), "variant": info}


def draw(game: str, seed: int, n: int, ranges: dict, progress: Progress | None = None):
    """The shipped candidate and n drawn ones (those the model refuses carry the reason)."""
    base, loaded = V._base(game)
    gen = importlib.import_module(loaded.kind.variant)
    model = loaded.kind.model
    shipped = Candidate(-1, "shipped", V.shipped_values(loaded), base, loaded.doc.model_dump_json())
    out = []
    for i in range(n):
        if progress and i % 50 == 0:
            progress(0, 0, f"drawing candidates: {i}/{n}")
        params, data = drawn(game, seed, i, ranges, base, gen)
        c = Candidate(i, data["variant"]["id"], params, data)
        try:
            c.doc = model.model_validate(data).model_dump_json()
        except ValidationError as exc:
            err = exc.errors()[0]
            c.rejected = f"model: {'.'.join(str(x) for x in err['loc'])}: {err['msg']}"
        out.append(c)
    return gen.SPACE, shipped, out


def _loss(fig: Figures, targets: list[Target]) -> float:
    return max(t.term(fig.value(t.name)) for t in targets)


def reproduce(game: str, seed: int, plan: Plan, targets: list[Target], ranges: dict) -> str:
    """The command that makes the same search again (and so the same kept variants)."""
    cmd = f"sheetgen search {game} --seed {seed} --candidates {plan.candidates} --keep {plan.keep}"
    for t in targets:
        cmd += f" --{t.name.replace('_', '-')} {str(t).split(' ', 1)[1]}"
    for name, default in Plan().__dict__.items():
        if name not in ("candidates", "keep") and getattr(plan, name) != default:
            cmd += f" --{name} {getattr(plan, name)}"
    return cmd + "".join(f" --param {k}={lo}:{hi}" for k, (lo, hi) in sorted(ranges.items()))


def search(game: str, seed: int, plan: Plan, targets: list[Target], back, ranges: dict | None = None,
           progress: Progress | None = None) -> Search:
    """Run the search on `back` (search_play.Local or Cluster). Ctrl-C stops it between units:
    the result then holds the rungs that finished (`stopped` says where it stopped)."""
    plan.check()
    ranges = ranges or {}
    gap = any(t.name == "skill_gap" for t in targets)
    policies = ("greedy", "random") if gap else ("greedy",)
    command = reproduce(game, seed, plan, targets, ranges)
    space, shipped, cands = draw(game, seed, plan.candidates, ranges, progress)
    kind = shipped.data["kind"]
    s = Search(game, seed, plan, list(targets), command, space, ranges, policies, shipped, cands)
    by_index = {c.index: c for c in cands}
    by_index[-1] = shipped
    planned = plan.games(len(policies)) - sum(1 for c in cands if c.rejected) * plan.first * (len(policies) + 1)

    def done(p: Played) -> None:
        by_index[p.cand].parts[p.key] = p
        s.played += sum(ts[0].games for ts in p.tallies.values())  # a game plays each sheet once
        if progress:
            progress(s.played, planned, where)

    alive = [c for c in cands if not c.rejected]
    prev = 0
    try:
        for r, (n, g) in enumerate(plan.rungs()):
            alive = alive[:n]
            where = f"rung {r + 1}/{len(plan.rungs())}: {len(alive)} candidates left, {g:,} games each"
            pols = (*policies, "cover") if r == 0 else policies  # the first rung screens reach too
            units = [Unit(c.index, kind, c.doc, pols, (RUNGS, b), UNIT)
                     for c in alive for b in range(prev // UNIT, g // UNIT)]
            if r == 0:
                units = [Unit(-1, kind, shipped.doc, policies, (RUNGS, b), UNIT)
                         for b in range(plan.most // UNIT)] + units
            run_all(back, seed, units, done)
            for c in alive + ([shipped] if r == 0 else []):
                c.tallies, c.gap = add(c.tallies, c.gap, *c.take(RUNGS))
                c.rung, c.fig = r, figures(c.tallies, c.gap)
            if r == 0:
                shipped.loss = 0.0
                if not any(t.name == "mean" for t in targets):
                    m = shipped.fig.mean
                    s.targets.insert(0, Target("mean", round(m * 0.85, 2), round(m * 1.15, 2)))
            for c in alive:
                fault = verdict(kind, c.doc, c.tallies, full=r == 0)
                if fault:
                    c.rejected = f"{'screen' if r == 0 else 'fault'}: {fault[0]}"
                c.loss = math.inf if fault else _loss(c.fig, s.targets)
            alive = sorted((c for c in alive if not c.rejected), key=lambda c: (c.loss, c.index))
            s.rungs.append({"rung": r + 1, "candidates": len([c for c in cands if c.rung == r]),
                            "games_each": g, "played": s.played})
            prev = g
        where = f"re-scoring {min(plan.n_final, len(alive))} finalists on fresh dice"
        final = alive[:plan.n_final]
        units = [Unit(c.index, kind, c.doc, POLICIES, (RESCORE, b), UNIT)
                 for c in final for b in range(plan.rescore // UNIT)]
        run_all(back, seed, units, done)
    except KeyboardInterrupt:
        s.stopped = f"stopped by Ctrl-C during {where}"
        if where.startswith("rung"):  # candidates whose games of this rung all finished get figures
            for c in alive + ([shipped] if r == 0 else []):
                first, last = (0, plan.most) if c is shipped else (prev, g)
                if {(RUNGS, b) for b in range(first // UNIT, last // UNIT)} <= set(c.parts):
                    c.tallies, c.gap = add(c.tallies, c.gap, *c.take(RUNGS))
                    c.rung, c.fig = r, figures(c.tallies, c.gap)
        for c in [shipped, *cands]:
            c.parts.clear()
        return s
    for c in final:
        tallies, gp = c.take(RESCORE)
        c.final = figures(tallies, gp)
        c.faults = verdict(kind, c.doc, tallies, full=True)
        c.completable = not c.faults
        c.final_loss = _loss(c.final, s.targets)
    kept = 0
    for c in sorted((c for c in final if c.completable), key=lambda c: (c.final_loss, c.index)):
        if kept == plan.keep:
            break
        if (why := _undrawable(c, shipped)) is not None:
            c.faults.append(why)
            continue
        c.kept, kept = True, kept + 1
    return s


def _undrawable(c: Candidate, shipped: Candidate) -> str | None:
    """Why the sheet cannot be printed (text that does not fit, say), or None when it draws."""
    from .draw import pdf_bytes
    from .kinds import Loaded, Options, kind, render_pages

    k = kind(shipped.data["kind"])
    try:
        loaded = Loaded(k.model.model_validate(c.data), Path(f"{c.id}.yaml"), c.id, k)
        pages = render_pages(loaded, Options())  # what every render does: links, then the print lint
        pdf_bytes(pages, c.id)  # and the drawing itself (paragraphs fitted at 6 pt or refused)
    except SheetgenError as exc:
        return f"does not print: {exc}"
    return None
