"""Projection onto principal axes, reconstruction and whitening.

With centre ``μ``, column scales ``s`` (1 when not scaling) and components
``W`` (k x d, orthonormal rows), a row ``x`` has

* scores             ``z = W·((x - μ) / s)``                      (``project``)
* whitened scores    ``z_j / σ_j`` with ``σ_j = sqrt(λ_j)``        (``whiten``)
* reconstruction     ``x̂ = (Wᵀ·z)·s + μ``                          (``reconstruct``)
* error              ``mean over rows of ‖x - x̂‖²``               (``reconstruction_error``)

All functions take plain lists and a number context and return new lists.

>>> W = [[0.6, 0.8]]
>>> project([[3.0, 4.0]], W)
[[5.0]]
>>> reconstruct([[5.0]], W)
[[3.0, 4.0]]
"""

from __future__ import annotations

import math
from operator import add, sub
from typing import Optional, Sequence

from .errors import PurePCAError
from .linalg.matrix import as_matrix, as_vector
from .numeric import FLOAT, Context, Scalar, check_context, first_non_finite

__all__ = ["project", "reconstruct", "reconstruction_error", "unwhiten", "whiten"]

Rows = Sequence[Sequence[Scalar]]


def project(
    X: Rows,
    components: Rows,
    mean: Optional[Sequence[Scalar]] = None,
    scale: Optional[Sequence[Scalar]] = None,
    *,
    context: Context = FLOAT,
) -> list[list[Scalar]]:
    """Scores ``((x - mean) / scale) · componentsᵀ`` of every row (n x k).

    >>> project([[3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]], mean=[1.0, 1.0], scale=[2.0, 3.0])
    [[1.0, 1.0]]
    """
    ctx = check_context(context)
    components = as_matrix(components, name="components", context=ctx, copy=False)
    d = len(components[0])
    mean = _centre(mean, "mean", d, ctx)
    scale = _scales(scale, d, ctx)
    X = _rows(X, "X", ctx)
    with ctx.local():
        dot = ctx.dot
        out = []
        for i, row in enumerate(X):
            if len(row) != d:
                raise PurePCAError(f"X: row {i} has {len(row)} features, but the components have {d}")
            z = list(row)
            if mean is not None:
                z = [a - m for a, m in zip(z, mean)]
            if scale is not None:
                z = [a / s for a, s in zip(z, scale)]
            try:
                out.append([dot(w, z) for w in components])
            except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
                raise PurePCAError(f"the score of row {i} is beyond the float range; rescale the data") from None
        return _finite(out, "the score")


def reconstruct(
    scores: Rows,
    components: Rows,
    mean: Optional[Sequence[Scalar]] = None,
    scale: Optional[Sequence[Scalar]] = None,
    *,
    context: Context = FLOAT,
) -> list[list[Scalar]]:
    """Rows back in the original space: ``(scores · components) · scale + mean`` (n x d).

    >>> reconstruct([[1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], mean=[1.0, 1.0], scale=[2.0, 3.0])
    [[3.0, 4.0]]
    """
    ctx = check_context(context)
    components = as_matrix(components, name="components", context=ctx, copy=False)
    k, d = len(components), len(components[0])
    mean = _centre(mean, "mean", d, ctx)
    scale = _scales(scale, d, ctx)
    scores = _rows(scores, "scores", ctx)
    columns = list(zip(*components))  # d columns of length k
    with ctx.local():
        dot = ctx.dot
        out = []
        for i, z in enumerate(scores):
            if len(z) != k:
                raise PurePCAError(f"scores: row {i} has {len(z)} values, expected {k} (one per component)")
            try:
                x = [dot(z, col) for col in columns]
            except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
                raise PurePCAError(f"the reconstruction of row {i} is beyond the float range; rescale the "
                                   "scores") from None
            if scale is not None:
                x = [a * s for a, s in zip(x, scale)]
            if mean is not None:
                x = [a + m for a, m in zip(x, mean)]
            out.append(x)
        return _finite(out, "the reconstruction")


def _clipped(deviations: Sequence[Scalar], ctx: Context) -> list[Scalar]:
    """The standard deviations, at least ``eps`` (scikit-learn's clipping)."""
    return [s if s > ctx.eps else ctx.eps for s in deviations]


def whiten(scores: Rows, deviations: Sequence[Scalar], *, context: Context = FLOAT) -> list[list[Scalar]]:
    """Divide score column j by ``deviations[j]`` (the component's standard
    deviation ``sqrt(λ_j)``), clipped below at the context's ``eps`` as
    scikit-learn does, so a zero-variance component gives large but finite
    values instead of a division by zero.

    >>> whiten([[2.0, 3.0]], [2.0, 3.0])
    [[1.0, 1.0]]
    """
    ctx = check_context(context)
    scores, deviations = _scores_and_deviations(scores, deviations, ctx)
    with ctx.local():
        roots = _clipped(deviations, ctx)
        return _finite([[a / r for a, r in zip(z, roots)] for z in scores], "the whitened score")


def unwhiten(scores: Rows, deviations: Sequence[Scalar], *, context: Context = FLOAT) -> list[list[Scalar]]:
    """The inverse of :func:`whiten` (with the same clipping).

    >>> unwhiten([[1.0, 1.0]], [2.0, 3.0])
    [[2.0, 3.0]]
    """
    ctx = check_context(context)
    return _unwhiten(*_scores_and_deviations(scores, deviations, ctx), ctx)


def _unwhiten(scores: Rows, deviations: Sequence[Scalar], ctx: Context) -> list[list[Scalar]]:
    """:func:`unwhiten`'s worker, on validated scores (the estimator's inverse_transform calls it)."""
    with ctx.local():
        roots = _clipped(deviations, ctx)
        return _finite([[a * r for a, r in zip(z, roots)] for z in scores], "the unwhitened score")


def reconstruction_error(X: Rows, reconstructed: Rows, *, context: Context = FLOAT) -> Scalar:
    """Mean over rows of the squared Euclidean distance ``‖x - x̂‖²``.

    >>> reconstruction_error([[1.0, 2.0], [3.0, 4.0]], [[1.0, 1.0], [3.0, 4.0]])
    0.5
    """
    ctx = check_context(context)
    X = as_matrix(X, name="X", context=ctx, copy=False)
    reconstructed = as_matrix(reconstructed, name="reconstructed", context=ctx, copy=False)
    if len(X) != len(reconstructed):
        raise PurePCAError(f"reconstruction_error: {len(X)} rows and {len(reconstructed)} reconstructed rows")
    if len(X[0]) != len(reconstructed[0]):
        raise PurePCAError(f"reconstruction_error: X has {len(X[0])} columns, "
                           f"reconstructed has {len(reconstructed[0])}")
    return _reconstruction_error(X, reconstructed, ctx)


def _reconstruction_error(X: Rows, reconstructed: Rows, ctx: Context) -> Scalar:
    """:func:`reconstruction_error`'s worker, on validated rows of one shape (the estimator calls it)."""
    with ctx.local():
        try:
            total = ctx.sum(ctx.sum((a - b) * (a - b) for a, b in zip(x, y)) for x, y in zip(X, reconstructed))
        except (OverflowError, ValueError):  # fsum of squares past the float range
            total = math.inf
        error = total / ctx.convert(len(X))
    if type(error) is float and not math.isfinite(error):
        raise PurePCAError("reconstruction_error: the mean squared error is beyond the float range; rescale the data")
    return error


# ----------------------------------------------------------- the doors' checks


def _rows(data: Rows, name: str, ctx: Context) -> Rows:
    """Rows of finite numbers (as_matrix's checks); an empty list stays empty (no rows, no scores)."""
    if isinstance(data, (list, tuple)) and len(data) == 0:
        return []
    return as_matrix(data, name=name, context=ctx, copy=False)


def _centre(values: Optional[Sequence[Scalar]], name: str, d: int, ctx: Context) -> Optional[list[Scalar]]:
    """None, or ``d`` finite numbers."""
    if values is None:
        return None
    out = as_vector(values, name=name, context=ctx)
    if len(out) != d:
        raise PurePCAError(f"{name}: {len(out)} values, but the components have {d} features")
    return out


def _scales(values: Optional[Sequence[Scalar]], d: int, ctx: Context) -> Optional[list[Scalar]]:
    """None, or ``d`` finite, non-zero column scales."""
    out = _centre(values, "scale", d, ctx)
    if out is not None:
        for j, s in enumerate(out):
            if s == 0:
                raise PurePCAError(f"scale: entry {j} is zero ({s!r:.60}); a column scale divides")
    return out


def _scores_and_deviations(scores: Rows, deviations: Sequence[Scalar], ctx: Context) -> tuple[Rows, list[Scalar]]:
    """Scores and one finite standard deviation per score column (at least 0)."""
    empty = isinstance(deviations, (list, tuple)) and len(deviations) == 0  # no components: no columns
    devs = [] if empty else as_vector(deviations, name="deviations", context=ctx)
    for j, s in enumerate(devs):
        if s < 0:
            raise PurePCAError(f"deviations: entry {j} is negative ({s!r:.60}); a standard deviation is >= 0")
    if empty and isinstance(scores, (list, tuple)) and all(isinstance(z, (list, tuple)) and not z for z in scores):
        return [[] for _ in scores], devs  # n rows of no scores
    rows = _rows(scores, "scores", ctx)
    for i, z in enumerate(rows):
        if len(z) != len(devs):
            raise PurePCAError(f"scores: row {i} has {len(z)} values, but there are {len(devs)} deviations")
    return rows, devs


def _finite(rows: list[list[Scalar]], what: str) -> list[list[Scalar]]:
    """``rows``, or an error naming the first float beyond the float range."""
    for i, row in enumerate(rows):
        floats = [v for v in row if type(v) is float]
        if len(floats) == len(row):
            j = first_non_finite(floats)
            if j is not None:
                raise PurePCAError(f"{what} of row {i}, column {j} is beyond the float range; rescale the data")
    return rows


# ----------------------------------------------------------- fast workers
#
# The estimators call these on rows they have validated already.  The mean
# comes as a pair: ``hi`` (the rounded mean the rows are centred about) and
# ``lo`` (its rounding error, ``Σ(x - hi)/n``).  ``x - hi`` is exact for rows
# near the mean (Sterbenz), and ``lo`` enters once per component as the
# constant ``w·lo``, so scores of data with a large common offset are as
# accurate as scores of centred data.


def _score_weights(
    components: Rows,
    lo: Optional[Sequence[Scalar]],
    scale: Optional[Sequence[Scalar]],
    deviations: Optional[Sequence[Scalar]],
    ctx: Context,
) -> tuple[list[list[Scalar]], Optional[list[Scalar]]]:
    """Rows ``w/scale/deviation`` (scaling and whitening folded into the
    components, so a row costs k dot products and nothing more) and the
    constants ``w·lo`` to subtract (None when ``lo`` is zero)."""
    W = [list(w) for w in components]
    if scale is not None:
        W = [[w / s for w, s in zip(row, scale)] for row in W]
    if deviations is not None:
        W = [[w / r for w in row] for row, r in zip(W, _clipped(deviations, ctx))]
    offsets = ctx.dots(W, lo) if lo is not None and any(lo) else None
    return W, offsets


def _score_rows(
    M: Rows,
    components: Rows,
    hi: Sequence[Scalar],
    lo: Optional[Sequence[Scalar]],
    scale: Optional[Sequence[Scalar]],
    deviations: Optional[Sequence[Scalar]],
    ctx: Context,
) -> list[list[Scalar]]:
    """Scores ``W·((x - hi - lo)/scale)`` (divided by ``deviations`` when
    whitening) of validated rows."""
    with ctx.local():
        W, offsets = _score_weights(components, lo, scale, deviations, ctx)
        dots = ctx.dots
        try:
            if offsets is None:
                Z = [dots(W, list(map(sub, row, hi))) for row in M]
            else:
                Z = [list(map(sub, dots(W, list(map(sub, row, hi))), offsets)) for row in M]
        except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
            Z = []
        if not ctx.needs_scaling or (len(Z) == len(M) and all(map(math.isfinite, map(sum, Z)))):
            return Z
        # Rows near the largest float: x - hi, or a partial sum, overflowed.
        # Each row again at a scale of 2**-k, the scores scaled back at the
        # end; a score beyond the float range is an error naming it.
        Zs = []
        for i, row in enumerate(M):
            k = _exponent(row, hi)
            d = [ctx.ldexp(a, -k) - ctx.ldexp(h, -k) for a, h in zip(row, hi)]
            out = []
            for j, w in enumerate(W):
                m = _exponent(w)
                s = ctx.dot([ctx.ldexp(x, -m) for x in w], d)
                if offsets is not None:
                    s = s - ctx.ldexp(offsets[j], -k - m)
                out.append(_back(s, k + m, f"the score of row {i} on component {j}", ctx))
            Zs.append(out)
        return Zs


def _exponent(*vectors: Sequence[Scalar]) -> int:
    """The binary exponent of the largest magnitude in the vectors (at least 2)."""
    largest = max(abs(x) for v in vectors for x in v)
    return max(2, math.frexp(largest)[1]) if largest else 2


def _back(x: Scalar, e: int, what: str, ctx: Context) -> Scalar:
    """``x·2**e``, or an error naming ``what`` when that is beyond the float range."""
    try:
        value = ctx.ldexp(x, e)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        raise PurePCAError(f"{what} is beyond the float range (about 2**{math.frexp(x)[1] + e}); rescale the data")
    return value


def _reconstruct_rows(
    S: Rows,
    components: Rows,
    hi: Sequence[Scalar],
    lo: Optional[Sequence[Scalar]],
    scale: Optional[Sequence[Scalar]],
    ctx: Context,
) -> list[list[Scalar]]:
    """Rows ``((Wᵀ·z)·scale + lo) + hi`` of validated scores (the small parts
    are added first, the mean last)."""
    with ctx.local():
        columns = [list(c) for c in zip(*components)]
        dots = ctx.dots
        out = []
        for i, z in enumerate(S):
            try:
                x = dots(columns, z)
                if scale is not None:
                    x = [a * s for a, s in zip(x, scale)]
                if lo is not None:
                    x = list(map(add, x, lo))
                x = list(map(add, x, hi))
            except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
                x = [math.inf]
            if ctx.needs_scaling and not math.isfinite(sum(x)):
                # Scores near the largest float: the same sums at a scale of 2**-k.
                k = _exponent(z, hi, *([scale] if scale is not None else []))
                zk = [ctx.ldexp(v, -k) for v in z]
                try:
                    x = dots(columns, zk)
                except (OverflowError, ValueError):  # an infinite score (unwhitened past the float range)
                    raise PurePCAError(f"the reconstruction of row {i} is beyond the float range; rescale the "
                                       "scores or the data") from None
                if scale is not None:
                    x = [a * s for a, s in zip(x, scale)]
                if lo is not None:
                    x = [a + ctx.ldexp(b, -k) for a, b in zip(x, lo)]
                x = [_back(a + ctx.ldexp(h, -k), k, f"the reconstruction of row {i}, feature {j}", ctx)
                     for j, (a, h) in enumerate(zip(x, hi))]
            out.append(x)
        return out


def _float_rows(rows: Rows, ctx: Context, what: str) -> list[list[float]]:
    """Rows of the context's numbers as floats; a number beyond the float
    range (a decimal result, or an overflow) is an error naming its place."""
    f = ctx.to_float
    out = [[f(v) for v in row] for row in rows]
    for i, row in enumerate(out):
        j = first_non_finite(row)
        if j is not None:
            raise PurePCAError(f"{what} of row {i}, column {j} is beyond the float range; rescale the data")
    return out
