"""`sheetgen validate LAYOUT`: play the sheet, print the report, draw the heatmap, give the exit code."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..errors import SheetgenError
from ..kinds import Options, load
from .engine import LADDER, POLICIES
from .run import run
from .show import show


def validate(layout: str, games: int = 10_000, seed: int = 0, policy: str = "all", engine: str = "fast",
             workers: int | None = None, as_json: bool = False, heatmap: Path | None = None,
             sheet: int | None = None, paper: str | None = None) -> int:
    """Run the validator as the command does; returns the exit status (0 completable, 1 not).
    Bad input raises SheetgenError (the command prints it and exits 2)."""
    if heatmap and heatmap.is_dir():
        raise SheetgenError(f"--heatmap {heatmap} is a folder", fix="give a file name such as heatmap.pdf")
    loaded = load(layout, Options(paper=paper))
    policies = POLICIES if policy == "all" else LADDER if policy == "ladder" else (policy,)
    err = Console(stderr=True)
    from ..jit import notice

    if line := notice(loaded.kind.rules, engine):
        err.print(line, highlight=False, soft_wrap=True)
    with Progress(TextColumn("playing {task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                  TimeRemainingColumn(), console=err, transient=True, auto_refresh=False,
                  disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(loaded.name, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, refresh=True)

        report = run(loaded, games, seed, policies, engine, workers, progress, sheet)
    if heatmap:
        from .heatmap import write_heatmap

        try:
            path, missing = write_heatmap(loaded, report, heatmap)
        except OSError as exc:
            raise SheetgenError(f"cannot write the heatmap: {exc.strerror or exc}", file=str(heatmap),
                                fix="choose a path you can write to") from None
        except SheetgenError as exc:  # the output writer's one-line error
            raise SheetgenError(f"cannot write the heatmap: {exc.message}", file=exc.file,
                                fix=exc.fix) from None
        err.print(f"wrote heatmap {path}", highlight=False)
        if missing:
            err.print(f"warning: {len(missing)} elements have no box, circle or icon on the sheet to shade: "
                      f"{', '.join(missing[:8])}{' …' if len(missing) > 8 else ''}", style="yellow",
                      highlight=False)
    if as_json:
        from .document import figures

        figures(loaded, report, seed)  # luck and the mechanic check, as the report document has them
        print(report.to_json())
    else:
        show(report)
    return 0 if report.completable else 1
