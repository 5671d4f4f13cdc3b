"""Sheet links: the short web address that reprints exactly one PDF (layout, options, variant seed),
and the hook that puts it in the PDF's QR codes when a base URL is set.

A link is `BASE/S/NAME/TOKENS`, all upper case so a QR code stores it in alphanumeric mode (the
smallest code): NAME is the layout's name (a variant's: its game), TOKENS are '.'-separated options:
`A` or `L` (paper, always there), `I` ink saver, `C3` copies, `N2` per page, `S2` one sheet,
`G<GAME>` one game's rules cards, `V7` the variant of seed 7, `V7.D12` candidate 12 of the search of
seed 7 (what `sheetgen search --seed 7` kept). `sheetgen serve` answers these links.
"""

from __future__ import annotations

import dataclasses
import re
from urllib.parse import urlsplit

from .errors import SheetgenError
from .scene import QR, Group

PAPERS = {"A": "a4", "L": "letter"}
_TOKEN = re.compile(r"^(?:([ALI])|([CNSVD])(\d{1,7})|G([A-Z][A-Z0-9-]{0,40}))$")


@dataclasses.dataclass(frozen=True)
class Sheet:
    """What a link names; every field is an option the CLI has too."""

    name: str
    paper: str = "a4"
    ink_saver: bool = False
    copies: int = 1
    per_page: int | None = None
    sheet: int | None = None
    game: str | None = None
    seed: int | None = None  # a custom variant of the game `name`
    candidate: int | None = None  # with seed: candidate number of the search of that seed

    def tokens(self) -> str:
        out = [next(k for k, v in PAPERS.items() if v == self.paper)]
        out += ["I"] if self.ink_saver else []
        out += [f"C{self.copies}"] if self.copies != 1 else []
        out += [f"N{self.per_page}"] if self.per_page else []
        out += [f"S{self.sheet}"] if self.sheet else []
        out += [f"G{self.game.upper()}"] if self.game else []
        out += [f"V{self.seed}"] if self.seed is not None else []
        out += [f"D{self.candidate}"] if self.candidate is not None else []
        return ".".join(out)

    def path(self) -> str:
        return f"S/{self.name.upper()}/{self.tokens()}"


def parse(name: str, tokens: str) -> Sheet:
    """The Sheet of a link's NAME and TOKENS (either case); a bad token is a SheetgenError."""
    fields: dict = {"name": name.lower()}
    for tok in tokens.upper().split("."):
        m = _TOKEN.match(tok)
        if not m:
            raise SheetgenError(f"'{tok}' is not a sheet option", key="TOKENS",
                                fix="use A or L, I, C<copies>, N<per page>, S<sheet>, G<game>, V<seed>, D<candidate>")
        flag, letter, number, game = m.groups()
        if flag in PAPERS:
            fields["paper"] = PAPERS[flag]
        elif flag == "I":
            fields["ink_saver"] = True
        elif game:
            fields["game"] = game.lower()
        else:
            key = {"C": "copies", "N": "per_page", "S": "sheet", "V": "seed", "D": "candidate"}[letter]
            fields[key] = int(number)
    if "candidate" in fields and "seed" not in fields:
        raise SheetgenError(f"D{fields['candidate']} names a search's candidate but no seed", key="TOKENS",
                            fix="give the search's seed too: V<seed>.D<candidate>")
    return Sheet(**fields)


def described(loaded, opts) -> Sheet | None:
    """The Sheet a render of `loaded` with `opts` prints, from the effective values; None when a
    link cannot say it (card bleed or back options, a variant made with a non-default band or
    searched with --param ranges)."""
    doc = loaded.doc
    if opts.bleed is not None or opts.back_offset != (0.0, 0.0) or not opts.backs:
        return None
    name, seed, number = loaded.name, None, None
    if doc.variant is not None:
        if doc.variant.band is not None or doc.variant.ranges:
            return None
        name, seed, number = doc.variant.game, doc.variant.seed, doc.variant.candidate
    return Sheet(name, doc.layout.paper, doc.layout.ink_saver, opts.copies, opts.per_page, opts.sheet,
                 opts.game, seed, number)


def base(url: str) -> str:
    """A base URL checked and made upper-case-friendly: scheme and host upper case (they are case
    blind), the path kept, no trailing slash."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SheetgenError(f"base URL '{url}' is not an http(s) address", key="base-url",
                            fix="write e.g. http://192.168.1.20:8000")
    return f"{parts.scheme.upper()}://{parts.netloc.upper()}{parts.path.rstrip('/')}"


def url(base_url: str, sheet: Sheet) -> str:
    return f"{base(base_url)}/{sheet.path()}"


def link_qrs(pages: list, loaded, opts) -> list:
    """Pages with every QR code holding this PDF's link, when a base URL is set (by the options or
    the layout's `layout.base_url`); otherwise the pages as they are."""
    base_url = opts.base_url or loaded.doc.layout.base_url
    sheet = described(loaded, opts) if base_url else None
    if sheet is None:
        return pages
    data = url(base_url, sheet)

    def swap(items):
        out = []
        for it in items:
            if isinstance(it, Group):
                it = dataclasses.replace(it, items=tuple(swap(it.items)))
            elif isinstance(it, QR):
                it = dataclasses.replace(it, data=data)
            out.append(it)
        return out

    return [dataclasses.replace(p, items=swap(p.items)) for p in pages]
