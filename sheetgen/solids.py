"""Exact geometry of paper dice: the solid (vertices, faces, which faces are opposite), numbers
placed as on real dice, and a net (the faces unfolded flat, without overlaps, with glue tabs).

Every face is unfolded by a rigid motion of its own plane, so every edge keeps its true length;
a net is searched over spanning trees of the faces (seeded, deterministic) until no face or tab
overlaps another.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

PHI = (1 + 5 ** 0.5) / 2
Vec = tuple[float, float]


def _vertices(sides: int) -> np.ndarray:
    if sides == 4:
        return np.array([(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)], float)
    if sides == 6:
        return np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    if sides == 8:
        return np.array([v for i in range(3) for s in (1, -1) for v in [tuple(s * (j == i) for j in range(3))]], float)
    if sides == 12:
        pts = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        for a in (-1, 1):
            for b in (-1, 1):
                pts += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (a * PHI, 0, b / PHI)]
        return np.array(pts, float)
    if sides == 20:
        pts = []
        for a in (-1, 1):
            for b in (-1, 1):
                pts += [(0, a, b * PHI), (a, b * PHI, 0), (a * PHI, 0, b)]
        return np.array(pts, float)
    if sides == 10:  # pentagonal trapezohedron: a zig-zag ring of 10 and two apexes
        c = 0.1056
        h = c * (1 + math.cos(math.pi / 5)) / (1 - math.cos(math.pi / 5))  # makes the kites flat
        ring = [(math.cos(k * math.pi / 5), math.sin(k * math.pi / 5), c if k % 2 == 0 else -c)
                for k in range(10)]
        return np.array(ring + [(0, 0, h), (0, 0, -h)], float)
    raise ValueError(f"no paper die with {sides} sides")


def _faces(v: np.ndarray) -> list[tuple[int, ...]]:
    """Faces of the convex hull, each a vertex cycle counter-clockwise seen from outside."""
    eps = 1e-7
    found: dict[tuple[int, ...], np.ndarray] = {}
    for i, j, k in combinations(range(len(v)), 3):
        n = np.cross(v[j] - v[i], v[k] - v[i])
        if np.linalg.norm(n) < eps:
            continue
        n /= np.linalg.norm(n)
        d = v @ n - v[i] @ n
        if d.max() > eps:
            n, d = -n, -d
        if d.max() > eps:
            continue
        on = tuple(sorted(int(a) for a in np.flatnonzero(abs(d) <= eps)))
        found.setdefault(on, n)
    faces = []
    for on, n in sorted(found.items()):
        centre = v[list(on)].mean(axis=0)
        u = v[on[0]] - centre
        u /= np.linalg.norm(u)
        w = np.cross(n, u)
        faces.append(tuple(sorted(on, key=lambda a: math.atan2((v[a] - centre) @ w, (v[a] - centre) @ u))))
    return faces


@dataclass(frozen=True)
class Solid:
    sides: int
    vertices: np.ndarray  # unit-ish coordinates; `scale` makes the reference edge 1
    faces: tuple[tuple[int, ...], ...]
    opposite: tuple[int | None, ...]  # the face parallel to each face, if any

    def normal(self, f: int) -> np.ndarray:
        a, b, c = (self.vertices[i] for i in self.faces[f][:3])
        n = np.cross(b - a, c - a)
        return n / np.linalg.norm(n)

    def edges(self, f: int) -> list[tuple[int, int]]:
        cyc = self.faces[f]
        return [(cyc[i], cyc[(i + 1) % len(cyc)]) for i in range(len(cyc))]

    def length(self, a: int, b: int) -> float:
        return float(np.linalg.norm(self.vertices[a] - self.vertices[b]))

    def neighbours(self, f: int) -> list[int]:
        mine = {frozenset(e) for e in self.edges(f)}
        return [g for g in range(len(self.faces)) if g != f and mine & {frozenset(e) for e in self.edges(g)}]


@lru_cache(maxsize=None)
def solid(sides: int) -> Solid:
    v = _vertices(sides)
    faces = _faces(v)
    if len(faces) != sides:
        raise AssertionError(f"d{sides}: {len(faces)} faces")
    s = Solid(sides, v, tuple(faces), ())
    normals = [s.normal(f) for f in range(sides)]
    opp = tuple(next((g for g in range(sides) if normals[f] @ normals[g] < -1 + 1e-9), None)
                for f in range(sides))
    # scale so that the shortest edge is 1
    shortest = min(s.length(a, b) for f in range(sides) for a, b in s.edges(f))
    return Solid(sides, v / shortest, tuple(faces), opp)


def numbering(sides: int) -> list[int]:
    """The value on each face (index = face), as on real dice: opposite faces sum to sides + 1
    where they have an opposite (d6, d8, d12, d20). The d10 is read 0-9 (value 10 prints 0) and
    its opposite faces sum to 9, the odd values round the top apex, as on a real d10. The d4 has no opposite faces: see `d4_corners`."""
    s = solid(sides)
    if sides == 4:
        return [1, 2, 3, 4]
    if sides == 10:
        top = [f for f in range(10) if s.normal(f)[2] > 0]
        top.sort(key=lambda f: math.atan2(s.normal(f)[1], s.normal(f)[0]))
        values = [0] * 10
        for f, odd in zip(top, (1, 7, 5, 3, 9)):  # spread round the apex as on a real d10
            values[f] = odd
            values[s.opposite[f]] = 9 - odd or 10
        return values
    values = [0] * sides
    nxt = 1
    for f in range(sides):  # low values first, each with its complement opposite
        if values[f] == 0:
            values[f], values[s.opposite[f]] = nxt, sides + 1 - nxt
            nxt += 1
    return values


def d4_corners(face: int) -> dict[int, int]:
    """On a d4 each vertex has a value (1-4, the value read when that vertex points up), printed
    in the corner of each face that meets it: the face opposite vertex k shows the other three."""
    return {v: v + 1 for v in solid(4).faces[face]}


# ---- nets ------------------------------------------------------------------------------------


def _local(s: Solid, f: int) -> dict[int, np.ndarray]:
    """Face f in its own plane: 2-D coordinates of its vertices, counter-clockwise."""
    cyc = s.faces[f]
    o = s.vertices[cyc[0]]
    u = s.vertices[cyc[1]] - o
    u /= np.linalg.norm(u)
    w = np.cross(s.normal(f), u)
    return {a: np.array([(s.vertices[a] - o) @ u, (s.vertices[a] - o) @ w]) for a in cyc}


def _place(local: dict[int, np.ndarray], a: int, b: int, pa: np.ndarray, pb: np.ndarray):
    """The rotation + translation of the plane taking local a, b onto pa, pb, applied to all."""
    d0, d1 = local[b] - local[a], pb - pa
    ang = math.atan2(d1[1], d1[0]) - math.atan2(d0[1], d0[0])
    r = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    return {k: pa + r @ (p - local[a]) for k, p in local.items()}


def _overlap(p: np.ndarray, q: np.ndarray, tol: float = 1e-6) -> bool:
    """Two convex polygons overlap by more than touching (separating axis test)."""
    for poly in (p, q):
        for i in range(len(poly)):
            e = poly[(i + 1) % len(poly)] - poly[i]
            n = np.array([-e[1], e[0]])
            a, b = p @ n, q @ n
            if a.max() <= b.min() + tol * np.linalg.norm(n) or b.max() <= a.min() + tol * np.linalg.norm(n):
                return False
    return True


@dataclass(frozen=True)
class Net:
    sides: int
    faces: tuple[tuple[Vec, ...], ...]  # per face of the solid, its polygon on paper (edge 1)
    folds: tuple[tuple[Vec, Vec], ...]  # edges shared by two faces of the net
    tabs: tuple[tuple[Vec, ...], ...]  # glue tabs on cut edges
    width: float
    height: float


def _tab(a: np.ndarray, b: np.ndarray, depth: float) -> np.ndarray:
    d = b - a
    length = np.linalg.norm(d)
    d = d / length
    n = np.array([d[1], -d[0]])  # outside a counter-clockwise polygon
    k = min(depth, length * 0.22)
    slope = 1.8  # sides at about 30 degrees: a tab fits the 36-degree notch between pentagons
    return np.array([a, a + n * k + d * k * slope, b + n * k - d * k * slope, b])


def _try(s: Solid, order: list[int], rng: random.Random, tab: float):
    """One spanning tree grown from order[0] (neighbours in random order); None if it overlaps."""
    placed: dict[int, dict[int, np.ndarray]] = {order[0]: _local(s, order[0])}
    folds: set[frozenset] = set()
    frontier = [order[0]]
    while frontier:
        f = frontier.pop(rng.randrange(len(frontier)))
        nbrs = s.neighbours(f)
        rng.shuffle(nbrs)
        for g in nbrs:
            if g in placed:
                continue
            a, b = next(e for e in s.edges(g) if frozenset(e) in {frozenset(x) for x in s.edges(f)})
            pos = _place(_local(s, g), a, b, placed[f][a], placed[f][b])
            poly = np.array([pos[k] for k in s.faces[g]])
            if any(_overlap(poly, np.array([q[k] for k in s.faces[h]])) for h, q in placed.items()):
                continue
            placed[g] = pos
            folds.add(frozenset((a, b)))
            frontier.append(g)
    if len(placed) < len(s.faces):
        return None
    polys = [np.array([placed[f][k] for k in s.faces[f]]) for f in range(len(s.faces))]
    tabs: list[np.ndarray] = []
    done: set[frozenset] = set()
    for f in range(len(s.faces)):
        for a, b in s.edges(f):
            e = frozenset((a, b))
            if e in folds or e in done:
                continue
            t = _tab(placed[f][a], placed[f][b], tab)
            if any(_overlap(t, p) for p in polys) or any(_overlap(t, o) for o in tabs):
                continue  # try the other copy of this edge
            done.add(e)
            tabs.append(t)
    if len(done) + len(folds) != sum(len(x) for x in s.faces) // 2:
        return None
    return polys, [(placed_pair) for placed_pair in folds], tabs, placed


@lru_cache(maxsize=None)
def net(sides: int, tab: float = 0.3, tries: int = 300, keep: int = 5) -> Net:
    """A flat net of the solid with edge 1 (the shortest edge), turned (with one edge level) for
    the smallest box."""
    s = solid(sides)
    rng = random.Random(sides)
    best = None
    found = 0
    for t in range(tries):
        got = _try(s, [t % len(s.faces)], rng, tab)
        if got is None:
            continue
        found += 1
        if found > keep:
            break
        polys, folds, tabs, placed = got
        pts = np.vstack(polys + tabs)
        turns = sorted({round(-math.atan2(*(p[(i + 1) % len(p)] - p[i])[::-1]) % (math.pi / 2), 9)
                        for p in polys for i in range(len(p))})  # an edge along the x axis
        for ang in turns:
            r = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
            q = pts @ r.T
            w, h = q.max(axis=0) - q.min(axis=0)
            key = (max(w, h) * min(w, h), w)
            if best is None or key < best[0]:
                best = (key, ang, polys, folds, tabs, placed)
    if best is None:
        raise AssertionError(f"no net found for d{sides}")
    _, ang, polys, folds, tabs, placed = best
    r = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    pts = np.vstack(polys + tabs) @ r.T
    lo = pts.min(axis=0)
    w, h = pts.max(axis=0) - lo
    if h > w:  # landscape nets pack better in rows
        r = np.array([[0, -1], [1, 0]]) @ r
        pts = np.vstack(polys + tabs) @ r.T
        lo = pts.min(axis=0)
        w, h = pts.max(axis=0) - lo

    def out(p):
        q = np.asarray(p) @ r.T - lo
        return tuple((float(x), float(y)) for x, y in q)

    fold_lines = []
    for e in folds:
        a, b = tuple(e)
        f = next(f for f in range(len(s.faces)) if {a, b} <= set(s.faces[f]) and a in placed[f])
        fold_lines.append(out([placed[f][a], placed[f][b]]))
    fold_lines.sort()
    return Net(sides, tuple(out(p) for p in polys), tuple(fold_lines), tuple(out(t) for t in tabs),
               float(w), float(h))
