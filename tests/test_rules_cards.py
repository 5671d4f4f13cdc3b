"""Rules cards: every game, --game, card counts, text never lost or below 6 pt, splitting."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from sheetgen import api
from sheetgen.errors import SheetgenError
from sheetgen.games.rules_cards.compose import cards, frame
from sheetgen.games.rules_cards.flow import CONT, flow, needs_section
from sheetgen.games.rules_cards.model import RulesGame as Game, plain
from sheetgen.kinds import Options, load, render_pages
from sheetgen.scene import Para, Text, walk

from conftest import page_mm
from pdfs import open_pdf, page_texts

# the cards each game takes with the shipped text (Run for Your Life had four rules cards)
COUNTS = {"tricky-treats": 4, "haunt-the-block": 3, "boogaloo": 2, "run-for-your-life": 4,
          "roll-for-your-life": 4, "roll-and-fight": 3, "rollers": 3}
PRODUCTS = {"tricky-treats": "ghosts-love-candy-too", "haunt-the-block": "ghosts-love-candy-too",
            "boogaloo": "ghosts-love-candy-too", "run-for-your-life": "run-for-your-life",
            "roll-for-your-life": "roll-for-your-life", "roll-and-fight": "roll-and-fight",
            "rollers": "rollers"}


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def doc():
    return load("rules-cards").doc


@pytest.fixture(scope="module")
def deck(doc):
    return cards(doc, Options())


@pytest.fixture(scope="module")
def per_game(tmp_path_factory):
    """Each game's cards rendered alone with --game: {game id: pdf path}."""
    out = tmp_path_factory.mktemp("games")
    return {gid: api.render("rules-cards", out / f"{gid}.pdf", Options(game=gid)).path
            for gid in COUNTS}


def test_every_game_present_with_its_kit(doc):
    assert {g.id: g.product for g in doc.content.games} == PRODUCTS
    for g in doc.content.games:
        assert g.players and g.time and g.age and g.needs and len(g.sections) >= 4, g.id


def test_card_count_per_game(deck):
    counts: dict[str, int] = {}
    for c in deck:
        counts[c.game.id] = counts.get(c.game.id, 0) + 1
        assert c.total == COUNTS[c.game.id]
    assert counts == COUNTS
    assert sum(COUNTS.values()) == len(deck)


def test_game_option_renders_one_game(per_game, doc):
    names = {g.id: g.name for g in doc.content.games}
    for gid, path in per_game.items():
        n = COUNTS[gid]
        reader = PdfReader(path)
        assert len(reader.pages) == 2 * -(-n // 8)  # fronts, then their backs
        front = page_texts(path)[0]
        for i in range(1, n + 1):
            assert f"{i}/{n}" in front, (gid, i)
        assert f"{n + 1}/{n}" not in front
        for other in COUNTS:
            if other != gid:
                assert names[other] not in front, (gid, other)


@pytest.mark.parametrize("name", ["Roll & Fight", "ROLL-AND-FIGHT", "roll and fight"])
def test_game_matches_id_or_name(doc, name):
    assert {c.game.id for c in cards(doc, Options(game=name))} == {"roll-and-fight"}


def test_product_picks_its_games(doc):
    got = {c.game.id for c in cards(doc, Options(game="ghosts-love-candy-too"))}
    assert got == {"tricky-treats", "haunt-the-block", "boogaloo"}


def test_headings_and_every_word_in_the_pdf(per_game, doc):
    games = {g.id: g for g in doc.content.games}
    for gid, path in per_game.items():
        text = squash(page_texts(path)[0])
        game = games[gid]
        assert squash(game.name) in text
        for sec in [needs_section(game), *game.sections]:
            assert squash(sec.heading) in text, (gid, sec.heading)
        for card in cards(doc, Options(game=gid)):
            for block in card.blocks:  # no text lost: each block's words are on the page
                assert squash(plain(block.markup)) in text, (gid, block.heading)


def test_no_text_below_six_points(doc, per_game):
    pages = render_pages(load("rules-cards"), Options())
    sizes = [it.min_size if isinstance(it, Para) else it.size
             for page in pages for it, _, _ in walk(page.items) if isinstance(it, (Para, Text))]
    assert sizes and min(sizes) >= 6.0
    body = [it.size for page in pages for it, _, _ in walk(page.items) if isinstance(it, Para)]
    assert min(body) >= 6.5  # in practice: 7 pt preferred, Run for Your Life's 4 cards at 6.75
    for path in per_game.values():
        with open_pdf(path) as pdf:
            assert min(ch["size"] for ch in pdf.pages[0].chars) >= 6.0 - 1e-6


def test_sections_in_order_and_continued(deck):
    for gid in COUNTS:
        heads = [b.heading.removesuffix(CONT) for c in deck if c.game.id == gid for b in c.blocks]
        game = next(c.game for c in deck if c.game.id == gid)
        want = ["You need"] + [s.heading for s in game.sections]
        assert list(dict.fromkeys(heads)) == want
        for c in deck:
            for b in c.blocks:
                if b.heading.endswith(CONT):
                    assert c.blocks[0] is b  # a continued section opens its card


def _game(text: str, **kw) -> Game:
    return Game(id="long-one", name="Long One", product="rollers", players="2", time="5 min",
                age="8+", needs=["dice"], sections=[{"heading": "Short", "text": "One line."},
                                                     {"heading": "Long", "text": text}], **kw)


def test_overlong_section_is_split_not_shrunk(doc):
    sentences = [f"Rule number {i} says that the player on the left does <b>thing {i}</b> twice."
                 for i in range(60)]
    game = _game(" ".join(sentences))
    lay = doc.layout
    out = flow(game, frame(lay), lay.text_size, lay.min_text_size)
    assert len(out) >= 3
    assert all(c.size >= lay.min_text_size for c in out)
    assert [c.number for c in out] == list(range(1, len(out) + 1))
    assert all(c.total == len(out) for c in out)
    parts = [b for c in out for b in c.blocks if b.heading.startswith("Long")]
    assert parts[0].heading == "Long" and all(b.heading == "Long" + CONT for b in parts[1:])
    assert " ".join(plain(b.markup) for b in parts) == plain(" ".join(sentences))
    for b in parts:  # splits fall between sentences, tags stay balanced
        assert b.markup.count("<b>") == b.markup.count("</b>")


def test_fixed_card_count_too_small_is_an_error(doc):
    game = _game(" ".join(f"Sentence {i} is here to fill the card up a bit more." for i in range(80)),
                 cards=1)
    with pytest.raises(SheetgenError, match=r"Long One needs \d+ cards at 6 pt.*cards: \d+"):
        flow(game, frame(doc.layout), doc.layout.text_size, doc.layout.min_text_size)


def test_fixed_card_count_grows_the_text(doc):
    text = " ".join(f"Sentence {i} is here." for i in range(30))
    lay = doc.layout
    free = flow(_game(text), frame(lay), lay.text_size, lay.min_text_size)
    fixed = flow(_game(text, cards=len(free) + 1), frame(lay), 12, lay.min_text_size)
    assert len(fixed) <= len(free) + 1 and fixed[0].size > free[0].size


def test_sentence_too_long_for_a_card_names_the_game(doc):
    game = _game("word " * 2000 + ".")
    with pytest.raises(SheetgenError, match="Long One"):
        flow(game, frame(doc.layout), doc.layout.text_size, doc.layout.min_text_size)


def test_bad_game_name_is_one_line_error(main, tmp_path):
    res = main("render", "rules-cards", "--game", "monopoly", "--out", str(tmp_path / "x.pdf"))
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "monopoly" in lines[0]
    assert all(gid in lines[0] for gid in COUNTS)
    assert not (tmp_path / "x.pdf").exists()


def test_cli_game_option(main, tmp_path):
    out = tmp_path / "b.pdf"
    res = main("render", "rules-cards", "--game", "boogaloo", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "Boogaloo" in page_texts(out)[0]


def test_backs_follow_fronts_and_name_the_game(per_game):
    back = page_texts(per_game["rollers"])[1]
    assert back.count("RULES") == COUNTS["rollers"] and "Rollers" in back
    assert PdfReader(api.render("rules-cards", per_game["rollers"].with_name("nb.pdf"),
                                Options(game="rollers", backs=False)).path).get_num_pages() == 1


def test_letter_and_a4(tmp_path):
    a4 = api.render("rules-cards", tmp_path / "a4.pdf").path
    letter = api.render("rules-cards", tmp_path / "l.pdf", Options(paper="letter")).path
    total = sum(COUNTS.values())
    assert set(page_mm(a4)) == {(297.0, 210.0)} and len(page_mm(a4)) == 2 * -(-total // 8)
    assert set(page_mm(letter)) == {(279.4, 215.9)} and len(page_mm(letter)) == len(page_mm(a4))


def test_same_input_same_bytes(tmp_path):
    a = api.render("rules-cards", tmp_path / "a.pdf", Options(game="tricky-treats")).path
    b = api.render("rules-cards", tmp_path / "b.pdf", Options(game="tricky-treats")).path
    assert a.read_bytes() == b.read_bytes()


def test_card_text_stays_inside_the_safe_zone(doc):
    from sheetgen.cards import SAFE
    from sheetgen.games.rules_cards.compose import front
    w, h = doc.layout.size
    for card in cards(doc, Options()):
        for it, dx, dy in walk(front(card, doc.layout)):
            if isinstance(it, Para):
                assert SAFE <= it.x and it.x + it.w <= w - SAFE
                assert it.y + it.h <= h - SAFE, (card.game.id, card.number, it.id)


def test_rules_text_prints_the_parts_numbers(tmp_path, monkeypatch):
    """The numbers a game's rules name come from the layouts it needs: a house copy of Haunt the
    Block whose bars are worth 7 and a mat whose Twins attack 3 times change the rules' text."""
    from conftest import LAYOUTS
    from sheetgen.kit import rules_games

    def text(gid):
        return " ".join(s.text for g in rules_games() if g.id == gid for s in g.sections)

    assert "worth 5: for" in text("haunt-the-block") and "they make 4 dash" in text("run-for-your-life").lower()
    for name, old, new in [("haunt-the-block", "bar_points: 5", "bar_points: 7"),
                           ("run-for-your-life-mat", "twin_attacks: 4", "twin_attacks: 3")]:
        raw = (LAYOUTS / f"{name}.yaml").read_text(encoding="utf-8")
        assert old in raw
        (tmp_path / f"{name}.yaml").write_text(raw.replace(old, new), encoding="utf-8")
    monkeypatch.setenv("SHEETGEN_PATH", str(tmp_path))
    assert "worth 7: for" in text("haunt-the-block") and "worth 5" not in text("haunt-the-block")
    assert "they make 3 Dash" in text("run-for-your-life")
    pdf = api.render("rules-cards", tmp_path / "rfyl.pdf", Options(game="run-for-your-life")).path
    assert "theymake3DashNBash" in squash(" ".join(page_texts(pdf)))


def test_unknown_number_in_rules_text_names_the_section(tmp_path, monkeypatch):
    from conftest import LAYOUTS

    raw = (LAYOUTS / "rules-cards.yaml").read_text(encoding="utf-8")
    assert "In just {turns} turns" in raw
    (tmp_path / "rules-cards.yaml").write_text(raw.replace("In just {turns} turns", "In just {rounds} turns"),
                                               encoding="utf-8")
    monkeypatch.setenv("SHEETGEN_PATH", str(tmp_path))
    with pytest.raises(SheetgenError) as err:
        api.render("rules-cards", tmp_path / "x.pdf", Options(game="boogaloo"))
    msg = str(err.value)
    assert "rules-cards.yaml" in msg and "{rounds}" in msg and "sections" in msg and "{turns}" in msg
    assert not (tmp_path / "x.pdf").exists()


def test_a_part_edited_while_running_is_read_again(tmp_path, monkeypatch):
    """A long-running process (sheetgen serve) sees a part's layout change: the shared load is
    keyed by the files' stamps, not by name alone."""
    import os

    from conftest import LAYOUTS
    from sheetgen.games.rules_cards.source import part_counts

    house = tmp_path / "haunt-the-block.yaml"
    raw = (LAYOUTS / "haunt-the-block.yaml").read_text(encoding="utf-8")
    house.write_text(raw, encoding="utf-8")
    monkeypatch.setenv("SHEETGEN_PATH", str(tmp_path))
    assert part_counts("haunt-the-block")["bar"] == 5
    house.write_text(raw.replace("bar_points: 5", "bar_points: 8"), encoding="utf-8")
    st = house.stat()
    os.utime(house, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a new stamp even on a coarse clock
    assert part_counts("haunt-the-block")["bar"] == 8
