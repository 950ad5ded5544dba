"""The two certifications of a corpus case: exact inertia bisection, and Jacobi at many digits.

=======================================  ====================================================
``scaled_integers(text_rows)``           the data as integers times one power of ten, exactly
``moment_matrix(X)``                     ``M = n·ΣxxᵀX - ΣxΣxᵀ``: n·(n - 1) times the covariance
``below(M, p, q, scaled)``               how many eigenvalues are ``< p/q`` (exact, Sylvester)
``enclose(M, i, digits, scaled)``        an interval holding the ``i``-th largest eigenvalue
``exact_rank(M)``                        the rank of an integer matrix (fraction-free elimination)
=======================================  ====================================================

The certified problem is the decimal numbers of the CSV file, not their
nearest floats.  Scaled by a common power of ten they are integers, and the
covariance is ``M / (n·(n - ddof)·10^2k)`` with ``M`` an integer matrix, so
the question "how many eigenvalues lie below ``s = p/q``" is the inertia of
the integer matrix ``q·M - p·n·(n - ddof)·10^2k·I`` (Sylvester's law of
inertia), read from the signs of its leading principal minors, which the
fraction-free elimination of Bareiss (1968) computes exactly.  Bisection on
that count encloses each eigenvalue in an interval as narrow as asked: a
rigorous enclosure, with no rounding anywhere.  For a correlation PCA the
count is of ``M - s·diag(M)``: congruent to ``R - s·I`` through
``diag(M)^(-1/2)``, so it has the same inertia, and stays rational.

>>> X, power = scaled_integers([["1", "2"], ["2", "3.5"], ["4", "4"]])
>>> X, power
([[10, 20], [20, 35], [40, 40]], 1)
>>> M = moment_matrix(X)
>>> lo, hi = enclose(M, 0, 30)
>>> from fractions import Fraction
>>> top = Fraction(lo + hi, 2) / (3 * 2 * 10 ** (2 * power))   # the covariance under divisor n - 1
>>> round(float(top), 12)
3.256742014672
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

__all__ = ["below", "enclose", "exact_rank", "moment_matrix", "scaled_integers"]


def _decimals(text: str) -> int:
    """How many digits a decimal numeral has after its point, exponent included."""
    mantissa, _, exponent = text.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return places - (int(exponent) if exponent else 0)


def scaled_integers(text_rows: Sequence[Sequence[str]]) -> tuple[list[list[int]], int]:
    """``(X, k)``: the decimal text rows as integers, ``X[i][j] = value·10^k`` exactly.

    >>> scaled_integers([["1.5", "-2e-3"]])
    ([[1500, -2]], 3)
    """
    k = max(0, max(_decimals(v) for row in text_rows for v in row))
    return [[int(Fraction(v) * 10 ** k) for v in row] for row in text_rows], k


def moment_matrix(X: Sequence[Sequence[int]]) -> list[list[int]]:
    """``n·Σ x_i x_j - Σ x_i · Σ x_j`` for every pair of columns: exact, and n² times the
    centred sums of products (so the covariance is ``M / (n·(n - ddof))``).

    >>> moment_matrix([[1, 2], [3, 2]])
    [[4, 0], [0, 0]]
    """
    n, d = len(X), len(X[0])
    cols = [[row[j] for row in X] for j in range(d)]
    sums = [sum(c) for c in cols]
    return [[n * sum(a * b for a, b in zip(cols[i], cols[j])) - sums[i] * sums[j] for j in range(d)]
            for i in range(d)]


def _leading_minor_signs(A: list[list[int]]) -> Optional[list[int]]:
    """The signs of the leading principal minors of an integer matrix (Bareiss); None if one is 0."""
    d = len(A)
    a = [row[:] for row in A]
    signs = []
    prev = 1
    for k in range(d):
        pivot = a[k][k]
        if pivot == 0:
            return None
        signs.append(1 if pivot > 0 else -1)
        for i in range(k + 1, d):
            ai = a[i]
            aik = ai[k]
            ak = a[k]
            for j in range(k + 1, d):
                ai[j] = (pivot * ai[j] - aik * ak[j]) // prev
        prev = pivot
    return signs


def below(M: Sequence[Sequence[int]], p: int, q: int, scaled: bool = False) -> Optional[int]:
    """How many eigenvalues of ``M`` (or of ``M`` against ``diag(M)``, scaled) are below ``p/q``
    (``q > 0``); None when a leading minor of the shifted matrix is exactly zero (shift again).

    >>> below([[2, 0], [0, 5]], 3, 1), below([[2, 0], [0, 5]], 6, 1)
    (1, 2)
    """
    d = len(M)
    A = [[q * M[i][j] - (p * (M[i][i] if scaled else 1) if i == j else 0) for j in range(d)] for i in range(d)]
    signs = _leading_minor_signs(A)
    if signs is None:
        return None
    changes = 0
    last = 1
    for s in signs:
        if s != last:
            changes += 1
        last = s
    return changes


def _count(M: Sequence[Sequence[int]], s: Fraction, scaled: bool) -> tuple[int, Fraction]:
    """``below`` at ``s``, nudged up by a relative 2^-200 until no leading minor vanishes."""
    while True:
        c = below(M, s.numerator, s.denominator, scaled)
        if c is not None:
            return c, s
        s = s + (s if s else Fraction(1)) / 2 ** 200


def _round_dyadic(x: Fraction, bits: int = 160) -> Fraction:
    """``x`` rounded to ``bits`` significant bits (short numbers keep the counts fast)."""
    if x == 0:
        return x
    e = x.numerator.bit_length() - x.denominator.bit_length() - bits
    return Fraction(round(x / Fraction(2) ** e)) * Fraction(2) ** e


def exact_rank(M: Sequence[Sequence[int]]) -> int:
    """The rank of an integer matrix, by fraction-free elimination with pivoting (exact).

    >>> exact_rank([[1, 2], [2, 4]])
    1
    """
    a = [list(row) for row in M]
    rows, cols = len(a), len(a[0])
    rank = 0
    prev = 1
    for c in range(cols):
        pivot_row = next((r for r in range(rank, rows) if a[r][c] != 0), None)
        if pivot_row is None:
            continue
        a[rank], a[pivot_row] = a[pivot_row], a[rank]
        pivot = a[rank][c]
        for r in range(rank + 1, rows):
            arc = a[r][c]
            for j in range(c, cols):
                a[r][j] = (pivot * a[r][j] - arc * a[rank][j]) // prev
        prev = pivot
        rank += 1
    return rank


def enclose(M: Sequence[Sequence[int]], i: int, digits: int, scaled: bool = False) -> tuple[Fraction, Fraction]:
    """``(lo, hi)`` holding the ``i``-th largest eigenvalue of ``M`` (of ``M`` against ``diag(M)``
    if scaled), ``hi - lo <= 10^-digits·hi``, for a positive semidefinite ``M`` whose ``i``-th
    eigenvalue is positive.  Geometric bisection while the interval spans more than a factor of
    two, then plain bisection; every count is exact.

    >>> lo, hi = enclose([[2, 1], [1, 2]], 1, 20)
    >>> lo <= 1 <= hi and hi - lo <= hi / 10 ** 20
    True
    """
    d = len(M)
    want = d - 1 - i  # λ_i >= s  iff  fewer than d - i eigenvalues lie below s

    def at_most(s: Fraction) -> tuple[bool, Fraction]:
        c, used = _count(M, s, scaled)  # the point counted at (nudged off a vanishing minor)
        return c <= want, used

    top = max(sum(abs(v) for v in row) for row in M)  # Gershgorin: every eigenvalue is at most this
    hi = Fraction(d + 1 if scaled else top + 1)
    lo = hi / 2
    while True:  # shrink until the eigenvalue is above
        ok, lo = at_most(lo)
        if ok:
            break
        hi = lo
        lo = lo / 2 ** 8
    while hi / lo > 2:
        mid = _round_dyadic(Fraction(2) ** ((lo.numerator.bit_length() - lo.denominator.bit_length()
                                              + hi.numerator.bit_length() - hi.denominator.bit_length()) // 2))
        if not lo < mid < hi:
            mid = _round_dyadic((lo + hi) / 2)
        ok, used = at_most(mid)
        if ok:
            lo = used
        else:
            hi = used
    width = hi / 10 ** digits
    while hi - lo > width:
        mid = _round_dyadic((lo + hi) / 2, 40 + 4 * digits)
        if not lo < mid < hi:
            mid = (lo + hi) / 2
        ok, used = at_most(mid)
        if ok:
            lo = used
        else:
            hi = used
    return lo, hi
