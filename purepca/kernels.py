"""Kernel functions, kernel matrices and their centring.

=================  ====================================  =========================
kernel             k(x, y)                               parameters (default)
=================  ====================================  =========================
``linear``         ``x·y``                               —
``poly``           ``(γ·x·y + c0)^degree``                γ (1/d), c0 (1), degree (3)
``rbf``            ``exp(-γ·‖x - y‖²)``                   γ (1/d); kernlab's σ is γ
``sigmoid``        ``tanh(γ·x·y + c0)``                   γ (1/d), c0 (1)
``cosine``         ``x·y / (‖x‖·‖y‖)`` (0 for x or y = 0)  —
``laplacian``      ``exp(-γ·‖x - y‖₁)``                   γ (1/d)
a callable         ``k(x, y)``, called on rows (lists)   —
``precomputed``    the caller passes the kernel matrix   —
=================  ====================================  =========================

``"polynomial"`` and ``"gaussian"``/``"tanh"`` are accepted as aliases of
``poly``, ``rbf`` and ``sigmoid``; the defaults are scikit-learn's (γ = 1/d for
d features).

Centring.  With ``φ`` the feature map and ``φ̄`` the mean of the training
points' images, the centred kernel is ``k̃(x, y) = (φ(x) - φ̄)·(φ(y) - φ̄)``.
For the training matrix this is ``K̃ = K - 1K - K1 + 1K1`` with ``1`` the n x n
matrix of ``1/n`` (seed 003's ``S·K·S``); entrywise,
``K̃_ij = K_ij - r_i - r_j + t`` with ``r`` the row means and ``t`` the grand
mean.  A test kernel ``K_t`` (m x n, test rows against training rows) is
centred against the *training* statistics:
``K̃_t[i][j] = K_t[i][j] - s_i - r_j + t`` with ``s_i`` the mean of test row i.

>>> K = kernel_matrix([[0.0], [1.0], [2.0]])
>>> K
[[0.0, 0.0, 0.0], [0.0, 1.0, 2.0], [0.0, 2.0, 4.0]]
>>> Kc, stats = center_kernel(K)
>>> Kc
[[1.0, 0.0, -1.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 1.0]]
"""

from __future__ import annotations

import decimal
import math
import numbers
from decimal import Decimal
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

from .covariance import _column_mean
from .errors import PurePCAError, float_range
from .linalg.matrix import as_matrix, as_symmetric
from .numeric import FLOAT, Context, FloatContext, Scalar, check_context, first_non_finite
from .params import as_int, as_real

__all__ = ["KERNELS", "KernelStats", "center_kernel", "center_test_kernel", "kernel_function", "kernel_matrix"]

KERNELS = ("linear", "poly", "rbf", "sigmoid", "cosine", "laplacian", "precomputed")
_ALIASES = {"polynomial": "poly", "gaussian": "rbf", "tanh": "sigmoid"}

KernelSpec = Union[str, Callable[..., Any]]
Row = Sequence[Scalar]


def canonical_kernel(kernel: KernelSpec) -> KernelSpec:
    """The kernel's canonical name (aliases resolved), or the callable itself.

    >>> canonical_kernel("gaussian")
    'rbf'
    """
    if callable(kernel):
        return kernel
    if isinstance(kernel, str):
        name = _ALIASES.get(kernel, kernel)
        if name in KERNELS:
            return name
    raise PurePCAError(
        f"kernel must be one of {', '.join(map(repr, KERNELS))} (or an alias: "
        f"{', '.join(map(repr, _ALIASES))}) or a callable k(x, y); got {kernel!r}"
    )


def check_kernel_params(gamma: Any, degree: Any, coef0: Any) -> tuple[Optional[float], int, float]:
    """The kernel parameters as plain Python numbers; out of range is an
    error naming the parameter.

    >>> check_kernel_params(None, 3, 1)
    (None, 3, 1.0)
    >>> check_kernel_params(0.0, 3, 1.0)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: gamma must be a positive finite number (or None for 1/n_features), got 0.0
    """
    if gamma is not None:
        try:
            gamma = as_real(gamma, "gamma", low=0.0, low_open=True)
        except PurePCAError:
            raise PurePCAError(
                f"gamma must be a positive finite number (or None for 1/n_features), got {gamma!r}"
            ) from None
    return gamma, as_int(degree, "degree", low=1), as_real(coef0, "coef0")


def kernel_function(
    kernel: KernelSpec = "linear",
    n_features: int = 1,
    *,
    gamma: Optional[float] = None,
    degree: int = 3,
    coef0: float = 1.0,
    context: Context = FLOAT,
) -> Callable[[Row, Row], Scalar]:
    """The function ``k(x, y)`` on two rows, with defaults resolved for ``n_features``.

    Call it inside ``context.local()`` when the context is decimal.

    >>> k = kernel_function("rbf", 2, gamma=0.5)
    >>> round(k([0.0, 0.0], [1.0, 1.0]), 12)
    0.367879441171
    """
    ctx = check_context(context)
    name = canonical_kernel(kernel)
    if name == "precomputed":
        raise PurePCAError("kernel='precomputed' has no kernel function: pass the kernel matrix itself")
    gamma, degree, coef0 = check_kernel_params(gamma, degree, coef0)
    if callable(name):
        user = name

        def call(x: Row, y: Row) -> Scalar:
            value = user(list(x), list(y))
            if isinstance(value, Decimal) and value.is_finite():
                return ctx.convert(value)  # as numpy stores it (its float), or exactly at precision=N
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise PurePCAError(f"the kernel callable returned {value!r}; expected a finite real number")
            return ctx.convert(value)

        return call
    g = ctx.convert(gamma if gamma is not None else 1.0 / n_features)
    c0 = ctx.convert(coef0)
    dot, fast = ctx.dot, isinstance(ctx, FloatContext)
    if name == "linear":
        return dot
    if name == "poly":
        return lambda x, y: (g * dot(x, y) + c0) ** degree
    if name == "sigmoid":
        return lambda x, y: ctx.tanh(g * dot(x, y) + c0)
    if name == "rbf":
        if fast:
            dist = math.dist  # C loop, accurate to about an ulp

            def rbf(x: Row, y: Row) -> Scalar:
                r = dist(x, y)
                return math.exp(-g * r * r)  # r * r may be inf (exp gives 0); r ** 2 would raise

            return rbf
        return lambda x, y: ctx.exp(-g * ctx.sum((a - b) * (a - b) for a, b in zip(x, y)))
    if name == "laplacian":
        return lambda x, y: ctx.exp(-g * ctx.sum(abs(a - b) for a, b in zip(x, y)))

    def cosine(x: Row, y: Row) -> Scalar:
        nx, ny = ctx.norm(x), ctx.norm(y)
        if nx == 0 or ny == 0:
            return ctx.zero
        # Normalise first: x·y itself may overflow where the cosine cannot.
        return dot([a / nx for a in x], [b / ny for b in y])

    return cosine


def kernel_matrix(
    X: Any,
    Y: Any = None,
    kernel: KernelSpec = "linear",
    *,
    gamma: Optional[float] = None,
    degree: int = 3,
    coef0: float = 1.0,
    context: Context = FLOAT,
) -> list[list[Scalar]]:
    """The kernel matrix ``K[i][j] = k(X[i], Y[j])`` (``Y = X`` when omitted).

    For ``Y = None`` only one triangle is computed and mirrored, so K is
    exactly symmetric.  Defaults follow scikit-learn (γ = 1/n_features).

    >>> kernel_matrix([[1.0, 0.0], [0.0, 2.0]], kernel="poly", degree=2, gamma=1.0, coef0=0.0)
    [[1.0, 0.0], [0.0, 16.0]]
    >>> kernel_matrix([[1.0, 0.0]], [[3.0, 4.0]], kernel="cosine")
    [[0.6]]
    """
    ctx = check_context(context)
    A = as_matrix(X, name="X", context=ctx)
    B = None if Y is None else as_matrix(Y, name="Y", context=ctx)
    if B is not None and len(B[0]) != len(A[0]):
        raise PurePCAError(f"Y has {len(B[0])} features, but X has {len(A[0])}")
    return _kernel_matrix(A, B, kernel, gamma, degree, coef0, ctx)


def _kernel_matrix(
    A: list[list[Scalar]],
    B: Optional[list[list[Scalar]]],
    kernel: KernelSpec,
    gamma: Optional[float],
    degree: int,
    coef0: float,
    ctx: Context,
) -> list[list[Scalar]]:
    """The worker behind :func:`kernel_matrix`, on validated rows of equal width."""
    d = len(A[0])
    with ctx.local():
        k = kernel_function(kernel, d, gamma=gamma, degree=degree, coef0=coef0, context=ctx)
        try:
            K = _kernel_values(k, A, B, ctx)
        except decimal.Overflow:
            raise PurePCAError(
                f"a kernel value is beyond the range of {ctx.name} numbers (exponent above {decimal.MAX_EMAX}); "
                "scale the data down"
            ) from None
        except (OverflowError, ValueError):
            if callable(kernel) or not isinstance(ctx, FloatContext):
                raise  # the user's callable's own error
            # A product or a power beyond the float range (fsum of +inf and
            # -inf, or float ** int) in one of the entries: find it and name it.
            for i, x in enumerate(A):
                for j, y in enumerate(A if B is None else B):
                    try:
                        value = k(x, y)
                    except (OverflowError, ValueError):
                        value = math.inf
                    if not math.isfinite(value):
                        raise _overflow(i, j, B is not None, value) from None
            raise
        if isinstance(ctx, FloatContext):
            for i, row in enumerate(K):
                if not all(map(math.isfinite, row)):
                    j = next(j for j, v in enumerate(row) if not math.isfinite(v))
                    raise _overflow(i, j, B is not None, row[j])
        return K


def _kernel_values(
    k: Callable[[Row, Row], Scalar], A: list[list[Scalar]], B: Optional[list[list[Scalar]]], ctx: Context
) -> list[list[Scalar]]:
    """``k`` on every pair of rows; for ``B = None`` one triangle, mirrored."""
    if B is not None:
        return [[k(x, y) for y in B] for x in A]
    n = len(A)
    K = [[ctx.zero] * n for _ in range(n)]
    for i in range(n):
        xi, Ki = A[i], K[i]
        for j in range(i, n):
            Ki[j] = K[j][i] = k(xi, A[j])
    return K


def _overflow(i: int, j: int, other: bool, value: Scalar) -> PurePCAError:
    return PurePCAError(
        f"the kernel value k(X[{i}], {'Y' if other else 'X'}[{j}]) = {value!r} overflows a float; "
        "scale the data down (or use precision=N for decimal arithmetic)"
    )


@dataclass(frozen=True)
class KernelStats:
    """What centring needs to remember of the training kernel: its row means and grand mean."""

    row_means: list[Scalar]
    grand_mean: Scalar


def center_kernel(
    K: Any, *, overwrite: bool = False, context: Context = FLOAT
) -> tuple[list[list[Scalar]], KernelStats]:
    """Double-centre a symmetric training kernel: ``K̃_ij = K_ij - r_i - r_j + t``.

    Returns the centred matrix and the statistics :func:`center_test_kernel`
    needs.  With ``overwrite=True`` and a list-of-lists K of this context's
    numbers, K itself is centred in place: no n x n temporary beyond K.

    >>> Kc, stats = center_kernel([[2.0, 1.0], [1.0, 2.0]])
    >>> Kc, stats.row_means, stats.grand_mean
    ([[0.5, -0.5], [-0.5, 0.5]], [1.5, 1.5], 1.5)
    """
    ctx = check_context(context)
    M = K if overwrite and _usable_in_place(K, ctx) else as_symmetric(K, name="K", context=ctx)
    n = len(M)
    if n == 0:
        raise PurePCAError("K: empty kernel matrix")
    with ctx.local(), float_range("centring the kernel matrix"):
        nn = ctx.convert(n)
        # Means by the routine of covariance_matrix: a row whose sum
        # overflows is summed at a scale of 2**-k.
        r = [_column_mean(row, nn, ctx) for row in M]
        t = _column_mean(r, nn, ctx)
        # M is K itself (overwrite) or a fresh copy: either way it is ours to change.
        for row, ri in zip(M, r):
            row[:] = [v - ri - rj + t for v, rj in zip(row, r)]
        if isinstance(ctx, FloatContext) and any(first_non_finite(row) is not None for row in M):
            raise PurePCAError("K: the centred kernel matrix is beyond the float range; scale the data down")
        return M, KernelStats(r, t)


def _usable_in_place(K: Any, ctx: Context) -> bool:
    """Whether K can be centred in place as it is: a square list of lists of
    finite numbers of the context's own type, exactly symmetric.  Anything
    else goes through :func:`as_symmetric`, which copies or names the fault."""
    if not isinstance(K, list) or not K:
        return False
    n = len(K)
    kind = float if isinstance(ctx, FloatContext) else Decimal
    for row in K:
        if type(row) is not list or len(row) != n or any(type(v) is not kind for v in row):
            return False
        if kind is float:
            if first_non_finite(row) is not None:
                return False
        elif not all(v.is_finite() for v in row):
            return False
    return all(K[i][j] == K[j][i] for i in range(n) for j in range(i + 1, n))


def center_test_kernel(K_test: Any, stats: KernelStats, *, context: Context = FLOAT) -> list[list[Scalar]]:
    """Centre a test kernel (m test rows x n training rows) against the training statistics.

    ``K̃_t[i][j] = K_t[i][j] - s_i - r_j + t``, where ``s_i`` is the mean of test
    row i and ``r``, ``t`` come from :func:`center_kernel`.  Applied to the
    training kernel itself it gives the centred training kernel.

    >>> K = [[2.0, 1.0], [1.0, 2.0]]
    >>> _, stats = center_kernel(K)
    >>> center_test_kernel(K, stats)
    [[0.5, -0.5], [-0.5, 0.5]]
    """
    M = as_matrix(K_test, name="K", context=context)
    n = len(stats.row_means)
    if len(M[0]) != n:
        raise PurePCAError(f"K: the test kernel has {len(M[0])} columns, but there are {n} training samples")
    return _center_test_kernel(M, stats, context)


def _center_test_kernel(M: list[list[Scalar]], stats: KernelStats, ctx: Context) -> list[list[Scalar]]:
    """The worker behind :func:`center_test_kernel`, on a validated m x n kernel."""
    n = len(stats.row_means)
    with ctx.local(), float_range("centring the test kernel"):
        nn = ctx.convert(n)
        r, t = stats.row_means, stats.grand_mean
        out = []
        for row in M:
            s = _column_mean(row, nn, ctx)
            out.append([v - s - rj + t for v, rj in zip(row, r)])
        return out
