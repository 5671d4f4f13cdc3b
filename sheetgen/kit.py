"""Print-and-play kits: one PDF per product with a cover, a contents page, the rules booklet and
every component of that product, merged with pypdf and bookmarked part by part.

What goes in a kit is discovered, never listed here:
- a component belongs to a product by its kind's `Kind.product`;
- layouts marked `reprint: true` are skipped: they are Letter or ink-saver versions of a base
  layout, and the kit makes those itself with `--paper` (ink saver is not a kit option); a
  layout that `extends:` another without that mark (the cookie spares) is a part of its own;
- the rules text, players, playing time and age come from the `rules-cards` layout, the single
  source of rules text; its cards are added once per game of the product.
Sheets written on during play (kinds with a rules engine, status sheets and score pads) come in
`--copies N`; boards, cards and tokens come once. Parts printed with backs (pages flagged
`Page.back`) go last, so one page range prints double-sided.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from .draw import pdf_bytes
from .errors import SheetgenError, did_you_mean
from .output_hooks import shop_colours, shop_finish
from .kinds import KINDS, Loaded, Options, kind, known_layouts, load_shared, render_pages

RULES_KIND = "rules-cards"
TITLES = {"ghosts-love-candy-too": "Ghosts Love Candy Too"}  # products of several games
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}


@dataclass(frozen=True)
class Component:
    path: Path
    kind: str
    title: str
    product: str
    game: str | None = None  # the rules-cards game this part shows
    note: str = ""


@dataclass
class Part:
    title: str
    pages: int
    role: str  # cover | contents | rules | component
    copies: int = 1
    duplex: bool = False
    pdf: bytes = b""  # components only; the front parts share `Kit.front`
    anchor: str = ""  # front parts: the id their section starts with
    first: int = 0  # 1-based page in the kit, set when the kit is laid out
    note: str = ""  # a line about the part, shown on the cover
    consumable: bool = False  # written on in play: printed --copies times
    key: str = ""  # components: a digest of the part's title and pages (`sheetgen build` sets it)


@dataclass
class Kit:
    product: str
    title: str
    paper: str
    copies: int
    games: list
    parts: list[Part] = field(default_factory=list)
    front: bytes = b""  # cover, contents and rules as one PDF
    print_shop: bool = False  # CMYK parts, a PDF/X-4 front
    # what the games need, read from their parts' layouts when the kit starts (so a worker that
    # lays out the front need not load them): (text, part) for the cover, a sentence per game
    needs: list[tuple[str, str | None]] = field(default_factory=list)
    sentences: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, product: str, paper: str, copies: int, games: list, print_shop: bool = False) -> "Kit":
        """A kit of a product's games, with no parts yet."""
        from .games.rules_cards.source import product_needs

        return cls(product, product_title(product, games), paper, copies, games, print_shop=print_shop,
                   needs=product_needs(games),
                   sentences={g.id: g.needs_sentence() for g in games if g.needs})

    @property
    def components(self) -> list[Part]:
        return [p for p in self.parts if p.role == "component"]

    @property
    def rules(self) -> list[Part]:
        return [p for p in self.parts if p.role == "rules"]


@lru_cache(maxsize=512)
def _top(path: Path, stamp: int) -> tuple[bool, str]:
    """Whether a layout is a reprint (`reprint: true`), and its kind, after what it extends; a file
    that cannot be read counts as a reprint of no kind (only what uses it fails, e.g. its own
    render in `build`)."""
    from .layout import load_raw

    try:
        data = load_raw(path)[0]
    except SheetgenError:
        return True, ""
    return data.get("reprint") is True, str(data.get("kind", ""))


def base_layouts() -> list[tuple[Path, str]]:
    """(path, kind name) of every layout that is not a reprint of another."""
    out = []
    for path in known_layouts():
        reprint, name = _top(path, path.stat().st_mtime_ns)
        if not reprint:
            out.append((path, name))
    return out


def _kind_product(name: str) -> str | None:
    return kind(name).product if name in KINDS else None


def rules_games() -> list:
    """The games of the rules-cards layout (id, name, product, players, time, age, needs, sections),
    their sections' numbers filled in from their parts."""
    from .games.rules_cards.source import filled, games

    return [filled(g) for g in games().values()]


def products() -> list[str]:
    found = {g.product for g in rules_games()}
    found |= {p for _, name in base_layouts() if name != RULES_KIND and (p := _kind_product(name))}
    return sorted(found)


def components(product: str) -> list[Component]:
    """The product's components in the order its games' `needs` name them (the rulebook's), a
    part they do not name right after the part it extends (else last, in layout-file order), each
    with its description; rules cards once per game."""
    from .games.rules_cards.source import product_needs
    from .kinds import description
    from .layout import read_top

    parts = [part for _, part in product_needs([g for g in rules_games() if g.product == product])]
    out = []
    for path, name in base_layouts():
        if name == RULES_KIND:
            doc = load_shared(path).doc
            out += [Component(path, name, f"{doc.title}: {g.name}", product, g.id,
                              f"{doc.title} of {g.name}, with backs")
                    for g in doc.content.games if g.product == product]
        elif _kind_product(name) == product:
            loaded = load_shared(path)
            out.append(Component(path, name, loaded.doc.title, product, note=description(loaded)))

    def order(c: Component) -> float:
        parent = Path(str(read_top(c.path).get("extends", ""))).stem
        return parts.index(c.path.stem) if c.path.stem in parts else \
            parts.index(parent) + 0.5 if parent in parts else len(parts)

    out.sort(key=order)
    return out


def consumable(kind_name: str) -> bool:
    """Written on during play, so printed --copies times: roll-and-write sheets (they have a rules
    engine) and kinds marked `consumable` (status sheets, score pads)."""
    k = kind(kind_name)
    return k.rules is not None or k.consumable


_COMPOSED: dict[tuple, list] = {}


def compose(loaded: Loaded, opts: Options) -> list:
    """`render_pages`, once per process for the same kind, layout content and options: an A4
    layout file and an A4 kit's part, a -letter file and a Letter kit's part are composed once."""
    linked = opts.base_url or loaded.doc.layout.base_url  # QR links name the file and options
    same = opts if linked else replace(opts, paper=None, ink_saver=None,  # (the doc holds those)
                                       game=opts.game if "game" in loaded.kind.options else None)
    key = (loaded.kind.name, loaded.doc.model_dump_json(), repr(same), loaded.name if linked else "")
    if key not in _COMPOSED:
        if len(_COMPOSED) >= 256:  # a long-running `serve` keeps the latest only
            del _COMPOSED[next(iter(_COMPOSED))]
        _COMPOSED[key] = render_pages(loaded, opts)
    return _COMPOSED[key]


def component_pages(c: Component, paper: str, copies: int,
                    base_url: str | None = None) -> tuple[Part, list]:
    """A component's part (its PDF not drawn yet) and its pages; a part with back pages prints
    double-sided."""
    n = copies if consumable(c.kind) else 1
    pages = compose(load_shared(c.path, paper), Options(paper=paper, copies=n, game=c.game, base_url=base_url))
    return Part(c.title, len(pages), "component", copies=n, duplex=any(p.back for p in pages),
                note=c.note, consumable=consumable(c.kind)), pages


def render_component(c: Component, paper: str, copies: int, base_url: str | None = None,
                     print_shop: bool = False) -> Part:
    part, pages = component_pages(c, paper, copies, base_url)
    part.pdf = pdf_bytes(pages, c.title, hooks=shop_colours(c.kind) if print_shop else None)
    return part


def product_title(product: str, games: list) -> str:
    if product in TITLES:
        return TITLES[product]
    if len(games) == 1:
        return games[0].name
    return product.replace("-", " ").title()


def _number(parts: list[Part]) -> None:
    n = 1
    for p in parts:
        p.first, n = n, n + p.pages


def span(first: int, last: int) -> str:
    return str(first) if last <= first else f"{first}–{last}"


def _ranges(parts: list[Part], duplex: bool) -> list[str]:
    """Contiguous page ranges of the parts that are (or are not) printed double-sided."""
    out: list[list[int]] = []
    for p in parts:
        if p.duplex != duplex:
            continue
        last = p.first + p.pages - 1
        if out and out[-1][1] + 1 == p.first:
            out[-1][1] = last
        else:
            out.append([p.first, last])
    return [span(a, b) for a, b in out]


# Pip positions (mm, in a 9 mm die face) for the cover's two dice.
_P = {1: 1.2, 2: 3.6, 3: 6.0}
PIPS = {5: [(_P[a], _P[b]) for a, b in ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3))],
        6: [(_P[a], _P[b]) for a, b in ((1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3))]}


def _front_html(kit: Kit, columns: dict | None = None) -> str:
    from .documents import render_html

    needs = [text for text, part in kit.needs if part]
    home = [text for text, part in kit.needs if not part]
    return render_html("front.html.j2", kit=kit, paper_name=PAPER_NAMES[kit.paper], needs=needs,
                       home=home,
                       span=span, pips=PIPS, duplex=_ranges(kit.parts, True),
                       simplex=_ranges(kit.parts, False), columns=columns or {})


def make(product: str, paper: str = "a4", copies: int = 1, base_url: str | None = None,
         print_shop: bool = False) -> Kit:
    """Lay out a whole kit: every part rendered and numbered (no file written)."""
    from functools import partial

    render = partial(render_component, base_url=base_url, print_shop=print_shop)
    return settle(start(product, paper, copies, render=render, print_shop=print_shop))


def start(product: str, paper: str = "a4", copies: int = 1, render=render_component,
          print_shop: bool = False) -> Kit:
    """A kit with every part rendered by `render(component, paper, copies)`; its front (cover,
    contents, rules) is not laid out yet: see `settle`."""
    known = products()
    if product not in known:
        hint = did_you_mean(product, known)
        raise SheetgenError(f"no product named '{product}'",
                            fix=(hint + " " if hint else "") + f"use one of: {', '.join(known)}")
    if paper not in PAPER_NAMES:
        raise SheetgenError(f"paper '{paper}' is not known", fix="use a4 or letter")
    games = [g for g in rules_games() if g.product == product]
    kit = Kit.of(product, paper, copies, games, print_shop)
    front = [Part("Cover", 1, "cover", anchor="part-cover"),
             Part("Contents", 1, "contents", anchor="part-contents")]
    front += [Part(g.name, 1, "rules", anchor=f"part-rules-{g.id}") for g in games]
    comps = [render(c, paper, copies) for c in components(product)]
    comps.sort(key=lambda p: p.duplex)  # double-sided parts last: one range to print duplex
    kit.parts = front + comps
    return kit


def settle(kit: Kit) -> Kit:
    """Lay out the kit's front and number its parts."""
    from .columns import fits_page
    from .documents import layout, pdf
    from .printshop import cmyk_html

    print_shop = kit.print_shop
    front = [p for p in kit.parts if p.role != "component"]
    split = _split_rules(kit)
    columns = {g: s for g, s in split.items() if fits_page(s.height, kit.paper)}
    for part, game in zip(kit.rules, kit.games):  # first guess: rules too long for a page take two
        part.pages = 1 if fits_page(split[game.id].even, kit.paper) else 2
    # The cover and contents print page numbers that depend on how long the front turns out:
    # lay it out, measure every part by its anchor, and again until the numbers hold.
    for _ in range(5):
        _number(kit.parts)
        html = _front_html(kit, columns)
        doc = layout(cmyk_html(html) if print_shop else html)
        starts: dict[str, int] = {}
        for i, page in enumerate(doc.pages):  # a section spanning pages repeats its anchor
            for a in page.anchors:
                starts.setdefault(a, i)
        overflowed = [g for g in columns if not _fits(doc, starts, g, kit.paper)]
        if overflowed:  # a column ran off its page: WeasyPrint balances those games' text
            for g in overflowed:
                del columns[g]
            continue
        ends = [starts[p.anchor] for p in front[1:]] + [len(doc.pages)]
        sizes = [end - starts[p.anchor] for p, end in zip(front, ends)]
        if sizes == [p.pages for p in front]:
            kit.front = pdf(doc, "pdf/x-4" if print_shop else None)
            return kit
        for p, n in zip(front, sizes):
            p.pages = n
    raise SheetgenError(f"the front pages of the {kit.product} kit do not settle",
                        fix="report this as a bug")


def _split_rules(kit: Kit) -> dict:
    """Each game's rules text cut into two columns (columns.Split), closer set where that keeps
    it on one page."""
    from .columns import fitted
    from .documents import rich

    return {g.id: fitted(str(rich(kit.sentences[g.id])) if g.needs else "",
                        [(str(rich(s.heading)), str(rich(s.text))) for s in g.sections], kit.paper)
            for g in kit.games}


def _fits(doc, starts: dict[str, int], game: str, paper: str) -> bool:
    """Whether both columns of a game's rules ended on its first page, above the bottom margin."""
    from .columns import ends_on_page

    for n in (1, 2):
        end = starts.get(f"end-rules-{game}-{n}")
        if end is None or end != starts.get(f"part-rules-{game}") or \
                not ends_on_page(doc.pages[end].anchors[f"end-rules-{game}-{n}"][1], paper):
            return False
    return True


def number(kit: Kit, front_pages: list[int]) -> None:
    """Give the front parts the page counts a settled layout found, and number every part."""
    for p, n in zip([p for p in kit.parts if p.role != "component"], front_pages):
        p.pages = n
    _number(kit.parts)


def merge(kit: Kit) -> bytes:
    """One PDF with a bookmark for every part (rules and components grouped)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(kit.front)), import_outline=False)
    for part in kit.components:
        writer.append(PdfReader(io.BytesIO(part.pdf)), import_outline=False)
    groups: dict[str, object] = {}
    for part in kit.parts:
        parent = None
        if part.role in ("rules", "component"):
            label = "Rules" if part.role == "rules" else "Components"
            if label not in groups:
                groups[label] = writer.add_outline_item(title=label, page_number=part.first - 1)
            parent = groups[label]
        writer.add_outline_item(title=part.title, page_number=part.first - 1, parent=parent)
    writer.add_metadata({"/Title": f"{kit.title}: print-and-play kit", "/Author": "sheetgen",
                         "/Creator": "sheetgen", "/Producer": "sheetgen"})
    writer.page_mode = "/UseOutlines"
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def write(product: str, out: str | Path | None = None, paper: str = "a4", copies: int = 1,
          base_url: str | None = None, print_shop: bool = False):
    """Make a kit and write it (default `output/<product>-kit[-letter].pdf`); returns api.Built."""
    from .api import Built
    from .output import check_target, write_atomic

    t0 = time.perf_counter()
    path = check_target(out if out else Path("output") / default_name(product, paper))
    kit = make(product, paper, copies, base_url, print_shop)
    data = shop_finish(merge(kit)) if print_shop else merge(kit)
    write_atomic(path, data)
    return Built(path, sum(p.pages for p in kit.parts), len(data), time.perf_counter() - t0)


def default_name(product: str, paper: str) -> str:
    return f"{product}-kit{'' if paper == 'a4' else '-' + paper}.pdf"
