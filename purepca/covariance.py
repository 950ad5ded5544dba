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
   rounded), with the
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

A fit centres with :func:`_centred_columns`, one column at a time
(:func:`_centre_column`: ``hi``, the deviations, their largest size, their sum, ``lo`` and the
column's power of two), and forms the covariance with :func:`_cross_products`:

>>> c = _centred_columns([[1.0, 2.0, 6.0]], FLOAT)
>>> c.hi, c.lo, [list(col) for col in c.cols], c.sums
([3.0], [0.0], [[-2.0, -1.0, 3.0]], [0.0])
>>> _centre_column([1.0, 2.0, 6.0], 3.0, FLOAT)
(3.0, [-2.0, -1.0, 3.0], 3.0, 0.0, 0.0, 0)

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
from . import fast
from .numeric import FLOAT, Context, Scalar, check_context, first_non_finite

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
    #: How many columns are constant (deviations all zero), where counted while centring; None: count
    #: them when asked (:func:`_constant_columns`).
    constant: Optional[int] = None

    @property
    def means(self) -> list[Scalar]:
        """The means rounded once: ``hi + lo``."""
        return [h + l for h, l in zip(self.hi, self.lo)]


def _column_mean(col: Sequence[Scalar], n: Scalar, ctx: Context) -> Scalar:
    """``fsum(col)/n``; a constant column's value itself (not an ulp away); where the sum overflows,
    that of the values scaled down by a power of two."""
    first = col[0]
    if col[-1] == first and col[len(col) // 2] == first and col.count(first) == len(col):  # two probes first
        return first
    try:
        return ctx.sum(col) / n
    except OverflowError:
        return _scaled_mean(col, n, ctx)


def _scaled_mean(col: Sequence[Scalar], n: Scalar, ctx: Context) -> Scalar:
    """The mean of a column whose sum overflows: that of the values scaled down by a power of two."""
    k = len(col).bit_length() + 1
    return ctx.ldexp(ctx.sum(ctx.ldexp(x, -k) for x in col) / n, k)


def _mean_correction(col: Sequence[Scalar], m: Scalar, n: Scalar, ctx: Context) -> Optional[Scalar]:
    """``lo`` of the mean ``hi + lo``: ``(Σx - n·hi)/n``, the residual summed exactly and rounded once
    (None where its partial sums overflow)."""
    try:
        return ctx.sum(itertools.chain(col, itertools.repeat(-m, len(col)))) / n
    except OverflowError:
        return None


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


def _centred_columns(cols: Sequence[Sequence[Scalar]], ctx: Context, lazy: bool = False,
                     n: Optional[Scalar] = None) -> Centred:
    """Each column (of length ``n``, in ``ctx``) centred about its mean ``hi + lo`` (:func:`_centre_column`); with
    ``lazy`` the kernel room may leave deviations unmade (:mod:`purepca.fast`'s ``centring`` states its contract)."""
    if _fast_centring is not None and ctx is FLOAT:
        got = _fast_centring(cols, lazy, _reference_column, _float_correction)
        if got is not None:
            return Centred(*got)
    n = ctx.convert(len(cols[0])) if n is None else n
    hi, centred, spreads, sums, lo, exps = map(list, zip(*(_centre_column(col, n, ctx) for col in cols)))
    return Centred(hi, lo, centred, sums, exps, spreads if ctx.needs_scaling and not any(exps) else None,
                   sum(1 for c in centred if not any(c)))


_fast_centring = fast.centring


def _centre_column(col: Sequence[Scalar], n: Scalar,
                   ctx: Context) -> tuple[Scalar, list[Scalar], Scalar, Scalar, Scalar, int]:
    """``(hi, c, spread, Σc, lo, e)``: the deviations ``c = x - hi`` scaled by ``2**-e`` (floats: their
    squares kept inside the float range), ``spread`` their largest size before scaling."""
    m = _column_mean(col, n, ctx)
    exact = _mean_correction(col, m, n, ctx)  # (used where the deviations need no scaling)
    c = [x - m for x in col]
    e, spread = 0, ctx.zero
    if ctx.needs_scaling:
        spread = max(max(c), -min(c))
        if spread == math.inf:  # the differences overflow: take them from the rows scaled by 1/4, exactly
            c, spread, e = _quarter_deviations(col, m, ctx)
        e2 = ctx.scale_exponent(spread)
        if e2:
            c = [ctx.ldexp(x, -e2) for x in c]
        e += e2
    s = ctx.sum(c)  # (it gives lo near the ends of the range, e != 0, or where the exact residual overflows)
    return m, c, spread, s, exact if exact is not None and not e else ctx.ldexp(s, e) / n, e


def _quarter_deviations(col: Sequence[Scalar], m: Scalar, ctx: Context) -> tuple[list[Scalar], Scalar, int]:
    """``(c, spread, 2)``: the deviations of the column from ``m`` in units of 4 (exact: each is ``x/4 - m/4``)
    where they overflow in the data's, and their largest size."""
    m4 = ctx.ldexp(m, -2)
    c = [ctx.ldexp(x, -2) - m4 for x in col]
    return c, max(max(c), -min(c)), 2


def _reference_column(col: Sequence[float]) -> tuple[float, list[float], float, float, float, int]:
    """:func:`_centre_column` of a float column (what a centring kernel takes where it proves nothing)."""
    return _centre_column(col, float(len(col)), FLOAT)


def _float_correction(col: Sequence[float], m: float, s: float) -> float:
    """:func:`_mean_correction` of a float column centred about ``m`` with no scaling, for a centring
    kernel: ``n·m`` as the exact pair ``p + q`` (:func:`_times_n`), the same exact residual from
    ``n + 2`` terms instead of ``2n`` (a speed choice: ``fsum`` rounds the same real once)."""
    if len(col) < 2 ** 26 and (m == 0.0 or _TINY < abs(m) < _HUGE):
        p, q = _times_n(m, float(len(col)))
        try:
            return FLOAT.sum(itertools.chain(col, (-p, -q))) / float(len(col))
        except OverflowError:
            pass
    lo = _mean_correction(col, m, float(len(col)), FLOAT)
    return s / float(len(col)) if lo is None else lo


def _constant_columns(c: Centred) -> int:
    """How many columns are constant (deviations all zero).  A column left to be made when read
    is not: its squares summed to a positive spread."""
    cols: Any = c.cols
    if isinstance(cols, fast.DeviationColumns):
        return sum(1 for col in cols.made if col is not None and not any(col))
    return sum(1 for col in cols if not any(col))


def _cross_products(
    c: Centred, ctx: Context, divisor: Optional[Scalar], gram: Any = None, shift: int = 0, rows: Optional[int] = None
) -> list[list[Scalar]]:
    """``Σ (x - x̄)(x - x̄)ᵀ`` of centred columns with the Chan–Golub–LeVeque correction ``- Σc_i·Σc_j/n``,
    divided by ``divisor`` (when given) before the columns' powers of two and ``2**-shift`` are undone
    (a covariance inside the float range never overflows on the way).  The inner products are ``ctx.dots``'
    (or ``gram``'s: a kernel's, a parallel one); ``rows``: the columns' length, where the fit knows it."""
    cols = c.cols
    n = ctx.convert(len(cols[0]) if rows is None else rows)
    d, sums, exps = len(cols), c.sums, c.exps
    G = None if gram is None else gram(cols)
    S = [[ctx.zero] * d for _ in range(d)]
    for i in range(d):
        si, ei = sums[i], exps[i]
        row = S[i]
        dots = ctx.dots(cols[i:], cols[i]) if G is None else G[i][i:]  # column i's products with i, i + 1, ...
        for j in range(i, d):
            v = dots[j - i] - si * sums[j] / n
            if divisor is not None:
                v = v / divisor
            if ei or exps[j] or shift:
                v = _covariance_back(v, ei + exps[j] - shift, i, j, ctx)
            row[j] = S[j][i] = v
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
                    raise PurePCAError(f"X: row {i}, column {j} minus its mean is beyond the float range; "
                                       "rescale the data")
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
        return [[(ctx.ldexp(x, -e) - ctx.ldexp(m, -e)) / s for x, m, s, (_, e) in zip(row, mu, sd, scaled)]
                for row in M]


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


UNDERFLOW = (
    "the values differ, but their variance underflows a float (a spread below about 1e-154 squares "
    "to below 1e-308); multiply the data by a large constant (PCA's components do not change)"
)
#: FactoMineR's ``ec.tab``: a standard deviation at or below this is set to 1 (the column is left unscaled).
FACTOMINER_SD_FLOOR = 1e-16


# ------------------------------------------ the fit: centring, scaling, the covariance


def centre(cols: Sequence[Sequence[Scalar]], center: bool, ctx: Context, lazy: bool = True) -> Centred:
    """The columns centred about their means (``center=True``) or as they are, scaled by powers of two;
    with ``lazy`` (a solver that forms the Gram of the columns) the deviations may be left unmade."""
    return _centred_columns(cols, ctx, lazy=lazy) if center else _uncentred(cols, ctx)


def _uncentred(cols: Sequence[Sequence[Scalar]], ctx: Context) -> Centred:
    """The columns as they are (``center=False``), scaled by powers of two near the ends of the range."""
    zeros = [ctx.zero] * len(cols)
    scaled, exps = _power_scaled(cols, ctx, copy=True)
    return Centred(zeros, list(zeros), scaled, list(zeros), exps)


def _power_scaled(cols: Sequence[Sequence[Scalar]], ctx: Context, copy: bool) -> tuple[list[list[Scalar]], list[int]]:
    """Each column divided by the power of two that brings its largest value near one where that is
    outside [SMALL, BIG] (exactly), with the exponents; the others as they are (copied with ``copy``)."""
    exps = [ctx.scale_exponent(_largest(col)) if ctx.needs_scaling else 0 for col in cols]
    scaled: list[list[Scalar]] = []
    for col, ej in zip(cols, exps):
        if ej:
            scaled.append([ctx.ldexp(x, -ej) for x in col])
        else:
            scaled.append(col if not copy and isinstance(col, list) else list(col))
    return scaled, exps


def column_sd(c: Centred, div: Scalar, e: int, ctx: Context) -> list[Scalar]:
    """Standard deviations of the centred columns, in units of ``2**e``."""
    n = ctx.convert(len(c.cols[0]))
    out = []
    for col, s, ej in zip(c.cols, c.sums, c.exps):
        ss = ctx.dot(col, col) - s * s / n
        out.append(ctx.ldexp(ctx.sqrt(ss / div), ej - e) if ss > 0 else ctx.zero)
    return out


def standardised(c: Centred, sd: list[Scalar], e: int, ctx: Context) -> Centred:
    """The centred columns divided by their standard deviations (``sd`` in units of ``2**e``), with
    their sums: what the correlation is made of."""
    cols, sums = [], []
    for col, s, ej, sj in zip(c.cols, c.sums, c.exps, sd):
        shift = ej - e
        cols.append([ctx.ldexp(x, shift) / sj for x in col] if shift else [x / sj for x in col])
        sums.append(ctx.ldexp(s, shift) / sj)
    return Centred(c.hi, c.lo, cols, sums, [0] * len(cols))


def data_matrix(c: Centred, sd: Optional[list[Scalar]], e: int, ctx: Context) -> list[list[Scalar]]:
    """The rows ``((x - hi) - lo)/sd`` in units of ``2**e``: centred about the mean to twice the
    working precision (the rounding of ``hi`` removed)."""
    columns = []
    for j, (col, ej) in enumerate(zip(c.cols, c.exps)):
        shift = ej - e
        lo = ctx.ldexp(c.lo[j], -e)
        if shift:
            col = [ctx.ldexp(x, shift) for x in col]
        if lo:
            col = [x - lo for x in col]
        if sd is not None:
            s = sd[j]
            col = [x / s for x in col]
        columns.append(col)
    return [list(row) for row in zip(*columns)]


def scales(sds: list[Scalar], convention: str, ctx: Context, cols: Optional[Sequence[Sequence[Scalar]]] = None,
           e: int = 0) -> list[Scalar]:
    """The standard deviations for ``scale=True`` (in units of ``2**e``), refusing a constant column;
    under ``convention="factominer"`` one at or below 1e-16 becomes 1, as FactoMineR does."""
    if convention == "factominer":
        floor = ctx.convert(FACTOMINER_SD_FLOOR)
        try:
            one = ctx.ldexp(ctx.one, -e) if e else ctx.one
        except OverflowError:  # the spread is below 2**-1023: every sd is below the floor and becomes 1
            raise PurePCAError("X: every column's standard deviation is at or below 1e-16, so FactoMineR's rule "
                               "leaves the data unscaled, and their variances (the data are below about 1e-308) "
                               "underflow a float; multiply the data by a large constant") from None
        # Compared in the units of 2**e: a deviation beyond the float range in the data's unit is
        # above the floor, and its ldexp would overflow.
        limit = ctx.ldexp(floor, -e) if e else floor
        return [one if not s > limit else s for s in sds]
    for j, s in enumerate(sds):
        if not s > 0:
            if cols is not None and max(cols[j]) != min(cols[j]):
                raise PurePCAError(f"X: column {j}: {UNDERFLOW}")
            raise PurePCAError(f"X: column {j} is constant (standard deviation 0); scale=True cannot scale it")
    return sds


def _scale_exponent(c: Centred, ctx: Context) -> int:
    """The power of two the centred data are divided by when their spread is near overflow or
    underflow (beyond about 1e±146), exactly, as LAPACK's drivers do (0 otherwise)."""
    if not ctx.needs_scaling:
        return 0
    try:
        if c.spreads is not None:  # measured while centring (no column scaled)
            return ctx.scale_exponent(max(c.spreads))
        return ctx.scale_exponent(max(ctx.ldexp(_largest(col), ej) for col, ej in zip(c.cols, c.exps)))
    except OverflowError:  # a spread beyond the float range: its exponent
        return max(math.frexp(max(map(abs, col)))[1] + ej for col, ej in zip(c.cols, c.exps))


def prepared_covariance(c: Centred, sd: Optional[list[Scalar]], raw_sd: Optional[list[Scalar]], e: int,
                        div: Scalar, gram: Any, ctx: Context, rows: int) -> list[list[Scalar]]:
    """The covariance of the fit's centred columns in units of ``2**e``, divided by ``div`` (their
    correlation when scaled by ``sd``: :func:`_prepared_correlation`)."""
    if sd is not None:
        return _prepared_correlation(c, sd, raw_sd, e, div, gram, ctx, rows)
    return _cross_products(c, ctx, div, gram, shift=2 * e, rows=rows)


def _prepared_correlation(c: Centred, sd: list[Scalar], raw_sd: Optional[list[Scalar]], e: int, div: Scalar,
                          gram: Any, ctx: Context, rows: int) -> list[list[Scalar]]:
    """The correlation of the fit's centred columns scaled by ``sd`` (in units of ``2**e`` too), from the
    standardised columns themselves: no product of two standard deviations can underflow."""
    C = _cross_products(standardised(c, sd, e, ctx), ctx, div, gram, rows=rows)
    for j in range(len(C)):
        if raw_sd is not None and sd[j] is raw_sd[j]:  # a genuine scale (not FactoMineR's 1)
            C[j][j] = ctx.one
    return C
