"""`sheetgen report LAYOUT`: the designer's balance report, as a PDF (Jinja2 + WeasyPrint) or HTML.

For each sheet: the score of each player of the ladder (histograms drawn as vector SVG), the skill
gap over random in points and in standard deviations, the share of score variance the dice explain,
the lookahead player against greedy on the same dice, the most of each section one game filled,
rare and never-reached elements with 95 % bounds, stuck rolls with the batch to replay them, the
mechanic check (each power, reward and section switched off in turn, on the same dice), and at the
end the heatmap pages (heatmap.py). Same layout, options and seed: same bytes.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from pypdf import PdfReader, PdfWriter
from markupsafe import Markup

from ..documents import pdf_from_html, render_html
from ..kinds import Options, load
from ..output import check_target, write_atomic
from .engine import POLICIES
from .heatmap import pages as heatmap_pages
from .mechanics import GAMES as MECHANIC_GAMES, REACH_PP, SCORE_SHARE, sheet_mechanics
from .report import Report, SheetReport, bound95, stats, wilson
from .run import rules_of, run, sheets_of

RARE = 0.05  # elements reached in fewer games than this are listed with their bounds
LUCK_DICE, LUCK_REPEATS = 2000, 4  # random games: dice sets, and plays of each set


def histogram(hist: dict[int, int], lo: int, hi: int, w: float = 230, h: float = 46) -> Markup:
    """A score histogram as inline SVG (vector in the PDF): one bar per score."""
    n = sum(hist.values())
    top = max(hist.values()) / n
    span = max(1, hi - lo + 1)
    bw = w / span
    bars = "".join(f'<rect x="{(v - lo) * bw:.2f}" y="{h - 12 - c / n / top * (h - 16):.2f}" '
                   f'width="{max(bw - 0.3, 0.3):.2f}" height="{c / n / top * (h - 16):.2f}" fill="#555"/>'
                   for v, c in sorted(hist.items()))
    ticks = "".join(f'<text x="{(v - lo) * bw:.1f}" y="{h - 2}" font-size="7">{v}</text>'
                    for v in range(lo, hi + 1, max(1, span // 6)) if (v - lo) * bw < w - 12)  # fits
    return Markup(f'<svg width="{w}" height="{h}" viewBox="0 0 {w} {h}">{bars}'
                  f'<line x1="0" y1="{h - 12}" x2="{w}" y2="{h - 12}" stroke="#000" stroke-width="0.5"/>'
                  f'{ticks}</svg>')


def luck(rules, doc, seed: int) -> float | None:
    """Share of the random player's score variance the dice explain: each dice set played
    LUCK_REPEATS times with other choices; between-sets variance (less its noise) over the total."""
    n_el = len(rules.element_ids(doc))
    dice, _, targets = rules.inputs(0, LUCK_DICE, seed, "random", n_el)
    rng = np.random.default_rng([seed, 99])
    scores = np.stack([rules.fast(doc, dice, rng.random((LUCK_DICE, rules.turns, rules.choices_per_turn)),
                                  "random", targets).score for _ in range(LUCK_REPEATS)], 1).astype(float)
    total = scores.var(ddof=1)
    if not total:
        return None
    within = scores.var(1, ddof=1).mean()
    between = scores.mean(1).var(ddof=1) - within / LUCK_REPEATS
    return float(min(1.0, max(0.0, between / total)))


def ladder_top(rules, doc, games: int, seed: int) -> dict | None:
    """Lookahead against greedy on the same dice (paired): means, the gain and its 95 % bound."""
    if games < 2:
        return None
    n_el = len(rules.element_ids(doc))
    dice, u, targets = rules.inputs(0, games, seed, "greedy", n_el)
    greedy = rules.reference(doc, dice, u, "greedy", targets).score
    ahead = rules.reference(doc, dice, u, "lookahead", targets).score
    gain = ahead - greedy
    return {"games": games, "greedy": float(greedy.mean()), "lookahead": float(ahead.mean()),
            "gain": float(gain.mean()), "bound": bound95(gain)}


def weights(rules, doc, games: int, seed: int, rollouts: int = 2) -> list[dict] | None:
    """Decision weight by turn: over `games` greedy games, the mean gap in expected final score
    between the best and the worst legal action of each decision, per turn (which turns matter)."""
    if games < 1 or not rules.new_state:
        return None
    from .driver import decision_weights

    dice, _, _ = rules.inputs(0, games, seed, "greedy", 1)
    greedy = rules.policy("greedy", doc)
    per: dict[int, list[float]] = {}
    for g in range(games):
        for t, w in decision_weights(rules.new_state(doc), dice[g], greedy, rollouts, seed * 1000 + g):
            per.setdefault(t, []).append(w)
    top = max((max(v) for v in per.values()), default=0) or 1
    return [{"turn": t + 1, "mean": float(np.mean(v)), "decisions": len(v), "bar": float(np.mean(v)) / top}
            for t, v in sorted(per.items())]


def weight_plot(rows: list[dict], w: float = 420, h: float = 80) -> Markup:
    """Mean decision weight per turn as inline SVG bars."""
    top = max(r["mean"] for r in rows) or 1
    bw = w / max(r["turn"] for r in rows)
    bars = "".join(f'<rect x="{(r["turn"] - 1) * bw + 0.5:.2f}" y="{h - 12 - r["mean"] / top * (h - 18):.2f}" '
                   f'width="{bw - 1:.2f}" height="{r["mean"] / top * (h - 18):.2f}" fill="#555"/>'
                   f'<text x="{(r["turn"] - 0.5) * bw:.2f}" y="{h - 2}" font-size="6.5" text-anchor="middle">'
                   f'{r["turn"]}</text>' for r in rows)
    return Markup(f'<svg width="{w}" height="{h}" viewBox="0 0 {w} {h}">{bars}'
                  f'<text x="0" y="7" font-size="7">{top:.1f} points</text>'
                  f'<line x1="0" y1="{h - 12}" x2="{w}" y2="{h - 12}" stroke="#000" stroke-width="0.5"/></svg>')


def mechanic_games(report: Report) -> int:
    """Games per player of the mechanic check: as many as the validation played, at most
    MECHANIC_GAMES (a quick `--games 200` check stays quick; its bounds are wider)."""
    return min(report.games, MECHANIC_GAMES)


def figures(loaded, report: Report, seed: int) -> None:
    """The figures beyond the playouts, per sheet (`SheetReport.figures`, in its JSON too): the
    luck share and the mechanic check."""
    rules = rules_of(loaded)
    docs = {n: doc for n, _, doc in sheets_of(loaded, rules)}
    played = tuple(p for p in report.policies if p in POLICIES) or POLICIES  # lookahead: too slow here
    for s in report.sheets:
        doc = docs[s.number]
        s.figures = {"luck": luck(rules, doc, seed),
                     "mechanics": sheet_mechanics(loaded.kind.rules, rules, doc, seed, mechanic_games(report),
                                                  policies=played)}


def _mechanic_rows(rows: list[dict] | None) -> tuple[list[dict], list[dict]]:
    """The mechanic check as table rows, and one footnote per reason the model refused a
    switched-off sheet that was played all the same (with the mechanics it covers)."""
    out, notes = [], []
    for r in rows or []:
        note = None
        if r["model"] != "accepted" and r["played"]:
            why = r["refused"].replace("content: Value error, ", "")
            found = next((n for n in notes if n["why"] == why), None)
            if not found:
                found = {"why": why, "names": []}
                notes.append(found)
            found["names"].append(r["name"])
            note = notes.index(found) + 1
        cells = [{"score": f"{v['score']:+.1f} ±{v['score95']:.1f}", "reach": f"{v['reach']:+.1f} ±{v['reach95']:.1f}"}
                 for v in r["policies"].values()]
        out.append({**r, "note": note, "cells": cells})
    return out, notes


def sheet_view(s: SheetReport, report: Report, extra: dict) -> dict:
    rows = []
    lo = min(min(t.score) for t in s.policies.values())
    hi = max(max(t.score) for t in s.policies.values())
    for p, t in s.policies.items():
        st = stats(t.score)
        rows.append({"policy": p, **{k: st[k] for k in ("mean", "std", "p10", "p50", "p90", "max")},
                     "skill": s.skill(p), "plot": histogram(t.score, lo, hi)})
    counts = s.reached_counts()
    rare = []
    for e, c in zip(s.elements, counts):
        if c / s.games < RARE:
            low, high = wilson(int(c), s.games)
            rare.append({"id": e, "rate": c / s.games, "low": low, "high": high})
    sections = [{"name": k, **v} for k, v in s.sections().items()]
    stuck = [{"policy": p, "batch": b, "game": g} for p, t in s.policies.items() for b, g in t.stuck_at]
    return {"number": s.number, "label": s.label, "faults": s.faults, "rows": rows, "rare": rare,
            "sections": sections, "short": [x for x in sections if x["most"] is not None and x["most"] < x["size"]],
            "stuck": stuck, **extra}


def append_pdf(first: bytes, then: bytes) -> bytes:
    """One PDF: the report's pages, then the heatmap's (its metadata kept from the first)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(first)))
    writer.append(PdfReader(io.BytesIO(then)), import_outline=False)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def report_document(layout: str, games: int = 20_000, seed: int = 0, out: Path | None = None,
                    as_html: bool = False, lookahead_games: int = 0, workers: int | None = None) -> Path:
    """Play the sheet, write the report; returns the path written."""
    loaded = load(layout, Options())
    rules = rules_of(loaded)
    path = Path(out or f"{loaded.name}-report.{'html' if as_html else 'pdf'}")
    check_target(path)  # before any games are played
    report = run(loaded, games, seed, POLICIES, "fast", workers)
    figures(loaded, report, seed)
    docs = {n: doc for n, _, doc in sheets_of(loaded, rules)}
    sheets = []
    for s in report.sheets:
        doc = docs[s.number]
        turns = weights(rules, doc, min(lookahead_games, 4), seed)
        mechanics, notes = _mechanic_rows(s.figures["mechanics"])
        sheets.append(sheet_view(s, report, {"luck": s.figures["luck"],
                                             "ladder": ladder_top(rules, doc, lookahead_games, seed),
                                             "weights": turns, "weight_plot": weight_plot(turns) if turns else None,
                                             "mechanics": mechanics, "mechanic_notes": notes}))
    heat, _ = (None, None) if as_html else heatmap_pages(loaded, report)
    html = render_html("report.html.j2", report=report, sheets=sheets, rare=RARE, luck_dice=LUCK_DICE,
                       luck_repeats=LUCK_REPEATS, title=loaded.doc.title, as_html=as_html,
                       heat_pages=len(PdfReader(io.BytesIO(heat)).pages) if heat else 0,
                       check=dict(games=mechanic_games(report), share=100 * SCORE_SHARE, reach=REACH_PP))
    data = html.encode() if as_html else append_pdf(pdf_from_html(html), heat)
    write_atomic(path, data)
    return path
