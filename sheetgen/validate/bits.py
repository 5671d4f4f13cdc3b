"""Bit tricks the compiled engines share (numba intrinsics: one machine instruction each where
the processor has it). numba keys its cache on each compiled function's own file, so the engines
that inline these would keep stale code after an edit here; the cache folder is named by a digest
of this file and the engines' folders (`sheetgen.engines_digest`), so an edit gets a fresh one.

    popcount(x)   set bits of an integer (the result has x's type)
    lshr(x, s)    x >> s with zeros shifted in (an int64 read as 64 bits), 0 <= s < 64
    pdep(x, m)    BMI2's parallel deposit (only where BMI2: see `BMI2`)
    pext(x, m)    BMI2's parallel extract (the same)
    select(m, k)  the index of the k-th (from 0) set bit of m, k < popcount(m)
"""

from __future__ import annotations

import numba
from llvmlite import binding as llvm, ir as llvmir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros


@intrinsic
def popcount(typingctx, x):
    """The set bits of an integer (one instruction); the result has x's type."""
    return x(x), lambda context, builder, sig, args: builder.ctpop(args[0])


@intrinsic
def lshr(typingctx, x, s):
    """x >> s with zeros shifted in (an int64 read as 64 bits), 0 <= s < 64."""
    def codegen(context, builder, sig, args):
        return builder.lshr(context.cast(builder, args[0], x, types.int64),
                            context.cast(builder, args[1], s, types.int64))
    return types.int64(x, s), codegen


def _bmi2(name: str):
    """The code generator of one of BMI2's 64-bit bit-field instructions (pdep, pext)."""
    def codegen(context, builder, sig, args):
        i64 = llvmir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, llvmir.FunctionType(i64, [i64, i64]),
                                            f"llvm.x86.bmi.{name}.64")
        return builder.call(fn, [context.cast(builder, a, t, types.int64) for a, t in zip(args, sig.args)])
    return codegen


@intrinsic
def pdep(typingctx, x, m):
    """The low bits of x deposited at the set bits of m (BMI2's pdep; only where BMI2)."""
    return types.int64(x, m), _bmi2("pdep")


@intrinsic
def pext(typingctx, x, m):
    """The bits of x at the set bits of m, packed low (BMI2's pext; only where BMI2)."""
    return types.int64(x, m), _bmi2("pext")


# pdep where the code is compiled for this machine and it has BMI2 (numba's cache keys on the CPU)
BMI2 = numba.config.CPU_NAME is None and bool(llvm.get_host_cpu_features().get("bmi2"))


@numba.njit(cache=True, inline="always")  # (numbers only: inlining costs no reference counts)
def select(m, k):
    """The index of the k-th (from 0) set bit of m (k < popcount(m)): with BMI2 the lowest bit of
    pdep(1 << k, m), else halve the word that holds it."""
    if BMI2:
        return trailing_zeros(pdep(1 << k, m))
    at = 0
    for width in (32, 16, 8, 4, 2, 1):
        c = popcount(m & ((1 << width) - 1))
        if k >= c:
            m, at, k = lshr(m, width), at + width, k - c
    return at
