"""Cholesky factorisation and solves for symmetric positive definite systems.

``A = L·Lᵀ`` with L lower triangular, column by column (the Cholesky–Banachiewicz
order), every inner product a compensated dot.  Used by kernel ridge
regression (the pre-image map of Kernel PCA).

>>> L = cholesky([[4, 2], [2, 5]])
>>> L
[[2.0, 0.0], [1.0, 2.0]]
>>> cholesky_solve(L, [[8.0], [13.0]])
[[0.875], [2.25]]
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import PurePCAError
from ..numeric import FLOAT, Context, Scalar, check_context
from .eigen import _eigh
from .matrix import as_matrix, as_symmetric

__all__ = ["cholesky", "cholesky_solve"]


def cholesky(A: Any, *, context: Context = FLOAT) -> list[list[Scalar]]:
    """The lower-triangular L with ``A = L·Lᵀ`` for a symmetric positive definite A.

    Raises :class:`PurePCAError` naming the pivot that is not positive, i.e.
    the leading minor that fails to be positive definite.

    >>> cholesky([[1, 2], [2, 1]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: A is not positive definite: pivot 1 is -3.0 (the leading 2 x 2 minor is not
    positive definite)
    """
    ctx = check_context(context)
    return _cholesky(as_symmetric(A, name="A", context=ctx), ctx)


def _cholesky(M: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    """The worker behind :func:`cholesky`, on a validated symmetric matrix."""
    n = len(M)
    L = [[ctx.zero] * n for _ in range(n)]
    with ctx.local():
        dot = ctx.dot
        for j in range(n):
            Lj = L[j]
            pivot = M[j][j] - dot(Lj[:j], Lj[:j])
            if not pivot > 0:
                raise PurePCAError(
                    f"A is not positive definite: pivot {j} is {ctx.to_float(pivot)!r} "
                    f"(the leading {j + 1} x {j + 1} minor is not positive definite)"
                )
            d = ctx.sqrt(pivot)
            Lj[j] = d
            for i in range(j + 1, n):
                Li = L[i]
                Li[j] = (M[i][j] - dot(Li[:j], Lj[:j])) / d
    return L


def cholesky_solve(L: Sequence[Sequence[Scalar]], B: Any, *, context: Context = FLOAT) -> list[list[Scalar]]:
    """Solve ``(L·Lᵀ)·X = B`` for X, given the factor L; B is n x m (m right-hand sides).

    L must be square and lower triangular with a positive diagonal (what
    :func:`cholesky` returns); anything else is an error naming the entry.

    >>> cholesky_solve([[2.0, 0.0], [1.0, 1.0]], [[4.0, 2.0], [3.0, 1.0]])
    [[0.5, 0.5], [1.0, 0.0]]
    >>> cholesky_solve([[0.0]], [[1.0]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: L[0][0] is 0.0: a Cholesky factor has a positive diagonal (L·Lᵀ is singular)
    """
    ctx = check_context(context)
    F = as_matrix(L, name="L", context=ctx)
    n = len(F)
    if any(len(row) != n for row in F):
        raise PurePCAError(f"L must be square; got {n} x {len(F[0])}")
    for i, row in enumerate(F):
        if not row[i] > 0:
            raise PurePCAError(
                f"L[{i}][{i}] is {ctx.to_float(row[i])!r}: a Cholesky factor has a positive diagonal (L·Lᵀ is singular)"
            )
        j = next((j for j in range(i + 1, n) if row[j] != 0), None)
        if j is not None:
            raise PurePCAError(f"L[{i}][{j}] is {ctx.to_float(row[j])!r}: a Cholesky factor is lower triangular")
    return _cholesky_solve(F, as_matrix(B, name="B", context=ctx), ctx)


def _cholesky_solve(L: Sequence[Sequence[Scalar]], R: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    """The worker behind :func:`cholesky_solve`, on validated right-hand sides."""
    n = len(L)
    if len(R) != n:
        raise PurePCAError(f"B has {len(R)} rows, but L is {n} x {n}")
    with ctx.local():
        dot = ctx.dot
        cols = [list(c) for c in zip(*R)]
        out = []
        for b in cols:
            y = [ctx.zero] * n  # forward: L·y = b
            for i in range(n):
                y[i] = (b[i] - dot(L[i][:i], y[:i])) / L[i][i]
            x = [ctx.zero] * n  # backward: Lᵀ·x = y
            for i in range(n - 1, -1, -1):
                x[i] = (y[i] - ctx.sum(L[r][i] * x[r] for r in range(i + 1, n))) / L[i][i]
            out.append(x)
        return [list(r) for r in zip(*out)]


def _spd_inverse(A: list[list[Scalar]], ctx: Context, what: str) -> list[list[Scalar]]:
    """Inverse of a validated symmetric positive definite matrix through its
    eigendecomposition (Jacobi: the small eigenvalues keep their relative
    accuracy, which the inverse magnifies); ``what`` names it in the error."""
    eig = _eigh(A, "jacobi", ctx)
    if not eig.values or not eig.values[-1] > 0:
        smallest = ctx.to_float(eig.values[-1]) if eig.values else 0.0
        raise PurePCAError(f"{what} is singular (smallest eigenvalue {smallest:.3e}); it has no inverse")
    n = len(A)
    V = eig.vectors
    return [[ctx.sum(V[k][i] * V[k][j] / eig.values[k] for k in range(n)) for j in range(n)] for i in range(n)]
