"""What `sheetgen search` writes: the kept variants (layout YAML + PDF), every candidate's figures
(CSV and JSON) and a report PDF with a plot of the candidates (the kept ones marked).

Nothing here holds a timing or a worker count, so one seed gives the same bytes on any backend.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from .layout import to_yaml
from .output import write_atomic
from .paper import page_size
from .scene import Box, Circle, Line, Page, Style, Text
from .search import Candidate, Figures, Search

FIGS = ("games", "mean", "mean_ci", "spread", "spread_ci", "gap", "gap_ci", "turns")


def _figs(prefix: str, f: Figures | None) -> dict:
    row = f.row() if f else {}
    return {f"{prefix}{k}": row.get(k, "") for k in FIGS}


def row(s: Search, c: Candidate) -> dict:
    out = {"index": c.index, "id": c.id, "rejected": c.rejected, "rung": c.rung + 1,
           **{f"param.{k}": v for k, v in c.params.items()}, **_figs("", c.fig),
           "loss": round(c.loss, 4) if math.isfinite(c.loss) else "",
           "finalist": c.final is not None, **_figs("final.", c.final),
           "final.loss": round(c.final_loss, 4) if math.isfinite(c.final_loss) else "",
           "completable": "" if c.completable is None else c.completable,
           "faults": "; ".join(c.faults), "kept": c.kept}
    return out


def summary(s: Search) -> dict:
    per = len(s.policies)
    planned, full = s.plan.games(per), s.plan.games(per, halving=False)
    shift = {k: (None if v is None else round(v, 4)) for k in ("mean", "spread", "skill_gap")
             for v in [s.shift(k)]}
    return {"game": s.game, "seed": s.seed, "command": s.command, "plan": dict(s.plan.__dict__),
            "targets": [str(t) for t in s.targets],
            "space": [dict(p.__dict__, range=list(s.ranges.get(p.name, (p.low, p.high)))) for p in s.space],
            "policies": list(s.policies), "rungs": s.rungs, "games_played": s.played,
            "games_planned": planned, "games_without_halving": full,
            "rejected_by_model": sum(c.rejected.startswith("model") for c in s.candidates),
            "cut_by_screen": sum(c.rejected.startswith("screen") for c in s.candidates),
            "shipped": s.shipped.fig.row() if s.shipped.fig else None,
            "rescore_shift": shift, "stopped": s.stopped,
            "kept": [{"index": c.index, "id": c.id, "selection": c.fig.row(), "rescored": c.final.row(),
                      "in_targets": c.final_loss <= 1} for c in s.kept]}


def write_all(s: Search, out: Path) -> list[Path]:
    """Every file of the search into `out`; returns the paths written."""
    from .variant import write

    out.mkdir(parents=True, exist_ok=True)
    rows = [row(s, c) for c in s.candidates]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]) if rows else ["index"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    paths = [write_atomic(out / "candidates.csv", buf.getvalue())]
    doc = {**summary(s), "candidates": rows}
    paths.append(write_atomic(out / "search.json", json.dumps(doc, indent=1) + "\n"))
    for c in s.kept:
        head = (f"# Kept by: {s.command}\n# candidate {c.index}; re-scored on {c.final.games:,} fresh games: "
                f"{fig_text(c.final)}\n# selection figures ({c.fig.games:,} games): {fig_text(c.fig)}\n")
        text = head + to_yaml(c.data)
        paths += write(text, out, f"{s.game}-{s.seed}-c{c.index}")
    from .draw import write_pdf

    paths.append(write_pdf([report_page(s)], out / "report.pdf", f"sheetgen search {s.game} (seed {s.seed})"))
    return paths


def fig_text(f: Figures) -> str:
    text = f"greedy mean {f.mean:.2f} ± {f.mean_ci:.2f}, spread {f.spread:.2f} ± {f.spread_ci:.2f}"
    if f.gap is not None:
        text += f", skill gap (greedy - random) {f.gap:.2f} ± {f.gap_ci:.2f}"
    return text


# ----- the report page ----------------------------------------------------------------------------

def _step(lo: float, hi: float) -> float:
    raw = (hi - lo) / 6 or 1
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)


def report_page(s: Search) -> Page:
    W, H = page_size("a4", "landscape")
    m = 12.0
    p = Page(W, H, label="search report")
    y = m + 6
    p.add(Text(m, y, f"sheetgen search {s.game} · seed {s.seed}", 14, bold=True))
    sm = summary(s)
    lines = [f"Command: {s.command}",
             f"Targets: {', '.join(t.words() for t in s.targets)}; completable always. Candidates: {s.plan.candidates} "
             f"({sm['rejected_by_model']} refused by the layout model, {sm['cut_by_screen']} cut by the reach screen).",
             f"Games played: {s.played:,} (plan {sm['games_planned']:,}; every candidate played "
             f"{s.plan.most:,} games would be {sm['games_without_halving']:,}: successive halving saved "
             f"{1 - sm['games_planned'] / sm['games_without_halving']:.0%}).",
             "Re-score shift (fresh dice - selection, mean over finalists): "
             + ", ".join(f"{k} {v:+.2f}" for k, v in sm["rescore_shift"].items() if v is not None)]
    if s.stopped:
        lines.append(f"Stopped early: {s.stopped}.")
    for t in lines:
        y += 5.5
        p.add(Text(m, y, t, 8))
    gap = any(t.name == "skill_gap" for t in s.targets)
    plot_y, plot_h = y + 8, H - y - 8 - m - 16
    p.add(*plot(s, m + 14, plot_y, W * 0.55, plot_h, "skill_gap" if gap else "spread"))
    tx = m + 14 + W * 0.55 + 10
    ty = plot_y + 2
    p.add(Text(tx, ty, "Kept variants (re-scored, 95 % intervals)", 9, bold=True))
    for n, c in enumerate(s.kept, 1):
        f = c.final
        rows = [f"{n}. candidate {c.index} · id {c.id}{'' if c.final_loss <= 1 else ' (outside a target)'}",
                f"   mean {f.mean:.2f} ± {f.mean_ci:.2f}  (selection {c.fig.mean:.2f})",
                f"   spread {f.spread:.2f} ± {f.spread_ci:.2f}  (selection {c.fig.spread:.2f})"]
        if f.gap is not None:
            rows.append(f"   skill gap {f.gap:.2f} ± {f.gap_ci:.2f}"
                        + (f"  (selection {c.fig.gap:.2f})" if c.fig.gap is not None else ""))
        for t in rows:
            ty += 4.6
            p.add(Text(tx, ty, t, 7.5))
        ty += 2
    if not s.kept:
        p.add(Text(tx, ty + 5, "none: no finalist was completable" if s.finalists else "none", 7.5))
    ty += 8
    for t in ("Shipped sheet: diamond", "Candidates (at the last rung they played): dots",
              "Cut by a fault or the reach screen: crosses",
              "Finalists: squares", "Kept: filled triangles, numbered, with 95 % bars",
              "Targets: dashed lines"):
        p.add(Text(tx, ty, t, 7))
        ty += 4
    return p


def plot(s: Search, x0: float, y0: float, w: float, h: float, ykey: str) -> list:
    """Mean (x) against spread or skill gap (y); shapes, not colours, tell the kinds of point."""
    pts = [(c, c.fig) for c in s.candidates if c.fig is not None]
    kept = [(c, c.final) for c in s.kept]
    shipped = s.shipped.fig
    vals = [(f.mean, f.value(ykey)) for _, f in pts + kept if f.value(ykey) is not None]
    if shipped and shipped.value(ykey) is not None:
        vals.append((shipped.mean, shipped.value(ykey)))
    if not vals:
        return [Text(x0, y0 + 10, f"no candidate has a {ykey} figure yet", 8)]
    xs, ys = [v[0] for v in vals], [v[1] for v in vals]
    xlo, xhi, ylo, yhi = min(xs), max(xs), min(ys), max(ys)
    for t in s.targets:
        if t.name in ("mean", ykey):
            for v in (t.lo, t.hi):
                if v is not None:
                    if t.name == "mean":
                        xlo, xhi = min(xlo, v), max(xhi, v)
                    else:
                        ylo, yhi = min(ylo, v), max(yhi, v)
    padx, pady = (xhi - xlo) * 0.05 or 1, (yhi - ylo) * 0.05 or 1
    xlo, xhi, ylo, yhi = xlo - padx, xhi + padx, ylo - pady, yhi + pady

    def X(v):
        return x0 + (v - xlo) / (xhi - xlo) * w

    def Y(v):
        return y0 + h - (v - ylo) / (yhi - ylo) * h

    thin, grey = Style(width=0.2), Style(stroke="#777777", width=0.2)
    out: list = [Box(x0, y0, w, h, Style(width=0.3), id="plot.frame")]
    for axis, lo, hi in (("x", xlo, xhi), ("y", ylo, yhi)):
        step = _step(lo, hi)
        v = math.ceil(lo / step) * step
        while v <= hi:
            if axis == "x":
                out += [Line(((X(v), y0 + h), (X(v), y0 + h + 1.5)), thin),
                        Text(X(v), y0 + h + 5, f"{v:g}", 7, align="center")]
            else:
                out += [Line(((x0 - 1.5, Y(v)), (x0, Y(v))), thin), Text(x0 - 2.5, Y(v) + 1, f"{v:g}", 7, align="right")]
            v = round(v + step, 10)
    ylabel = {"spread": "spread (standard deviation of the greedy score)",
              "skill_gap": "skill gap (greedy - random mean)"}[ykey]
    out += [Text(x0 + w / 2, y0 + h + 10, "greedy mean score", 8, align="center"),
            Text(x0, y0 - 2, ylabel, 8)]
    dash = Style(stroke="#000000", width=0.25, dash=(1.5, 1.5))
    for t in s.targets:
        for v in (t.lo, t.hi):
            if v is None:
                continue
            if t.name == "mean":
                out.append(Line(((X(v), y0), (X(v), y0 + h)), dash, id="plot.target"))
            elif t.name == ykey:
                out.append(Line(((x0, Y(v)), (x0 + w, Y(v))), dash, id="plot.target"))
    for c, f in pts:
        if f.value(ykey) is None:
            continue
        if c.final is not None:
            out.append(Box(X(f.mean) - 1.1, Y(f.value(ykey)) - 1.1, 2.2, 2.2, Style(width=0.25), id="plot.finalist"))
        elif c.rejected:
            cx, cy, d = X(f.mean), Y(f.value(ykey)), 0.6
            out += [Line(((cx - d, cy - d), (cx + d, cy + d)), grey, id="plot.cut"),
                    Line(((cx - d, cy + d), (cx + d, cy - d)), grey)]
        else:
            out.append(Circle(X(f.mean), Y(f.value(ykey)), 0.45, Style(stroke=None, fill="#9a9a9a"), id="plot.candidate"))
    if shipped and shipped.value(ykey) is not None:
        cx, cy = X(shipped.mean), Y(shipped.value(ykey))
        out.append(Line(((cx, cy - 2), (cx + 2, cy), (cx, cy + 2), (cx - 2, cy)), Style(width=0.4), closed=True,
                        id="plot.shipped"))
    labels: list[tuple[float, float]] = []  # where kept numbers went, so that none covers another
    for n, (c, f) in enumerate(kept, 1):
        if f.value(ykey) is None:
            continue
        cx, cy = X(f.mean), Y(f.value(ykey))
        lx, ly = cx + 2.2, cy - 1.2
        while any(abs(lx - a) < 3 and abs(ly - b) < 2.8 for a, b in labels):
            ly += 2.8
        labels.append((lx, ly))
        ci = f.mean_ci
        yci = f.spread_ci if ykey == "spread" else f.gap_ci
        out += [Line(((X(f.mean - ci), cy), (X(f.mean + ci), cy)), grey),
                Line(((cx, Y(f.value(ykey) - yci)), (cx, Y(f.value(ykey) + yci))), grey),
                Line(((cx, cy - 1.8), (cx + 1.6, cy + 1), (cx - 1.6, cy + 1)), Style(stroke=None, fill="#000000"),
                     closed=True, id="plot.kept"),
                Text(lx, ly, str(n), 7, bold=True)]
    return out
