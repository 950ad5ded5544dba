"""Row and column weights for PCA: FactoMineR's ``row.w`` and ``col.w``.

With row weights ``w`` (``W = Σw``) and column weights ``c``, PCA is the
eigendecomposition of

    C = D_c^(1/2) · Zᵀ · D_w · Z · D_c^(1/2) / (W - ddof),

where ``Z`` is the data centred about the weighted means ``Σ w_i x_i / W``
and, with ``scale=True``, divided by the weighted standard deviations
``sqrt(Σ w_i (x_i - x̄)² / (W - ddof))``.  This module builds the matrix
whose cross products are ``C``:

    Y_ij = sqrt(w_i) · Z_ij · sqrt(c_j),

which the solvers take as they take unweighted data (the SVD of ``Y``
never squares its condition).

Row weights are *frequencies*: integer weights give exactly the PCA of the
data with each row repeated that many times (the divisor is ``W - ddof``).
FactoMineR normalises its row weights to sum to 1 and divides by the sum
(``ddof = 0``, ``convention="factominer"``), which is the same analysis for
any positive multiple of the weights.

A column weight ``c_j`` multiplies column j's share of every squared
distance: it is a rescaling of the column by ``sqrt(c_j)``, so the fitted
``scale_`` holds the divisor actually applied, ``sd_j / sqrt(c_j)`` (and
``1 / sqrt(c_j)`` without ``scale``).  FactoMineR's ``var$coord`` are then
the loadings divided by ``sqrt(c_j)`` (``PCA.column_coordinates_``).

>>> check_weights([1, 2.5, 0], 3, "sample_weight", "rows")
[1.0, 2.5, 0.0]
>>> check_weights([1, -1], 2, "sample_weight", "rows")
Traceback (most recent call last):
...
purepca.errors.PurePCAError: sample_weight: entry 1 is -1.0; weights must be >= 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from .errors import PurePCAError
from .linalg.matrix import as_vector
from .numeric import Context, Scalar

__all__ = ["WeightedData", "check_weights", "weighted_data"]


def check_weights(values: Any, length: int, name: str, what: str, positive: bool = False) -> Optional[list[float]]:
    """Validate weights: ``length`` finite numbers, none negative, not all zero (None passes through);
    with ``positive`` none zero either (a column of weight 0 would take no part: leave it out).

    >>> check_weights(None, 4, "column_weight", "columns") is None
    True
    >>> check_weights([0, 0], 2, "column_weight", "columns")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: column_weight: every weight is zero; at least one must be positive
    >>> check_weights([0, 3, 0], 3, "sample_weight", "rows")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: sample_weight: the weights leave one row (entry 1 is the only positive weight), ...
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:  # no compare first: Decimal('sNaN')
        raise PurePCAError(f"{name}: length must be an int >= 0, got {length!r:.60}")
    if values is None:
        return None
    if hasattr(values, "__array__") and not hasattr(values, "tolist"):  # array-likes that only convert
        values = values.__array__()
    if hasattr(values, "tolist") and callable(values.tolist):  # numpy arrays and pandas Series
        values = values.tolist()
    got = [float(v) for v in as_vector(values, name=name)]
    if len(got) != length:
        raise PurePCAError(f"{name}: {len(got)} weights for {length} {what}; need one per {what[:-1]}")
    for j, v in enumerate(got):
        if v < 0 or (positive and v == 0):
            bound = "> 0 (a column of weight 0 takes no part in the analysis: leave it out of X)" if positive \
                else ">= 0"
            raise PurePCAError(f"{name}: entry {j} is {v!r}; weights must be {bound}")
    if not any(v > 0 for v in got):
        raise PurePCAError(f"{name}: every weight is zero; at least one must be positive")
    kept = [j for j, v in enumerate(got) if v > 0]
    if what == "rows" and len(kept) == 1 and length > 1:
        # One row alone has no spread: the fit would find "every feature constant", blaming the data.
        raise PurePCAError(f"{name}: the weights leave one row (entry {kept[0]} is the only positive weight), "
                           "so every feature is constant (one row has no variance); "
                           "give at least two rows a positive weight")
    return got


@dataclass
class WeightedData:
    """What :func:`weighted_data` builds: the weighted means as ``hi + lo``
    (``lo`` the rounding error of ``hi``), the standard deviations (None
    without ``scale``), the divisor applied to each centred column
    (``sd_j/sqrt(c_j)``; None when there is neither scaling nor column
    weights), the columns of ``Y``, the weight total ``W`` and the divisor
    ``W - ddof``.  ``Y``, ``W`` and the divisor are those of the weights times
    ``2**shift`` (an even power of two, exact, that brings the largest weight
    into [1, 4)): ``YᵀY/(W - ddof)`` is the same, but neither tiny weights nor
    huge ones take ``Y`` or the divisor out of the float range; the divisor of
    the weights as given is ``ldexp(div, -shift)``."""

    hi: list[Scalar]
    lo: list[Scalar]
    sd: Optional[list[Scalar]]
    scales: Optional[list[Scalar]]
    cols: list[list[Scalar]]
    total: Scalar
    div: Scalar
    shift: int = 0


def _even_shift(w: Sequence[Scalar], ctx: Context) -> int:
    """The even power of two that brings the largest weight into [1, 4) (0 for decimal contexts,
    or when it is there already).

    >>> from purepca import FLOAT
    >>> _even_shift([3.0, 1.0], FLOAT), _even_shift([1e-300, 2e-300], FLOAT), _even_shift([1e308, 1.0], FLOAT)
    (0, 996, -1022)
    """
    if not ctx.needs_scaling or not w:
        return 0
    top = max(w)
    if not top > 0 or not top < math.inf:
        return 0
    e = math.frexp(top)[1]  # top = f·2**e, f in [0.5, 1)
    k = 1 - e if (1 - e) % 2 == 0 else 2 - e
    return k


def _weighted_sd(w: Sequence[Scalar], dev: Sequence[Scalar], div: Scalar, ctx: Context) -> Scalar:
    """``sqrt(Σ w·dev²/div)``, the squares taken of the deviations divided by a power of two where they
    are near overflow or underflow (exactly, as the unweighted fit does: squared as they were, a
    spread of 1e200 gave inf and one of 1e-200 gave 0).

    >>> from purepca import FLOAT
    >>> _weighted_sd([1.0, 3.0], [3e200, -1e200], 4.0, FLOAT), _weighted_sd([1.0, 3.0], [3e-200, -1e-200], 4.0, FLOAT)
    (1.7320508075688773e+200, 1.7320508075688772e-200)
    """
    e = ctx.scale_exponent(max(max(dev), -min(dev))) if ctx.needs_scaling and dev else 0
    if e:
        dev = [ctx.ldexp(v, -e) for v in dev]
    root = ctx.sqrt(ctx.dot(w, [v * v for v in dev]) / div)
    if not e:
        return root
    try:
        return ctx.ldexp(root, e)
    except OverflowError:
        raise PurePCAError("X: a weighted standard deviation is beyond the float range (about 1.8e308); "
                           "divide the data by a power of ten") from None


def weighted_data(
    rows: Sequence[Sequence[Scalar]],
    weights: Optional[Sequence[float]],
    column_weights: Optional[Sequence[float]],
    ddof: int,
    center: bool,
    scales: Optional[Callable[[list[Scalar]], list[Scalar]]],
    ctx: Context,
) -> WeightedData:
    """Centre, scale and weight the rows: the columns of ``Y = D_w^(1/2)·Z·D_c^(1/2)``.

    ``scales`` (None: no scaling) turns the weighted standard deviations
    into the divisors used: the caller's rule for a constant column.

    >>> from purepca import FLOAT
    >>> wd = weighted_data([[0.0], [2.0]], [3.0, 1.0], None, 0, True, None, FLOAT)
    >>> wd.hi, wd.div, [round(v, 12) for v in wd.cols[0]], wd.scales
    ([0.5], 4.0, [-0.866025403784, 1.5], None)
    """
    n, d = len(rows), len(rows[0])
    with ctx.local():
        w = [ctx.convert(v) for v in weights] if weights is not None else [ctx.one] * n
        shift = _even_shift(w, ctx)
        if shift:
            w = [ctx.ldexp(v, shift) for v in w]
        total = ctx.sum(w)
        try:
            div = total - ctx.ldexp(ctx.convert(ddof), shift) if shift else total - ctx.convert(ddof)
        except OverflowError:  # ddof·2**shift beyond the float range: weights far below ddof
            div = -ctx.one
        if not div > 0:
            given = ctx.to_float(total) * 2.0 ** -shift if shift else ctx.to_float(total)
            raise PurePCAError(
                f"sample_weight: the weights sum to {given!r}, which leaves no degrees of freedom "
                f"with ddof={ddof} (the divisor is the sum less ddof): weights are frequencies; pass counts, or "
                "ddof=0 (convention='factominer') for weights normalised to sum to 1"
            )
        roots = [ctx.sqrt(v) for v in w]
        hi: list[Scalar] = []
        lo: list[Scalar] = []
        devs: list[list[Scalar]] = []
        for col in zip(*rows):
            if center:
                h = ctx.dot(w, col) / total
                first = [x - h for x in col]
                low = ctx.dot(w, first) / total  # what rounding ``h`` left
                dev = [v - low for v in first]
            else:
                h = low = ctx.zero
                dev = list(col)
            hi.append(h)
            lo.append(low)
            devs.append(dev)
        sd = None
        if scales is not None:
            sd = scales([_weighted_sd(w, dev, div, ctx) for dev in devs])
        cw = [ctx.sqrt(ctx.convert(c)) for c in column_weights] if column_weights is not None else [ctx.one] * d
        # The divisor of each centred column: sd_j/sqrt(c_j) (what PCA.scale_ holds).
        if sd is not None:
            divisors: Optional[list[Scalar]] = [s / r for s, r in zip(sd, cw)] if column_weights is not None else sd
        else:
            divisors = [ctx.one / r for r in cw] if column_weights is not None else None
        cols = []
        for j, dev in enumerate(devs):
            factor = cw[j] / sd[j] if sd is not None else cw[j]
            cols.append([r * v * factor for r, v in zip(roots, dev)])
        if ctx.needs_scaling and column_weights is not None:
            # (data alone beyond the range are scaled by powers of two in the solvers, and their
            # eigenvalues are inf with the ratios right, as without weights; weights that take them
            # there are the caller's to scale)
            _check_total_variance(cols, div)
    return WeightedData(hi, lo, sd, divisors, cols, total, div, shift)


def _check_total_variance(cols: Sequence[Sequence[Scalar]], div: Scalar) -> None:
    """Refuse weighted columns whose variances ``Σ y²/div``, or their total (the sum
    of the eigenvalues), are beyond the float range: the spectrum would hold inf and
    the ratios NaN.  Each variance is taken as ``(m·sqrt(Σ (y/m)²/div))²`` with ``m``
    the largest ``|y|``, so that no square overflows before the answer does (the
    solvers scale the columns by powers of two: a sum of squares beyond the range is
    theirs to handle, a spectrum beyond it is not).

    >>> _check_total_variance([[1e154, -1e154], [1.0, 2.0]], 1.0)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: column_weight: the weighted variance of column 0 (about 2e+308) is beyond the float
    range (the eigenvalues would be inf, their ratios NaN); divide the column weights by a common factor (the components
    stay the same, the eigenvalues shrink by it) or rescale the data
    """
    total = 0.0
    for j, col in enumerate(cols):
        m = max(map(abs, col), default=0.0)
        if not m:
            continue
        root = m * math.sqrt(math.fsum((y / m) ** 2 for y in col) / div)
        total += root * root
        if total < math.inf:
            continue
        if root * root < math.inf:
            what = f"the total weighted variance (the sum of the eigenvalues, over columns 0 to {j})"
        else:
            what = f"the weighted variance of column {j} (about {_times_ten(root)})"
        raise PurePCAError(f"column_weight: {what} is beyond the float range (the eigenvalues would be inf, "
                           "their ratios NaN); divide the column weights by a common factor (the components "
                           "stay the same, the eigenvalues shrink by it) or rescale the data")


def _times_ten(root: float) -> str:
    """``root²`` written as a power of ten when it is beyond the float range.

    >>> _times_ten(1.5e154)
    '2.25e+308'
    """
    e = math.floor(2 * math.log10(root))
    mantissa = 10 ** (2 * math.log10(root) - e)
    return f"{mantissa:.3g}e+{e}"
