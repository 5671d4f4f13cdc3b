"""The race of *Run for Your Life, Candyman!* on the game mat, with the Dash N Bash deck.

A `State` in the manner of OpenSpiel: at a chance node (`is_chance_node()`) the next card is
drawn, `chance_outcomes()` giving each card type with its probability in the pile, and
`apply_action(card)` taking one; at a decision node `current_player()` chooses one of
`legal_actions()`, which are plain values (tuples) such as `("move", (12,))`, `("attack", 2)` or
`("part", "peppermint")`. The engine never chooses for a player: every option the rulebook gives
is an action. `is_terminal()` and `returns()` end it.

Modelled: movement (single, same double, mixed double in either order and each leg forward or
back), character and cage jumps (they pass nobody), bridges, Sweet Toof's throw, the Twins' four
attacks in the Danger Zone, finishing on the last space, normal attacks on passing and landing
(and on a shared space at the start of a turn), damage by candy to the six parts, trophies,
elimination, the last-player gauntlet, and Candy Cage Matches with summons, targets and release
moves. Not modelled: Special Treat cards (the validator counts the draws that would give one).
Where the rulebook is silent the choices are written in layouts/run-for-your-life-mat.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from .mat import Mat, Track, track



@dataclass(frozen=True)
class Card:
    kind: str  # single | double | character | cage
    candies: tuple[int, ...] = ()  # candy indices
    character: str | None = None


@dataclass(frozen=True)
class Game:
    """What does not change during a game: the track, the deck and the damage boxes."""

    track: Track
    cards: tuple[Card, ...]
    counts: tuple[int, ...]
    boxes: int  # per part, from the Status sheet: its basic boxes, or all of them (classic)
    bonus: int  # damage of a character or cage card drawn to attack (the deck says)
    fwd: tuple  # fwd[candy][space]: next space ahead showing that candy, or -1
    bwd: tuple
    places: dict  # character id -> its spaces
    treat: int | None = None  # the candy circled at setup: moving with a card showing it draws a Treat
    table: tuple = ()  # table[card][space]: moves(), or jumps() for character and cage cards
    challenge: bool = False  # the Special Edition Challenge: a drawn border guards the finish

    @property
    def candies(self) -> tuple[str, ...]:
        return self.track.candies


def make_game(mat: Mat, deck, status, classic: bool = False, treat: int | None = 0,
              challenge: bool = False) -> Game:
    """The game of a mat, its Dash N Bash deck and its Status sheet (whose boxes per part the
    basic game, or with `classic` the extended one, counts)."""
    boxes = status.content.basic_boxes + (status.content.extended_boxes if classic else 0)
    t = track(mat)
    idx = {c: i for i, c in enumerate(t.candies)}
    cards, counts = [], []
    for c in deck.content.cards:
        cards.append(Card(c.type, tuple(idx[x] for x in c.candies), c.character))
        counts.append(c.count)
    n = len(t.kinds)
    fwd, bwd = [], []
    for c in t.candies:
        f, b = [-1] * n, [-1] * n
        nxt = -1
        for i in range(n - 1, -1, -1):
            f[i] = nxt
            if t.kinds[i] == c:
                nxt = i
        prv = -1
        for i in range(n):
            b[i] = prv
            if t.kinds[i] == c:
                prv = i
        fwd.append(tuple(f))
        bwd.append(tuple(b))
    places = {k: tuple(t.where(k)) for k in set(t.kinds)}
    g = Game(t, tuple(cards), tuple(counts), boxes, deck.content.bonus_damage,
             tuple(fwd), tuple(bwd), places, treat)
    table = tuple(tuple(tuple(moves(g, x, c) if c.kind in ("single", "double") else jumps(g, x, c))
                        for x in range(n)) for c in cards)
    return replace(g, table=table, challenge=challenge)


def step(g: Game, x: int, candy: int, forward: bool, border: frozenset | None = None) -> int:
    """The next space showing `candy` ahead of (or behind) x, or -1. Once the Special Edition
    border is drawn, the finish shows the border's candies instead of its own."""
    y = (g.fwd if forward else g.bwd)[candy][x]
    if border is not None and forward:
        finish = g.track.finish
        if y == finish and candy not in border:
            y = -1
        elif y == -1 and candy in border and x < finish:
            y = finish
    return y


def moves(g: Game, x: int, card: Card, border: frozenset | None = None) -> list[tuple[int, ...]]:
    """Every way to move from space x with a candy card: tuples of the spaces stopped on (one, or
    two for a mixed double). A move that reaches the finish ends there. Empty: no legal move.
    (The State reads them from `Game.table`, worked out once.)"""
    finish = g.track.finish
    out: list[tuple[int, ...]] = []
    a = card.candies[0]
    if card.kind == "single":
        for d in (True, False):
            y = step(g, x, a, d, border)
            if y >= 0 and (y,) not in out:
                out.append((y,))
        return out
    b = card.candies[1]
    if a == b:
        for d in (True, False):
            y = step(g, x, a, d, border)
            if y == finish:
                z = y
            else:
                z = step(g, y, a, d, border) if y >= 0 else -1
            if z >= 0 and (z,) not in out:
                out.append((z,))
        return out
    for first, second in ((a, b), (b, a)):
        for d1 in (True, False):
            m = step(g, x, first, d1, border)
            if m < 0:
                continue
            if m == finish:
                if (m,) not in out:
                    out.append((m,))
                continue
            for d2 in (True, False):
                z = step(g, m, second, d2, border)
                if z >= 0 and (m, z) not in out:
                    out.append((m, z))
    return out


def jumps(g: Game, x: int, card: Card) -> list[int]:
    """Where a character or cage card takes you from x (several only on a tie)."""
    if card.kind == "character":
        return list(g.places.get(card.character, ()))
    bursts = g.track.bursts
    d = min(abs(b - x) for b in bursts)
    return [b for b in bursts if abs(b - x) == d]


def passed(start: int, stops: tuple[int, ...]) -> set[int]:
    """Spaces moved through or landed on (not the start)."""
    out: set[int] = set()
    u = start
    for v in stops:
        lo, hi = (u + 1, v) if v > u else (v, u - 1)
        out.update(range(lo, hi + 1))
        u = v
    return out


class State:
    """One game in progress. Players sit 0..n-1 clockwise; player 0 starts."""

    def __init__(self, game: Game, players: int):
        if not 2 <= players <= 6:
            raise ValueError("the race is for 2 to 6 players")
        self.g = game
        self.n = players
        ncand = len(game.candies)
        self.pos = [0] * players
        self.boxes = [[game.boxes] * ncand for _ in range(players)]
        self.alive = [True] * players
        self.trophies = [0] * players
        self.beyond_cage = [False] * players  # has stood beyond the first burst
        self.pile = list(game.counts)
        self.left = sum(game.counts)
        self.deck = [i for i, c in enumerate(game.counts) for _ in range(c)]  # unordered pile
        self.current = 0
        self.turns = 0
        self.winner: int | None = None
        self.win_by = ""  # escape | trophies
        self.phase = "run"  # run | draw | choose | over
        self.actor = 0
        self.options: list = []
        self.on_card = self.on_choice = None
        self.todo: list = []  # the steps still to do this turn, first is next
        self.attacked: set[int] = set()
        self.cage: dict | None = None
        self.cages_waiting: list[tuple[int, int]] = []  # (player, burst) matches to start later
        self.history: list = []
        # statistics
        self.landings = [0] * len(game.track.kinds)
        self.cage_matches = 0
        self.throws = 0
        self.draws = 0
        self.treat_draws = 0
        self.border: frozenset | None = None  # Special Edition: candies that may enter the finish
        self.revealed: set[int] = set()
        self.border_drawn = False
        self._begin_turn()
        self._run()

    # ---- the OpenSpiel-like interface -------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase == "draw"

    def current_player(self) -> int:
        return self.actor

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, c / self.left) for i, c in enumerate(self.pile) if c]

    def returns(self) -> list[float]:
        if self.winner is not None:
            return [1.0 if p == self.winner else 0.0 for p in range(self.n)]
        if self.win_by == "trophies":
            best = max(self.trophies)
            tops = [p for p in range(self.n) if self.trophies[p] == best]
            return [1.0 / len(tops) if p in tops else 0.0 for p in range(self.n)]
        return [0.0] * self.n

    def legal_actions(self) -> list:
        if self.phase == "draw":
            return [i for i, _ in self.chance_outcomes()]
        return list(self.options) if self.phase == "choose" else []

    def apply_action(self, action) -> None:
        self.history.append(action)
        if self.phase == "draw":
            if not self.pile[action]:
                raise ValueError(f"card {action} is not in the pile")
            self._take(action)
            then, self.phase = self.on_card, "run"
            then(action)
        elif self.phase == "choose":
            if action not in self.options:
                raise ValueError(f"{action!r} is not legal here; legal: {self.options}")
            then, self.phase = self.on_choice, "run"
            then(action)
        else:
            raise ValueError("the game is over")
        self._run()

    # ---- machinery: a queue of steps; a step may ask for a card or for a choice -----------------

    def sample(self, rng) -> int:
        """A card drawn at random from the pile (each with its chance_outcomes probability)."""
        return self.deck[int(rng.random() * self.left)]

    def _take(self, i: int) -> None:
        self.pile[i] -= 1
        self.left -= 1
        self.draws += 1
        d = self.deck
        k = d.index(i) if d[-1] != i else len(d) - 1
        d[k] = d[-1]
        d.pop()
        if self.left == 0:  # the discards are shuffled into a new pile
            self.pile = list(self.g.counts)
            self.left = sum(self.g.counts)
            self.deck = [j for j, c in enumerate(self.g.counts) for _ in range(c)]

    def _draw(self, then) -> None:
        self.phase, self.on_card = "draw", then

    def _ask(self, who: int, options: list, then) -> None:
        self.phase, self.actor, self.options, self.on_choice = "choose", who, options, then

    def _over(self) -> bool:
        return self.winner is not None or self.win_by != ""

    def _run(self) -> None:
        """Do the queued steps until one needs a card or a choice, or the game ends."""
        while self.phase == "run":
            if self._over():
                self.phase = "over"
            elif self.todo:
                self.todo.pop(0)()
            else:
                self._end_turn()

    # ---- a turn ----------------------------------------------------------------------------------

    def _begin_turn(self) -> None:
        p = self.current
        self.attacked = set()
        self.actor = p
        t = self.g.track
        self.todo = [self._twins] * t.attacks if t.zone <= self.pos[p] < t.finish else []
        self.todo += [self._start_attacks, self._move_draw]

    def _end_turn(self) -> None:
        self.turns += 1
        p = self.current
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.alive[q]:
                self.current = q
                break
        self._begin_turn()

    def _twins(self) -> None:
        p = self.current
        if not self.alive[p]:
            return
        self._draw(lambda i: self._hit(None, p, self.g.cards[i]))

    def _start_attacks(self) -> None:
        p = self.current
        if not self.alive[p]:
            self.todo = []
            return
        if self.pos[p] == 0:  # Candy Keep is safe: everyone starts there
            return
        here = [q for q in range(self.n) if q != p and self.alive[q] and self.pos[q] == self.pos[p]]
        self._offer_attacks(here)

    def _offer_attacks(self, targets: list[int]) -> None:
        p = self.current
        left = [q for q in targets if self.alive[q] and q not in self.attacked]
        if not left or not self.alive[p]:
            return
        opts = [("attack", q) for q in left] + [("done",)]

        def chosen(a):
            if a[0] == "attack":
                self.attacked.add(a[1])
                self.todo[:0] = [lambda: self._attack(p, a[1]), lambda: self._offer_attacks(left)]
        self._ask(p, opts, chosen)

    def _attack(self, attacker: int, target: int) -> None:
        self._draw(lambda i: self._hit(attacker, target, self.g.cards[i]))

    def _move_draw(self) -> None:
        if self.alive[self.current]:
            self._draw(self._move_card)

    def _move_card(self, i: int) -> None:
        p = self.current
        card = self.g.cards[i]
        x = self.pos[p]
        if self.g.treat in card.candies:
            self.treat_draws += 1
        word = "move" if card.kind in ("single", "double") else "jump"
        ways = self._ways(i, x)
        if word == "move" and sum(self.alive) == 1 and self.n > 1:
            # the last cookie runs the gauntlet: it moves on through the zone when it can
            ahead = [w for w in ways if w[-1] > x]
            ways = ahead or ways
        opts = [(word, y) for y in ways]
        if not opts:
            raise RuntimeError(f"no legal move from space {x} for card {card}")
        self._ask(p, opts, lambda a: self._moved(p, a))

    def _ways(self, i: int, x: int):
        card = self.g.cards[i]
        if self.border is None or card.kind not in ("single", "double"):
            return self.g.table[i][x]
        return moves(self.g, x, card, self.border)

    def _border_draw(self) -> None:
        """Special Edition Challenge: cards are turned up until three different candies show."""
        def seen(i):
            self.revealed.update(self.g.cards[i].candies)
            if len(self.revealed) >= 3:
                self.border = frozenset(self.revealed)
            else:
                self.todo.insert(0, self._border_draw)
        self._draw(seen)

    def _moved(self, p: int, a) -> None:
        x = self.pos[p]
        t = self.g.track
        if a[0] == "move":
            stops = a[1]
            through = passed(x, stops)
            y = stops[-1]
        else:
            through = {a[1]}
            y = a[1]
        victims = [q for q in range(self.n) if q != p and self.alive[q] and self.pos[q] in through]
        y = self._arrive(p, y, t)
        if self.winner is not None:
            return
        steps = [lambda: self._offer_attacks(victims)]
        if y in t.bursts:
            steps.append(lambda: self._open_cage(p, y))
        self.todo[:0] = steps

    def _arrive(self, p: int, y: int, t: Track) -> int:
        """Put p on y: bridges drop them back, Sweet Toof may throw them, the finish wins."""
        y = t.bridges.get(y, y)
        if y == t.finish:
            self.pos[p] = y
            self.landings[y] += 1
            self.winner, self.win_by = p, "escape"
            return y
        if t.character(y) and self._early(p):  # Sweet Toof throws an early leader back
            self.throws += 1
            self.landings[y] += 1
            y = t.throw
        self.pos[p] = y
        self.landings[y] += 1
        if y > t.bursts[0]:
            self.beyond_cage[p] = True
        if self.g.challenge and not self.border_drawn and y >= t.zone:
            self.border_drawn = True
            self.todo.insert(0, self._border_draw)
        return y

    def _early(self, p: int) -> bool:
        """Fewer than half of the other players have passed the first burst."""
        others = [q for q in range(self.n) if q != p and self.alive[q]]
        return 2 * sum(self.beyond_cage[q] for q in others) < len(others)

    # ---- damage ----------------------------------------------------------------------------------

    def _hit(self, attacker: int | None, target: int, card: Card) -> None:
        """A card drawn to attack: each candy icon is one box off that candy's part; a character or
        cage card is the deck's bonus boxes off one part the attacker picks (the Twins: the weakest part)."""
        if card.kind in ("single", "double"):
            for c in card.candies:
                self._damage(attacker, target, c, 1)
            return
        parts = [c for c, b in enumerate(self.boxes[target]) if b > 0]
        if not parts:
            return
        if attacker is None:  # the Twins
            worst = min(parts, key=lambda c: (self.boxes[target][c], c))
            self._damage(None, target, worst, self.g.bonus)
            return
        self._ask(attacker, [("part", target, self.g.candies[c]) for c in parts],
                  lambda a: self._damage(attacker, target, self.g.candies.index(a[2]), self.g.bonus))

    def _damage(self, attacker: int | None, target: int, candy: int, n: int) -> None:
        b = self.boxes[target]
        if b[candy] == 0 or not self.alive[target]:
            return
        b[candy] = max(0, b[candy] - n)
        if b[candy] == 0 and attacker is not None:
            self.trophies[attacker] += 1
        if not any(b):
            self._eliminate(target)

    def _eliminate(self, p: int) -> None:
        self.alive[p] = False
        if self.cage and p in self.cage["members"]:
            self.cage["members"].remove(p)
        alive = [q for q in range(self.n) if self.alive[q]]
        if not alive:
            self.win_by = "trophies"
        elif len(alive) == 1 and self.n > 1:  # the last cookie runs the Twins' gauntlet
            q = alive[0]
            self.pos[q] = max(self.pos[q], self.g.track.swirl)

    # ---- Candy Cage Match ------------------------------------------------------------------------

    def _open_cage(self, p: int, space: int) -> None:
        if not self.alive[p] or self.pos[p] != space:
            return
        if self.cage is not None:  # a release landed on another burst: that match comes next
            self.cages_waiting.append((p, space))
            return
        others = [q for q in range(self.n) if q != p and self.alive[q]]
        if not others:
            return
        self.cage_matches += 1
        self.cage = {"space": space, "members": [p], "turn": p}

        def summoned(a):
            self._join(a[1])
            self.todo[:0] = [self._cage_round]
        self._ask(p, [("summon", q) for q in others], summoned)

    def _join(self, q: int) -> None:
        c = self.cage
        self.pos[q] = c["space"]
        self.landings[c["space"]] += 1
        if c["space"] > self.g.track.bursts[0]:
            self.beyond_cage[q] = True
        c["members"].append(q)
        c["members"].sort()

    def _cage_round(self) -> None:
        """The fighter whose turn it is attacks one other member with a drawn card."""
        c = self.cage
        members = c["members"]
        if len(members) <= 1 or self.winner is not None or self.win_by:
            self._close_cage()
            return
        f = c["turn"]
        if f not in members:
            later = [q for q in members if q > f]
            f = c["turn"] = later[0] if later else members[0]
        foes = [q for q in members if q != f]
        if len(members) >= 3:
            self._ask(f, [("target", q) for q in foes], lambda a: self._cage_draw(f, a[1]))
        else:
            self._cage_draw(f, foes[0])

    def _cage_draw(self, f: int, foe: int) -> None:
        self._draw(lambda i: self._cage_card(f, foe, i))

    def _cage_card(self, f: int, foe: int, i: int) -> None:
        c = self.cage
        card = self.g.cards[i]
        steps = []
        self._hit(f, foe, card)
        if card.kind == "cage":
            outside = [q for q in range(self.n) if self.alive[q] and q not in c["members"]]
            if outside:
                steps.append(lambda: self._ask(f, [("summon", q) for q in outside],
                                               lambda a: self._join(a[1])))
        here = self.g.candies.index(self.g.track.kinds[c["space"]])
        if here in card.candies:
            steps.append(lambda: self._release(f, i))
        steps.append(lambda: self._next_fighter(f))
        self.todo[:0] = steps

    def _release(self, f: int, i: int) -> None:
        if not self.alive[f] or f not in self.cage["members"]:
            return
        opts = [("release", stops) for stops in self._ways(i, self.cage["space"])]
        self._ask(f, opts, lambda a: self._released(f, a[1]))

    def _released(self, f: int, stops: tuple[int, ...]) -> None:
        c = self.cage
        c["members"].remove(f)
        y = self._arrive(f, stops[-1], self.g.track)
        if self.winner is not None:
            return
        if y == c["space"]:  # back into the cage: another player is pulled in
            c["members"].append(f)
            c["members"].sort()
            outside = [q for q in range(self.n) if self.alive[q] and q not in c["members"]]
            if outside:
                self.todo[:0] = [lambda: self._ask(f, [("summon", q) for q in outside],
                                                   lambda a: self._join(a[1]))]
        elif y in self.g.track.bursts:
            self.cages_waiting.append((f, y))

    def _next_fighter(self, f: int) -> None:
        c = self.cage
        members = c["members"]
        if len(members) <= 1:
            self._close_cage()
            return
        later = [q for q in members if q > f]
        c["turn"] = later[0] if later else members[0]
        self.todo[:0] = [self._cage_round]

    def _close_cage(self) -> None:
        self.cage = None
        if self.cages_waiting:
            p, space = self.cages_waiting.pop(0)
            self.todo[:0] = [lambda: self._open_cage(p, space)]


# ---- policies: they choose, never the engine ------------------------------------------------------

def random_policy(state: State, legal: list, rng) -> object:
    return legal[int(rng.random() * len(legal))]


def greedy_policy(state: State, legal: list, rng) -> object:
    """A racer: the move that ends furthest along (after bridges and Sweet Toof), attacks everyone
    it may, hits the part closest to breaking, summons and targets the weakest cookie."""
    kind = legal[0][0]
    if kind in ("move", "jump", "release"):
        return max(legal, key=lambda a: landing(state, a))
    if kind == "attack":
        return legal[0]
    if kind == "part":
        idx = state.g.candies.index
        return min(legal, key=lambda a: state.boxes[a[1]][idx(a[2])])
    if kind in ("summon", "target"):
        return min(legal, key=lambda a: sum(state.boxes[a[1]]))
    return legal[0]


def landing(state: State, a) -> int:
    """Where an action leaves the mover (bridges and Sweet Toof's throw included)."""
    t = state.g.track
    y = a[1][-1] if a[0] in ("move", "release") else a[1]
    y = t.bridges.get(y, y)
    if t.character(y) and state._early(state.actor):
        y = t.throw
    return y


POLICIES = {"random": random_policy, "greedy": greedy_policy}
