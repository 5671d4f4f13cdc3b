"""What every PDF the drawer writes repeats, made once per process and reused: compressed
streams (font subsets, icon forms, character maps), numbers as PDF text, icon form objects and
font subsets with their widths. Each piece is the bytes reportlab itself would write (the drawer's
tests and a whole build compared with the previous drawer check it); only the work is saved.

    pack_once(data)   compress now; any later stream of the same bytes takes the result
    num(*values)      numbers as reportlab's fp_str writes them
    IconForm          the class of an icon's form object (written once per fonts reference)
    truetype(name, file)  a TrueType font that makes and compresses each subset once
"""

from __future__ import annotations

import zlib
from functools import lru_cache

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

rl_config.useA85 = 0  # binary streams: smaller files, and no ASCII85 pass over every page
ZLIB_LEVEL = 1  # a third of the compression time of zlib's default (6), files about 10 % larger


_PACKED: dict[bytes, bytes] = {}  # streams every document repeats (font subsets, icon forms), compressed


def pack_once(data: bytes) -> None:
    """Compress `data` now and reuse the result whenever a later stream holds the same bytes."""
    if len(_PACKED) > 2048:  # bounded: a long build meets many subsets
        _PACKED.clear()
    _PACKED[data] = zlib.compress(data, ZLIB_LEVEL)


class _Flate(pdfdoc.PDFStreamFilterZCompress):
    def encode(self, text):
        data = text.encode("utf8") if isinstance(text, str) else text
        packed = _PACKED.get(data)
        return packed if packed is not None else zlib.compress(data, ZLIB_LEVEL)


pdfdoc.PDFZCompress = _Flate()  # the filter reportlab gives every compressed stream


class _Numbers(dict):
    """Number -> its PDF text (reportlab's fp_str), kept: a page repeats few coordinates (a grid's
    columns and rows, the same radius), and a look-up is cheaper than formatting again."""

    def __missing__(self, value: float) -> str:
        if len(self) > 100_000:
            self.clear()
        text = self[value] = fp_str(value)
        return text


_number = _Numbers().__getitem__


def num(*values: float) -> str:
    """The numbers as reportlab writes them (fp_str gives the same text). Most calls are a point:
    two numbers, formatted without a join (half the time)."""
    if len(values) == 2:
        return f"{_number(values[0])} {_number(values[1])}"
    return " ".join([_number(v) for v in values])


_FORMS: dict[tuple, bytes] = {}  # an icon form object as written, by its content and the fonts' reference


class IconForm(pdfdoc.PDFFormXObject):
    """An icon's form object, written once per process: it differs between documents only by the
    number of the fonts object its resources name (the same for every icon of a document)."""

    def format(self, document):
        if not isinstance(document.encrypt, pdfdoc.NoEncryption) or self.Resources or self.XObjects:
            return super().format(document)
        fonts = pdfdoc.format(pdfdoc.PDFObjectReference(pdfdoc.BasicFonts), document)
        key = (self.stream, self.lowerx, self.lowery, self.upperx, self.uppery, self.compression, fonts)
        if key not in _FORMS:
            if len(_FORMS) > 2048:
                _FORMS.clear()
            _FORMS[key] = super().format(document)
        return _FORMS[key]


_WIDTHS: dict[tuple, bytes] = {}  # a font subset's widths array as written, by its numbers


class _Widths(pdfdoc.PDFArray):
    """A font subset's widths, written once per process: every document lists the same ones."""

    def format(self, document):
        key = tuple(self.sequence)
        if key not in _WIDTHS:
            if len(_WIDTHS) > 1024:
                _WIDTHS.clear()
            _WIDTHS[key] = super().format(document)
        return _WIDTHS[key]


@lru_cache(maxsize=1024)
def _cmap(fontname: str, subset: tuple) -> str:
    text = _make_cmap(fontname, list(subset))
    pack_once(text.encode("utf8"))
    return text


_make_cmap = getattr(ttfonts, "made_by_reportlab", ttfonts.makeToUnicodeCMap)  # (a reload keeps it)
ttfonts.made_by_reportlab = _make_cmap
ttfonts.makeToUnicodeCMap = lambda fontname, subset: _cmap(fontname, tuple(subset))  # pure: made once


def truetype(name: str, filename: str) -> TTFont:
    """A TrueType font whose subsets (with their widths and character maps) are made and
    compressed once per process: every document embeds the same few (reportlab makes and
    compresses them again for each one)."""
    font = TTFont(name, filename)
    make, made, add = font.face.makeSubset, {}, font.addObjects

    def subset_once(subset):
        key = tuple(subset)
        if key not in made:
            if len(made) > 256:
                made.clear()
            made[key] = make(subset)
            pack_once(made[key])
        return made[key]

    def add_objects(doc):
        add(doc)
        for obj in doc.idToObject["BasicFonts"].dict.values():
            if type(getattr(obj, "Widths", None)) is pdfdoc.PDFArray:
                obj.Widths.__class__ = _Widths

    font.face.makeSubset, font.addObjects = subset_once, add_objects
    return font
