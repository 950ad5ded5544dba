"""Power iteration and block subspace iteration for the top eigenpairs.

====================================  =========================================
``power_iteration(op, d, k)``         one vector at a time, Hotelling deflation
``subspace_iteration(op, d, k)``      a block of vectors, Rayleigh–Ritz on top
``IterationResult``                   values, vectors (rows), iterations, residuals
====================================  =========================================

Both find the ``k`` eigenvalues of largest *magnitude* of a symmetric
operator and return them in that order (for a positive semidefinite operator,
the PCA case, that is descending order).  The operator may be a matrix or a
function ``v -> A·v``, so top-k PCA of wide data runs without forming a d x d
matrix.

Both stop on the residual ``‖A·v - λ·v‖ <= tol·|λ_max|``, never on the change
of the Rayleigh quotient alone: the Rayleigh quotient of a mixture of two
eigenvectors can settle while the vector does not.  When the top eigenvalues
are too close in magnitude for the budget (``λ`` and ``-λ``, or a gap of
1e-6), they raise :class:`ConvergenceError` with the residual reached and the
observed convergence factor, which estimates ``|λ_(k+1) / λ_k|``.

Start vectors come from ``random.Random(seed)``, owned by the call: the same
input gives the same bits every run.

>>> r = subspace_iteration([[2, 1, 0], [1, 2, 0], [0, 0, 0.5]], k=1)
>>> round(r.values[0], 12)
3.0
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ..errors import ConvergenceError, PurePCAError, float_range
from ..numeric import FLOAT, Context, Scalar, check_context
from ..params import as_int, as_real, check_callback, is_int
from .jacobi import _jacobi_eigh, _scaled_back
from .gram_schmidt import gaussian_vector as _random_vector
from .gram_schmidt import gram_schmidt
from .matrix import _max_abs as max_abs  # rows validated here: the worker
from .matrix import as_symmetric, as_vector

__all__ = ["IterationResult", "PowerStep", "SubspaceStep", "power_iteration", "subspace_iteration"]

Operator = Callable[[list[Scalar]], list[Scalar]]


@dataclass(frozen=True)
class PowerStep:
    """One iteration of :func:`power_iteration`, as given to its ``trace`` callback.

    ``eigenpair`` counts from 1; ``value`` is the Rayleigh quotient ``vᵀ·A·v``
    of the current unit vector, ``residual`` is ``‖A·v - value·v‖`` and
    ``tolerance`` the residual at which the iteration stops; all floats, in
    the units of the input matrix.

    At the solver's own precision (floats, or Decimals under a decimal
    context), for the step player (:mod:`purepca.player`): ``vector`` the
    unit vector ``v`` of this iteration (whose Rayleigh quotient is
    ``value``), ``exact_value`` and ``exact_residual`` the value and the
    residual before rounding to floats.
    """

    eigenpair: int
    iteration: int
    value: float
    residual: float
    tolerance: float
    vector: Optional[tuple[Any, ...]] = None
    exact_value: Any = None
    exact_residual: Any = None


PowerTrace = Optional[Callable[[PowerStep], None]]


@dataclass(frozen=True)
class SubspaceStep:
    """One iteration of :func:`subspace_iteration`, as given to its ``trace`` callback.

    ``values`` are the k Ritz values (the Rayleigh quotients of the Ritz
    vectors, largest magnitude first), ``residuals`` their ``‖A·x - θ·x‖``,
    ``vectors`` the k unit Ritz vectors ``x`` and ``tolerance`` the residual
    at which the iteration stops; at the solver's own precision (floats, or
    Decimals under a decimal context), in the units of the input matrix.
    """

    iteration: int
    values: tuple[Any, ...]
    residuals: tuple[Any, ...]
    vectors: tuple[tuple[Any, ...], ...]
    tolerance: Any


SubspaceTrace = Optional[Callable[[SubspaceStep], None]]


@dataclass(frozen=True)
class IterationResult:
    """Top-k eigenpairs from an iterative method.

    ``values`` in order of decreasing magnitude, ``vectors[i]`` the unit
    eigenvector of ``values[i]``, ``iterations`` the number of iterations (for
    power iteration, summed over the k vectors), ``residuals[i]`` the final
    ``‖A·v_i - λ_i·v_i‖``.
    """

    values: list[Scalar]
    vectors: list[list[Scalar]]
    iterations: int
    residuals: list[Scalar]


def _as_operator(op: Any, d: Optional[int], ctx: Context) -> tuple[Operator, int, int]:
    """A function ``v -> A·v``, the dimension, and the exponent e of the
    scaling: a matrix near overflow or underflow is applied as ``A/2**e``
    (exactly), and the eigenvalues found are scaled back by the caller."""
    if callable(op):
        if d is None or isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise PurePCAError(f"d: a callable operator needs its dimension d as a positive int, got {d!r}")

        def apply(v: list[Scalar]) -> list[Scalar]:
            w = as_vector(op(v), name="op(v)", context=ctx)
            if len(w) != d:
                raise PurePCAError(f"op(v): returned {len(w)} values for a vector of dimension {d}")
            return list(w)

        return apply, d, 0
    M = as_symmetric(op, name="op", context=ctx)
    if not M:
        raise PurePCAError("op: empty matrix")
    if d is not None and (not is_int(d) or d != len(M)):  # checked as an int first: Decimal('sNaN') != 3 raises
        raise PurePCAError(f"d: the matrix is {len(M)} x {len(M)} but d = {d!r:.60}")
    e = ctx.scale_exponent(max_abs(M)) if ctx.needs_scaling else 0
    if e:
        M = [[ctx.ldexp(x, -e) for x in row] for row in M]
    dot = ctx.dot
    return (lambda v: [dot(row, v) for row in M]), len(M), e


def _scaled_result(r: IterationResult, e: int, ctx: Context) -> IterationResult:
    """The result for ``A`` from the result for ``A/2**e``."""
    if not e:
        return r
    return IterationResult(
        _scaled_back(r.values, e, ctx, "an eigenvalue"), r.vectors, r.iterations,
        _scaled_back(r.residuals, e, ctx, "a residual"),
    )


def _setup(op: Any, d: Optional[int], k: Any, max_iter: Any, ctx: Context) -> tuple[Operator, int, int, int, int]:
    """Validate the arguments both methods share; return the operator, d, the
    scaling's exponent, k and max_iter (plain ints)."""
    max_iter = as_int(max_iter, "max_iter", low=1)
    apply, d, e = _as_operator(op, d, ctx)
    return apply, d, e, _check_k(k, d), max_iter


def _check_k(k: Any, d: int) -> int:
    if not is_int(k) or not 1 <= k <= d:
        raise PurePCAError(f"k must be an int between 1 and d = {d}, got {k!r}")
    return int(k)


def _default_tol(tol: Optional[float], ctx: Context) -> Scalar:
    if tol is None:
        # eps**0.75: 1.8e-12 for floats, well above the rounding floor of a
        # residual (about sqrt(d)·eps·‖A‖) and below what PCA needs.
        return ctx.eps ** (ctx.convert(3) / ctx.convert(4))
    return ctx.convert(as_real(tol, "tol", low=0.0, low_open=True))


def _axpy(a: Scalar, x: Sequence[Scalar], y: Sequence[Scalar]) -> list[Scalar]:
    """``y + a·x``."""
    return [yi + a * xi for xi, yi in zip(x, y)]


def _normalized(v: Sequence[Scalar], ctx: Context) -> tuple[list[Scalar], Scalar]:
    nv = ctx.norm(v)
    if nv == 0:
        return list(v), nv
    return [x / nv for x in v], nv


def _start_vector(start: Any, d: int, ctx: Context) -> list[Scalar]:
    """A given start vector, checked (length d, finite, not zero) and normalised."""
    v = as_vector(start, name="start", context=ctx)
    if len(v) != d:
        raise PurePCAError(f"start: the start vector has {len(v)} entries, the matrix is {d} x {d}")
    v, size = _normalized(v, ctx)
    if size == 0:
        raise PurePCAError("start: the start vector is zero; it needs a direction")
    return v


def _orthonormalize(vectors: list[list[Scalar]], rng: random.Random, ctx: Context) -> list[list[Scalar]]:
    """:func:`~purepca.linalg.gram_schmidt.gram_schmidt`, modified, replacing vectors that collapse into
    the span of the earlier ones by fresh random ones (four tries)."""
    return gram_schmidt(vectors, ctx, rng, limit=16, attempts=4,
                        what="could not extend the basis: the block is larger than the space")


def _factor(history: list[Scalar], ctx: Context) -> float:
    """Average factor by which the residual shrank over the recent iterations."""
    tail = [float(r) for r in history[-21:]]
    if len(tail) < 2 or tail[0] <= 0 or tail[-1] <= 0:
        return float("nan")
    return float((tail[-1] / tail[0]) ** (1.0 / (len(tail) - 1)))


def power_iteration(op: Any, d: Optional[int] = None, k: int = 1, *, tol: Optional[float] = None,
                    max_iter: int = 10_000, seed: int = 0, context: Context = FLOAT, trace: PowerTrace = None,
                    start: Optional[Sequence[Any]] = None) -> IterationResult:
    """The ``k`` eigenpairs of largest magnitude, one at a time, by power iteration.

    After each eigenpair ``(λ, u)`` is found, the operator is deflated
    (Hotelling): ``v -> A·v - λ·u·(uᵀv)``.  Simple and slow (the error shrinks
    by ``|λ_2/λ_1|`` per step); kept for teaching.  :func:`subspace_iteration`
    is the one to use.

    Parameters
    ----------
    op : d x d symmetric matrix, or a function ``v -> A·v`` (then give ``d``)
    d : dimension, needed when ``op`` is a function
    k : number of eigenpairs
    tol : stop when ``‖A·v - λ·v‖ <= tol·|λ_1|``; default ``eps**0.75``
    max_iter : per eigenpair; past it, :class:`ConvergenceError`
    seed : seed of the start vectors' generator
    context : number context
    trace : optional callable receiving a :class:`PowerStep` per iteration
    start : the first eigenpair's start vector (any nonzero vector of length
        d, normalised here) instead of a random one: the start a learner
        picks (the later eigenpairs start from random vectors)

    >>> r = power_iteration([[2, 0, 0], [0, -3, 0], [0, 0, 1]], k=2)
    >>> [round(v, 9) for v in r.values]
    [-3.0, 2.0]
    >>> power_iteration([[1, 0], [0, -1]], max_iter=50)
    Traceback (most recent call last):
    ...
    purepca.errors.ConvergenceError: power_iteration: eigenpair 1 of 1 did not converge in 50 iterations: residual ...
    """
    ctx = check_context(context)
    check_callback(trace, "trace")
    seed = as_int(seed, "seed")
    with ctx.local(), float_range("power_iteration"):
        apply, d, e, k, max_iter = _setup(op, d, k, max_iter, ctx)
        first = None if start is None else _start_vector(start, d, ctx)
        tol_ = _default_tol(tol, ctx)
        rng = random.Random(seed)
        dot = ctx.dot
        values: list[Scalar] = []
        vectors: list[list[Scalar]] = []
        residuals: list[Scalar] = []
        total = 0
        scale = ctx.zero
        deflated = _deflated(apply, values, vectors, ctx)
        for index in range(k):
            if index == 0 and first is not None:
                v = first
            else:
                v = _orthonormalize(vectors + [_random_vector(rng, d, ctx)], rng, ctx)[-1]
            history: list[Scalar] = []
            for it in range(1, max_iter + 1):
                w = deflated(v)
                lam = dot(v, w)
                r = ctx.norm(_axpy(-lam, v, w))
                history.append(r)
                ref = scale if index else abs(lam)
                if trace is not None:
                    trace(_power_step(index, it, lam, r, tol_ * ref, v, e, ctx))
                if r <= tol_ * ref or r == 0:
                    break
                w, nw = _normalized(w, ctx)
                v = w
            else:
                raise _power_stalled(index, k, max_iter, r, tol_ * ref, _factor(history, ctx), total)
            total += it
            if index == 0:
                scale = abs(lam)
            values.append(lam)
            vectors.append(v)
            residuals.append(r)
        return _scaled_result(IterationResult(values, vectors, total, residuals), e, ctx)


def _deflated(apply: Operator, values: list[Scalar], vectors: list[list[Scalar]], ctx: Context) -> Operator:
    """Hotelling's deflation of ``apply`` by the eigenpairs found so far (the lists grow as they are
    found): ``v -> A·v - Σ λ·u·(uᵀv)``."""
    dot = ctx.dot

    def deflated(v: list[Scalar]) -> list[Scalar]:
        w = apply(v)
        for lam, u in zip(values, vectors):
            w = _axpy(-lam * dot(u, v), u, w)
        return w

    return deflated


def _power_step(index: int, it: int, lam: Scalar, r: Scalar, bound: Scalar, v: list[Scalar], e: int,
                ctx: Context) -> PowerStep:
    """The trace's record of one iteration on ``A/2**e``, in the units of ``A``."""
    return PowerStep(index + 1, it, math.ldexp(float(lam), e), math.ldexp(float(r), e), math.ldexp(float(bound), e),
                     tuple(v), ctx.ldexp(lam, e), ctx.ldexp(r, e))


def _power_stalled(index: int, k: int, max_iter: int, r: Scalar, bound: Scalar, factor: float,
                   total: int) -> ConvergenceError:
    """The error of an eigenpair whose residual stayed above ``bound`` for ``max_iter`` iterations."""
    return ConvergenceError(
        f"power_iteration: eigenpair {index + 1} of {k} did not converge in {max_iter} iterations: "
        f"residual {float(r):.3e} (tolerance {float(bound):.3e}); the residual shrank by "
        f"a factor {factor:.6f} per iteration, which estimates |λ_next/λ|: the gap between "
        f"this eigenvalue and the next in magnitude is too small for power iteration "
        f"(use subspace_iteration or jacobi_eigh)",
        iterations=total + max_iter,
        residual=float(r),
    )


def subspace_iteration(
    op: Any,
    d: Optional[int] = None,
    k: int = 1,
    *,
    block_size: Optional[int] = None,
    tol: Optional[float] = None,
    max_iter: int = 1_000,
    seed: int = 0,
    context: Context = FLOAT,
    trace: SubspaceTrace = None,
) -> IterationResult:
    """The ``k`` eigenpairs of largest magnitude by block power iteration with Rayleigh–Ritz.

    Each iteration applies the operator to an orthonormal block ``Q`` of
    ``b = block_size`` vectors, solves the small ``b x b`` problem
    ``H = Qᵀ·A·Q`` with :func:`jacobi_eigh`, and checks the residuals of the
    Ritz pairs; the next block is the orthonormalised ``A·(Ritz vectors)``.
    The error of pair i shrinks by about ``|λ_(b+1)/λ_i|`` per iteration, so a
    block a little larger than k copes with clustered top eigenvalues that
    stall :func:`power_iteration`.

    Parameters
    ----------
    op : d x d symmetric matrix, or a function ``v -> A·v`` (then give ``d``)
    d : dimension, needed when ``op`` is a function
    k : number of eigenpairs
    block_size : default ``min(d, max(2k, k + 8))``
    tol : stop when every one of the k residuals is ``<= tol·max|λ|``;
        default ``eps**0.75``
    max_iter : past it, :class:`ConvergenceError`
    seed : seed of the start block's generator
    context : number context
    trace : optional callable receiving a :class:`SubspaceStep` per iteration

    >>> A = [[5, 1, 0, 0], [1, 4, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0.5]]
    >>> r = subspace_iteration(lambda v: [sum(a * x for a, x in zip(row, v)) for row in A], d=4, k=2)
    >>> [round(v, 9) for v in r.values]
    [5.618033989, 3.381966011]
    """
    ctx = check_context(context)
    check_callback(trace, "trace")
    seed = as_int(seed, "seed")
    with ctx.local(), float_range("subspace_iteration"):
        apply, d, e, k, max_iter = _setup(op, d, k, max_iter, ctx)
        if block_size is None:
            b = min(d, max(2 * k, k + 8))
        elif not is_int(block_size) or not k <= block_size <= d:
            raise PurePCAError(f"block_size must be an int between k = {k} and d = {d}, got {block_size!r}")
        else:
            b = int(block_size)
        traced = None if trace is None else _unscaled_subspace(trace, e, ctx)
        return _scaled_result(_subspace_iteration(apply, d, k, b, _default_tol(tol, ctx), max_iter, seed, ctx, traced),
                              e, ctx)


def _unscaled_subspace(trace: Callable[[SubspaceStep], None], e: int, ctx: Context) -> Callable[[SubspaceStep], None]:
    """``trace`` given the steps on a matrix scaled by ``2**-e``, in the input's units."""
    def unscaled(step: SubspaceStep) -> None:
        trace(SubspaceStep(step.iteration, tuple(ctx.ldexp(v, e) for v in step.values),
                           tuple(ctx.ldexp(r, e) for r in step.residuals), step.vectors, ctx.ldexp(step.tolerance, e)))
    return unscaled


def _subspace_iteration(
    apply: Operator, d: int, k: int, b: int, tol_: Scalar, max_iter: int, seed: int, ctx: Context,
    trace: SubspaceTrace = None,
) -> IterationResult:
    """The worker behind :func:`subspace_iteration`: arguments checked, inside ``ctx.local()``."""
    rng = random.Random(seed)
    dot = ctx.dot
    Q = _orthonormalize([_random_vector(rng, d, ctx) for _ in range(b)], rng, ctx)
    history: list[Scalar] = []
    worst = ctx.zero
    for it in range(1, max_iter + 1):
        AQ = [apply(q) for q in Q]
        H = [[dot(Q[i], AQ[j]) for j in range(b)] for i in range(b)]
        # Qᵀ·A·Q is symmetric up to rounding; average the two triangles.
        H = [[(H[i][j] + H[j][i]) * ctx.half for j in range(b)] for i in range(b)]
        ritz = _jacobi_eigh(H, None, 50, ctx, None)
        order = sorted(range(b), key=lambda i: (-abs(ritz.values[i]), -ritz.values[i]))
        theta = [ritz.values[i] for i in order]
        Y = [ritz.vectors[i] for i in order]
        Qt = list(zip(*Q))
        AQt = list(zip(*AQ))
        X = [[dot(y, col) for col in Qt] for y in Y]
        AX = [[dot(y, col) for col in AQt] for y in Y]
        scale = abs(theta[0])
        res = [ctx.norm(_axpy(-theta[i], X[i], AX[i])) for i in range(k)]
        worst = max(res)
        history.append(worst)
        if trace is not None:
            trace(SubspaceStep(it, tuple(theta[:k]), tuple(res), tuple(tuple(x) for x in X[:k]), tol_ * scale))
        if worst <= tol_ * scale or worst == 0:
            return IterationResult(theta[:k], [list(x) for x in X[:k]], it, res)
        Q = _orthonormalize(AX, rng, ctx)
    factor = _factor(history, ctx)
    raise ConvergenceError(
        f"subspace_iteration did not converge in {max_iter} iterations: largest residual "
        f"{float(worst):.3e} (tolerance {float(tol_ * scale):.3e}); it shrank by a factor "
        f"{factor:.6f} per iteration, which estimates |λ_(b+1)/λ_k|: increase block_size or max_iter",
        iterations=max_iter,
        residual=float(worst),
    )
