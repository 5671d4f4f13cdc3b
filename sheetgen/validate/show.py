"""The validator's report for people: rich tables on the console."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .report import Report, SheetReport, groups, stats


def percent(f: float) -> str:
    """A share of games as a short percentage: 0 only when never, 100 only when always."""
    if f == 0:
        return "0"
    if f == 1:
        return "100"
    p = f * 100
    return "<1" if p < 1 else ">99" if p > 99 else f"{p:.0f}"


def _scores(s: SheetReport) -> Table:
    varies = any(len(t.turns) > 1 for t in s.policies.values())
    t = Table(title="Score per policy; penalties (or lost turns) and unused powers per game", title_justify="left",
              show_edge=False)
    for col in ("policy", "mean", "std", "min", "p10", "p50", "p90", "max", "penalties",
                "unused powers") + (("turns",) if varies else ()):
        t.add_column(col, justify="left" if col == "policy" else "right")
    for p, tally in s.policies.items():
        st = stats(tally.score)
        row = [p] + [f"{st[k]:.1f}" if k in ("mean", "std") else f"{st[k]:g}"
                     for k in ("mean", "std", "min", "p10", "p50", "p90", "max")]
        row += [f"{tally.penalties / tally.games:.2f}", f"{tally.unused / tally.games:.2f}"]
        if varies:
            row.append(f"{min(tally.turns)}-{max(tally.turns)}")
        t.add_row(*row)
    return t


def _coverage(s: SheetReport) -> Table:
    frac = list(s.fractions().values())
    t = Table(show_edge=False, show_header=False)
    t.add_column("group", style="bold", no_wrap=True)
    t.add_column("elements")
    for head, items in groups(s.elements):
        line = Text()
        for n, (last, i) in enumerate(items):
            if n:
                line.append("  ")
            line.append(f"{last}:", style="dim")
            line.append(percent(frac[i]), style="bold red" if frac[i] == 0 else "")
        t.add_row(head, line)
    return t


def show(report: Report, console: Console | None = None) -> None:
    console = console or Console()
    played = report.games * len(report.policies) * len(report.sheets)
    rate = played / report.seconds if report.seconds else 0
    console.print(f"[bold]{report.layout}[/] ({report.file}) · {report.game} rules", highlight=False)
    console.print(f"{report.games:,} games a policy, seed {report.seed}, {report.engine} engine, "
                  f"{report.workers} worker{'s' if report.workers > 1 else ''}: {report.seconds:.1f} s, "
                  f"{rate:,.0f} games/s", highlight=False)
    for s in report.sheets:
        console.print()
        if len(report.sheets) > 1 or s.label:
            console.rule(f"Sheet {s.number}" + (f": {s.label}" if s.label else ""))
        console.print(_scores(s))
        console.print()
        console.print(f"How often each of the {len(s.elements)} elements is reached (% of games, all policies)",
                      style="italic", highlight=False)
        console.print(_coverage(s))
        short = [f"{name} {v['most']} of {v['size']}" for name, v in s.sections().items()
                 if v["most"] is not None and v["most"] < v["size"]]
        if short:
            console.print(f"Sections no game filled (the most one game filled; where a section is a choice "
                          f"of alternatives, one is all): {', '.join(short)}",
                          style="italic", highlight=False)
        for note in s.notes:
            console.print(f"note: {note}", style="yellow", highlight=False)
    console.print()
    if report.completable:
        console.print("[bold green]COMPLETABLE[/]: every element reached, every roll had a legal move, "
                      "every game ended when the rules say", highlight=False)
    else:
        console.print("[bold red]NOT COMPLETABLE[/]", highlight=False)
        for f in report.faults:
            console.print(f"  - {f}", highlight=False)
        for s in report.sheets:  # the elements at fault, every one of them
            if s.unreached:
                where = f"sheet {s.number} " if len(report.sheets) > 1 else ""
                console.print(f"  {where}never reached: {' '.join(s.unreached)}", highlight=False)
