"""The fast Haunt the Block engine: the reference engine's decisions, compiled with numba, one game at
a time, in one compiled loop for random and one for greedy and cover (a closure per policy, so
each holds only its own work).

Tables built once per sheet (`tables`) give, per key = (roll, powers at hand, stars at hand),
condition q (0: none, 1 + i: pumpkin i's) and distance d: how many ways there are to move there
and the first cheapest one. A payment is coded stars * 16 + powers mask, so ascending codes are
the reference's order. What a turn reads most sits in one 64-byte record per key (`rec`): bit
words over the distances (bit d - 1) where a child or candy space has one way or more, two or
more, where a pumpkin has one under some condition, then per d the first cheapest way and the
number of ways with no condition. Greedy's loop prefetches the next turn's record and its cells
per condition (powers and stars as they are now), so they come from memory while this turn plays.

A turn reads the empty spaces ahead of the ghost as bit words (a block of 63 spaces or fewer: one
word kept in a register, turned to the ghost's position; a larger one: laid out twice in memory,
so no wrapping) and ANDs them with the static class words of its position (candy, child,
pumpkin) and the key's masks. Random lays a key's moves of up to D spaces out as one word of
bits (`unary`): a run per distance, a bit per way in canonical order (doubles' free write first).
pext then pdep turn the empty spaces ahead into the runs of those spaces (`urec`: the distances
with a way, the runs' first bits and the bits just past them; a run is their difference), ANDed
with the ways each space's class has there (`uahead`, per key and position: a child has no free
write, a pumpkin only the ways that meet its condition). Random's k-th action is then the k-th
set bit (pdep), and one load (`utab`) gives its distance and payment; the free writes beyond D
are the empty candy spaces' bits. No loop walks the spaces with several ways, except for a key
whose ways take more than 63 bits (or with no BMI2): most spaces have one way (their count by
popcount, the k-th by select), the others are visited one by one, their ways read from their
condition's row (`sp_q`). Random prefetches the next turn's key's rows (powers and stars as paid
now) as soon as it knows where it lands.

Greedy visits the few spaces a normal roll reaches (a pumpkin only when it could win); with
doubles, and for the penalty's write, every empty candy space is worth its candy, so it takes the
first open space of each candy. Cover then looks only at the actions that mark its target
(decoded from `targets_of`: a path space, a stash circle, a Boo-nus box or a power's use-circle).

Landing is table-driven: one word per space (`fx`) packs its candy, its Boo-nus symbol and what
its child does, and a space that gives nothing writes to a last, unused slot (candy C + 1,
symbol 3) instead of taking a branch; collecting, a column's star and the stars circled are
arithmetic on those. What no later decision reads is left to the end of the game: the chocolate
bars and Boo-nus columns are read off the end state, and so are the marks (`Batch.reached`), in
element order, a row of them (the path, a stash row, the stars, a Boo-nus row) as one 8-byte
store of bits spread to bytes (`put8`, `spread8`). The hot loads and stores are flat and
unchecked (`get`, `put`: no bounds check, no wrap of negative indices).

Options come in the reference's canonical order and greedy values follow policy.value, so the
equality tests hold both engines to the same end states (`Batch.state` is written here in the
order of `State.vector`, as int16: every entry is a small count; the path's numbers go straight to
it as they are written)."""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
from llvmlite import ir as llvmir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros

from ...validate.bits import BMI2, lshr, pdep, pext, popcount, select as _select
from ...validate.engine import Batch
from . import board as ids
from .board import Board, bar_ids
from .model import MOON_POWERS, SYMBOLS, HauntSheet
from .policy import CHILD_GAIN, GAIN_WEIGHT, POWER_COST, STAR_COST, K

jit = numba.njit(cache=True, nogil=True, error_model="numpy")
i8 = np.int64
BIG = 1 << 40
NOPAY = 255  # tables: no payment
HIT = 1 << 30  # cover: what hitting the target adds to a value (hits first, then greedy's order)
RANDOM, GREEDY, COVER = range(3)
P = len(MOON_POWERS)
M = 1 << P  # power masks
T_PATH, T_STASH, T_BOON, T_POWER = 1, 2, 3, 4
LOW = (1 << 32) - 1  # cover: the kinds of target a move can mark
HI = -(1 << 63)  # the top bit of an int64
NOFIT = -1  # unary: word 0 of a key whose ways do not fit one word
FX_PUMPKIN, FX_SWEET, FX_PIRATE, FX_STAR, FX_MOON = 16, 17, 18, 19, 20  # a space's effects: bits of `fx`


def _ptr(context, builder, sig, args):
    """The address of flat element args[1] of the array args[0]."""
    a = context.make_array(sig.args[0])(context, builder, args[0])
    return builder.gep(a.data, [context.cast(builder, args[1], sig.args[1], types.intp)], inbounds=True)


@intrinsic
def put8(typingctx, ary, i, v):
    """Store the int64 v as the 8 bytes from flat byte i of a one-byte array, unchecked, unaligned."""
    def codegen(context, builder, sig, args):
        ptr = builder.bitcast(_ptr(context, builder, sig, args), llvmir.IntType(64).as_pointer())
        builder.store(context.cast(builder, args[2], sig.args[2], types.int64), ptr, align=1)
        return context.get_dummy_value()
    return types.none(ary, i, v), codegen


@intrinsic
def prefetch(typingctx, ary, i):
    """Ask the processor to bring the cache line of flat element i of an array in (no wait, no fault)."""
    def codegen(context, builder, sig, args):
        ptr = _ptr(context, builder, sig, args)
        i32, i8p = llvmir.IntType(32), llvmir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(builder.module, llvmir.FunctionType(
            llvmir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.none(ary, i), codegen


@intrinsic
def get(typingctx, ary, i):
    """ary's flat element i (C order), unchecked: no bounds check, no wrap of a negative index."""
    def codegen(context, builder, sig, args):
        return context.unpack_value(builder, sig.args[0].dtype, _ptr(context, builder, sig, args))
    return ary.dtype(ary, i), codegen


@intrinsic
def put(typingctx, ary, i, v):
    """Set ary's flat element i (C order) to v, unchecked."""
    def codegen(context, builder, sig, args):
        dt = sig.args[0].dtype
        context.pack_value(builder, dt, context.cast(builder, args[2], sig.args[2], dt),
                           _ptr(context, builder, sig, args))
        return context.get_dummy_value()
    return types.none(ary, i, v), codegen


@lru_cache(maxsize=32)
def tables(doc_json: str):
    """The Board and its move tables. Per key = ((a-1) * 6 + b-1) * M + powers at hand) * (S + 1)
    + stars at hand (a <= b: a roll and its mirror pay alike), condition q (0: none, 1 + i: pumpkin
    i's) and distance d: `cnt` the ways to move there and `chp` the first cheapest (NOPAY if none).
    `rec` (int64) and `recb` (its bytes): per key, word 0 the distances where a space with no
    condition has a way | where it has two or more << 32; word 1 where a candy space has two or
    more (doubles add the free write (0, 0)) | where a pumpkin has a way under its condition << 32;
    bytes 16 + d the first cheapest way and 17 + D + d the ways, with no condition. The payments:
    the ascending list of a roll's payments with every power and star at hand, per (q, roll, d), in
    `flat` from `off`; a cell's are those it can afford. Random's one-word layout of a key's ways:
    `ucls`, `urec`, `utab` (see `unary`). The tables depend only on the routes, the
    pumpkins' conditions, the stars and the longest move, so sheets that share those (a sheet and
    most of its mechanic-check copies) share them."""
    b = Board(HauntSheet.model_validate_json(doc_json))
    conds = [None] + b.pumpkin_conditions
    key = (routes_key(b), tuple(c.model_dump_json() if c is not None else "" for c in conds))
    return b, _tables(key, b, conds, b.c.stars, b.max_move)


def routes_key(b: Board) -> tuple:
    return tuple(tuple(b.routes[(a, bd)]) for a in range(1, 7) for bd in range(1, 7))


_TABLES: dict = {}  # (routes, conditions, S, D) -> tables


def _tables(key: tuple, b: Board, conds: list, S: int, D: int):
    if (key, S, D) in _TABLES:
        return _TABLES[key, S, D]
    if len(_TABLES) >= 32:
        _TABLES.clear()
    # the distance flags are 32-bit halves of a word; the model keeps the longest move at
    # 12 + add (at most 3) + stars (at most 10) = 25
    assert D <= 32, f"a move of {D} spaces does not fit the engine's 32-bit distance flags"
    Q, NC = len(conds), (S + 1) * M
    code = np.arange(NC)
    c_stars, c_mask = code // M, code % M
    c_npow = np.array([bin(m).count("1") for m in range(M)])[c_mask]
    cost = POWER_COST * c_npow + STAR_COST * c_stars
    avail, have = np.arange(M)[:, None, None], np.arange(S + 1)[None, :, None]
    valid = ((c_mask & ~avail) == 0) & (c_stars <= have)  # [M, S+1, NC]
    pres = reachable(key, b, conds, S, D)
    words = []  # per cell: payments | the first cheapest << 8
    urec = np.zeros((36, M * (S + 1), 4), i8)  # (a fourth word: 32-byte rows)
    utab = np.zeros((36, M * (S + 1), 64), np.uint16)
    ucls = np.zeros((36, M * (S + 1), Q + 1, D), np.uint64)
    urec[:, :, 0] = NOFIT
    for roll in range(36):  # [M, S+1, Q, D+1, NC]: the payments of each cell, in cell order
        if roll // 6 > roll % 6:  # a > b: never read (the engine reads a roll as its a <= b mirror)
            words.append(np.full(M * (S + 1) * Q * (D + 1), NOPAY << 8))
            continue
        have_it = (valid[:, :, None, None, :] & pres[:, roll][None, None]).reshape(-1, NC)
        if BMI2:
            utab[roll] = unary(have_it.reshape(M * (S + 1), Q, D + 1, NC), roll // 6 == roll % 6, urec[roll],
                               ucls[roll])
        cnt = have_it.sum(1)
        best = np.argmin(np.where(have_it, cost, BIG), 1)
        words.append(np.where(cnt > 0, best, NOPAY) << 8 | cnt)
    words = np.concatenate(words).reshape(-1, Q, D + 1)
    cnt, chp = words & 255, words >> 8
    dbl = np.repeat([r // 6 == r % 6 for r in range(36)], M * (S + 1))[:, None]
    ccnt = cnt[:, 0] + (dbl & (chp[:, 0] != 0))  # a candy space: doubles add the free write (0, 0)
    assert cnt.max() < 255

    def bit(f):  # flags per distance 1..D as bits d - 1
        return (f[:, 1:].astype(i8) << np.arange(D)).sum(1)

    # a key's hot facts in one 64-byte record (see `tables`)
    nk, rw = len(words), 2 + -(-2 * (D + 1) // 8)
    buf = np.zeros(nk * rw + 8, i8)
    at = (-buf.ctypes.data % 64) // 8
    rec = buf[at:at + nk * rw].reshape(nk, rw)
    rec[:, 0] = bit(cnt[:, 0] >= 1) | bit(cnt[:, 0] >= 2) << 32
    rec[:, 1] = bit(ccnt >= 2) | bit((cnt[:, 1:Q] >= 1).any(1)) << 32
    recb = rec.view(np.uint8)
    recb[:, 16:17 + D] = chp[:, 0]
    recb[:, 17 + D:18 + 2 * D] = cnt[:, 0]
    # a roll's payments with every power and star at hand, per (q, roll, d): a cell's payments are
    # those of its powers and stars (`fits`), in the same order
    lists = pres.reshape(-1, NC)
    flat = np.nonzero(lists)[1]
    off = np.concatenate([[0], np.cumsum(lists.sum(1))])
    urec, utab = aligned(urec.reshape(-1, urec.shape[-1])), aligned(utab.reshape(-1, 64))
    _TABLES[key, S, D] = (ucls.reshape(-1, Q + 1, D), urec, utab, rec, recb, cnt.astype(np.uint8),
                          chp.astype(np.uint8), off.astype(np.int32),
                          flat.astype(np.uint8), cost.astype(i8), c_stars.astype(i8), c_mask.astype(i8))
    return _TABLES[key, S, D]


def aligned(a: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of a whose data starts on a 64-byte line."""
    buf = np.empty(a.nbytes + 64, np.uint8)
    at = -buf.ctypes.data % 64
    out = buf[at:at + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def unary(h: np.ndarray, dbl: bool, urec: np.ndarray, ucls: np.ndarray) -> np.ndarray:
    """One roll's keys' moves of d <= D spaces as one word of bits, a run per distance (one bit per
    way, in canonical order: doubles' free write first, then the payments of a space with no
    condition). Fills urec per key: the distances with a way (R), the runs' first bits and the bits
    just past them; ucls per key, class (0: a child with no condition, 1 + i: pumpkin i, Q: a candy
    space) and distance: the bits of the ways a space of that class has (a pumpkin's: a subset,
    those that meet its condition). Returns utab, per key and bit: its distance << 8 | its payment.
    A key whose ways take more than 63 bits keeps NOFIT in word 0 (the engine walks instead)."""
    K, Q, D1, NC = h.shape
    h0 = h[:, 0, 1:]  # [K, D, NC]
    assert not (h[:, 1:, 1:] & ~h0[:, None]).any(), "a condition only removes ways"
    fb = dbl & ~h0[:, :, 0]  # doubles: the free write (0, 0), if no payment is free already
    ln = h0.sum(-1) + fb
    start = np.cumsum(ln, 1) - ln
    fits = ln.sum(1) <= 63
    one = np.uint64(1)

    def bits(on, at):  # flags at bit positions (63 at most) as bits, on the fitting keys
        return np.where(on & fits.reshape((-1,) + (1,) * (on.ndim - 1)),
                        one << np.minimum(at, 63).astype(np.uint64), np.uint64(0))

    urec[:, 0] = np.where(fits, bits(ln > 0, np.arange(D1 - 1)).sum(1, dtype=np.uint64).view(i8), NOFIT)
    urec[:, 1] = bits(ln > 0, start).sum(1, dtype=np.uint64).view(i8)
    urec[:, 2] = bits(ln > 0, start + ln).sum(1, dtype=np.uint64).view(i8)
    at = start[:, :, None] + fb[:, :, None] + np.cumsum(h0, 2) - 1  # each payment's bit
    for q in range(Q):
        ucls[:, q] = bits(h[:, q, 1:], at).sum(2, dtype=np.uint64)
    ucls[:, Q] = ucls[:, 0] | bits(fb, start)
    k, j, c = np.nonzero(h0 & fits[:, None, None])
    utab = np.zeros((K, 64), np.uint16)
    utab[k, at[k, j, c]] = (j + 1) << 8 | c
    k, j = np.nonzero(fb & fits[:, None])
    utab[k, start[k, j]] = (j + 1) << 8
    return utab


_REACHABLE: dict = {}  # (routes, conditions, D) -> (S, pres): sheets that differ in stars share it


def reachable(key: tuple, b: Board, conds: list, S: int, D: int) -> np.ndarray:
    """pres[q, roll, d, code]: whether some route of the roll pays distance d with code = stars * M +
    powers, meeting condition q. Codes with fewer stars are a prefix, so a table made for more
    stars serves a sheet with fewer (the mechanic check plays many such sheets)."""
    key = key, D
    if key not in _REACHABLE or _REACHABLE[key][0] < S:
        if len(_REACHABLE) >= 32:
            _REACHABLE.clear()
        pres = np.zeros((len(conds), 36, D + 1, (S + 1) * M), bool)
        for a in range(1, 7):
            for bd in range(a, 7):  # a <= b: the engine reads a roll as its mirror with a <= b
                for (d, q), pays in b.payments(a, bd, M - 1, S).items():  # the rules' payments
                    if d <= D:
                        for stars, mask in pays:
                            pres[q, (a - 1) * 6 + bd - 1, d, stars * M + mask] = True
        _REACHABLE[key] = S, pres
    return _REACHABLE[key][1][..., :(S + 1) * M]


def words64(flags, nw: int) -> np.ndarray:
    """Rows of flags as rows of nw 64-bit words (bit j of word j // 64), as int64."""
    flags = np.asarray(flags, bool)
    pad = np.zeros(flags.shape[:-1] + (nw * 64,), bool)
    pad[..., :flags.shape[-1]] = flags
    w = pad.reshape(flags.shape[:-1] + (nw, 64)).astype(np.uint64) << np.arange(64, dtype=np.uint64)
    return w.sum(-1, dtype=np.uint64).view(i8)


def targets_of(b: Board) -> np.ndarray:
    """Per element: (kind, a, b) of what a move marks (T_PATH space; T_STASH candy, column;
    T_BOON symbol, column; T_POWER power, use), kind 0 for the others."""
    c, out = b.c, np.zeros((len(b.element_ids), 3), i8)
    for i in range(b.n):
        out[b.eid[ids.path_id(i)]] = T_PATH, i, 0
    for k, cid in enumerate(b.candy_ids):
        for j in range(len(c.points)):
            out[b.eid[ids.stash_id(cid, j)]] = T_STASH, k, j
    for s, name in enumerate(SYMBOLS):
        for j in range(b.sym_count[s]):
            out[b.eid[ids.boonus_id(name, j)]] = T_BOON, s, j
    for k, p in enumerate(MOON_POWERS):
        if p in b.moon_child:
            for j in range(c.uses):
                out[b.eid[ids.power_id(c.children[b.moon_child[p]].id, j)]] = T_POWER, k, j
    return out


def windows(b: Board, flags) -> np.ndarray:
    """Per position (per row of flags, if several): the spaces ahead that have the flag (bit j:
    the space j + 1 clockwise, j < n - 1), two 64-bit words."""
    n = b.n
    ahead = (np.arange(n)[:, None] + 1 + np.arange(n - 1)[None, :]) % n
    return words64(np.asarray(flags, bool)[..., ahead], 2)


def ways_ahead(ucls: np.ndarray, cls: np.ndarray, n: int) -> np.ndarray:
    """Per key and position: the bits (`unary`) of the ways of the spaces ahead, as if all empty."""
    NK, _, D = ucls.shape
    ahead = cls[(np.arange(n)[:, None] + 1 + np.arange(D)[None, :]) % n]  # [n, D]: the class d + 1 ahead
    real = np.arange(D) < n - 1  # (a distance of n - 1 or more is no space ahead)
    out = np.empty((NK, n), np.uint64)
    for k in range(0, NK, 1024):
        out[k:k + 1024] = (ucls[k:k + 1024][:, ahead, np.arange(D)] * real).sum(2, dtype=np.uint64)
    return aligned(out.view(i8))


@lru_cache(maxsize=32)
def sheet(doc_json: str):
    """The sheet's facts as the compiled code reads them: (ints, arrays...)."""
    b, tabs = tables(doc_json)
    c = b.c
    n, C, ncol, S = b.n, len(c.candies), len(c.points), c.stars
    eid = b.eid
    e_start = np.full(n, -1)
    for i in b.starts:
        e_start[i] = eid[ids.start_id(i)]
    e_stash = np.full((C, ncol + 1), -1)
    for k, cid in enumerate(b.candy_ids):
        e_stash[k, :ncol] = [eid[ids.stash_id(cid, j)] for j in range(ncol)]
    maxs = max(b.sym_count)
    e_boon = np.full((3, maxs + 1), -1)
    for s, name in enumerate(SYMBOLS):
        e_boon[s, :b.sym_count[s]] = [eid[ids.boonus_id(name, j)] for j in range(b.sym_count[s])]
    e_power = np.full((P, c.uses + 1), -1)
    for k, p in enumerate(MOON_POWERS):
        if p in b.moon_child:
            kid = c.children[b.moon_child[p]].id
            e_power[k, :c.uses] = [eid[ids.power_id(kid, j)] for j in range(c.uses)]
    fx = np.where(b.space_candy >= 0, b.space_candy, C + 1) | 3 << 8  # a space's effects (FX_*)
    for i, ch in enumerate(b.space_child):
        if ch >= 0:  # a child: its Boo-nus symbol, then what it does (as State.haunt)
            kid = c.children[ch]
            does = FX_PUMPKIN if kid.symbol == "pumpkin" else {
                "candy_of_choice": FX_PIRATE, "star": FX_STAR, "sweetheart": FX_SWEET}.get(kid.power, 0)
            fx[i] = C + 1 | b.child_symbol[ch] << 8 | (1 << does if does else 0) | (
                1 << MOON_POWERS.index(kid.power) if not does and kid.power in MOON_POWERS else 0) << FX_MOON
    pts0 = np.concatenate([[0], c.points])  # points of a row with k candies
    bars = bar_ids(b)
    Q = len(b.pumpkin_conditions) + 1
    ints = np.array([n, C, ncol, S, b.max_move, Q, c.uses,
                     c.start_stars, c.pumpkins, c.bar_points, b.columns, eid.get(ids.SWEET_BAR, -1),
                     eid[ids.STARS_BAR], eid[ids.PUMPKINS_BAR], len(b.element_ids), b.turns], i8)
    candy = b.space_candy >= 0
    cls = np.where(candy, Q, b.space_q)  # 0: a child with no condition, 1 + i: pumpkin i, Q: a candy space
    child_sym = np.where(candy, -1, np.array(b.child_symbol)[np.maximum(b.space_child, 0)])
    twice = lambda a: np.tile(a, 2).astype(i8)  # noqa: E731 (the block twice: space + distance, no wrapping)
    arrays = (twice(b.space_candy), twice(b.space_q), twice(cls), twice(np.where(candy, b.space_candy, C)),
              np.arange(2 * n) % n, words64(np.ones(2 * n, bool), (2 * n) // 64 + 3),
              windows(b, candy), windows(b, ~candy & (b.space_q == 0))[:, 0].copy(),
              windows(b, b.space_q > 0)[:, 0].copy(), windows(b, b.space_candy[None, :] == np.arange(C)[:, None]),
              windows(b, child_sym[None, :] == np.arange(3)[:, None])[..., 0].copy(), targets_of(b),
              fx.astype(i8), np.array(b.sym_count + [0], i8), np.concatenate([np.diff(pts0), [0]]).astype(i8),
              pts0.astype(i8), np.array(c.thresholds + [BIG], i8), np.array(b.starts, i8),
              np.array([eid[ids.path_id(i)] for i in range(n)], i8), e_start.astype(i8), e_stash.astype(i8),
              np.array([eid.get(ids.column_star_id(j), -1) for j in range(ncol)], i8),  # -1: no star
              np.array([eid[ids.star_id(j)] for j in range(S)], i8), e_boon.astype(i8),
              np.array([eid[ids.boonus_bar_id(j)] for j in range(b.columns)], i8), e_power.astype(i8),
              np.array([eid[ids.penalty_id(k)] for k in b.candy_ids], i8),
              ways_ahead(tabs[0], cls, n), *tabs[1:])
    # the marks the engine stores 8 at a time must be rows of consecutive elements, the path's from 0
    rows = [[eid[ids.path_id(i)] for i in range(n)], [eid[ids.star_id(j)] for j in range(S)], *e_stash[:, :ncol],
            *(e_boon[s, :b.sym_count[s]] for s in range(3))]
    assert rows[0][0] == 0 and all((np.diff(w) == 1).all() for w in rows), "marks not in rows"
    return b, ints, arrays, len(bars)


@numba.njit(cache=True, inline="always")
def spread8(m):
    """The low 8 bits of m as the bytes of a word (bit i -> byte i is 1)."""
    if BMI2:
        return pdep(m, 0x0101010101010101)
    return ((m & 0x7F) * 0x0002040810204081 & 0x0101010101010101) | ((m & 0x80) << 49)


def _engine(rnd: bool):
    """The compiled game loop for random (rnd) or for greedy and cover: numba prunes the other
    policy's branches. Cover is greedy with a target (`tgt` >= 0)."""

    @jit
    def play(dice, u, tgt, ints, sp_candy, sp_q, sp_cls, sp_rg, wrap, emp0, cwin, hwin, pwin, ccwin, swin,
             tdec, fx, sym_count, gain_of, pts0, thr, starts, e_path, e_start, e_stash,
             e_colstar, e_stars, e_boon, e_bcol, e_power, e_pen, uahead,
             urec, utab, rec, recb, pcnt, pchp, off, flat, cost, c_stars, c_mask,
             out_score, out_pen, out_unused, out_turns, out_x, out_r):
        n, C, ncol, S, D, Q, uses = ints[0], ints[1], ints[2], ints[3], ints[4], ints[5], ints[6]
        T, nbcol = ints[15], ints[10]
        RW, DT, UT = rec.shape[1], dice.shape[1] * 2, u.shape[1] * K  # flat strides (`get`)
        RB, PQ, EB, UW = RW * 8, Q * (D + 1), e_boon.shape[1], urec.shape[1]
        npump, e_sweet, e_stbar, e_pkbar = ints[8], ints[11], ints[12], ints[13]
        # one game's sheet, reset per game; a last slot takes the writes of a space that gives nothing
        stash = np.zeros(C + 2, np.int64)  # stash[C + 1] = ncol: no candy (a full row)
        crossed = np.zeros(C + 2, np.int64)
        colstar = np.zeros(ncol + 1, np.int64)
        colcnt = np.zeros(ncol + 1, np.int64)  # rows whose stash reaches each column
        boon = np.zeros(4, np.int64)  # boon[3]: no symbol (sym_count[3] = 0)
        puses = np.zeros(P, np.int64)
        bcol = np.zeros(nbcol + 1, np.int64)
        rg = np.zeros(C + 2, np.int64)  # greedy value of one more candy of each row; rg[C]: a child
        emp = np.zeros_like(emp0)  # bits: the empty spaces, the block twice (no wrapping)
        small, eb = n <= 63, 0  # a block of 63 spaces or fewer: its empty spaces in one word (eb)
        for g in range(dice.shape[0]):
            r, xg = out_r[g], g * out_x.shape[1]  # the numbers are written straight to the state row
            for k in range(n):
                put(out_x, xg + k, 0)
            if small:
                eb = get(emp0, 0) & ((1 << n) - 1)
            else:
                emp[:] = emp0
            stash[:] = 0
            stash[C + 1] = ncol
            crossed[:] = 0
            colstar[:] = 0
            colcnt[:] = 0
            boon[:] = 0
            puses[:] = 0
            for k in range(C):
                rg[k] = GAIN_WEIGHT * gain_of[0]
            rg[C] = GAIN_WEIGHT * CHILD_GAIN
            circled, used, pumpkins, sweet, pen, amask, unlm = ints[7], 0, 0, 0, 0, 0, 0
            tg = tgt[g]
            cover = tg >= 0  # (-1 unless cover)
            tkind, ta, tb = (tdec[tg, 0], tdec[tg, 1], tdec[tg, 2]) if cover else (0, 0, 0)
            pos, number, kn = 0, 1, 0
            for t in range(T):
                if t == 0:  # turn 1: the start
                    ns = starts.shape[0]
                    if rnd:
                        dest = starts[np.int64(u[g, 0, 0] * ns)]
                    else:
                        bestv, dest = -BIG, -1
                        for i in range(ns):
                            sp = starts[i]
                            sc = sp_candy[sp]
                            h = cover and (e_path[sp] == tg or e_start[sp] == tg or e_stash[sc, stash[sc]] == tg)
                            v = rg[sc]
                            if v + HIT * h > bestv:
                                bestv, dest = v + HIT * h, sp
                    first = dest
                else:
                    d0, d1 = get(dice, g * DT + 2 * t), get(dice, g * DT + 2 * t + 1)
                    a, bd = min(d0, d1), max(d0, d1)
                    dbl = a == bd
                    have = circled - used
                    key = (((a - 1) * 6 + bd - 1) * M + amask) * (S + 1) + have
                    roll = ((a - 1) * 6 + bd - 1) * (D + 1)
                    w, sh = (pos + 1) >> 6, (pos + 1) & 63  # bits j: the space pos + 1 + j is empty
                    if small:  # the block in one word, kept in a register: turned to pos + 1
                        e0, e1 = lshr(eb, pos + 1) | (eb << (n - pos - 1)), 0
                    else:
                        e0 = lshr(get(emp, w), sh) | ((get(emp, w + 1) << 1) << (63 - sh))
                        e1 = lshr(get(emp, w + 1), sh) | ((get(emp, w + 2) << 1) << (63 - sh))
                    ce0, ce1 = e0 & get(cwin, 2 * pos), e1 & get(cwin, 2 * pos + 1)  # the empty spaces ahead, by class
                    he0, pe0 = e0 & get(hwin, pos), e0 & get(pwin, pos)
                    md, bpay = -1, 0  # the distance moved (-1: none) and its payment
                    w0, w1 = get(rec, key * RW), get(rec, key * RW + 1)
                    u0 = get(urec, key * UW) if rnd else NOFIT  # the distances with a way, or NOFIT
                    if t + 1 < T:  # fetch the next turn's record (powers and stars as now) while this
                        # turn plays
                        n0, n1 = get(dice, g * DT + 2 * t + 2), get(dice, g * DT + 2 * t + 3)
                        kn = ((min(n0, n1) - 1) * 6 + max(n0, n1) - 1) * M * (S + 1) + amask * (S + 1) + have
                        if rnd:  # random: its runs and its bits' actions (its ways ahead: once it has moved)
                            prefetch(urec, kn * UW)
                            prefetch(utab, kn * 64)
                            prefetch(utab, kn * 64 + 32)
                        else:  # and its first cheapest per condition (up to 3 lines)
                            prefetch(rec, kn * RW)
                            prefetch(pchp, kn * PQ)
                            prefetch(pchp, min(kn * PQ + 64, pchp.size - 1))
                            prefetch(pchp, kn * PQ + PQ - 1)
                    hb, hx = w0 & LOW, lshr(w0, 32)  # children: one way or more, two or more
                    cx, pr = w1 & LOW, lshr(w1, 32)  # candy spaces: two or more; pumpkins
                    cb0, cb1 = (-1, -1) if dbl else (hb, 0)  # candy spaces: one way or more
                    if rnd and BMI2 and u0 >= 0:  # the ways as one word of bits (`unary`): the k-th bit, no walk
                        sm, ends = get(urec, key * UW + 1), get(urec, key * UW + 2)
                        z = pext(e0, u0)  # the runs of the empty spaces, then the ways their classes have
                        y = (pdep(z, ends) - pdep(z, sm)) & get(uahead, key * n + pos)
                        t0 = ce0 & ~((1 << D) - 1) if dbl else 0  # doubles: the free writes beyond D
                        t1 = ce1 if dbl else 0
                        m0 = popcount(y)
                        m1 = m0 + popcount(t0)
                        tot = m1 + popcount(t1)
                        if tot > 0:
                            k = np.int64(get(u, g * UT + t * K) * tot)
                            v = np.int64(get(utab, key * 64 + trailing_zeros(pdep(1 << (k & 63), y) | HI)))
                            i0 = trailing_zeros(pdep(1 << ((k - m0) & 63), t0) | HI)
                            i1 = trailing_zeros(pdep(1 << ((k - m1) & 63), t1) | HI)
                            md = (v >> 8) if k < m0 else (1 + i0 if k < m1 else 65 + i1)
                            bpay = (v & 255) if k < m0 else 0
                    elif rnd:  # spaces with one way count 1 each; the others are visited
                        spec = (ce0 & cx) | (he0 & hx) | (pe0 & pr)
                        plain = ((ce0 & cb0) | (he0 & hb)) & ~spec
                        plain1 = ce1 & cb1
                        tot = popcount(plain) + popcount(plain1)
                        xc = ce0 if dbl else 0  # doubles: a candy space's free write (0, 0) is a way more
                        bits = spec  # (the ways at j + 1: its condition's, no branch on the kind of space)
                        while bits:
                            j = trailing_zeros(bits)
                            bits &= bits - 1
                            tot += get(pcnt, key * PQ + get(sp_q, pos + 1 + j) * (D + 1) + j + 1) + (
                                lshr(xc, j) & (get(recb, key * RB + 17 + j) != 0))
                        if tot > 0:  # the k-th action: by distance, then payment
                            k = np.int64(get(u, g * UT + t * K) * tot)
                            bits, one = spec, True
                            while bits:
                                j = trailing_zeros(bits)
                                bits &= bits - 1
                                low = plain & ((1 << j) - 1)
                                m = popcount(low)
                                if k < m:
                                    break
                                k -= m
                                plain ^= low
                                m = get(pcnt, key * PQ + get(sp_q, pos + 1 + j) * (D + 1) + j + 1) + (
                                    lshr(xc, j) & (get(recb, key * RB + 17 + j) != 0))
                                if k < m:
                                    md, one = j + 1, False
                                    break
                                k -= m
                            if one:  # a space with one way: its first cheapest (doubles, a candy space: 0)
                                m = popcount(plain)
                                md = 1 + (_select(plain, k) if k < m else 64 + _select(plain1, k - m))
                                pay = np.int64(get(recb, key * RB + 16 + min(md, D)))  # (never a pumpkin)
                                bpay = 0 if (md > D) | (lshr(xc, (md - 1) & 63) & 1) else pay
                            else:  # the k-th way to a space with several (doubles: the free write first)
                                k -= lshr(xc, md - 1) & (get(recb, key * RB + 16 + md) != 0)
                                bpay = 0
                                lst = get(sp_q, pos + md) * 36 * (D + 1) + roll + md
                                for i in range(get(off, lst), get(off, lst + 1) if k >= 0 else 0):  # stars, then powers
                                    code = np.int64(get(flat, i))
                                    if get(c_mask, code) & ~amask == 0:
                                        if k == 0:
                                            bpay = code
                                            break
                                        k -= 1
                    else:  # greedy, cover: the highest value, the first in canonical order on ties
                        # cover: HIT more for a move that marks its target (hm: those spaces ahead;
                        # hc: the candy all of whose spaces do); a power's use-circle is looked at below
                        hm0, hm1, hc = 0, 0, -1
                        if cover:
                            if tkind == T_PATH and get(out_x, xg + ta) == 0:
                                d = ta - pos + (n if ta < pos else 0)
                                hm0, hm1 = (1 << (d - 1), 0) if d <= 64 else (0, 1 << (d - 65))
                            elif tkind == T_STASH and get(stash, ta) == tb:
                                hm0, hm1, hc = get(ccwin, (ta * n + pos) * 2), get(ccwin, (ta * n + pos) * 2 + 1), ta
                            elif tkind == T_BOON and get(boon, ta) == tb:
                                hm0 = get(swin, ta * n + pos)
                        bestv = -BIG
                        if dbl:  # every empty candy space: a free write worth its candy
                            for i in range(C):
                                m0, m1 = ce0 & get(ccwin, (i * n + pos) * 2), ce1 & get(ccwin, (i * n + pos) * 2 + 1)
                                if m0 | m1:
                                    d = 1 + (trailing_zeros(m0) if m0 else 64 + trailing_zeros(m1))
                                    v = get(rg, i) + HIT * (i == hc)
                                    if v > bestv or (v == bestv and d < md):
                                        bestv, md = v, d
                            m0, m1 = hm0 & ce0, hm1 & ce1  # cover: a target space its candy's first may hide
                            if (m0 | m1) and hc < 0:
                                d = 1 + (trailing_zeros(m0) if m0 else 64 + trailing_zeros(m1))
                                v = get(rg, get(sp_rg, pos + d)) + HIT
                                if v > bestv or (v == bestv and d < md):
                                    bestv, md = v, d
                            bits = he0 & hb
                        else:
                            bits = (ce0 & cb0) | (he0 & hb)
                        while bits:  # candy spaces and children: their first cheapest way
                            j = trailing_zeros(bits)
                            bits &= bits - 1
                            pay = np.int64(get(recb, key * RB + 17 + j))
                            v = get(rg, get(sp_rg, pos + 1 + j)) - get(cost, pay) + HIT * (lshr(hm0, j) & 1)
                            if v > bestv or (v == bestv and j + 1 < md):
                                bestv, md, bpay = v, j + 1, pay
                        bits = pe0 & pr
                        while bits:  # pumpkins: looked up only if they could win (a condition only
                            j = trailing_zeros(bits)  # removes ways, so it never lowers the cost)
                            bits &= bits - 1
                            h = HIT * (lshr(hm0, j) & 1)
                            v = get(rg, C) - get(cost, get(recb, key * RB + 17 + j)) + h
                            if v > bestv or (v == bestv and j + 1 < md):
                                pay = np.int64(get(pchp, key * PQ + get(sp_cls, pos + 1 + j) * (D + 1) + j + 1))
                                if pay != NOPAY:
                                    v = get(rg, C) - get(cost, pay) + h
                                    if v > bestv or (v == bestv and j + 1 < md):
                                        bestv, md, bpay = v, j + 1, pay
                        if cover and tkind == T_POWER and (amask >> ta) & 1 and puses[ta] == tb:
                            # the moves paid with the target power: the first cheapest of each, if any
                            # (a doubles write beyond the longest move is free: no power)
                            bits = ((ce0 & cb0) | (he0 & hb) | (pe0 & pr)) & ((1 << D) - 1)
                            hv, hd, hpay = -BIG, -1, 0
                            while bits:
                                j = trailing_zeros(bits)
                                bits &= bits - 1
                                d, at = j + 1, pos + 1 + j
                                g0, c0 = rg[sp_rg[at]], recb[key, 16 + d]
                                if c0 == NOPAY or g0 - cost[c0] <= hv:  # it cannot beat the best so far
                                    continue
                                q = sp_cls[at] if sp_cls[at] < Q else 0
                                lst = q * 36 * (D + 1) + roll + d
                                for i in range(off[lst], off[lst + 1]):
                                    code = np.int64(flat[i])
                                    if (c_mask[code] >> ta) & 1 and c_mask[code] & ~amask == 0 \
                                            and c_stars[code] <= have and g0 - cost[code] > hv:
                                        hv, hd, hpay = g0 - cost[code], d, code
                            if hd > 0:
                                md, bpay = hd, hpay
                    if md > 0:
                        msk = get(c_mask, bpay)
                        if msk:
                            for q in range(P):  # (a power's bit is off in amask once all its uses are gone)
                                pu = get(puses, q) + ((msk >> q) & 1)
                                put(puses, q, pu)
                                amask &= ~((pu >= uses) << q)
                        used += get(c_stars, bpay)
                        dest = pos + md - (n if pos + md >= n else 0)
                    else:  # no move at all: the penalty
                        pen += 1
                        slot = 0
                        if rnd:
                            can = 0
                            for k in range(C):
                                can += 1 - crossed[k]
                            if can:
                                k = np.int64(u[g, t, 0] * can)
                                for i in range(C):
                                    if not crossed[i]:
                                        if k == 0:
                                            break
                                        k -= 1
                        else:
                            bestv, i = -BIG, -1
                            for k in range(C):
                                if not crossed[k]:
                                    h = cover and e_pen[k] == tg
                                    v = -pts0[stash[k]]
                                    if v + HIT * h > bestv:
                                        bestv, i = v + HIT * h, k
                            can = 1 if i >= 0 else 0
                        if can:
                            crossed[i] = 1
                            rg[i] = 0
                            slot = 1
                        uu = u[g, t, slot % K]
                        if rnd:  # the k-th empty candy space
                            m = popcount(ce0)
                            k = np.int64(uu * (m + popcount(ce1)))
                            dest = wrap[pos + 1 + (_select(ce0, k) if k < m else 64 + _select(ce1, k - m))]
                        else:
                            bestv, bd = -BIG, 0  # each candy's first empty space (cover: a hit first)
                            for i in range(C):
                                m0, m1 = ce0 & ccwin[i, pos, 0], ce1 & ccwin[i, pos, 1]
                                if m0 | m1:
                                    d = 1 + (trailing_zeros(m0) if m0 else 64 + trailing_zeros(m1))
                                    v = rg[i] + HIT * (cover and e_stash[i, stash[i]] == tg)
                                    if v > bestv or (v == bestv and d < bd):
                                        bestv, bd = v, d
                            d = ta - pos + (n if ta < pos else 0)  # cover: the target space, if an empty candy one
                            if tkind == T_PATH and d > 0 and (ce0 >> (d - 1) if d <= 64 else ce1 >> (d - 65)) & 1:
                                v = rg[sp_candy[ta]] + HIT
                                if v > bestv or (v == bestv and d < bd):
                                    bestv, bd = v, d
                            dest = wrap[pos + bd]
                if rnd and t + 1 < T:  # the next turn's ways ahead (powers and stars as now)
                    prefetch(uahead, kn * n + dest)
                # write the number and take what the space gives: the space's effects from `fx`, the
                # writes of one that gives nothing going to a last slot (bars and marks: at the end)
                put(out_x, xg + dest, number)
                if small:
                    eb &= ~(1 << (dest & 63))
                else:
                    put(emp, dest >> 6, get(emp, dest >> 6) & ~(1 << (dest & 63)))
                    put(emp, (dest + n) >> 6, get(emp, (dest + n) >> 6) & ~(1 << ((dest + n) & 63)))
                pos = dest
                f = get(fx, dest)
                cand, s = f & 255, (f >> 8) & 3  # C + 1: no candy; 3: no Boo-nus symbol
                bn = get(boon, s)
                put(boon, s, bn + (bn < get(sym_count, s)))
                pumpkins += (f >> FX_PUMPKIN) & 1
                sweet += (f >> FX_SWEET) & 1
                unlm |= f >> FX_MOON
                amask |= f >> FX_MOON
                if (f >> FX_PIRATE) & 1:  # the Pirate: a candy of choice
                    if rnd:
                        cand = np.int64(get(u, g * UT + t * K + 1 % K) * C)
                    else:
                        bestv = -BIG
                        for k in range(C):
                            h = cover and e_stash[k, stash[k]] == tg
                            v = rg[k]
                            if v + HIT * h > bestv:
                                bestv, cand = v + HIT * h, k
                # collect: the leftmost empty circle of the row; a column may earn a star
                col = get(stash, cand)
                inc = col < ncol
                put(stash, cand, col + inc)
                if not rnd:
                    put(rg, cand, GAIN_WEIGHT * get(gain_of, col + inc) * (1 - get(crossed, cand)))
                cc = get(colcnt, col) + inc
                put(colcnt, col, cc)
                star = inc & (cc >= get(thr, col)) & (1 - get(colstar, col))
                put(colstar, col, get(colstar, col) | star)
                circled += (star | ((f >> FX_STAR) & 1)) & (circled < S)  # circle a star (lost if none left)
                number += 1
            # the end: the bars, the score, the marks and the state in State.vector's order
            rj, bst, bpk = sweet >= 2, circled == S, pumpkins >= npump
            nbars = rj + bst + bpk
            for k in range(nbcol):  # a Boo-nus column's bar: every symbol that has the column reaches it
                done = 1
                for q in range(3):
                    done &= (sym_count[q] <= k) | (boon[q] > k)
                bcol[k] = done
                nbars += done
            score, unused = 0, circled - used
            for k in range(C):
                if not crossed[k]:
                    score += pts0[stash[k]]
            for q in range(P):
                unused += ((unlm >> q) & 1) * (uses - puses[q])
            out_score[g] = score + ints[9] * nbars
            out_pen[g] = pen
            out_unused[g] = unused
            out_turns[g] = get(out_x, xg + pos)
            # the marks, from the end state, in element order: a row of marks of one kind is one
            # 8-byte store (bits spread to bytes); what it writes past its row, the next write
            # (or the next game, or the padding) writes again
            for k in range(0, n, 8):  # the path: the filled spaces
                put8(r, k, spread8(lshr(~(eb if small else get(emp, k >> 6)), k & 63) & 255))
            for k in range(starts.shape[0]):
                put(r, get(e_start, get(starts, k)), get(starts, k) == first)
            for k in range(C):
                put8(r, get(e_stash, k * (ncol + 1)), spread8((1 << get(stash, k)) - 1))
            for k in range(ncol):
                if get(e_colstar, k) >= 0:
                    put(r, get(e_colstar, k), get(colstar, k))
            for j in range(0, S, 8):
                put8(r, get(e_stars, j), spread8(lshr((1 << circled) - 1, j) & 255))
            for q in range(3):
                for j in range(0, sym_count[q], 8):
                    put8(r, get(e_boon, q * EB + j), spread8(lshr((1 << get(boon, q)) - 1, j) & 255))
            for k in range(nbcol):
                put(r, get(e_bcol, k), get(bcol, k))
            if e_sweet >= 0:
                put(r, e_sweet, rj)
            put(r, e_stbar, bst)
            put(r, e_pkbar, bpk)
            for q in range(P):  # (one by one: the powers' order is the children's)
                if get(e_power, q * (uses + 1)) >= 0:
                    for j in range(uses):
                        put(r, get(e_power, q * (uses + 1) + j), j < get(puses, q))
            for k in range(C):
                put(r, get(e_pen, k), get(crossed, k))
            x, i = out_x, xg + n  # (flat: `put`)
            for k in range(C):
                put(x, i + k, get(stash, k))
                put(x, i + C + k, get(crossed, k))
            i += 2 * C
            for k in range(ncol):
                put(x, i + k, get(colstar, k))
            i += ncol
            for k, v in enumerate((circled, used, boon[0], boon[1], boon[2])):
                put(x, i + k, v)
            i += 5
            for q in range(P):
                put(x, i + q, (unlm >> q) & 1)
                put(x, i + P + q, get(puses, q))
            i += 2 * P
            for k in range(nbcol):
                put(x, i + k, get(bcol, k))
            i += nbcol
            for k, v in enumerate((np.int64(rj), np.int64(bst), np.int64(bpk), pumpkins, sweet, pos, pen,
                                   circled - used)):
                put(x, i + k, v)

    return play


_random, _greedy = _engine(True), _engine(False)


def fast(doc, dice, u, policy, targets) -> Batch:
    b, ints, arrays, nbars = sheet(doc.model_dump_json())
    c = b.c
    G, n, C, ncol = len(dice), b.n, len(c.candies), len(c.points)
    pol = {"random": RANDOM, "greedy": GREEDY, "cover": COVER}[policy]
    tgt = np.asarray(targets, i8) if pol == COVER else np.full(G, -1, i8)
    width = n + 2 * C + ncol + 2 + 3 + 2 * P + nbars + 5
    marks = np.zeros(G * len(b.element_ids) + 8, np.bool_)  # + 8: an 8-byte store past the last row
    out = Batch(np.empty(G, i8), marks[:-8].reshape(G, -1), np.empty(G, i8), np.empty(G, i8),
                np.zeros(G, i8), np.empty(G, i8), np.empty((G, width), np.int16))
    play = _random if pol == RANDOM else _greedy
    play(np.ascontiguousarray(dice), np.ascontiguousarray(u, np.float64), tgt, ints, *arrays,
         out.score, out.penalties, out.unused_powers, out.turns, out.state, out.reached)
    return out
