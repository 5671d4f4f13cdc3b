"""Kit documents: escaping, the rules-markup whitelist, the URL fetcher, fonts, lazy WeasyPrint."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from types import SimpleNamespace

from pypdf import PdfReader

from sheetgen import documents
from sheetgen.documents import allowed_path, css_string, fetcher, pdf_from_html, rich
from sheetgen.draw import FONT_DIR


def test_rich_lets_only_bold_italic_and_breaks_through():
    out = str(rich("<b>Roll</b> & <i>fight</i><br/>x<br>y <script>alert(1)</script>"
                   ' <b onclick="x">z</b> <a href="http://e.vil">l</a> Roll &amp; Fight'))
    assert "<b>Roll</b>" in out and "<i>fight</i>" in out and out.count("<br/>") == 2
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<b onclick" not in out and "<a " not in out
    assert out.endswith("Roll &amp; Fight")  # an entity in the source is not escaped twice
    assert "&amp;amp;" not in out


def test_css_string_cannot_break_out_of_the_style_sheet():
    assert str(css_string('a "b" \\ c')) == '"a \\"b\\" \\\\ c"'
    assert "</style>" not in str(css_string("</style><script>"))


def test_templates_autoescape_what_they_insert():
    game = SimpleNamespace(id="g", name="<script>x</script>", product="p", players="2", time="5 min",
                           age="8+", needs=["<img src=x>"],
                           sections=[SimpleNamespace(heading="Goal", text="<b>win</b> <u>now</u>")])
    kit = SimpleNamespace(title="T & <T>", product="p", paper="a4", copies=1, games=[game], parts=[],
                          components=[], rules=[], sentences={"g": "<img src=x>."}, print_shop=False)
    html = documents.render_html("front.html.j2", kit=kit, paper_name="A4", needs=game.needs,
                                 span=lambda a, b: f"{a}", pips={5: [], 6: []}, duplex=[], simplex=[])
    assert "<script>x" not in html and "&lt;script&gt;x" in html
    assert "<img src=x>" not in html and "<u>" not in html and "<b>win</b>" in html
    assert "T &amp; &lt;T&gt;" in html


def test_allowed_paths_are_only_the_package_fonts_and_templates(tmp_path):
    font = FONT_DIR / "Lato-Regular.ttf"
    assert allowed_path(font.resolve().as_uri()) == font.resolve()
    assert allowed_path((documents.TEMPLATES / "kit.css.j2").resolve().as_uri())
    outside = tmp_path / "x.css"
    outside.write_text("p {}")
    for url in ("http://example.com/a.png", "https://example.com/a.css", "ftp://example.com/f",
                "data:text/css,p{}", "file:///etc/passwd", outside.as_uri(),
                FONT_DIR.resolve().as_uri() + "/../../../../etc/passwd",
                "file://evil.example.com" + str(font.resolve())):
        assert allowed_path(url) is None, url


def test_weasyprint_fetches_nothing_outside_the_package(tmp_path):
    secret = tmp_path / "secret.css"
    secret.write_text("body { background: red }")
    f = fetcher()
    html = f"""<html><head><link rel="stylesheet" href="{secret.as_uri()}">
      <link rel="stylesheet" href="http://example.com/x.css">
      <style>@font-face {{ font-family: "Sheetgen Lato"; src: url("{(FONT_DIR / 'Lato-Bold.ttf').resolve().as_uri()}") }}
      body {{ font-family: "Sheetgen Lato" }}</style></head>
      <body><p>Hello</p><img src="https://example.com/track.png"><img src="file:///etc/hostname">
      <img src="data:image/png;base64,iVBORw0KGgo="></body></html>"""
    pdf = pdf_from_html(html, f)
    assert set(f.refused) == {secret.as_uri(), "http://example.com/x.css",
                              "https://example.com/track.png", "file:///etc/hostname",
                              "data:image/png;base64,iVBORw0KGgo="}
    reader = PdfReader(io.BytesIO(pdf))
    assert "Hello" in reader.pages[0].extract_text()
    fonts = {str(v.get_object()["/BaseFont"]) for v in reader.pages[0]["/Resources"]["/Font"].values()}
    assert fonts and all("+Sheetgen-Lato" in name for name in fonts)  # the allowed font, embedded


def test_documents_are_deterministic(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    html = "<p>Same input, same bytes</p>"
    a = pdf_from_html(html)
    assert a == pdf_from_html(html)
    assert "SOURCE_DATE_EPOCH" not in os.environ  # set only while WeasyPrint works
    assert "/CreationDate" not in (PdfReader(io.BytesIO(a)).metadata or {})


def test_weasyprint_is_imported_only_when_a_document_is_made():
    code = ("import sys, sheetgen.kit, sheetgen.documents, sheetgen.api, sheetgen.cli; "
            "print('weasyprint' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_style_sheets_parsed_once_give_the_bytes_of_parsing_in_place():
    """layout() parses each <style> once per process and loads the fonts once; a document laid
    out that way is byte-identical to one whose sheets are parsed in place (a custom fetcher)."""
    style = documents.render_html("kit.css.j2")
    html = (f'<html lang="en"><head><style>{style}</style><style>@page {{ size: A4 }}</style></head>'
            '<body><section class="rules"><h1>Game</h1><div class="body"><div class="section">'
            '<h3>Goal</h3><p>Roll <b>two</b> dice and <i>cross</i> out boxes.</p></div></div>'
            '</section></body></html>')
    documents._sheet.cache_clear()
    first = documents.pdf(documents.layout(html))
    again = documents.pdf(documents.layout(html))
    assert documents._sheet.cache_info().hits == 2 and documents._sheet.cache_info().misses == 2
    in_place = documents.pdf(documents.layout(html, fetcher()))
    assert first == again == in_place
    text = PdfReader(io.BytesIO(first)).pages[0].extract_text()
    assert "Goal" in text.replace("GOAL", "Goal") and "dice" in text
