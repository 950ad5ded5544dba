"""Householder tridiagonalisation and the implicit QL iteration: the symmetric
eigenproblem in about ``3n³`` operations instead of Jacobi's ``10n³`` or more.

What is inside:

==========================  ===================================================
``tridiagonal_eigh(A)``     eigenvalues (descending) and eigenvectors (rows)
``tridiagonalize(A)``       ``A = Q·T·Qᵀ``: T's diagonal and subdiagonal, Qᵀ
``tridiagonal_ql(d, e)``    eigenpairs of a symmetric tridiagonal matrix
``TridiagonalStep``         what the ``trace`` callback receives
==========================  ===================================================

The method is that of EISPACK's ``tred2``/``tql2`` (Wilkinson and Reinsch,
*Handbook for Automatic Computation II*, contributions II/2 and II/3, 1971),
of LAPACK's ``dsytrd`` + ``dsteqr`` and of mpmath's ``eigsy``:

1. *Householder reduction.*  For k = 0, 1, ..., n-3 a reflection
   ``H_k = I - β·v·vᵀ`` acting on coordinates k+1..n-1 maps column k below
   the diagonal onto a multiple of the first unit vector; the trailing block
   is updated as the rank-two change ``A ← A - v·wᵀ - w·vᵀ`` with
   ``p = β·A·v``, ``w = p - (β·pᵀv/2)·v``.  After n-2 steps the matrix is
   tridiagonal, ``T = Qᵀ·A·Q`` with ``Q = H_0·H_1···H_(n-3)``.
2. *Implicit QL with Wilkinson's shift* (``tql2``).  Each iteration chases
   a bulge up the tridiagonal matrix with plane rotations; the subdiagonal
   entry next to the shift converges cubically.  An entry is negligible when
   ``|e_m| <= eps·max(|d_i| + |e_i|)``: an absolute test, so the eigenvalues
   carry an error of about ``eps·‖A‖`` (as every QR-type method does; use
   :func:`~purepca.linalg.jacobi.jacobi_eigh` where small eigenvalues of a
   graded matrix must keep their relative accuracy).
3. The rotations are applied to the rows of ``Qᵀ``, so that the rows end as
   the eigenvectors of A.

Everything works in a number context: ``context=DecimalContext(50)`` gives a
50-digit answer from the same code.

>>> r = tridiagonal_eigh([[4, 1, 0], [1, 3, 1], [0, 1, 2]])
>>> [round(v, 10) for v in r.values]
[4.7320508076, 3.0, 1.2679491924]
>>> A = [[4, 1, 0], [1, 3, 1], [0, 1, 2]]
>>> max(abs(sum(a * x for a, x in zip(row, r.vectors[0])) - r.values[0] * xi)
...     for row, xi in zip(A, r.vectors[0])) < 1e-14
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Optional

from ..errors import ConvergenceError, PurePCAError
from ..numeric import FLOAT, Context, Scalar, check_context
from ..params import check_callback
from .. import fast
from ..numeric import float_hypot
from .jacobi import EighResult, _scaled_back
from .matrix import _max_abs as max_abs  # rows validated here: the worker
from .matrix import as_matrix, as_symmetric, as_vector

__all__ = ["TridiagonalStep", "ql_step", "tridiagonal_eigh", "tridiagonal_ql", "tridiagonalize"]


@dataclass(frozen=True)
class TridiagonalStep:
    """One event of a tridiagonal run, as given to a ``trace`` callback.

    ``kind`` is ``"householder"`` (``index`` = k, ``value`` = the norm of the
    part of column k that the reflection folds onto the subdiagonal) or
    ``"ql"`` (one QL iteration on eigenvalue ``index``: ``value`` = the
    subdiagonal entry ``|e_l|`` after it, which falls to the tolerance
    ``tolerance``; ``shift`` = the shift used, in the units of T: the
    iteration factors ``T - shift·I``).

    For the step player (:mod:`purepca.player`), at the solver's own
    precision: of a reflection, ``reflector`` = the vector ``v`` of
    ``H_k = I - beta·v·vᵀ`` (acting on rows and columns ``k+1..``; empty when
    the column is already reduced), ``beta``, and ``alpha`` the new
    subdiagonal entry ``e_k``.  A matrix near overflow or underflow is scaled
    by a power of two first; every event is given in the input's units.

    Of a QL iteration, also at the solver's own precision (of the scaled
    matrix too): ``before`` and ``after``, each ``(diagonal, subdiagonal)``
    of T as it stands before and after the iteration (``subdiagonal[i] =
    T[i+1][i]``, n - 1 of them; the shift applied so far is added back);
    ``chase``, one ``(i, c, s, bulge)`` per plane rotation in the order
    applied, the rotation acting on rows and columns ``i`` and ``i + 1`` and
    leaving the bulge ``|T[i-1][i+1]|`` (zero for the last one); and
    ``deflated``, whether ``|e_l|`` is now below the tolerance, so that
    ``d_l`` is an eigenvalue and the iteration moves on to ``l + 1``.  Of a
    reflection, ``block`` is the trailing block (rows and columns ``k+1..``)
    still to reduce after it: the matrix then is T's first k+1 diagonal
    entries and k+1 subdiagonal entries (the last being ``alpha``) above it.
    """

    kind: str
    index: int
    value: float
    shift: float = 0.0
    tolerance: float = 0.0
    reflector: Optional[tuple[Any, ...]] = None
    beta: Any = None
    alpha: Any = None
    before: Optional[tuple[tuple[Any, ...], tuple[Any, ...]]] = None
    after: Optional[tuple[tuple[Any, ...], tuple[Any, ...]]] = None
    chase: tuple[tuple[int, Any, Any, Any], ...] = ()
    deflated: bool = False
    block: Optional[tuple[tuple[Any, ...], ...]] = None


#: The shifts :func:`tridiagonal_ql` knows: Wilkinson's (the eigenvalue of the leading 2 x 2 block
#: nearer to ``d_l``; the default, cubic convergence), Rayleigh's (``d_l`` itself) and none.
SHIFTS = ("wilkinson", "rayleigh", "none")

Trace = Optional[Callable[[TridiagonalStep], None]]


def tridiagonalize(
    M: list[list[Scalar]], ctx: Context = FLOAT, trace: Trace = None
) -> tuple[list[Scalar], list[Scalar], list[list[Scalar]]]:
    """Householder reduction of a symmetric matrix (rows, not modified; its lower triangle is read).

    Returns ``(d, e, Qt)``: the diagonal, the subdiagonal (``e[i] = T[i+1][i]``,
    with ``e[n-1] = 0``) and the rows of ``Qᵀ``, so that ``A = Q·T·Qᵀ``.

    >>> d, e, Qt = tridiagonalize([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 2.0]])
    >>> [round(x, 12) for x in d], [round(abs(x), 12) for x in e]
    ([2.0, 3.0, 1.0], [1.414213562373, 0.0, 0.0])
    """
    ctx = check_context(ctx)
    check_callback(trace, "trace")
    if not (isinstance(M, list) and not M):  # [] is the empty matrix: nothing to reduce
        rows = as_matrix(M, name="M", context=ctx, copy=False)
        if any(len(row) != len(rows) for row in rows):
            raise PurePCAError(f"M must be a square matrix, got {len(rows)} x {len(rows[0])}")
        M = rows
    with ctx.local():
        return _tridiagonalize(M, ctx, trace)


def _tridiagonalize(
    M: list[list[Scalar]], ctx: Context, trace: Trace
) -> tuple[list[Scalar], list[Scalar], list[list[Scalar]]]:
    """The worker behind :func:`tridiagonalize`: M validated (square, numbers of ``ctx``)."""
    n = len(M)
    zero = ctx.zero
    dot = ctx.dot
    d: list[Scalar] = [zero] * n
    e: list[Scalar] = [zero] * n
    reflections: list[tuple[list[Scalar], Scalar]] = []
    S = [list(row) for row in M]  # the trailing block still to reduce
    for k in range(n - 2):
        row = S[0]
        d[k] = row[0]
        x = row[1:]
        x0 = x[0]
        tail = ctx.norm(x[1:])
        if tail == 0:
            # Already in tridiagonal form in this column: H_k = I.
            e[k] = x0
            reflections.append(([], zero))
            S = [r[1:] for r in S[1:]]
            if trace is not None:
                trace(TridiagonalStep("householder", k, 0.0, reflector=(), beta=zero, alpha=x0,
                                     block=tuple(map(tuple, S))))
            continue
        norm_x = ctx.norm(x)
        alpha = -norm_x if x0 > 0 else norm_x
        # The reflector from x/‖x‖, as LAPACK's dlarfg rescales: ‖x‖² can
        # underflow (and 1/‖x‖² overflow) in a column far smaller than the
        # matrix.  v = (x - alpha·e0)/‖x‖, vᵀv = 2·(1 + |u0|): no cancellation
        # whatever the sign of x0.
        v = [xi / norm_x for xi in x]
        u0 = v[0]
        v[0] = u0 + ctx.one if x0 > 0 else u0 - ctx.one
        beta = ctx.one / (ctx.one + abs(u0))
        block = [r[1:] for r in S[1:]]
        p = [beta * dot(r, v) for r in block]
        K = beta * ctx.half * dot(p, v)
        w = [pi - K * vi for pi, vi in zip(p, v)]
        S = [
            [a - vi * wj - wi * vj for a, wj, vj in zip(r, w, v)]
            for r, vi, wi in zip(block, v, w)
        ]
        e[k] = alpha
        reflections.append((v, beta))
        if trace is not None:
            trace(TridiagonalStep("householder", k, float(norm_x), reflector=tuple(v), beta=beta, alpha=alpha,
                                 block=tuple(map(tuple, S))))
    if n >= 2:
        d[n - 2], e[n - 2], d[n - 1] = S[0][0], S[0][1], S[1][1]
    elif n == 1:
        d[0] = S[0][0]
    # Qᵀ = H_(n-3)···H_1·H_0, accumulated backwards so that each reflection
    # touches only the block it acts on: rows and columns k+1..n-1.
    Qt = [[ctx.one if i == j else zero for j in range(n)] for i in range(n)]
    for k in range(len(reflections) - 1, -1, -1):
        v, beta = reflections[k]
        if not v:
            continue
        lo = k + 1
        for r in Qt[lo:]:
            part = r[lo:]
            c = beta * dot(part, v)
            if c:
                r[lo:] = [a - c * vi for a, vi in zip(part, v)]
    return d, e, Qt


def _wilkinson_shift(d: list[Scalar], e: list[Scalar], l: int, eps: Scalar, one: Scalar, two: Scalar,
                     hypot: Callable[[Scalar, Scalar], Scalar]) -> tuple[Scalar, Scalar, Scalar]:
    """Wilkinson's shift from the leading 2 x 2 block at ``l``: set ``d[l]``, ``d[l + 1]`` to the
    shifted block's values and return the old ``d[l]``, the new ``d[l + 1]`` and the shift ``h``."""
    g = d[l]
    num = d[l + 1] - g
    if abs(num) * eps > abs(two * e[l]):
        # p = num/(2e) beyond 1/eps (it may overflow): then hypot(p, 1) = |p| and p + r = 2p, so
        # e/(p + r) = e·(e/num) and e·(p + r) = num, without forming p.
        d[l] = e[l] * (e[l] / num)
        d[l + 1] = num
    else:
        p = num / (two * e[l])
        r = hypot(p, one)
        if p < 0:
            r = -r
        d[l] = e[l] / (p + r)
        d[l + 1] = e[l] * (p + r)
    return g, d[l + 1], g - d[l]


def _chase_bulge(d: list[Scalar], e: list[Scalar], Z: list[list[Scalar]], l: int, m: int, one: Scalar, zero: Scalar,
                 hypot: Callable[[Scalar, Scalar], Scalar],
                 record: Optional[list[tuple[int, Scalar, Scalar, Scalar, Scalar]]] = None,
                 ) -> tuple[Scalar, Scalar, Scalar, Scalar, Scalar]:
    """Chase the bulge from ``m`` up to ``l`` with plane rotations, applied to the rows of ``Z``;
    return the last rotation's ``c`` and ``s``, the ``s`` and ``c`` of two before, and ``e[l + 1]``
    as it was (what the end of the QL step needs).  ``record`` receives ``(i, c, s, bulge, p)``
    per rotation: the bulge ``|s·e[i-1]|`` it leaves at (i-1, i+1), and ``p``."""
    p = d[m]
    c = c2 = c3 = one
    el1 = e[l + 1]
    s = s2 = zero
    for i in range(m - 1, l - 1, -1):
        c3 = c2
        c2 = c
        s2 = s
        g = c * e[i]
        h = c * p
        r = hypot(p, e[i])
        e[i + 1] = s * r
        s = e[i] / r
        c = p / r
        p = c * d[i] - s * g
        d[i + 1] = h + s * (c * g + s * d[i])
        if record is not None:  # the rotation in the plane (i, i+1) leaves s·e[i-1] at (i-1, i+1)
            record.append((i, c, s, abs(s * e[i - 1]) if i > l else zero, p))
        zi, zj = Z[i], Z[i + 1]
        if _fast_rotate is not None:
            _fast_rotate(zi, zj, c, s)  # the same bits, in place (purepca.fast)
        else:
            Z[i + 1] = [s * a + c * b for a, b in zip(zi, zj)]
            Z[i] = [c * a - s * b for a, b in zip(zi, zj)]
    return c, s, s2, c3, el1


_fast_rotate = fast.rotate


def _tridiagonal_state(d: list[Scalar], e: list[Scalar], l: int, f: Scalar
                       ) -> tuple[tuple[Scalar, ...], tuple[Scalar, ...]]:
    """T's diagonal and subdiagonal as they stand inside :func:`tridiagonal_ql` at eigenvalue ``l``
    (the entries from ``l`` on still carry the shift ``f`` taken off so far)."""
    return (tuple(x if i < l else x + f for i, x in enumerate(d)), tuple(e[:-1]))


def _hypot_of(ctx: Context) -> Callable[[Scalar, Scalar], Scalar]:
    """``sqrt(a² + b²)`` in the context: for floats safe against overflow (``numeric.float_hypot``)."""
    if isinstance(ctx.zero, float):
        return float_hypot
    sqrt = ctx.sqrt

    def hypot(a: Scalar, b: Scalar) -> Scalar:
        return sqrt(a * a + b * b)

    return hypot


def _ql_shift(d: list[Scalar], e: list[Scalar], l: int, shift: str, eps: Scalar, one: Scalar, two: Scalar,
              zero: Scalar, hypot: Callable[[Scalar, Scalar], Scalar]) -> tuple[Scalar, Scalar]:
    """Take the shift ``h`` off T's diagonal from row ``l`` on (Wilkinson's, Rayleigh's ``d_l`` or none);
    return ``h`` and the new ``d[l + 1]``."""
    if shift == "wilkinson":
        g, dl1, h = _wilkinson_shift(d, e, l, eps, one, two, hypot)
    else:  # Rayleigh's d_l, or none
        g = d[l]
        h = g if shift == "rayleigh" else zero
        d[l] = g - h
        d[l + 1] = dl1 = d[l + 1] - h
    for i in range(l + 2, len(d)):
        d[i] = d[i] - h
    return h, dl1


def _ql_not_converged(limit: int, l: int, n: int, e: list[Scalar], tolerance: Scalar) -> ConvergenceError:
    return ConvergenceError(
        f"tridiagonal QL did not converge in {limit} iterations: eigenvalue {l + 1} of {n} "
        f"still has a subdiagonal entry of {float(abs(e[l])):.3e} (tolerance {float(tolerance):.3e})",
        iterations=limit,
        residual=float(abs(e[l])),
    )


def tridiagonal_ql(
    d: list[Scalar],
    e: list[Scalar],
    Z: list[list[Scalar]],
    ctx: Context = FLOAT,
    *,
    max_iter: Optional[int] = None,
    trace: Trace = None,
    shift: str = "wilkinson",
) -> tuple[int, int]:
    """Implicit QL with Wilkinson's shift on the tridiagonal (d, e), in place.

    ``d`` becomes the eigenvalues (unsorted); the rotations are applied to the
    rows of ``Z`` (start with the identity for T's eigenvectors, with ``Qᵀ``
    for A's).  ``e[i] = T[i+1][i]``; ``e[n-1]`` must be zero.  Returns
    ``(iterations, rotations)``.  Past ``max_iter`` iterations in all
    (default ``30·n``, LAPACK's), :class:`ConvergenceError`.  ``shift`` (one
    of ``SHIFTS``) picks the shift: ``"wilkinson"`` (cubic convergence),
    ``"rayleigh"`` (``d_l``: cubic where it converges, but it can stall, as
    on ``[[0, 1], [1, 0]]``) or ``"none"`` (linear, by the ratio of
    neighbouring eigenvalues); the other two are for teaching.

    >>> d, e = [2.0, 2.0], [1.0, 0.0]
    >>> Z = [[1.0, 0.0], [0.0, 1.0]]
    >>> tridiagonal_ql(d, e, Z)
    (1, 1)
    >>> sorted(round(x, 12) for x in d)
    [1.0, 3.0]
    """
    ctx = check_context(ctx)
    check_callback(trace, "trace")
    if max_iter is not None and (isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1):
        raise PurePCAError(f"max_iter must be a positive int, got {max_iter!r:.60}")
    if not isinstance(shift, str) or shift not in SHIFTS:
        raise PurePCAError(f"shift must be one of {', '.join(map(repr, SHIFTS))}, got {shift!r:.60}")
    for name, v in (("d", d), ("e", e)):
        if not isinstance(v, list):
            raise PurePCAError(f"{name} must be a list of numbers (changed in place), got {v!r:.60}")
        for i, x in enumerate(v):
            if not _is_number(x):
                raise PurePCAError(f"{name}[{i}] must be a real number (not NaN), got {x!r:.60}")
    if len(e) != len(d):
        raise PurePCAError(f"e must have as many entries as d ({len(d)}, e[n-1] = 0), got {len(e)}")
    if not isinstance(Z, list) or len(Z) != len(d) or not all(isinstance(row, list) for row in Z):
        raise PurePCAError(f"Z must be a list of {len(d)} rows (lists, changed in place), got {Z!r:.60}")
    if len({len(row) for row in Z}) > 1:
        raise PurePCAError("Z: its rows must all have the same length")
    with ctx.local():
        return _tridiagonal_ql(d, e, Z, ctx, max_iter=max_iter, trace=trace, shift=shift)


def _is_number(x: Any) -> bool:
    """A real number a context computes with (an int, float, Decimal or Fraction), not NaN.

    >>> _is_number(1.5), _is_number(float("nan")), _is_number("1")
    (True, False, False)
    """
    return (isinstance(x, (int, float, Decimal, Fraction)) and not isinstance(x, bool)
            and not (x.is_nan() if isinstance(x, Decimal) else x != x))


def _tridiagonal_ql(
    d: list[Scalar],
    e: list[Scalar],
    Z: list[list[Scalar]],
    ctx: Context,
    *,
    max_iter: Optional[int] = None,
    trace: Trace = None,
    shift: str = "wilkinson",
) -> tuple[int, int]:
    """The worker behind :func:`tridiagonal_ql`: d, e, Z checked, inside ``ctx.local()``."""
    n = len(d)
    if n == 0:
        return 0, 0
    limit = 30 * n if max_iter is None else max_iter
    zero, one, two = ctx.zero, ctx.one, ctx.two
    eps = ctx.eps
    hypot = _hypot_of(ctx)
    e[n - 1] = zero
    f = zero
    tst1 = zero
    iterations = rotations = 0
    for l in range(n):
        size = abs(d[l]) + abs(e[l])
        if size > tst1:
            tst1 = size
        m = l
        while m < n - 1 and abs(e[m]) > eps * tst1:
            m += 1
        if m > l:
            while True:
                iterations += 1
                if iterations > limit:
                    raise _ql_not_converged(limit, l, n, e, eps * tst1)
                before = None if trace is None else _tridiagonal_state(d, e, l, f)
                h, dl1 = _ql_shift(d, e, l, shift, eps, one, two, zero, hypot)
                f = f + h
                record: Optional[list[tuple[int, Scalar, Scalar, Scalar, Scalar]]] = \
                    None if trace is None and shift == "wilkinson" else []
                c, s, s2, c3, el1 = _chase_bulge(d, e, Z, l, m, one, zero, hypot, record)
                rotations += m - l
                if shift == "wilkinson":  # tql2's form, exact because the shifted leading 2 x 2 is singular
                    p = -s * s2 * c3 * el1 * e[l] / dl1
                else:
                    assert record is not None
                    p = record[-1][4]  # the Handbook's tql1/tql2 (1971) form: the chase's last p
                e[l] = s * p
                d[l] = c * p
                if trace is not None:
                    assert record is not None
                    trace(TridiagonalStep("ql", l, float(abs(e[l])), float(f), float(eps * tst1),
                                          before=before, after=_tridiagonal_state(d, e, l, f),
                                          chase=tuple(r[:4] for r in record), deflated=not abs(e[l]) > eps * tst1))
                if not abs(e[l]) > eps * tst1:
                    break
        d[l] = d[l] + f
        e[l] = zero
    return iterations, rotations


def ql_step(diagonal: Any, subdiagonal: Any, l: int = 0, shift: Any = "wilkinson") -> dict[str, Any]:
    """One implicit QL iteration on the symmetric tridiagonal T at row ``l``, with the shift a learner chose.

    ``diagonal`` (n) and ``subdiagonal`` (n - 1, ``T[i+1][i]``) are T as it
    stands; ``shift`` is ``"wilkinson"``, ``"rayleigh"``, ``"none"`` or a
    number σ (any value: the iteration factors ``T - σ·I``).  The step is
    :func:`tridiagonal_ql`'s (the same shift and chase, :func:`_chase_bulge`),
    on the block from l down to the first negligible subdiagonal entry, in
    floats.  Returns T after it (``diagonal``, ``subdiagonal``), the ``shift``
    used, the ``chase`` (``(i, c, s, bulge)`` per rotation), ``tolerance``,
    ``deflated`` (``|e_l|`` now below it) and ``next``, the row the next
    iteration works on (past every negligible entry; n - 1 when T is
    diagonal to the tolerance).  For the playground, where the shift is the
    learner's at each iteration (Heath's QR-iteration module).

    >>> step = ql_step([2.0, 2.0], [1.0], 0, "wilkinson")
    >>> sorted(round(x, 12) for x in step["diagonal"]), step["deflated"], step["next"]
    ([1.0, 3.0], True, 1)
    >>> ql_step([2.0, 2.0], [1.0], 0, 3.0)["shift"]
    3.0
    """
    d = [float(x) for x in as_vector(diagonal, name="diagonal")]
    e = [float(x) for x in as_vector(subdiagonal, name="subdiagonal")] if len(d) > 1 else []
    n = len(d)
    if len(e) != n - 1:
        raise PurePCAError(f"ql_step: T has {n} diagonal entries and needs {n - 1} subdiagonal ones, got {len(e)}")
    if isinstance(l, bool) or not isinstance(l, int) or not 0 <= l < max(n - 1, 1):
        raise PurePCAError(f"ql_step: l must be a row from 0 to {max(n - 2, 0)} with a subdiagonal entry, got {l!r}")
    if shift not in SHIFTS:
        try:
            sigma = as_vector([shift], name="shift")[0]
        except PurePCAError:
            raise PurePCAError(f"ql_step: shift must be one of {', '.join(map(repr, SHIFTS))} or a number, "
                               f"got {shift!r}") from None
    e.append(0.0)
    eps, hypot = FLOAT.eps, math.hypot
    tst1 = max(abs(a) + abs(b) for a, b in zip(d, e))
    tolerance = eps * tst1
    chase: list[tuple[int, float, float, float, float]] = []
    m = l
    while m < n - 1 and abs(e[m]) > tolerance:
        m += 1
    h = 0.0
    if m > l:
        if shift == "wilkinson":
            g, dl1, h = _wilkinson_shift(d, e, l, eps, 1.0, 2.0, hypot)
        else:
            h = d[l] if shift == "rayleigh" else 0.0 if shift == "none" else sigma
            d[l] -= h
            d[l + 1] -= h
            dl1 = d[l + 1]
        for i in range(l + 2, n):
            d[i] -= h
        c, s, s2, c3, el1 = _chase_bulge(d, e, [[] for _ in range(n)], l, m, 1.0, 0.0, hypot, chase)
        p = -s * s2 * c3 * el1 * e[l] / dl1 if shift == "wilkinson" else chase[-1][4]
        e[l] = s * p
        d[l] = c * p
        d = [x + h if i >= l else x for i, x in enumerate(d)]
    nxt = l
    while nxt < n - 1 and abs(e[nxt]) <= tolerance:
        nxt += 1
    return {"diagonal": d, "subdiagonal": e[:-1], "shift": h, "chase": [r[:4] for r in chase],
            "tolerance": tolerance, "deflated": abs(e[l]) <= tolerance, "next": nxt}


def tridiagonal_eigh(
    A: Any,
    *,
    max_iter: Optional[int] = None,
    context: Context = FLOAT,
    symmetry_rtol: float = 1e-10,
    trace: Trace = None,
    shift: str = "wilkinson",
) -> EighResult:
    """Eigenvalues and eigenvectors of a symmetric matrix by Householder
    tridiagonalisation and implicit QL (EISPACK's ``tred2`` + ``tql2``).

    Parameters
    ----------
    A : n x n symmetric matrix (any sequence of rows; never modified)
        Symmetry is checked to ``symmetry_rtol`` times the largest entry;
        within it the upper triangle is used.
    max_iter : QL iterations allowed in all, default ``30·n``; past it,
        :class:`ConvergenceError` with the subdiagonal entry reached.
    context : number context; ``DecimalContext(50)`` gives a 50-digit result.
    trace : optional callable receiving a :class:`TridiagonalStep` per
        Householder reflection and per QL iteration.
    shift : the QL shift, one of ``SHIFTS`` (see :func:`tridiagonal_ql`).

    Returns
    -------
    :class:`~purepca.linalg.jacobi.EighResult` with ``values`` (descending),
    ``vectors`` (rows), ``sweeps`` = QL iterations and ``rotations`` = plane
    rotations applied.

    Every eigenvalue is accurate to about ``n·eps·‖A‖`` (absolute), the
    accuracy any backward-stable method reaches and the accuracy a matrix
    whose entries were themselves rounded (a covariance, a kernel) supports.
    Matrices near overflow or underflow are scaled by a power of two first.

    >>> r = tridiagonal_eigh([[2, 1], [1, 2]])
    >>> [round(v, 12) for v in r.values]
    [3.0, 1.0]
    >>> steps = []
    >>> _ = tridiagonal_eigh([[4, 1, 2], [1, 3, 1], [2, 1, 2]], trace=steps.append)
    >>> [s.kind for s in steps][:2]
    ['householder', 'ql']
    """
    ctx = check_context(context)
    check_callback(trace, "trace")
    if max_iter is not None and (isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1):
        raise PurePCAError(f"max_iter must be a positive int, got {max_iter!r}")
    if shift not in SHIFTS:
        raise PurePCAError(f"shift must be one of {', '.join(map(repr, SHIFTS))}, got {shift!r}")
    M = as_symmetric(A, name="A", context=ctx, rtol=symmetry_rtol)
    with ctx.local():
        return _tridiagonal_eigh(M, ctx, max_iter, trace, shift)


def _unscaled(trace: Callable[[TridiagonalStep], None], scale: int, ctx: Context) -> Callable[[TridiagonalStep], None]:
    """``trace`` given the events of a matrix scaled by ``2**-scale`` in the input's units (the reflectors,
    beta and the rotations' c and s do not depend on the scale)."""
    def up(x: Any) -> Any:
        return ctx.ldexp(x, scale)

    def state(pair: Optional[tuple[tuple[Any, ...], tuple[Any, ...]]]) -> Any:
        return None if pair is None else (tuple(map(up, pair[0])), tuple(map(up, pair[1])))

    def unscaled(step: TridiagonalStep) -> None:
        trace(replace(step, value=math.ldexp(step.value, scale), shift=math.ldexp(step.shift, scale),
                      tolerance=math.ldexp(step.tolerance, scale),
                      alpha=None if step.alpha is None else up(step.alpha),
                      before=state(step.before), after=state(step.after),
                      chase=tuple((i, c, s, up(b)) for i, c, s, b in step.chase),
                      block=None if step.block is None else tuple(tuple(map(up, row)) for row in step.block)))
    return unscaled


def _tridiagonal_eigh(M: list[list[Scalar]], ctx: Context, max_iter: Optional[int], trace: Trace,
                      shift: str = "wilkinson") -> EighResult:
    """The worker behind :func:`tridiagonal_eigh`: M validated, inside ``ctx.local()``."""
    n = len(M)
    if n <= 1:
        return EighResult([row[0] for row in M], [[ctx.one]] if n else [], 0, 0)
    scale = ctx.scale_exponent(max_abs(M)) if ctx.needs_scaling else 0
    if scale:
        M = [[ctx.ldexp(x, -scale) for x in row] for row in M]
        if trace is not None:
            trace = _unscaled(trace, scale, ctx)
    d, e, Z = _tridiagonalize(M, ctx, trace)
    iterations, rotations = _tridiagonal_ql(d, e, Z, ctx, max_iter=max_iter, trace=trace, shift=shift)
    values = _scaled_back(d, scale, ctx, "an eigenvalue")
    order = sorted(range(n), key=values.__getitem__, reverse=True)
    return EighResult([values[i] for i in order], [Z[i] for i in order], iterations, rotations)
