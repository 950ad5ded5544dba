"""Jacobi methods: the symmetric eigenproblem and the SVD, by plane rotations.

What is inside:

====================  =====================================================
``jacobi_eigh(A)``    two-sided cyclic Jacobi for a symmetric matrix
``jacobi_svd(X)``     one-sided (Hestenes) Jacobi SVD, QR step first when tall
``EighResult``        values (descending), vectors (rows), sweeps, rotations
``SVDResult``         singular values (descending), right vectors (rows), ...
``JacobiStep``        what the ``trace`` callback receives
====================  =====================================================

Why Jacobi.  Each step is a rotation ``J`` in the (p, q) plane chosen so that
``(JᵀAJ)[p][q] = 0``; the sum of squares of the off-diagonal entries drops by
``2·a_pq²`` each time and the diagonal converges to the eigenvalues, the
product of the rotations to the eigenvectors.  Demmel and Veselić ("Jacobi's
method is more accurate than QR", SIAM J. Matrix Anal. Appl. 13, 1992) showed
that with the *relative* stopping test ``|a_pq| <= tol·sqrt(|a_pp·a_qq|)`` it
finds every eigenvalue of a positive definite ``H = DAD`` to a relative error
governed by the condition of ``A``, not of ``H``: small eigenvalues of graded
matrices come out with most of their digits, which QR-based solvers lose.

The rotation follows Rutishauser (Handbook for Automatic Computation II/1):
``θ = (a_qq - a_pp) / (2 a_pq)``, ``t = sign(θ) / (|θ| + sqrt(θ² + 1))`` (the
smaller root, so the angle is at most π/4), ``c = 1/sqrt(t² + 1)``, ``s = t·c``,
``τ = s/(1 + c)``, and the updates ``a_pp -= t·a_pq``, ``a_qq += t·a_pq``,
``g -= s·(h + g·τ)``, ``h += s·(g - h·τ)``, which lose less than the textbook
``c·g - s·h``.  In the first three sweeps, entries below a threshold are
skipped (the classical threshold strategy) so that effort goes to the large
ones first.

>>> r = jacobi_eigh([[2, 1], [1, 2]])
>>> r.values
[3.0, 1.0]
>>> [round(x, 12) for x in r.vectors[0]]
[0.707106781187, 0.707106781187]

The rows ``a`` and ``b`` turned by the rotation with sine ``s`` and ``τ``
(:func:`_rotate_pair`; Numerical Recipes §11.1):

>>> _rotate_pair([1.0, 0.0], [0.0, 1.0], 1.0, 1.0)
([0.0, -1.0], [1.0, 0.0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional, Union

from ..errors import ConvergenceError, PurePCAError
from .. import fast
from ..numeric import FLOAT, Context, FloatContext, Scalar, check_context
from ..params import as_int, as_real, check_callback
from .matrix import _max_abs as max_abs  # rows validated here: the worker
from .matrix import as_matrix, as_symmetric

__all__ = ["EighResult", "JacobiStep", "SVDResult", "jacobi_eigh", "jacobi_svd"]


@dataclass(frozen=True)
class EighResult:
    """Eigendecomposition of a symmetric matrix.

    ``values`` are in descending order; ``vectors[i]`` is the unit
    eigenvector of ``values[i]`` (eigenvectors are *rows*).  ``sweeps`` counts
    the sweeps made, the last one being the sweep that found nothing left to
    do; ``rotations`` counts the plane rotations applied.
    """

    values: list[Scalar]
    vectors: list[list[Scalar]]
    sweeps: int
    rotations: int


@dataclass(frozen=True)
class SVDResult:
    """Singular values (descending) and right singular vectors (as rows) of a matrix."""

    values: list[Scalar]
    vectors: list[list[Scalar]]
    sweeps: int
    rotations: int


@dataclass(frozen=True)
class JacobiStep:
    """One event of a Jacobi run, as given to a ``trace`` callback.

    ``kind`` is ``"rotation"`` (``p``, ``q`` and ``angle`` set, ``off_norm``
    the off-diagonal Frobenius norm after it) or ``"sweep"`` (the end of a
    sweep; ``p = q = -1``, ``angle = 0``).  Norms and angles are floats, in
    the units of the input matrix.

    The rest is at the solver's own precision (floats, or Decimals under a
    decimal context), for the step player (:mod:`purepca.player`): ``t``,
    ``c`` and ``s`` of the rotation (``t = tan θ``; ``None`` for a sweep),
    ``matrix`` the working matrix after the event, ``vectors`` the rotations
    accumulated so far (row i is the current estimate of the eigenvector
    whose eigenvalue sits at ``matrix[i][i]``) and ``off`` the off-diagonal
    norm ``off_norm`` before rounding to a float.  All are in the units of
    the input matrix (a matrix scaled by a power of two is scaled back).
    ``matrix`` and ``vectors`` are ``None`` for matrices larger than
    ``SNAPSHOT_ORDER`` x ``SNAPSHOT_ORDER`` (32), where copying them at every
    rotation would cost more than the rotation.

    ``threshold`` is the sweep's threshold (Rutishauser's rule: in the first
    three sweeps ``0.2/n²`` times the sum of the ``|a_pq|`` above the
    diagonal at the start of the sweep, then zero); ``skipped`` lists the
    pairs ``(p, q, |a_pq|)`` passed over since the previous event because
    ``|a_pq|`` was at or below it (they still failed the convergence test,
    so the sweep does not count as converged).
    """

    kind: str
    sweep: int
    p: int
    q: int
    angle: float
    off_norm: float
    t: Any = None
    c: Any = None
    s: Any = None
    matrix: Optional[tuple[tuple[Any, ...], ...]] = None
    vectors: Optional[tuple[tuple[Any, ...], ...]] = None
    off: Any = None
    threshold: Any = None
    skipped: tuple[tuple[int, int, Any], ...] = ()


#: The pivot orders :func:`jacobi_eigh` knows: the cyclic order with Rutishauser's threshold in the
#: first three sweeps (the default), the plain cyclic order (every failing pair rotated), and the
#: classical order (always the largest off-diagonal entry, Jacobi's own of 1846).
PIVOTS = ("threshold", "cyclic", "classical")

Trace = Optional[Callable[[JacobiStep], None]]

#: The largest order for which a traced step carries copies of the matrix and of V.
SNAPSHOT_ORDER = 32

#: The kernel room's Jacobi for floats without a trace (PyPy: rows rotated in place), or None.
_fast_jacobi = fast.jacobi


def _rotation(alpha: Scalar, beta: Scalar, gamma: Scalar, ctx: Context) -> tuple[Scalar, Scalar, Scalar, Scalar]:
    """(t, c, s, tau) of the rotation that diagonalises [[alpha, gamma], [gamma, beta]]."""
    theta = (beta - alpha) / (ctx.two * gamma)
    at = abs(theta)
    if at * ctx.eps > ctx.one:  # theta² would overflow or is beyond precision: t = 1/(2θ) to first order
        t = ctx.half / at
    else:
        t = ctx.one / (at + ctx.sqrt(at * at + ctx.one))
    if theta < 0:
        t = -t
    c = ctx.one / ctx.sqrt(t * t + ctx.one)
    s = t * c
    return t, c, s, s / (ctx.one + c)


def _off_norm(M: list[list[Scalar]], ctx: Context) -> Scalar:
    n = len(M)
    return ctx.norm([M[i][j] for i in range(n) for j in range(n) if i != j])


def _off_squares(M: list[list[Scalar]], ctx: Context) -> Scalar:
    """Sum of squares of the off-diagonal entries (M is already scaled, so no overflow)."""
    n = len(M)
    return ctx.sum(M[i][j] * M[i][j] for i in range(n) for j in range(n) if i != j)


def jacobi_eigh(
    A: Any,
    *,
    tol: Optional[float] = None,
    max_sweeps: int = 50,
    context: Context = FLOAT,
    symmetry_rtol: float = 1e-10,
    trace: Trace = None,
    pivot: str = "threshold",
    atol: Optional[float] = None,
) -> EighResult:
    """Eigenvalues and eigenvectors of a symmetric matrix by cyclic Jacobi.

    Parameters
    ----------
    A : n x n symmetric matrix (any sequence of rows; never modified)
        Symmetry is checked to ``symmetry_rtol`` times the largest entry;
        within it the upper triangle is used.
    tol : relative stopping threshold, default the context's ``eps``
        A rotation is skipped when ``|a_pq| <= tol·sqrt(|a_pp·a_qq|)``, or
        ``|a_pq| <= tol·eps·‖A‖_F`` where a diagonal entry is zero; the method
        stops after a sweep in which every pair was skipped.
    max_sweeps : int
        Past this many sweeps, :class:`ConvergenceError` is raised with the
        off-diagonal norm reached.
    context : number context; ``DecimalContext(50)`` gives a 50-digit result.
    trace : optional callable receiving a :class:`JacobiStep` per rotation
        and per sweep.
    pivot : the order of the rotations (one of ``PIVOTS``): ``"threshold"``
        (row by row; in the first three sweeps a pair whose ``|a_pq|`` is
        at most ``0.2/n²`` times the sweep's starting sum of the
        ``|a_pq|`` is passed over, Rutishauser's threshold, Handbook II/1),
        ``"cyclic"`` (row by row, every pair failing the test rotated) or
        ``"classical"`` (always the largest failing entry; a "sweep" is
        ``n(n-1)/2`` rotations).  All converge quadratically per sweep.
    atol : an *absolute* stopping rule instead of the relative one, for teaching: a pair is
        passed when ``|a_pq| <= atol`` (in the units of ``A``), as solvers that stop at a fixed
        threshold do (ulab's 1.2e-7 in single precision).  It loses the small eigenvalues of graded
        matrices that the relative rule keeps: :mod:`purepca.lessons` shows how many digits.

    Returns
    -------
    EighResult with ``values`` (descending, length n) and ``vectors`` (n x n,
    ``vectors[i]`` the unit eigenvector of ``values[i]``).

    Matrices whose largest entry is near overflow or underflow are scaled by a
    power of two first (exactly) and the eigenvalues scaled back, as LAPACK's
    drivers do.

    >>> r = jacobi_eigh([[4, 1, 0], [1, 3, 1], [0, 1, 2]])
    >>> [round(v, 10) for v in r.values]
    [4.7320508076, 3.0, 1.2679491924]
    >>> import math
    >>> residual = max(abs(sum(a * x for a, x in zip(row, r.vectors[0])) - r.values[0] * xi)
    ...                for row, xi in zip([[4, 1, 0], [1, 3, 1], [0, 1, 2]], r.vectors[0]))
    >>> residual < 1e-14
    True
    >>> steps = []
    >>> _ = jacobi_eigh([[1, 2], [2, 1]], trace=steps.append)
    >>> steps[0].kind, steps[0].p, steps[0].q, round(steps[0].angle, 6), steps[0].off_norm
    ('rotation', 0, 1, 0.785398, 0.0)
    >>> [round(v, 10) for v in jacobi_eigh([[4, 1, 0], [1, 3, 1], [0, 1, 2]], pivot="classical").values]
    [4.7320508076, 3.0, 1.2679491924]
    """
    ctx = check_context(context)
    check_callback(trace, "trace")
    max_sweeps = as_int(max_sweeps, "max_sweeps", low=1)
    if pivot not in PIVOTS:
        raise PurePCAError(f"pivot must be one of {', '.join(map(repr, PIVOTS))}, got {pivot!r}")
    if tol is not None:
        tol = as_real(tol, "tol", low=0.0, low_open=True)
    if atol is not None:
        atol = as_real(atol, "atol", low=0.0)
    M = as_symmetric(A, name="A", context=ctx, rtol=symmetry_rtol)
    with ctx.local():
        return _jacobi_eigh(M, tol, max_sweeps, ctx, trace, pivot, atol)


def _scaled_back(values: list[Scalar], scale: int, ctx: Context, what: str) -> list[Scalar]:
    """``values`` times ``2**scale``, undoing the scaling of a matrix near
    overflow; a value beyond the float range is an error naming it (the
    eigenvalues of a matrix of finite floats can reach sqrt(n) times its
    largest entry)."""
    if not scale:
        return values
    out = []
    for v in values:
        try:
            out.append(ctx.ldexp(v, scale))
        except OverflowError:
            exponent = math.log10(abs(float(v))) + scale * math.log10(2.0)
            size = f"{10 ** (exponent % 1):.3f}e{math.floor(exponent):+d}"
            raise PurePCAError(
                f"{what} of the matrix, about {'-' if v < 0 else ''}{size}, is beyond the float range; "
                "use context=DecimalContext(N) or rescale the matrix"
            ) from None
    return out


def _not_converged(M: list[list[Scalar]], max_sweeps: int, ctx: Context) -> ConvergenceError:
    """The error of a Jacobi run that used up its sweeps, with the residual reached."""
    off = float(_off_norm(M, ctx))
    return ConvergenceError(
        f"jacobi_eigh did not converge in {max_sweeps} sweeps: off-diagonal norm {off:.3e} "
        f"(of a matrix scaled to norm {float(ctx.norm([x for row in M for x in row])):.3e})",
        iterations=max_sweeps,
        residual=off,
    )


def _jacobi_eigh(M: list[list[Scalar]], tol: Optional[float], max_sweeps: int, ctx: Context, trace: Trace,
                 pivot: str = "threshold", atol: Optional[float] = None) -> EighResult:
    """The worker behind :func:`jacobi_eigh`: M validated (and ours to change),
    inside ``ctx.local()``; ``atol`` (in the input's units) replaces the relative test."""
    n = len(M)
    V = [[ctx.one if i == j else ctx.zero for j in range(n)] for i in range(n)]
    if n <= 1:
        return EighResult([row[0] for row in M], V, 0, 0)
    scale = ctx.scale_exponent(max((max(map(abs, row), default=0) for row in M), default=0)) if ctx.needs_scaling else 0
    M = [[ctx.ldexp(x, -scale) for x in row] if scale else list(row) for row in M]
    floor = None if atol is None else ctx.ldexp(ctx.convert(atol), -scale)
    tol_ = ctx.zero if floor is not None else ctx.eps if tol is None else ctx.convert(tol)  # (atol: its rule alone)
    trace = _unscaled(trace, scale, ctx) if scale and trace is not None else trace  # (in the input's units)
    if pivot == "classical":
        sweeps, rotations = _classical_jacobi(M, V, tol_, max_sweeps, ctx, trace, floor)
    elif (_fast_jacobi is not None and trace is None and isinstance(ctx, FloatContext) and pivot == "threshold"
          and floor is None):
        counts = _fast_jacobi(M, V, float(tol_), max_sweeps)  # the same bits (purepca.fast)
        if counts is None:
            raise _not_converged(M, max_sweeps, ctx)
        sweeps, rotations = counts
    else:
        sweeps, rotations = _cyclic_jacobi(M, V, tol_, max_sweeps, ctx, trace, pivot, floor)
    diag = [M[i][i] for i in range(n)]
    diag = _scaled_back(diag, scale, ctx, "an eigenvalue") if scale else diag
    order = sorted(range(n), key=diag.__getitem__, reverse=True)
    return EighResult([diag[i] for i in order], [V[i] for i in order], sweeps, rotations)


def _unscaled(trace: Callable[[JacobiStep], None], scale: int, ctx: Context) -> Callable[[JacobiStep], None]:
    """``trace`` given the steps of a matrix scaled by ``2**-scale`` in the input's units."""
    def up(x: Any) -> Any:
        return ctx.ldexp(x, scale)

    def unscaled(step: JacobiStep) -> None:
        M = step.matrix
        trace(replace(step, off_norm=math.ldexp(step.off_norm, scale), off=up(step.off),
                      matrix=None if M is None else tuple(tuple(up(x) for x in row) for row in M),
                      threshold=None if step.threshold is None else up(step.threshold),
                      skipped=tuple((p, q, up(a)) for p, q, a in step.skipped)))
    return unscaled


def _rotate_pair(a: list[Scalar], b: list[Scalar], s: Scalar, tau: Scalar) -> tuple[list[Scalar], list[Scalar]]:
    """``a - s·(b + tau·a)`` and ``b + s·(a - tau·b)``: Rutishauser's ``c·a - s·b`` and ``s·a + c·b``."""
    return ([g - s * (k + g * tau) for g, k in zip(a, b)],
            [k + s * (g - k * tau) for g, k in zip(a, b)])


def _rotate(M: list[list[Scalar]], V: list[list[Scalar]], p: int, q: int, s: Scalar, tau: Scalar, app: Scalar,
            aqq: Scalar, zero: Scalar) -> list[Scalar]:
    """The rotation (``s``, ``tau``) in the plane (p, q) applied to rows and columns p, q of ``M`` (new
    diagonal ``app``, ``aqq``; ``a_pq`` zero) and to rows p, q of ``V``; the new row p of M."""
    newp, newq = _rotate_pair(M[p], M[q], s, tau)
    M[p], M[q] = newp, newq
    newp[p] = app
    newq[q] = aqq
    newp[q] = newq[p] = zero
    # Symmetry: column p (q) of every row is the new row p (q).
    for row, x, y in zip(M, newp, newq):
        row[p] = x
        row[q] = y
    V[p], V[q] = _rotate_pair(V[p], V[q], s, tau)
    return newp


def _cyclic_jacobi(
    M: list[list[Scalar]], V: list[list[Scalar]], tol: Scalar, max_sweeps: int, ctx: Context, trace: Trace,
    pivot: str = "threshold", floor: Optional[Scalar] = None,
) -> tuple[int, int]:
    """Diagonalise ``M`` in place, accumulating the rotations into the rows of ``V``: sweeps over the
    pairs (p, q) row by row, each rotation setting ``a_pq`` to zero, until every pair passes the
    relative test ``|a_pq| <= tol·sqrt(|a_pp·a_qq|)`` (Demmel and Veselić).  In the first three
    sweeps a pair below Rutishauser's threshold (a fifth of the mean ``|a_pq|``) is passed over."""
    n = len(M)
    sqrt, zero = ctx.sqrt, ctx.zero
    # Where a_pp·a_qq = 0 the relative test cannot pass: an entry below tol·eps·‖A‖_F is zero (A scaled: ‖A‖² = A·A).
    if floor is None:
        entries = [x for row in M for x in row]
        floor = tol * ctx.eps * sqrt(ctx.dot(entries, entries))
    root_diag = [sqrt(abs(M[i][i])) for i in range(n)]
    threshold_factor = ctx.convert(0.2) / (n * n)
    rotations = 0
    log = None if trace is None else _JacobiLog(trace, M, V, ctx)
    for sweep in range(1, max_sweeps + 1):
        early = sweep <= 3 and pivot == "threshold"
        threshold = threshold_factor * ctx.sum(abs(M[p][q]) for p in range(n) for q in range(p + 1, n)) \
            if early else zero
        busy = False
        for p in range(n - 1):
            Mp = M[p]
            tol_p = tol * root_diag[p]
            for q in range(p + 1, n):
                apq = Mp[q]
                aapq = abs(apq)
                if aapq <= tol_p * root_diag[q] or aapq <= floor:
                    continue
                busy = True
                if aapq <= threshold:
                    if log is not None:  # passed over by the threshold: the page says why
                        log.skipped.append((p, q, aapq))
                    continue
                app, aqq = Mp[p], M[q][q]
                t, c, s, tau = _rotation(app, aqq, apq, ctx)
                h = t * apq
                Mp = _rotate(M, V, p, q, s, tau, app - h, aqq + h, zero)
                root_diag[p] = sqrt(abs(Mp[p]))
                root_diag[q] = sqrt(abs(M[q][q]))
                tol_p = tol * root_diag[p]
                rotations += 1
                if log is not None:
                    log.rotation(sweep, p, q, apq, t, c, s, threshold)
        if log is not None:
            log.sweep(sweep, threshold)
        if not busy:
            return sweep, rotations
    raise _not_converged(M, max_sweeps, ctx)


class _JacobiLog:
    """The trace of :func:`_cyclic_jacobi`: a :class:`JacobiStep` per rotation and per sweep, with off(A)
    kept up to date (each rotation removes ``2·a_pq²`` from off(A)²; once that has cancelled more than
    15/16 of the last exact sum, it is summed afresh, so the traced off(A) keeps all but ~4 bits)."""

    def __init__(self, trace: Callable[[JacobiStep], None], M: list[list[Scalar]], V: list[list[Scalar]],
                 ctx: Context) -> None:
        self.trace, self.M, self.V, self.ctx = trace, M, V, ctx
        self.snapshots = len(M) <= SNAPSHOT_ORDER
        self.off2 = self.base2 = _off_squares(M, ctx)
        self.skipped: list[tuple[int, int, Scalar]] = []

    def _matrices(self) -> tuple[Any, Any]:
        if not self.snapshots:
            return None, None
        return tuple(map(tuple, self.M)), tuple(map(tuple, self.V))

    def rotation(self, sweep: int, p: int, q: int, apq: Scalar, t: Scalar, c: Scalar, s: Scalar,
                 threshold: Scalar) -> None:
        ctx = self.ctx
        self.off2 = self.off2 - ctx.two * apq * apq
        if self.off2 <= self.base2 * ctx.convert(0.0625):
            self.off2 = self.base2 = _off_squares(self.M, ctx)
        off = ctx.sqrt(self.off2)
        matrix, vectors = self._matrices()
        self.trace(JacobiStep("rotation", sweep, p, q, math.atan(float(t)), float(off), t, c, s, matrix, vectors, off,
                              threshold, tuple(self.skipped)))
        self.skipped = []

    def sweep(self, sweep: int, threshold: Scalar) -> None:
        off = _off_norm(self.M, self.ctx)
        matrix, vectors = self._matrices()
        self.trace(JacobiStep("sweep", sweep, -1, -1, 0.0, float(off), None, None, None, matrix, vectors, off,
                              threshold, tuple(self.skipped)))
        self.skipped = []
        self.off2 = self.base2 = _off_squares(self.M, self.ctx)


def _classical_jacobi(
    M: list[list[Scalar]], V: list[list[Scalar]], tol: Scalar, max_sweeps: int, ctx: Context, trace: Trace,
    floor: Optional[Scalar] = None,
) -> tuple[int, int]:
    """Jacobi's own order (1846): rotate always the largest off-diagonal entry that fails the relative
    test, in place, accumulating into the rows of ``V``; every ``n(n-1)/2`` rotations count as a
    sweep, and the last sweep is the search that found every pair passing.  Costs ``O(n²)`` a search:
    for teaching and comparison, not for speed."""
    n = len(M)
    sqrt, zero = ctx.sqrt, ctx.zero
    if floor is None:  # (as _cyclic_jacobi's: M scaled into range)
        entries = [x for row in M for x in row]
        floor = tol * ctx.eps * sqrt(ctx.dot(entries, entries))
    per_sweep = n * (n - 1) // 2
    rotations = 0
    snapshots = n <= SNAPSHOT_ORDER
    for sweep in range(1, max_sweeps + 1):
        for _ in range(per_sweep):
            best, bp, bq = zero, -1, -1
            for p in range(n - 1):
                for q in range(p + 1, n):
                    a = abs(M[p][q])
                    if a > best and a > tol * sqrt(abs(M[p][p])) * sqrt(abs(M[q][q])) and a > floor:
                        best, bp, bq = a, p, q
            if bp < 0:
                if trace is not None:
                    off = _off_norm(M, ctx)
                    trace(JacobiStep("sweep", sweep, -1, -1, 0.0, float(off), None, None, None,
                                     tuple(map(tuple, M)) if snapshots else None,
                                     tuple(map(tuple, V)) if snapshots else None, off, zero))
                return sweep, rotations
            apq, app, aqq = M[bp][bq], M[bp][bp], M[bq][bq]
            t, c, s, tau = _rotation(app, aqq, apq, ctx)
            h = t * apq
            _rotate(M, V, bp, bq, s, tau, app - h, aqq + h, zero)
            rotations += 1
            if trace is not None:
                off = _off_norm(M, ctx)
                trace(JacobiStep("rotation", sweep, bp, bq, math.atan(float(t)), float(off), t, c, s,
                                 tuple(map(tuple, M)) if snapshots else None,
                                 tuple(map(tuple, V)) if snapshots else None, off, zero))
        if trace is not None:
            off = _off_norm(M, ctx)
            trace(JacobiStep("sweep", sweep, -1, -1, 0.0, float(off), None, None, None,
                             tuple(map(tuple, M)) if snapshots else None,
                             tuple(map(tuple, V)) if snapshots else None, off, zero))
    raise _not_converged(M, max_sweeps, ctx)


def _householder_r(cols: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    """The R of a Householder QR, given and returned as columns (d columns of length d).

    Only R is needed: the right singular vectors of X = QR are those of R.
    """
    n, d = len(cols[0]), len(cols)
    dot = ctx.dot
    cols = [list(c) for c in cols]
    for k in range(min(n, d)):
        x = cols[k][k:]
        alpha = ctx.norm(x)
        if alpha == 0:
            continue
        # The reflector from x/‖x‖ (as LAPACK's dlarfg rescales): vᵀv of a
        # column far below the matrix's scale would underflow to 0.
        # v = x/‖x‖ ± e0 and vᵀv = 2·(1 + |u0|).
        norm = alpha
        if x[0] > 0:
            alpha = -alpha
        v = [xi / norm for xi in x]
        u0 = v[0]
        v[0] = u0 + ctx.one if x[0] > 0 else u0 - ctx.one
        vv = ctx.two * (ctx.one + abs(u0))
        cols[k] = cols[k][:k] + [alpha] + [ctx.zero] * (n - k - 1)
        for j in range(k + 1, d):
            y = cols[j][k:]
            f = ctx.two * dot(v, y) / vv
            cols[j][k:] = [yi - f * vi for yi, vi in zip(y, v)]
    return [c[:d] for c in cols]


def jacobi_svd(
    X: Any,
    *,
    tol: Optional[float] = None,
    max_sweeps: int = 50,
    qr: Union[bool, str] = "auto",
    context: Context = FLOAT,
) -> SVDResult:
    """Singular values and right singular vectors by one-sided Jacobi (Hestenes).

    Rotates pairs of columns of ``X`` until every pair is orthogonal to
    ``|c_p·c_q| <= tol·‖c_p‖·‖c_q‖``; the column norms are then the singular
    values and the accumulated rotations the right singular vectors.  The
    covariance ``XᵀX`` is never formed, so its condition number is not
    squared: the accurate path for nearly collinear data.  When ``X`` has more
    rows than columns (``qr="auto"``) a Householder QR comes first and the
    rotations run on the small triangle R (the right singular vectors of
    ``X = QR`` are those of ``R``).

    Parameters
    ----------
    X : n x d matrix (never modified)
    tol : default ``sqrt(m)·eps`` for columns of length m (LAPACK's dgesvj choice:
        a computed inner product of orthogonal columns is only that small)
    max_sweeps : past it, :class:`ConvergenceError`
    qr : ``"auto"`` (when n > d), ``True`` or ``False``
    context : number context

    Returns
    -------
    SVDResult: ``values`` (d of them, descending; when n < d at least d - n
    are zero) and ``vectors`` (d x d rows, ``vectors[i]`` the right singular
    vector of ``values[i]``).

    >>> r = jacobi_svd([[3, 0], [0, 4], [0, 0]])
    >>> r.values
    [4.0, 3.0]
    >>> [[abs(x) for x in v] for v in r.vectors]
    [[0.0, 1.0], [1.0, 0.0]]
    """
    ctx = check_context(context)
    max_sweeps = as_int(max_sweeps, "max_sweeps", low=1)
    if not (isinstance(qr, bool) or (isinstance(qr, str) and qr == "auto")):  # no ==: Decimal('sNaN') raises
        raise PurePCAError(f"qr must be 'auto', True or False, got {qr!r:.60}")
    tol = None if tol is None else as_real(tol, "tol", low=0.0)
    M = as_matrix(X, name="X", context=ctx)
    with ctx.local():
        return _jacobi_svd(M, tol, max_sweeps, qr, ctx)


def _jacobi_svd(
    M: list[list[Scalar]], tol: Optional[float], max_sweeps: int, qr: Union[bool, str], ctx: Context
) -> SVDResult:
    """The worker behind :func:`jacobi_svd`: M validated, inside ``ctx.local()``."""
    n, d = len(M), len(M[0])
    scale = ctx.scale_exponent(max_abs(M)) if ctx.needs_scaling else 0
    cols = [[ctx.ldexp(x, -scale) for x in col] for col in zip(*M)]
    if qr is True or (qr == "auto" and n > d):
        cols = _householder_r(cols, ctx)
    m = len(cols[0])
    tol_ = ctx.sqrt(ctx.convert(m)) * ctx.eps if tol is None else ctx.convert(tol)
    W = [[ctx.one if i == j else ctx.zero for j in range(d)] for i in range(d)]
    sweeps, rotations = _one_sided_jacobi(cols, W, tol_, max_sweeps, ctx)
    sigma = _scaled_back([ctx.norm(c) for c in cols], scale, ctx, "a singular value")
    order = sorted(range(d), key=sigma.__getitem__, reverse=True)
    return SVDResult([sigma[i] for i in order], [W[i] for i in order], sweeps, rotations)


def _one_sided_jacobi(
    cols: list[list[Scalar]], W: list[list[Scalar]], tol: Scalar, max_sweeps: int, ctx: Context
) -> tuple[int, int]:
    """Orthogonalise ``cols`` in place by rotations, applied to the rows of ``W`` too."""
    d = len(cols)
    dot, sqrt = ctx.dot, ctx.sqrt
    rotations = 0
    worst = ctx.zero
    for sweep in range(1, max_sweeps + 1):
        norms2 = [dot(c, c) for c in cols]
        busy = False
        worst = ctx.zero
        for p in range(d - 1):
            for q in range(p + 1, d):
                alpha, beta = norms2[p], norms2[q]
                if alpha <= 0 or beta <= 0:
                    continue
                cp, cq = cols[p], cols[q]
                gamma = dot(cp, cq)
                size = sqrt(alpha) * sqrt(beta)
                if abs(gamma) <= tol * size:
                    continue
                busy = True
                ratio = abs(gamma) / size
                worst = ratio if ratio > worst else worst
                t, c, s, tau = _rotation(alpha, beta, gamma, ctx)
                cols[p], cols[q] = _rotate_pair(cp, cq, s, tau)
                # Recomputed rather than updated by alpha - t·gamma, which
                # cancels for the small columns whose digits matter most.
                norms2[p] = dot(cols[p], cols[p])
                norms2[q] = dot(cols[q], cols[q])
                W[p], W[q] = _rotate_pair(W[p], W[q], s, tau)
                rotations += 1
        if not busy:
            return sweep, rotations
    raise ConvergenceError(
        f"jacobi_svd did not converge in {max_sweeps} sweeps: largest cosine between columns "
        f"{float(worst):.3e} (tolerance {float(tol):.3e})",
        iterations=max_sweeps,
        residual=float(worst),
    )
