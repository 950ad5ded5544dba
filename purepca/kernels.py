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
from array import array
from decimal import Decimal
from dataclasses import dataclass
from itertools import repeat
from operator import add, itemgetter, mul, sub
from typing import Any, Callable, Optional, Sequence, Union

from .covariance import _column_mean
from .errors import PurePCAError, float_range
from .linalg.matrix import as_matrix, as_symmetric
from .numeric import FLOAT, Context, FloatContext, Scalar, check_context, first_non_finite, float_dist
from .params import _show, as_int, as_real

__all__ = ["KERNELS", "KernelStats", "center_kernel", "center_test_kernel", "kernel_function", "kernel_matrix"]

KERNELS = ("linear", "poly", "rbf", "sigmoid", "cosine", "laplacian", "precomputed")
#: Entries of a packed centred kernel kept in lists of floats (32 bytes an entry, faster
#: products) before the rows become arrays (8 bytes); 1.5 M entries are about 36 MB more.
LIST_ENTRIES = 1_500_000
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
    n_features = as_int(n_features, "n_features", low=1, high=2 ** 63)  # 1 / n_features is a float
    if callable(name):
        return _user_kernel(name, ctx)
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
            dist = float_dist  # math.dist where bound (a C loop), accurate to about an ulp

            def rbf(x: Row, y: Row) -> Scalar:
                r = dist(x, y)
                return math.exp(-g * r * r)  # r * r may be inf (exp gives 0); r ** 2 would raise

            return rbf
        return lambda x, y: ctx.exp(-g * ctx.sum((a - b) * (a - b) for a, b in zip(x, y)))
    if name == "laplacian":
        return lambda x, y: ctx.exp(-g * ctx.sum(abs(a - b) for a, b in zip(x, y)))
    return _cosine_kernel(ctx)


def _user_kernel(user: Callable[..., Any], ctx: Context) -> Callable[[Row, Row], Scalar]:
    """A user's kernel callable, its every value checked: a finite real, converted by the context."""

    def call(x: Row, y: Row) -> Scalar:
        value = user(list(x), list(y))
        if isinstance(value, Decimal) and value.is_finite():
            return ctx.convert(value)  # as numpy stores it (its float), or exactly at precision=N
        try:
            finite = not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value)
        except OverflowError:  # an int beyond the float range
            finite = not ctx.needs_scaling
        if not finite:
            raise PurePCAError(f"the kernel callable returned {_show(value)}; expected a finite real number"
                               + (" in the float range" if isinstance(value, numbers.Integral) else ""))
        return ctx.convert(value)

    return call


def _cosine_kernel(ctx: Context) -> Callable[[Row, Row], Scalar]:
    """The cosine kernel: each row normalised first (``x·y`` itself may overflow where the cosine cannot)."""
    dot = ctx.dot

    def unit(v: Row) -> Optional[list[Scalar]]:
        """``v/‖v‖``, None for a zero vector.  Near the ends of the float range v is first divided
        by a power of two (exactly), since ‖v‖ itself may overflow (‖(1.7e308, -1.7e308)‖ is inf,
        and v/inf is 0: the cosine of such a row with itself came out 0) or underflow."""
        largest = max((abs(a) for a in v), default=ctx.zero)
        if not largest > 0:
            return None
        e = ctx.scale_exponent(largest)
        if e:
            v = [ctx.ldexp(a, -e) for a in v]
        nv = ctx.norm(v)
        return [a / nv for a in v]

    def cosine(x: Row, y: Row) -> Scalar:
        ux, uy = unit(x), unit(y)
        if ux is None or uy is None:
            return ctx.zero
        # Normalise first: x·y itself may overflow where the cosine cannot.
        return dot(ux, uy)

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
    progress: Optional[Callable[[int, int], None]] = None,
    packed: bool = False,
) -> list[list[Scalar]]:
    """The worker behind :func:`kernel_matrix`, on validated rows of equal width; ``packed`` (floats,
    ``B = None``): rows as ``array('d')`` (see :func:`_kernel_values`)."""
    d = len(A[0])
    with ctx.local():
        k = kernel_function(kernel, d, gamma=gamma, degree=degree, coef0=coef0, context=ctx)
        fast_row = None
        if isinstance(ctx, FloatContext) and isinstance(kernel, str):
            g, deg, c0 = check_kernel_params(gamma, degree, coef0)  # as kernel_function converted them
            g_used = ctx.convert(g if g is not None else 1.0 / d)
            fast_row = _float_row(canonical_kernel(kernel), g_used, deg, ctx.convert(c0), ctx.dot)
        try:
            packed = packed and B is None and isinstance(ctx, FloatContext)
            K = _kernel_values(k, A, B, ctx, fast_row, progress, packed)
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
    k: Callable[[Row, Row], Scalar], A: list[list[Scalar]], B: Optional[list[list[Scalar]]], ctx: Context,
    row: Optional[Callable[[Row, list[list[Scalar]]], list[Scalar]]] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    packed: bool = False,
) -> list[list[Scalar]]:
    """``k`` on every pair of rows; for ``B = None`` one triangle, mirrored.

    ``row(x, Y)``, when given, is ``[k(x, y) for y in Y]`` with the same bits, in
    C-level loops (:func:`_float_row`, on rows as tuples: ``math.dist`` turns
    any other sequence into a tuple at every call).  The mirrored triangle
    shares its number objects with the upper one (n(n+1)/2 floats, not n²);
    with ``packed`` (floats, ``B = None``) every row is an ``array('d')``
    instead: 8 bytes an entry rather than a pointer and a float object (32).
    ``progress(i, n)`` is called after every 64 rows.
    """
    if row is None:
        row = lambda x, Y: [k(x, y) for y in Y]  # noqa: E731
    else:
        A = [tuple(x) for x in A]  # type: ignore[misc]
        B = None if B is None else [tuple(y) for y in B]  # type: ignore[misc]
    if B is not None:
        return [row(x, B) for x in A]
    n = len(A)
    K: list[Any] = []
    for i in range(n):
        # Row i: column i of the rows above (already computed), then k(x_i, x_j) for j >= i.
        lower = map(itemgetter(i), K)
        Ki: Any = array("d", lower) if packed else list(lower)
        Ki += row(A[i], A[i:]) if not packed else array("d", row(A[i], A[i:]))
        K.append(Ki)
        if progress is not None and i % 64 == 63:
            progress(i + 1, n)
    return K


def _float_row(
    kernel: KernelSpec, g: float, degree: int, c0: float, dot: Callable[[Row, Row], Scalar]
) -> Optional[Callable[[Row, list[list[Scalar]]], list[Scalar]]]:
    """``[k(x, y) for y in Y]`` for a named kernel on floats, one C-level loop per
    operation (``map``), with the bits of :func:`kernel_function`'s ``k``: the same
    expressions in the same order (``-g * r * r`` is ``(-g)·r·r``).  None for
    the kernels without one (cosine, laplacian, a callable)."""
    if kernel == "rbf":
        dist, exp, minus_g = float_dist, math.exp, -g

        def rbf_row(x: Row, Y: list[list[Scalar]]) -> list[Scalar]:
            r = list(map(dist, repeat(x), Y))
            return list(map(exp, map(mul, map(mul, repeat(minus_g), r), r)))

        return rbf_row
    if kernel == "linear":
        return lambda x, Y: list(map(dot, repeat(x), Y))
    if kernel == "poly":
        return lambda x, Y: [(g * p + c0) ** degree for p in map(dot, repeat(x), Y)]
    if kernel == "sigmoid":
        tanh = math.tanh
        return lambda x, Y: [tanh(g * p + c0) for p in map(dot, repeat(x), Y)]
    return None


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
    if len(M) == 0:
        raise PurePCAError("K: empty kernel matrix")
    # M is K itself (overwrite) or a fresh copy: either way it is ours to change.
    return _center_kernel(M, ctx)


def _center_kernel(
    M: list[list[Scalar]], ctx: Context, packed: bool = False
) -> tuple[list[list[Scalar]], KernelStats]:
    """The worker behind :func:`center_kernel`: M (symmetric, not empty, ours) centred in place, with
    the expression of :func:`center_test_kernel` (a training kernel centred either way gives the same
    bits).  With ``packed`` (floats) each row of M becomes an ``array('d')``."""
    n = len(M)
    packed = packed and isinstance(ctx, FloatContext)
    with ctx.local(), float_range("centring the kernel matrix"):
        nn = ctx.convert(n)
        # Means by the routine of covariance_matrix: a row whose sum
        # overflows is summed at a scale of 2**-k.
        r = [_column_mean(row, nn, ctx) for row in M]
        t = _column_mean(r, nn, ctx)
        # Packed, the first rows (up to LIST_ENTRIES entries) are still lists of fresh floats:
        # the triple-length dot (3.12+) reads a list's floats as they are but boxes every entry of an array, so a
        # product with a list row costs about 2/3 of one with an array row (1,797 entries, 3.13),
        # at 4 times the memory.  The rest are arrays: memory stays about 8 bytes an entry.
        lists = min(n, LIST_ENTRIES // n) if packed else n
        for i, (row, ri) in enumerate(zip(M, r)):
            if packed:
                # ((v - r_i) - r_j) + t in C-level loops: the expression below, the same bits.
                centred = map(add, map(sub, map(sub, row, repeat(ri)), r), repeat(t))
                M[i] = list(centred) if i < lists else array("d", centred)  # type: ignore[assignment]
            else:
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
    if not isinstance(stats, KernelStats):
        raise PurePCAError(f"stats: expected the KernelStats that center_kernel returned, got {type(stats).__name__}")
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
