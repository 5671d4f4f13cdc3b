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
    typer.echo(str(built))


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
def variant(game: str = typer.Argument(..., help="tricky-treats, haunt-the-block or boogaloo"),
            seed: int = typer.Option(..., "--seed", min=0, help="the variant's seed"),
            count: int = typer.Option(1, "--count", min=1, max=1000, help="variants for seeds S, S+1, …"),
            band: float = typer.Option(0.15, "--band", min=0.0, max=1.0,
                                       help="accepted greedy mean: within this fraction of the shipped sheet's"),
            games: int = typer.Option(2000, "--games", min=50, help="playouts per policy for each candidate"),
            workers: int = typer.Option(0, "--workers", min=0, help="processes (0: all cores)"),
            out: Path = typer.Option(Path("output/variants"), "--out", help="output folder")):
    """Generate seeded custom sheets; only those the validator passes are written."""
    import os

    from rich.console import Console
    from rich.progress import Progress

    from . import variant as v

    settings = v.Settings(band=band, games=games)
    seeds = list(range(seed, seed + count))
    t0 = time.perf_counter()
    results = []
    with Progress(console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(f"variants of {game}", total=count)
        for r in v.make_many(game, seeds, out, settings, workers or os.cpu_count() or 1,
                             progress=lambda: bar.advance(task)):
            results.append(r)
    accepted = [r for r in results if not isinstance(r, str)]
    for r in results:
        if isinstance(r, str):
            typer.echo(f"rejected: {r}", err=True)
        else:
            typer.echo(f"{r.yaml_path}  id {r.variant_id}  seed {r.seed}  candidates {r.tried}  "
                       f"greedy mean {r.mean:.1f} (shipped {r.baseline:.1f})  pdf {r.pdf_path}")
    tried = sum(r.tried for r in accepted)
    typer.echo(f"{len(accepted)}/{count} variants accepted, {tried} candidates tried for them, "
               f"{time.perf_counter() - t0:.1f} s")
    if len(accepted) < count:
        raise typer.Exit(1)


class Policy(str, Enum):
    random = "random"
    greedy = "greedy"
    lookahead = "lookahead"
    cover = "cover"
    all = "all"
    ladder = "ladder"


class Engine(str, Enum):
    fast = "fast"
    reference = "reference"


@app.command()
@friendly
def validate(layout: str = typer.Argument(..., help="a roll-and-write layout (see 'list') or a path"),
             games: int = typer.Option(10_000, "--games", min=1, max=100_000_000,
                                       help="games per policy (and per sheet)"),
             seed: int = typer.Option(0, "--seed", min=0, help="same seed, same report"),
             policy: Policy = typer.Option(Policy.all, "--policy", help="which players to simulate: all = random, greedy, cover; ladder adds lookahead "
                                                "(slow: the reference engine plays it)"),
             engine: Engine = typer.Option(Engine.fast, "--engine", help="fast (numpy or compiled) or reference"),
             workers: Optional[int] = typer.Option(None, "--workers", min=1, help="processes (default: all cores)"),
             as_json: bool = typer.Option(False, "--json", help="machine-readable report on stdout"),
             heatmap: Optional[Path] = typer.Option(None, "--heatmap", help="PDF of the sheet shaded by reach"),
             sheet: Optional[int] = typer.Option(None, "--sheet", min=1, help="one sheet of several"),
             paper: Optional[Paper] = PaperOpt):
    """Play a roll-and-write sheet many times: exit 0 if completable, 1 if not, 2 on bad input."""
    from .validate.command import validate as run_validate

    raise typer.Exit(run_validate(layout, games, seed, policy.value, engine.value, workers, as_json,
                                  heatmap, sheet, paper.value if paper else None))


@app.command()
@friendly
def report(layout: str = typer.Argument(..., help="a roll-and-write layout (see 'list') or a path"),
           games: int = typer.Option(20_000, "--games", min=50, max=10_000_000, help="games per player and sheet"),
           seed: int = typer.Option(0, "--seed", min=0, help="same seed, same bytes"),
           out: Optional[Path] = typer.Option(None, "--out", help="file to write (default LAYOUT-report.pdf)"),
           as_html: bool = typer.Option(False, "--html", help="write HTML instead of PDF"),
           lookahead: int = typer.Option(0, "--lookahead", min=0, help="games of lookahead against greedy (slow)"),
           workers: Optional[int] = typer.Option(None, "--workers", min=1, help="processes (default: all cores)")):
    """The designer's balance report of a roll-and-write sheet (PDF, or HTML with --html)."""
    from .validate.document import report_document

    typer.echo(f"wrote {report_document(layout, games, seed, out, as_html, lookahead, workers)}")


@app.command()
@friendly
def kit(product: str = typer.Argument(..., help="a product, e.g. rollers (a wrong name lists them)"),
        paper: Paper = typer.Option(Paper.a4, "--paper", help="a4 or letter"),
        copies: int = typer.Option(1, "--copies", min=1, max=50,
                                   help="copies of the sheets written on in play"),
        out: Optional[Path] = typer.Option(None, "--out", help="output PDF path")):
    """One print-and-play PDF for a product: cover, contents, rules booklet and every component."""
    from . import kit as kits

    built = kits.write(product, out, paper.value, copies)
    typer.echo(str(built))


@app.command()
@friendly
def schema():
    """Print the JSON Schema of layout files."""
    typer.echo(api.schema())


def main() -> None:  # pragma: no cover
    app()
