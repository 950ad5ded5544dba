"""The solvers: from centred (and scaled) data to variances and principal axes.

================================  =============================================
``Spectrum``                      variances (descending), axes (rows), the
                                  total variance and the solver that ran
``solve_covariance(C, r)``        eigh of the d x d covariance or correlation
``solve_gram(Z, div)``            eigh of the n x n Gram matrix ``Z·Zᵀ``,
                                  mapped back by ``Zᵀ·u`` (for n < d)
``solve_svd(Z, div)``             one-sided Jacobi SVD of Z itself
``solve_krylov(Z, k, div)``       block Lanczos for the top k, on whichever
                                  operator is cheapest (``krylov_form``)
``solve_krylov_covariance(C, k)``  the same on a formed covariance
``solve_power(Z, k, div)``        subspace iteration (the teaching method)
``choose_solver(n, d, k)``        the cost model behind ``solver="auto"``
``SOLVER_TABLE``, ``Solver``      one row per solver: its function, whether it
                                  forms the covariance, the k it accepts, its
                                  cost; ``register_solver`` adds a row
``kernel_eigenpairs(K, k)``       top (algebraically) or all eigenpairs of a
                                  centred kernel, for Kernel PCA
================================  =============================================

Z is the n x d matrix of centred (scaled) rows; ``div`` the variance divisor
``n - ddof``.  Every solver returns the variances of the data (eigenvalues of
``ZᵀZ/div``), never negative, in descending order.

The cost model counts work in units of one element of a compensated dot
product (``fsum(map(mul, a, b))``, about 12 ns in CPython 3.11), with the
measured constants of each piece: a dot product of length m costs
``m + 40`` (the call), a row operation in a list comprehension about 4 per
element, the tridiagonal eigensolver about ``17·n³`` (5.5 s at n = 300).  It
is a model, not a stopwatch: it only has to rank the paths, and ``solver_``
records which one ran.

>>> from purepca import FLOAT
>>> solve_covariance([[2.0, 0.0], [0.0, 1.0]], 2, FLOAT).values
[2.0, 1.0]
"""

from __future__ import annotations

import itertools
import math
import numbers
import operator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Optional

from .conventions import DEGENERATE_GAP, _report_degenerate
from .errors import PurePCAError, user_stacklevel
from .linalg.eigen import _auto_method, _eigh, choose_eigh_method
from .linalg.jacobi import _jacobi_svd, _one_sided_jacobi
from .linalg.krylov import _default_tol, _lanczos
from .linalg.power import _default_tol as _power_tol
from .linalg.power import _subspace_iteration
from .linalg.stein import eigh_inverse_iteration
from . import fast
from .numeric import Context, FloatContext, GramWork, PolarRows, Scalar
from .parallel import ParallelProducts
from .params import _show, as_int, as_real

__all__ = [
    "ACCURACY_TARGET",
    "DEGENERATE_GAP",
    "SOLVER_TABLE",
    "Problem",
    "Solver",
    "Spectrum",
    "choose_solver",
    "kernel_eigenpairs",
    "report_degenerate",
    "solve_covariance",
    "solve_gram",
    "krylov_form",
    "register_solver",
    "solve_krylov",
    "solve_krylov_covariance",
    "solve_power",
    "solve_svd",
    "squared_path_errors",
]

#: ``vectors -> their Gram matrix``; ``ctx.gram`` or a parallel one.
Gram = Callable[[list[list[Scalar]]], list[list[Scalar]]]

_CALL = 40  # a dot product's call, in elements
_ROW_OP = 4  # an element of a list-comprehension row operation
_TRIDIAGONAL = 17  # x n³ for the tridiagonal eigensolver
_JACOBI = 60  # x n³ for Jacobi (several sweeps)
#: n·d from which the Krylov products use n_jobs processes (a product then
#: takes tens of milliseconds, more than sending the vectors costs).
MIN_PARALLEL_PRODUCT = 1_000_000
#: From this size on the Gram path finds its eigenvectors by inverse iteration (linalg.stein): QL's
#: rotations of the n x n vectors cost 3n³ interpreted multiplications (31 s of a 64 s fit at n = 500).
INVERSE_ITERATION_MIN_N = 150
#: From this width on, the rows that complete an orthonormal set try the least represented axes
#: first (below it, e_0, e_1, ... in order, as before: small problems keep their bits).
COMPLETION_BY_WEIGHT_MIN_D = 128
# The memory layout (the kernel room's laid_out) and cache blocking below are for CPython 3.12+'s C
# loops; PyPy's JIT and its unboxed float lists gain nothing from them (its fit of 500 x 2,000 took
# 2.4x as long with them).


def _laid_out(rows: Any, ctx: Context) -> Any:
    """The rows (any iterable of float sequences) as lists of fresh float objects, allocated row
    after row: the same values bit for bit (``x * 1.0`` is ``x``, signed zeros included).

    The kernel room's triple-length dot (CPython 3.12+) reads each entry through a pointer to its
    float object; the columns of a matrix made by ``zip(*rows)`` (or rows made from columns) point
    into objects allocated in the other order, one cache line apart, and a product over them took
    16 ns a pair at length 2,000 against 9.6 ns over objects allocated in order (CPython 3.13).
    Not on CPython <= 3.11, whose polarization products copy their vectors into tuples themselves,
    nor on PyPy, nor in other contexts (the rows are returned as lists, as they are).

    >>> from purepca import FLOAT
    >>> _laid_out(zip([1.0, -0.0], [3.0, 4.0]), FLOAT)
    [[1.0, 3.0], [-0.0, 4.0]]
    """
    if _fast_laid_out is None or not isinstance(ctx, FloatContext):
        return rows if isinstance(rows, list) else [list(r) for r in rows]
    return _fast_laid_out(rows)


_fast_laid_out = fast.laid_out


#: Vectors that one pass over a long operand serves (:func:`_blocked_dots`): B of them and the
#: operand stay in the processor's cache, where one vector at a time streams the whole matrix
#: from memory for every product.
_CACHE_BLOCK = 16


def _in_process_sumprods(ctx: Context, gram: Optional[Gram]) -> bool:
    """Whether ``gram`` (None: ``ctx.gram``) is computed in this process by compensated dot products
    in C loops, entry by entry (the kernel room's triple-length dot, CPython 3.12+): what :func:`_blocked_gram`
    computes with the same bits."""
    if _fast_laid_out is None or not isinstance(ctx, FloatContext):
        return False
    return gram is None or gram == ctx.gram or gram == ctx.fast_gram


def _blocked_dots(rows: list[list[Scalar]], vectors: list[list[Scalar]], ctx: Context,
                  upper: bool = False) -> list[list[Scalar]]:
    """``[[row·v for row in rows] for v in vectors]`` (with ``upper``, for the Gram of ``rows`` =
    ``vectors``: only ``j >= i`` in row i), each entry ``ctx.dot(row, v)`` as ``ctx.dots`` computes
    it (the same bits), ``_CACHE_BLOCK`` vectors at a time: each row is read once per block while
    it is in the cache.  At 500 x 2,000 on CPython 3.13 the products ran at 7.3 ns a pair against
    9.5 one vector at a time (the matrix streamed from memory for every vector).

    >>> from purepca import FLOAT
    >>> _blocked_dots([[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], FLOAT)
    [[1.0, 3.0], [2.0, 4.0], [3.0, 7.0]]
    >>> _blocked_dots([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], FLOAT, upper=True)
    [[5.0, 11.0], [25.0]]
    """
    dot = ctx.dot
    out: list[list[Scalar]] = []
    for start in range(0, len(vectors), _CACHE_BLOCK):
        block = vectors[start:start + _CACHE_BLOCK]
        first = start if upper else 0
        # by_row[j - first][i] = rows[j]·block[i], for the rows the block's entries need
        by_row = [list(map(dot, itertools.repeat(row, len(block)), block)) for row in rows[first:]]
        for i in range(len(block)):
            skip = i if upper else 0  # row start + i of the Gram starts at column start + i
            out.append([values[i] for values in by_row[skip:]])
    return out


def _blocked_gram(Z: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    """The Gram matrix ``Z·Zᵀ`` with the entries of ``ctx.gram`` (the same bits), by
    :func:`_blocked_dots`.

    >>> from purepca import FLOAT
    >>> _blocked_gram([[1.0, 2.0], [3.0, 4.0]], FLOAT)
    [[5.0, 11.0], [11.0, 25.0]]
    """
    return GramWork(Z, ctx).assemble(enumerate(_blocked_dots(Z, Z, ctx, upper=True)))


@dataclass(frozen=True)
class Spectrum:
    """What a solver found: ``values`` (variances, descending), ``components``
    (unit axes as rows, one per value), ``total`` (the total variance, also
    of what was not computed), ``solver`` (which path ran) and, from the
    top-k paths, ``next_value`` (the (k+1)-th eigenvalue)."""

    values: list[Scalar]
    components: list[list[Scalar]]
    total: Scalar
    solver: str
    #: The eigenvalue after the last one returned, when a top-k path found it
    #: (so that a tie at the boundary of the kept components is reported).
    next_value: Optional[Scalar] = None


#: The relative accuracy of every eigenvalue that the default path aims at:
#: where the covariance (or Gram) path is estimated to miss it,
#: ``solver="auto"`` takes the SVD path, and a solver chosen by the user warns
#: (:class:`~purepca.errors.AccuracyWarning`).
ACCURACY_TARGET = 1e-9


def squared_path_errors(values: list[float], dim: int, eps: float) -> list[float]:
    """Estimated relative error of each eigenvalue from a formed covariance or Gram matrix.

    Forming ``ZᵀZ`` with compensated sums rounds each entry once, and the
    eigensolver adds a backward error of a few ``eps·‖C‖``; both are
    absolute, of the order of ``sqrt(dim)·eps·λ_max``, so the relative error
    of ``λ_i`` is about ``sqrt(dim)·eps·λ_max/λ_i`` (inf for ``λ_i <= 0``).
    The SVD of the data avoids the squaring: its error is about
    ``eps·sqrt(λ_max/λ_i)`` relative.  An estimate of the usual size, not a
    bound: on nearly collinear columns, small noise under strong directions
    and low-rank data with noise (d = 6 to 40) it was 30 to 500 times the
    error measured against 40 digits.  It decides the path, nothing more.

    >>> [f"{e:.1e}" for e in squared_path_errors([1.0, 1e-4, 1e-12], 16, 2.0 ** -52)]
    ['8.9e-16', '8.9e-12', '8.9e-04']
    """
    _check_reals(values, "values")
    return _squared_path_errors(values, as_int(dim, "dim", low=0, high=2 ** 53), as_real(eps, "eps", low=0.0))


def _squared_path_errors(values: list[float], dim: int, eps: float) -> list[float]:
    """:func:`squared_path_errors`' worker, on the fit's own numbers (the door checks the user's)."""
    if not values or not values[0] > 0:
        return [0.0] * len(values)
    absolute = math.sqrt(dim) * eps * values[0]
    return [absolute / v if v > 0 else math.inf for v in values]


def _path_losses(found: Spectrum, n: int, varying: int, center: bool, ctx: Context) -> list[float]:
    """Estimated relative errors of the eigenvalues that can be non-zero (at most n - 1 after
    centring, and one per column that is not constant), when ``found`` came from a formed
    covariance or Gram matrix (else none)."""
    row = SOLVER_TABLE.get(found.solver) if isinstance(found.solver, str) else None
    if not isinstance(row, Solver) or not row.formed:
        return []
    structural = min(n - 1 if center else n, varying)
    values = [ctx.to_float(v) for v in found.values[:structural]]
    dim = len(found.components[0]) if found.solver == "covariance" and found.components else n
    return _squared_path_errors(values, dim, ctx.to_float(ctx.eps))


def report_degenerate(spectrum: list[float], k: int, stacklevel: Optional[int] = None, *, dim: int = 0,
                      svd: bool = False, eps: float = 2.0 ** -52) -> None:
    """Warn (:class:`~purepca.errors.DegenerateEigenvalueWarning`) when kept
    eigenvalues, or the k-th and the next, are equal to within
    ``DEGENERATE_GAP`` of the largest: their vectors are then not unique.

    Below ``DEGENERATE_GAP`` of the largest, ties are judged against the
    errors of the path that found them (given ``dim``, the larger side of
    the problem; :func:`squared_path_errors`): a formed matrix
    (``svd=False``) gives every eigenvalue to about ``sqrt(dim)·eps·λ₁``,
    absolute; the SVD of the data to about ``sqrt(dim)·eps·sqrt(λ₁·λᵢ)``.  A pair both of whose values stand above their
    errors (with a margin of 16: what is below is rounding noise, a tie or
    not) and whose gap is within the sum of their errors, or within
    ``DEGENERATE_GAP`` of themselves, is reported too, however small.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     report_degenerate([3.0, 1.0, 1.0], 2)
    >>> str(caught[0].message)[:38]
    'eigenvalues 2 and 3 (1, 1) are equal t'
    """
    _check_reals(spectrum, "spectrum")
    level = user_stacklevel() if stacklevel is None else as_int(stacklevel, "stacklevel", low=1, high=10_000)
    _report_degenerate(spectrum, as_int(k, "k", low=0), level + 1, dim=as_int(dim, "dim", low=0, high=2 ** 53),
                       svd=bool(svd), eps=as_real(eps, "eps", low=0.0))


def _check_reals(values: Any, name: str) -> None:
    """A list (or tuple) of finite real numbers, or a :class:`PurePCAError` naming the first that is not.

    >>> _check_reals([1.0, Decimal(2)], "values")
    >>> _check_reals([1.0, float("nan")], "values")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: values[1] must be a finite real number, got nan
    """
    if not isinstance(values, (list, tuple)):
        raise PurePCAError(f"{name} must be a list of real numbers, got {_show(values)}")
    for i, v in enumerate(values):
        if type(v) is not float or not math.isfinite(v):
            as_real(v, f"{name}[{i}]")


def _clip(values: list[Scalar], ctx: Context) -> list[Scalar]:
    return [v if v > 0 else ctx.zero for v in values]


def _eigh_cost(n: int) -> float:
    return float(_JACOBI * n**3 if _auto_method(n) == "jacobi" else _TRIDIAGONAL * n**3)


def _krylov_products(k: int) -> int:
    """Products with the operator a thick-restart Lanczos needs for k pairs (measured, rounded up)."""
    return 60 + 12 * k


def _krylov_costs(n: int, d: int, k: int) -> dict[str, float]:
    """Predicted cost of each operator form of the Krylov path."""
    p = _krylov_products(k)
    basis = max(2 * k + 4, 20)
    data = p * (n * (d + _CALL) + d * (n + _CALL)) + p * basis * d * (1 + _ROW_OP) * 2
    covariance = d * d / 2 * (n + _CALL) + p * d * (d + _CALL) + p * basis * d * (1 + _ROW_OP) * 2
    gram = n * n / 2 * (d + _CALL) + p * n * (n + _CALL) + p * basis * n * (1 + _ROW_OP) * 2 + k * d * (n + _CALL)
    return {"data": data, "covariance": covariance, "gram": gram}


def _full_cost(n: int, d: int) -> float:
    if n >= d:
        return d * d / 2 * (n + _CALL) + _eigh_cost(d)
    r = n
    return n * n / 2 * (d + _CALL) + _eigh_cost(n) + r * d * (n + _CALL) + 2 * r * r * d * (1 + _ROW_OP)


def _checked_cost(row: Solver, name: str, n: int, d: int, k: Optional[int]) -> Optional[float]:
    """A row's ``cost(n, d, k)`` (None for a row without one): None or a non-negative number, else an
    error naming the row."""
    c = None if row.cost is None else row.cost(n, d, k)
    if c is None:
        return None
    if isinstance(c, bool) or not isinstance(c, numbers.Real) or not c >= 0 or math.isnan(c):
        raise PurePCAError(f"SOLVER_TABLE[{name!r}]: its cost({n}, {d}, {k}) is {c!r:.60}; expected a "
                           "non-negative number or None (never chosen)")
    return float(c)


def _no_cost(n: int, d: int) -> str:
    raise PurePCAError(f"SOLVER_TABLE: no row has a cost for {n} x {d} data (the rows 'covariance' and 'gram' "
                       "deleted?): solver='auto' cannot choose; name a solver, or put the rows back")


def choose_solver(n: int, d: int, k: Optional[int]) -> str:
    """The path ``solver="auto"`` takes for n x d data and k wanted components
    (None: all, or a count known only after the spectrum): the cheapest row of
    :data:`SOLVER_TABLE` that has a cost for them (the first in the table's
    order on a tie).

    The full paths: ``"covariance"`` when n >= d, else ``"gram"``.  With an
    int k, ``"krylov"`` when the model predicts it at least twice as cheap
    (a margin for the model's error: the full path gives every eigenvalue).

    >>> choose_solver(10_000, 50, None), choose_solver(200, 1_000, None)
    ('covariance', 'gram')
    >>> choose_solver(10_000, 50, 5), choose_solver(200, 1_000, 5), choose_solver(2_000, 2_000, 5)
    ('covariance', 'krylov', 'krylov')
    """
    n, d = as_int(n, "n", low=1, high=2 ** 53), as_int(d, "d", low=1, high=2 ** 53)
    return _choose_solver(n, d, None if k is None else as_int(k, "k", low=1, high=2 ** 53))


def _choose_solver(n: int, d: int, k: Optional[int]) -> str:
    """:func:`choose_solver`'s worker, on the fit's own shape (the door checks the user's)."""
    costs: list[tuple[float, int, str]] = []
    for i, name in enumerate(list(SOLVER_TABLE)):
        row = _solver_row(name)
        c = None if row.cost is None else row.cost(n, d, k) if _is_own(row) else _checked_cost(row, name, n, d, k)
        if c is not None:
            costs.append((c, i, name))
    return min(costs)[2] if costs else _no_cost(n, d)


def _full_path_cost(kind: str) -> Callable[[int, int, Optional[int]], Optional[float]]:
    """The cost of the full path ``kind`` (covariance for n >= d, Gram for n < d), None for the other shape."""
    def cost(n: int, d: int, k: Optional[int]) -> Optional[float]:
        return _full_cost(n, d) if (n >= d) == (kind == "covariance") else None
    return cost


def _krylov_cost(n: int, d: int, k: Optional[int]) -> Optional[float]:
    """Twice the cheapest Krylov form's cost (the margin: a full path gives every eigenvalue), for an int k
    below min(n, d)."""
    if k is None or k >= min(n, d):
        return None
    return 2 * min(_krylov_costs(n, d, k).values())


def solve_covariance(
    C: list[list[Scalar]], r: int, ctx: Context, method: str = "auto", sd: Optional[list[Scalar]] = None
) -> Spectrum:
    """Eigen of the covariance C (the correlation when ``sd`` is given); keeps r pairs.

    >>> from purepca import FLOAT
    >>> solve_covariance([[4.0, 0.0], [0.0, 1.0]], 2, FLOAT, sd=[2.0, 1.0]).values
    [1.0, 1.0]
    """
    with ctx.local():
        if sd is not None:
            C = [[c / (si * sj) for c, sj in zip(row, sd)] for row, si in zip(C, sd)]
            for j in range(len(C)):
                C[j][j] = ctx.one
        eig = _eigh(C, _auto_method(len(C)) if method == "auto" else choose_eigh_method(len(C), method), ctx)
        spectrum = [v if v > 0 else ctx.zero for v in eig.values[:r]]  # rounding may leave a zero below 0
        return Spectrum(spectrum, [list(v) for v in eig.vectors[:r]], ctx.sum(spectrum), "covariance")


def _orthonormal_rows(candidates: list[list[Scalar]], count: int, d: int, ctx: Context) -> list[list[Scalar]]:
    """``count`` orthonormal rows: the candidates in order, each orthogonalised
    against those before it and normalised, then unit vectors orthogonal to
    them all until there are ``count``.  Row i stays the i-th candidate:
    should one collapse into the span of those before it, it and the
    candidates after it are replaced by the completion.

    Classical Gram–Schmidt, repeated when a pass removed more than half of
    the vector's length (Kahan and Parlett's "twice is enough" test), so the
    rows are orthonormal to working precision.  The basis is also kept by
    coordinates, so that removing its span from a vector is one dot product
    per coordinate (``ctx.dots``) rather than one row operation per basis
    vector: the same arithmetic, a fraction of the interpreter's work.
    """
    out: list[list[Scalar]] = []
    by_coordinate: list[list[Scalar]] = [[] for _ in range(d)]
    collapsed = False
    dots = ctx.dots
    basis = _UnitRows(ctx) if _UnitRows.useful(ctx) else None

    def pool() -> Any:
        for i, c in enumerate(candidates):
            yield True, i, c
        for e in _unit_axes(by_coordinate, d, ctx):
            yield False, -1, e

    # With compensated products in C loops, the first pass of each block of candidates against
    # the rows found before it is computed ahead (_first_passes).
    blocked = basis is None and _in_process_sumprods(ctx, None) and len(candidates) > _CACHE_BLOCK
    ahead: dict[int, tuple[int, list[Scalar]]] = {}

    for is_candidate, index, v in pool():
        if len(out) >= count:
            break
        if is_candidate and collapsed:
            continue
        if blocked and is_candidate and index % _CACHE_BLOCK == 0 and out:
            ahead = _first_passes(candidates, index, out, by_coordinate, ctx)
        if basis is not None:
            # Near unit norm (exactly, by a power of two): the polarization
            # products below are then accurate to a few eps absolute.
            v = basis.unit(v)
        original = ctx.norm(v)
        before = original
        for attempt in range(3):
            if not out:
                break
            if basis is not None:
                c = basis.dots(v)
                v = [a - b for a, b in zip(v, basis.combine(by_coordinate, c))]
            elif attempt == 0 and index in ahead:
                k0, combination = ahead.pop(index)
                if len(out) > k0:  # the rows found within the block, for this candidate alone
                    recent = out[k0:]
                    combination = list(map(operator.add, combination, map(
                        ctx.dot, zip(*recent), itertools.repeat(dots(recent, v)))))
                v = [a - b for a, b in zip(v, combination)]
            else:
                v = [a - b for a, b in zip(v, dots(by_coordinate, dots(out, v)))]
            after = ctx.norm(v)
            if after > ctx.half * before:
                break
            before = after
        nv = ctx.norm(v)
        # A unit vector keeps at least half its length off a subspace it is not
        # in, for some coordinate axis; a candidate is kept unless it collapsed.
        if nv > 0 and nv > (ctx.convert(1e-8) if is_candidate else ctx.half) * original:
            u = [a / nv for a in v]
            out.append(u)
            if basis is not None:
                basis.add(u)
            for column, x in zip(by_coordinate, u):
                column.append(x)
        elif is_candidate:
            collapsed = True
    return out


def _unit_axes(by_coordinate: list[list[Scalar]], d: int, ctx: Context) -> Any:
    """The coordinate axes to complete an orthonormal set with (its rows kept by coordinates): from
    ``COMPLETION_BY_WEIGHT_MIN_D`` on, the least represented in the span first (Σ u_j² over the
    rows so far, smallest): one of them keeps most of its length, where e_0, e_1, ... of data whose
    first columns carry the variance each took three passes and were refused."""
    order: Any = range(d)
    if d >= COMPLETION_BY_WEIGHT_MIN_D:
        dot = ctx.dot
        weight = [dot(column, column) for column in by_coordinate]
        order = sorted(range(d), key=weight.__getitem__)
    for j in order:
        yield [ctx.one if i == j else ctx.zero for i in range(d)]


def _first_passes(candidates: list[list[Scalar]], index: int, out: list[list[Scalar]],
                  by_coordinate: list[list[Scalar]], ctx: Context) -> dict[int, tuple[int, list[Scalar]]]:
    """For the block of ``_CACHE_BLOCK`` candidates from ``index``: the combination of the rows found
    so far that the first Gram–Schmidt pass removes from each, ``{candidate: (rows, combination)}``.

    The same products as one candidate at a time (``out·v``, then one dot per coordinate), by
    :func:`_blocked_dots`: each row and each coordinate's column read once per block, not once
    per candidate (at 500 x 2,000 on CPython 3.13 the Gram–Schmidt took 4.5 s instead of 5.3).
    The rows found within the block are removed one candidate at a time afterwards, their
    combination added to this one: one more rounding of a quantity of the order of the lost
    orthogonality, far below eps·‖v‖.
    """
    coefficients = _blocked_dots(out, candidates[index:index + _CACHE_BLOCK], ctx)
    k0 = len(out)
    return {index + b: (k0, combination)
            for b, combination in enumerate(_blocked_dots(by_coordinate, coefficients, ctx))}


class _UnitRows:
    """Inner products with a growing orthonormal basis by polarization
    (:class:`~purepca.numeric.PolarRows`, for unit rows): ``u·v =
    (1 + ‖v‖² - ‖u - v‖²)/2`` for v scaled to a norm near one."""

    @staticmethod
    def useful(ctx: Context) -> bool:
        return fast.polar_rows is not None and isinstance(ctx, FloatContext)

    def __init__(self, ctx: Context) -> None:
        self.rows = PolarRows([], ctx)
        self.coordinate_squares: list[float] = []  # Σ_j u_j[t]², per coordinate t

    def dots(self, v: list[Scalar]) -> list[Scalar]:
        return self.rows.dots(v)

    def add(self, u: list[Scalar]) -> None:
        self.rows.kernel.add_unit(u)  # type: ignore[union-attr]
        squares = self.coordinate_squares
        if not squares:
            squares.extend([0.0] * len(u))
        for t, x in enumerate(u):
            squares[t] += x * x

    @staticmethod
    def unit(v: list[Scalar]) -> list[Scalar]:
        norm = math.hypot(*v)
        if not norm > 0 or not math.isfinite(norm):
            return v
        e = math.frexp(norm)[1]
        return [math.ldexp(x, -e) for x in v]

    def combine(self, by_coordinate: list[list[Scalar]], c: list[Scalar]) -> list[Scalar]:
        """``[row·c for row in by_coordinate]`` (rows of norm <= 1, c of norm <= 1)."""
        cc = math.fsum(map(operator.mul, c, c))
        dist = math.dist
        return [
            (sq + cc - r * r) * 0.5 if sq else 0.0
            for sq, r in zip(self.coordinate_squares, map(dist, by_coordinate, itertools.repeat(c)))
        ]


def solve_gram(Z: list[list[Scalar]], div: Scalar, ctx: Context, gram: Optional[Gram] = None) -> Spectrum:
    """PCA through the n x n Gram matrix ``Z·Zᵀ`` (seed 003, Remark 1): its
    eigenvalues are ``div`` times the variances, and ``v = Zᵀu/‖Zᵀu‖``.

    >>> s = solve_gram([[1.0, 1.0, 0.0], [-1.0, -1.0, 0.0]], 1.0, __import__("purepca").FLOAT)
    >>> s.values, [round(x, 12) for x in s.components[0]]
    ([4.0, 0.0], [0.707106781187, 0.707106781187, 0.0])
    """
    n, d = len(Z), len(Z[0])
    r = min(n, d)
    with ctx.local():
        rows = _laid_out(Z, ctx)
        blocked = _in_process_sumprods(ctx, gram)
        G = _blocked_gram(rows, ctx) if blocked else (gram or ctx.gram)(rows)
        del rows
        method = _auto_method(n)
        # A large Gram matrix: its vectors by inverse iteration, not by accumulating n² rotations.
        eig = (eigh_inverse_iteration(G, ctx) if method == "tridiagonal" and n >= INVERSE_ITERATION_MIN_N
               else None) or _eigh(G, method, ctx)
        mu = _clip(eig.values[:r], ctx)
        ZT = [list(c) for c in zip(*Z)]
        negligible = (mu[0] if mu else ctx.zero) * ctx.eps * ctx.convert(max(n, d))
        # v = Zᵀu for the non-negligible eigenvalues, re-orthogonalised (the
        # Gram matrix squares the condition, so small components lose
        # orthogonality), then completed to r orthonormal rows.
        kept = [eig.vectors[i] for i in range(r) if mu[i] > negligible]
        if blocked:
            candidates = _blocked_dots(ZT, _laid_out(kept, ctx), ctx)
        else:
            columns = PolarRows(ZT, ctx)
            candidates = [columns.dots(u) for u in kept]
        comps = _orthonormal_rows(candidates, r, d, ctx)
        return Spectrum([m / div for m in mu], comps, ctx.sum(mu) / div, "gram")


def solve_svd(Z: list[list[Scalar]], div: Scalar, ctx: Context) -> Spectrum:
    """PCA by the one-sided Jacobi SVD of Z: the variances are ``σ²/div`` and
    the condition number is never squared (the accurate path for nearly
    collinear data).

    >>> solve_svd([[3.0, 0.0], [0.0, 4.0], [0.0, 0.0]], 1.0, __import__("purepca").FLOAT).values
    [16.0, 9.0]
    """
    n, d = len(Z), len(Z[0])
    r = min(n, d)
    with ctx.local():
        if n >= d:
            svd = _jacobi_svd(Z, None, 50, "auto", ctx)
            spectrum = [s * s / div for s in svd.values[:r]]
            return Spectrum(spectrum, [list(v) for v in svd.vectors[:r]], ctx.sum(spectrum), "svd")
        # Wide data: orthogonalise the n rows (vectors of length d) instead of
        # the d columns.  The rows end as σ_i·v_i with v_i the principal axes,
        # read off directly (one-sided Jacobi computes them to the accuracy of
        # the data, without forming Z·Zᵀ); n·n rotations, not d·d.
        rows = [list(row) for row in Z]
        W = [[ctx.one if i == j else ctx.zero for j in range(n)] for i in range(n)]
        _one_sided_jacobi(rows, W, ctx.sqrt(ctx.convert(d)) * ctx.eps, 50, ctx)
        sigma = [ctx.norm(row) for row in rows]
        order = sorted(range(n), key=sigma.__getitem__, reverse=True)
        sigma = [sigma[i] for i in order]
        top = sigma[0] if sigma else ctx.zero
        candidates = [[x / sigma[j] for x in rows[i]] for j, i in enumerate(order)
                      if sigma[j] > top * ctx.eps * n]
        comps = _orthonormal_rows(candidates, r, d, ctx)
        spectrum = _clip([s * s / div for s in sigma], ctx)
        return Spectrum(spectrum, comps, ctx.sum(spectrum), "svd")


def _total_variance(ZT: list[list[Scalar]], div: Scalar, ctx: Context) -> Scalar:
    dot = ctx.dot
    return ctx.sum(dot(col, col) for col in ZT) / div


def solve_krylov(
    Z: list[list[Scalar]],
    k: int,
    div: Scalar,
    ctx: Context,
    *,
    seed: int = 0,
    gram: Optional[Gram] = None,
    form: Optional[str] = None,
    jobs: int = 1,
) -> Spectrum:
    """The top k by block Lanczos (:mod:`purepca.linalg.krylov`), on the
    operator the cost model finds cheapest: ``"data"`` applies
    ``v -> Zᵀ(Z·v)/div`` without forming any matrix (large n and d);
    ``"covariance"`` forms ``ZᵀZ/div`` first (n much larger than d);
    ``"gram"`` forms ``Z·Zᵀ`` and maps back (d much larger than n).

    >>> Z = [[2.0, 0.0, 0.0], [-2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0]]
    >>> s = solve_krylov(Z, 1, 1.0, __import__("purepca").FLOAT)
    >>> [round(v, 12) for v in s.values], [abs(round(x, 12)) for x in s.components[0]]
    ([8.0], [1.0, 0.0, 0.0])
    """
    n, d = len(Z), len(Z[0])
    form = form or krylov_form(n, d, k)
    with ctx.local():
        ZT = [list(c) for c in zip(*Z)]
        total = _total_variance(ZT, div, ctx)
        apply: Callable[[list[list[Scalar]]], list[list[Scalar]]]
        if form == "gram":
            K = (gram or ctx.gram)(_laid_out(Z, ctx))
            dim = n
            apply = _matrix_operator(K, ctx)
        elif form == "covariance":
            C = (gram or ctx.gram)(ZT)
            dim = d
            apply = _matrix_operator(C, ctx)
        else:
            dim = d
        kk = min(k + 1, dim)  # one more, to see a tie at the boundary
        b, m = _lanczos_sizes(kk, dim)
        tol = _default_tol(dim, ctx)
        if form == "data":
            # v -> Zᵀ(Z·v), never forming a matrix; over n_jobs processes when
            # each product is large enough to pay for them (same bits).
            with ParallelProducts(_laid_out(Z, ctx), ZT, ctx, jobs if n * d >= MIN_PARALLEL_PRODUCT else 1) as products:
                res = _lanczos(products, dim, kk, "largest", b, m, tol, 200, seed, ctx)
        else:
            res = _lanczos(apply, dim, kk, "largest", b, m, tol, 200, seed, ctx)
        clipped = _clip(res.values, ctx)
        values, following = clipped[:k], (clipped[k] / div if kk > k else None)
        if form == "gram":
            negligible = (values[0] if values else ctx.zero) * ctx.eps * ctx.convert(max(n, d))
            columns = PolarRows(ZT, ctx)
            candidates = [columns.dots(u) for u, mu in zip(res.vectors[:k], values) if mu > negligible]
            comps = _orthonormal_rows(candidates, k, d, ctx)
        else:
            comps = [list(v) for v in res.vectors[:k]]
        return Spectrum([v / div for v in values], comps, total, "krylov", following)


def _lanczos_sizes(k: int, dim: int) -> tuple[int, int]:
    """Block size and basis size of the Krylov paths (lanczos's defaults)."""
    b = min(dim, 2)
    return b, min(dim, max(2 * k + 2 * b, 20))


def krylov_form(n: int, d: int, k: int) -> str:
    """The operator the Krylov path applies for n x d data and k pairs:
    ``"data"``, ``"covariance"`` or ``"gram"``, the cheapest by the cost model.

    >>> krylov_form(10_000, 50, 5), krylov_form(200, 1_000, 5), krylov_form(2_000, 2_000, 5)
    ('covariance', 'gram', 'data')
    """
    n, d = as_int(n, "n", low=1, high=2 ** 53), as_int(d, "d", low=1, high=2 ** 53)
    k = as_int(k, "k", low=1, high=2 ** 53)
    costs = _krylov_costs(n, d, k)
    return min(costs, key=costs.__getitem__)


def solve_krylov_covariance(C: list[list[Scalar]], k: int, ctx: Context, *, seed: int = 0) -> Spectrum:
    """The top k of a formed d x d covariance (or correlation) by block Lanczos:
    the Krylov path when n is much larger than d, where forming C once costs
    less than applying the data again and again.

    >>> from purepca import FLOAT
    >>> [round(v, 12) for v in solve_krylov_covariance([[3.0, 1.0], [1.0, 3.0]], 1, FLOAT).values]
    [4.0]
    """
    d = len(C)
    with ctx.local():
        kk = min(k + 1, d)  # one more, to see a tie at the boundary
        b, m = _lanczos_sizes(kk, d)
        res = _lanczos(_matrix_operator(C, ctx), d, kk, "largest", b, m, _default_tol(d, ctx), 200, seed, ctx)
        total = ctx.sum(C[i][i] for i in range(d))
        values = _clip(res.values, ctx)
        following = values[k] if kk > k else None
        return Spectrum(values[:k], [list(v) for v in res.vectors[:k]], total, "krylov", following)


def _matrix_operator(A: list[list[Scalar]], ctx: Context) -> Callable[[list[list[Scalar]]], list[list[Scalar]]]:
    dot = ctx.dot

    def apply(V: list[list[Scalar]]) -> list[list[Scalar]]:
        return [[dot(row, v) for row in A] for v in V]

    return apply


def solve_power(Z: list[list[Scalar]], k: int, div: Scalar, ctx: Context, *, seed: int = 0) -> Spectrum:
    """The top k by subspace iteration on ``v -> Zᵀ(Z·v)/div`` (the teaching path).

    >>> s = solve_power([[2.0, 0.0], [-2.0, 0.0], [0.0, 1.0], [0.0, -1.0]], 1, 1.0, __import__("purepca").FLOAT)
    >>> [round(v, 12) for v in s.values]
    [8.0]
    """
    d = len(Z[0])
    with ctx.local():
        ZT = [list(c) for c in zip(*Z)]
        dot = ctx.dot

        def covariance_times(v: list[Scalar]) -> list[Scalar]:
            Zv = [dot(row, v) for row in Z]
            return [dot(col, Zv) / div for col in ZT]

        kk = min(k + 1, d)  # one more, to see a tie at the boundary
        b = min(d, max(2 * kk, kk + 8))
        res = _subspace_iteration(covariance_times, d, kk, b, _power_tol(None, ctx), 1_000, seed, ctx)
        values = _clip(res.values, ctx)
        following = values[k] if kk > k else None
        total = _total_variance(ZT, div, ctx)
        return Spectrum(values[:k], [list(v) for v in res.vectors[:k]], total, "power", following)


def kernel_eigenpairs(
    K: list[list[Scalar]], k: Optional[int], solver: str, ctx: Context, *, seed: int = 0
) -> tuple[list[Scalar], list[list[Scalar]], str]:
    """Eigenpairs of a centred kernel matrix, largest *algebraically* first.

    ``solver``: ``"jacobi"`` or ``"tridiagonal"`` (every pair), ``"krylov"``
    (the top k by Lanczos), ``"power"`` (the k largest in magnitude, by
    subspace iteration: kept for teaching) or ``"auto"`` (Krylov when k is
    given and the cost model finds it cheaper, else the full eigh).  Returns
    ``(values, vectors, solver that ran)``; the top-k solvers return k + 1
    pairs where there are that many (the last shows a tie at the boundary).

    >>> kernel_eigenpairs([[1.0, -1.0], [-1.0, 1.0]], None, "auto", __import__("purepca").FLOAT)[0]
    [2.0, 0.0]
    """
    n = len(K)
    with ctx.local():
        if solver == "auto":
            full = _eigh_cost(n)
            if k is not None and k < n and 2 * _krylov_products(k) * n * (n + _CALL) < full:
                solver = "krylov"
            else:
                solver = _auto_method(n)
        if solver == "krylov" and k is not None:
            kk = min(k + 1, n)  # one more, to see a tie at the boundary
            b, m = _lanczos_sizes(kk, n)
            res = _lanczos(_matrix_operator(K, ctx), n, kk, "largest", b, m, _default_tol(n, ctx), 200, seed, ctx)
            return list(res.values), [list(v) for v in res.vectors], solver
        if solver == "power" and k is not None:
            kk = min(k + 1, n)
            b = min(n, max(2 * kk, kk + 8))
            dot = ctx.dot

            def times_k(v: list[Scalar]) -> list[Scalar]:
                return [dot(row, v) for row in K]

            res = _subspace_iteration(times_k, n, kk, b, _power_tol(None, ctx), 1_000, seed, ctx)
            order = sorted(range(len(res.values)), key=lambda i: res.values[i], reverse=True)
            return [res.values[i] for i in order], [res.vectors[i] for i in order], solver
        method = solver if solver in ("jacobi", "tridiagonal") else _auto_method(n)
        eig = _eigh(K, method, ctx)
        return eig.values, eig.vectors, method


@dataclass
class Problem:
    """What a solver is given: the shape, the k wanted (0: all), the divisor, and the centred (scaled)
    data as rows or their covariance: the fit forms the covariance before it calls a solver whose
    ``forms_covariance`` says it reads it (``covariance()`` returns that matrix; another solver's call
    forms it then), and the rows when the solver first asks for them."""

    ctx: Context
    n: int
    d: int
    k: int
    div: Scalar
    seed: int
    jobs: int
    gram: Gram
    covariance: Callable[[], list[list[Scalar]]]
    rows: Callable[[], list[list[Scalar]]]


@dataclass(frozen=True)
class Solver:
    """One row of :data:`SOLVER_TABLE`: everything the fit asks of a solver."""

    #: The name ``PCA(solver=...)`` takes and ``solver_`` reports.
    name: str
    #: ``Problem -> Spectrum``.
    run: Callable[[Problem], Spectrum]
    #: ``(n, d, k) -> bool``: whether it reads the covariance (formed once) rather than the rows.
    forms_covariance: Callable[[int, int, int], bool]
    #: It computes only the top k: ``n_components`` must be an int >= 1 (and the variance the k leave is
    #: measured on the data).
    top_k: bool = False
    #: It squares the condition of the data (a formed covariance or Gram matrix): the fit estimates the
    #: small eigenvalues' losses, warns, and under ``"auto"`` takes ``"svd"`` instead when they are large.
    formed: bool = False
    #: ``(n, d, k) -> predicted cost or None``: what ``"auto"`` weighs (None here: never chosen by it).
    cost: Optional[Callable[[int, int, Optional[int]], Optional[float]]] = None


def _always(n: int, d: int, k: int) -> bool:
    return True


def _never(n: int, d: int, k: int) -> bool:
    return False


def _krylov_forms(n: int, d: int, k: int) -> bool:
    return krylov_form(n, d, k) == "covariance"


def _run_krylov(P: Problem) -> Spectrum:
    if _krylov_forms(P.n, P.d, P.k):
        return solve_krylov_covariance(P.covariance(), P.k, P.ctx, seed=P.seed)
    return solve_krylov(P.rows(), P.k, P.div, P.ctx, seed=P.seed, gram=P.gram, jobs=P.jobs)


#: The solvers, in the order ``"auto"`` prefers on a tie.  Adding a solver is one function and one row
#: (:func:`register_solver`): validation, ``"auto"``, the k check and the losses read this table.
SOLVER_TABLE: dict[str, Solver] = {}


def register_solver(solver: Solver) -> Solver:
    """Add ``solver`` as a row of :data:`SOLVER_TABLE` (``PCA(solver=solver.name)`` then runs it).

    The row is checked (a name, callable ``run`` and ``forms_covariance``, a callable ``cost`` or
    None, bool flags), and what its ``run`` returns is checked before it becomes a model
    (:func:`_checked_spectrum`).

    >>> axis = lambda P: [P.ctx.one] + [P.ctx.zero] * (P.d - 1)
    >>> row = register_solver(Solver("first_axis", lambda P: Spectrum([P.ctx.one], [axis(P)], P.ctx.one, "first_axis"),
    ...                              _never))
    >>> SOLVER_TABLE.pop("first_axis") is row
    True
    >>> register_solver(Solver("mine", "not a function", _never))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: register_solver: the row 'mine': run must be callable (Problem -> Spectrum), got ...
    """
    row = _checked_row(solver, "register_solver")
    SOLVER_TABLE[row.name] = row
    return row


def _checked_row(row: Any, where: str, name: Any = None) -> Solver:
    """``row`` if it is a well-formed :class:`Solver` (under the key ``name`` when given), else an error
    naming it (``where``: who found it)."""
    if not isinstance(row, Solver):
        raise PurePCAError(f"{where}: expected a Solver with a name other than 'auto', got {type(row).__name__} "
                           f"{row!r:.60}")
    if not isinstance(row.name, str) or not row.name.strip() or row.name == "auto":
        raise PurePCAError(f"{where}: expected a Solver with a name other than 'auto' (a non-empty string), got "
                           f"the name {row.name!r:.60}")
    if name is not None and row.name != name:
        raise PurePCAError(f"{where}: holds the row named {row.name!r:.60}; a row is kept under its own name "
                           "(register_solver)")
    who = f"{where}: the row {row.name!r:.60}"
    for field, shape in (("run", "Problem -> Spectrum"), ("forms_covariance", "(n, d, k) -> bool")):
        if not callable(getattr(row, field)):
            raise PurePCAError(f"{who}: {field} must be callable ({shape}), got {getattr(row, field)!r:.60}")
    if row.cost is not None and not callable(row.cost):
        raise PurePCAError(f"{who}: cost must be None or callable ((n, d, k) -> cost or None), got {row.cost!r:.60}")
    for flag in ("top_k", "formed"):
        if not isinstance(getattr(row, flag), bool):
            raise PurePCAError(f"{who}: {flag} must be True or False, got {getattr(row, flag)!r:.60}")
    return row


def _solver_row(name: str) -> Solver:
    """The row of :data:`SOLVER_TABLE` named ``name`` (a deleted or junk row named: :func:`_table_row`)."""
    row = SOLVER_TABLE.get(name)
    return row if type(row) is Solver and _is_own(row) else _table_row(name, row)


def _is_own(row: Solver) -> bool:
    """Whether ``row`` is one of purepca's own rows (trusted: their tests hold what the checks check)."""
    return any(row is own for own in _OWN_ROWS)


def _table_row(name: str, row: Any) -> Solver:
    """A registered row of :data:`SOLVER_TABLE`, checked: a row deleted from the table or junk put
    into it directly is an error naming it, not a ``KeyError`` or ``TypeError`` deep in a fit.

    >>> _solver_row("svd").name
    'svd'
    >>> _solver_row("nonesuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: SOLVER_TABLE has no row 'nonesuch' (deleted?): ...
    """
    if row is None:
        raise PurePCAError(f"SOLVER_TABLE has no row {name!r} (deleted?): the fit needs it; put it back with "
                           f"register_solver (the rows now: {', '.join(map(repr, SOLVER_TABLE))})")
    return _checked_row(row, f"SOLVER_TABLE[{name!r}]", name)


def solved(row: Solver, P: Problem) -> Spectrum:
    """``row.run(P)``: a registered solver's answer checked (:func:`_checked_spectrum`), purepca's own trusted."""
    return row.run(P) if _is_own(row) else _checked_spectrum(row.run(P), row, P)


#: A registered solver's axes are refused when ``|v_i·v_j - δ_ij|`` exceeds this many ``d·eps``
#: (d the number of features, eps the context's): purepca's own solvers stay below 0.7 (measured on
#: 180 fits of random data with spreads of 1e±3, all six paths), LAPACK's test passes below 30.
ORTHOGONALITY_TOLERANCE = 64


def _checked_spectrum(found: Any, row: Solver, P: Problem) -> Spectrum:
    """What a solver's ``run`` returned, checked as any answer is before it becomes a model: a
    :class:`Spectrum` of finite, non-negative values in descending order, as many as the shape allows
    (at least the k wanted), each with a unit axis of d entries, the axes orthogonal (to
    :data:`ORTHOGONALITY_TOLERANCE` ``·d·eps``), a finite total at least their sum.  An error naming the
    solver otherwise.  purepca's own rows are trusted (their tests hold these properties) and pass
    through unchanged.

    >>> from purepca import FLOAT
    >>> P = Problem(FLOAT, 3, 2, 0, 1.0, 0, 1, FLOAT.gram, lambda: [], lambda: [])
    >>> _checked_spectrum(Spectrum([1.0, 2.0], [[1.0, 0.0], [0.0, 1.0]], 3.0, "x"), Solver("x", print, _never), P)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: solver 'x': values[1] = 2.0 is above values[0] = 1.0: the values must be in ...
    """
    if _is_own(row):
        return found  # type: ignore[no-any-return]
    who = f"solver {row.name!r}"
    if not isinstance(found, Spectrum):
        raise PurePCAError(f"{who} returned {type(found).__name__} {found!r:.60}; a solver's run must return a "
                           "Spectrum(values, components, total, solver)")
    ctx, d = P.ctx, P.d
    limit = min(P.n, P.d)
    values = _solver_numbers(found.values, ctx, f"{who}: values")
    m = len(values)
    if not 1 <= m <= limit or (P.k and m < P.k):
        least = max(P.k, 1)
        raise PurePCAError(f"{who} returned {m} values; expected between {least} and min(n_samples, n_features) = "
                           f"{limit}")
    for i, v in enumerate(values):
        if v < 0:
            raise PurePCAError(f"{who}: values[{i}] = {ctx.to_float(v)!r} is negative; a variance never is")
        if i and v > values[i - 1]:
            raise PurePCAError(f"{who}: values[{i}] = {ctx.to_float(v)!r} is above values[{i - 1}] = "
                               f"{ctx.to_float(values[i - 1])!r}: the values must be in descending order")
    if not isinstance(found.components, (list, tuple)) or len(found.components) != m:
        got = f"{len(found.components)} axes" if isinstance(found.components, (list, tuple)) else \
            type(found.components).__name__
        raise PurePCAError(f"{who}: expected {m} axes (one per value) of {d} numbers, got {got}")
    comps = []
    for i, v in enumerate(found.components):
        axis = _solver_numbers(v, ctx, f"{who}: components[{i}]")
        if len(axis) != d:
            raise PurePCAError(f"{who}: components[{i}] has {len(axis)} entries; expected {d} (one per feature)")
        comps.append(axis)
    tol = ORTHOGONALITY_TOLERANCE * d * ctx.to_float(ctx.eps)
    for i, u in enumerate(comps):
        for j in range(i + 1):
            off = ctx.to_float(ctx.dot(u, comps[j]) - (ctx.one if i == j else ctx.zero))
            if not abs(off) <= tol:
                what = f"components[{i}] is not a unit vector (its squared length is 1 {off:+.3g})" if i == j else \
                    f"components[{j}] and components[{i}] are not orthogonal (their product is {off:.3g})"
                raise PurePCAError(f"{who}: {what}; the axes must be orthonormal to {tol:.3g} "
                                   f"({ORTHOGONALITY_TOLERANCE}·d·eps)")
    total = _solver_numbers([found.total], ctx, f"{who}: total")[0]
    kept = ctx.sum(values)
    if total < 0 or ctx.to_float(kept) > ctx.to_float(total) * (1 + tol):
        raise PurePCAError(f"{who}: total = {ctx.to_float(total)!r} is below the sum of the values "
                           f"({ctx.to_float(kept)!r}); it is the total variance, at least what the values hold")
    beyond = None
    if found.next_value is not None:
        beyond = _solver_numbers([found.next_value], ctx, f"{who}: next_value")[0]
        if beyond < 0 or beyond > values[-1]:
            raise PurePCAError(f"{who}: next_value = {ctx.to_float(beyond)!r} must be between 0 and the last value "
                               f"{ctx.to_float(values[-1])!r}")
    return Spectrum(values, comps, total, row.name, beyond)


def _solver_numbers(value: Any, ctx: Context, where: str) -> list[Scalar]:
    """A solver's list of numbers at the context's precision, each finite, or an error naming the entry."""
    if isinstance(value, (str, bytes, dict, set, frozenset)) or not hasattr(value, "__iter__"):
        raise PurePCAError(f"{where}: expected a list of numbers, got {type(value).__name__} {value!r:.60}")
    out = []
    for i, x in enumerate(value):
        try:
            if isinstance(x, bool) or not isinstance(x, (numbers.Real, Decimal)):
                raise TypeError
            y = ctx.convert(x if isinstance(x, (float, int, Decimal)) else float(x))
            finite = math.isfinite(ctx.to_float(y))
        except (TypeError, ValueError, ArithmeticError):
            finite = False
        if not finite:
            raise PurePCAError(f"{where}[{i}] = {x!r:.60}: expected a finite real number")
        out.append(y)
    return out


#: purepca's own rows (trusted: their tests hold what _checked_spectrum checks).
_OWN_ROWS = (
    Solver("covariance", lambda P: solve_covariance(P.covariance(), min(P.n, P.d), P.ctx), _always, formed=True,
           cost=_full_path_cost("covariance")),
    Solver("jacobi", lambda P: solve_covariance(P.covariance(), min(P.n, P.d), P.ctx, "jacobi"), _always,
           formed=True),
    Solver("gram", lambda P: solve_gram(P.rows(), P.div, P.ctx, P.gram), _never, formed=True,
           cost=_full_path_cost("gram")),
    Solver("svd", lambda P: solve_svd(P.rows(), P.div, P.ctx), _never),
    Solver("krylov", _run_krylov, _krylov_forms, top_k=True, cost=_krylov_cost),
    Solver("power", lambda P: solve_power(P.rows(), P.k, P.div, P.ctx, seed=P.seed), _never, top_k=True),
)
for _row in _OWN_ROWS:
    register_solver(_row)
