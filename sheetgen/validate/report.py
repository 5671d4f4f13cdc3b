"""What the validator found: tallies of playouts, the verdict, JSON and the human report."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from .engine import Batch

SHOWN = 12  # elements named in a one-line fault before "and N more"


def _hist(values: np.ndarray) -> dict[int, int]:
    vals, counts = np.unique(np.asarray(values, dtype=np.int64), return_counts=True)
    return dict(zip(vals.tolist(), counts.tolist()))


def _add(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return dict(sorted(out.items()))


def groups(ids: list[str]) -> list[tuple[str, list[tuple[str, int]]]]:
    """Element ids grouped by all but their last part, in order: child.vampire.box -> 1, 2, 3 …
    (a group is a section of the sheet: a row of boxes, a stash row, a track)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for i, e in enumerate(ids):
        head, _, last = e.rpartition(".")
        out.setdefault(head or e, []).append((last if head else e, i))
    return list(out.items())


def bound95(d) -> float:
    """95 % bound (normal) on the mean of paired differences `d`: inf with fewer than 2."""
    d = np.asarray(d, float)
    return float(1.96 * d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("inf")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score bounds of a rate k / n: "never in n games" still bounds the rate above."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


STUCK_SHOWN = 5  # stuck games kept with their seed


@dataclass
class Tally:
    """A mergeable summary of many games: small whatever the number of games."""

    games: int
    reached: np.ndarray  # int64 [E]: games that reached each element
    score: dict[int, int]  # score -> games
    turns: dict[int, int]  # turns played -> games
    penalties: int = 0  # penalties in all games
    penalty_games: int = 0  # games with at least one
    unused: int = 0  # powers or stars left unused
    unused_games: int = 0
    stuck: int = 0  # rolls without a legal move where the rules name no penalty
    stuck_games: int = 0
    most: tuple = ()  # per section (`groups` order): the most of its elements one game reached
    stuck_at: tuple = ()  # (batch, game) of the first stuck games: replay them with the same seed

    @staticmethod
    def of(b: Batch, sections: list[list[int]] | None = None, batch: int = 0) -> "Tally":
        pen, unused, stuck = (np.asarray(x, dtype=np.int64) for x in (b.penalties, b.unused_powers, b.stuck))
        reached = np.asarray(b.reached, dtype=bool)
        most = tuple(int(reached[:, cols].sum(1).max()) if len(reached) else 0 for cols in sections or [])
        at = tuple((batch, int(g)) for g in np.flatnonzero(stuck)[:STUCK_SHOWN])
        return Tally(len(b), reached.sum(axis=0, dtype=np.int64),
                     _hist(b.score), _hist(b.turns), int(pen.sum()), int((pen > 0).sum()),
                     int(unused.sum()), int((unused > 0).sum()), int(stuck.sum()), int((stuck > 0).sum()),
                     most, at)

    @staticmethod
    def sum(parts: list["Tally"]) -> "Tally":
        out = parts[0]
        for p in parts[1:]:
            out = Tally(out.games + p.games, out.reached + p.reached, _add(out.score, p.score),
                        _add(out.turns, p.turns), out.penalties + p.penalties,
                        out.penalty_games + p.penalty_games, out.unused + p.unused,
                        out.unused_games + p.unused_games, out.stuck + p.stuck,
                        out.stuck_games + p.stuck_games, tuple(max(a, b) for a, b in zip(out.most, p.most)),
                        (out.stuck_at + p.stuck_at)[:STUCK_SHOWN])
        return out


def stats(hist: dict[int, int]) -> dict[str, float]:
    """mean / std / min / p10 / p50 / p90 / max of integer values given as value -> count.
    Percentiles interpolate linearly between order statistics, as numpy.percentile does."""
    vals = sorted(hist)
    counts = [hist[v] for v in vals]
    n = sum(counts)
    total = sum(v * c for v, c in zip(vals, counts))
    mean = total / n
    var = max(0.0, sum(c * v * v for v, c in zip(vals, counts)) / n - mean * mean)
    cum = np.cumsum(counts)

    def order(k: int) -> int:  # the k-th smallest value, 0-based
        return vals[int(np.searchsorted(cum, k, side="right"))]

    def pct(q: float) -> float:
        pos = q / 100 * (n - 1)
        lo = math.floor(pos)
        a, b = order(lo), order(min(lo + 1, n - 1))
        return a + (b - a) * (pos - lo)

    out = {"mean": mean, "std": math.sqrt(var), "min": vals[0], "p10": pct(10), "p50": pct(50),
           "p90": pct(90), "max": vals[-1]}
    return {k: round(float(v), 4) if isinstance(v, float) else v for k, v in out.items()}


def _names(ids: list[str]) -> str:
    more = f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
    return ", ".join(ids[:SHOWN]) + more


@dataclass
class SheetReport:
    number: int  # 1-based
    label: str  # "" for a layout with one sheet
    elements: list[str]
    policies: dict[str, Tally]
    turns: int  # when the rules end the game
    figures: dict = field(default_factory=dict)  # luck, mechanic check (document.figures), when asked

    @property
    def games(self) -> int:
        return sum(t.games for t in self.policies.values())

    def reached_counts(self) -> np.ndarray:
        return sum(t.reached for t in self.policies.values())

    def fractions(self, policy: str | None = None) -> dict[str, float]:
        """Element id -> fraction of games that reached it (all policies together by default)."""
        if policy:
            counts, games = self.policies[policy].reached, self.policies[policy].games
        else:
            counts, games = self.reached_counts(), self.games
        return {e: float(c) / games for e, c in zip(self.elements, counts)}

    @property
    def unreached(self) -> list[str]:
        return [e for e, c in zip(self.elements, self.reached_counts()) if c == 0]

    @property
    def faults(self) -> list[str]:
        out = []
        if self.unreached:
            out.append(f"{len(self.unreached)} element{'s' if len(self.unreached) > 1 else ''} never "
                       f"reached in any playout: {_names(self.unreached)}")
        stuck = {p: t for p, t in self.policies.items() if t.stuck}
        if stuck:
            rolls = sum(t.stuck for t in stuck.values())
            games = sum(t.stuck_games for t in stuck.values())
            out.append(f"{rolls} roll{'s' if rolls > 1 else ''} in {games} game{'s' if games > 1 else ''} "
                       f"left no legal move where the rules name no penalty ({', '.join(stuck)})")
        off = {n: c for t in self.policies.values() for n, c in t.turns.items() if n != self.turns}
        if off:
            games = sum(off.values())
            lengths = ", ".join(str(n) for n in sorted(off))
            out.append(f"{games} game{'s' if games > 1 else ''} ended after {lengths} turns instead of "
                       f"the {self.turns} the rules say")
        return out

    @property
    def notes(self) -> list[str]:
        """Things that weaken the verdict without failing it."""
        cover = self.policies.get("cover")
        if cover and cover.games < len(self.elements):
            return [f"the cover policy aimed at only {cover.games} of the {len(self.elements)} elements; "
                    f"play --games {len(self.elements)} or more to aim at each"]
        if not cover and self.unreached:
            return ["the cover policy, which aims at each element in turn, was not played (--policy all)"]
        return []

    @property
    def completable(self) -> bool:
        return not self.faults

    def to_dict(self) -> dict:
        pol = {}
        for p, t in self.policies.items():
            pol[p] = {
                "games": t.games,
                "score": stats(t.score),
                "penalties": {"mean": round(t.penalties / t.games, 4), "games": round(t.penalty_games / t.games, 4)},
                "unused_powers": {"mean": round(t.unused / t.games, 4), "games": round(t.unused_games / t.games, 4)},
                "stuck": {"rolls": t.stuck, "games": t.stuck_games,
                          "at": [{"batch": b, "game": g} for b, g in t.stuck_at]},
                "turns": stats(t.turns),
            }
        pol = {p: {**v, "skill": self.skill(p)} for p, v in pol.items()}
        per = {p: t.reached for p, t in self.policies.items()}
        counts = self.reached_counts()
        elements = {}
        for i, e in enumerate(self.elements):
            row = {"all": round(float(counts[i]) / self.games, 6)}
            row.update({p: round(float(per[p][i]) / self.policies[p].games, 6) for p in self.policies})
            low, high = wilson(int(counts[i]), self.games)
            row.update({"low95": round(low, 6), "high95": round(high, 6)})
            elements[e] = row
        return {"sheet": self.number, "label": self.label, "completable": self.completable,
                "faults": self.faults, "unreached": self.unreached, "notes": self.notes,
                "policies": pol, "sections": self.sections(), "elements": elements, **self.figures}

    def skill(self, policy: str) -> dict | None:
        """How far `policy` is above random: in points, and in random's standard deviations."""
        if "random" not in self.policies or policy == "random":
            return None
        base, st = stats(self.policies["random"].score), stats(self.policies[policy].score)
        gap = st["mean"] - base["mean"]
        return {"points": round(gap, 4), "sd": round(gap / base["std"], 4) if base["std"] else None}

    def sections(self) -> dict[str, dict]:
        """Per section: its elements, and the most of them any game filled (all policies)."""
        out = {}
        for k, (name, items) in enumerate(groups(self.elements)):
            most = max((t.most[k] for t in self.policies.values() if len(t.most) > k), default=None)
            out[name] = {"size": len(items), "most": most}
        return out


@dataclass
class Report:
    layout: str
    file: str
    game: str
    engine: str
    games: int  # per policy and per sheet
    seed: int
    policies: tuple[str, ...]
    turns: int
    sheets: list[SheetReport]
    workers: int = 1
    seconds: float = 0.0

    @property
    def completable(self) -> bool:
        return all(s.completable for s in self.sheets)

    @property
    def faults(self) -> list[str]:
        many = len(self.sheets) > 1
        return [(f"sheet {s.number} ({s.label}): " if many else "") + f for s in self.sheets for f in s.faults]

    @property
    def unreached(self) -> list[str]:
        return [e for s in self.sheets for e in s.unreached]

    def score_mean(self, policy: str = "greedy") -> float:
        """Mean score under one policy (over all sheets played: each sheet plays the same games)."""
        return float(np.mean([stats(s.policies[policy].score)["mean"] for s in self.sheets]))

    def to_dict(self) -> dict:
        return {"layout": self.layout, "file": self.file, "game": self.game, "engine": self.engine,
                "games": self.games, "seed": self.seed, "policies": list(self.policies),
                "turns": self.turns, "completable": self.completable, "faults": self.faults,
                "sheets": [s.to_dict() for s in self.sheets]}

    def to_json(self) -> str:
        """Machine-readable: fixed key order, and no timings, so it depends only on the inputs."""
        return json.dumps(self.to_dict(), indent=2)
