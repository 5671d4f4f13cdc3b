"""The `sheetgen` command line: a thin layer over `sheetgen.api`.

Every command takes `--layouts DIR` (repeatable; also before the command) and `-h`; bad input is
one line on stderr and exit status 2 (`friendly`); output that is not a terminal is not wrapped.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import signal
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from . import __version__, api, links, pools, resources
from .errors import SheetgenError
from .kinds import Options
from .output import on_stdout

WIDE = not sys.stdout.isatty()  # a pipe or a file: plain help, never wrapped at 80 columns

app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None if WIDE else "rich",
                  context_settings={"help_option_names": ["-h", "--help"],
                                    "max_content_width": 10_000 if WIDE else None,
                                    "terminal_width": 10_000 if WIDE else None},
                  help="Print-and-play game material from YAML layouts, checked by simulation.")
LayoutsOpt = typer.Option(None, "--layouts", metavar="DIR",
                          help="a folder of your layouts, searched first (repeatable)")


def console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, width=10_000 if WIDE and not stderr else None, soft_wrap=WIDE)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sheetgen {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(layouts: Optional[list[Path]] = LayoutsOpt,
                 version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                              help="print the version and exit")):
    """Print-and-play game material from YAML layouts, checked by simulation."""
    resources.add_layout_dirs(layouts)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the process is, so it unwinds like Ctrl-C (temporary files removed)."""


def _terminate(signum, frame):
    raise Terminated


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def friendly(fn):
    """Turn a SheetgenError (or a file-system fault) into one line on stderr and exit status 2,
    Ctrl-C and SIGTERM into exit 130 / 143 after cleaning up, a closed output pipe into a quiet
    exit 141; add the `--layouts` option."""
    @functools.wraps(fn)
    def wrapper(*args, layouts=None, **kwargs):
        resources.add_layout_dirs(layouts)
        signal.signal(signal.SIGTERM, _terminate)
        try:
            return fn(*args, **kwargs)
        except SheetgenError as exc:
            typer.echo(f"sheetgen: error: {exc}", err=True)
            raise typer.Exit(2) from None
        except BrokenPipeError:  # the reader stopped reading (`sheetgen list | head`): stop quietly,
            # as a Unix tool killed by SIGPIPE does (and write nothing more to the closed pipe)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(141) from None
        except OSError as exc:  # a path the system refuses (too long, a loop...)
            shown = str(exc.filename or "")[:80]
            typer.echo(f"sheetgen: error: {shown}{': ' if shown else ''}{exc.strerror or exc} "
                       "(fix: check the path)", err=True)
            raise typer.Exit(2) from None
        except MemoryError:
            typer.echo("sheetgen: error: out of memory (fix: give a smaller input)", err=True)
            raise typer.Exit(2) from None
        except KeyboardInterrupt as exc:
            typer.echo("sheetgen: interrupted", err=True)
            raise typer.Exit(143 if isinstance(exc, Terminated) else 130) from None

    sig = inspect.signature(fn)
    extra = inspect.Parameter("layouts", inspect.Parameter.KEYWORD_ONLY, default=LayoutsOpt,
                              annotation=Optional[list[Path]])
    wrapper.__signature__ = sig.replace(parameters=[*sig.parameters.values(), extra])
    wrapper.__annotations__ = {**getattr(fn, "__annotations__", {}), "layouts": Optional[list[Path]]}
    return wrapper


PaperOpt = typer.Option(None, "--paper", help="a4 or letter (default: the layout's)")
CopiesOpt = typer.Option(1, "--copies", min=1, max=500, help="how many copies")
BaseUrlOpt = typer.Option(None, "--base-url", help="QR codes link to each PDF's page at this "
                          "'sheetgen serve' address, e.g. http://192.168.1.20:8000")


@app.command("list")
@friendly
def list_cmd(as_json: bool = typer.Option(False, "--json", help="machine-readable rows on stdout")):
    """The layouts sheetgen finds (and where each comes from), then the kits."""
    from dataclasses import asdict

    rows = api.listing()
    if as_json:
        typer.echo(json.dumps([asdict(r) for r in rows], indent=2))
        return
    width = max(len(r.name) for r in rows)
    src = max(len(r.source) for r in rows)
    for r in rows:
        text = f"error: {r.error}" if r.error else r.description
        typer.echo(f"{r.name:<{width}}  {r.source:<{src}}  {text}")
    for f in resources.search_path():
        typer.echo(f"# {f.source}: {f.path.resolve()}", err=True)


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
           no_backs: bool = typer.Option(False, "--no-backs", help="fronts only"),
           tiles: bool = typer.Option(False, "--tiles", help="a poster (game mat) as tiles to glue"),
           poster: Optional[str] = typer.Option(None, "--poster", help="a poster as one page: a1, a2, a3"),
           fillable: bool = typer.Option(False, "--fillable", help="form fields to play on a screen"),
           print_shop: bool = typer.Option(False, "--print-shop", help="CMYK, PDF/X-4 boxes and intent"),
           pod: bool = typer.Option(False, "--print-on-demand",
                                    help="cards: one per page at trim + 3.175 mm bleed"),
           base_url: Optional[str] = BaseUrlOpt,
           as_json: bool = typer.Option(False, "--json", help="figures as JSON on stdout")):
    """Render one layout to PDF (--out - writes it to stdout)."""
    if per_page not in (None, 1, 2, 4):
        raise SheetgenError(f"--per-page {per_page} is not allowed", fix="use 1, 2 or 4")
    bx, by = parse_offset(back_offset)
    opts = Options(paper=paper.value if paper else None, copies=copies, per_page=per_page,
                   ink_saver=ink_saver, sheet=sheet, game=game, bleed=bleed,
                   back_offset=(bx, by), backs=not no_backs, base_url=base_url and links.base(base_url),
                   tiles=tiles, poster=poster, fillable=fillable, print_shop=print_shop, pod=pod)
    built = api.render(layout, out, opts)
    summary(built, as_json, to_stderr=on_stdout(out))


def parse_offset(text: str) -> tuple[float, float]:
    """--back-offset X,Y: finite millimetres within ±10 (more would push the backs off the card)."""
    import math

    try:
        bx, by = (float(v) for v in text.split(","))
    except ValueError:
        raise SheetgenError(f"--back-offset '{text}' is not X,Y", key="--back-offset",
                            fix="write e.g. 0.5,-0.3") from None
    if not all(math.isfinite(v) and abs(v) <= 10 for v in (bx, by)):
        raise SheetgenError(f"--back-offset '{text}' is out of range", key="--back-offset",
                            fix="give X,Y in mm between -10 and 10, e.g. 0.5,-0.3")
    return bx, by


def summary(built, as_json: bool, to_stderr: bool = False) -> None:
    """The one summary line of a written file (or JSON figures); on stderr when the PDF is on stdout."""
    if as_json:
        typer.echo(json.dumps({"path": str(built.path), "pages": built.pages, "bytes": built.bytes,
                               "seconds": round(built.seconds, 3)}), err=to_stderr)
    else:
        typer.echo(str(built), err=to_stderr)


@app.command()
@friendly
def build(out: Path = typer.Option(Path("output"), "--out", help="output folder"),
          force: bool = typer.Option(False, "--force", help="make every file again, ignoring the cache"),
          workers: int = typer.Option(0, "--workers", min=0, help="processes (0: all cores)"),
          base_url: Optional[str] = BaseUrlOpt,
          as_json: bool = typer.Option(False, "--json", help="figures as JSON on stdout")):
    """Write every component PDF (and every kit) into output/; unchanged ones are kept."""
    from . import build as builder
    from .output import check_folder

    check_folder(out, "build output")  # before any work
    t0 = time.perf_counter()
    results = builder.run(out, force, workers, base_url and links.base(base_url))
    seconds = time.perf_counter() - t0
    failed = [r for r in results if r.status == "failed"]
    if as_json:
        typer.echo(json.dumps({"seconds": round(seconds, 2), "files": [
            {"path": str(r.path), "pages": r.pages, "bytes": r.bytes, "seconds": round(r.seconds, 3),
             "status": r.status, **({"error": r.error} if r.error else {})} for r in results]}, indent=2))
    else:
        console().print(builder.table([r for r in results if r.status != "failed"], seconds))
    for r in failed:  # one line each; the rest was built
        typer.echo(f"sheetgen: error: {r.path.name}: {r.error}", err=True)
    if failed:
        raise typer.Exit(2)


@app.command()
@friendly
def new(name: str = typer.Argument(..., help="the new layout's name, e.g. my-treats"),
        parent: str = typer.Option(..., "--from", help="the layout it starts from (see 'list')"),
        out: Optional[Path] = typer.Option(None, "--out", help="file to write (default NAME.yaml)"),
        force: bool = typer.Option(False, "--force", help="replace an existing file")):
    """Start a layout of your own: NAME.yaml extends --from, its common keys listed, commented."""
    text = api.new_layout(name, parent)
    path = api.write_new(text, out or Path(f"{name}.yaml"), force)
    if not on_stdout(path):
        typer.echo(f"wrote {path}: render it with 'sheetgen render {path}'")


@app.command()
@friendly
def show(layout: str = typer.Argument(..., help="a layout name (see 'list') or a path"),
         resolved: bool = typer.Option(False, "--resolved", help="after following 'extends'"),
         out: Optional[Path] = typer.Option(None, "--out", help="write to a file instead of stdout"),
         force: bool = typer.Option(False, "--force", help="replace an existing --out file")):
    """Print a layout's YAML (--resolved: merged with what it extends)."""
    text = api.show(layout, resolved)
    if out is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        typer.echo(f"wrote {api.write_new(text, out, force)}", err=True)


@app.command()
@friendly
def variant(game: str = typer.Argument(..., help="tricky-treats, haunt-the-block or boogaloo"),
            seed: int = typer.Option(..., "--seed", min=0, help="the variant's seed"),
            count: int = typer.Option(1, "--count", min=1, max=1000, help="variants for seeds S, S+1, …"),
            band: float = typer.Option(0.15, "--band", min=0.0, max=1.0,
                                       help="accepted greedy mean: within this fraction of the shipped sheet's"),
            games: int = typer.Option(2000, "--games", min=50, help="playouts per policy for each candidate"),
            workers: int = typer.Option(0, "--workers", min=0, help="processes (0: all cores)"),
            out: Path = typer.Option(Path("output/variants"), "--out", help="output folder"),
            candidate: Optional[int] = typer.Option(None, "--candidate", min=0, max=999_999,
                                                    help="candidate N of `sheetgen search --seed SEED` instead"),
            param: list[str] = typer.Option([], "--param", help="with --candidate: the search's NAME=LO:HI")):
    """Generate seeded custom sheets; only those the validator passes are written."""
    from rich.console import Console
    from rich.progress import Progress

    from . import variant as v

    settings = v.Settings(band=band, games=games)
    if candidate is not None or param:
        return _drawn(game, seed, candidate, param, count, settings, workers, out)
    seeds = list(range(seed, seed + count))
    t0 = time.perf_counter()
    results = []
    with Progress(console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(f"variants of {game}", total=count)
        for r in v.make_many(game, seeds, out, settings, pools.count(workers),
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


def _drawn(game, seed, candidate, param, count, settings, workers, out):
    """`sheetgen variant --candidate`: one searched candidate, drawn alone and checked."""
    import importlib

    from . import variant as v
    from .output import check_folder

    if candidate is None or count != 1:
        raise SheetgenError("--param and --candidate go together, for one variant",
                            key="--candidate" if candidate is None else "--count",
                            fix="give the search's --candidate N (and leave out --count)")
    if settings.band != v.Settings.band:
        raise SheetgenError("--band does not apply to --candidate (the search chose that candidate)",
                            key="--band", fix="leave out --band")
    space = importlib.import_module(v._base(game)[1].kind.variant).SPACE
    ranges = v.parse_ranges(space, param, game)
    r = v.make_drawn(game, seed, candidate, check_folder(out, "variants folder"), ranges, settings,
                     pools.count(workers))
    typer.echo(f"{r.yaml_path}  id {r.variant_id}  search seed {seed} candidate {candidate}  "
               f"greedy mean {r.mean:.1f}  pdf {r.pdf_path}")


@app.command()
@friendly
def search(game: str = typer.Argument(..., help="tricky-treats, haunt-the-block or boogaloo"),
           seed: int = typer.Option(0, "--seed", min=0, help="the root seed: same seed, same search"),
           candidates: int = typer.Option(200, "--candidates", min=1, max=1_000_000, help="variants to draw"),
           keep: int = typer.Option(3, "--keep", min=1, help="variants to keep"),
           mean: Optional[str] = typer.Option(None, "--mean", help="greedy mean score LO:HI (default: shipped ±15 %)"),
           spread: Optional[str] = typer.Option(None, "--spread", help="standard deviation of the greedy score LO:HI"),
           skill_gap: Optional[str] = typer.Option(None, "--skill-gap", help="greedy - random mean score LO:HI"),
           length: Optional[str] = typer.Option(None, "--length", help="mean turns LO:HI, where the length varies"),
           param: list[str] = typer.Option([], "--param", help="NAME=LO:HI narrows a parameter (see --space)"),
           space: bool = typer.Option(False, "--space", help="list the game's parameters and ranges, then stop"),
           first: int = typer.Option(1000, "--first", help="games per candidate at the first rung"),
           most: int = typer.Option(32_000, "--most", help="games per candidate at the last rung"),
           eta: int = typer.Option(2, "--eta", help="keep 1/eta of the candidates at each rung"),
           rescore: int = typer.Option(20_000, "--rescore", help="fresh games per policy for each finalist"),
           budget: Optional[int] = typer.Option(None, "--budget", min=1, help="games the search may play at most"),
           workers: int = typer.Option(0, "--workers", min=0, help="local processes (0: all cores)"),
           scheduler: Optional[str] = typer.Option(None, "--scheduler", help="a Dask scheduler, tcp://HOST:8786"),
           out: Optional[Path] = typer.Option(None, "--out", help="output folder (default output/search/GAME-SEED)"),
           as_json: bool = typer.Option(False, "--json", help="the summary as JSON on stdout")):
    """Search many variants: common dice, successive halving, finalists re-scored on fresh dice."""
    from . import search as S
    from . import search_cli

    if space:
        typer.echo(search_cli.space_text(game))
        return
    plan = S.Plan(candidates, keep, first, eta, most, rescore)
    raise typer.Exit(search_cli.run(game, seed, plan, mean, spread, skill_gap, length, param, budget, workers,
                                    scheduler, out, as_json))


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
             games: Optional[int] = typer.Option(None, "--games", min=1, max=100_000_000,
                                                 help="games per policy (and per sheet, or per player "
                                                      "count on the game mat); default 10000, mat 2000"),
             seed: int = typer.Option(0, "--seed", min=0, help="same seed, same report"),
             policy: Policy = typer.Option(Policy.all, "--policy",
                                           help="which players to simulate: all = random, greedy, cover; "
                                                "ladder adds lookahead (slow: the reference engine plays it)"),
             engine: Optional[Engine] = typer.Option(None, "--engine",
                                                     help="fast (compiled, the default) or reference"),
             workers: Optional[int] = typer.Option(None, "--workers", min=1, help="processes (default: all cores)"),
             as_json: bool = typer.Option(False, "--json", help="machine-readable report on stdout"),
             heatmap: Optional[Path] = typer.Option(None, "--heatmap", help="PDF of the sheet shaded by reach"),
             sheet: Optional[int] = typer.Option(None, "--sheet", min=1, help="one sheet of several"),
             paper: Optional[Paper] = PaperOpt,
             players: Optional[str] = typer.Option(None, "--players", help="game mat: 2-6, 4 or 2,4,6"),
             race_rules: Optional[str] = typer.Option(None, "--race-rules", help="game mat: classic, challenge")):
    """Play a roll-and-write sheet many times: exit 0 if completable, 1 if not, 2 on bad input."""
    from .games.run_for_your_life import race_validate as race

    mat = race.is_race(layout)  # the game mat races meeples instead (a Python engine: fewer games)
    given = {"--players": players, "--race-rules": race_rules} if not mat else \
        {"--engine": engine, "--sheet": sheet, "--paper": paper}
    for flag, value in given.items():
        if value is not None:
            takes = "roll-and-write sheets" if mat else "the game mat (run-for-your-life-mat)"
            raise SheetgenError(f"{flag} does not apply to validating '{layout}'",
                                fix=f"drop {flag}; it applies to {takes}")
    if mat:
        raise typer.Exit(race.command(layout, games or 2_000, seed, policy.value, workers, as_json, heatmap, players,
                                      race_rules))
    from .validate.command import validate as run_validate

    raise typer.Exit(run_validate(layout, games or 10_000, seed, policy.value, (engine or Engine.fast).value,
                                  workers, as_json, heatmap, sheet, paper.value if paper else None))


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

    typer.echo(f"wrote {report_document(layout, games, seed, out, as_html, lookahead, workers)}",
               err=on_stdout(out))


@app.command()
@friendly
def kit(product: str = typer.Argument(..., help="a product, e.g. rollers (a wrong name lists them)"),
        paper: Paper = typer.Option(Paper.a4, "--paper", help="a4 or letter"),
        copies: int = typer.Option(1, "--copies", min=1, max=50,
                                   help="copies of the sheets written on in play"),
        out: Optional[Path] = typer.Option(None, "--out", help="output PDF path"),
        print_shop: bool = typer.Option(False, "--print-shop", help="CMYK, PDF/X-4 boxes and intent"),
        booklet: bool = typer.Option(False, "--booklet", help="only the rules, as a saddle-stitch booklet"),
        as_json: bool = typer.Option(False, "--json", help="figures as JSON on stdout")):
    """One print-and-play PDF for a product: cover, contents, rules booklet and every component."""
    from . import kit as kits

    if booklet:
        from .booklet import write as write_booklet

        if print_shop or copies > 1:
            raise SheetgenError("--booklet takes neither --print-shop nor --copies",
                                fix="make the booklet on its own")
        built = write_booklet(product, out, paper.value)
    else:
        built = kits.write(product, out, paper.value, copies, print_shop=print_shop)
    summary(built, as_json, to_stderr=on_stdout(out))


@app.command()
@friendly
def schema():
    """Print the JSON Schema of layout files."""
    typer.echo(api.schema())


from .web.command import serve as _serve  # noqa: E402  (its own module: the web is an extra)

app.command("serve")(friendly(_serve))


def main() -> None:
    """The `sheetgen` script and `python -m sheetgen`: a usage error is one line too, exit 2."""
    usage_error = typer.BadParameter.__mro__[1]  # click's UsageError (Typer vendors click)
    columns = os.environ.get("COLUMNS")
    if WIDE and columns is None:  # rich (reports, tables) wraps at 80 columns when not a terminal
        os.environ["COLUMNS"] = "1000"
    try:
        status = app(prog_name="sheetgen", standalone_mode=False)
    except usage_error as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `sheetgen`: the help, as click shows it
            typer.echo(exc.format_message(), err=True)
            sys.exit(2)
        where = exc.ctx.command_path if exc.ctx else "sheetgen"
        typer.echo(f"sheetgen: error: {' '.join(exc.format_message().split())} "
                   f"(fix: see '{where} -h')", err=True)
        status = 2
    except typer.Exit as exc:
        status = exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("sheetgen: interrupted", err=True)
        status = 130
    finally:
        if WIDE and columns is None:
            os.environ.pop("COLUMNS", None)
    sys.exit(status if isinstance(status, int) else 0)


GC_THRESHOLD = (50_000, 20, 20)  # the cycle collector's thresholds in the sheetgen script


def script() -> None:
    """The `sheetgen` script and `python -m sheetgen`: `main`, then the exit handlers and streams
    as at any exit, but not the interpreter's freeing of every object one by one (after a build
    that took a few tenths of a second, for memory the system takes back at once). Under a
    profiler, tracer or debugger (cProfile, coverage, pdb) the exit is the usual one.
    The cycle collector runs a fraction as often as Python's default (in forked workers too):
    composing and laying out pages make many short-lived objects, and collecting them that often
    cost about a sixth of a build's planning and a tenth of a kit front's layout."""
    import atexit
    import gc

    gc.set_threshold(*GC_THRESHOLD)
    if sys.getprofile() or sys.gettrace():
        main()  # it ends in SystemExit: the usual exit
        return
    try:
        main()
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    atexit._run_exitfuncs()  # what a normal exit runs first (temporary folders, pools, logging)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(status)
