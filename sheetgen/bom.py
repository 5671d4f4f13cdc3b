"""Bill of materials of every kit: what each game's rulebook lists (its Contents, Components or
Equipment), how many, and where it comes from: the layout that prints it, or the household.

It drives the kit: the cover's "To play you need", the order of the parts (the rulebook's) and the
line about each part in the table of parts, written for players. tests/test_bom.py checks it
against the rulebooks and counts the printed pieces on each kit's PDF.

A printed need names `marks`: words printed once on each piece (on a card back, a part's label),
so a test can count the pieces on the PDF: count x per_unit marks on that part's pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

HOUSEHOLD = "household"
PAGE = "page"  # as a mark: each page of the part is one piece (a sheet)
NOT_NEEDED = "not needed"  # a rulebook line for something the game as written never uses


@dataclass(frozen=True)
class Need:
    text: str  # as the cover shows it, for players
    count: int  # in the rulebook's units (sets, men, cards; "1" of "1 per player")
    source: str  # a layout name, HOUSEHOLD or NOT_NEEDED
    rulebook: tuple[str, ...] = ()  # words of the rulebook's component lines this answers
    marks: tuple[str, ...] = ()  # words printed once per piece, counted on the PDF
    per_unit: int = 1  # pieces (marks) per counted unit, for the most players
    why: str = ""  # for NOT_NEEDED: the reason
    cover: bool = True  # listed on the cover (spares are printed but not needed to play)

    @property
    def printed(self) -> bool:
        return self.source not in (HOUSEHOLD, NOT_NEEDED)


@dataclass(frozen=True)
class Bill:
    rulebook: str  # the rulebook's file name
    needs: tuple[Need, ...]
    notes: dict[str, str] = field(default_factory=dict)  # layout -> its line in the kit, for players

    def order(self, layout: str) -> int:
        """Where a layout's part goes: the rulebook's order of the components it prints."""
        for i, n in enumerate(self.needs):
            if n.source == layout:
                return i
        return len(self.needs)


PENCIL = Need("a pencil or pen per player", 1, HOUSEHOLD, ("pencil", "pens"))

BILLS: dict[str, Bill] = {
    "ghosts-love-candy-too": Bill("ghosts-love-candy-too.txt", (
        Need("Tricky Treats: a sheet per player", 1, "tricky-treats", ("1 sheet",), (PAGE,)),
        Need("Haunt the Block: a sheet per player", 1, "haunt-the-block", ("1 sheet",), (PAGE,)),
        Need("Boogaloo: a sheet per player (four different sheets)", 1, "boogaloo", ("1 sheet",),
             (PAGE,), per_unit=4),
        PENCIL,
        Need("two six-sided dice", 2, HOUSEHOLD, ("six-sided dice",)),
    ), {"tricky-treats": "Collect candy, scare children, unlock powers: one sheet per player",
        "haunt-the-block": "Walk round the block writing 1 to 31: one sheet per player",
        "boogaloo": "Four different sheets: give each player one"}),
    "run-for-your-life": Bill("run-for-your-life-candyman.txt", (
        Need("4 rules cards", 4, "rules-cards", ("rules cards",), ("RULES",)),
        Need("the game mat", 1, "run-for-your-life-mat", ("game mat",)),
        Need("6 gingerbread meeples", 6, "gingerbread-meeples", ("gingerbread meeples",)),
        Need("65 Dash N Bash cards", 65, "dash-n-bash", ("dash n bash",), ("DASH",)),
        Need("44 Special Treat cards", 44, "special-treat-cards", ("special treat cards",), ("Candyman!",)),
        Need("a Gingerbread Status sheet per player (two to a page)", 1, "gingerbread-status",
             ("status sheets",), ("Status",), per_unit=2),
        Need("a pen or pencil per player", 1, HOUSEHOLD, ("pens or pencils",)),
        Need("scissors, and glue or tape, to make the mat and meeples", 1, HOUSEHOLD),
    ), {"run-for-your-life-mat": "The path from Candy Keep to the Finish Line, as tiles to glue",
        "gingerbread-meeples": "Six meeples (and six spares) to cut out and fold",
        "dash-n-bash": "Movement and attack cards, with backs",
        "special-treat-cards": "Special attacks and defences, with backs",
        "gingerbread-status": "Your cookie's health: one per player, two to a page"}),
    "roll-for-your-life": Bill("roll-for-your-life-candyman.txt", (
        Need("4 sets of 4 icon dice (or plain dice)", 4, "roll-dice", ("sets of colored dice",), ("cube",), per_unit=4),
        Need("4 gingerbread men of 6 parts", 4, "gingerbread-cookies", ("gingerbread men",),
             ("HEAD", "BODY", "ARM", "LEG"), per_unit=6),
        Need("spare cookie parts", 4, "cookie-spares", (), ("HEAD", "BODY", "ARM", "LEG"), per_unit=4,
             cover=False),
        Need("the Candy Crown", 1, "candy-props", ("candy crown",), ("CROWN",)),
        Need("12 Special Treat tokens", 12, "special-treat-tokens", ("special treat tokens",), ("TREAT",)),
        Need("4 Daggers and 4 Word Bubbles", 4, "candy-props", ("daggers and word bubbles",),
             ("Cherry", "Berry", "Lime", "Lemon", "SWEET!", "STOP!", "YUM!", "CRUMBS!"), per_unit=2),
        Need("the Candy Cane", 1, "candy-props", ("candy cane",), ("CANE!",)),
        Need("the score pad", 1, "roll-score-pad", (), ("Score",), per_unit=2),
        Need("a pencil, scissors and tape", 1, HOUSEHOLD),
    ), {"roll-dice": "Stickers for 16 mm dice, paper cubes to fold, and which number is which icon",
        "gingerbread-cookies": "One gingerbread man per player colour: head, body, two arms, two legs",
        "cookie-spares": "A spare head, body, arm and leg in each colour",
        "candy-props": "The Candy Crown to wrap and tape, the Candy Cane card, Word Bubbles and Daggers",
        "special-treat-tokens": "The 12 round treat tokens, with backs",
        "roll-score-pad": "Three rounds for up to four players, two pads to a page"}),
    "rollers": Bill("rollers.txt", (
        Need("5 game boards, one per player", 5, "rollers-board", ("game board",), (PAGE,)),
        Need("75 board markers, 15 in each player colour", 75, "rollers-chips", ("board markers",),
             ("RED", "BLUE", "GREEN", "GOLD", "GREY")),
        Need("75 chips: 50 purple worth 5, 25 white worth 1", 75, "rollers-chips", ("chips",), ("5", "1")),
        Need("25 point markers, 5 in each player colour", 25, "rollers-chips", ("circle markers",), ("POINT",)),
        Need("6 dice: 5 purple with a STAR, 1 black with a ZAP (or plain dice)",
             6, "rollers-dice", ("custom dice", "rollers dice"), ("cube",)),
        Need("the rules", 1, "rules-cards", ("rulebook",)),
        Need("challenge cards", 0, NOT_NEEDED, ("game cards",),
             why="the rulebook's opening describes a different game with challenge cards; the race "
                 "to 5 points that it then explains uses none"),
        Need("scissors", 1, HOUSEHOLD),
    ), {"rollers-board": "One board per player, one to a page",
        "rollers-chips": "Chips, board markers and point markers to cut out",
        "rollers-dice": "Stickers for 16 mm dice, paper cubes to fold, and the plain-dice reading"}),
    "roll-and-fight": Bill("roll-and-fight.txt", (
        Need("4 player boards, one per player", 1, "roll-and-fight-board", ("board with two spaces",),
             ("Baker",), per_unit=4),
        Need("a set of paper dice per player: d4, d8, d10, d10%, d12, d20", 1, "paper-dice",
             ("polyhedral dice", "d10:", "d10%:"), ("d4", "d8", "d10", "d10%", "d12", "d20"), per_unit=24),
        Need("a six-sided die per player", 1, HOUSEHOLD, ("d6",)),
        Need("scissors and glue", 1, HOUSEHOLD),
    ), {"roll-and-fight-board": "One board per player, two to a page",
        "paper-dice": "A set of six paper dice per player to cut, fold and glue"}),
}


def bill(product: str) -> Bill | None:
    return BILLS.get(product)


def to_play(product: str) -> tuple[list[str], list[str]]:
    """The cover's lists: (printed in the kit, from home)."""
    b = bill(product)
    if b is None:
        return [], []
    return ([n.text for n in b.needs if n.printed and n.cover],
            [n.text for n in b.needs if n.source == HOUSEHOLD])
