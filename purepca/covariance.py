"""Means, centring, scaling, covariance and correlation, in one pass or many.

=================================  ==========================================
``column_means(X)``                means of the columns
``center(X)``                      ``X`` minus its column means (a new matrix)
``column_std(X, ddof)``            standard deviations, divisor ``n - ddof``
``standardize(X, ddof)``           centred and divided by the standard deviation
``covariance_matrix(X, ddof)``     d x d covariance, divisor ``n - ddof``
``correlation_matrix(X)``          d x d correlation
=================================  ==========================================

How the covariance is computed, and why.  The one-pass textbook formula
``(XᵀX - n·μμᵀ)/(n-1)`` subtracts two large numbers when the mean is large
compared with the spread and can lose every digit (at an offset of 1e9 with
unit spread, ``x²`` is 1e18 and its rounding error 100).  Here:

1. each column mean is a sum divided by n, ``hi`` (``math.fsum``, exactly
   rounded; on Python 3.12+ ``math.sumprod``, in triple length), with the
   residual ``Σx - n·hi`` summed exactly into a correction ``lo``: ``hi + lo``
   is the mean to about twice the working precision;
2. each column is centred, ``c = x - hi``;
3. ``S_ij = Σ c_i·c_j - (Σ c_i)(Σ c_j)/n`` with compensated sums.

The second term of step 3 is the *corrected two-pass* algorithm (Chan, Golub
and LeVeque, "Algorithms for computing the sample variance", 1983): the
rounded mean is off by up to half an ulp of the offset, which would add
``n·δ²`` to every sum of squares; the correction removes it exactly to first
order.  Columns whose centred values are near overflow or underflow are
scaled by a power of two before squaring and unscaled after.

>>> covariance_matrix([[1, 2], [2, 4], [3, 7]])
[[1.0, 2.5], [2.5, 6.333333333333333]]
>>> big = [[1e12 + x, 1e12 - x] for x in (1, 2, 3)]
>>> covariance_matrix(big)
[[1.0, -1.0], [-1.0, 1.0]]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from .errors import PurePCAError
from .linalg.matrix import as_matrix, as_vector
from .numeric import _PYPY, _SUMPROD, FLOAT, Context, DeviationColumns, FloatContext, Scalar, check_context, first_non_finite

__all__ = [
    "center",
    "column_means",
    "column_std",
    "column_variances",
    "correlation_matrix",
    "covariance_matrix",
    "standardize",
]

Number = Union[int, float]


def _divisor(n: int, ddof: Number, ctx: Context) -> Scalar:
    if isinstance(ddof, bool) or not isinstance(ddof, (int, float)) or ddof != ddof or ddof < 0:
        raise PurePCAError(f"ddof must be a non-negative number, got {ddof!r}")
    if n - ddof <= 0:
        raise PurePCAError(f"ddof={ddof} needs more than {ddof} rows (the divisor is n - ddof), got n = {n}")
    return ctx.convert(n) - ctx.convert(ddof)


@dataclass
class Centred:
    """Columns centred about their rounded means, with what that rounding left.

    ``hi[j]`` is the rounded mean the column was centred about and ``lo[j]``
    the mean of what remained, ``Σ(x - hi)/n``: the rounding error of ``hi``,
    so that ``hi + lo`` is the mean to about twice the working precision.
    ``cols[j]`` holds ``x - hi[j]`` scaled by ``2**-exps[j]`` (a power of two
    chosen so that squares neither overflow nor underflow) and ``sums[j]``
    its sum, in the same scale.
    """

    hi: list[Scalar]
    lo: list[Scalar]
    cols: list[list[Scalar]]
    sums: list[Scalar]
    exps: list[int]
    #: The largest ``|x - hi|`` of each column in its scaled units, or a bound on it known to lie in
    #: ``[SMALL, BIG]`` with the largest itself (so that either gives the same scale exponent); None
    #: when not measured.
    spreads: Optional[list[Scalar]] = None

    @property
    def means(self) -> list[Scalar]:
        """The means rounded once: ``hi + lo``."""
        return [h + l for h, l in zip(self.hi, self.lo)]


def _constant(col: Sequence[Scalar]) -> bool:
    """Whether every value of the (non-empty) column equals the first; two probes rule out almost
    every varying column before the full count.

    >>> _constant([2.0, 2.0, 2.0]), _constant([2.0, 3.0, 2.0])
    (True, False)
    """
    first = col[0]
    return col[-1] == first and col[len(col) // 2] == first and col.count(first) == len(col)


def _column_mean(col: Sequence[Scalar], n: Scalar, ctx: Context) -> Scalar:
    """``fsum(col)/n``; where the sum overflows (values near the largest
    float), the sum of the values scaled down by a power of two, exactly."""
    if _constant(col):
        # A constant column: its mean is that value, exactly (fsum(col)/n
        # may be an ulp away, which would leave a false spread of one ulp).
        return col[0]
    try:
        return ctx.sum(col) / n
    except OverflowError:
        k = len(col).bit_length() + 1
        return ctx.ldexp(ctx.sum(ctx.ldexp(x, -k) for x in col) / n, k)


def _mean_correction(col: Sequence[Scalar], m: Scalar, s: Scalar, e: int, n: Scalar, ctx: Context) -> Scalar:
    """``lo`` of the mean ``hi + lo``: ``(Σx - n·hi)/n`` with the residual summed
    exactly and rounded once, so that ``hi + lo`` is the mean to about twice the
    working precision.  (The sum of the rounded deviations ``s`` would carry
    their rounding, up to ``eps·max|x - hi|``, into ``lo``.)  Where the values
    are near the ends of the range (``e != 0``) or the exact residual's partial
    sums overflow, ``s`` is used."""
    if not e:
        if ctx.needs_scaling and len(col) < 2 ** 26 and (m == 0.0 or _TINY < abs(m) < _HUGE):
            # n·m exactly as p + q: the same exact residual, rounded once, from n + 2 terms instead of 2n.
            p, q = _times_n(m, float(len(col)))
            try:
                return ctx.sum(itertools.chain(col, (-p, -q))) / n
            except OverflowError:
                pass
        else:
            try:
                return ctx.sum(itertools.chain(col, itertools.repeat(-m, len(col)))) / n
            except OverflowError:
                pass
    return ctx.ldexp(s, e) / n


_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves of 26 bits


def _times_n(m: float, nf: float) -> tuple[float, float]:
    """``nf·m`` exactly as ``p + q`` (Dekker's TwoProduct, with ``nf < 2**26`` a half-width float and
    ``m`` split in two halves; ``m`` zero or within ``[2**-900, 2**900]``, far from overflow and
    underflow).

    >>> _times_n(0.1, 3.0), 3 * 0.1
    ((0.30000000000000004, -2.7755575615628914e-17), 0.30000000000000004)
    """
    p = nf * m
    t = _SPLIT * m
    mh = t - (t - m)
    ml = m - mh
    return p, ((nf * mh - p) + nf * ml)


_TINY, _HUGE = 2.0 ** -900, 2.0 ** 900


def _largest(values: Sequence[float]) -> float:
    """``max(map(abs, values))`` of floats, from the two ends (no ``abs`` call per value).

    >>> _largest([1.0, -3.0, 2.0])
    3.0
    """
    return max(max(values), -min(values))


def _centred_columns(cols: Sequence[Sequence[Scalar]], ctx: Context, lazy: bool = False) -> Centred:
    """Centre each column about ``hi`` (``fsum``/n; on Python 3.12+ ``sumprod``/n,
    :func:`_centre_by_sumprod`), with ``lo`` the exactly rounded correction (``hi + lo`` the mean
    to about twice the working precision), scaled by a power of two where its spread is near
    overflow or underflow.  With ``lazy`` (a fit that forms the Gram of the columns) no deviation
    is made where it need not be (:class:`~purepca.numeric.DeviationColumns`): on CPython 3.12+
    none, where :func:`_extended_centring` proves its Gram; on PyPy (whose ``cols`` are the fit's
    own copy of the data) those of the columns that need no scaling, made only when read."""
    if lazy and not _PYPY and ctx is FLOAT:
        extended = _extended_centring(cols)
        if extended is not None:
            return extended
    n = ctx.convert(len(cols[0]))
    hi: list[Scalar] = []
    lo: list[Scalar] = []
    centred: list[list[Scalar]] = []
    sums: list[Scalar] = []
    exps: list[int] = []
    spreads: list[Scalar] = []
    quick = _SUMPROD is not None and isinstance(ctx, FloatContext) and len(cols[0]) > 1
    fused = _PYPY and isinstance(ctx, FloatContext)
    made: list[Optional[list[Scalar]]] = []
    for col in cols:
        got = _centre_by_sumprod(col, n, ctx) if quick else None
        m, c, spread, s, low, e = got + (0,) if got is not None else _centre_column(col, n, ctx, quick, fused)
        hi.append(m)
        lo.append(low)
        made.append(c)
        sums.append(s)
        exps.append(e)
        spreads.append(spread if ctx.needs_scaling and not e else ctx.zero)
    if lazy and not any(exps) and any(c is None for c in made):
        # Read as a list of columns (numeric.DeviationColumns), the Gram from the raw ones.
        lazily: Any = DeviationColumns(cols, hi, made)
        return Centred(hi, lo, lazily, sums, exps, spreads)
    for j, c in enumerate(made):
        if c is None:
            m = hi[j]
            c = [x - m for x in cols[j]]
        centred.append(c)
    if not ctx.needs_scaling or any(exps):
        return Centred(hi, lo, centred, sums, exps)
    return Centred(hi, lo, centred, sums, exps, spreads)


def _centre_column(col: Sequence[Scalar], n: Scalar, ctx: Context, quick: bool, fused: bool
                   ) -> tuple[Scalar, Optional[list[Scalar]], Scalar, Scalar, Scalar, int]:
    """One column centred the general way: ``(hi, c, spread, Σc, lo, e)``, the deviations ``c``
    scaled by ``2**-e`` (None: not made, PyPy's fused loop: :func:`_deviation_sums`)."""
    m = _column_mean(col, n, ctx)
    c: Optional[list[Scalar]] = None
    if fused:  # the deviations' sums and squares without the deviations (made below if needed)
        s, low, squares = _deviation_sums(col, m)
    else:
        c = [x - m for x in col]
    e = 0
    spread: Scalar = ctx.zero
    if ctx.needs_scaling:
        if c is None:  # the squares summed while centring (no max and min passes to compile and run)
            spread = _spread_of_squares(squares, len(col)) if len(col) > 1 else 0.0
        else:
            spread = _safe_spread(c) if quick else 0.0
        if not spread:
            if c is None:
                c = [x - m for x in col]
            spread = _largest(c)
        if spread == math.inf:
            # The differences themselves overflow (a spread beyond the
            # float range): take them from the rows scaled by 1/4, exactly.
            m4 = ctx.ldexp(m, -2)
            c = [ctx.ldexp(x, -2) - m4 for x in col]
            e = 2
            spread = _largest(c)
        e2 = ctx.scale_exponent(spread)
        if e2:
            if c is None:
                c = [x - m for x in col]
            c = [ctx.ldexp(x, -e2) for x in c]
        e += e2
    if not fused or e or not low - low == 0.0:
        if c is None:
            c = [x - m for x in col]
        s = ctx.sum(c)
        low = _mean_correction(col, m, s, e, n, ctx)
    else:
        low = low / n
    return m, c, spread, s, low, e


def _centre_by_sumprod(col: Sequence[float], n: float, ctx: Context) -> Optional[tuple[float, list[float], float, float, float]]:
    """One column centred with two ``math.sumprod`` passes in place of two ``fsum`` passes (Python
    3.12+; 110 µs each at n = 10,000, a sumprod about 70): ``(hi, c, spread, Σc, lo)``, or None
    where the column is constant or not proven inside the range below (then the general path
    answers).

    * ``hi = sumprod(col, ones)/n``.  ``math.sumprod`` sums in triple length (CPython's
      ``tl_fma``): within ``u·|s| + 3n³u³·Σ|x|`` of the exact sum ``s`` (derived and tested in
      tests/test_sumprod_accuracy.py), where ``fsum`` rounds it exactly: the two may differ by an
      ulp, and by more where the values cancel to far below their size.  Any ``hi`` near the
      mean serves as the centre, because ``lo`` is the exact correction of whichever it is:
    * ``lo`` as on the general path (:func:`_mean_correction`): the residual ``Σx - n·hi``
      summed exactly by ``fsum`` and rounded once, so ``hi + lo`` is the mean to about twice the
      working precision, as before (``mean_`` keeps its bits).
    * ``Σc = sumprod(c, ones)``, within ``u·|Σc| + 3n³u³·Σ|c|``: it only corrects the cross
      products (``Σc_i·Σc_j/n``, a term of size ``n·u²`` of the spread); the spread by
      :func:`_safe_spread`.

    The sumprod guarantee needs every partial sum finite and no Dekker split beyond about
    ``2**996`` (the test module's note).  The answer is kept only where that is proven afterwards:
    ``|hi|`` below ``2**900`` and the spread proven below ``BIG`` (about 1e143), so every
    ``|x| < 2**901`` and every partial sum is below ``n·2**901``.  Outside (data near the ends of
    the range) the column goes the general way.

    >>> got = _centre_by_sumprod([1.0, 2.0, 6.0], 3.0, FLOAT)
    >>> got == ((3.0, [-2.0, -1.0, 3.0], math.sqrt(14.0), 0.0, 0.0) if _SUMPROD else None)
    True
    >>> _centre_by_sumprod([5.0, 5.0], 2.0, FLOAT), _centre_by_sumprod([1e300, -1e300], 2.0, FLOAT)
    (None, None)
    """
    sp = _SUMPROD
    if sp is None:
        return None
    if _constant(col):
        return None  # _column_mean gives the value itself, exactly
    k = len(col)
    m = float(sp(col, itertools.repeat(1.0, k)) / n)
    if not abs(m) < _HUGE:
        return None
    c = [x - m for x in col]
    spread = _safe_spread(c)
    if not spread:
        return None
    s = sp(c, itertools.repeat(1.0, k))
    return m, c, spread, s, _mean_correction(col, m, s, 0, n, ctx)


_U = 2.0 ** -53
_HALF_RANGE = 2.0 ** 440  # |hi| below it: n·hi² far from overflow
_MARGIN = 1.0 + 2.0 ** -40  # above the relative rounding of a bound on Q from three computed terms


def _extended_centring(cols: Sequence[Sequence[float]]) -> Optional[Centred]:
    """The columns centred with no deviation made (Python 3.12+, the fit of a PCA): the Gram of the
    deviations ``c = x - hi`` is taken from the raw columns, each extended by four terms
    (:func:`_extended_column`), where its error is proven small enough; None where it is not for
    some column (then every column is centred the usual way).  At 10,000 x 50 this replaces
    500,000 new floats and two passes over columns whose values lie a row apart in memory by
    passes over the fit's own contiguous copy.  ``hi``, ``lo`` and so ``mean_`` are those of the
    other paths; ``sums`` the residuals ``Σx - n·hi`` rounded once.

    >>> c = _extended_centring([[1.0, 2.0, 6.0], [0.5, -0.5, 3.0]])
    >>> (c.hi, c.lo, c.sums, c.cols.extended[2]) if _SUMPROD else ([3.0, 1.0], [0.0, 0.0], [0.0, 0.0], [14.0, 6.5])
    ([3.0, 1.0], [0.0, 0.0], [0.0, 0.0], [14.0, 6.5])
    >>> list(c.cols) if _SUMPROD else [[-2.0, -1.0, 3.0], [-0.5, -1.5, 2.0]]
    [[-2.0, -1.0, 3.0], [-0.5, -1.5, 2.0]]
    """
    n = len(cols[0])
    if _SUMPROD is None or not 1 < n < 2 ** 26:
        return None
    g = (n + 4) * _U / (1 - (n + 4) * _U)
    k = 4.0 * (2.01 * g * g / _U + 4.0 * _U)
    got = []
    for col in cols:
        one = _extended_column(col, float(n), k)
        if one is None:
            return None
        got.append(one)
    hi, sums, lefts, rights, diagonal = (list(part) for part in zip(*got))
    devs: Any = DeviationColumns(cols, hi, None, (lefts, rights, diagonal))
    return Centred(hi, [r / n for r in sums], devs, sums, [0] * len(cols), [math.sqrt(v) for v in diagonal])


def _extended_column(col: Sequence[float], nf: float, k: float
                     ) -> Optional[tuple[float, float, list[float], list[float], float]]:
    """One column for :func:`_extended_centring`: ``(hi, r, left, right, G_jj)``, or None.

    With ``hi`` the mean by ``sumprod`` (:func:`_centre_by_sumprod`), ``n·hi = p + q`` exactly
    (:func:`_times_n`) and ``r = fsum(x, -p, -q)`` the residual ``R = Σx - n·hi`` rounded once (so
    ``lo = r/n``, as on the other paths), exact algebra gives::

        Σ(x_i - hi_i)(x_j - hi_j) = Σx_i·x_j - hi_i·(p_j + q_j + R_j) - hi_j·R_i

    so ``sumprod(left_i, right_j)``, with ``left = x + [hi, hi, hi, r]`` and ``right = x + [-p, -q,
    -r, -hi]``, is that entry to within

    * ``u·|G_ij| + γ²·Σ|terms|`` (sumprod is at least Dot2, tests/test_sumprod_accuracy.py; N = n + 4
      terms, ``γ = N·u/(1 - N·u)``), where ``Σ|terms| <= 2.01·sqrt(Q_i·Q_j)`` by Cauchy-Schwarz,
      with ``Q = Σx²`` (``n·|hi_i·hi_j| <= sqrt(Q_i·Q_j)`` to rounding, as ``Q >= n·mean²``);
    * ``|hi_i·(r_j - R_j)| + |hi_j·(r_i - R_i)| <= 4u²·sqrt(Q_i·Q_j)`` (``|R| <= 2n·u·|hi|``, the
      rounding of a mean).

    A column is kept only where ``k·Q <= G_jj``, ``k = 4·(2.01·γ²/u + 4u)`` (``G_jj`` its computed
    diagonal): then every entry is within ``u·|G_ij| + (u/4)·‖c_i‖·‖c_j‖``, the class of the other
    fast Grams (numeric.GramWork), below what the eigensolver adds.  ``Q`` is bounded without a
    pass of its own: ``Σx² = G_jj + 2·hi·R + n·hi²`` exactly, and the computed ``G_jj`` is within
    ``u·G_jj + 2.01·γ²·Q`` of its value (``γ² <= 2**-54`` for n < 2**26), so ``Q <= (G_jj +
    2|hi·r| + n·hi²)·(1 + 2**-40)``.  At n = 10,000 that admits means up to about 3,000 standard
    deviations from zero; data further out (the offset tests at 1e12) are centred the usual way.
    Range: the guarantee holds while no partial sum overflows (the squares come first and only
    grow: an overflow leaves ``G_jj`` infinite, and the column goes the usual way) and ``|x| <
    2**996`` (a larger one's square is infinite); with ``|hi| < 2**440`` and ``G_jj`` proven in
    ``[n·SMALL², BIG²]`` every ``|x| < 2**476``, so no scaling is needed, and squares that underflow
    add less than ``n·2**-1074``, far below ``u·G_jj``.  A constant column goes the usual way (its
    mean is the value itself, exactly).

    >>> _extended_column([1.0, 2.0, 6.0], 3.0, 1e-15)[1:] if _SUMPROD else (0.0, [1.0, 2.0, 6.0, 3.0, 3.0, 3.0, 0.0], [1.0, 2.0, 6.0, -9.0, -0.0, -0.0, -3.0], 14.0)
    (0.0, [1.0, 2.0, 6.0, 3.0, 3.0, 3.0, 0.0], [1.0, 2.0, 6.0, -9.0, -0.0, -0.0, -3.0], 14.0)
    """
    sp = _SUMPROD
    n = len(col)
    if _constant(col):
        return None
    m = float(sp(col, itertools.repeat(1.0, n)) / nf)
    if not (m == 0.0 or _TINY < abs(m) < _HALF_RANGE):
        return None
    p, q = _times_n(m, nf)
    right = list(col)
    right += (-p, -q)
    r = math.fsum(right)
    right += (-r, -m)
    left = list(col)
    left += (m, m, m, r)
    gjj = sp(left, right)
    if not _SAFE_LOW * nf <= gjj <= _SAFE_HIGH:  # (NaN, inf, an overflow on the way: no)
        return None
    # Q = Σx² = G + 2·hi·R + n·hi² exactly: bounded from what is at hand (no pass of its own).
    squares = (gjj + 2.0 * abs(m * r) + nf * m * m) * _MARGIN
    if not k * squares <= gjj:
        return None
    return m, r, left, right, gjj


def _centre_compensated(col: Sequence[float], m: float) -> tuple[list[float], float, float]:
    """``[x - m for x in col]``, its sum and ``Σ(x - m)`` unrounded, in one loop that PyPy's JIT
    compiles (three ``fsum`` passes cost seven times as much there).

    Each ``x - m`` is split exactly into its rounding ``d`` and error (Knuth's TwoSum), so
    ``Σ(x - m) = Σd + Σerror`` exactly; the ``d`` are summed by Ogita, Rump and Oishi's Sum2 and
    the errors (each below ``u·|d|``) plainly.  Both sums are within ``u`` of their value plus
    ``γ²_n·Σ|d|``: ``Σ(x - m)/n``, the mean's correction ``lo``, carries no more than ``n²u²``
    of the spread, far below what a double can hold of a mean at any offset (``fsum``, on the
    other interpreters, rounds it exactly; the bits of ``lo`` may differ, not its use).  Not
    finite (an overflow): the caller takes the general path.

    >>> _centre_compensated([1.0, 2.0, 4.0], 2.0)
    ([-1.0, 0.0, 2.0], 1.0, 1.0)
    """
    s, low, _ = _deviation_sums(col, m)
    return [x - m for x in col], s, low


def _deviation_sums(col: Sequence[float], m: float) -> tuple[float, float, float]:
    """:func:`_centre_compensated`'s sums without the deviations (``x - m``, made where they are
    read: numeric.DeviationColumns), and the sum of their squares, plainly (for
    :func:`_spread_of_squares`: within ``γ_n`` of its exact value, relatively, squares that
    underflow aside).

    >>> _deviation_sums([1.0, 2.0, 4.0], 2.0)
    (1.0, 1.0, 5.0)
    """
    s = 0.0
    cs = 0.0
    r = 0.0
    q = 0.0
    for x in col:
        d = x - m
        z = d - x
        r += (x - (d - z)) + (-m - z)
        t = s + d
        z = t - s
        cs += (s - (t - z)) + (d - z)
        s = t
        q += d * d
    return s + cs, s + (cs + r), q


# sqrt(ss/n) >= SMALL and sqrt(ss) <= BIG, with room for ss's own rounding (a relative eps).
_SAFE_LOW = 2.0 * FloatContext.SMALL ** 2
_SAFE_HIGH = 0.5 * FloatContext.BIG ** 2


def _safe_spread(c: list[float]) -> float:
    """``sqrt(Σc²)`` when that proves the largest ``|c|`` in ``[SMALL, BIG]`` (it lies between
    ``sqrt(Σc²/n)`` and ``sqrt(Σc²)``), else 0 (then the largest itself must be found).  One
    ``math.sumprod`` pass (Python 3.12+), about a third of the cost of ``max`` and ``min``.

    >>> _safe_spread([3.0, -4.0]) == (5.0 if _SUMPROD else 0.0), _safe_spread([1e-200, 0.0]), _safe_spread([1e200, 1.0])
    (True, 0.0, 0.0)
    """
    if _SUMPROD is None:
        return 0.0
    return _spread_of_squares(_SUMPROD(c, c), len(c))


def _spread_of_squares(ss: float, n: int) -> float:
    """``sqrt(ss)`` when ``ss``, the sum of the squares of n numbers, proves the largest of them in
    ``[SMALL, BIG]``, else 0.  The factors 2 in the limits leave room for a relative error up to
    1/2 in ``ss`` (sumprod's is ``eps``; a plain sum's ``γ_n``), and squares that underflow add
    less than ``n·2**-1074``, far below ``SMALL²·n``: the largest is at least
    ``sqrt(ss_exact/n) >= SMALL`` and at most ``sqrt(ss_exact) <= BIG``.

    >>> _spread_of_squares(25.0, 2), _spread_of_squares(1e-300, 2), _spread_of_squares(math.inf, 2)
    (5.0, 0.0, 0.0)
    """
    if _SAFE_LOW * n <= ss <= _SAFE_HIGH:
        return math.sqrt(ss)
    return 0.0


def _rows_of(c: Centred) -> int:
    """How many rows the centred columns have (without making a deviation column)."""
    cols: Any = c.cols
    return len(cols.raw[0]) if isinstance(cols, DeviationColumns) else len(cols[0])


def _constant_columns(c: Centred) -> int:
    """How many columns are constant (deviations all zero).  A column left to be made when read
    is not: its squares summed to a positive spread."""
    cols: Any = c.cols
    if isinstance(cols, DeviationColumns):
        return sum(1 for col in cols.made if col is not None and not any(col))
    return sum(1 for col in cols if not any(col))


def _cross_products(
    c: Centred, ctx: Context, divisor: Optional[Scalar], gram: Any = None, shift: int = 0
) -> list[list[Scalar]]:
    """``Σ (x - x̄)(x - x̄)ᵀ`` (divided by ``divisor`` when given) from centred
    columns, with the Chan–Golub–LeVeque correction ``- Σc_i·Σc_j/n``.

    The division comes *before* the power-of-two scaling is undone, so a
    covariance that fits in a float never overflows on the way.  ``gram``
    computes the inner products (default ``ctx.gram``; a parallel one may
    be passed).  With ``shift`` the result is divided by ``2**shift`` (exactly).
    """
    n = ctx.convert(_rows_of(c))
    d = len(c.cols)
    sums, exps = c.sums, c.exps
    G = (gram or ctx.gram)(c.cols)
    S = [[ctx.zero] * d for _ in range(d)]
    for i in range(d):
        si, ei = sums[i], exps[i]
        row = S[i]
        for j in range(i, d):
            v = G[i][j] - si * sums[j] / n
            if divisor is not None:
                v = v / divisor
            if ei or exps[j] or shift:
                v = _covariance_back(v, ei + exps[j] - shift, i, j, ctx)
            row[j] = v
            S[j][i] = v
    return S


def _scatter(
    cols: Sequence[Sequence[Scalar]], ctx: Context, divisor: Optional[Scalar] = None
) -> tuple[list[Scalar], list[list[Scalar]]]:
    """Column means and the centred cross-product matrix ``Σ (x - x̄)(x - x̄)ᵀ``
    (divided by ``divisor`` when given)."""
    c = _centred_columns(cols, ctx)
    return c.means, _cross_products(c, ctx, divisor)


def _raw_scatter(cols: Sequence[Sequence[Scalar]], ctx: Context, divisor: Scalar) -> list[list[Scalar]]:
    """``Σ x xᵀ / divisor`` about zero (no centring), with power-of-two scaling."""
    exps = [ctx.scale_exponent(max(map(abs, c))) if ctx.needs_scaling else 0 for c in cols]
    scaled = [[ctx.ldexp(x, -e) for x in c] if e else list(c) for c, e in zip(cols, exps)]
    G = ctx.gram(scaled)
    return [[_covariance_back(g / divisor, ei + ej, i, j, ctx) for j, (g, ej) in enumerate(zip(row, exps))]
            for i, (row, ei) in enumerate(zip(G, exps))]


def _covariance_back(v: Scalar, e: int, i: int, j: int, ctx: Context) -> Scalar:
    """``v·2**e``, the covariance of columns i and j scaled back, or an error naming them."""
    what = f"the variance of column {i}" if i == j else f"the covariance of columns {i} and {j}"
    return _scaled_back(v, e, what, ctx)


def _scaled_back(v: Scalar, e: int, what: str, ctx: Context) -> Scalar:
    """``v·2**e``, or an error naming ``what`` when that is beyond the float range."""
    try:
        return ctx.ldexp(v, e)
    except OverflowError:
        raise PurePCAError(
            f"{what} (about 2**{math.frexp(float(v))[1] + e}) "
            "is beyond the float range; use precision=N (a DecimalContext) or rescale the data"
        ) from None


def column_means(X: Any, *, context: Context = FLOAT) -> list[Scalar]:
    """Column means: a sum over n plus its exactly rounded correction, rounded once (the mean to
    within about half an ulp).

    >>> column_means([[1, 10], [2, 20], [4, 30]])
    [2.3333333333333335, 20.0]
    """
    ctx = check_context(context)
    M = as_matrix(X, context=ctx)
    with ctx.local():
        return _centred_columns(list(zip(*M)), ctx).means


def center(X: Any, means: Optional[Sequence[float]] = None, *, context: Context = FLOAT) -> list[list[Scalar]]:
    """``X`` minus its column means (or the ``means`` given), as a new matrix.

    >>> center([[1, 10], [3, 30]])
    [[-1.0, -10.0], [1.0, 10.0]]
    """
    ctx = check_context(context)
    M = as_matrix(X, context=ctx)
    with ctx.local():
        if means is None:
            mu = _centred_columns(list(zip(*M)), ctx).means
        else:
            mu = as_vector(means, name="means", context=ctx)
            if len(mu) != len(M[0]):
                raise PurePCAError(f"means: {len(mu)} values for {len(M[0])} columns")
        out = [[x - m for x, m in zip(row, mu)] for row in M]
        if ctx.needs_scaling:
            for i, row in enumerate(out):
                j = first_non_finite(row)
                if j is not None:
                    raise PurePCAError(f"X: row {i}, column {j} minus its mean is beyond the float range; rescale the data")
        return out


def column_variances(X: Any, ddof: Number = 1, *, center: bool = True, context: Context = FLOAT) -> list[Scalar]:
    """Variances of the columns, divisor ``n - ddof`` (the diagonal of the
    covariance, in O(n·d) work); about zero with ``center=False``.

    >>> column_variances([[1, 5], [3, 5]])
    [2.0, 0.0]
    >>> column_variances([[1, 5], [3, 5]], center=False)
    [10.0, 50.0]
    """
    ctx = check_context(context)
    with ctx.local():
        return [_covariance_back(v, 2 * e, j, j, ctx)
                for j, (v, e) in enumerate(_scaled_variances(as_matrix(X, context=ctx), ddof, center, ctx))]


def _scaled_variances(M: list[list[Scalar]], ddof: Number, center: bool, ctx: Context) -> list[tuple[Scalar, int]]:
    """Per column of the validated M, ``(v, e)`` with the variance ``v·4**e``:
    scaled by a power of two so that neither the squares nor a standard
    deviation overflow."""
    with ctx.local():
        div = _divisor(len(M), ddof, ctx)
        cols = list(zip(*M))
        n = ctx.convert(len(M))
        if center:
            cc = _centred_columns(cols, ctx)
            centred, sums, exps = cc.cols, cc.sums, cc.exps
        else:
            exps = [ctx.scale_exponent(max(map(abs, c))) if ctx.needs_scaling else 0 for c in cols]
            centred = [[ctx.ldexp(x, -e) for x in c] for c, e in zip(cols, exps)]
            sums = [ctx.zero] * len(cols)
        out = []
        for c, s, e in zip(centred, sums, exps):
            ss = ctx.dot(c, c) - s * s / n
            out.append((ss / div if ss > 0 else ctx.zero, e))
        return out


def column_std(X: Any, ddof: Number = 1, *, center: bool = True, context: Context = FLOAT) -> list[Scalar]:
    """Standard deviations of the columns, divisor ``n - ddof``.

    >>> column_std([[1, 5], [3, 5]])
    [1.4142135623730951, 0.0]
    >>> [round(s / 1e200, 12) for s in column_std([[1e200], [3e200]])]  # squares would overflow
    [1.414213562373]
    """
    return _column_std(as_matrix(X, context=context), ddof, center, context)


def _column_std(M: list[list[Scalar]], ddof: Number, center: bool, ctx: Context) -> list[Scalar]:
    """The worker behind :func:`column_std`, on validated rows."""
    with ctx.local():
        return [_scaled_back(ctx.sqrt(v), e, f"the standard deviation of column {j}", ctx)
                for j, (v, e) in enumerate(_scaled_variances(M, ddof, center, ctx))]


def standardize(X: Any, ddof: Number = 1, *, context: Context = FLOAT) -> list[list[Scalar]]:
    """Centre each column and divide it by its standard deviation (R's ``scale()``).

    A constant column cannot be scaled and is an error, not a division by zero.

    >>> standardize([[1, 2], [3, 6]])
    [[-0.7071067811865475, -0.7071067811865475], [0.7071067811865475, 0.7071067811865475]]
    >>> standardize([[1, 2], [3, 2]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: X: column 1 is constant (standard deviation 0); it cannot be scaled to unit variance
    """
    ctx = check_context(context)
    M = as_matrix(X, context=ctx)
    scaled = _scaled_variances(M, ddof, True, ctx)  # (variance, e): in units of 4**e
    for j, (v, _) in enumerate(scaled):
        if v == 0:
            raise PurePCAError(
                f"X: column {j} is constant (standard deviation 0); it cannot be scaled to unit variance"
            )
    with ctx.local():
        # Numerator and standard deviation in the same units of 2**e: a
        # standard deviation beyond the float range still standardises.
        mu = _centred_columns(list(zip(*M)), ctx).means
        sd = [ctx.sqrt(v) for v, _ in scaled]
        if not any(e for _, e in scaled):
            return [[(x - m) / s for x, m, s in zip(row, mu, sd)] for row in M]
        return [[(ctx.ldexp(x, -e) - ctx.ldexp(m, -e)) / s for x, m, s, (_, e) in zip(row, mu, sd, scaled)] for row in M]


def covariance_matrix(
    X: Any, ddof: Number = 1, *, center: bool = True, context: Context = FLOAT
) -> list[list[Scalar]]:
    """The d x d covariance matrix of the columns of ``X`` (rows are samples).

    Two passes with compensated sums and the Chan–Golub–LeVeque correction;
    divisor ``n - ddof`` (1 for the sample covariance of R and numpy's
    ``cov``, 0 for the maximum-likelihood one).  With ``center=False`` the
    second moments about zero, ``XᵀX / (n - ddof)`` (R's ``prcomp(center=FALSE)``).

    >>> covariance_matrix([[0, 0], [2, 2]], ddof=0)
    [[1.0, 1.0], [1.0, 1.0]]
    >>> covariance_matrix([[0, 0], [2, 2]], ddof=0, center=False)
    [[2.0, 2.0], [2.0, 2.0]]
    """
    ctx = check_context(context)
    M = as_matrix(X, context=ctx)
    with ctx.local():
        div = _divisor(len(M), ddof, ctx)
        if not center:
            return _raw_scatter(list(zip(*M)), ctx, div)
        return _scatter(list(zip(*M)), ctx, div)[1]


def _correlation_from(C: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    d = len(C)
    for j in range(d):
        if C[j][j] <= 0:
            raise PurePCAError(f"X: column {j} is constant (variance 0); its correlation is undefined")
    sd = [ctx.sqrt(C[j][j]) for j in range(d)]
    R = [[ctx.one] * d for _ in range(d)]
    for i in range(d):
        for j in range(i + 1, d):
            R[i][j] = R[j][i] = C[i][j] / sd[i] / sd[j]
    return R


def correlation_matrix(X: Any, *, context: Context = FLOAT) -> list[list[Scalar]]:
    """The d x d correlation matrix (the covariance of the standardised columns).

    >>> correlation_matrix([[1, 2], [2, 4], [3, 7]])
    [[1.0, 0.9933992677987828], [0.9933992677987828, 1.0]]
    >>> round(correlation_matrix([[1e300, 1], [-1e300, 2], [0.5e300, 4]])[0][1], 15)  # the covariance overflows
    -0.052414241836096
    """
    ctx = check_context(context)
    M = as_matrix(X, context=ctx)
    with ctx.local():
        c = _centred_columns(list(zip(*M)), ctx)
        # The cross products of the columns as scaled by powers of two, never
        # scaled back: the exponents cancel in S_ij/sqrt(S_ii·S_jj), so a
        # covariance beyond the float range still gives its correlation.
        unscaled = Centred(c.hi, c.lo, c.cols, c.sums, [0] * len(c.cols))
        return _correlation_from(_cross_products(unscaled, ctx, _divisor(len(M), 1, ctx)), ctx)
