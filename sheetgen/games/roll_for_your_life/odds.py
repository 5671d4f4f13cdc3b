"""A quick seeded simulation of ROLL for Your Life's icon dice, to choose their faces: how many
throws a race to four of a kind takes, and how often SWEET! and FOUL! happen in a whole game.

Simplified play, stated so the figures can be read: every player throws all four dice together,
keeps the icon they hold most of (ties: the first face in the die's order) and rethrows the rest;
the first to hold four of a kind (ties: drawn at random) is the Attacker. A SWEET! (four of a
kind on the first throw) acts as wild and takes a limb, else a head or body, else a treat. The
Attacker takes from the Foe with the most parts; 4 Peppermint Swirls take a treat from the middle
first, else strip a Foe's treat (its effect is not played), else take a head or body from a Foe
with no limbs. No possible action is a FOUL!: the Attacker boxes one of their own parts (a limb
first). A round ends with one cookie left; a game is three rounds.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

ICONS = {"cookie_arm": "arm", "cookie_leg": "leg", "peppermint": "swirl"}  # the faces' icons in the layout


@dataclass(frozen=True)
class Odds:
    races: int
    throws: float  # mean throws of the fastest player to four of a kind
    slow: float  # share of races taking 4 throws or more
    sweet: float  # share of races won by a SWEET!
    foul: float  # share of attacks that are a FOUL!


def _race(faces: list[str], players: int, rng: random.Random) -> tuple[int, int, str, bool]:
    """(throws, winner, icon, sweet) of one race to four of a kind."""
    held: list[list[str]] = [[] for _ in range(players)]
    throw = 0
    while True:
        throw += 1
        done = []
        for p in range(players):
            dice = held[p] + [rng.choice(faces) for _ in range(4 - len(held[p]))]
            counts = Counter(dice)
            best = max(counts, key=lambda k: (counts[k], -faces.index(k)))
            if counts[best] == 4:
                done.append((p, best))
            held[p] = [best] * counts[best]
        if done:
            p, icon = rng.choice(done)
            return throw, p, icon, throw == 1


def _round(faces: list[str], parts: list[str], players: int, rng: random.Random, tally: Counter) -> None:
    cookies = [list(parts) for _ in range(players)]
    shield = [False] * players
    middle = players + 1
    while sum(1 for c in cookies if c) > 1:
        throws, me, icon, sweet = _race(faces, players, rng)
        tally["races"] += 1
        tally["throws"] += throws
        tally["slow"] += throws >= 4
        tally["sweet"] += sweet
        if not cookies[me]:  # a Crumbed player sits out: rethrow
            continue
        foes = sorted((f for f in range(players) if f != me and cookies[f]), key=lambda f: -len(cookies[f]))
        wants = ["arm", "leg", "swirl"] if sweet else [icon]
        acted = False
        for want in wants:
            if want in ("arm", "leg"):
                target = next((f for f in foes if not shield[f] and want in cookies[f]), None)
                if target is not None:
                    cookies[target].remove(want)
                    acted = True
            elif middle and not shield[me]:
                middle, shield[me], acted = middle - 1, True, True
            else:
                target = next((f for f in foes if shield[f]), None)
                if target is not None:
                    shield[target], acted = False, True
                else:
                    bare = next((f for f in foes if not shield[f] and cookies[f]
                                 and not {"arm", "leg"} & set(cookies[f])), None)
                    if bare is not None:
                        cookies[bare].pop()
                        acted = True
            if acted:
                break
        tally["attacks"] += 1
        if not acted:
            tally["foul"] += 1
            mine = cookies[me]
            mine.remove(next((p for p in ("arm", "leg") if p in mine), mine[-1]))


def simulate(faces: list[str], parts: dict[str, int], players: int = 4, games: int = 200,
             seed: int = 1) -> Odds:
    """Figures over `games` three-round games; `faces` are the six faces of each die by icon
    (cookie_arm, cookie_leg, peppermint; any other is a face that does nothing), so renaming a face
    in the layout changes nothing here; `parts` a cookie's parts and their counts, as the cookies
    layout gives them (head, body, arm, leg)."""
    faces = [ICONS.get(f, f) for f in faces]
    parts = [name for name, n in parts.items() for _ in range(n)]
    rng = random.Random(seed)
    tally: Counter = Counter()
    for _ in range(games):
        for _ in range(3):
            _round(faces, parts, players, rng, tally)
    n = tally["races"]
    return Odds(n, round(tally["throws"] / n, 2), round(tally["slow"] / n, 3),
                round(tally["sweet"] / n, 3), round(tally["foul"] / max(1, tally["attacks"]), 3))
