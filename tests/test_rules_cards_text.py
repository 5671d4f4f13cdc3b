"""The rules text itself: our own words (no 8-word run of a rulebook anywhere the project prints text),
markup both renderers read."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from sheetgen.errors import SheetgenError
from sheetgen.games.rules_cards.source import filled
from sheetgen.kinds import load
from sheetgen.kit import rules_games

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = Path(os.environ.get("SHEETGEN_RULEBOOKS", ""))  # the rulebooks' .txt files (.ci/run sets it)
YAML = ROOT / "layouts" / "rules-cards.yaml"
RUN = 8  # words in a row that may not come from a rulebook


def words(text: str) -> list[str]:
    text = re.sub(r"<[^>]+>", " ", text).replace("&amp;", "&").replace("\u2019", "'").lower()
    return re.findall(r"[a-z0-9']+", text)


def runs(ws: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    return {tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)}


def yaml_strings(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in yaml_strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in yaml_strings(v)]
    return []


def project_texts() -> dict[str, list[str]]:
    """Every text the project prints: strings of every layout, of the code and of the templates."""
    import ast

    texts = {str(p.relative_to(ROOT)): yaml_strings(yaml.safe_load(p.read_text(encoding="utf-8")))
             for p in (ROOT / "layouts").glob("*.yaml")}
    for p in (ROOT / "sheetgen").rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        texts[str(p.relative_to(ROOT))] = [n.value for n in ast.walk(tree)
                                           if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    for p in (ROOT / "templates").rglob("*.*"):
        texts[str(p.relative_to(ROOT))] = [p.read_text(encoding="utf-8")]
    texts["rules-cards, numbers filled in"] = [s.text for g in rules_games() for s in g.sections]
    return texts


@pytest.mark.skipif(not os.environ.get("SHEETGEN_RULEBOOKS") or not RULES_DIR.is_dir(),
                    reason="set SHEETGEN_RULEBOOKS to a folder of the rulebooks' .txt files to run "
                           "the copy guard (they are not in this repository)")
def test_no_rulebook_sentence_copied():
    books = {p.name: runs(words(p.read_text(encoding="utf-8"))) for p in RULES_DIR.glob("*.txt")}
    assert books, "no rulebooks found"
    texts = project_texts()
    assert str(YAML.relative_to(ROOT)) in texts and len(texts) > 40
    copied = []
    for where, strings in texts.items():
        for s in strings:
            for run in runs(words(s)):
                copied += [f"{where} ~ {name}: {' '.join(run)}" for name, seen in books.items() if run in seen]
    assert copied == []


def test_guard_catches_a_copy():
    book = "If doubles are rolled, ignore the values shown on the dice right now."
    assert runs(words("So: if doubles are rolled, ignore the values shown, ok")) & runs(words(book))


def _with_text(tmp_path, text: str) -> Path:
    data = yaml.safe_load(YAML.read_text(encoding="utf-8"))
    data["content"]["games"][0]["sections"][0]["text"] = text
    path = tmp_path / "rc.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("text, fault", [
    ("Roll <u>both</u> dice.", "<u>"),
    ("Roll <b>both dice.", "never closed"),
    ("Roll both</i> dice.", "not open"),
    ("Salt & pepper.", "&"),
    ('Roll <font color="red">both</font>.', "<font"),
])
def test_markup_both_renderers_read(tmp_path, text, fault):
    with pytest.raises(SheetgenError) as err:
        load(_with_text(tmp_path, text))
    assert fault in str(err.value) and "sections.0.text" in str(err.value)


def test_allowed_markup_loads(tmp_path):
    doc = load(_with_text(tmp_path, "Roll <b>both</b> dice.<br/><i>Tip:</i> Roll &amp; Fight.")).doc
    assert doc.content.games[0].sections[0].text.startswith("Roll <b>both</b>")


def test_every_rule_topic_covered():
    doc = load("rules-cards").doc
    text = {g.id: " ".join(s.heading + " " + s.text for s in filled(g).sections).lower()
            for g in doc.content.games}
    must = {
        "tricky-treats": ["doubles", "scare", "skull", "star", "cauldron", "pyramid", "bone", "bat",
                          "full moon", "boo-nus", "chocolate bar", "turn 16", "tie"],
        "haunt-the-block": ["start", "clockwise", "doubles", "pumpkin", "romeo", "penalty", "star",
                            "turn 31", "ties"],
        "boogaloo": ["doubles", "star", "haunt", "row", "column", "turn 13", "tie"],
        "run-for-your-life": ["special treat candy", "sweet toof", "bridge", "equip", "ranged",
                              "defense", "play at any time", "cage match", "twins", "trophies",
                              "classic"],
        "roll-for-your-life": ["go!", "stop!", "sweet!", "foul!", "crumbed", "three rounds",
                               "tie", "short game", "m dudd", "licorice whip", "taffy trip"],
        "roll-and-fight": ["crew", "pile", "chef", "throwdown", "fewest sides", "round 7", "d10%"],
        "rollers": ["star", "zap", "open", "close", "collect", "2 points", "1 point", "5 points"],
    }
    for gid, topics in must.items():
        for topic in topics:
            assert topic in text[gid], (gid, topic)


def test_needs_items_are_whole():
    """A comma inside a YAML flow list splits an item: every item keeps its brackets paired."""
    for g in load("rules-cards").doc.content.games:
        for item in g.need_texts():
            assert item.count("(") == item.count(")") and item[0] not in ",)", (g.id, item)
