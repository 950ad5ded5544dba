"""Eigenvectors of a large symmetric matrix without accumulating the QL rotations.

The implicit QL method (:mod:`purepca.linalg.tridiagonal`) applies every plane
rotation to the n x n matrix of vectors: about ``n²`` rotations of rows of
length n, ``3n³`` multiplications in interpreted list comprehensions, which at
n = 500 is most of a minute in CPython.  Its eigenvalues alone cost ``O(n²)``.
This module reduces the matrix to T by Householder reflections
(:func:`~purepca.linalg.tridiagonal.tridiagonalize`; on CPython in panels of C-loop dot products,
a kernel of :mod:`purepca.fast`, as LAPACK's ``dsytrd``), keeps the eigenvalues from QL and
finds the eigenvectors of T by inverse iteration, as LAPACK's ``dstein`` does:
for each eigenvalue λ, two or three solves with ``T - λI`` (an LU
factorisation with partial pivoting of a tridiagonal matrix, ``O(n)``),
vectors of eigenvalues closer than ``1e-9·‖T‖`` orthogonalised against each
other at every step (classical Gram–Schmidt, twice), and the
back-transformation ``Q·y`` (on CPython by blocks of reflections in the compact WY
form, LAPACK's ``dormtr``, the same kernel room).

Every vector is checked: its residual ``‖T·y - λ·y‖`` must be below
``n·64·eps·‖T‖`` and its norm one; should any fail (or a solve overflow),
:func:`eigh_inverse_iteration` returns None and the caller takes the QL path
with rotations.

>>> from purepca import FLOAT
>>> r = eigh_inverse_iteration([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]], FLOAT)
>>> [round(v, 12) for v in r.values]
[3.414213562373, 2.0, 0.585786437627]
>>> [round(abs(x), 12) for x in r.vectors[1]]
[0.707106781187, 0.0, 0.707106781187]
"""

from __future__ import annotations

import itertools
import math
import operator
import random
from typing import Callable, Optional, Sequence

from .. import fast
from ..numeric import Context, Scalar, float_hypot
from .jacobi import EighResult
from .matrix import _max_abs as max_abs  # rows validated here: the worker
from .tridiagonal import _tridiagonal_ql, _tridiagonalize  # M validated by the caller: the workers

__all__ = ["eigh_inverse_iteration"]

#: Eigenvalues closer than this fraction of ‖T‖ have their vectors orthogonalised against each
#: other.  LAPACK's dstein takes 1e-3, which on a dense spectrum (a wide Gram matrix: 500
#: eigenvalues from 0.01 to 492, median gap 1e-3) chains nearly all of them into one cluster and
#: O(n³) work.  A vector from inverse iteration is within about eps·‖T‖/gap of its eigenvector
#: (the accuracy of any backward-stable method, QL included), so vectors of eigenvalues further
#: apart than 1e-9·‖T‖ are orthogonal to about 2e-7 by themselves; the Gram path orthonormalises
#: the components it maps back anyway (solvers._orthonormal_rows), and nearer pairs, down to equal
#: eigenvalues, are orthogonalised here.
_ORTHOGONALISE = 1e-9
#: Solves per vector; with eigenvalues accurate to n·eps·‖T‖ one is nearly enough, three are a margin.
_SOLVES = 3


def eigh_inverse_iteration(M: list[list[Scalar]], ctx: Context) -> Optional[EighResult]:
    """Eigenvalues (descending) and eigenvectors (rows) of the validated symmetric float matrix M
    by Householder reduction, QL for the eigenvalues and inverse iteration for the vectors; None
    where a vector fails its residual check (then use :func:`~purepca.linalg.tridiagonal.tridiagonal_eigh`).

    >>> from purepca import FLOAT
    >>> eigh_inverse_iteration([[4.0, 0.0], [0.0, 1.0]], FLOAT).values
    [4.0, 1.0]
    """
    n = len(M)
    if ctx.name != "float" or n < 2:
        return None
    scale = ctx.scale_exponent(max_abs(M))
    if scale:
        M = [[math.ldexp(x, -scale) for x in row] for row in M]
    panels = fast.householder  # a kernel (CPython's C loops), or None: the reference reduction
    if panels is not None:
        diag, sub, reflections = panels(M)
    else:
        diag, sub, Qt = _tridiagonalize(M, ctx, None)
    a, b = list(diag), list(sub[: n - 1])
    values = list(diag)
    e = list(sub)
    iterations, rotations = _tridiagonal_ql(values, e, [[] for _ in range(n)], ctx)
    order = sorted(range(n), key=values.__getitem__, reverse=True)
    lam = [values[i] for i in order]
    ys = _tridiagonal_vectors(a, b, lam)
    if ys is None:
        return None
    if panels is not None:
        vectors = fast.back_transform(reflections, ys, n)  # type: ignore[misc]
    else:
        Q = [list(col) for col in zip(*Qt)]  # rows of Q = columns of Qᵀ: (Q·y)_i = Q[i]·y
        vectors = [ctx.dots(Q, y) for y in ys]
    if scale:
        lam = [math.ldexp(v, scale) for v in lam]
    return EighResult(lam, vectors, iterations, rotations)


def _tridiagonal_vectors(a: list[float], b: list[float], lam: list[float]) -> Optional[list[list[float]]]:
    """Unit eigenvectors of the tridiagonal matrix (diagonal a, off-diagonal b) for the eigenvalues
    lam (descending), or None when one fails its residual check."""
    n = len(a)
    norm = max(abs(a[i]) + (abs(b[i]) if i < n - 1 else 0.0) + (abs(b[i - 1]) if i else 0.0) for i in range(n))
    if not norm > 0:
        return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    eps = 2.0 ** -52
    ortol = _ORTHOGONALISE * norm
    pertol = 10.0 * eps * norm
    tolerance = 64.0 * n * eps * norm
    rng = random.Random(20240)
    out: list[list[float]] = []
    cluster: list[list[float]] = []  # the vectors of the current cluster
    by_coordinate: list[list[float]] = [[] for _ in range(n)]
    previous = math.inf
    shifted_previous = math.inf
    dot = _dot
    for lj in lam:
        shift = lj
        if previous - lj > ortol:
            cluster = []
            by_coordinate = [[] for _ in range(n)]
        elif shift > shifted_previous - pertol:
            shift = shifted_previous - pertol  # equal eigenvalues: distinct shifts, distinct vectors
        previous, shifted_previous = lj, shift
        lu = _factor(a, b, shift, eps * norm)
        x = [rng.uniform(-1.0, 1.0) for _ in range(n)]
        for _ in range(_SOLVES):
            x = _solve(lu, x)
            for _pass in range(2 if cluster else 0):
                c = [dot(y, x) for y in cluster]
                x = list(map(operator.sub, x, map(dot, by_coordinate, itertools.repeat(c))))
            size = float_hypot(*x)
            if not (size > 0 and math.isfinite(size)):
                return None
            x = [v / size for v in x]
        # The residual ‖T·x - λ·x‖ with the eigenvalue itself (not the shift).
        worst = 0.0
        for i in range(n):
            r = (a[i] - lj) * x[i]
            if i:
                r += b[i - 1] * x[i - 1]
            if i < n - 1:
                r += b[i] * x[i + 1]
            worst = max(worst, abs(r))
        if not worst <= tolerance:
            return None
        out.append(x)
        cluster.append(x)
        for column, v in zip(by_coordinate, x):
            column.append(v)
    return out


def _fsum_dot(u: Sequence[float], v: Sequence[float]) -> float:
    return math.fsum(map(operator.mul, u, v))


#: A compensated dot product: ``fsum`` of the products (the kernel room's ``triple_dot`` where bound).
_dot: Callable[[Sequence[float], Sequence[float]], float] = fast.triple_dot or _fsum_dot


def _factor(a: list[float], b: list[float], shift: float, tiny: float) -> tuple[list[float], ...]:
    """LU factorisation with partial pivoting of the tridiagonal ``T - shift·I`` (LAPACK's dgttrf):
    multipliers ``dl``, pivots ``dd``, the two upper diagonals ``du``, ``du2`` and the row swaps;
    a zero pivot is replaced by ``tiny`` (the solve then gives the eigenvector's direction)."""
    n = len(a)
    dd = [x - shift for x in a]
    dl = list(b)
    du = list(b)
    du2 = [0.0] * max(n - 2, 0)
    swap = [0.0] * max(n - 1, 0)
    for i in range(n - 1):
        if abs(dd[i]) >= abs(dl[i]):
            if dd[i] == 0.0:
                dd[i] = tiny
            f = dl[i] / dd[i]
            dl[i] = f
            dd[i + 1] -= f * du[i]
        else:
            f = dd[i] / dl[i]
            dd[i] = dl[i]
            dl[i] = f
            t = du[i]
            du[i] = dd[i + 1]
            dd[i + 1] = t - f * dd[i + 1]
            if i < n - 2:
                du2[i] = du[i + 1]
                du[i + 1] = -f * du[i + 1]
            swap[i] = 1.0
    if dd[n - 1] == 0.0:
        dd[n - 1] = tiny
    return dl, dd, du, du2, swap


def _solve(lu: tuple[list[float], ...], rhs: list[float]) -> list[float]:
    """``(T - shift·I)⁻¹·rhs`` from the factors of :func:`_factor` (LAPACK's dgttrs), the right-hand
    side first scaled to a largest entry of one."""
    dl, dd, du, du2, swap = lu
    n = len(dd)
    big = max(max(rhs), -min(rhs))
    x = [v / big for v in rhs] if big > 0 else list(rhs)
    for i in range(n - 1):
        if swap[i]:
            t = x[i]
            x[i] = x[i + 1]
            x[i + 1] = t - dl[i] * x[i]
        else:
            x[i + 1] -= dl[i] * x[i]
    x[n - 1] /= dd[n - 1]
    if n > 1:
        x[n - 2] = (x[n - 2] - du[n - 2] * x[n - 1]) / dd[n - 2]
    for i in range(n - 3, -1, -1):
        x[i] = (x[i] - du[i] * x[i + 1] - du2[i] * x[i + 2]) / dd[i]
    return x
