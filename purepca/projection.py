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

from typing import Optional, Sequence

from .errors import PurePCAError
from .numeric import FLOAT, Context, Scalar

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
    ctx = context
    d = len(components[0]) if components else 0
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
            out.append([dot(w, z) for w in components])
        return out


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
    ctx = context
    k = len(components)
    columns = list(zip(*components))  # d columns of length k
    with ctx.local():
        dot = ctx.dot
        out = []
        for i, z in enumerate(scores):
            if len(z) != k:
                raise PurePCAError(f"scores: row {i} has {len(z)} values, expected {k} (one per component)")
            x = [dot(z, col) for col in columns]
            if scale is not None:
                x = [a * s for a, s in zip(x, scale)]
            if mean is not None:
                x = [a + m for a, m in zip(x, mean)]
            out.append(x)
        return out


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
    ctx = context
    with ctx.local():
        roots = _clipped(deviations, ctx)
        return [[a / r for a, r in zip(z, roots)] for z in scores]


def unwhiten(scores: Rows, deviations: Sequence[Scalar], *, context: Context = FLOAT) -> list[list[Scalar]]:
    """The inverse of :func:`whiten` (with the same clipping).

    >>> unwhiten([[1.0, 1.0]], [2.0, 3.0])
    [[2.0, 3.0]]
    """
    ctx = context
    with ctx.local():
        roots = _clipped(deviations, ctx)
        return [[a * r for a, r in zip(z, roots)] for z in scores]


def reconstruction_error(X: Rows, reconstructed: Rows, *, context: Context = FLOAT) -> Scalar:
    """Mean over rows of the squared Euclidean distance ``‖x - x̂‖²``.

    >>> reconstruction_error([[1.0, 2.0], [3.0, 4.0]], [[1.0, 1.0], [3.0, 4.0]])
    0.5
    """
    ctx = context
    if len(X) != len(reconstructed) or not X:
        raise PurePCAError(f"reconstruction_error: {len(X)} rows and {len(reconstructed)} reconstructed rows")
    with ctx.local():
        total = ctx.sum(ctx.sum((a - b) * (a - b) for a, b in zip(x, y)) for x, y in zip(X, reconstructed))
        return total / ctx.convert(len(X))
