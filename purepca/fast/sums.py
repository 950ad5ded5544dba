"""Compensated sums and dot products written for an interpreter: PyPy's compiled loops, CPython's C loops.

Each is a kernel of the room (see :mod:`purepca.fast`); the reference is a ``math.fsum`` of the
rounded products (:func:`purepca.numeric.FloatContext`'s ``dot`` with no kernel bound).

==========================  ===================================================================
``fsum_by_sum2(values)``    ``math.fsum``'s bits from one loop PyPy compiles (certified, else fsum)
``dot2(a, b)``              Ogita-Rump-Oishi Dot2: as if in twice the precision, then rounded
``blocked_dot(a, b)``       blocks of 32 plain products, the blocks' sums compensated (PyPy's Gram)
``blocked_dot_about(...)``  the same of the deviations ``a - ma`` and ``b - mb``, formed as read
``fsum_dots(vectors, v)``   ``fsum`` of the products per vector, no Python frame per product
==========================  ===================================================================
"""

from __future__ import annotations

import itertools
import math
import operator
import sys
from typing import Iterable, Sequence

__all__ = ["blocked_dot", "blocked_dot_about", "dot2", "fsum_by_sum2", "fsum_dot", "fsum_dots"]


def fsum_dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The exactly rounded sum of the rounded products (the reference's dot).

    >>> fsum_dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0])
    1.0
    """
    return math.fsum(map(operator.mul, a, b))


_SPLIT = 134217729.0  # 2**27 + 1, Dekker's splitting constant for doubles


def dot2(a: Sequence[float], b: Sequence[float]) -> float:
    """Ogita–Rump–Oishi ``Dot2``: the inner product as if computed in twice the
    working precision, then rounded (SIAM J. Sci. Comput. 26, 2005).

    Each product is split exactly into ``p + e`` with Dekker's TwoProduct
    (there is no fused multiply-add before Python 3.13) and each sum into
    ``s + e`` with Knuth's TwoSum; the error terms are summed on the side.
    A plain loop of float operations: PyPy's JIT compiles it to about ten
    times the speed of ``fsum(map(mul, a, b))``; CPython interprets it
    slowly, so it is used only on PyPy.  Should a split overflow (entries
    beyond about 1e300), the compensated fsum answers instead.

    >>> dot2([1e16, 1.0, -1e16], [1.0, 1.0, 1.0])
    1.0
    """
    s = 0.0
    c = 0.0
    split = _SPLIT
    for x, y in zip(a, b):
        p = x * y
        t = split * x
        xh = t - (t - x)
        xl = x - xh
        t = split * y
        yh = t - (t - y)
        yl = y - yh
        ep = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
        t = s + p
        z = t - s
        c += ((s - (t - z)) + (p - z)) + ep
        s = t
    result = s + c
    if result - result != 0.0:  # inf or nan: an overflow inside the splits
        return fsum_dot(a, b)
    return result


_U = 2.0 ** -53  # the unit roundoff of a double


def fsum_by_sum2(values: Iterable[float]) -> float:
    """``math.fsum(values)``, the exactly rounded sum, from one compensated loop that PyPy's JIT
    compiles (PyPy's fsum costs about ten times as much), certified, else fsum itself.

    Ogita, Rump and Oishi's Sum2 (SIAM J. Sci. Comput. 26, 2005, Prop. 4.5) leaves ``s + c``
    within ``γ²_{n-1}·Σ|x|`` of the exact sum S (``γ_k = k·u/(1 - k·u)``).  TwoSum splits
    ``s + c`` exactly into ``r + e`` (r its rounding).  Where ``|e|`` plus twice that bound stays
    strictly inside half the gap from r to its neighbour on e's side, S rounds to r as fsum's
    result does (ties included: a tie is never strictly inside).  Otherwise (a near tie, a zero
    sum, an overflow, NaN) fsum answers, with its own errors.

    >>> fsum_by_sum2([0.1] * 10) == math.fsum([0.1] * 10), fsum_by_sum2([1e100, 1.0, -1e100])
    (True, 1.0)
    """
    xs = values if type(values) is list else list(values)
    n = len(xs)
    if not 1 < n < 2 ** 40:
        return math.fsum(xs)
    s = 0.0
    c = 0.0
    a = 0.0
    try:
        for x in xs:
            t = s + x
            z = t - s
            c += (s - (t - z)) + (x - z)
            s = t
            a += abs(x)
        r = s + c
    except (TypeError, OverflowError):  # Decimals, ints beyond the float range: fsum converts or says why
        return math.fsum(xs)
    # Only a float (not a Fraction or a numpy scalar the loop turned the sum into), finite and not
    # the largest float, whose neighbour away from zero is infinite: fsum decides an overflow.
    if type(r) is float and r != 0.0 and abs(r) < _LARGEST and a - a == 0.0:
        z = r - s
        e = (s - (r - z)) + (c - z)
        g = (n - 1) * _U / (1.0 - (n - 1) * _U)
        slack = (2.0 * g * g * a) * (1.0 + 8.0 * _U)
        gap = (math.nextafter(r, math.inf) - r) if e > 0.0 else (r - math.nextafter(r, -math.inf))
        if (abs(e) + slack) * (1.0 + 8.0 * _U) < 0.5 * gap:
            return r
    return math.fsum(xs)


_LARGEST = sys.float_info.max
_BLOCK = 32


def blocked_dot(a: Sequence[float], b: Sequence[float]) -> float:
    """``a·b`` for a Gram matrix on PyPy (``GramWork(fast=True)``): plain sums of 32 products at a
    time, the blocks' sums added with Knuth's TwoSum.  Each block's sum is within
    ``γ_32·Σ_block|a_k·b_k|`` of its products' exact sum and the compensated total adds about
    ``u`` more, so the result is within ``(32 + 2)·u·Σ|a_k·b_k| <= 17·eps·‖a‖·‖b‖`` (products
    that underflow aside: the fit's columns are scaled so that their squares do not): below the
    polar Gram's ``32·eps·‖a‖·‖b‖`` and the eigensolver's backward error, at the cost of a plain
    product and sum (Dot2 costs four times as much under PyPy's JIT).  Should a product or a
    sum overflow, the exactly rounded ``fsum`` of the products answers.

    >>> blocked_dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]), blocked_dot([0.5] * 100, [2.0] * 100)
    (0.0, 100.0)
    """
    n = len(a)
    s = 0.0
    c = 0.0
    # A block's 32 products summed left to right in one expression (0.0 + x, as from p = 0.0, so
    # that a block of -0.0 products gives +0.0): a loop with no branch in its body, which PyPy's
    # JIT compiles to straight code (a branch at the block's end, or an inner loop, costs it a
    # bridge that boxes the floats and re-enters the loop from its preamble 32 products apart).
    full = n - n % _BLOCK
    for k in range(0, full, _BLOCK):
        p = (0.0 + a[k] * b[k] + a[k + 1] * b[k + 1] + a[k + 2] * b[k + 2] + a[k + 3] * b[k + 3]
             + a[k + 4] * b[k + 4] + a[k + 5] * b[k + 5] + a[k + 6] * b[k + 6] + a[k + 7] * b[k + 7]
             + a[k + 8] * b[k + 8] + a[k + 9] * b[k + 9] + a[k + 10] * b[k + 10] + a[k + 11] * b[k + 11]
             + a[k + 12] * b[k + 12] + a[k + 13] * b[k + 13] + a[k + 14] * b[k + 14] + a[k + 15] * b[k + 15]
             + a[k + 16] * b[k + 16] + a[k + 17] * b[k + 17] + a[k + 18] * b[k + 18] + a[k + 19] * b[k + 19]
             + a[k + 20] * b[k + 20] + a[k + 21] * b[k + 21] + a[k + 22] * b[k + 22] + a[k + 23] * b[k + 23]
             + a[k + 24] * b[k + 24] + a[k + 25] * b[k + 25] + a[k + 26] * b[k + 26] + a[k + 27] * b[k + 27]
             + a[k + 28] * b[k + 28] + a[k + 29] * b[k + 29] + a[k + 30] * b[k + 30] + a[k + 31] * b[k + 31])
        t = s + p
        z = t - s
        c += (s - (t - z)) + (p - z)
        s = t
    if full < n:  # the last, shorter block
        p = 0.0
        for k in range(full, n):
            p += a[k] * b[k]
        t = s + p
        z = t - s
        c += (s - (t - z)) + (p - z)
        s = t
    result = s + c
    if result - result != 0.0:
        return fsum_dot(a, b)
    return result


def blocked_dot_about(a: Sequence[float], ma: float, b: Sequence[float], mb: float) -> float:
    """:func:`blocked_dot` of the deviations ``a - ma`` and ``b - mb``, each formed as it is
    used (the same floats as the deviations stored, so the same bits), so that the fit needs no
    centred copy of its data (:class:`DeviationColumns`).  Where that is not finite (an overflow),
    the caller takes the deviations themselves.

    >>> blocked_dot_about([1.0, 3.0], 2.0, [2.0, 6.0], 4.0) == blocked_dot([-1.0, 1.0], [-2.0, 2.0])
    True
    """
    n = len(a)
    s = 0.0
    c = 0.0
    p = 0.0
    last = (_BLOCK if _BLOCK < n else n) - 1
    for k in range(n):
        p += (a[k] - ma) * (b[k] - mb)
        if k == last:
            t = s + p
            z = t - s
            c += (s - (t - z)) + (p - z)
            s = t
            p = 0.0
            last = k + _BLOCK if k + _BLOCK < n else n - 1
    return s + c



def fsum_dots(vectors: Iterable[Sequence[float]], v: Sequence[float]) -> list[float]:
    """``fsum`` of the products for each vector, with no Python frame per product (CPython before
    3.12: the same bits as ``[fsum_dot(u, v) for u in vectors]``).

    >>> fsum_dots([[1e16, 1.0, -1e16], [3.0, 4.0, 0.0]], [1.0, 1.0, 1.0])
    [1.0, 7.0]
    """
    return list(map(math.fsum, map(map, itertools.repeat(operator.mul), vectors, itertools.repeat(v))))
