"""Numba forward sampler of a discrete Bayesian network held as flat arrays.

The network is compiled once (:func:`calibsim.sources._ban._compile`) into a
topological order, flat parent lists with mixed-radix strides, and cumulative
CPT rows; the uniforms come from the caller's ``numpy.random.Generator``
(conventions.md, item 8), so the kernel draws nothing itself.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _forward_sample(order, card, parent_ptr, parents, strides, cpt_ptr, cum, u):
    """Forward (ancestral) sampling with inverse-CDF draws.

    (m,) i8 topological order of node indices, (m,) i8 cardinalities,
    (m+1,) i8 parent offsets, (P,) i8 parent node indices, (P,) i8 strides,
    (m+1,) i8 CPT offsets, (T,) f8 cumulative CPT rows, (n, m) f8 uniforms in
    [0, 1) -> (n, m) i8 state codes.

    Node ``v``'s parent configuration is ``sum(value[parents[q]] * strides[q])``
    over ``q in parent_ptr[v] .. parent_ptr[v+1]-1`` (pgmpy's layout: the last
    parent varies fastest); its CPT row starts at ``cpt_ptr[v] + cfg * card[v]``
    and holds cumulative probabilities. State ``k`` is the first with
    ``u < cum[row + k]``; the last state takes whatever is left, so rounding in
    the cumulative sums never yields an out-of-range code. ``u[i, v]`` is the
    uniform of node ``v`` (by node index, not topological position).
    """
    n, m = u.shape
    out = np.empty((n, m), np.int64)
    for i in range(n):
        for t in range(m):
            v = order[t]
            cfg = 0
            for q in range(parent_ptr[v], parent_ptr[v + 1]):
                cfg += out[i, parents[q]] * strides[q]
            row = cpt_ptr[v] + cfg * card[v]
            k = 0
            last = card[v] - 1
            while k < last and u[i, v] >= cum[row + k]:
                k += 1
            out[i, v] = k
    return out
