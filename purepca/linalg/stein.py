"""Eigenvectors of a large symmetric matrix without accumulating the QL rotations.

The implicit QL method (:mod:`purepca.linalg.tridiagonal`) applies every plane
rotation to the n x n matrix of vectors: about ``n²`` rotations of rows of
length n, ``3n³`` multiplications in interpreted list comprehensions, which at
n = 500 is most of a minute in CPython.  Its eigenvalues alone cost ``O(n²)``.
This module reduces the matrix to T by Householder reflections in panels
(:func:`_householder`, LAPACK's ``dsytrd``), keeps the eigenvalues from QL and
finds the eigenvectors of T by inverse iteration, as LAPACK's ``dstein`` does:
for each eigenvalue λ, two or three solves with ``T - λI`` (an LU
factorisation with partial pivoting of a tridiagonal matrix, ``O(n)``),
vectors of eigenvalues closer than ``1e-9·‖T‖`` orthogonalised against each
other at every step (classical Gram–Schmidt, twice), and the
back-transformation ``Q·y`` by blocks of reflections in the compact WY form
(:func:`_back_transform`, LAPACK's ``dormtr``).  Every product in the
reduction and the back-transformation is a dot product in one C loop.

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

from ..numeric import _CPYTHON, Context, Scalar
from .jacobi import EighResult
from .matrix import max_abs
from .tridiagonal import tridiagonal_ql, tridiagonalize

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
    if _C_LOOPS:
        diag, sub, reflections = _householder(M)
    else:  # PyPy: its JIT compiles the step-by-step reduction's loops, and Dot2 (2.4x faster there)
        diag, sub, Qt = tridiagonalize(M, ctx)
    a, b = list(diag), list(sub[: n - 1])
    values = list(diag)
    e = list(sub)
    iterations, rotations = tridiagonal_ql(values, e, [[] for _ in range(n)], ctx)
    order = sorted(range(n), key=values.__getitem__, reverse=True)
    lam = [values[i] for i in order]
    ys = _tridiagonal_vectors(a, b, lam)
    if ys is None:
        return None
    if _C_LOOPS:
        vectors = _back_transform(reflections, ys, n)
    else:
        Q = [list(col) for col in zip(*Qt)]  # rows of Q = columns of Qᵀ: (Q·y)_i = Q[i]·y
        vectors = [ctx.dots(Q, y) for y in ys]
    if scale:
        lam = [math.ldexp(v, scale) for v in lam]
    return EighResult(lam, vectors, iterations, rotations)


#: Whether the reduction and the back-transformation run as dot products in C loops (CPython); on
#: PyPy the step-by-step reduction and Dot2 are faster (500 x 2,000 fit: 6.3 s against 15 s).
_C_LOOPS = _CPYTHON
#: Steps of the reduction whose rank-two updates are applied together (:func:`_householder`).
_PANEL = 32


def _householder(M: list[list[float]]) -> tuple[list[float], list[float], list[tuple[list[float], float]]]:
    """Householder reduction of the symmetric float matrix M to tridiagonal form: the diagonal, the
    subdiagonal and the reflections ``(v_k, β_k)``, ``H_k = I - β_k·v_k·v_kᵀ`` on coordinates
    k+1..n-1 (``v_k`` empty where column k is already reduced), as
    :func:`~purepca.linalg.tridiagonal.tridiagonalize` computes them, in panels.

    The same reflections as one rank-two update ``A ← A - v·wᵀ - w·vᵀ`` per step (LAPACK's dsytd2),
    with the updates of a panel of ``_PANEL`` steps delayed (LAPACK's dsytrd and dlatrd): within a
    panel, the column to reduce and the product ``A·v`` are corrected by the panel's earlier
    ``(v, w)`` pairs (2i dot products per entry's sum, in C loops), and at its end the trailing
    matrix takes all of them at once, each entry one compensated dot product of length 2·``_PANEL``.
    The interpreted update of every entry at every step (n³/3 list-comprehension elements, 1.8 s
    at n = 500 on CPython 3.13) becomes n³/(3·_PANEL) dot products.  The arithmetic is the same
    sums grouped differently, each rounded once (``math.sumprod`` or fsum): as backward stable
    as the step-by-step reduction.

    >>> d, e, reflections = _householder([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 2.0]])
    >>> [round(x, 12) for x in d], [round(abs(x), 12) for x in e], len(reflections)
    ([2.0, 3.0, 1.0], [1.414213562373, 0.0, 0.0], 1)
    """
    n = len(M)
    sumprod = _dot
    sub = operator.sub
    repeat = itertools.repeat
    hypot = math.hypot
    A = [list(row) for row in M]  # rows and columns from the current panel's start are up to date
    d = [0.0] * n
    e = [0.0] * n
    reflections: list[tuple[list[float], float]] = []
    start = 0
    while start < n - 2:
        end = min(n - 2, start + _PANEL)
        Vs: list[list[float]] = []  # the panel's v and w, padded with zeros to length n
        Ws: list[list[float]] = []
        for k in range(start, end):
            x = A[k][k:]
            if Vs:
                vecs, coef = [], []
                for v_, w_ in zip(Vs, Ws):
                    vecs.append(v_[k:])
                    coef.append(w_[k])
                    vecs.append(w_[k:])
                    coef.append(v_[k])
                x = list(map(sub, x, map(sumprod, zip(*vecs), repeat(coef))))
            d[k] = x[0]
            col = x[1:]
            x0 = col[0]
            if hypot(*col[1:]) == 0:
                e[k] = x0
                reflections.append(([], 0.0))
                continue
            norm_x = hypot(*col)
            alpha = -norm_x if x0 > 0 else norm_x
            v = [xi / norm_x for xi in col]
            u0 = v[0]
            v[0] = u0 + 1.0 if x0 > 0 else u0 - 1.0
            beta = 1.0 / (1.0 + abs(u0))
            lo = k + 1
            p = [sumprod(row[lo:], v) for row in A[lo:]]
            if Vs:
                vecs, coef = [], []
                for v_, w_ in zip(Vs, Ws):
                    vl, wl = v_[lo:], w_[lo:]
                    vecs.append(vl)
                    coef.append(sumprod(wl, v))
                    vecs.append(wl)
                    coef.append(sumprod(vl, v))
                p = list(map(sub, p, map(sumprod, zip(*vecs), repeat(coef))))
            p = [beta * pi for pi in p]
            K = beta * 0.5 * sumprod(p, v)
            w = [pi - K * vi for pi, vi in zip(p, v)]
            e[k] = alpha
            reflections.append((v, beta))
            pad = [0.0] * lo
            Vs.append(pad + v)
            Ws.append(pad + w)
        if Vs:
            # The panel's updates, all at once, to the rows and columns from ``end`` on.
            vecs = []
            for v_, w_ in zip(Vs, Ws):
                vecs.append(v_[end:])
                vecs.append(w_[end:])
            columns = [list(t) for t in zip(*vecs)]
            for t in range(end, n):
                coef = []
                for v_, w_ in zip(Vs, Ws):
                    coef.append(w_[t])
                    coef.append(v_[t])
                row = A[t]
                A[t] = row[:end] + list(map(sub, row[end:], map(sumprod, columns, repeat(coef))))
        start = end
    if n >= 2:
        d[n - 2], e[n - 2], d[n - 1] = A[n - 2][n - 2], A[n - 2][n - 1], A[n - 1][n - 1]
    elif n == 1:
        d[0] = A[0][0]
    return d, e, reflections


#: Reflections applied together by :func:`_back_transform` (LAPACK's dormtr takes 32 or 64).
_BLOCK = 32


def _back_transform(reflections: list[tuple[list[float], float]], ys: list[list[float]], n: int) -> list[list[float]]:
    """``Q·y`` for each y, ``Q = H_0·H_1···H_(n-3)`` given by its reflections, without forming Q.

    The reflections are taken in blocks of ``_BLOCK``, last block first; a block's product
    ``P = H_s···H_(s+b-1)`` is ``I - V·T·Vᵀ`` (the compact WY form: Schreiber and Van Loan, SIAM J.
    Sci. Stat. Comput. 10, 1989; LAPACK's dlarft and dlarfb), V the reflection vectors as columns
    and T upper triangular, so ``P·y = y - V·(T·(Vᵀ·y))`` is b dot products of length m, b of
    length b and m of length b (one C loop each, ``math.sumprod`` or fsum), where applying the b
    reflections one by one costs b interpreted row operations of length m.  As backward stable as
    the reflections one by one (the same product, grouped; LAPACK's dormtr).  At n = 500 it
    replaces the accumulation of Qᵀ (n³/3 interpreted multiply-adds) and the n² dot products of
    ``Q·y`` (n³ pairs), 3.4 s of CPython 3.13's fit of 500 x 2,000, by about n³ pairs in C loops.

    >>> from purepca.linalg.tridiagonal import tridiagonalize
    >>> A = [[4.0, 1.0, 2.0, 0.5], [1.0, 3.0, 0.0, 1.0], [2.0, 0.0, 5.0, 1.5], [0.5, 1.0, 1.5, 2.0]]
    >>> _, _, reflections = _householder(A)
    >>> Qt = tridiagonalize(A)[2]
    >>> y = [0.1, -0.2, 0.3, 0.4]
    >>> Qy = _back_transform(reflections, [y], 4)[0]
    >>> max(abs(a - sum(q[i] * y[j] for j, q in enumerate(Qt))) for i, a in enumerate(Qy)) < 1e-15
    True
    """
    sumprod = _dot
    sub, mul = operator.sub, operator.mul
    vectors = [list(y) for y in ys]
    count = len(reflections)
    for start in range(((count - 1) // _BLOCK) * _BLOCK if count else -1, -1, -_BLOCK):
        V: list[list[float]] = []
        betas: list[float] = []
        for offset, (v, beta) in enumerate(reflections[start:start + _BLOCK]):
            if v:  # v acts on coordinates start + offset + 1..: padded to start + 1..
                V.append([0.0] * offset + [float(x) for x in v])
                betas.append(float(beta))
        if not V:
            continue
        b = len(V)
        # T (LAPACK's dlarft, forward): T[i][i] = β_i, T[:i, i] = -β_i·T[:i, :i]·(V[:, :i]ᵀ·v_i).
        T = [[0.0] * b for _ in range(b)]
        for i in range(b):
            T[i][i] = betas[i]
            if i:
                g = [sumprod(V[j], V[i]) for j in range(i)]
                column = [-betas[i] * sumprod(T[r][:i], g) for r in range(i)]
                for r in range(i):
                    T[r][i] = column[r]
        lo = start + 1
        # The rows of V (one per coordinate lo..n-1), laid out afresh: each a short contiguous list.
        VT = [list(map(mul, row, itertools.repeat(1.0))) for row in zip(*V)]
        for idx, y in enumerate(vectors):
            tail = y[lo:]
            z = [sumprod(v, tail) for v in V]
            w = [sumprod(t, z) for t in T]
            vectors[idx] = y[:lo] + list(map(sub, tail, map(sumprod, VT, itertools.repeat(w))))
    return vectors


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
    sumprod = _dot
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
                c = [sumprod(y, x) for y in cluster]
                x = list(map(operator.sub, x, map(sumprod, by_coordinate, itertools.repeat(c))))
            size = math.hypot(*x)
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


#: A compensated dot product: ``math.sumprod`` on Python 3.12+ (in C), else ``fsum`` of the products.
_dot: Callable[[Sequence[float], Sequence[float]], float] = getattr(math, "sumprod", _fsum_dot)


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
