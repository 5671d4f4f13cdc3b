"""`sheetgen build`: every component PDF and every kit, incremental and in parallel.

- Each output has a digest of what its bytes depend on: for a component, its title and pages
  (the scene, composed in a few ms); for a kit, its parts (their digests) and its front's inputs.
  Every digest also covers sheetgen's code, templates and fonts, the PDF libraries' versions and
  SOURCE_DATE_EPOCH. An output whose digest and file are unchanged is not made again.
- A manifest in the output folder (`.sheetgen-build.json`) records the digests, the files read
  and a stamp of them all: when the stamp holds and every output is intact, nothing is loaded.
- Component PDFs are drawn once per build, by digest, and the kits reuse them (the Letter layout
  files and the kits' Letter parts are the same pages); they and the kits' fronts (the slow
  WeasyPrint part) are kept by digest in `.sheetgen-cache/`, so a kit whose front did not change
  is only merged again.
- Each set of pages is composed once (kit.compose): the plan pickles it for its digest and the
  drawing job draws from that pickle. On a build from scratch the workers are forked at once and
  warm WeasyPrint up while this process plans. Kits are planned first, those with the most rules
  text (the longest fronts) first, and each front starts in a worker as soon as its kit is
  planned. The drawings are queued in the kits' order and each kit's merge as soon as its front
  and parts are made; this process runs the queue once it has planned, and hands the next job to
  a worker whenever one is idle. With one process (`--workers 1`) every job runs in this one.
  Jobs run here get copies of their arguments, as a worker does, so the same digests give the
  same bytes: a parallel, an incremental and a from-scratch build write identical files.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import shutil
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

from . import __version__, pools
from .errors import SheetgenError
from .output import write_atomic

MANIFEST = ".sheetgen-build.json"
CACHE = ".sheetgen-cache"
PACKAGE = Path(__file__).resolve().parent
LIBRARIES = ("reportlab", "rl_accel", "weasyprint", "pydyf", "pypdf", "fonttools", "qrcode",
             "pyphen", "uharfbuzz")  # hyphenation and shaping decide where rules columns are cut
CODE = (".py", ".ttf", ".otf", ".j2", ".css")  # layouts (.yaml) are inputs of their own outputs


@dataclass
class Output:
    name: str  # file name in the output folder
    digest: str
    spec: tuple = ()  # components: how to compose the pages again, in a worker
    kit: object = None  # kits: the kit.Kit, front not laid out yet
    front: str = ""  # kits: digest of what the front depends on (the parts but not their pages)
    pages: int = 0


@dataclass
class Result:
    path: Path
    pages: int
    bytes: int
    seconds: float  # CPU seconds of the jobs that made it (drawing; front layout and merge)
    status: str  # built | unchanged | failed
    error: str = ""  # failed: the one-line error


@dataclass
class Plan:
    outputs: list[Output] = field(default_factory=list)
    specs: dict[str, tuple] = field(default_factory=dict)  # part digest -> spec
    scenes: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # part digest -> title, pickled pages
    inputs: set[str] = field(default_factory=set)  # files read (layouts and what they extend)
    failed: dict[str, str] = field(default_factory=dict)  # output name -> its one-line error


def sha(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def _tree(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in CODE and p.is_file()
                  and "__pycache__" not in p.parts)


def code_digest() -> str:
    """sheetgen's files (code, fonts, templates), the versions of the libraries that write the
    bytes, and the date WeasyPrint writes."""
    from .documents import TEMPLATES

    files = _tree(PACKAGE) + (_tree(TEMPLATES) if TEMPLATES.is_dir() else [])
    versions = []
    for lib in LIBRARIES:
        try:
            versions.append(f"{lib}={metadata.version(lib)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{lib}=none")
    return sha(__version__, *versions, os.environ.get("SOURCE_DATE_EPOCH", ""),
               *(sha(p.relative_to(p.anchor), p.read_bytes()) for p in files))


def stamp(code: str, inputs: list[str]) -> str:
    """Everything a build reads: code, the known layouts and the files they are made from."""
    from .kinds import known_layouts

    known = [str(p) for p in known_layouts()]
    return sha(code, *known, *(sha(f, Path(f).read_bytes() if Path(f).is_file() else "missing")
                               for f in sorted(inputs)))


def file_sha(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _layout_pages(path: Path, base_url: str | None):
    """(Loaded, pages) of a layout file as shipped."""
    from .kinds import Options, load
    from .kit import compose

    loaded = load(path)
    return loaded, compose(loaded, Options(base_url=base_url))


def _pages(spec: tuple):
    """(title, pages) of a component: a layout file as shipped, or a part of a kit."""
    from . import kit

    if spec[0] == "layout":
        loaded, pages = _layout_pages(*spec[1:])
        return loaded.doc.title, pages
    part, pages = kit.component_pages(*spec[1:])
    return part.title, pages


def _draw(title: str, scene: bytes) -> bytes:
    """A component's PDF from its pickled pages (composed once, by the plan)."""
    from .draw import pdf_bytes

    return pdf_bytes(pickle.loads(scene), title)


def _front(k) -> tuple[bytes, list[int]]:
    from . import kit

    k = kit.settle(k)
    return k.front, [p.pages for p in k.parts if p.role != "component"]


def _merge(k, front: tuple[bytes, list[int]], parts: dict[str, bytes]) -> tuple[bytes, int]:
    """A kit's PDF and page count from its laid-out front and its parts' PDFs."""
    from . import kit

    k.front = front[0]
    kit.number(k, front[1])
    for part in k.components:
        part.pdf = parts[part.key]
    return kit.merge(k), sum(part.pages for part in k.parts)


def plan(out_dir: Path, code: str, base_url: str | None = None, ready=None) -> Plan:
    """Every output with its digest (scenes composed, nothing drawn). `ready(output)` is called as
    soon as an output is planned; kits are planned first, so that their fronts (the longest jobs)
    can start while the rest is planned."""
    from . import kit
    from .kinds import known_layouts

    result = Plan()
    digests: dict[int, str] = {}  # id(pages) -> digest: pages composed once are pickled once

    def scene(title: str, pages: list, spec: tuple) -> str:
        if id(pages) not in digests:
            data = pickle.dumps(pages, 5)
            digests[id(pages)] = d = sha(code, title, data)
            result.specs.setdefault(d, spec)
            result.scenes.setdefault(d, (title, data))
        return digests[id(pages)]

    def part(c, paper, copies):
        p, pages = kit.component_pages(c, paper, copies, base_url)
        p.key = scene(p.title, pages, ("part", c, paper, copies, base_url))
        return p

    kits, products = [], kit.products()
    try:
        games = kit.rules_games() if products else []
    except SheetgenError:  # each kit's start reports it
        games = []
    names = [kit.default_name(product, paper) for product in products for paper in kit.PAPER_NAMES]
    for product in sorted(products, key=lambda product: -sum(  # the longest fronts first: the
            len(sec.text) for g in games if g.product == product for sec in g.sections)):  # most rules
        for paper in kit.PAPER_NAMES:
            try:
                k = kit.start(product, paper, 1, render=part)
            except SheetgenError as exc:
                result.failed[kit.default_name(product, paper)] = str(exc)
                continue
            front = replace(k, parts=[replace(p, key="") for p in k.parts])
            kits.append(Output(kit.default_name(product, paper), sha(code, repr(k)), kit=k,
                               front=sha(code, repr(front))))
            if ready:
                ready(kits[-1])
    for path in known_layouts():
        spec = ("layout", path, base_url)
        try:  # a layout that fails costs its own output (and the kits using it), not the build
            loaded, pages = _layout_pages(path, base_url)
        except SheetgenError as exc:
            result.failed[f"{path.stem}.pdf"] = str(exc)
            continue
        title = loaded.doc.title  # the files it was read from (with what it extends) are inputs
        result.inputs |= {str(Path(f).resolve()) for f in {f for f, _ in loaded.lines.values()}}
        result.outputs.append(Output(f"{path.stem}.pdf", scene(title, pages, spec), spec,
                                     pages=len(pages)))
        if ready:
            ready(result.outputs[-1])
    result.outputs += sorted(kits, key=lambda o: names.index(o.name))  # the products' order
    return result


class Cache:
    """Component PDFs and kit fronts by digest, in the output folder."""

    def __init__(self, root: Path):
        self.root = root

    def path(self, digest: str, ext: str = "pdf") -> Path:
        return self.root / f"{digest}.{ext}"

    def get(self, digest: str) -> bytes | None:
        p = self.path(digest)
        return p.read_bytes() if p.is_file() else None

    def front(self, digest: str) -> tuple[bytes, list[int]] | None:
        pdf, meta = self.get(digest), self.path(digest, "json")
        return (pdf, json.loads(meta.read_text())) if pdf is not None and meta.is_file() else None

    def put(self, digest: str, data: bytes, pages: list[int] | None = None) -> None:
        write_atomic(self.path(digest), data)
        if pages is not None:
            write_atomic(self.path(digest, "json"), json.dumps(pages))

    def keep_only(self, digests: set[str]) -> None:
        for p in self.root.glob("*.*"):
            if p.stem not in digests:
                p.unlink(missing_ok=True)


def _done(value, seconds: float = 0.0) -> Future:
    f = Future()
    f.set_result((value, seconds))
    return f


def _timed(fn, *args):
    """(fn(*args), CPU seconds it took)."""
    t = time.process_time()
    return fn(*args), time.process_time() - t


def _warm() -> None:
    importlib.import_module(".documents", __package__).warm()


class Jobs:
    """Drawing, front layout and merging in `workers` processes: this one and `workers - 1`
    forked workers (this process plans, then runs jobs too, so on two cores one worker lays out
    the fronts while this one plans and draws: no third process competes for the cores). The
    workers are forked at `start` (they warm WeasyPrint up themselves) or at the first job
    (after this process warms it up, so they start with what is loaded by then). `submit` hands
    a job to them at once; `later` queues it, and `step` keeps the workers fed from the queue and
    runs its next job here, on a copy of its arguments as a worker gets them. With one process
    every job runs here. A job's future holds (its value, its CPU seconds)."""

    def __init__(self, workers: int):
        self.workers, self.pool = workers - 1, None  # forked ones
        self.queue: deque = deque()  # (future, fn, args) not handed out yet
        self.busy: dict[Future, Future | None] = {}  # worker's future -> the queued job's future

    def start(self, warm: bool = False) -> None:
        if self.pool is None and self.workers:
            self.pool = pools.pool(self.workers, _warm if warm else None)
            self.pool.submit(int)  # a first job forks every worker now

    def submit(self, fn, *args) -> Future:
        if not self.workers:
            return _done(*_here(fn, args))
        if self.pool is None and fn is _front:  # WeasyPrint, the kit style and fonts, before the fork
            _warm()
        self.start()
        f = self.pool.submit(_timed, fn, *args)
        self.busy[f] = None
        return f

    def later(self, fn, *args, first: bool = False) -> Future:
        f = Future()
        (self.queue.appendleft if first else self.queue.append)((f, fn, args))
        return f

    def step(self) -> None:
        """Give each idle worker the next queued job (a job waiting in the pool could not be run
        here instead), then run the next one here, or else wait for a worker's job to end."""
        if len(self.queue) > self.workers:  # more jobs than workers: worth forking them
            self.start()
        while self.pool and self.queue and len(self.busy) < self.workers:
            f, fn, args = self.queue.popleft()
            self.busy[self.pool.submit(_timed, fn, *args)] = f
        if self.queue:
            f, fn, args = self.queue.popleft()
            _settle(f, lambda: _here(fn, args))
        elif self.busy:
            wait(self.busy, return_when=FIRST_COMPLETED)
        for pf in [pf for pf in self.busy if pf.done()]:
            if (f := self.busy.pop(pf)) is not None:
                _settle(f, pf.result)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


def _here(fn, args: tuple):
    """A job run in this process, on a copy of its arguments (as a worker gets them)."""
    return _timed(fn, *pickle.loads(pickle.dumps(args, 5)))


def _settle(f: Future, get) -> None:
    try:
        f.set_result(get())
    except Exception as exc:  # the job's error, raised where its result is read
        f.set_exception(exc)


def _read_manifest(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) and data.get("format") == 1 else {}
    except (OSError, ValueError):
        return {}


def _intact(out_dir: Path, entry: dict | None, name: str, digest: str | None = None) -> bool:
    return bool(entry) and (digest is None or entry.get("digest") == digest) and \
        file_sha(out_dir / name) == entry.get("sha256")


def run(out_dir: Path, force: bool = False, workers: int = 0,
        base_url: str | None = None) -> list[Result]:
    """Build every output into `out_dir`; `workers` processes (0: one per core, 1: this one);
    with `base_url`, QR codes link to each PDF's `sheetgen serve` page."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    manifest_path = out_dir / MANIFEST
    old = {} if force else _read_manifest(manifest_path)
    code = sha(code_digest(), base_url or "")  # QR links change the pages
    previous = old.get("outputs", {})
    if old and old.get("stamp") == stamp(code, old.get("inputs", [])) and \
            all(_intact(out_dir, e, n) for n, e in previous.items()):
        return [Result(out_dir / n, e["pages"], e["bytes"], 0.0, "unchanged") for n, e in previous.items()]

    cache = Cache(out_dir / CACHE)
    if force and cache.root.exists():
        shutil.rmtree(cache.root)
    jobs = Jobs(pools.count(workers))
    drawn: dict[str, Future | None] = {}  # part digest -> its PDF (None: to draw once planned)
    fronts: dict[str, Future] = {}  # front digest -> (PDF, front part pages)
    todo: list[Output] = []
    laid: list[str] = []  # fronts being laid out (the others are cached)

    def want(digest: str) -> None:
        if digest not in drawn:
            data = cache.get(digest)
            drawn[digest] = _done(data) if data is not None else None

    def ready(o: Output) -> None:  # planned: start its front, note its drawings
        if _intact(out_dir, previous.get(o.name), o.name, o.digest):
            return
        todo.append(o)
        if o.kit:
            if o.front not in fronts:
                f = cache.front(o.front)
                fronts[o.front] = _done(f) if f else jobs.submit(_front, o.kit)
                if not f:
                    laid.append(o.front)
            for part in o.kit.components:
                want(part.key)
        else:
            want(o.digest)

    try:
        if not any(cache.root.glob("*.pdf")):  # from scratch: every front (the shipped kits' too) is
            jobs.start(warm=True)  # to lay out, so fork now (the workers warm up while this plans)
        p = plan(out_dir, code, base_url, ready)
        new = [d for d, f in drawn.items() if f is None]
        for d in new:  # in the kits' order (theirs first): a kit is merged once its parts are drawn
            drawn[d] = jobs.later(_draw, *p.scenes[d])
        merged = _merge_kits([o for o in todo if o.kit], drawn, fronts, jobs)
        made = {d: f.result() for d, f in drawn.items()}
    finally:
        jobs.close()
    for d in new:
        cache.put(d, made[d][0])
    for d in laid:
        cache.put(d, *fronts[d].result()[0])

    results, entries = [], {}
    making = {o.name for o in todo}
    for o in p.outputs:
        path = out_dir / o.name
        if o.name in making:
            if o.kit:  # CPU seconds of the jobs that made it (composing is not counted)
                (data, o.pages), cpu = merged[o.name][0], sum(f[1] for f in (
                    merged[o.name], fronts[o.front].result()))
            else:
                data, cpu = made[o.digest]
            write_atomic(path, data)
            results.append(Result(path, o.pages, len(data), cpu, "built"))
        else:
            e = previous[o.name]
            o.pages = e["pages"]
            results.append(Result(path, e["pages"], e["bytes"], 0.0, "unchanged"))
        entries[o.name] = {"digest": o.digest, "sha256": file_sha(path), "pages": o.pages,
                           "bytes": path.stat().st_size}
    for name in previous.keys() - entries.keys() - p.failed.keys():  # outputs of layouts that are gone
        (out_dir / name).unlink(missing_ok=True)
    cache.keep_only({o.front for o in p.outputs} | set(p.specs))
    # a failed output keeps its old file; with one, the next build plans again (no stamp)
    write_atomic(manifest_path, json.dumps(
        {"format": 1, "stamp": "" if p.failed else stamp(code, sorted(p.inputs)),
         "inputs": sorted(p.inputs), "outputs": entries,
         "seconds": round(time.perf_counter() - t0, 3)}, indent=1))
    return results + [Result(out_dir / n, 0, 0, 0.0, "failed", e) for n, e in sorted(p.failed.items())]


def _merge_kits(kits: list[Output], drawn: dict[str, Future], fronts: dict[str, Future],
                jobs: Jobs) -> dict[str, tuple]:
    """Run the queued drawings and merge each kit as soon as its front and parts are made (a
    merge goes before the drawings left): name -> (PDF, pages)."""
    waiting, merging = list(kits), {}
    while True:
        for o in [o for o in waiting if fronts[o.front].done()
                  and all(drawn[part.key].done() for part in o.kit.components)]:
            waiting.remove(o)
            merging[o.name] = jobs.later(_merge, o.kit, fronts[o.front].result()[0],
                                         {p.key: drawn[p.key].result()[0] for p in o.kit.components},
                                         first=True)
        if not waiting and all(f.done() for f in [*merging.values(), *drawn.values()]):
            return {name: f.result() for name, f in merging.items()}  # ((PDF, pages), CPU s)
        jobs.step()


def table(results: list[Result], seconds: float):
    """The rich table `sheetgen build` prints."""
    from rich.table import Table

    built = sum(r.status == "built" for r in results)
    t = Table(title=f"sheetgen build: {built} of {len(results)} files made in {seconds:.1f} s")
    for col in ("file", "pages", "KiB", "CPU s", "status"):
        t.add_column(col, justify="left" if col in ("file", "status") else "right")
    for r in results:
        t.add_row(str(r.path), str(r.pages), f"{r.bytes / 1024:.0f}", f"{r.seconds:.2f}", r.status)
    return t
