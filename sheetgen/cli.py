"""The `sheetgen` command line: a thin layer over `sheetgen.api`."""

from __future__ import annotations

import functools
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from . import api
from .errors import SheetgenError
from .kinds import Options

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Print-and-play game material from YAML layouts, checked by simulation.")


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def friendly(fn):
    """Turn a SheetgenError into one line on stderr and exit status 2."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SheetgenError as exc:
            typer.echo(f"sheetgen: error: {exc}", err=True)
            raise typer.Exit(2) from None
    return wrapper


PaperOpt = typer.Option(None, "--paper", help="a4 or letter (default: the layout's)")
CopiesOpt = typer.Option(1, "--copies", min=1, max=500, help="how many copies")


@app.command("list")
@friendly
def list_cmd():
    """The layouts sheetgen knows, each with a one-line description."""
    rows = api.listing()
    width = max(len(r[0]) for r in rows)
    for name, kind, desc in rows:
        typer.echo(f"{name:<{width}}  {desc}")


@app.command()
@friendly
def render(layout: str = typer.Argument(..., help="a layout name (see 'list') or a path"),
           out: Optional[Path] = typer.Option(None, "--out", help="output PDF path"),
           paper: Optional[Paper] = PaperOpt,
           copies: int = CopiesOpt,
           per_page: Optional[int] = typer.Option(None, "--per-page", help="sheets per page: 1, 2 or 4"),
           ink_saver: Optional[bool] = typer.Option(None, "--ink-saver/--colour",
                                                    help="outlines instead of colour fills"),
           sheet: Optional[int] = typer.Option(None, "--sheet", min=1, help="one sheet of several"),
           game: Optional[str] = typer.Option(None, "--game", help="one game's rules cards"),
           bleed: Optional[float] = typer.Option(None, "--bleed", min=0, max=6, help="card bleed, mm"),
           back_offset: str = typer.Option("0,0", "--back-offset", help="X,Y mm shift of card backs"),
           no_backs: bool = typer.Option(False, "--no-backs", help="fronts only")):
    """Render one layout to PDF."""
    if per_page not in (None, 1, 2, 4):
        raise SheetgenError(f"--per-page {per_page} is not allowed", fix="use 1, 2 or 4")
    try:
        bx, by = (float(v) for v in back_offset.split(","))
    except ValueError:
        raise SheetgenError(f"--back-offset '{back_offset}' is not X,Y", fix="write e.g. 0.5,-0.3") from None
    opts = Options(paper=paper.value if paper else None, copies=copies, per_page=per_page,
                   ink_saver=ink_saver, sheet=sheet, game=game, bleed=bleed,
                   back_offset=(bx, by), backs=not no_backs)
    built = api.render(layout, out, opts)
    typer.echo(f"wrote {built.path} ({built.pages} pages, {built.bytes / 1024:.0f} KiB)")


@app.command()
@friendly
def build(out: Path = typer.Option(Path("output"), "--out", help="output folder")):
    """Write every component PDF (and every kit) into output/."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    jobs = api.build_jobs(out)
    results = []
    t0 = time.perf_counter()
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("building", total=len(jobs))
        for label, job in jobs:
            bar.update(task, description=label)
            results.append(job())
            bar.advance(task)
    table = Table(title=f"sheetgen build: {len(results)} files in {time.perf_counter() - t0:.1f} s")
    for col in ("file", "pages", "KiB", "seconds"):
        table.add_column(col, justify="left" if col == "file" else "right")
    for r in results:
        table.add_row(str(r.path), str(r.pages), f"{r.bytes / 1024:.0f}", f"{r.seconds:.2f}")
    Console().print(table)


@app.command()
@friendly
def schema():
    """Print the JSON Schema of layout files."""
    typer.echo(api.schema())


def main() -> None:  # pragma: no cover
    app()
