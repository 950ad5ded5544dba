"""Geometry of the comparison: angles between spans, signs, clusters, residuals.

===========================================  ==================================
``subspace_distance(A, B)``                  the largest principal angle between
                                             two spans of the same dimension
``angle_inside(B, A)``                       how far span(B) leaves span(A)
                                             (dim B <= dim A)
``angle_from(B, O)``                         how far span(B) is from being
                                             orthogonal to span(O)
``align_signs(components, reference)``       flip rows to agree with a reference
``eigen_clusters(values, tol)``              groups of (nearly) equal eigenvalues
``residual_bound(A_or_X, values, vectors)``  ``‖A·v - λ·v‖`` per pair
``sign_determined(v, rule, angle)``          whether a sign rule fixes v's sign
===========================================  ==================================

>>> round(angle_inside([[1.0, 1.0, 0.0]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), 15)
0.0
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

from ..conventions import SIGN_RULES
from ..errors import PurePCAError
from ..linalg.jacobi import jacobi_svd
from ..linalg.matrix import as_matrix, as_vector
from ..numeric import FLOAT
from ..params import _not_one_of, as_real

__all__ = ["align_signs", "angle_from", "angle_inside", "eigen_clusters", "residual_bound", "sign_determined",
           "subspace_distance"]


def _rows(data: Any, name: str) -> list[list[float]]:
    # (as_matrix returns fresh rows of floats: a second copy only where a row holds a float subclass)
    return [row if all(type(x) is float for x in row) else [float(x) for x in row]
            for row in as_matrix(data, name=name)]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return FLOAT.dot(a, b)


def _orthonormal(rows: list[list[float]], name: str) -> list[list[float]]:
    """An orthonormal basis of the span of ``rows``, in order (Gram–Schmidt, twice, compensated)."""
    out: list[list[float]] = []
    for i, row in enumerate(rows):
        # Divided by its largest entry first (the span is the same): a row at 1e154 or 1e-200 would
        # overflow or underflow its squares.
        top = max(map(abs, row))
        if not top > 0:
            raise PurePCAError(f"{name}: row {i} is all zeros; a basis is needed (one row per direction)")
        v = [x / top for x in row]
        size = math.sqrt(_dot(v, v))
        for _ in range(2):  # "twice is enough"
            for q in out:
                c = _dot(q, v)
                v = [x - c * y for x, y in zip(v, q)]
        norm = math.sqrt(_dot(v, v))
        if not norm > 1e-12 * size or not norm > 0:
            raise PurePCAError(f"{name}: row {i} lies in the span of the rows before it; a basis is needed")
        out.append([x / norm for x in v])
    return out


def subspace_distance(A: Any, B: Any) -> float:
    """The largest principal angle (radians) between the spans of the rows of ``A`` and of ``B``.

    Both sets of rows are orthonormalised first.  The angle is
    ``atan2(s, c)`` with ``s`` the largest singular value of the part of
    B's basis outside span(A) (``Q_B - (Q_B·Q_Aᵀ)·Q_A``) and ``c`` the
    smallest singular value of ``Q_A·Q_Bᵀ``: small angles come from ``s``,
    which is computed from differences, not from ``sqrt(1 - c²)`` (which
    cannot resolve angles below about 1.5e-8), and large ones from ``c``.
    Accurate to a few units of 1e-16 absolute.

    >>> import math
    >>> t = 1e-12
    >>> subspace_distance([[1.0, 0.0, 0.0]], [[math.cos(t), math.sin(t), 0.0]])
    1e-12
    >>> round(subspace_distance([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]), 12)
    0.785398163397
    """
    QA = _orthonormal(_rows(A, "A"), "A")
    QB = _orthonormal(_rows(B, "B"), "B")
    if len(QA) != len(QB) or len(QA[0]) != len(QB[0]):
        raise PurePCAError(f"subspace_distance: A is {len(QA)} x {len(QA[0])} and B is {len(QB)} x {len(QB[0])}; "
                           "the spans to compare must have the same dimension, in the same space")
    M, s = _cosines_and_sine(QA, QB)  # M is k x k
    c = jacobi_svd(M).values[-1]
    return math.atan2(s, c)


def _cosines_and_sine(QA: list[list[float]], QB: list[list[float]]) -> tuple[list[list[float]], float]:
    """The cosines ``M = Q_A·Q_Bᵀ`` of two orthonormal bases, and the sine of the largest principal angle seen
    from B: the largest singular value of the part of B's basis outside span(A), ``Q_B - (Q_B·Q_Aᵀ)·Q_A``,
    each entry one compensated sum (small angles from differences, not from ``sqrt(1 - c²)``)."""
    M = [[_dot(a, b) for b in QB] for a in QA]
    outside = []
    for j, b in enumerate(QB):
        coef = [M[i][j] for i in range(len(QA))]
        outside.append([FLOAT.sum([b[t]] + [-c * a[t] for c, a in zip(coef, QA)]) for t in range(len(b))])
    # the d x kB matrix whose columns are the outside parts
    return M, jacobi_svd([list(col) for col in zip(*outside)]).values[0]


def _line_angle(a: list[float], b: list[float]) -> Optional[float]:
    """The angle between the lines of two float vectors (``subspace_distance`` of one row each), by Kahan's
    ``2·atan2(‖u - v‖, ‖u + v‖)`` on the unit vectors, v's sign taken to agree with u: as accurate (a few
    1e-16) without two SVDs.  None where a vector is zero or not finite (the caller takes the general path,
    which names the fault)."""
    na = math.sqrt(math.fsum(x * x for x in a))
    nb = math.sqrt(math.fsum(x * x for x in b))
    if not (na > 0 and nb > 0 and math.isfinite(na) and math.isfinite(nb)) or len(a) != len(b):
        return None
    u = [x / na for x in a]
    v = [x / nb for x in b]
    if _dot(u, v) < 0:
        v = [-x for x in v]
    minus = math.sqrt(math.fsum((x - y) ** 2 for x, y in zip(u, v)))
    plus = math.sqrt(math.fsum((x + y) ** 2 for x, y in zip(u, v)))
    return 2 * math.atan2(minus, plus)


def align_signs(components: Any, reference: Any) -> list[list[float]]:
    """``components`` (rows) with each row's sign chosen to agree with the same row of ``reference``.

    A row is flipped when its dot product with the reference row is
    negative; rows orthogonal to theirs are kept.

    >>> align_signs([[-0.6, -0.8], [0.8, -0.6]], [[0.6, 0.8], [0.8, -0.6]])
    [[0.6, 0.8], [0.8, -0.6]]
    """
    rows, ref = _rows(components, "components"), _rows(reference, "reference")
    if len(rows) != len(ref):
        raise PurePCAError(f"align_signs: {len(rows)} components but {len(ref)} reference rows; give one reference "
                           "row per component (reference[:k] for the first k)")
    if len(rows[0]) != len(ref[0]):
        raise PurePCAError(f"align_signs: the components have {len(rows[0])} entries but the reference rows "
                           f"{len(ref[0])}")
    return [[-x for x in v] if _dot(_unit_max(v), _unit_max(r)) < 0 else list(v) for v, r in zip(rows, ref)]


def _norm(v: list[float]) -> float:
    """The Euclidean norm, with no square to overflow or underflow."""
    top = max(map(abs, v), default=0.0)
    return top * math.sqrt(_dot(_unit_max(v), _unit_max(v))) if top > 0 else 0.0


def _unit_max(v: list[float]) -> list[float]:
    """``v`` divided by its largest magnitude (the sign of a dot product is kept; no product overflows)."""
    top = max(map(abs, v), default=0.0)
    return [x / top for x in v] if top > 0 else list(v)


def eigen_clusters(values: Sequence[float], tol: float = 1e-10) -> list[list[int]]:
    """Indices of the eigenvalues grouped into clusters of (nearly) equal ones.

    Sorted by decreasing value, neighbours closer than ``tol`` times the
    largest magnitude fall in one cluster (a chain of close pairs is one
    cluster).  Their eigenvectors are not individually determined: compare
    the span of each cluster, not its vectors.

    >>> eigen_clusters([5.0, 2.0, 2.0 + 1e-13, 0.5])
    [[0], [1, 2], [3]]
    """
    if isinstance(values, (set, frozenset, dict, str, bytes)):
        raise PurePCAError(f"eigen_clusters: values: expected a sequence of numbers, got {type(values).__name__}")
    try:
        vals = [float(v) for v in values]
    except (TypeError, ValueError, OverflowError):
        raise PurePCAError(f"eigen_clusters: values: expected a sequence of numbers, got {values!r:.80}") from None
    if not all(math.isfinite(v) for v in vals):
        raise PurePCAError(f"eigen_clusters: values: {vals!r:.80} holds a NaN or an infinity")
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not (abs(tol) < 1e300 and tol >= 0):
        # (an int past the float range raised OverflowError in isfinite)
        raise PurePCAError(f"eigen_clusters: tol must be a finite number >= 0, got {tol!r:.60}")
    if not vals:
        return []
    order = sorted(range(len(vals)), key=lambda i: -vals[i])
    limit = tol * max(abs(v) for v in vals)
    clusters = [[order[0]]]
    for prev, i in zip(order, order[1:]):
        if vals[prev] - vals[i] <= limit:
            clusters[-1].append(i)
        else:
            clusters.append([i])
    return [sorted(c) for c in clusters]


def residual_bound(A_or_X: Any, values: Sequence[float], vectors: Any, *, kind: str = "auto",
                   ddof: int = 1) -> list[float]:
    """``‖C·v - λ·v‖ / ‖v‖`` for each eigenpair (λ, v) of a symmetric matrix, or of the covariance of data.

    By the Krylov–Weinstein theorem some eigenvalue of ``C`` lies within
    this distance of λ, whatever method produced the pair.  ``kind``:
    ``"matrix"`` (``A_or_X`` is C), ``"data"`` (``A_or_X`` is n x d data;
    C is its covariance with divisor ``n - ddof``, never formed: ``C·v`` is
    ``Zᵀ·(Z·v)/(n - ddof)`` with Z the centred data) or ``"auto"`` (a
    square, symmetric input is a matrix).  Computed with compensated sums, on
    the input divided by a power of two; a bound beyond the float range is
    ``inf``.

    >>> residual_bound([[2.0, 1.0], [1.0, 2.0]], [3.0], [[2 ** -0.5, 2 ** -0.5]])[0] < 1e-15
    True
    """
    M = _rows(A_or_X, "A_or_X")
    vecs = _rows(vectors, "vectors")
    vals = [float(v) for v in as_vector(values, name="residual_bound: values")]
    if len(vals) != len(vecs):
        raise PurePCAError(f"residual_bound: {len(vals)} values but {len(vecs)} vectors")
    if kind not in ("auto", "matrix", "data"):
        raise PurePCAError(f"kind must be 'auto', 'matrix' or 'data'; got {kind!r}")
    if isinstance(ddof, bool) or not isinstance(ddof, int) or ddof < 0:
        raise PurePCAError(f"residual_bound: ddof must be a non-negative int (the divisor is n - ddof), got {ddof!r}")
    square = len(M) == len(M[0]) and all(M[i][j] == M[j][i] for i in range(len(M)) for j in range(i))
    as_data = kind == "data" or (kind == "auto" and not square)
    if kind == "matrix" and len(M) == len(M[0]) and not square:
        # A residual bounds the distance to an eigenvalue only for a symmetric (normal) matrix: [[0, 1], [0, 0]]
        # has the residual 1e-6 at λ = 1e-3 where its only eigenvalue, 0, is 1e-3 away.
        i, j = next((i, j) for i in range(len(M)) for j in range(i) if M[i][j] != M[j][i])
        raise PurePCAError(f"residual_bound: the matrix is not symmetric (entry [{i}][{j}] = {M[i][j]!r}, entry "
                           f"[{j}][{i}] = {M[j][i]!r}); the bound holds for symmetric matrices only (a covariance)")
    d = len(M[0])
    if any(len(v) != d for v in vecs):
        raise PurePCAError(f"residual_bound: the vectors must have {d} entries")
    # Computed on the input divided by a power of two (exact), so that nothing overflows or underflows.
    top = max((abs(x) for row in M for x in row), default=0.0)
    e = math.frexp(top)[1] if top > 0 else 0
    M = [[math.ldexp(x, -e) for x in row] for row in M]
    power = 2 * e if as_data else e
    given = vals
    # A value beyond the float range in those units dwarfs the matrix (by 2**1024): its residual is |λ|.
    vals = [_lift(v, -power) for v in vals]
    if as_data:
        n = len(M)
        if n - ddof <= 0:
            raise PurePCAError(f"residual_bound: {n} rows and ddof={ddof} leave no degrees of freedom")
        cols = list(zip(*M))
        means = [FLOAT.sum(col) / n for col in cols]
        Z = [[x - m for x, m in zip(row, means)] for row in M]
        ZT = [list(col) for col in zip(*Z)]

        def times(v: list[float]) -> list[float]:
            w = [_dot(row, v) for row in Z]
            return [_dot(col, w) / (n - ddof) for col in ZT]
    else:
        if len(M) != d:
            raise PurePCAError(f"residual_bound: a matrix must be square, got {len(M)} x {d}")

        def times(v: list[float]) -> list[float]:
            return [_dot(row, v) for row in M]

    out = []
    for i, (lam, v) in enumerate(zip(vals, vecs)):
        if not any(v):
            raise PurePCAError(f"residual_bound: vectors: row {i} is zero, not an eigenvector")
        if math.isinf(lam):
            out.append(0.0)  # replaced by |λ| below
            continue
        v = _unit_max(v)  # the bound does not depend on v's length; 1e-231 would square to 0
        w = times(v)
        r = [FLOAT.sum([a, -lam * b]) for a, b in zip(w, v)]
        out.append(_norm(r) / _norm(v))
    return [abs(g) if math.isinf(lam) else _lift(x, power) for x, lam, g in zip(out, vals, given)]


def _lift(x: float, power: int) -> float:
    try:
        return math.ldexp(x, power)
    except OverflowError:
        return math.inf


def sign_determined(v: Sequence[float], rule: str, angle: float) -> bool:
    """Whether ``rule`` decides the sign of the unit vector ``v`` even if v is off by up to ``angle`` radians.

    ``max_abs_positive``: the largest entry must stay the largest and keep
    its sign (it beats the runner-up by more than ``2·angle`` and exceeds
    ``angle``); ``first_positive``: ``|v[0]| > angle``; ``sum_positive``:
    ``|Σv| > angle·sqrt(d)``; ``none``: never.

    >>> sign_determined([0.8, 0.6], "max_abs_positive", 1e-8)
    True
    >>> sign_determined([0.7071, 0.7071], "max_abs_positive", 1e-3)
    False
    """
    if rule not in SIGN_RULES:
        raise _not_one_of("rule", SIGN_RULES, rule)
    empty = isinstance(v, (list, tuple)) and not v
    vals = [] if empty else [float(x) for x in as_vector(v, name="sign_determined: v")]
    angle = as_real(angle, "sign_determined: angle", low=0.0)
    return _sign_determined(vals, rule, angle)


def _sign_determined(vals: list[float], rule: str, angle: float) -> bool:
    """``sign_determined`` of a list of floats already checked (the oracle's own vectors: converting them
    again cost 0.5 s of a 500 x 200 comparison)."""
    if rule == "none" or not vals:
        return False
    if rule == "max_abs_positive":
        mags = sorted((abs(x) for x in vals), reverse=True)
        second = mags[1] if len(mags) > 1 else 0.0
        return mags[0] - second > 2 * angle and mags[0] > angle
    if rule == "first_positive":
        return abs(vals[0]) > angle
    return abs(math.fsum(vals)) > angle * math.sqrt(len(vals))




def angle_inside(B: Any, A: Any) -> float:
    """The largest angle (radians) between a vector of span(B) and span(A): 0 when span(B) lies inside span(A).

    ``B`` may have fewer rows than ``A`` (the kept part of a cluster of
    equal eigenvalues against the whole cluster); with as many rows it is
    :func:`subspace_distance`.  Small angles come from the part of B's
    basis outside span(A), so they are resolved down to 1e-16.

    >>> t = 1e-10
    >>> angle_inside([[1.0, 0.0, t]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    1e-10
    """
    QA = _orthonormal(_rows(A, "A"), "A")
    QB = _orthonormal(_rows(B, "B"), "B")
    if len(QB) > len(QA) or len(QA[0]) != len(QB[0]):
        raise PurePCAError(f"angle_inside: B is {len(QB)} x {len(QB[0])} and A is {len(QA)} x {len(QA[0])}; "
                           "B must have at most as many rows as A, in the same space")
    M, s = _cosines_and_sine(QA, QB)  # M is kA x kB
    c = jacobi_svd(M).values[-1] if len(QA) >= len(QB) else 0.0
    return math.atan2(s, c)


def angle_from(B: Any, O: Any) -> float:
    """How far span(B) is from the orthogonal complement of span(O): ``asin`` of the largest cosine.

    The null space of wide data is known only as the complement of the
    non-zero components; a computed null vector is checked this way.

    >>> angle_from([[0.0, 0.0, 1.0]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    0.0
    >>> angle_from([[1.0]], [[0.0, 1.0]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: angle_from: B has rows of 1 values and O of 2; both must be vectors of the same
    space (one value per feature)
    """
    QB = _orthonormal(_rows(B, "B"), "B")
    rows_o = _rows(O, "O")
    if not rows_o:
        return 0.0
    if len(rows_o[0]) != len(QB[0]):
        raise PurePCAError(f"angle_from: B has rows of {len(QB[0])} values and O of {len(rows_o[0])}; "
                           "both must be vectors of the same space (one value per feature)")
    QO = _orthonormal(rows_o, "O")
    P = [[_dot(o, b) for b in QB] for o in QO]
    if len(P) < len(P[0]):
        P = [list(col) for col in zip(*P)]
    s = jacobi_svd(P).values[0]
    return math.asin(min(1.0, s))
