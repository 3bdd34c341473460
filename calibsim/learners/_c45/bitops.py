"""Bitsets of instances, the primitives of C4.5's unit-weight path (:mod:`.bitset`).

A set of instances is W = ceil(n / 64) uint64 words (bit t of word w is instance
64 w + t). Counting a set's class members is a popcount of its words and'd with
a class's words.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

#: Options of the kernels of the unit-weight path: ``error_model="numpy"`` (no zero
#: test before a float division; no division there has a zero divisor).
_JIT = dict(cache=True, error_model="numpy")


@numba.njit(cache=True, inline='always')
def _mask_word(mask, w):
    """(n,) b1, i8 -> (u8, u8): word w of the bitset of ``mask`` (bit t = mask[64 w + t])
    and the word of its valid bits (all ones but in a short last word)."""
    n = mask.shape[0]
    i0 = 64 * w
    m = min(64, n - i0)
    word = np.uint64(0)
    for t in range(m):
        word |= np.uint64(mask[i0 + t]) << np.uint64(t)
    full = ~np.uint64(0) if m == 64 else (np.uint64(1) << np.uint64(m)) - np.uint64(1)
    return word, full


@intrinsic
def _popcount(typingctx, x):
    """u8 -> i8: number of set bits (LLVM ctpop: one POPCNT instruction on x86-64)."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64 or x.signed:
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@intrinsic
def _lowest_bit(typingctx, x):
    """u8 (non-zero) -> i8: index of the lowest set bit (LLVM cttz: one TZCNT instruction)."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64 or x.signed:
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))
    return sig, codegen


@numba.njit(cache=True, inline='always')
def _class_counts_bits(masks, u, cmask, dist, o, n_classes):
    """Set dist[o:o+C] to the class counts of bitset ``masks[u]`` (as float64); return the total."""
    W = masks.shape[1]
    total = 0
    for c in range(n_classes):
        k = 0
        for w in range(W):
            k += _popcount(masks[u, w] & cmask[c, w])
        dist[o + c] = np.float64(k)
        total += k
    return total


@numba.njit(inline='always', **_JIT)
def _restrict(masks, u, ch, amask, k):
    """``masks[ch] = masks[u] & amask[k]``: node u's set restricted to cell k, the set of
    its child ch for that value."""
    for w in range(masks.shape[1]):
        masks[ch, w] = masks[u, w] & amask[k, w]
