"""Exact sums for :class:`~purepca.Moments` (``exact=True``): Σx and Σxxᵀ as integers.

================================  ===========================================
``ExactSums.from_columns(cols)``  the sums of one block of rows, exactly
``ExactSums.merge(other)``        fold another block in, exactly
``ExactSums.mean(ctx)``           the column means, rounded once
``ExactSums.covariance(ctx, …)``  the covariance (or raw second moments), rounded once
================================  ===========================================

Every float is an integer times a power of two, so a column of floats is a
column of integers ``X`` times one common power ``2**E`` (``E`` is set by the
smallest nonzero magnitude in the column, less the 53 bits of a mantissa, then
raised by the trailing zero bits all the integers share).  Python's integers do
not round, so the sums of the integers shifted by a reference value ``K`` (the
first row of the block: it keeps the integers short when the mean is far from
zero)::

    S1_j  = Σ (X_j - K_j)
    S2_ij = Σ (X_i - K_i)(X_j - K_j)

are the exact sums of the data, in units of ``2**E_j`` and ``2**(E_i + E_j)``.
Two blocks merge exactly: the one with the larger exponent is shifted left
to the smaller, and its sums are moved to the other's reference by the
binomial identities ``S1 + n·δ`` and ``S2 + δS1ᵀ + S1δᵀ + n·δδᵀ``.  So the
state after any partitioning of the rows and any merge order is the same
rational numbers, and the mean ``(n·K + S1)/n`` and the covariance
``(n·S2 - S1S1ᵀ) / (n(n - ddof))`` (times their powers of two) come out as
one division of two integers each, rounded once: correctly rounded, and the
same bits every time.

In a decimal context the values are decimals and the unit is a power of ten.

>>> s = ExactSums.from_columns([[0.1] * 7], 2)
>>> t = ExactSums.from_columns([[0.1] * 3], 2)
>>> from purepca.numeric import FLOAT
>>> s.merge(t).mean(FLOAT)
[0.1]
>>> total = 0.0
>>> for _ in range(10):
...     total += 0.1              # a float sum rounds at every addition
>>> total / 10
0.09999999999999999
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from functools import reduce
from operator import mul, or_
from typing import Any, Callable, List, Sequence

from .errors import PurePCAError
from . import fast
from .numeric import Context, Scalar

__all__ = ["ExactSums"]

def _sum_of_products(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(map(mul, a, b))


# The kernel room's triple-length dot (Python 3.12+: one C loop) is exact on integers (it keeps
# ints as ints; it is on floats that it rounds): the same sums as the reference's.
_sumprod: Callable[[Sequence[int], Sequence[int]], int] = fast.triple_dot or _sum_of_products


def _exact_int(x: float, e: int) -> int:
    """``x / 2**e`` for a float that is a multiple of ``2**e`` (slow, any range)."""
    p, q = x.as_integer_ratio()
    return p << (-e - (q.bit_length() - 1))


def float_column_ints(col: Sequence[float]) -> tuple[List[int], int]:
    """``(X, E)`` with ``col[i] == X[i] * 2**E`` exactly, ``X`` as short as possible.

    >>> float_column_ints([0.5, 1.5, -3.0])
    ([1, 3, -6], -1)
    >>> float_column_ints([0.0, 0.0])
    ([0, 0], 0)
    """
    smallest = min(filter(None, map(abs, col)), default=0.0)
    if not smallest:
        return [0] * len(col), 0
    e = math.frexp(smallest)[1] - 53
    largest = max(map(abs, col))
    if -1074 <= -e <= 1023 and math.frexp(largest)[1] - e <= 1023:
        # Multiplying by a power of two that neither overflows nor leaves the
        # normal range is exact; every product is an integer-valued float.
        X = list(map(int, map(math.ldexp(1.0, -e).__mul__, col)))
    else:  # a spread of magnitudes wider than the float range
        X = [_exact_int(x, e) for x in col]
    common = reduce(or_, X)
    zeros = (common & -common).bit_length() - 1
    if zeros:
        X = [v >> zeros for v in X]
        e += zeros
    return X, e


def decimal_column_ints(col: Sequence[Decimal]) -> tuple[List[int], int]:
    """``(X, E)`` with ``col[i] == X[i] * 10**E`` exactly.

    >>> decimal_column_ints([Decimal("0.25"), Decimal("3")])
    ([25, 300], -2)
    """
    pairs = [x.as_integer_ratio() for x in col]
    e = min((x.as_tuple().exponent for x in col if x), default=0)
    assert isinstance(e, int)
    if e >= 0:
        return [p // (10 ** e) for p, _ in pairs], e
    unit = 10 ** -e
    return [p * (unit // q) for p, q in pairs], e


def _shift_left(v: int, k: int, base: int) -> int:
    return v << k if base == 2 else v * 10 ** k


def _scaled_ratio(num: int, den: int, e: int, base: int) -> tuple[int, int]:
    """``num/den * base**e`` as one fraction of integers."""
    if e >= 0:
        return _shift_left(num, e, base), den
    return num, _shift_left(den, -e, base)


class ExactSums:
    """Count, per-column units ``base**E``, references ``K`` and the exact
    shifted sums ``S1``, ``S2`` (upper triangle, row by row) of a block of rows.

    >>> s = ExactSums.from_columns([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]], 2)
    >>> s.n, s.d
    (3, 2)
    >>> from purepca.numeric import FLOAT
    >>> s.covariance(FLOAT, 1, True)
    [[1.0, 2.5], [2.5, 6.333333333333333]]
    """

    __slots__ = ("n", "base", "exps", "refs", "s1", "s2")

    def __init__(self, n: int, base: int, exps: List[int], refs: List[int], s1: List[int], s2: List[List[int]]) -> None:
        self.n = n
        self.base = base
        self.exps = exps
        self.refs = refs
        self.s1 = s1
        self.s2 = s2  # s2[i][k] is S2[i][i + k]

    @property
    def d(self) -> int:
        """The number of columns.

        >>> ExactSums.from_columns([[1.0], [2.0], [3.0]], 2).d
        3
        """
        return len(self.exps)

    @classmethod
    def from_columns(cls, cols: Sequence[Sequence[Any]], base: int) -> "ExactSums":
        """The exact sums of a block given as columns (floats for ``base`` 2,
        decimals for ``base`` 10).

        >>> s = ExactSums.from_columns([[1.5, 2.5]], 2)
        >>> s.exps, s.refs, s.s1, s.s2
        ([-1], [3], [2], [[4]])
        """
        convert = float_column_ints if base == 2 else decimal_column_ints
        exps: List[int] = []
        refs: List[int] = []
        shifted: List[List[int]] = []
        for col in cols:
            X, e = convert(col)
            k = X[0]
            exps.append(e)
            refs.append(k)
            shifted.append([v - k for v in X] if k else X)
        s1 = [sum(c) for c in shifted]
        s2 = [[_sumprod(ci, shifted[j]) for j in range(i, len(shifted))] for i, ci in enumerate(shifted)]
        return cls(len(cols[0]), base, exps, refs, s1, s2)

    def copy(self) -> "ExactSums":
        """An independent copy (integers are immutable; the lists are new).

        >>> s = ExactSums.from_columns([[1.0]], 2); t = s.copy(); t.s1.append(9); s.s1
        [0]
        """
        return ExactSums(self.n, self.base, list(self.exps), list(self.refs), list(self.s1), [list(r) for r in self.s2])

    def _rescaled(self, exps: Sequence[int]) -> "ExactSums":
        """The same sums in the (smaller or equal) units ``base**exps``."""
        up = [a - b for a, b in zip(self.exps, exps)]
        if not any(up):
            return self
        b = self.base
        refs = [_shift_left(k, u, b) for k, u in zip(self.refs, up)]
        s1 = [_shift_left(s, u, b) for s, u in zip(self.s1, up)]
        s2 = [[_shift_left(v, ui + up[i + k], b) for k, v in enumerate(row)]
              for i, (row, ui) in enumerate(zip(self.s2, up))]
        return ExactSums(self.n, b, list(exps), refs, s1, s2)

    def merge(self, other: "ExactSums") -> "ExactSums":
        """Fold ``other`` into self, exactly; returns self (``other`` is unchanged).

        >>> a = ExactSums.from_columns([[1.0, 2.0]], 2)
        >>> b = ExactSums.from_columns([[0.5]], 2)
        >>> a.merge(b).n, a.exps, a.s1, b.exps
        (3, [-1], [1], [-1])
        """
        if other.n == 0:
            return self
        if self.n == 0:
            copied = other.copy()
            self.n, self.exps, self.refs, self.s1, self.s2 = copied.n, copied.exps, copied.refs, copied.s1, copied.s2
            return self
        exps = [min(a, b) for a, b in zip(self.exps, other.exps)]
        a, b = self._rescaled(exps), other._rescaled(exps)
        nb = b.n
        delta = [kb - ka for ka, kb in zip(a.refs, b.refs)]
        s1b = b.s1
        s1 = [x + y + nb * dl for x, y, dl in zip(a.s1, s1b, delta)]
        s2: List[List[int]] = []
        for i, (ra, rb) in enumerate(zip(a.s2, b.s2)):
            di, si = delta[i], s1b[i]
            if di:
                ndi = nb * di
                row = [x + y + di * s1b[i + k] + si * delta[i + k] + ndi * delta[i + k]
                       for k, (x, y) in enumerate(zip(ra, rb))]
            else:
                row = [x + y + si * delta[i + k] for k, (x, y) in enumerate(zip(ra, rb))]
            s2.append(row)
        self.n, self.exps, self.refs, self.s1, self.s2 = a.n + nb, exps, list(a.refs), s1, s2
        return self

    # ------------------------------------------------------------ rounding out

    def _round(self, num: int, den: int, e: int, ctx: Context, what: str) -> Scalar:
        """``num/den * base**e`` rounded once into the context."""
        num, den = _scaled_ratio(num, den, e, self.base)
        if ctx.name == "float":
            try:
                return num / den  # int / int: correctly rounded (round-half-even)
            except OverflowError:
                raise PurePCAError(f"{what} is beyond the float range; use precision=N or rescale the data") from None
        with ctx.local():
            return Decimal(num) / Decimal(den)

    def mean(self, ctx: Context) -> List[Scalar]:
        """The column means, each the exact mean rounded once.

        >>> from purepca.numeric import FLOAT, DecimalContext
        >>> s = ExactSums.from_columns([[0.1, 0.2]], 2)
        >>> s.mean(FLOAT), str(s.mean(DecimalContext(20))[0])
        ([0.15000000000000002], '0.15000000000000000833')
        """
        n = self.n
        return [self._round(k * n + s, n, e, ctx, f"the mean of column {j}")
                for j, (k, s, e) in enumerate(zip(self.refs, self.s1, self.exps))]

    def mean_lo(self, ctx: Context, hi: Sequence[Scalar]) -> List[Scalar]:
        """What the rounded means ``hi`` left out, ``mean - hi``, itself rounded once.

        >>> from purepca.numeric import FLOAT
        >>> s = ExactSums.from_columns([[0.1, 0.2]], 2)
        >>> hi = s.mean(FLOAT); lo = s.mean_lo(FLOAT, hi)
        >>> from fractions import Fraction
        >>> abs(Fraction(hi[0]) + Fraction(lo[0]) - (Fraction(0.1) + Fraction(0.2)) / 2) < Fraction(1, 10**32)
        True
        """
        n, out = self.n, []
        for j, (k, s, e, h) in enumerate(zip(self.refs, self.s1, self.exps, hi)):
            num, den = _scaled_ratio(k * n + s, n, e, self.base)
            q = Fraction(h) if isinstance(h, float) else Fraction(str(h))
            rest = Fraction(num, den) - q
            out.append(self._round(rest.numerator, rest.denominator, 0, ctx, f"the mean of column {j}"))
        return out

    def covariance(self, ctx: Context, ddof: Any, center: bool) -> List[List[Scalar]]:
        """``Σ(x-x̄)(x-x̄)ᵀ/(n - ddof)`` (or ``Σxxᵀ/(n - ddof)`` without centring), each entry rounded once.

        >>> from purepca.numeric import FLOAT
        >>> ExactSums.from_columns([[1.0, 2.0, 4.0]], 2).covariance(FLOAT, 1, True)
        [[2.3333333333333335]]
        """
        n, s1, refs, exps = self.n, self.s1, self.refs, self.exps
        q = Fraction(ddof)
        # 1/(n - ddof) = q.den / (n·q.den - q.num)
        dd = n * q.denominator - q.numerator
        d = self.d
        C: List[List[Scalar]] = [[ctx.zero] * d for _ in range(d)]
        for i, row in enumerate(self.s2):
            for k, v in enumerate(row):
                j = i + k
                if center:
                    num, den = (n * v - s1[i] * s1[j]) * q.denominator, n * dd
                else:
                    num, den = (v + refs[i] * s1[j] + s1[i] * refs[j] + n * refs[i] * refs[j]) * q.denominator, dd
                what = f"the variance of column {i}" if i == j else f"the covariance of columns {i} and {j}"
                C[i][j] = C[j][i] = self._round(num, den, exps[i] + exps[j], ctx, what)
        return C
