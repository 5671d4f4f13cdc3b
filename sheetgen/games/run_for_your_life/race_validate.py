"""`sheetgen validate run-for-your-life-mat`: race many games on the mat and report.

Checks first that every Dash N Bash card has a legal move from every space a meeple can stand on
(and that the deck and the mat agree); then plays `games` games per player count and policy.
Games are cut into batches of BATCH; batch b of (players, policy) is seeded by
`SeedSequence(seed, spawn_key=(players, policy, b))`, and each of its games by a seed drawn from
it, so the report is the same with any number of workers. Exit 0: every card always moves and no
game hit the turn cap; 1: a fault (named: space and card, or the seed of the capped game); 2: bad
input.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ... import pools
from ...errors import SheetgenError
from .mat import Mat, disagreements
from .race import POLICIES, State, make_game

KIND = "run-for-your-life-mat"
BATCH = 250
TURN_CAP = 1000


def is_race(layout: str) -> bool:
    """Is this layout a game mat (cheap: reads only its kind)?"""
    from ...kinds import resolve
    from ...layout import load_raw

    try:
        data, _ = load_raw(resolve(layout))
    except SheetgenError:
        return False
    return isinstance(data, dict) and data.get("kind") == KIND


def _load(path: str):
    """(mat, deck, status sheet), read again when one of their files changes (`load_shared`); a
    mat that disagrees with its deck loads (`legality` reports it as a fault; drawing it refuses
    it)."""
    from ...kinds import load_shared

    mat = load_shared(path).doc
    if not isinstance(mat, Mat):
        raise SheetgenError(f"'{path}' is not a game mat", fix=f"validate a {KIND} layout")
    return mat, load_shared(mat.content.deck).doc, load_shared(mat.content.status).doc


_GAMES: dict = {}  # (path, rules) -> (the docs it was made from, the game)


def game_of(path: str, classic: bool = False, challenge: bool = False):
    docs = _load(path)
    hit = _GAMES.get((path, classic, challenge))
    if hit is None or any(a is not b for a, b in zip(hit[0], docs)):
        if len(_GAMES) >= 8:
            _GAMES.clear()
        hit = _GAMES[path, classic, challenge] = docs, make_game(*docs, classic, challenge=challenge)
    return hit[1]


def legality(path: str) -> list[str]:
    """Faults of the mat with its deck: disagreements, then each card that has no legal move from
    some space (naming the spaces)."""
    mat, deck, status = _load(path)
    faults = disagreements(mat.content.path, deck)
    if faults:
        candies = {c.id for c in deck.content.candies}
        if any(s.candy and s.candy not in candies for s in mat.content.path):
            return faults  # the race cannot be set up
    g = make_game(mat, deck, status)
    names = [c.id for c in deck.content.cards]
    for ci, name in enumerate(names):
        stuck = [x for x in range(g.track.finish) if not g.table[ci][x]]
        if stuck:
            shown = ", ".join(_space(g, x) for x in stuck[:5]) + (" …" if len(stuck) > 5 else "")
            faults.append(f"card {name}: no legal move from {len(stuck)} space"
                          f"{'s' if len(stuck) > 1 else ''} ({shown})")
    return faults


def _space(g, x: int) -> str:
    return f"space {x} ({g.track.kinds[x]})"


@dataclass
class Tally:
    games: int = 0
    escapes: int = 0
    trophy_wins: int = 0
    capped: int = 0
    turns: list = field(default_factory=list)  # per game
    cage_matches: int = 0
    throws: int = 0
    treat_draws: int = 0
    landings: list = field(default_factory=list)
    faults: list = field(default_factory=list)  # (seed, what)

    def add(self, o: "Tally") -> None:
        self.games += o.games
        self.escapes += o.escapes
        self.trophy_wins += o.trophy_wins
        self.capped += o.capped
        self.turns += o.turns
        self.cage_matches += o.cage_matches
        self.throws += o.throws
        self.treat_draws += o.treat_draws
        self.landings = [a + b for a, b in zip(self.landings, o.landings)] if self.landings else list(o.landings)
        self.faults += o.faults


def play(g, players: int, policy: str, seed: int, cap: int = TURN_CAP) -> State:
    """One game, all players on `policy`, cards and choices from random.Random(seed)."""
    rng = random.Random(seed)
    choose = POLICIES[policy]
    s = State(g, players)
    while not s.is_terminal() and s.turns < cap:
        if s.is_chance_node():
            s.apply_action(s.sample(rng))
        else:
            s.apply_action(choose(s, s.options, rng))
    return s


def batch(path: str, players: int, policy: str, seed: int, b: int, games: int, classic: bool,
          challenge: bool) -> Tally:
    g = game_of(path, classic, challenge)
    ss = np.random.SeedSequence(seed, spawn_key=(players, list(POLICIES).index(policy), b))
    seeds = np.random.default_rng(ss).integers(0, 2**62, size=games)
    t = Tally(landings=[0] * len(g.track.kinds))
    for gs in seeds.tolist():
        s = play(g, players, policy, gs)
        t.games += 1
        t.turns.append(s.turns)
        t.cage_matches += s.cage_matches
        t.throws += s.throws
        t.treat_draws += s.treat_draws
        t.landings = [a + b for a, b in zip(t.landings, s.landings)]
        if not s.is_terminal():
            t.capped += 1
            if len(t.faults) < 5:
                t.faults.append((gs, f"no winner after {s.turns} turns"))
        elif s.win_by == "escape":
            t.escapes += 1
        else:
            t.trophy_wins += 1
    return t


def _job(args) -> Tally:
    return batch(*args)


def run(path: str, games: int, seed: int, players: list[int], policies: list[str],
        workers: int | None = None, classic: bool = False, challenge: bool = False) -> dict:
    """The report as a dict (what --json prints)."""
    faults = legality(path)
    report: dict = {"layout": path, "games": games, "seed": seed, "batch": BATCH, "turn_cap": TURN_CAP,
                    "classic": classic, "challenge": challenge, "legal_moves": not faults, "faults": list(faults), "runs": []}
    if faults:
        return report
    g = game_of(path, classic, challenge)
    jobs, keys = [], []
    for n in players:
        for pol in policies:
            for b, start in enumerate(range(0, games, BATCH)):
                jobs.append((path, n, pol, seed, b, min(BATCH, games - start), classic, challenge))
                keys.append((n, pol))
    if (workers or 1) > 1 and len(jobs) > 1:
        with pools.pool(workers) as pool:
            results = list(pool.map(_job, jobs))
    else:
        results = [_job(j) for j in jobs]
    totals: dict = {}
    for key, t in zip(keys, results):  # in batch order: same sums with any number of workers
        totals.setdefault(key, Tally(landings=[0] * len(g.track.kinds))).add(t)
    landings = [0] * len(g.track.kinds)
    for (n, pol), t in totals.items():
        turns = np.array(t.turns)
        report["runs"].append({
            "players": n, "policy": pol, "games": t.games,
            "escape_share": t.escapes / t.games, "trophy_share": t.trophy_wins / t.games,
            "capped": t.capped, "turns_mean": float(turns.mean()),
            "turns_p90": float(np.percentile(turns, 90)),
            "cage_matches_per_game": t.cage_matches / t.games,
            "sweet_toof_throws_per_game": t.throws / t.games,
            "special_treat_draws_per_game": t.treat_draws / t.games,
            "cap_faults": [{"seed": s, "what": w} for s, w in t.faults]})
        landings = [a + b for a, b in zip(landings, t.landings)]
        for s, w in t.faults:
            report["faults"].append(f"{n} players, {pol}: game seed {s}: {w}")
    total = sum(landings) or 1
    report["landings"] = [round(v / total, 6) for v in landings]
    return report


def parse_players(text: str | None) -> list[int]:
    """'2-6', '4' or '2,4,6' -> player counts (2 to 6)."""
    text = text or "2-6"
    try:
        if "-" in text:
            a, b = (int(v) for v in text.split("-"))
            out = list(range(a, b + 1))
        else:
            out = [int(v) for v in text.split(",")]
    except ValueError:
        raise SheetgenError(f"--players {text} is not understood", fix="write e.g. 4, 2,4,6 or 2-6") from None
    if not out or any(not 2 <= n <= 6 for n in out):
        raise SheetgenError(f"--players {text}: the race is for 2 to 6 players", fix="use numbers from 2 to 6")
    return out


def heatmap(path: str, report: dict, out: Path) -> Path:
    """The poster with every space shaded by how often meeples end a move there."""
    from ...draw import write_pdf
    from ...scene import Page, Text
    from .mat import pt, poster_items, space_id

    mat, _, _ = _load(path)
    geo, items = poster_items(mat, mat.layout.poster, ink=True)
    top = max(report["landings"]) or 1
    shade = {space_id(i): v / top for i, v in enumerate(report["landings"])}
    for i, v in enumerate(report["landings"]):  # the share in figures too, not only the shade
        x, y = geo.centres[i]
        items.append(Text(x, y + geo.radius - 2 * geo.scale, f"{v:.1%}", pt(8, geo.scale), bold=True,
                          align="center", id=f"{space_id(i)}.share"))
    return write_pdf([Page(geo.width, geo.height, items, label="Landings")], out,
                     f"{mat.title}: where meeples land", shade)


def show(report: dict) -> str:
    rules = [r for r in RULES if report.get(r)] or ["basic"]
    lines = [f"{report['layout']} ({' + '.join(rules)} rules): "
             f"{'every card has a legal move from every space' if report['legal_moves'] else 'FAULTS'}"]
    for r in report["runs"]:
        lines.append(f"{r['players']} players, {r['policy']:>6}: {r['games']} games, escape "
                     f"{r['escape_share']:.1%} / trophies {r['trophy_share']:.1%}, turns mean "
                     f"{r['turns_mean']:.1f} p90 {r['turns_p90']:.0f}, cage matches "
                     f"{r['cage_matches_per_game']:.2f}/game, Sweet Toof throws "
                     f"{r['sweet_toof_throws_per_game']:.2f}/game, capped {r['capped']}")
    if report.get("landings"):
        top = sorted(range(len(report["landings"])), key=lambda i: -report["landings"][i])[:5]
        lines.append("most landed on: " + ", ".join(f"space {i} ({report['landings'][i]:.1%})" for i in top))
    lines += [f"fault: {f}" for f in report["faults"]]
    return "\n".join(lines)


RULES = ("classic", "challenge")


def command(layout: str, games: int, seed: int, policy: str, workers: int | None, as_json: bool,
            heatmap_path: Path | None, players: str | None, rules: str | None = None) -> int:
    """What `sheetgen validate <mat>` does; returns the exit status. `rules`: none, or
    'classic' (6 boxes a part), 'challenge' (Special Edition border) or both, comma-separated."""
    from ...kinds import resolve

    chosen = [r for r in (rules or "").split(",") if r]
    if any(r not in RULES for r in chosen):
        raise SheetgenError(f"--race-rules {rules} is not understood", fix="use classic, challenge or classic,challenge")

    if policy not in ("all", *POLICIES):
        raise SheetgenError(f"--policy {policy} does not race", fix="use random, greedy or all")
    policies = list(POLICIES) if policy == "all" else [policy]
    path = str(resolve(layout))
    report = run(path, games, seed, parse_players(players), policies, pools.count(workers),
                 "classic" in chosen, "challenge" in chosen)
    if heatmap_path and report["runs"]:
        heatmap(path, report, heatmap_path)
    print(json.dumps(report, sort_keys=True) if as_json else show(report))
    return 0 if not report["faults"] else 1
