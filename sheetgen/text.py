"""The text sanitiser: the only inline markup that reaches a renderer, and the only placeholders.

Text from a layout (card texts, token names, rules) is drawn by reportlab's paragraph parser and,
for the rules, by WeasyPrint. Both would follow markup such as <img src>, <a href> or <font>, so
every paragraph passes `check_markup` first: only <b>, <i> (balanced), <br/> and the entities
&amp; &lt; &gt; &quot; &#NN; are let through; anything else is refused, naming the tag.

`fill(template, values)` fills `{name}` placeholders (rules summaries printed on sheets) with the
names a sheet defines only: no attribute or index lookups, no unknown names.
"""

from __future__ import annotations

import re
import string

_TOKEN = re.compile(r"<[^>]*>|&[^;\s]*;?|[<>&]")
ENTITIES = {"&amp;", "&lt;", "&gt;", "&quot;"}
_NUMERIC = re.compile(r"^&#\d{1,6};$")


def check_markup(text: str, bare_amp: bool = False) -> str:
    """`text` with its whitespace folded, if its markup is allowed; else ValueError naming it.
    `bare_amp`: a lone '&' (not an entity) is text, as reportlab reads it; layout text that also
    goes to HTML (the rules) must write it as &amp;."""
    open_tags: list[str] = []
    for tok in _TOKEN.findall(text):
        if tok in ("<b>", "<i>"):
            open_tags.append(tok[1])
        elif tok in ("</b>", "</i>"):
            if not open_tags or open_tags.pop() != tok[2]:
                raise ValueError(f"'{tok}' closes a tag that is not open")
        elif tok in ("<br/>", "<br />") or tok in ENTITIES or _NUMERIC.match(tok):
            continue
        elif bare_amp and tok.startswith("&") and not tok.endswith(";"):
            continue
        else:
            shown = tok if len(tok) <= 40 else tok[:37] + "..."
            raise ValueError(f"'{shown}' is not allowed in text; use only <b>, <i>, <br/> "
                             "and &amp; (write a plain & as &amp;)")
    if open_tags:
        raise ValueError(f"<{open_tags[-1]}> is never closed")
    return " ".join(text.split())


def fill(template: str, values: dict) -> str:
    """`template` with `{name}` replaced by values[name]; ValueError for any other placeholder."""
    out = []
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(f"unbalanced braces ({exc}); write a literal brace as {{{{ or }}}}") from None
    for literal, name, spec, conv in parts:
        out.append(literal)
        if name is None:
            continue
        if name not in values or spec or conv:
            known = ", ".join("{" + k + "}" for k in values) or "none"
            raise ValueError(f"placeholder '{{{name}{'!' + conv if conv else ''}"
                             f"{':' + spec if spec else ''}}}' is not one this sheet defines "
                             f"(it defines {known})")
        out.append(str(values[name]))
    return "".join(out)
